"""Hybrid search: BM25 and vector legs, merged, decayed, diversified, each hit with provenance.

`Searcher` keeps the database connection and the embedding model warm for batch runs and the
MCP server; `search()` is the one-shot form the CLI uses.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import date
from typing import TYPE_CHECKING, Any

from memgit.config import MAX_K
from memgit.core import paths
from memgit.core.provenance import strip_markers
from memgit.core.text import match_expression, prune_common_terms, query_terms, token_set
from memgit.embed import Embedder
from memgit.errors import MemgitError
from memgit.index.freshen import ReadPath, pending_notice
from memgit.index.layout import cache_path, index_path
from memgit.index.open import UNSET, EmbedderLoad, open_embedder
from memgit.index.store import CorruptIndex, IndexUnavailable, Store
from memgit.recall.bm25_query import BM25Prefetch, candidate_count, index_state, plain_bm25
from memgit.recall.ranking import Candidate, decay, drop_repeated_lines, fuse, minmax, mmr
from memgit.workspace import Workspace

if TYPE_CHECKING:
    from memgit.index.quantized import Codes, QuantizedVectors
    from memgit.index.vectors import VectorSet
    from memgit.recall.bm25_terms import TermScores

MODES = ("hybrid", "bm25", "vector")


@dataclass
class Hit:
    path: str
    start_line: int
    end_line: int
    score: float
    text: str
    blob: str | None
    commit: str | None
    source: str
    day: str | None
    text_score: float
    vector_score: float | None
    #: A piece of one long line: its character range in line `start_line` (None: whole lines).
    start_char: int | None = None
    end_char: int | None = None


@dataclass
class SearchResult:
    query: str
    mode: str
    hits: list[Hit]
    notices: list[str] = field(default_factory=list)
    elapsed_ms: float = 0.0
    #: The mode asked for; `mode` is what ran ("bm25" when a hybrid search had no vectors to use).
    requested_mode: str = ""
    #: Chunks without a vector yet (ranked by BM25 alone in a hybrid search).
    vectors_pending: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "mode": self.mode,
            "requested_mode": self.requested_mode or self.mode,
            "vectors_pending": self.vectors_pending,
            "hits": [asdict(hit) for hit in self.hits],
            "notices": self.notices,
            "elapsed_ms": self.elapsed_ms,
        }


def parse_day(value: str | None, name: str) -> str | None:
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise MemgitError(f"{name} must be a date like 2026-02-06, got {value!r}") from None


class _Leg(threading.Thread):
    """One search leg on its own thread, started at once; `result` waits and re-raises.

    A thread a search costs ≈0.1 ms; a `concurrent.futures` pool would add ≈5 ms of imports
    (logging among them) to every one-shot search.
    """

    def __init__(self, work: Callable[[], list[tuple[int, float]]]) -> None:
        super().__init__(name="memgit-bm25", daemon=True)
        self._work = work
        self._value: list[tuple[int, float]] = []
        self._error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self._value = self._work()
        except BaseException as exc:  # raised again on the searching thread
            self._error = exc

    def result(self) -> list[tuple[int, float]]:
        self.join()
        if self._error is not None:
            raise self._error
        return self._value


class _Scores:
    """One search's scores by chunk id: BM25 min-max normalised, and cosine. (A plain class: a
    dataclass costs a one-shot search ~0.3 ms to build at import.)"""

    __slots__ = ("text", "vector", "no_vector", "use_vectors")

    def __init__(self) -> None:
        self.text: dict[int, float] = {}
        self.vector: dict[int, float] = {}
        self.no_vector: set[int] = set()  # chunks whose vector is still pending
        self.use_vectors = False


class Searcher:
    def __init__(
        self,
        ws: Workspace,
        *,
        embedder: Any = UNSET,
        auto_index: bool | None = None,
        preload_vectors: bool = False,
        keep_term_scores: bool = False,
        bm25_prefetch: BM25Prefetch | None = None,
    ) -> None:
        self.ws = ws
        self._bm25_prefetch = bm25_prefetch
        self.preload_vectors = preload_vectors
        # A long-running searcher keeps per-word BM25 scores (memgit.recall.bm25_terms); a
        # one-shot search would only pay for filling them.
        self._term_scores: TermScores | None = None
        if keep_term_scores and ws.config.search.bm25_cache_mb > 0:
            from memgit.recall.bm25_terms import TermScores

            self._term_scores = TermScores(int(ws.config.search.bm25_cache_mb * 2**20))  # resized per search
        # UNSET until the first search opens one (UNSET is an untyped sentinel: it narrows nothing).
        self._embedder: Embedder | EmbedderLoad | None = embedder
        self._embedder_notice: str | None = None
        self.auto_index = ws.config.search.auto_index if auto_index is None else auto_index
        self._store: Store | None = None
        self._store_inode: int | None = None
        self._vector_cache: VectorSet | None = None
        self._vector_index_id: str | None = None
        self._quantized: QuantizedVectors | None = None
        self._codes: Codes | None = None
        self._fresh = ReadPath(ws, lambda: self.embedder)  # Policy.SEARCH: HEAD, repairs, pending vectors
        self._text_leg: _Leg | None = None

    # -- resources -------------------------------------------------------------------------
    @property
    def embedder(self) -> Embedder | None:
        if self._embedder is UNSET:
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

    def _bm25_leg(
        self, store: Store, terms: list[str], limit: int, where: str, params: list[Any]
    ) -> list[tuple[int, float]]:
        rows = self._bm25_rows(store, terms, limit, where, params)
        if self.ws.config.search.bm25_feedback_terms > 0 and rows:
            rows = self._bm25_feedback(store, terms, rows, limit, where, params)
        return rows

    def _bm25_feedback(
        self, store: Store, terms: list[str], rows: list[tuple[int, float]], limit: int, where: str, params: list[Any]
    ) -> list[tuple[int, float]]:
        """Pseudo-relevance feedback (opt-in): the first hits' most telling words, searched as
        one OR query, add β × their scores to the leg's (memgit.recall.feedback)."""
        from memgit.recall.feedback import add_feedback, feedback_words, pick_feedback_terms

        cfg = self.ws.config.search
        top = [chunk_id for chunk_id, _ in rows[: cfg.bm25_feedback_docs]]
        texts = [row[3] for row in store.chunk_rows(top).values()]
        tf = feedback_words(texts, exclude=terms)
        if not tf:
            return rows
        tokens = store.fts.tokens([*tf, *terms])
        query_tokens = [tokens[t] for t in terms if t in tokens]
        counts = store.fts.term_document_counts(list(tf))
        words = pick_feedback_terms(
            tf, counts, store.chunk_total(), cfg.bm25_feedback_terms, tokens=tokens, query_tokens=query_tokens
        )
        match = match_expression(words)
        if match is None:
            return rows
        return add_feedback(rows, store.bm25(match, limit, where, params), cfg.bm25_feedback_weight, limit)

    def _bm25_rows(
        self, store: Store, terms: list[str], limit: int, where: str, params: list[Any]
    ) -> list[tuple[int, float]]:
        share = self.ws.config.search.bm25_max_term_share
        if self._term_scores is None or where:
            early = None
            if self._bm25_prefetch is not None and not where:
                early = self._bm25_prefetch.take(index_state(store), terms, limit)
            return early if early is not None else plain_bm25(store, terms, limit, share, where, params)
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
        if self._term_scores is None or not index_path(self.ws).exists():
            return None
        try:
            store = Store(index_path(self.ws), None, readonly=True, busy_timeout=self.ws.config.index.busy_timeout)
        except (IndexUnavailable, CorruptIndex):
            return None
        from memgit.index.layout import word_cache_path
        from memgit.recall.bm25_terms import basis_of

        saved = word_cache_path(self.ws)
        try:
            with store.snapshot_read():
                meta = store.meta()
                if "tree" not in meta:
                    return None
                state = index_state(store)
                self._term_scores.resize(self._term_budget(meta))
                # Kept beside the index by the last server that finished a round on this very
                # state: a restart answers its first searches warm instead of computing them.
                started = time.perf_counter()
                # A file of an earlier state of this index (a commit since) is carried over.
                loaded = self._term_scores.loaded_for(state) or self._term_scores.load(saved, state, store)
                if loaded:
                    out: dict[str, Any] = {
                        "words": loaded,
                        "rows": self._term_scores.rows,
                        "loaded": True,
                        "seconds": round(time.perf_counter() - started, 3),
                    }
                    if self._term_scores.carried:  # kept for this state: the next start loads it as is
                        out["carried"] = True
                        out["saved"] = self._term_scores.save(saved, state, basis_of(store))
                        self._term_scores.carried = False
                    return out
                if carry_only:
                    return None
                report: dict[str, Any] = self._term_scores.prewarm(store, state, stop=stop)
                if not stop():
                    report["saved"] = self._term_scores.save(saved, state, basis_of(store))
                return report
        finally:
            store.close()

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
        from memgit.index.vectors import base_path

        with contextlib.suppress(OSError, AttributeError):
            fd = os.open(base_path(self.ws.data_dir), os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
            finally:
                os.close(fd)
        return out

    def _term_budget(self, meta: dict[str, str]) -> int:
        """Bytes of per-word BM25 scores: `bm25_cache_mb` per 100,000 chunks (a word's rows grow
        with the index)."""
        cfg = self.ws.config.search
        scaled = cfg.bm25_cache_mb * max(1.0, int(meta.get("chunk_count", "0")) / 100_000)
        return int(min(scaled, cfg.bm25_cache_max_mb) * 2**20)

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
        *,
        k: int | None = None,
        mode: str = "hybrid",
        path_glob: str | list[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        today: date | None = None,
        worktree: bool = False,
    ) -> SearchResult:
        started = time.perf_counter()
        cfg = self.ws.config.search
        if mode not in MODES:
            raise MemgitError(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}")
        k = cfg.k if k is None else k
        if not 1 <= k <= MAX_K:
            raise MemgitError(f"k must be between 1 and {MAX_K}, got {k}")
        since_day, until_day = parse_day(since, "--since"), parse_day(until, "--until")
        if self._term_scores is not None:
            with self._term_scores.searching():  # a background prewarm waits for it
                return self._search(query, k, mode, path_glob, since_day, until_day, today, worktree, started)
        return self._search(query, k, mode, path_glob, since_day, until_day, today, worktree, started)

    def _search(
        self,
        query: str,
        k: int,
        mode: str,
        path_glob: str | list[str] | None,
        since_day: str | None,
        until_day: str | None,
        today: date | None,
        worktree: bool,
        started: float,
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
        if mode != "bm25" and self.auto_index:
            self._fresh.fill_pending(store, notices)
        with store.snapshot_read():
            return self._search_snapshot(
                store,
                query,
                k=k,
                mode=mode,
                path_glob=path_glob,
                since_day=since_day,
                until_day=until_day,
                today=today,
                notices=notices,
                started=started,
            )

    def _search_snapshot(
        self,
        store: Store,
        query: str,
        *,
        k: int,
        mode: str,
        path_glob: str | list[str] | None,
        since_day: str | None,
        until_day: str | None,
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
            notices.append("the repository has no commits yet: commit memory files to make them searchable")
        where, params = self._filters(store, path_glob, since_day, until_day)
        limit = candidate_count(k, self.ws.config.search.candidates_factor)
        scores = self._scores(store, meta, query, mode, limit, where, params, notices)
        today = today or date.today()
        chosen = self.rank(query, self._candidates(store, scores, mode, today), k, mode, today)
        if mode == "hybrid" and scores.use_vectors:
            chosen = agreed_first(chosen, scores.text, scores.vector)
        hits = self._hits(store, meta, chosen, scores, query)
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
        where: str,
        params: list[Any],
        notices: list[str],
    ) -> _Scores:
        """Both legs' scores. The BM25 leg runs in a worker thread while this one embeds the
        query and scans the vectors: SQLite, llama.cpp and numpy all release the GIL, so the
        legs overlap."""
        text_leg: _Leg | None = None
        if mode in ("hybrid", "bm25"):
            terms = query_terms(query)
            if terms:
                text_leg = self._text_leg = _Leg(lambda: self._bm25_leg(store, terms, limit, where, params))
        scores = _Scores()
        scores.use_vectors, qvec = self._query_vector(meta, query, mode, notices)
        vset = self._vectors(meta) if qvec is not None else None
        if qvec is not None and not where and vset is not None:
            scores.vector = dict(vset.top(qvec, limit))
        # Only now may this thread use the connection again (the BM25 leg is done with it).
        text_raw = dict(text_leg.result()) if text_leg is not None else {}
        if qvec is not None:
            self._vector_scores_in_sql(store, meta, qvec, limit, where, params, vset, scores)
            if mode == "hybrid":
                self._score_text_hits(store, meta, qvec, text_raw, vset, scores)
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

    @staticmethod
    def _vector_scores_in_sql(
        store: Store,
        meta: dict[str, str],
        qvec: Any,
        limit: int,
        where: str,
        params: list[Any],
        vset: VectorSet | QuantizedVectors | None,
        scores: _Scores,
    ) -> None:
        """A filtered search, or one without intact vector files, scores in SQL (the cache)."""
        if where:
            ids = store.chunk_ids_where(where, params)
            scores.vector = dict(store.cache.similarities(qvec, ids, limit, meta.get("model_id")))
        elif vset is None:
            scores.vector = dict(store.cache.knn(qvec, limit, meta.get("model_id")))

    @staticmethod
    def _score_text_hits(
        store: Store,
        meta: dict[str, str],
        qvec: Any,
        text_raw: dict[int, float],
        vset: VectorSet | QuantizedVectors | None,
        scores: _Scores,
    ) -> None:
        """Hits found only by BM25 get their exact cosine; those whose vector is still pending
        get none (not 0.0)."""
        missing = [i for i in text_raw if i not in scores.vector]
        if missing and vset is not None:
            scores.vector.update(vset.similarities(qvec, missing))
            missing = [i for i in missing if i not in scores.vector]
        if missing:
            scores.vector.update(store.cache.similarities(qvec, missing, None, meta.get("model_id")))
            scores.no_vector.update(i for i in missing if i not in scores.vector)

    def _candidates(self, store: Store, scores: _Scores, mode: str, today: date) -> list[Candidate]:
        """Every chunk either leg found, with its fused and decayed score (above the floor)."""
        cfg = self.ws.config.search
        if mode == "bm25":
            ids = list(scores.text)
        elif mode == "vector":
            ids = list(scores.vector)
        else:
            ids = list(dict.fromkeys([*scores.text, *scores.vector]))
        rows = store.chunk_rows(ids)
        candidates: list[Candidate] = []
        for chunk_id in ids:
            if chunk_id not in rows:
                continue
            path, start, end, text, day = rows[chunk_id]
            t = scores.text.get(chunk_id, 0.0)
            v = max(0.0, scores.vector.get(chunk_id, 0.0))
            if mode == "bm25":
                base = t
            elif mode == "vector":
                base = v
            elif not scores.use_vectors or chunk_id in scores.no_vector:
                # No vector to weigh (BM25 only, or this chunk's is still pending): its text score
                # stands alone, not as the text share of a fusion it cannot win.
                base = t
            else:
                base = fuse(t, v, cfg.text_weight, cfg.vector_weight)
            score = base * decay(day, today, cfg.half_life_days, cfg.decay_floor)
            if score < cfg.min_score:
                continue
            candidates.append(Candidate(chunk_id, path, start, end, text, day, t, v, score))
        return candidates

    def _hits(
        self, store: Store, meta: dict[str, str], chosen: list[Candidate], scores: _Scores, query: str
    ) -> list[Hit]:
        """The chosen candidates with their provenance: blob, and the commit for indexed files."""
        snippet_chars = self.ws.config.search.snippet_chars
        files = self._file_info(store, [c.path for c in chosen])
        pieces = store.chunk_chars([c.id for c in chosen])
        words = query_terms(query)
        hits = []
        for cand in chosen:
            blob, source = files.get(cand.path, (None, "tree"))
            scored = scores.use_vectors and cand.id not in scores.no_vector
            hits.append(
                Hit(
                    path=cand.path,
                    start_line=cand.start_line,
                    end_line=cand.end_line,
                    score=round(cand.score, 4),
                    text=snippet(_shown_text(cand.path, cand.text), words, snippet_chars),
                    blob=blob,
                    commit=meta.get("commit") if source == "tree" else None,
                    source=source,
                    day=cand.day,
                    text_score=round(cand.text_score, 4),
                    vector_score=round(cand.vector_score, 4) if scored else None,
                    start_char=pieces.get(cand.id, (None, None))[0],
                    end_char=pieces.get(cand.id, (None, None))[1],
                )
            )
        return hits

    def _closing_notices(self, meta: dict[str, str], mode: str, use_vectors: bool, notices: list[str]) -> None:
        """Why there is no model, and how many chunks still lack a vector."""
        if self._embedder_notice and mode != "bm25" and not any("BM25 only" in n for n in notices):
            notices.append(self._embedder_notice)
        lacking = int(meta.get("pending_vectors", "0") or 0)
        if lacking and use_vectors:
            notices.append(pending_notice(lacking, int(meta.get("chunk_count", "0") or 0)))

    def rank(self, query: str, candidates: list[Candidate], k: int, mode: str, today: date) -> list[Candidate]:
        """The ranking steps after the legs merge: (re-rank,) order, diversify, drop lines already returned."""
        cfg = self.ws.config.search
        if cfg.rerank and mode == "hybrid":
            # imported here: the re-ranker is opt-in, and a one-shot CLI call pays for every import
            from memgit.recall.rerank import rerank
            from memgit.recall.rerank_weights import WEIGHTS as RERANK_WEIGHTS

            candidates = [
                replace(c, score=c.score * decay(c.day, today, cfg.half_life_days, cfg.decay_floor))
                for c in rerank(query, candidates, RERANK_WEIGHTS)
            ]
        candidates = sorted(candidates, key=lambda c: (-c.score, c.path, c.start_line))
        pool = candidates[: max(3 * k, 20)]
        diverse = drop_repeated_lines(mmr(pool, [token_set(c.text) for c in pool], k * 2, cfg.mmr_lambda))
        if cfg.reports_last:
            # A dream report quotes the questions that recalled a fact word for word, so it would
            # outrank the note that holds the fact: reports come after the notes, never instead of them.
            report = paths.DREAM_REPORT_DIR + "/"
            diverse = [c for c in diverse if not c.path.startswith(report)] + [
                c for c in diverse if c.path.startswith(report)
            ]
        return diverse[:k]

    def _vectors(self, meta: dict[str, str]) -> VectorSet | QuantizedVectors | None:
        """The memory-mapped vectors of this index generation, if the files are intact.

        Past `[search] quantized_above` chunks the base is scanned through its 1-bit codes and
        only the best rows are re-scored from the floats (memgit.index.quantized); a long-running
        process then keeps the codes in RAM, not the float matrix.
        """
        from memgit.index.quantized import QuantizedVectors
        from memgit.index.vectors import VectorSet

        generation = int(meta.get("generation", "0"))
        index_id = meta.get("index_id", "")
        if (
            self._vector_cache is None
            or self._vector_cache.generation != generation
            or self._vector_index_id != index_id
        ):
            previous = self._vector_cache
            self._vector_cache = VectorSet.open(self.ws.data_dir, index_id, generation, previous)
            self._vector_index_id = index_id
            reused = (
                previous is not None and self._vector_cache is not None and (self._vector_cache.base is previous.base)
            )
            vset = self._vector_cache
            quantize = vset is not None and len(vset.base.ids) > self.ws.config.search.quantized_above
            if vset is not None and self.preload_vectors and not reused and not quantize:
                vset.preload()
            self._quantized = None
            if vset is not None and quantize:
                self._quantized = QuantizedVectors.open(
                    self.ws.data_dir, vset, preload=self.preload_vectors, previous=self._codes
                )
                self._codes = self._quantized.codes
        return self._quantized or self._vector_cache

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

    @staticmethod
    def _filters(
        store: Store, path_glob: str | list[str] | None, since: str | None, until: str | None
    ) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        globs = [path_glob] if isinstance(path_glob, str) else list(path_glob or [])
        globs = [g if not g.endswith("/") else g + "**" for g in globs if g]
        if globs:
            allowed = [p for p in store.stored_paths() if any(paths.glob_match(g, p) for g in globs)]
            clauses.append("c.path IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(allowed))
        if since:
            clauses.append("c.day >= ?")
            params.append(since)
        if until:
            clauses.append("c.day <= ?")
            params.append(until)
        return " AND ".join(clauses), params

    @staticmethod
    def _file_info(store: Store, wanted: list[str]) -> dict[str, tuple[str | None, str]]:
        if not wanted:
            return {}
        return {path: (blob or None, source) for path, blob, source in store.file_sources(wanted)}


#: From this many chunks a full build also computes and keeps the BM25 word cache, so that an
#: MCP server starting on it answers its first searches warm (an uncached search costs ~2.5 times
#: a warm one at 100k chunks; below this size both take a few ms).
WORD_CACHE_MIN_CHUNKS = 50_000


def keep_word_cache(ws: Workspace, chunks: int) -> dict[str, Any] | None:
    """After a full build of a large index: compute the per-word BM25 scores a warm searcher
    would prewarm and keep them beside the index (`bm25-words.bin`). None when not worth it."""
    cfg = ws.config.search
    if chunks < WORD_CACHE_MIN_CHUNKS or not cfg.bm25_prewarm or cfg.bm25_cache_mb <= 0:
        return None
    searcher = Searcher(ws, embedder=None, auto_index=False, keep_term_scores=True)
    try:
        return searcher.prewarm_terms()
    finally:
        searcher.close()


def search(ws: Workspace, query: str, **kwargs: Any) -> SearchResult:
    searcher = Searcher(ws)
    try:
        return searcher.search(query, **kwargs)
    finally:
        searcher.close()


def _shown_text(path: str, text: str) -> str:
    """A hit's text as an agent reads it: MEMORY.md's entry markers (review keys) left out, as
    `memgit context` and `memgit get` leave them out; line numbers stay as indexed."""
    return strip_markers(text) if path == "MEMORY.md" else text


def snippet(text: str, words: list[str], limit: int) -> str:
    """At most `limit` characters of a hit's text: its start, unless no query word appears there
    and one does further on; then from the line holding the first one (or a little before the word
    in a long line), so the snippet shows the match."""
    if len(text) <= limit:
        return text
    lowered = text.lower()
    found = [i for i in (lowered.find(w.lower()) for w in words if len(w) >= 2) if i >= 0]
    if not found or min(found) + max(len(w) for w in words) <= limit:
        return text[:limit]
    at = min(found)
    line_start = text.rfind("\n", 0, at) + 1
    begin = line_start if at - line_start < limit // 2 else at - limit // 4
    return text[begin : begin + limit]


def agreed_first(chosen: list[Candidate], text: dict[int, float], vector: dict[int, float]) -> list[Candidate]:
    """The chunk both legs rank first is the hybrid's first too: a fusion must not rank below
    both of its parts what they agree on (weighted scores on different scales can: a chunk a
    little behind in both legs may add up to more)."""
    if not text or not vector:
        return chosen
    top_text = max(text, key=lambda i: (text[i], -i))
    top_vector = max(vector, key=lambda i: (vector[i], -i))
    if top_text != top_vector:
        return chosen
    return sorted(chosen, key=lambda c: c.id != top_text)
