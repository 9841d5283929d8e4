"""One dreaming run as a pure function: inputs gathered by `run.py` in, a plan of commits out."""

from __future__ import annotations

from datetime import timedelta

from memgit.dream.concept_map import concept_places, concepts_document
from memgit.dream.deep import deep_phase
from memgit.dream.light import light_phase
from memgit.dream.model import DreamInputs, DreamPlan
from memgit.dream.rem import rem_phase
from memgit.dream.report import render_report
from memgit.dream.safety import safe_action, shown


def plan_dream(inputs: DreamInputs) -> DreamPlan:
    cfg = inputs.config
    today = inputs.now.date()
    oldest = (today - timedelta(days=cfg.max_age_days - 1)).isoformat()
    # Evidence: recalls up to `now` (a simulated clock may run behind later lines) and not too old.
    until_now = [r for r in inputs.recalls if r.at <= inputs.now]
    evidence = [r for r in until_now if oldest <= r.day]
    light = light_phase(
        evidence, inputs.files, inputs.recent_notes, fold_similarity=cfg.dedupe_similarity, today=today,
        lint=inputs.lint, top_hits=cfg.recall_top_hits, min_relative=cfg.recall_min_relative_score,
    )
    places = concept_places(light.entries, inputs.files, inputs.recent_notes, lint=inputs.lint,
                            exclude=light.speakers)
    light_first = (today - timedelta(days=cfg.light_lookback_days - 1)).isoformat()
    recent = [r for r in evidence if r.day >= light_first]
    rem = rem_phase(
        light.entries, light.recent_tags, today, lookback_days=cfg.rem_lookback_days,
        min_strength=cfg.theme_min_strength,
    )
    # A MEMORY.md written with CRLF line endings keeps them: the phases splice LF text, and every
    # state is turned back (only for a file that is CRLF throughout, so no byte of a person's changes).
    crlf = "\r\n" in inputs.memory_text and inputs.memory_text.count("\n") == inputs.memory_text.count("\r\n")
    memory_text = inputs.memory_text.replace("\r\n", "\n") if crlf else inputs.memory_text
    candidates, actions, states, counts = deep_phase(
        light.entries + light.rejected,
        memory_text,
        until_now,
        cfg=cfg,
        similarity=inputs.similarity,
        now_day=today,
        base_commit=inputs.base_commit,
    )
    if crlf:
        states = [state.replace("\n", "\r\n") for state in states]
    if light.gone:
        counts["source gone"] = len(light.gone)
    for reason, n in light.junk.items():
        counts[f"junk: {reason}"] = counts.get(f"junk: {reason}", 0) + n
    stats = {
        "recalls": len(evidence),
        "recent_recalls": len(recent),
        "entries": len(light.entries),
        "folded": light.folded,
        "gone": len(light.gone),
        "notes_seen": light.notes_seen,
        "weak_hits": light.weak_hits,
        "malformed": inputs.malformed,
    }
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
        truths=[(f"{e.path}:{e.start}-{e.end}", round(conf, 3)) for e, conf in rem.truths],
        light=stats,
        notices=notices,
    )
    plan.report = shown(render_report(plan, inputs, light.gone), inputs.lint)
    plan.concepts = concepts_document(plan.day, inputs.base_commit, rem.themes, places)
    return plan
