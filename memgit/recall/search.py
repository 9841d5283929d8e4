"""Hybrid search: BM25 and vector legs, merged, decayed, diversified, each hit with provenance.

`Searcher` keeps the database connection and the embedding model warm for batch runs and the
MCP server; `memgit search` and the server both hold one through memgit.recall.session. What a search asks is a
`SearchRequest` (memgit.recall.request); the legs are in memgit.recall.legs and the step from
their scores to hits in memgit.recall.hits.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any

from memgit.core import clock
from memgit.core.text import prune_common_terms, query_terms
from memgit.embed import Embedder
from memgit.errors import MemgitError
from memgit.index.freshen import ReadPath, pending_notice
from memgit.index.layout import cache_path, index_path
from memgit.index.open import EmbedderLoad, open_embedder
from memgit.index.settings import LOAD
from memgit.index.store import CorruptIndex, IndexUnavailable, Store
from memgit.index.word_cache import index_state, term_budget
from memgit.recall import hits as merge
from memgit.recall.bm25_query import BM25Prefetch, bm25_feedback, candidate_count, plain_bm25
from memgit.recall.legs import Leg, VectorFiles, score_text_hits, vector_scores_in_sql
from memgit.recall.ranking import Candidate, minmax
from memgit.recall.request import SearchRequest, SearchResult
from memgit.workspace import Workspace

if TYPE_CHECKING:
    from memgit.index.bm25_terms import TermScores
    from memgit.index.filter_sql import Filter
    from memgit.index.quantized import QuantizedVectors
    from memgit.index.vectors import VectorSet


class Searcher:
    def __init__(
        self,
        ws: Workspace,
        *,
        embedder: Any = LOAD,
        auto_index: bool | None = None,
        preload_vectors: bool = False,
        keep_term_scores: bool = False,
        bm25_prefetch: BM25Prefetch | None = None,
    ) -> None:
        self.ws = ws
        self._bm25_prefetch = bm25_prefetch
        # A long-running searcher keeps per-word BM25 scores (memgit.index.bm25_terms); a
        # one-shot search would only pay for filling them.
        self._term_scores: TermScores | None = None
        if keep_term_scores and ws.config.search.bm25_cache_mb > 0:
            from memgit.index.bm25_terms import TermScores

            self._term_scores = TermScores(int(ws.config.search.bm25_cache_mb * 2**20))  # resized per search
        # LOAD until the first search opens one (LOAD is an untyped sentinel: it narrows nothing).
        self._embedder: Embedder | EmbedderLoad | None = embedder
        self._embedder_notice: str | None = None
        self.auto_index = ws.config.search.auto_index if auto_index is None else auto_index
        self._store: Store | None = None
        self._store_inode: int | None = None
        self._vector_files = VectorFiles(ws.data_dir, preload=preload_vectors)
        self._fresh = ReadPath(ws, lambda: self.embedder)  # Policy.SEARCH: HEAD, repairs, pending vectors
        self._text_leg: Leg | None = None

    # -- resources -------------------------------------------------------------------------
    @property
    def embedder(self) -> Embedder | None:
        if self._embedder is LOAD:
            self._embedder, self._embedder_notice = open_embedder(self.ws, threads=1)
        elif isinstance(self._embedder, EmbedderLoad):
            self._embedder, self._embedder_notice = self._embedder.result()
        return self._embedder

    @property
    def embedder_notice(self) -> str | None:
        """Why there is no model (the provider's reason and its fix), once `embedder` was asked."""
        return self._embedder_notice

    def store(self) -> Store:
        """A read connection, reopened when a rebuild replaced the database file."""
        path = index_path(self.ws)
        inode = path.stat().st_ino if path.exists() else None
        if self._store is None or inode != self._store_inode:
            if self._store is not None:
                self._store.close()
            if inode is None:
                raise MemgitError("there is no index yet; run `memgit index`")
            try:
                self._store = Store(
                    path, cache_path(self.ws), readonly=True, busy_timeout=self.ws.config.index.busy_timeout
                )
            except IndexUnavailable as exc:
                if "no index yet" in str(exc):
                    raise MemgitError("there is no index yet; run `memgit index`") from None
                raise
            except CorruptIndex as exc:
                raise CorruptIndex(f"{exc}; run `memgit index` to rebuild it") from None
            self._store_inode = inode
        return self._store

    def _bm25_leg(self, store: Store, terms: list[str], limit: int, where: Filter) -> list[tuple[int, float]]:
        rows = self._bm25_rows(store, terms, limit, where)
        if self.ws.config.search.bm25_feedback_terms > 0 and rows:
            rows = bm25_feedback(self.ws.config.search, store, terms, rows, limit, where)
        return rows

    def _bm25_rows(self, store: Store, terms: list[str], limit: int, where: Filter) -> list[tuple[int, float]]:
        share = self.ws.config.search.bm25_max_term_share
        if self._term_scores is None or where:
            early = None
            if self._bm25_prefetch is not None and not where:
                early = self._bm25_prefetch.take(index_state(store), terms, limit)
            return early if early is not None else plain_bm25(store, terms, limit, share, where)
        if 0 < share < 1 and len(terms) > 1:
            terms = prune_common_terms(terms, store.fts.term_document_counts(terms), store.chunk_total(), share)
        self._term_scores.resize(self._term_budget(store.meta()))
        return self._term_scores.top(store, terms, limit, index_state(store))

    def prewarm_terms(
        self, stop: Callable[[], bool] = lambda: False, carry_only: bool = False
    ) -> dict[str, Any] | None:
        """Fill the per-word BM25 cache with the index's most widespread words, on the calling
        thread and its own connection (the search thread's is never shared), so that the first
        searches do not pay for them. None when this searcher keeps no cache or there is no index;
        with `carry_only`, also when the words saved beside the index cannot be carried to it
        (nothing is computed)."""
        if self._term_scores is None:
            return None
        from memgit.index.word_cache import prewarm_terms

        return prewarm_terms(self.ws, self._term_scores, self._term_budget, stop, carry_only)

    def warm_up(self) -> dict[str, Any]:
        """Before a long-running searcher's first query (the MCP server at start): open the
        index, load the vectors it searches (1-bit codes past `quantized_above`) and the word
        cache a previous server kept for this index state, and ask the kernel to read the float
        vectors into its page cache (the exact re-score reads rows from them; asynchronous, and
        page cache is not this process's memory). The first searches then cost what later ones do."""
        out: dict[str, Any] = {}
        try:
            store = self.store()
        except MemgitError:
            return out
        with store.snapshot_read():
            meta = store.meta()
            if "tree" not in meta:
                return out
            if meta.get("model_id") and self._embedder is not None:
                out["vectors"] = self._vectors(meta) is not None
            if self._term_scores is not None:
                from memgit.index.layout import word_cache_path

                self._term_scores.resize(self._term_budget(meta))
                out["words_loaded"] = self._term_scores.load(word_cache_path(self.ws), index_state(store), store)
                out["words_carried"] = self._term_scores.carried
        from memgit.recall.warm import read_ahead_vectors

        read_ahead_vectors(self.ws.data_dir)
        return out

    def _term_budget(self, meta: dict[str, str]) -> int:
        return term_budget(self.ws.config.search, meta)

    def refresh(self) -> None:
        if self._store is not None:
            self._store.close()
        self._store = None

    def close(self) -> None:
        if self._text_leg is not None:  # a search that raised may have left its BM25 leg running
            self._text_leg.join()
            self._text_leg = None
        self.refresh()
        if self._bm25_prefetch is not None:
            self._bm25_prefetch.close()
        if isinstance(self._embedder, EmbedderLoad):  # never used (BM25 only, an error): still wait
            self._embedder, self._embedder_notice = self._embedder.result()

    # -- search ------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        request: SearchRequest | None = None,
        *,
        today: date | None = None,
        worktree: bool = False,
    ) -> SearchResult:
        started = time.perf_counter()
        asked = (request or SearchRequest()).checked(self.ws.config.search.k)
        if self._term_scores is not None:
            with self._term_scores.searching():  # a background prewarm waits for it
                return self._search(query, asked, today, worktree, started)
        return self._search(query, asked, today, worktree, started)

    def _search(
        self, query: str, request: SearchRequest, today: date | None, worktree: bool, started: float
    ) -> SearchResult:
        notices: list[str] = []
        if self.auto_index:
            self._fresh.catch_up(notices, worktree=worktree)
        try:
            store = self.store()
        except CorruptIndex:
            if not self.auto_index:
                raise
            self.refresh()
            self._fresh.repair(notices, worktree=worktree)
            store = self.store()
        if request.mode != "bm25" and self.auto_index:
            self._fresh.fill_pending(store, notices)
        with store.snapshot_read():
            return self._search_snapshot(store, query, request, today, notices, started)

    def _search_snapshot(
        self,
        store: Store,
        query: str,
        request: SearchRequest,
        today: date | None,
        notices: list[str],
        started: float,
    ) -> SearchResult:
        """The search proper, inside one read transaction: scores, lines, blobs and the commit
        all come from the same committed state of the index."""
        meta = store.meta()
        if "tree" not in meta:  # created, but the first build has not committed yet
            raise MemgitError("there is no index yet; run `memgit index`")
        if not meta.get("commit"):
            notices.append(
                "the repository has no commits yet: only uncommitted memory files are searched"
                if self.ws.config.search.worktree
                else "the repository has no commits yet: commit memory files to make them searchable"
            )
        cfg = self.ws.config.search
        k, mode = request.k or cfg.k, request.mode
        limit = candidate_count(k, cfg.candidates_factor)
        scores = self._scores(store, meta, query, mode, limit, request.where, notices)
        today = today or clock.today()
        chosen = self.rank(query, merge.candidates(cfg, store, scores, mode, today), k, mode, today)
        if mode == "hybrid" and scores.use_vectors:
            chosen = merge.agreed_first(chosen, scores.text, scores.vector)
        hits = merge.hits(store, meta, chosen, scores, query, cfg.snippet_chars)
        self._closing_notices(meta, mode, scores.use_vectors, notices)
        elapsed = round((time.perf_counter() - started) * 1000, 2)
        ran = "bm25" if mode == "hybrid" and not scores.use_vectors else mode
        pending = int(meta.get("pending_vectors", "0") or 0) if meta.get("model_id") else 0
        return SearchResult(
            query=query,
            mode=ran,
            hits=hits,
            notices=notices,
            elapsed_ms=elapsed,
            requested_mode=mode,
            vectors_pending=pending,
        )

    def _scores(
        self,
        store: Store,
        meta: dict[str, str],
        query: str,
        mode: str,
        limit: int,
        where: Filter,
        notices: list[str],
    ) -> merge.Scores:
        """Both legs' scores. The BM25 leg runs in a worker thread while this one embeds the
        query and scans the vectors: SQLite, llama.cpp and numpy all release the GIL, so the
        legs overlap."""
        text_leg: Leg | None = None
        if mode in ("hybrid", "bm25"):
            terms = query_terms(query)
            if terms:
                text_leg = self._text_leg = Leg(lambda: self._bm25_leg(store, terms, limit, where))
        scores = merge.Scores()
        scores.use_vectors, qvec = self._query_vector(meta, query, mode, notices)
        vset = self._vectors(meta) if qvec is not None else None
        if qvec is not None and not where and vset is not None:
            scores.vector = dict(vset.top(qvec, limit))
        # Only now may this thread use the connection again (the BM25 leg is done with it).
        text_raw = dict(text_leg.result()) if text_leg is not None else {}
        if qvec is not None:
            vector_scores_in_sql(store, meta, qvec, limit, where, vset, scores)
            if mode == "hybrid":
                score_text_hits(store, meta, qvec, text_raw, vset, scores)
        scores.text = minmax(text_raw)
        return scores

    def _query_vector(self, meta: dict[str, str], query: str, mode: str, notices: list[str]) -> tuple[bool, Any]:
        """Whether this search uses vectors, and the query's vector (None: none to search with)."""
        if mode not in ("hybrid", "vector"):
            return False, None
        if isinstance(self._embedder, EmbedderLoad) and meta.get("model_id"):
            # The model is still loading on its thread, in C code that leaves this one free: open
            # the index's vectors (and import numpy, ≈45 ms) meanwhile rather than after it.
            self._vectors(meta)
        embedder = self.embedder
        reason = self._vector_problem(embedder, meta)
        if reason:
            if mode == "vector":
                raise MemgitError(f"vector search is unavailable: {reason}")
            notices.append(f"BM25 only: {reason}")
            return False, None
        if embedder is None or not query.strip():
            return True, None
        return True, embedder.embed([query])[0]

    def _closing_notices(self, meta: dict[str, str], mode: str, use_vectors: bool, notices: list[str]) -> None:
        """Why there is no model, and how many chunks still lack a vector."""
        if self._embedder_notice and mode != "bm25" and not any("BM25 only" in n for n in notices):
            notices.append(self._embedder_notice)
        lacking = int(meta.get("pending_vectors", "0") or 0)
        if lacking and use_vectors:
            notices.append(pending_notice(lacking, int(meta.get("chunk_count", "0") or 0)))

    def rank(self, query: str, candidates: list[Candidate], k: int, mode: str, today: date) -> list[Candidate]:
        """The ranking steps after the legs merge (memgit.recall.hits.rank); a benchmark's
        searcher overrides this to try another."""
        return merge.rank(self.ws.config.search, query, candidates, k, mode, today)

    def _vectors(self, meta: dict[str, str]) -> VectorSet | QuantizedVectors | None:
        """The memory-mapped vectors of this index generation, if the files are intact."""
        return self._vector_files.current(meta, self.ws.config.search.quantized_above)

    def _vector_problem(self, embedder: Embedder | None, meta: dict[str, str]) -> str | None:
        if embedder is None:
            return (self._embedder_notice or "no embedding model").removeprefix("BM25 only: ")
        indexed = meta.get("model_id") or None
        if indexed != embedder.model_id:
            return (
                f"the index was built with model {indexed or 'none'}, not {embedder.model_id}; "
                "run `memgit index` to re-embed"
            )
        return None
