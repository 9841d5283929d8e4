"""Markdown rendering of the peer comparison (docs/COMPARISON.md). Every figure comes from one run."""

from __future__ import annotations

from typing import Any

from analysis import analysis_section, commands_section, method_section
from verdicts import quality

from bench.scoring_retrieval import CATEGORY_NAMES

GROUPS = [*CATEGORY_NAMES.values(), "overall"]
QUALITY = ("hit@1", "hit@5", "hit@10", "recall@5", "recall@10")
BUDGETS = (2000, 4000, 8000)


def _n(x: Any, fmt: str = "{:.1f}") -> str:
    return "–" if x is None else fmt.format(x)


def _idx(r: Any, which: str, key: str) -> float | None:
    part = (r.index or {}).get(which) or {}
    return part.get(key) if part.get("ok", True) else None


ORDER = {"memsearch": 0, "qmd": 1, "memgit": 2}


def _ordered(results: list[Any]) -> list[Any]:
    return sorted(results, key=lambda r: ORDER.get(r.tool, 9))


def _size_mb(r: Any) -> float | None:
    size = getattr(r, "index_size", None) or {}
    return None if size.get("bytes") is None else size["bytes"] / 1e6


def _oneshot_ms(r: Any) -> float | None:
    one = getattr(r, "oneshot", None) or {}
    return None if one.get("median_s") is None else one["median_s"] * 1000


def cost_table(results: list[Any], corpus: Any) -> list[str]:
    """What each tool costs: index build, disk, memory, warm and one-shot search."""
    rows = [r for r in _ordered(results) if r.corpus == corpus.name and not r.quality_only]
    head = [
        "system",
        "full index (s)",
        "incremental, 1 file (s)",
        "index on disk (MB)",
        "index peak RSS (MB)",
        "warm search p50 / p95 (ms)",
        "one-shot CLI, median (ms)",
        "search peak RSS (MB)",
    ]
    out = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for r in rows:
        if r.status != "ok" and not r.quality:
            out.append(f"| {r.label} | {r.status} |" + " |" * (len(head) - 2))
            continue
        s = r.search or {}
        peaks = [v for v in (_idx(r, "full", "peak_rss_mb"), _idx(r, "incremental", "peak_rss_mb")) if v]
        cells = [
            r.label,
            _n(_idx(r, "full", "wall_s")),
            _n(_idx(r, "incremental", "wall_s"), "{:.2f}"),
            _n(_size_mb(r), "{:.1f}"),
            _n(max(peaks) if peaks else None, "{:.0f}"),
            f"{_n(s.get('p50_ms'))} / {_n(s.get('p95_ms'))}",
            _n(_oneshot_ms(r), "{:,.0f}"),
            _n(s.get("peak_rss_mb"), "{:.0f}"),
        ]
        out.append("| " + " | ".join(cells) + " |")
    return out


def quality_table(results: list[Any], corpus: Any) -> list[str]:
    """What each tool finds: ranked-range metrics, then what fits in 2,000 / 4,000 / 8,000 characters."""
    rows = [r for r in _ordered(results) if r.corpus == corpus.name]
    head = [
        "system",
        *QUALITY,
        *(f"budget recall {c // 1000}k" for c in BUDGETS),
        "budget hit 4k",
        "per-query budget recall 4k",
        "empty",
        "chars in top 10",
    ]
    out = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for r in rows:
        if not r.quality:
            out.append(f"| {r.label} | {r.status} |" + " |" * (len(head) - 2))
            continue
        empty = quality(r, "empty")
        cells = [
            r.label,
            *(_n(quality(r, m), "{:.3f}") for m in QUALITY),
            *(_n(quality(r, f"budget_micro@{c}"), "{:.3f}") for c in BUDGETS),
            _n(quality(r, "budget_hit@4000"), "{:.3f}"),
            _n(quality(r, "budget_recall"), "{:.3f}"),
            _n(None if empty is None else 100 * empty, "{:.0f}%"),
            _n(quality(r, "returned_chars@10"), "{:,.0f}"),
        ]
        out.append("| " + " | ".join(cells) + " |")
    return out


def category_table(results: list[Any], corpus: Any, metric: str) -> list[str]:
    rows = [r for r in _ordered(results) if r.corpus == corpus.name and r.quality]
    out = ["| system | " + " | ".join(GROUPS) + " |", "|---|" + "---:|" * len(GROUPS)]
    for r in rows:
        out.append(f"| {r.label} | " + " | ".join(_n(quality(r, metric, g), "{:.3f}") for g in GROUPS) + " |")
    return out


def _runs(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """The runs behind the results (several after --merge); results from before runs were recorded are one."""
    if meta.get("runs"):
        return list(meta["runs"])
    return [
        {
            "command": meta["command"],
            "date": meta["date"],
            "seconds": meta["total_seconds"],
            "tool_seconds": meta.get("tool_seconds", {}),
            "loadavg": meta.get("loadavg", {}),
        }
    ]


def header(meta: dict[str, Any]) -> str:
    """Which command(s) measured the figures, when, how long each tool took, and the load while it ran."""
    parts = []
    for run in _runs(meta):
        loads = "; ".join(
            f"{k} {'/'.join(v['before'])} → {'/'.join(v['after'])}" for k, v in run.get("loadavg", {}).items()
        )
        parts.append(
            f"`{run['command'].strip()}` on {run['date']} ({run['seconds'] / 60:.1f} min; per tool: "
            + ", ".join(f"{k} {v / 60:.1f} min" for k, v in run.get("tool_seconds", {}).items())
            + (f"; load average 1/5/15 min, before → after each tool: {loads}" if loads else "")
            + ")"
        )
    return (
        "Generated by "
        + (parts[0] if len(parts) == 1 else "; then ".join(parts))
        + f" — {meta['machine']}. Every figure below comes from "
        + ("this run" if len(parts) == 1 else "these runs")
        + f". Raw results: `{meta.get('json', 'bench/peers/.work/results/peers.json')}`. The machine's 2 cores "
        "were shared with other work, so absolute times are pessimistic; compare rows with care."
    )


def render_markdown(results: list[Any], corpora: list[Any], meta: dict[str, Any]) -> str:
    L: list[str] = ["# memgit vs. peer memory tools", ""]
    L.append(header(meta))
    runs: dict[str, list[str]] = {}
    for r in results:
        if getattr(r, "measured", "") and not r.quality_only:
            runs.setdefault(r.measured, []).append(f"{r.label} on {r.corpus}")
    if len(runs) > 1:
        L += [
            "",
            "Rows were measured by more than one run (`--merge`; the same workspaces and questions): "
            + "; ".join(f"on {when}: " + ", ".join(dict.fromkeys(rows)) for when, rows in sorted(runs.items()))
            + ". Times from different runs met different loads on the shared machine: compare time columns "
            "only between rows measured by the same run.",
        ]
    peak_load = max((float(v["after"][1]) for run in _runs(meta) for v in run.get("loadavg", {}).values()), default=0.0)
    if peak_load > 4:
        L += [
            "",
            f"**Load warning.** The 5-minute load average reached {peak_load:.1f} on 2 cores while measuring: "
            "processes waited for CPU much of the time. The quality figures do not depend on it; the time "
            "columns do, and not necessarily by the same factor for every tool. Read them as what this loaded "
            "run measured, not as what a quiet machine gives; re-run before quoting them.",
        ]
    if not meta.get("complete", True):
        L += ["", "**This run did not finish: rows below are the tools that completed.**"]
    L.append("")
    for corpus in corpora:
        L += [f"## {corpus.label}", "", corpus.note, ""]
        L += ["**Cost**", ""] + cost_table(results, corpus) + [""]
        L.append(
            "*index on disk* = bytes of the files the index occupies after the full index (which files: see "
            "*Method*); *one-shot CLI* = wall time of one fresh process answering one question (start-up, "
            f"model load and the query), median over {meta.get('oneshot_n', 5)} questions; *warm search* = "
            "per-query time inside one long-lived process. Rows whose index is shared with a row above "
            "(`--mode bm25` on the hybrid index, QMD's *whole file* readings) are in the quality table only."
        )
        L.append("")
        L += ["**Quality**", ""] + quality_table(results, corpus) + [""]
        n = next(
            (r.quality.get("overall", {}).get("n") for r in results if r.corpus == corpus.name and r.quality), None
        )
        L.append(
            f"{n or corpus.n_queries} queries. hit@k / recall@k on the top 10 hits' line ranges; *budget recall Ck* "
            "= evidence lines whose returned text fits in C,000 characters (≈ C/4 thousand tokens), walking up to "
            f"{meta['fetch_k']} hits, over all evidence lines (micro, as `docs/RETRIEVAL.md` defines it); *budget "
            "hit 4k* = questions with at least one evidence line in 4,000 characters; *per-query budget recall "
            "4k* = the same walk averaged per question (the figure earlier versions of this page reported); "
            "*empty* = queries with no hit at all; *chars in top 10* = mean characters of text the top 10 hits "
            "return (bigger hits buy recall@k with reading budget)."
        )
        L.append("")
        if corpus.name == "locomo":
            for metric, title in (
                ("budget_micro@4000", "Budget recall (4,000 characters, micro) by category"),
                ("hit@5", "hit@5 by category"),
                ("recall@10", "recall@10 by category"),
            ):
                L += [f"**{title}**", ""] + category_table(results, corpus, metric) + [""]
    L += analysis_section(results, corpora, meta)
    L += method_section(results, corpora, meta)
    L += commands_section(results, corpora, meta)
    return "\n".join(L) + "\n"
