"""One front end's searches: what `memgit search` and the MCP server share, wired in one place.

A session starts what a search waits for before it imports the rest: the model loads on a thread
(`EmbedderLoad`; ≈45 ms of C code that leaves this thread free), and a large index's BM25 query
for the first question starts on its own connection (`BM25Prefetch`). Then it holds the
`Searcher` (one read connection, the vectors, a warm session's per-word BM25 scores) and records
every answer's hits in the recall spool, dreaming's evidence. The front ends only parse, adapt
and print.

Recording goes through `open_recorder`, the one place recall reaches the recall ledger.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from memgit.index.open import UNSET, EmbedderLoad

if TYPE_CHECKING:  # (the Protocol too: a one-shot search need not pay for building it)
    from typing import Protocol

    from memgit.embed import Embedder
    from memgit.recall.search import Searcher, SearchResult
    from memgit.workspace import Workspace

    class HitRecorder(Protocol):
        #: Why recording stopped in this process (a failed write never fails a search).
        problem: str | None

        def record(self, result: SearchResult) -> SearchResult: ...


def open_recorder(ws: Workspace, *, no_record: bool, now: str | None, read_only: bool) -> HitRecorder:
    """The recall ledger's recorder for this session; a bad `now` is refused here, before any
    search runs."""
    from memgit.ledger.recording import Recorder

    recorder: HitRecorder = Recorder(ws, no_record=no_record, now=now, read_only=read_only)
    return recorder


class SearchSession:
    """The searches of one process, recorded.

    `first_query` (with `k` and `filtered`) is the question a one-shot search is about to ask, so
    its BM25 query can start now; `warm` keeps what later searches reuse (the vectors in memory,
    per-word BM25 scores), for a batch or a server. `auto_index` brings the index to HEAD before
    searching (the config's `[search] auto_index` when None). `wait_for_model` loads the model before
    anything else: a server has little to overlap the load with, and a thread loading it only
    contends with the server's imports for Python's lock (measured: 6 ms slower to start).
    """

    def __init__(
        self,
        ws: Workspace,
        *,
        mode: str = "hybrid",
        first_query: str | None = None,
        k: int | None = None,
        filtered: bool = False,
        warm: bool = False,
        auto_index: bool | None = None,
        no_record: bool = False,
        now: str | None = None,
        read_only: bool = False,
        wait_for_model: bool = False,
    ) -> None:
        self.mode = mode
        started: list[Any] = []
        embedder: Any = UNSET  # BM25 only: opened (synchronously) only if an index update needs it
        if mode != "bm25":
            embedder = EmbedderLoad(ws, threads=1)  # first: the model loads while the rest imports
            started.append(embedder)
            if wait_for_model:
                embedder.result()
        prefetch = None
        if first_query is not None and mode != "vector" and not filtered:
            from memgit.recall.bm25_query import BM25Prefetch

            prefetch = BM25Prefetch(ws, first_query, k)  # and a large index's BM25 query starts
            started.append(prefetch)
        from memgit.recall.search import Searcher

        try:
            self._recorder = open_recorder(ws, no_record=no_record, now=now, read_only=read_only)
            # A warm session amortises reading the vectors into memory (in-memory products are
            # ~2x faster than over the memory-mapped file); a single query is faster from the map.
            self.searcher: Searcher = Searcher(
                ws,
                embedder=embedder,
                auto_index=auto_index,
                preload_vectors=warm,
                keep_term_scores=warm,
                bm25_prefetch=prefetch,
            )
        except BaseException:
            for thread in started:  # never leave llama.cpp or SQLite working while Python exits
                thread.close()
            raise

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        mode: str | None = None,
        path_glob: str | list[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        exclude_paths: Collection[str] = (),
    ) -> SearchResult:
        """One search, its hits recorded. Hits in `exclude_paths` are never returned (nor
        recorded): more are asked for and those dropped, so there are fewer only at worst."""
        mode = mode or self.mode
        if not exclude_paths:
            result = self.searcher.search(query, k=k, mode=mode, path_glob=path_glob, since=since, until=until)
            return self._recorder.record(result)
        from memgit.config import MAX_K
        from memgit.errors import MemgitError

        wanted = self.searcher.ws.config.search.k if k is None else k
        if not 1 <= wanted <= MAX_K:
            raise MemgitError(f"k must be between 1 and {MAX_K}, got {wanted}")
        result = self.searcher.search(
            query, k=min(wanted * 3, MAX_K), mode=mode, path_glob=path_glob, since=since, until=until
        )
        result.hits = [hit for hit in result.hits if hit.path not in exclude_paths][:wanted]
        return self._recorder.record(result)

    @property
    def embedder(self) -> Embedder | None:
        """The model (waiting for it to load), or None: `embedder_notice` then says why."""
        return self.searcher.embedder

    @property
    def embedder_notice(self) -> str | None:
        """Why there is no model: the provider's reason and its fix (waiting for the load)."""
        self.searcher.embedder  # noqa: B018 - resolves the load, which sets the notice
        return self.searcher.embedder_notice

    @property
    def problem(self) -> str | None:
        """Why this session's hits stopped being recorded, if they did."""
        return self._recorder.problem

    def close(self) -> None:
        self.searcher.close()
