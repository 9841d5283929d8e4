"""One dreaming run as a pure function: inputs gathered by `run.py` in, a plan of commits out."""

from __future__ import annotations

from datetime import timedelta

from memgit.dream import durable_weights, memory_doc
from memgit.dream.concept_map import concept_places, concepts_document
from memgit.dream.concepts import plain
from memgit.dream.credit import credit
from memgit.dream.decisions import Decision, verdicts
from memgit.dream.deep import deep_phase
from memgit.dream.durable import gate_one_offs
from memgit.dream.entries import EntryRecord, parse_store
from memgit.dream.light import LightResult, light_phase
from memgit.dream.model import DreamInputs, DreamPlan, Review, ShortTerm
from memgit.dream.proposals import action_records, migration_records
from memgit.dream.rem import rem_phase
from memgit.dream.report import render_report
from memgit.dream.safety import safe_action, safe_record, shown
from memgit.dream.timeline import silent_lines
from memgit.dream.turns import is_transcript, turn_view
from memgit.ledger.lines import Recall
from memgit.ledger.uses import USE_QUERY_HASHES


def review_of(inputs: DreamInputs, memory_text: str) -> tuple[Review, list[Decision]]:
    """What the review so far tells this run, and the rejections MEMORY.md implies (a proposal of a
    merged report that a person took out) as decisions to record."""
    store = parse_store(inputs.store_text)
    hashes = store.hashes()
    present = [e.key for e in memory_doc.parse_entries(memory_text, hashes)]
    found = verdicts(inputs.decisions, store, present)
    day = inputs.now.date().isoformat()
    implied = [
        Decision(key, "rejected", day, "missing", "promote", text, "taken out of MEMORY.md by hand")
        for key, text in found.missing
    ]
    review = Review(
        hashes=hashes,
        records=store.written(),
        rejected=found.rejected,
        kept=found.kept,
        replaced=frozenset(store.replaced()),
        only=inputs.only,
        updates=dict(found.updates),
    )
    return review, implied


def plan_dream(inputs: DreamInputs) -> DreamPlan:
    cfg = inputs.config
    today = inputs.now.date()
    oldest = (today - timedelta(days=cfg.max_age_days - 1)).isoformat()
    # Evidence: recalls up to `now` (a simulated clock may run behind later lines) and not too old.
    until_now = [r for r in inputs.recalls if r.at <= inputs.now]
    # Session-start loads and gets of MEMORY.md are uses (forgetting reads them), not evidence.
    evidence = [r for r in until_now if oldest <= r.day and r.query_hash not in USE_QUERY_HASHES]
    # Each recall counts for the line of its hit that answers its question; a transcript read turn by turn.
    files = _turns_read(inputs)
    evidence = credit(evidence, files, inputs.similarity.compare)
    memory_text, migrated = memory_doc.migrate(inputs.memory_text)
    review, implied = review_of(inputs, memory_text)
    review = _with_migrated(review, moved := migration_records(migrated, today.isoformat()))
    light = _light(inputs, evidence, files)
    places = concept_places(light.entries, files, inputs.recent_notes, lint=inputs.lint, exclude=light.speakers)
    light_first = (today - timedelta(days=cfg.light_lookback_days - 1)).isoformat()
    rem = rem_phase(
        light.entries,
        light.recent_tags,
        today,
        lookback_days=cfg.rem_lookback_days,
        min_strength=cfg.theme_min_strength,
    )
    silent = _silent_durable(inputs, light, files, _silent(inputs, light))
    candidates, actions, states, counts = deep_phase(
        light.entries + light.rejected,
        memory_text,
        until_now,
        cfg=cfg,
        similarity=inputs.similarity,
        now_day=today,
        base_commit=inputs.base_commit,
        review=review,
        silent=silent,
    )
    if light.gone:
        counts["source gone"] = len(light.gone)
    for reason, n in light.junk.items():
        counts[f"junk: {reason}"] = counts.get(f"junk: {reason}", 0) + n
    stats = _light_stats(light, len(evidence), sum(r.day >= light_first for r in evidence), inputs.malformed)
    notices = list(inputs.notices)
    if inputs.malformed:
        where = ", ".join(inputs.malformed_where[:5]) + (" …" if len(inputs.malformed_where) > 5 else "")
        notices.append(f"skipped {inputs.malformed} malformed recall-ledger line(s): {where}")
    actions = [safe_action(a, inputs.lint) for a in actions]
    plan = DreamPlan(
        day=today.isoformat(),
        actions=actions,
        candidates=candidates,
        gate_counts=dict(sorted(counts.items())),
        memory_before=inputs.memory_text,
        memory_after=states,
        report="",
        themes=rem.themes,
        truths=[(f"{e.path}:{e.start}-{e.end}", round(conf, 3), plain(e.fact)) for e, conf in rem.truths],
        light=stats,
        notices=notices,
    )
    plan.records = [
        safe_record(r, inputs.lint)
        for r in action_records(actions, states, candidates, day=plan.day, files=files, recalls=inputs.recalls)
    ]
    if migrated:
        plan.migrated = memory_text
        plan.migrated_records = moved
    plan.decisions = _unique([*inputs.carried, *implied])
    plan.report = shown(render_report(plan, inputs, light.gone), inputs.lint)
    plan.concepts = concepts_document(plan.day, inputs.base_commit, rem.themes, places)
    return plan


def _turns_read(inputs: DreamInputs) -> dict[str, str | None]:
    """The recalled files, a transcript as its turns on their JSONL lines (turns.py), as the index reads it."""
    return {p: turn_view(t) if t is not None and is_transcript(p) else t for p, t in inputs.files.items()}


def _silent(inputs: DreamInputs, light: LightResult) -> list[ShortTerm]:
    """The window's lines that are no short-term entry: the subject timeline's newer versions."""
    notes = {p: turn_view(t) if is_transcript(p) else t for p, t in inputs.window_notes.items()}
    taken = {(p, n) for e in light.entries + light.rejected for p, s, t in e.sources for n in range(s, t + 1)}
    return silent_lines(notes, taken, inputs.now.date(), inputs.lint, light.speakers, inputs.config.user_name)


def _lines_of(inputs: DreamInputs, files: dict[str, str | None]) -> dict[str, list[str]]:
    """Each note's lines as dreaming reads them (a transcript turn by turn): for the heading above a line."""
    lines_of = {p: t.splitlines() for p, t in files.items() if t is not None}
    for path, text in inputs.window_notes.items():
        lines_of.setdefault(path, (turn_view(text) if is_transcript(path) else text).splitlines())
    return lines_of


def _light(inputs: DreamInputs, evidence: list[Recall], files: dict[str, str | None]) -> LightResult:
    """The light phase, then the measured durable/one-off judgement on what the rules let pass."""
    cfg = inputs.config
    light = light_phase(
        evidence,
        files,
        inputs.recent_notes,
        fold_similarity=cfg.dedupe_similarity,
        today=inputs.now.date(),
        lint=inputs.lint,
        top_hits=cfg.recall_top_hits,
        min_relative=cfg.recall_min_relative_score,
        user_name=cfg.user_name,
    )
    _one_offs_aside(inputs, light, files)
    return light


def _one_offs_aside(inputs: DreamInputs, light: LightResult, files: dict[str, str | None]) -> None:
    """The measured durable/one-off judgement (durable.py) after the rules, with an embedding model:
    a candidate below its threshold joins the light phase's rejections as `one-off`."""
    if inputs.similarity.vectors is None:
        return
    gate_one_offs(light.entries, _lines_of(inputs, files), inputs.similarity.vectors, inputs.now.date())
    light.rejected += [e for e in light.entries if e.rejected]
    light.entries = [e for e in light.entries if not e.rejected]


def _silent_durable(
    inputs: DreamInputs, light: LightResult, files: dict[str, str | None], silent: list[ShortTerm]
) -> list[ShortTerm]:
    """The window's lines the measured model finds durable enough to be proposed as a newer version
    with no search behind them (`durable_weights.SILENT_THRESHOLD`); all of them without a model."""
    if inputs.similarity.vectors is None:
        return silent
    lines_of = _lines_of(inputs, files)
    gate_one_offs(silent, lines_of, inputs.similarity.vectors, inputs.now.date(), durable_weights.SILENT_THRESHOLD)
    return [e for e in silent if e.rejected is None]


def _with_migrated(review: Review, moved: list[EntryRecord]) -> Review:
    """The review with the records of entries whose long markers this run shortens: their
    provenance is in those records now."""
    if not moved:
        return review
    return Review(
        {**review.hashes, **{r.key: r.hash for r in moved if r.hash}},
        {**review.records, **{r.key: r for r in moved}},
        review.rejected,
        review.kept,
        review.replaced | {r.replaces for r in moved if r.replaces},
        review.only,
        review.updates,
    )


def _light_stats(light: LightResult, recalls: int, recent: int, malformed: int) -> dict[str, int]:
    """What the report's "What was seen" counts."""
    return {
        "recalls": recalls,
        "recent_recalls": recent,
        "entries": len(light.entries),
        "folded": light.folded,
        "gone": len(light.gone),
        "notes_seen": light.notes_seen,
        "weak_hits": light.weak_hits,
        "malformed": malformed,
    }


def _unique(decisions: list[Decision]) -> list[Decision]:
    seen: set[str] = set()
    out = []
    for decision in decisions:
        line = decision.to_json()
        if line not in seen:
            seen.add(line)
            out.append(decision)
    return out
