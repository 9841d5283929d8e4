"""The dream report (pure): what a run saw, what rose, what fell and why, in readable Markdown.

It is written to `memory/dreams/YYYY-MM-DD.md` on the dream branch and becomes the pull request's
body, so it is laid out as the reviewer's checklist: one item per proposal with what to run to
reject it, then the evidence. Its lines are never promoted (the light phase rejects everything under memory/dreams/).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from memgit.dream import memory_doc
from memgit.dream.concepts import plain, words
from memgit.dream.light import overlap
from memgit.dream.standalone import CHANGE_WORDS
from memgit.dream.turns import around, is_transcript, note_day, turn_id
from memgit.dream.updates import conflict_advice

if TYPE_CHECKING:
    from memgit.config import DreamConfig
    from memgit.dream.entries import EntryRecord
    from memgit.dream.model import Action, Candidate, DreamInputs, DreamPlan

GATE_WORDS = {
    "recalls": "too few recalls",
    "queries": "too few distinct queries",
    "score": "score below the minimum",
    "too long": "longer than the entry limit",
    "already promoted": "already in MEMORY.md",
    "duplicate": "says the same as an entry or a stronger candidate",
    "outdated": "older than an entry or a snippet about the same subject (the newest wins)",
    "needs context": "does not stand alone (a pronoun or a date only its log explains)",
    "transient": "a one-off event, plan or trial whose day has passed, or an appointment of the next two weeks",
    "junk: chatter": "chat filler: a question, greeting, thanks or praise",
    "one-off": "judged a one-off by the measured durable/one-off model (an event, a status of the moment)",
    "cap": "over the per-run cap",
    "budget": "MEMORY.md load budget reached",
    "source gone": "source text gone since the recall",
    "rejected": "rejected in review before",
    "not on the branch": "not on the branch being regenerated",
}
DECIDED_BY = {
    "drop": "dropped from the dream branch",
    "reject": "rejected with memgit dream reject",
    "closed": "its pull request was closed without merging",
    "missing": "listed in a merged report, taken out of MEMORY.md",
    "supersede": "made an update with memgit dream supersede",
}


def gate_label(gate: str) -> str:
    """What a gate means to a reviewer; a rule id of the lint (`junk: S104`) says it was never copied."""
    if gate in GATE_WORDS:
        return GATE_WORDS[gate]
    if gate.startswith("junk: ") and gate[6:7] in ("S", "P") and gate[7:].isdigit():
        return f"{gate}: flagged by the lint, never copied"
    return gate


def _cell(text: str, width: int = 90) -> str:
    text = plain(text).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "…"


def _full(text: str) -> str:
    """A proposal's text whole: the reviewer decides on what MEMORY.md will say, not on a cut."""
    return " ".join(plain(text).split())


def _order(action: Action) -> int:
    """Updates and possible conflicts first: they change what MEMORY.md already says."""
    if action.kind == "supersede":
        return 0
    return 1 if action.conflicts else (2 if action.kind == "promote" else 3)


def _quote(text: str) -> str:
    return '"' + _cell(text, 100).replace('"', "'") + '"'


def _source_line(record: EntryRecord | None, action: Action) -> str:
    source = action.source
    if source is None:
        return "from ?"
    about = [f"`{source.path}:{source.start}-{source.end}`"]
    if record is not None and record.heading and record.heading.lstrip("#").strip() != record.date:
        about.append(f"under {_quote(record.heading)}")  # a daily log's own date heading says nothing more
    if record is not None and record.date:
        about.append(f"({record.date})")
    if source.commit:
        about.append(f"at `{source.commit[:10]}`")
    return "from " + " ".join(about)


def _timeline(action: Action, record: EntryRecord | None, candidate: Candidate | None) -> str:
    """An update's subject over time, oldest first: the entry it replaces (its source and date, or
    "by hand"), the older lines of this run it outdates, and the new version's source and date."""
    old = action.previous_source
    if action.previous_by_hand:
        steps = ["by hand, before the logs"]
    elif old is not None:
        steps = [f"`{old.path}:{old.start}`" + (f" ({day})" if (day := note_day(old.path)) else "")]
    else:
        steps = ["an entry"]
    if candidate is not None:
        steps += [_quote(text) for text in candidate.replaced[:2]]
    new = action.source
    if new is not None:
        steps.append(f"`{new.path}:{new.start}`" + (f" ({record.date})" if record is not None and record.date else ""))
    return " → ".join(steps)


def _why_line(record: EntryRecord | None, action: Action, candidate: Candidate | None) -> str:
    if action.timeline:
        return "not searched for: a newer note on the subject of an entry MEMORY.md holds, which makes it long-term"
    parts = []
    if candidate is not None:
        e = candidate.entry
        parts.append(
            f"recalled {e.recalls} times by {len(e.queries)} questions on {len(set(e.days))} days, "
            f"score {action.score:.3f}"
            if action.score is not None
            else ""
        )
    if record is not None and record.why:
        parts.append("asked: " + "; ".join(_quote(q) for q in record.why))
    return "; ".join(p for p in parts if p)


def _conversation(path: str, line: int, files: Mapping[str, str | None]) -> list[str]:
    """A promoted turn in its conversation: the session, its turn, and the turns around it, one line
    each, so a reviewer sees the context without opening the JSONL."""
    text = files.get(path)
    if text is None:
        return []
    turn = turn_id(text, line)
    out = [f"  - said in `{path}`" + (f", turn {turn}" if turn else "") + f" (line {line}); around it:"]
    before, after = around(text, line)
    for found in (before, after):
        if found is not None:
            out.append(f"    - line {found[0]}: {_quote(found[1])}")
    return out


def _proposal(
    action: Action,
    record: EntryRecord | None,
    candidate: Candidate | None,
    before: dict[str, str],
    files: Mapping[str, str | None] | None = None,
    proposals: Collection[str] = (),
) -> list[str]:
    files = files or {}
    drop = f"`memgit dream drop {action.key}`"
    if action.kind == "forget":
        lines = [f"- [ ] **forget** `{action.key}` {_cell(action.text)}"]
        reason = action.body.split(". Git history")[0]
        lines.append(f"  - why: {_cell(reason, 300)}")
        if action.source is not None:
            lines.append(f"  - {_source_line(None, action)}")
        lines.append(f"  - to keep it: {drop}")
        return lines
    verb = "update" if action.kind == "supersede" else "remember"
    lines = [f"- [ ] **{verb}** `{action.key}` {_full(action.text)}"]
    if action.kind == "supersede":
        old = action.previous_text or before.get(action.target or "", "")
        by = "written by hand in MEMORY.md, " if action.previous_by_hand else ""
        lines.append(f"  - was: {_full(old)} ({by}`{action.target}`)")
        lines.append(f"  - now: {_full(action.text)}")
        lines.append(f"  - timeline: {_timeline(action, record, candidate)}")
    for other, text in action.conflicts:
        advice = conflict_advice(action.key, other, before, proposals)
        lines.append(f"  - may conflict with `{other}` {_quote(text)}: if this replaces it, {advice}")
    lines.append(f"  - {_source_line(record, action)}")
    if action.source is not None and is_transcript(action.source.path):
        lines += _conversation(action.source.path, action.source.start, files)
    if candidate is not None and candidate.entry.changes:
        done = ", ".join(CHANGE_WORDS.get(x, x) for x in candidate.entry.changes)
        lines.append(f"  - rewritten to stand alone ({done}); the log says: {_quote(candidate.entry.text)}")
    reason = _why_line(record, action, candidate)
    if reason:
        lines.append(f"  - why: {reason}")
    lines.append(f"  - to reject it: {drop}")
    return lines


def render_report(plan: DreamPlan, inputs: DreamInputs, gone: list[tuple[str, int, int, int]]) -> str:
    """The report, laid out as the pull request's checklist: the proposals first (each with its
    key, text, source, why and the command that rejects it), then what the run saw and what fell.
    A section with nothing to say is left out."""
    out = [f"# Dream {plan.day}", ""]
    out += _proposals_section(plan, inputs.files)
    if plan.migrated is not None:
        out += [
            "## Markers",
            "",
            f"The first commit rewrites {len(plan.migrated_records)} entry marker(s) of an earlier memgit to "
            "the short form (`<!--mg:KEY-->`); their provenance moves to `memory/.dreams/entries.jsonl`.",
            "",
        ]
    if plan.decisions:
        out += ["## Decisions recorded", ""]
        for d in plan.decisions:
            by = DECIDED_BY.get(d.by, d.by)
            out.append(f"- {d.verdict} `{d.key}` ({by}){': ' + _cell(d.text, 80) if d.text else ''}")
        out.append("")
    out += _seen_section(plan, inputs, gone)
    out += _fell_section(plan, inputs.config)
    return "\n".join(out).rstrip() + "\n"


def _proposals_section(plan: DreamPlan, files: Mapping[str, str | None]) -> list[str]:
    if not plan.actions:
        return []
    kinds = [a.kind for a in plan.actions]
    counts = ", ".join(
        f"{n} {label}"
        for n, label in (
            (kinds.count("promote"), "new"),
            (kinds.count("supersede"), "update"),
            (kinds.count("forget"), "forget"),
        )
        if n
    )
    out = [
        f"{len(plan.actions)} proposal(s) for MEMORY.md: {counts}. Each is one commit on this branch. "
        "Merge to accept them all; to reject one, run its `memgit dream drop` line (or delete its line "
        "from MEMORY.md on this branch): a rejected proposal is never proposed again.",
        "",
        "## Proposals",
        "",
    ]
    before = {e.key: plain(e.body) for e in memory_doc.parse_entries(plan.migrated or plan.memory_before)}
    by_key = {c.key: c for c in plan.candidates if c.gate is None}
    pairs = sorted(zip(plan.actions, plan.action_records(), strict=True), key=lambda pair: _order(pair[0]))
    for action, record in pairs:
        out += _proposal(action, record, by_key.get(action.key), before, files, {a.key for a in plan.actions})
    out.append("")
    return out


def _seen_section(plan: DreamPlan, inputs: DreamInputs, gone: list[tuple[str, int, int, int]]) -> list[str]:
    cfg = inputs.config
    s = plan.light
    similarity = "embeddings" if inputs.similarity.kind == "embedding" else "term overlap (no model)"
    out = [
        "## What was seen",
        "",
        f"Base commit `{inputs.base_commit[:12]}`; similarity by {similarity}.",
        "",
        f"- {s['recalls']} recalls in the last {cfg.max_age_days} days ({s['recent_recalls']} in the last "
        f"{cfg.light_lookback_days}), {s['entries']} distinct snippets, {s['folded']} near-duplicates folded.",
        f"- {s['notes_seen']} recent daily logs and transcripts read for themes.",
    ]
    if s["malformed"]:
        where = ", ".join(f"`{w}`" for w in inputs.malformed_where[:10])
        more = " …" if len(inputs.malformed_where) > 10 else ""
        out.append(f"- {s['malformed']} malformed ledger lines skipped: {where}{more}.")
    if s.get("weak_hits"):
        out.append(
            f"- {s['weak_hits']} hits too far down their search to count as recalls (not in the first "
            f"{cfg.recall_top_hits}, or under {cfg.recall_min_relative_score:.0%} of its best score)."
        )
    if gone:
        out.append(f"- {len(gone)} recalled snippets are gone from their files (edited or deleted since).")
    if plan.themes:
        out += ["", "Themes: " + ", ".join(f"{tag} ({strength:.2f})" for tag, strength in plan.themes) + "."]
    known = _known_texts(plan)
    truths = [t for t in plan.truths if not _is_known(t[2], known)]
    if truths:
        out += ["", "Candidate truths (REM):", ""]
        for where, conf, text in truths[:5]:
            out.append(f"- {_cell(text, 80)} (`{where}`, confidence {conf:.2f})")
    return out


def _fell_section(plan: DreamPlan, cfg: DreamConfig) -> list[str]:
    out: list[str] = []
    fell = [(gate, n) for gate, n in plan.gate_counts.items() if gate != "proposed"]
    if fell:
        out += ["", "## Fell, and why", ""]
        for gate, n in fell:
            out.append(f"- {n} × {gate_label(gate)}")
            if gate == "budget":
                out.append(
                    f"  (MEMORY.md would pass its load budget of {cfg.memory_max_chars} characters; "
                    "memgit never truncates it: forget or shorten entries to make room)"
                )
    known = _known_texts(plan)
    near = [
        c
        for c in plan.candidates
        if c.gate in ("score", "queries", "recalls", "cap", "budget") and not _is_known(c.entry.fact, known)
    ][:5]
    if near:
        out += ["", "Closest misses:", ""]
        for c in near:
            out.append(
                f"- {_cell(c.entry.fact, 70)} — score {c.score:.3f}, {c.entry.recalls} recalls, "
                f"{len(c.entry.queries)} queries: {GATE_WORDS.get(c.gate or '', c.gate)}"
            )
    return out


def _known_texts(plan: DreamPlan) -> list[frozenset[str]]:
    """The words of what needs no reviewer's look again: MEMORY.md's entries (before and after the
    run), this run's proposals, and what a reviewer rejected."""
    texts = [
        plain(e.body)
        for e in memory_doc.parse_entries(plan.memory_after[-1] if plan.memory_after else plan.memory_before)
    ]
    texts += [plain(e.body) for e in memory_doc.parse_entries(plan.memory_before)]
    texts += [a.text for a in plan.actions]
    texts += [c.entry.fact for c in plan.candidates if c.gate in ("rejected", "already promoted", "duplicate")]
    return [words(t) for t in texts]


def _is_known(text: str, known: list[frozenset[str]]) -> bool:
    mine = words(plain(text))
    return any(overlap(mine, theirs) >= KNOWN_OVERLAP for theirs in known)


#: Word overlap at which a REM truth or a near miss is the same as something MEMORY.md or the review holds.
KNOWN_OVERLAP = 0.6
