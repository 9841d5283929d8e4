"""Deep phase (pure): score, gate, dedupe, supersede, forget, cap, budget -> the actions of a run.

Order of the gates (a candidate reports the first it fails): what the light phase rejected (junk,
the lint's rules, chatter, needs context, transient), minimum recalls, minimum distinct queries,
minimum score, too long, already in MEMORY.md (same key), then one subject, one entry: a candidate
repeating or updated by a newer snippet of this run is `duplicate` or `outdated` (the newest
wins), one repeating an entry or a person's line is `duplicate`; then the cap on promotions per run
and the MEMORY.md load budget. Supersede is not a gate: a newer fact about the same subject as an
entry memgit wrote becomes an edit of that entry. "Same subject" is `subjects.same_subject` (names
and key words, not the first word); the meaning must be close too (cosine, or term overlap
without a model).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import date

from memgit.config import DreamConfig
from memgit.core.provenance import MemoryEntry, SourceRef
from memgit.dream import memory_doc
from memgit.dream.concepts import entry_key, plain, words
from memgit.dream.forget import ForgetProposal, forget_proposals
from memgit.dream.light import overlap
from memgit.dream.model import Action, Candidate, Review, ShortTerm, Similarity
from memgit.dream.scoring import components
from memgit.dream.standalone import CHANGE_WORDS
from memgit.dream.subjects import Subject, same_subject, subject_of, values_of
from memgit.dream.timeline import human_units, newest_versions, order, with_evidence
from memgit.dream.turns import note_day
from memgit.dream.updates import UpdateContext, conflict_advice, one_version_a_run, searched_with, update_entries
from memgit.dream.version_model import judge, together
from memgit.dream.versions import CONFLICT, TERM_THRESHOLDS, UPDATE, VersionThresholds, key_update
from memgit.ledger.lines import Recall

GATES = (
    "rejected",
    "not on the branch",
    "recalls",
    "queries",
    "score",
    "too long",
    "already promoted",
    "duplicate",
    "outdated",
    "cap",
    "budget",
)


def score_entries(entries: list[ShortTerm], cfg: DreamConfig, today: date) -> list[Candidate]:
    out = []
    for entry in entries:
        comp = components(
            recalls=entry.recalls,
            queries=len(entry.queries),
            days=entry.days,
            relevance=entry.relevance,
            tags=len(entry.tags),
            today=today,
            half_life_days=cfg.recency_half_life_days,
        )
        # The key is made from the source's words, not from the standalone rewrite: a review decision
        # sticks to what the log says, so only a changed source text is a new proposal (a rewrite
        # that changes with a heading, or with memgit's rules, is not).
        out.append(Candidate(key=entry_key(entry.text), entry=entry, components=comp, score=comp.weighted(cfg.weights)))
    out.sort(key=lambda c: (-c.score, c.entry.path, c.entry.start))
    return out


def _entry_day(entry: MemoryEntry, review: Review) -> str:
    """When the fact of an entry was true: its source's daily-log day, else the promotion day
    (from the provenance store, else a long marker)."""
    record = review.records.get(entry.key)
    source = record.source if record is not None and record.source else entry.marker.source
    if source is not None:
        day = note_day(source.path)
        if day is not None:
            return day
    return record.day if record is not None else entry.marker.promoted or ""


def _written_order(entry: MemoryEntry, review: Review) -> tuple[str, str, int]:
    """When the fact of an entry was written: its source's day and place."""
    record = review.records.get(entry.key)
    source = record.source if record is not None and record.source else entry.marker.source
    day = _entry_day(entry, review)
    return (day, source.path, source.start) if source is not None else (day, "", 0)


def _candidate_day(c: Candidate) -> str:
    return note_day(c.entry.path) or min(c.entry.days)


def _newest_first(c: Candidate) -> tuple[str, str, int]:
    return (_candidate_day(c), c.entry.path, c.entry.start)


def version_thresholds(similarity: Similarity) -> VersionThresholds:
    return VersionThresholds() if similarity.kind == "embedding" else TERM_THRESHOLDS


def _entry_order(e: ShortTerm) -> tuple[str, str, int]:
    return (note_day(e.path) or min(e.days, default=""), e.path, e.start)


def pool_versions(entries: list[ShortTerm], similarity: Similarity) -> list[ShortTerm]:
    """The entries with each fact's newest version holding the evidence of all its versions.

    A fact that changed is searched in several wordings ("when does X meet", "the new slot"), and
    a search reaches whichever version's words it shares: each version alone may fall short of the
    distinct-query and recall gates while the fact as a whole was asked about often. So the searches
    of an older version (one the newer one updates, versions.py) count for the newest, each search
    once, as for copies of one line (the light phase). Such a search counts at the newest version's
    own mean relevance: it shows the fact was asked about, not how well this line answers. Only the
    newest gains; the older versions keep their own evidence, and the deep phase marks them
    `outdated` when the newest passes."""
    live = [i for i, e in enumerate(entries) if not e.rejected and e.evidence]
    if len(live) < 2:
        return entries
    order = sorted(live, key=lambda i: _entry_order(entries[i]), reverse=True)
    texts = [plain(entries[i].fact) for i in order]
    sims = similarity.compare(texts, texts)
    limits = version_thresholds(similarity)
    newest: dict[int, int] = {}  # position in `order` -> position of the newest version of its fact
    for j in range(len(order)):
        for i in range(j):
            if _entry_order(entries[order[i]]) != _entry_order(entries[order[j]]) and (
                judge(texts[i], texts[j], sims[i][j], limits) == UPDATE
            ):
                newest[j] = newest.get(i, i)
                break
    if not newest:
        return entries
    pooled = {order[i]: dict(entries[order[i]].evidence) for i in set(newest.values())}
    for j, i in newest.items():
        own = entries[order[i]].relevance
        for search in entries[order[j]].evidence:
            pooled[order[i]].setdefault(search, own)
    return [
        replace(e, evidence=pooled[k], pooled=e.pooled | (pooled[k].keys() - e.evidence.keys())) if k in pooled else e
        for k, e in enumerate(entries)
    ]


#: Gates a candidate may fail and still be the older version a newer line stands in for.
_EVIDENCE_GATES = (None, "recalls", "queries", "score")


def _stand_ins(
    candidates: list[Candidate],
    silent: list[ShortTerm],
    similarity: Similarity,
    relate: Callable[[str, str, float], str | None],
    cfg: DreamConfig,
    today: date,
) -> list[Candidate]:
    """The subject timeline for candidates: one with a newer version among the window's lines is
    `outdated` (never proposed: it is no longer true), and the newest version stands in for it with
    its searches as evidence (timeline.py). Returns the stand-ins, scored."""
    live = [c for c in candidates if not c.entry.rejected and c.gate in _EVIDENCE_GATES]
    found = newest_versions([(c.entry.fact, order(c.entry)) for c in live], silent, similarity.compare, relate)
    olders: dict[int, list[Candidate]] = {}
    for c, j in zip(live, found, strict=True):
        if j is not None:
            c.gate = "outdated"
            olders.setdefault(j, []).append(c)
    out = []
    for j, older in sorted(olders.items()):
        evidence: dict[tuple[str, str, str], float] = {}
        for c in older:
            evidence.update(c.entry.evidence)
        stand_in = score_entries([with_evidence(silent[j], evidence)], cfg, today)[0]
        stand_in.replaced = [plain(c.entry.fact) for c in older]
        out.append(stand_in)
    return out


def one_subject_one_entry(judged: list[Candidate], similarity: Similarity, cfg: DreamConfig) -> None:
    """Within a run, the newest snippet about a subject wins: an older candidate that says the same
    (duplicate) or that a newer one updates (same subject, close meaning) does not pass. A newer
    snippet that failed an evidence gate still outdates an older value (a stale value is not
    promoted because its update was searched less), but only a passing one absorbs a duplicate
    (it takes its source, `also=`); a duplicate of a proposal a reviewer rejected is rejected too.
    A newer version short only of the score takes the place of the older one that passed: the
    older one's evidence shows the subject is durable, and the newer one's relevance is split with
    the older lines that still top the searches about it."""
    if len(judged) < 2:
        return
    order = sorted(judged, key=_newest_first, reverse=True)
    texts = [plain(c.entry.fact) for c in order]
    sims = similarity.compare(texts, texts)
    bag = [words(t) for t in texts]
    subjects = [subject_of(t) for t in texts]
    numbers = [values_of(t) for t in texts]
    dup, sup = similarity.duplicate_threshold(cfg), similarity.supersede_threshold(cfg)
    limits = version_thresholds(similarity)
    terms = similarity.kind != "embedding"  # without a model, the subject's words decide as well
    for j, older in enumerate(order):
        if older.gate is not None:
            continue
        for i in range(j):
            newer = order[i]
            if _newest_first(newer) == _newest_first(older):
                continue
            close = sims[i][j] >= dup or overlap(bag[i], bag[j]) >= cfg.duplicate_overlap
            verdict = judge(texts[i], texts[j], sims[i][j], limits)
            if close and numbers[i] == numbers[j] and verdict != UPDATE:
                if newer.gate is None:
                    older.gate = "duplicate"
                    if older.source is not None:  # `_gate` gave every candidate one
                        newer.also.append(older.source)
                    newer.also.extend(older.also)
                    break
                if newer.gate == "rejected":
                    older.gate = "rejected"  # the same fact in other words: a person said no to it
                    break
                continue
            legacy = terms and (close or sims[i][j] >= sup) and same_subject(subjects[i], subjects[j])
            if verdict == UPDATE or legacy:
                older.gate = "outdated"
                newer.replaced.append(plain(older.entry.fact))
                if newer.gate == "score":
                    newer.gate = None
                break
            if verdict == CONFLICT and newer.gate is None:
                newer.conflicts.append((older.key, texts[j]))
                older.conflicts.append((newer.key, texts[i]))


def deep_phase(
    entries: list[ShortTerm],
    memory_text: str,
    recalls: list[Recall],
    *,
    cfg: DreamConfig,
    similarity: Similarity,
    now_day: date,
    base_commit: str,
    review: Review | None = None,
    silent: Sequence[ShortTerm] = (),
) -> tuple[list[Candidate], list[Action], list[str], dict[str, int]]:
    """Candidates (each with its gate), the actions in commit order, MEMORY.md after each action,
    and the count of candidates stopped at each gate. `review`: what people decided so far;
    `silent`: the window's lines without evidence, the subject timeline's newer versions (timeline.py).

    The steps: score, stop at the evidence gates, keep one candidate per subject, compare the
    survivors with MEMORY.md (duplicate, outdated, or an update of an entry), then write: forgets
    first, promotions up to the cap and the load budget."""
    review = review or Review()
    candidates = score_entries(pool_versions(entries, similarity), cfg, now_day)
    existing = memory_doc.parse_entries(memory_text, review.hashes)
    _gate(candidates, {e.key for e in existing}, cfg, review, base_commit)
    limits = version_thresholds(similarity)

    def relate(newer: str, older: str, sim: float) -> str | None:
        return judge(newer, older, sim, limits)

    def relate_hand(newer: str, older: str, sim: float) -> str | None:
        """For a line a person wrote in MEMORY.md, a newer line naming its key with another value is its update too."""
        verdict = relate(newer, older, sim)
        embedded = similarity.kind == "embedding"
        return UPDATE if verdict != UPDATE and embedded and key_update(newer, older, sim) else verdict

    stand_ins = _stand_ins(candidates, list(silent), similarity, relate, cfg, now_day)
    _gate(stand_ins, {e.key for e in existing}, cfg, review, base_commit)
    candidates += stand_ins
    one_subject_one_entry(
        [c for c in candidates if not c.entry.rejected and c.gate not in ("too long", "already promoted")],
        similarity,
        cfg,
    )
    passing = [c for c in candidates if c.gate is None]
    near = [c for c in candidates if c.gate == "score"]
    superseded = _compare_with_memory(passing, near, existing, memory_text, cfg, similarity, review)
    candidates += update_entries(
        candidates,
        existing,
        human_units(memory_text, review.hashes),
        [e for e in silent if (e.path, e.start) not in {(c.entry.path, c.entry.start) for c in candidates}],
        superseded,
        ctx := UpdateContext(
            similarity.compare,
            relate,
            review,
            base_commit,
            lambda e: _written_order(e, review),
            relate_hand,
            found_together=searched_with(recalls),
            relate_together=lambda newer, older, sim: together(newer, older, sim, limits),
        ),
    )
    one_version_a_run(candidates, ctx, _newest_first)
    forgets = forget_proposals(
        existing, recalls, cfg=cfg, today=now_day, busy=superseded, review=review, records=review.records
    )
    if review.only is not None:
        forgets = [f for f in forgets if f.entry.key in review.only]
    actions: list[Action] = []
    states: list[str] = []
    text = _write_forgets(forgets, memory_text, cfg, review, actions, states)
    _write_promotions([c for c in candidates if c.gate is None], text, existing, cfg, review, actions, states)
    counts: dict[str, int] = defaultdict(int)
    for c in candidates:
        counts[c.gate or "proposed"] += 1
    return candidates, actions, states, dict(counts)


def _gate(
    candidates: list[Candidate], existing_keys: set[str], cfg: DreamConfig, review: Review, base_commit: str
) -> None:
    """Give each candidate its source and the first gate it fails: what the light phase judged,
    a person's decision, the evidence (recalls, distinct queries), length, keys MEMORY.md holds
    already, then the score (last: a candidate short only of the score may still be an update)."""
    max_chars = cfg.max_entry_tokens * 4
    for c in candidates:
        e = c.entry
        c.source = SourceRef(e.path, e.start, e.end, base_commit)
        c.also = [SourceRef(p, s, t, base_commit) for p, s, t in e.sources[1:]]
        if e.rejected:
            c.gate = e.rejected  # what the light phase judged can never be an entry
        elif c.key in review.rejected:
            c.gate = "rejected"  # a person said no; only a changed source text is a new key
        elif review.only is not None and c.key not in review.only:
            c.gate = "not on the branch"  # a branch regenerated after a drop proposes nothing new
        elif e.recalls < cfg.min_recall_count:
            c.gate = "recalls"
        elif len(e.queries) < cfg.min_unique_queries:
            c.gate = "queries"
        elif len(plain(e.fact)) > max_chars:
            c.gate = "too long"
        elif c.key in existing_keys:
            c.gate = "already promoted"
        elif c.score < cfg.min_score:
            c.gate = "score"


def _compare_with_memory(
    passing: list[Candidate],
    near: list[Candidate],
    existing: list[MemoryEntry],
    memory_text: str,
    cfg: DreamConfig,
    similarity: Similarity,
    review: Review,
) -> set[str]:
    """Duplicates and supersedes: each survivor against MEMORY.md's entries and a person's lines.
    A repeat is a `duplicate`; the text an earlier update replaced, or an older fact about a
    subject an entry holds newer, is `outdated`; a newer fact about an entry's subject becomes an
    update of that entry. A candidate of `near` (short only of the score) passes as an update of an
    entry and stays gated otherwise: the entry's evidence shows the subject is durable, and it tops
    the searches about it (MEMORY.md's hits set no best, but its old log lines still do). Returns
    the keys of the entries updated."""
    human_units = _human_units(memory_text, review.hashes)
    pool = [plain(e.body) for e in existing] + [plain(u) for u in human_units]
    judged = passing + near
    texts = [plain(c.entry.fact) for c in judged]
    sims = similarity.compare(texts, pool) if judged and pool else [[] for _ in judged]
    dup = similarity.duplicate_threshold(cfg)
    sup = similarity.supersede_threshold(cfg)
    pool_words = [words(text) for text in pool]
    pool_values = [values_of(text) for text in pool]
    entry_subjects: dict[str, Subject] = {e.key: subject_of(plain(e.body)) for e in existing}

    limits = version_thresholds(similarity)

    def repeats(c: Candidate, row: list[float]) -> bool:
        # The same words (or a cosine this high) with the same values say the same thing; with other
        # values ("standup at 9:45" / "at 11:00"), or saying what changed ("now prefers …"), they are
        # a newer version of it, judged below. A person's line is never updated, so for it the same
        # words are enough.
        text = plain(c.entry.fact)
        mine, numbers = words(text), values_of(text)
        return any(
            (overlap(mine, theirs) >= cfg.duplicate_overlap or (k < len(row) and row[k] >= dup))
            and (
                k >= len(existing)
                or (numbers == pool_values[k] and not _updates(c, existing[k], row[k], limits, review))
            )
            for k, theirs in enumerate(pool_words)
        )

    superseded: set[str] = set()
    replaced = {e.marker.extra["supersedes"] for e in existing if "supersedes" in e.marker.extra} | review.replaced
    for index, (c, row) in enumerate(zip(judged, sims, strict=True)):
        short = index >= len(passing)  # of `near`: it passes as an update or keeps its gate
        if repeats(c, row):
            c.gate = c.gate if short else "duplicate"
            continue
        if c.key in replaced:
            c.gate = c.gate if short else "outdated"  # the very text an earlier run's update replaced
            continue
        best, newer_entry = _best_update(
            c, existing, row, superseded, entry_subjects, sup, limits, review, similarity.kind != "embedding"
        )
        if best is not None:
            c.gate, c.action, c.target, c.target_text = None, "supersede", best.key, plain(best.body)
            superseded.add(best.key)
            continue
        if short:
            continue
        if newer_entry:
            c.gate = "outdated"  # an entry about the same subject holds a newer fact
            continue
        text = plain(c.entry.fact)
        for e, value in zip(existing, row, strict=False):
            newer = _candidate_day(c) > _entry_day(e, review)
            if e.owned and e.key not in superseded and newer and judge(text, plain(e.body), value, limits) == CONFLICT:
                c.conflicts.append((e.key, plain(e.body)))
    return superseded


def _updates(c: Candidate, e: MemoryEntry, value: float, limits: VersionThresholds, review: Review) -> bool:
    """`c` is a newer version of entry `e` by meaning (versions.py), or a reviewer said so."""
    if review.updates.get(c.key) == e.key:
        return True
    return (
        _candidate_day(c) > _entry_day(e, review) and judge(plain(c.entry.fact), plain(e.body), value, limits) == UPDATE
    )


def _best_update(
    c: Candidate,
    existing: list[MemoryEntry],
    row: list[float],
    superseded: set[str],
    entry_subjects: dict[str, Subject],
    sup: float,
    limits: VersionThresholds,
    review: Review,
    terms: bool,
) -> tuple[MemoryEntry | None, bool]:
    """The entry `c` updates (a reviewer's `dream supersede` first, then the closest entry it is a
    newer version of), and whether an entry holds a newer version of it."""
    forced = review.updates.get(c.key)
    for e in existing:
        if e.key == forced and e.owned and e.key not in superseded:
            return e, False
    subj = subject_of(plain(c.entry.fact))
    text = plain(c.entry.fact)
    best: tuple[float, MemoryEntry] | None = None
    newer_entry = False
    for e, value in zip(existing, row, strict=False):
        if not e.owned or e.key in superseded:
            continue
        # With a model, meaning decides (versions.py); without one, the subject's words may too.
        legacy = terms and value >= sup and same_subject(subj, entry_subjects[e.key])
        if _candidate_day(c) <= _entry_day(e, review):
            if legacy or judge(plain(e.body), text, value, limits) == UPDATE:
                newer_entry = True
            continue
        if (legacy or judge(text, plain(e.body), value, limits) == UPDATE) and (best is None or value > best[0]):
            best = (value, e)
    return (best[1] if best else None), newer_entry


def _write_forgets(
    forgets: list[ForgetProposal], text: str, cfg: DreamConfig, review: Review, actions: list[Action], states: list[str]
) -> str:
    """Each forget proposal as an action and MEMORY.md without its entry; returns the text."""
    for proposal in forgets:
        entry = proposal.entry
        text = memory_doc.remove_entry(text, entry.key, review.hashes)
        record = review.records.get(entry.key)
        actions.append(
            Action(
                kind="forget",
                key=entry.key,
                text=plain(entry.body),
                source=record.source if record is not None and record.source else entry.marker.source,
                score=None,
                components=None,
                subject=f"dream: forget {_short(plain(entry.body))}",
                body=_forget_body(proposal, cfg),
            )
        )
        states.append(text)
    return text


def _write_promotions(
    chosen: list[Candidate],
    text: str,
    existing: list[MemoryEntry],
    cfg: DreamConfig,
    review: Review,
    actions: list[Action],
    states: list[str],
) -> str:
    """Promotions and updates in order, up to the cap per run and MEMORY.md's load budget (the
    candidates past either get that gate); returns the text."""
    promoted = 0
    # Updates first: the newest version of a fact that changed is never lost to the cap.
    chosen = sorted(chosen, key=lambda c: c.action != "supersede")
    for c in chosen:
        if promoted >= cfg.max_promotions:
            c.gate = "cap"
            continue
        body = "- " + plain(c.entry.fact)
        if c.action == "supersede" and c.target_raw is not None:
            new_text = memory_doc.replace_line(text, c.target_raw, c.key, body)
        elif c.action == "supersede":
            new_text = memory_doc.replace_entry(text, str(c.target), c.key, body, review.hashes)
        else:
            new_text = memory_doc.add_entry(text, c.key, body, section=cfg.section)
        if len(new_text) > cfg.memory_max_chars and len(new_text) > len(text):
            c.gate = "budget"
            continue
        text = new_text
        promoted += 1
        actions.append(_promotion(c, existing, review, {x.key for x in chosen}))
        states.append(text)
    return text


def _promotion(c: Candidate, existing: list[MemoryEntry], review: Review, proposals: Collection[str]) -> Action:
    previous = None
    if c.action == "supersede" and c.target_raw is None:
        target = next(e for e in existing if e.key == c.target)
        record = review.records.get(target.key)
        previous = record.source if record is not None and record.source else target.marker.source
    verb = "update" if c.action == "supersede" else "remember"
    return Action(
        kind=c.action,
        key=c.key,
        text=plain(c.entry.fact),
        source=c.source,
        score=c.score,
        components=c.components,
        subject=f"dream: {verb} {_short(plain(c.entry.fact))}",
        body=_promote_body(c, previous, {e.key for e in existing}, proposals),
        target=c.target,
        previous_source=previous,
        also=tuple(c.also),
        previous_text=c.target_text,
        conflicts=tuple(c.conflicts) if c.action != "supersede" else (),
        previous_by_hand=c.target_raw is not None,
        timeline=c.timeline,
    )


def _human_units(memory_text: str, hashes: Mapping[str, str]) -> list[str]:
    """Paragraphs and list items a person wrote in MEMORY.md (what a candidate must not repeat)."""
    units = []
    for line in memory_doc.human_text(memory_text, hashes).splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and not stripped.startswith("<!--"):
            units.append(stripped)
    return units


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _promote_body(
    c: Candidate, previous: SourceRef | None, entries: Collection[str] = (), proposals: Collection[str] = ()
) -> str:
    e = c.entry
    if e.days:
        lines = [
            f"Recalled {e.recalls} times by {len(e.queries)} distinct queries on {len(set(e.days))} days "
            f"({min(e.days)} .. {max(e.days)}).",
        ]
    else:
        lines = ["Not searched for: a newer note on the subject of an entry MEMORY.md holds (the entry is long-term)."]
    if c.action == "supersede" and c.target_raw is not None:
        lines.append(f"Replaces a line written by hand in MEMORY.md ({c.target}):")
        lines += ["", f"- was: {c.target_text}", f"- now: {plain(e.fact)}", ""]
    elif c.action == "supersede":
        lines.append(f"Replaces entry {c.target}" + (f" (from {previous.format()})" if previous else "") + ":")
        lines.append("")
        lines.append(f"- was: {c.target_text}")
        lines.append(f"- now: {plain(e.fact)}")
        lines.append("")
    for old in c.replaced[:3]:
        lines.append(f"Newer than this run's older snippet: {old}")
    if e.changes:
        lines.append(
            "Rewritten to stand alone ("
            + ", ".join(CHANGE_WORDS.get(x, x) for x in e.changes)
            + "); the source line is unchanged."
        )
    if c.also:
        lines.append("Also said in: " + ", ".join(ref.format() for ref in c.also) + ".")
    if c.action != "supersede":
        lines += [conflict_line(c.key, key, text, entries, proposals) for key, text in c.conflicts]
    return "\n".join(lines)


def conflict_line(key: str, other: str, text: str, entries: Collection[str], proposals: Collection[str]) -> str:
    """What a reviewer reads when a proposal may be a newer version of an entry, of another
    proposal of the run or of a person's own line, and what to do if it is (updates.conflict_advice)."""
    return (
        f'May conflict with `{other}` "{text}": if this replaces it, {conflict_advice(key, other, entries, proposals)}.'
    )


def _forget_body(proposal: ForgetProposal, cfg: DreamConfig) -> str:
    return (
        f"Written by memgit on {proposal.written}; not searched for, loaded or read in the last "
        f"{cfg.forget_unrecalled_days} days, and {proposal.detail}. Git history keeps it; to keep it, "
        f"run `memgit dream drop {proposal.entry.key}` on the dream branch."
    )
