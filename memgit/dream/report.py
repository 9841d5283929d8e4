"""The dream report (pure): what a run saw, what rose, what fell and why, in readable Markdown.

It is written to `memory/dreams/YYYY-MM-DD.md` on the dream branch and becomes the pull request's
body. Its lines are never promoted (the light phase rejects everything under memory/dreams/).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgit.dream.concepts import plain

if TYPE_CHECKING:
    from memgit.dream.model import DreamInputs, DreamPlan

GATE_WORDS = {
    "recalls": "too few recalls",
    "queries": "too few distinct queries",
    "score": "score below the minimum",
    "too long": "longer than the entry limit",
    "already promoted": "already in MEMORY.md",
    "duplicate": "says the same as an entry or a stronger candidate",
    "outdated": "older than an entry or a snippet about the same subject (the newest wins)",
    "needs context": "does not stand alone (a pronoun or a date only its log explains)",
    "transient": "a one-off event, plan or trial whose day has passed",
    "junk: chatter": "chat filler: a question, greeting, thanks or praise",
    "cap": "over the per-run cap",
    "budget": "MEMORY.md load budget reached",
    "source gone": "source text gone since the recall",
}


def _cell(text: str, width: int = 90) -> str:
    text = plain(text).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "…"


def render_report(plan: DreamPlan, inputs: DreamInputs, gone: list[tuple[str, int, int, int]]) -> str:
    cfg = inputs.config
    s = plan.light
    out = [
        f"# Dream {plan.day}",
        "",
        f"Base commit `{inputs.base_commit[:12]}`; similarity by {'embeddings' if inputs.similarity.kind == 'embedding' else 'term overlap (no model)'}.",
        "",
        "## Light: what was seen",
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
        out.append(f"- {s['weak_hits']} hits too far down their search to count as recalls (not in the first "
                   f"{cfg.recall_top_hits}, or under {cfg.recall_min_relative_score:.0%} of its best score).")
    if gone:
        out.append(f"- {len(gone)} recalled snippets are gone from their files (edited or deleted since).")
    out += ["", "## REM: themes and candidate truths", ""]
    if plan.themes:
        out.append("Themes: " + ", ".join(f"{tag} ({strength:.2f})" for tag, strength in plan.themes) + ".")
    else:
        out.append("No theme is strong enough yet.")
    out.append("")
    for where, conf in plan.truths[:5]:
        out.append(f"- `{where}` confidence {conf:.2f}")
    out += ["", "## Deep: proposed", ""]
    if not plan.actions:
        out.append("Nothing to propose.")
    for action in plan.actions:
        where = action.source.format() if action.source else "?"
        if action.kind == "forget":
            out.append(f"- **forget** {_cell(action.text)} (from `{where}`)")
        elif action.kind == "supersede":
            out.append(f"- **update** {_cell(action.text)} (score {action.score:.3f}, from `{where}`, replaces {action.target})")
            if action.previous_text:
                out.append(f"  was: {_cell(action.previous_text)}")
        else:
            out.append(f"- **remember** {_cell(action.text)} (score {action.score:.3f}, from `{where}`)")
    out += ["", "## Fell, and why", ""]
    for gate, n in plan.gate_counts.items():
        if gate == "proposed":
            continue
        label = GATE_WORDS.get(gate, gate)
        if gate.startswith("junk: ") and gate not in GATE_WORDS:
            flagged = gate[6:7] in ("S", "P") and gate[7:].isdigit()
            label = f"{gate}: flagged by the lint, never copied" if flagged else gate
        out.append(f"- {n} × {label}")
        if gate == "budget":
            out.append(f"  (MEMORY.md would pass its load budget of {cfg.memory_max_chars} characters; "
                       "memgit never truncates it: forget or shorten entries to make room)")
    near = [c for c in plan.candidates if c.gate in ("score", "queries", "recalls", "cap", "budget")][:5]
    if near:
        out += ["", "Closest misses:", ""]
        for c in near:
            out.append(f"- {_cell(c.entry.fact, 70)} — score {c.score:.3f}, {c.entry.recalls} recalls, "
                       f"{len(c.entry.queries)} queries: {GATE_WORDS.get(c.gate or '', c.gate)}")
    return "\n".join(out).rstrip() + "\n"
