"""The judgement of docs/COMPARISON.md: each row's figures, cost compared within 10%, quality by a
paired bootstrap over the same questions. The prose (analysis.py, analysis_text.py) reads it; it
reads neither, so the three import one way."""

from __future__ import annotations

from typing import Any


def quality(r: Any | None, metric: str, group: str = "overall") -> float | None:
    """Row `r`'s quality figure `metric` for a category `group` (or overall); None where it has none."""
    if r is None or not r.quality:
        return None
    return r.quality.get(group, {}).get(metric)


def _idx(r: Any | None, which: str) -> float | None:
    if r is None or r.status != "ok":
        return None
    part = (r.index or {}).get(which) or {}
    return part.get("wall_s") if part.get("ok", True) else None


METRICS = [
    # key, label, higher is better, format
    ("full", "full index", False, "{:.1f} s"),
    ("incremental", "incremental re-index", False, "{:.2f} s"),
    ("index_size", "index on disk", False, "{:.1f} MB"),
    ("index_peak", "index peak RSS", False, "{:.0f} MB"),
    ("p50", "warm search p50", False, "{:.1f} ms"),
    ("p95", "warm search p95", False, "{:.1f} ms"),
    ("oneshot", "one-shot CLI", False, "{:,.0f} ms"),
    ("search_peak", "search peak RSS", False, "{:.0f} MB"),
    ("hit@5", "hit@5", True, "{:.3f}"),
    ("recall@10", "recall@10", True, "{:.3f}"),
    ("budget_micro@4000", "budget recall 4k", True, "{:.3f}"),
]

# Quality differences judged by a paired bootstrap over the same questions: (per-query key, label,
# weighted by evidence lines = a micro figure, aggregate key it reproduces)
VERDICTS = [
    ("budget_lines@2000", "budget recall 2k", True, "budget_micro@2000"),
    ("budget_lines@4000", "budget recall 4k", True, "budget_micro@4000"),
    ("budget_lines@8000", "budget recall 8k", True, "budget_micro@8000"),
    ("hit@5", "hit@5", False, "hit@5"),
    ("recall@10", "recall@10", False, "recall@10"),
]


def value(r: Any, key: str) -> float | None:
    if r is None or r.status != "ok":
        return None
    if key in ("full", "incremental"):
        return _idx(r, key)
    if key == "index_peak":
        vals = [((r.index or {}).get(w) or {}).get("peak_rss_mb") for w in ("full", "incremental")]
        vals = [v for v in vals if v is not None]
        return max(vals) if vals else None
    if key in ("p50", "p95"):
        return (r.search or {}).get(f"{key}_ms")
    if key == "search_peak":
        return (r.search or {}).get("peak_rss_mb")
    if key == "index_size":
        size = getattr(r, "index_size", None) or {}
        return None if size.get("bytes") is None else size["bytes"] / 1e6
    if key == "oneshot":
        one = getattr(r, "oneshot", None) or {}
        return None if one.get("median_s") is None else one["median_s"] * 1000
    return quality(r, key)


def kind(r: Any) -> str:
    """ "bm25" for keyword-only rows, "hybrid" for rows that embed (cost is compared like with like)."""
    if r.tool == "memsearch":
        return "hybrid"
    if r.tool == "qmd":
        return "bm25" if "`qmd search`" in r.label else "hybrid"
    return "bm25" if "bm25" in r.label.split("(")[0] else "hybrid"


COST = {"full", "incremental", "index_size", "index_peak", "p50", "p95", "oneshot", "search_peak"}


def peer_rows(results: list[Any], corpus: str) -> list[Any]:
    """The peers' own rows (not the quality-only readings of the same results) that ran."""
    return [r for r in results if r.corpus == corpus and r.tool != "memgit" and not r.quality_only and r.status == "ok"]


def compare(results: list[Any], corpus: str, mine: Any) -> tuple[list[str], list[str], list[str]]:
    """(wins, ties, losses) of memgit row `mine` on cost, against the best peer row of the same kind
    (BM25-only or embedding). Each cost figure is one measurement on a shared machine, so a difference
    within 10% (and at least 0.05 s / 0.5 ms / 5 MB / 0.1 MB on disk) counts as a tie. Quality is judged
    by `verdicts` instead."""
    wins, ties, losses = [], [], []
    for key, label, higher, fmt in METRICS:
        if key not in COST:
            continue
        m = value(mine, key)
        if m is None:
            continue
        pool = [r for r in peer_rows(results, corpus) if kind(r) == kind(mine)]
        others = [(r, value(r, key)) for r in pool if value(r, key) is not None]
        if not others:
            continue
        best_r, best = (max if higher else min)(others, key=lambda rv: rv[1])
        floor = {"full": 0.05, "incremental": 0.05, "p50": 0.5, "p95": 0.5, "oneshot": 5.0, "index_size": 0.1}
        noise = max(0.1 * max(m, best), floor.get(key, 5.0))
        better = best > m if higher else best < m
        text = f"{label}: {fmt.format(m)} vs {fmt.format(best)} ({best_r.label})"
        if abs(best - m) <= noise:
            ties.append(text)
        elif better:
            losses.append(text)
        else:
            wins.append(text)
    return wins, ties, losses


def paired(mine: Any, peer: Any, metric: str, micro: bool) -> tuple[float, float, float] | None:
    """memgit minus peer on the questions both answered, with its paired bootstrap 95% interval."""
    from bench.stats import paired_bootstrap

    a, b = getattr(mine, "per_query", None) or {}, getattr(peer, "per_query", None) or {}
    if metric not in a or metric not in b:
        return None
    b_at = {qid: i for i, qid in enumerate(b["ids"])}
    pairs = [(i, b_at[qid]) for i, qid in enumerate(a["ids"]) if qid in b_at]
    if not pairs:
        return None
    weights = [a["evidence_n"][i] for i, _ in pairs] if micro else None
    return paired_bootstrap([a[metric][i] for i, _ in pairs], [b[metric][j] for _, j in pairs], weights)


def verdict(diff: tuple[float, float, float]) -> str:
    """A win or a loss only when the whole 95% interval is on one side of zero."""
    _, low, high = diff
    return "a win" if low > 0 else "a loss" if high < 0 else "no difference"


def verdicts(results: list[Any], corpus: str) -> list[tuple[Any, Any, dict[str, tuple[float, float, float]]]]:
    """(memgit row, peer row, {metric label: (difference, low, high)}) for every pair with per-query scores."""
    out = []
    mine_rows = [r for r in results if r.corpus == corpus and r.tool == "memgit" and not r.quality_only and r.quality]
    # every peer reading, QMD's "whole file" ones included: a verdict must not leave out a row memgit loses to
    peers = [r for r in results if r.corpus == corpus and r.tool != "memgit" and r.status == "ok" and r.quality]
    for mine in mine_rows:
        for peer in peers:
            cells = {}
            for metric, label, micro, _ in VERDICTS:
                diff = paired(mine, peer, metric, micro)
                if diff is not None:
                    cells[label] = diff
            if cells:
                out.append((mine, peer, cells))
    return out
