"""The per-word BM25 scores kept beside the index (`bm25-words.bin`): what a full build of a large
index writes so that the first warm searcher after it starts warm, and what a warm searcher fills.

It belongs to the index: a full build gives the index a new identity and makes the saved scores
of the old one useless, so the update that rebuilds (`freshen` under a policy that keeps them)
writes them again; incremental updates leave them to be carried forward (`bm25_rebase`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memgit.index.layout import index_path, word_cache_path
from memgit.index.store import CorruptIndex, IndexUnavailable, Store

if TYPE_CHECKING:
    from memgit.config import SearchConfig
    from memgit.index.bm25_terms import TermScores
    from memgit.workspace import Workspace

#: A full build of at least this many chunks keeps the word cache; below it a warm searcher
#: scores its words in well under a second.
WORD_CACHE_MIN_CHUNKS = 50_000

IndexState = tuple[str | None, bytes]


def index_state(store: Store) -> IndexState:
    """What must be equal for two read transactions to give the same BM25 scores: the database
    and its FTS index. Not the generation: an update that only adds vectors (filling pending
    ones) leaves every BM25 score as it was, and the warm word cache with it."""
    meta = store.meta()
    return meta.get("index_id"), store.fts.state()


def term_budget(cfg: SearchConfig, meta: dict[str, str]) -> int:
    """Bytes of per-word BM25 scores: `bm25_cache_mb` per 100,000 chunks (a word's rows grow
    with the index)."""
    scaled = cfg.bm25_cache_mb * max(1.0, int(meta.get("chunk_count", "0")) / 100_000)
    return int(min(scaled, cfg.bm25_cache_max_mb) * 2**20)


def keep_word_cache(ws: Workspace, chunks: int) -> dict[str, Any] | None:
    """After a full build of a large index: compute the per-word BM25 scores a warm searcher
    would prewarm and keep them beside the index. None when not worth it."""
    cfg = ws.config.search
    if chunks < WORD_CACHE_MIN_CHUNKS or not cfg.bm25_prewarm or cfg.bm25_cache_mb <= 0:
        return None
    from memgit.index.bm25_terms import TermScores

    scores = TermScores(int(cfg.bm25_cache_mb * 2**20))
    return prewarm_terms(ws, scores, lambda meta: term_budget(cfg, meta), lambda: False, False)


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
    from memgit.index.bm25_terms import basis_of

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
