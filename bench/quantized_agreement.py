"""How much do 1-bit codes change what `memgit search` answers? Float scan vs codes, same queries.

    .venv/bin/python bench/quantized_agreement.py WORKSPACE [--queries 100] [--k 6] [--mode hybrid]

Two in-process searchers over the same index, one with `[search] quantized_above` so high that the
vector leg scans the floats, one with it at 0 (codes, then the exact re-score). For each query
(made from the workspace's notes, as `bench/mcp_latency.py` makes them) it compares the final
hits: the share of the float searcher's top k that the quantised one also returns, and whether
the first hit is the same. Prints medians of each searcher's `elapsed_ms` too.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.mcp_latency import make_queries  # noqa: E402
from memgit.recall.request import SearchRequest  # noqa: E402
from memgit.recall.search import Searcher  # noqa: E402
from memgit.workspace import Workspace  # noqa: E402


def searcher(root: Path, quantized_above: int) -> Searcher:
    ws = Workspace.discover(root)
    search = dataclasses.replace(ws.config.search, quantized_above=quantized_above)
    ws = dataclasses.replace(ws, config=dataclasses.replace(ws.config, search=search))
    return Searcher(ws, auto_index=False, preload_vectors=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--k", type=int, default=6)
    parser.add_argument("--mode", default="hybrid", choices=("hybrid", "vector"))
    opts = parser.parse_args(argv)
    queries = make_queries(opts.workspace, opts.queries, seed=7)
    exact, coded = searcher(opts.workspace, 10**12), searcher(opts.workspace, 0)
    overlap, same_first, t_exact, t_coded = [], 0, [], []
    for query in queries:
        a = exact.search(query, SearchRequest(k=opts.k, mode=opts.mode))
        b = coded.search(query, SearchRequest(k=opts.k, mode=opts.mode))
        t_exact.append(a.elapsed_ms)
        t_coded.append(b.elapsed_ms)
        keys_a = [(h.path, h.start_line) for h in a.hits]
        keys_b = {(h.path, h.start_line) for h in b.hits}
        overlap.append(len(keys_b & set(keys_a)) / max(1, len(keys_a)))
        same_first += bool(a.hits and b.hits and keys_a[0] == (b.hits[0].path, b.hits[0].start_line))
    print(
        f"command: python bench/quantized_agreement.py {opts.workspace} --queries {opts.queries} --k {opts.k} "
        f"--mode {opts.mode}\n"
        f"{opts.mode} top-{opts.k} shared with the float scan: {statistics.fmean(overlap):.3f}; "
        f"same first hit: {same_first / len(queries):.3f}; "
        f"elapsed_ms p50 float {statistics.median(t_exact):.1f}, codes {statistics.median(t_coded):.1f}"
    )
    exact.close()
    coded.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
