"""The rare-words-first BM25 query against FTS5's own OR query, on a real index.

    .venv/bin/python bench/bm25_rare_first.py bench/.work/synth-1m [--queries 100] [--limit 24]

For each bench question (`bench.perf.search_queries`), inside one read transaction: the OR query
(`Store.bm25`, what a one-shot search ran before) and `rare_words_first` (which returns None when
the words do not split usefully or the bound does not hold). It reports how often the fast path
answered, whether each answer was the OR query's (same scores to 1e-9, the same chunks outside a
tie at the cut), how often a tried split failed the bound (wasted queries), and the median time
of each. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.perf import search_queries  # noqa: E402
from memgit.core.text import match_expression, query_terms  # noqa: E402
from memgit.index.store import Store  # noqa: E402
from memgit.recall.bm25_bound import split_common  # noqa: E402
from memgit.recall.bm25_query import RARE_FIRST_MIN_SAVING, rare_words_first  # noqa: E402


def same_answer(full: list[tuple[int, float]], fast: list[tuple[int, float]]) -> bool:
    scores_full = sorted(round(s, 9) for _, s in full)
    scores_fast = sorted(round(s, 9) for _, s in fast)
    cut = scores_full[0] if scores_full else 0.0
    above = {i for i, s in full if round(s, 9) > cut} == {i for i, s in fast if round(s, 9) > cut}
    return scores_full == scores_fast and above


def run(workspace: Path, n: int, limit: int) -> dict[str, object]:
    store = Store(workspace / ".git" / "memgit" / "index.sqlite", None, readonly=True)
    full_ms: list[float] = []
    fast_ms: list[float] = []
    answered_ms: list[float] = []
    answered_or_ms: list[float] = []
    answered = identical = wasted = tried = 0
    try:
        for query in search_queries(n, 0):
            terms = query_terms(query)
            with store.snapshot_read():
                started = time.perf_counter()
                full = store.bm25(match_expression(terms), limit)
                full_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                fast = rare_words_first(store, terms, limit)
                fast_ms.append((time.perf_counter() - started) * 1000)
                split = split_common(
                    terms,
                    store.fts.term_document_counts(terms),
                    store.fts.row_count(),
                    min_saving=RARE_FIRST_MIN_SAVING,
                )
            tried += split is not None
            wasted += split is not None and fast is None
            if fast is not None:
                answered += 1
                answered_ms.append(fast_ms[-1])
                answered_or_ms.append(full_ms[-1])
                identical += same_answer(full, fast)
        chunks = store.chunk_total()
    finally:
        store.close()
    return {
        "workspace": str(workspace),
        "chunks": chunks,
        "queries": n,
        "limit": limit,
        "answered_fast": answered,
        "identical": identical,
        "tried": tried,
        "wasted": wasted,
        "or_query_ms_p50": round(statistics.median(full_ms), 1),
        "rare_first_ms_p50": round(statistics.median(fast_ms), 1),
        "when_answered_fast": {
            "or_query_ms_p50": round(statistics.median(answered_or_ms or [0.0]), 1),
            "rare_first_ms_p50": round(statistics.median(answered_ms or [0.0]), 1),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--limit", type=int, default=24, help="rows a leg proposes (k 6 × candidates_factor 4)")
    args = parser.parse_args()
    print(json.dumps(run(args.workspace.resolve(), args.queries, args.limit), indent=1))


if __name__ == "__main__":
    main()
