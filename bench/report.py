"""Scoring a system's ranked hits against the gold queries, and printing/saving the results."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench.corpus import Conversation
from bench.scoring_retrieval import (
    BUDGETS,
    CATEGORY_NAMES,
    DEFAULT_BUDGET_CHARS,
    DEFAULT_KS,
    Hit,
    aggregate,
    budget_metric_names,
    metric_names,
    score_query,
)
from bench.stats import paired_bootstrap

# Settings are chosen on the tune split only; the report split is never looked at while tuning.
SPLITS: dict[str, tuple[str, ...]] = {
    "tune (c0–c1)": ("locomo-c0", "locomo-c1"),
    "report (c2–c3)": ("locomo-c2", "locomo-c3"),
}
REPORT_BUDGET = 4000

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


def split_queries(conversations: Sequence[Conversation], names: Sequence[str]) -> list[tuple[str, int]]:
    """(query id, category) of the conversations named, in corpus order."""
    return [(q.id, q.category) for c in conversations if c.name in names for q in c.queries]


def split_summary(result: Mapping[str, Any], queries: Sequence[tuple[str, int]]) -> dict[str, dict[str, float]]:
    """The aggregate of one system over a subset of the queries (per category and overall)."""
    return aggregate([(category, result["queries"][qid]) for qid, category in queries])


def _metric_columns(metric: str) -> tuple[str, str | None]:
    """Per-query numerator key and weight key of an aggregate metric (micro: lines / evidence)."""
    if metric.startswith("budget_micro@"):
        return "budget_lines@" + metric.removeprefix("budget_micro@"), "evidence_n"
    return metric, None


def compare(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    queries: Sequence[tuple[str, int]],
    metric: str,
    category: str | None = None,
) -> tuple[float, float, float]:
    """``metric(A) - metric(B)`` over ``queries`` (optionally one category), paired bootstrap 95% CI."""
    chosen = [qid for qid, cat in queries if category is None or CATEGORY_NAMES.get(cat) == category]
    key, weight = _metric_columns(metric)
    a_col = [a["queries"][qid][key] for qid in chosen]
    b_col = [b["queries"][qid][key] for qid in chosen]
    w_col = [a["queries"][qid][weight] for qid in chosen] if weight else None
    return paired_bootstrap(a_col, b_col, w_col)


def _delta(diff: tuple[float, float, float]) -> str:
    point, low, high = diff
    star = " *" if low > 0 or high < 0 else ""
    return f"{point * 100:+.1f} [{low * 100:+.1f}, {high * 100:+.1f}]{star}"


def split_tables(
    conversations: Sequence[Conversation],
    systems: Mapping[str, Mapping[str, Any]],
    comparisons: Sequence[tuple[str, str]],
) -> str:
    """Per split: budget metrics at every budget, per category at 4,000 chars, and the differences.

    Differences are in points with a paired bootstrap 95% interval; ``*`` marks an interval that
    excludes 0 (only those are differences at all).
    """
    out: list[str] = []
    present = {c.name for c in conversations}
    groups = list(CATEGORY_NAMES.values())
    for split, names in SPLITS.items():
        queries = split_queries(conversations, [n for n in names if n in present])
        if not queries:
            continue
        summaries = {label: split_summary(result, queries) for label, result in systems.items()}
        n_lines = int(sum(next(iter(systems.values()))["queries"][q]["evidence_n"] for q, _ in queries))
        metrics = budget_metric_names()
        out += ["", f"**{split}**: {len(queries)} questions, {n_lines} evidence lines; budgets in characters", ""]
        out.append("| system | " + " | ".join(metrics) + " |")
        out.append("|---|" + "---:|" * len(metrics))
        for label, summary in summaries.items():
            out.append(f"| {label} | " + " | ".join(_fmt(summary["overall"].get(m)) for m in metrics) + " |")
        for metric in (f"budget_micro@{REPORT_BUDGET}", f"budget_hit@{REPORT_BUDGET}"):
            out += [
                "",
                f"{split}, **{metric} by category** (n: "
                + ", ".join(f"{g} {int(next(iter(summaries.values())).get(g, {}).get('n', 0))}" for g in groups)
                + ")",
                "",
            ]
            out.append("| system | " + " | ".join(groups) + " |")
            out.append("|---|" + "---:|" * len(groups))
            for label, summary in summaries.items():
                out.append(f"| {label} | " + " | ".join(_fmt(summary.get(g, {}).get(metric)) for g in groups) + " |")
        pairs = [(a, b) for a, b in comparisons if a in systems and b in systems]
        if pairs:
            cols = [f"budget_micro@{c}" for c in BUDGETS] + [f"budget_hit@{REPORT_BUDGET}"]
            cols += [f"{g} micro@{REPORT_BUDGET}" for g in groups]
            out += ["", f"{split}, **differences in points, paired bootstrap 95% interval** (* = excludes 0)", ""]
            out.append("| A − B | " + " | ".join(cols) + " |")
            out.append("|---|" + "---:|" * len(cols))
            for a, b in pairs:
                cells = [_delta(compare(systems[a], systems[b], queries, m)) for m in cols[: len(BUDGETS) + 1]]
                cells += [
                    _delta(compare(systems[a], systems[b], queries, f"budget_micro@{REPORT_BUDGET}", g)) for g in groups
                ]
                out.append(f"| {a} − {b} | " + " | ".join(cells) + " |")
    return "\n".join(out)
