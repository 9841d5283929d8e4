"""What a long-running searcher does before and between its queries so that none of them pays
for it: fill the per-word BM25 cache (or load the one saved beside the index), and ask the kernel
to read the float vectors into its page cache.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memgit.index.layout import index_path, word_cache_path
from memgit.index.store import CorruptIndex, IndexUnavailable, Store
from memgit.recall.bm25_query import index_state

if TYPE_CHECKING:
    from pathlib import Path

    from memgit.recall.bm25_terms import TermScores
    from memgit.workspace import Workspace


def prewarm_terms(
    ws: Workspace,
    term_scores: TermScores,
    budget: Callable[[dict[str, str]], int],
    stop: Callable[[], bool],
    carry_only: bool,
) -> dict[str, Any] | None:
    """Fill `term_scores` with the index's most widespread words on its own connection (the
    search thread's is never shared), `budget(meta)` bytes of them. None when there is no index;
    with `carry_only`, also when the words saved beside the index cannot be carried to it."""
    if not index_path(ws).exists():
        return None
    try:
        store = Store(index_path(ws), None, readonly=True, busy_timeout=ws.config.index.busy_timeout)
    except (IndexUnavailable, CorruptIndex):
        return None
    from memgit.recall.bm25_terms import basis_of

    saved = word_cache_path(ws)
    try:
        with store.snapshot_read():
            meta = store.meta()
            if "tree" not in meta:
                return None
            state = index_state(store)
            term_scores.resize(budget(meta))
            # Kept beside the index by the last server that finished a round on this very
            # state: a restart answers its first searches warm instead of computing them.
            started = time.perf_counter()
            # A file of an earlier state of this index (a commit since) is carried over.
            loaded = term_scores.loaded_for(state) or term_scores.load(saved, state, store)
            if loaded:
                out: dict[str, Any] = {
                    "words": loaded,
                    "rows": term_scores.rows,
                    "loaded": True,
                    "seconds": round(time.perf_counter() - started, 3),
                }
                if term_scores.carried:  # kept for this state: the next start loads it as is
                    out["carried"] = True
                    out["saved"] = term_scores.save(saved, state, basis_of(store))
                    term_scores.carried = False
                return out
            if carry_only:
                return None
            report: dict[str, Any] = term_scores.prewarm(store, state, stop=stop)
            if not stop():
                report["saved"] = term_scores.save(saved, state, basis_of(store))
            return report
    finally:
        store.close()


def read_ahead_vectors(data_dir: Path) -> None:
    """Ask the kernel to read the float vectors into its page cache (asynchronous; page cache
    is not this process's memory): the exact re-score reads rows from them."""
    from memgit.index.vectors import base_path

    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(base_path(data_dir), os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
        finally:
            os.close(fd)
