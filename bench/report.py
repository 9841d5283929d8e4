"""Scoring a system's ranked hits against the gold queries, and printing/saving the results."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench.corpus import Conversation
from bench.scoring_retrieval import (
    CATEGORY_NAMES,
    DEFAULT_BUDGET_CHARS,
    DEFAULT_KS,
    Hit,
    aggregate,
    metric_names,
    score_query,
)

GROUPS = [*CATEGORY_NAMES.values(), "overall"]


def evaluate(
    conversations: Sequence[Conversation],
    results: Mapping[str, Sequence[Hit]],
    ks: Sequence[int] = DEFAULT_KS,
    budget_chars: int = DEFAULT_BUDGET_CHARS,
) -> dict[str, Any]:
    """``{"summary": {group: {metric: mean, "n": n}}, "queries": {id: {metric: score}}}``.

    A query missing from ``results`` scores as if nothing was returned.
    """
    per_query: dict[str, dict[str, float]] = {}
    rows = []
    for conv in conversations:
        for query in conv.queries:
            scores = score_query(results.get(query.id, []), query.evidence, ks, budget_chars)
            per_query[query.id] = scores
            rows.append((query.category, scores))
    return {"summary": aggregate(rows), "queries": per_query}


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def markdown_tables(systems: Mapping[str, Mapping[str, Any]], ks: Sequence[int] = DEFAULT_KS) -> str:
    """An overall table (every metric) and per-category tables (budget recall, hit@5, recall@10)."""
    metrics = metric_names(ks)
    out = ["**Overall** (micro average over queries; budget = 1,000 tokens ≈ 4,000 chars)", ""]
    out.append("| system | n | " + " | ".join(metrics) + " |")
    out.append("|---|---:|" + "---:|" * len(metrics))
    for label, result in systems.items():
        overall = result["summary"]["overall"]
        cells = " | ".join(_fmt(overall.get(m)) for m in metrics)
        out.append(f"| {label} | {overall['n']} | {cells} |")
    for metric in ("budget_recall", f"hit@{ks[len(ks) // 2]}", f"recall@{ks[-1]}"):
        out += ["", f"**{metric} by category**", ""]
        out.append("| system | " + " | ".join(GROUPS) + " |")
        out.append("|---|" + "---:|" * len(GROUPS))
        for label, result in systems.items():
            summary = result["summary"]
            cells = " | ".join(_fmt(summary.get(g, {}).get(metric)) for g in GROUPS)
            out.append(f"| {label} | {cells} |")
    counts = next(iter(systems.values()))["summary"] if systems else {}
    out += ["", "Queries per category: " + ", ".join(f"{g} {counts.get(g, {}).get('n', 0)}" for g in GROUPS)]
    return "\n".join(out)


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
