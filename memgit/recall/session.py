"""One front end's searches: what `memgit search` and the MCP server share, wired in one place.

A session starts what a search waits for before it imports the rest: the model loads on a thread
(`EmbedderLoad`; ≈45 ms of C code that leaves this thread free) while this one imports, and no
SQLite runs until it has loaded (a first SQLite statement beside the load crashed in SQLite).
Then a large index's BM25 query for the first question starts on its own connection
(`BM25Prefetch`) while the searcher opens and the query is embedded. Then it holds the
`Searcher` (one read connection, the vectors, a warm session's per-word BM25 scores) and records
every answer's hits in the recall spool, dreaming's evidence. The front ends only parse, adapt
and print.

Recording goes through `open_recorder`, the one place recall reaches the recall ledger.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from memgit.index.open import EmbedderLoad
from memgit.index.settings import LOAD

if TYPE_CHECKING:  # (the Protocol too: a one-shot search need not pay for building it)
    from typing import Protocol

    from memgit.embed import Embedder
    from memgit.recall.request import SearchRequest, SearchResult
    from memgit.recall.search import Searcher
    from memgit.workspace import Workspace

    class HitRecorder(Protocol):
        #: Why recording stopped in this process (a failed write never fails a search).
        problem: str | None

        def record(self, result: SearchResult) -> SearchResult: ...


#: How a session is used: one question (`once`: its BM25 query starts early, vectors are read
#: through the memory map), a batch of them (`batch`: what later searches reuse is kept warm),
#: or a server (`server`: warm, and the model loaded before anything else).
SessionUse = Literal["once", "batch", "server"]


@dataclass(frozen=True)
class Recording:
    """Whether and as of when a session records its hits: `no_record` (`--no-record`), `now`
    (an ISO time; default MEMGIT_NOW or the clock), `read_only` (an MCP session that may write
    nothing)."""

    no_record: bool = False
    now: str | None = None
    read_only: bool = False


def open_recorder(ws: Workspace, recording: Recording) -> HitRecorder:
    """The recall ledger's recorder for this session; a bad `now` is refused here, before any
    search runs."""
    from memgit.ledger.recording import Recorder

    recorder: HitRecorder = Recorder(
        ws, no_record=recording.no_record, now=recording.now, read_only=recording.read_only
    )
    return recorder


class SearchSession:
    """The searches of one process, recorded.

    `request` is what every search asks unless it says otherwise (mode, k, filter); `first_query`
    is the question a one-shot search is about to ask, so its BM25 query can start now. `use`
    says what to keep warm (`SessionUse`): a batch or a server keeps the vectors in memory and
    per-word BM25 scores; a server also loads the model before anything else (it has little to
    overlap the load with, and a thread loading it only contends with the server's imports for
    Python's lock: measured 6 ms slower to start). `auto_index` brings the index to HEAD before
    searching (the config's `[search] auto_index` when None).
    """

    def __init__(
        self,
        ws: Workspace,
        request: SearchRequest | None = None,
        *,
        first_query: str | None = None,
        use: SessionUse = "once",
        recording: Recording = Recording(),
        auto_index: bool | None = None,
        worktree: bool | None = None,
    ) -> None:
        from memgit.recall.request import SearchRequest

        self.request = request or SearchRequest()
        # Uncommitted edits of memory files are searched too (`[search] worktree`): `remember` then
        # `search` finds the note. A batch looks at the work tree at most once a second.
        self.worktree = ws.config.search.worktree if worktree is None else worktree
        self._worktree_seen = -1e9
        self.mode = self.request.mode
        warm = use != "once"
        started: list[Any] = []
        embedder: Any = LOAD  # BM25 only: opened (synchronously) only if an index update needs it
        if self.mode != "bm25":
            embedder = EmbedderLoad(ws, threads=1)  # first: the model loads while the rest imports
            started.append(embedder)
            if use == "server":
                embedder.result()
        from memgit.recall.search import Searcher

        if isinstance(embedder, EmbedderLoad):
            # No SQLite while llama.cpp loads the model: a search whose first SQLite statement ran
            # beside the load died of SIGSEGV in SQLite (twice in ~10 runs of the test suite,
            # whose forked commands reach SQLite at once). The imports overlap the load instead.
            from memgit.embed.providers import chosen_provider

            if chosen_provider(ws.config.embedding.provider) != "none":
                import numpy  # noqa: F401 - the vector leg's, ≈45 ms: about the load's time
            embedder.wait()
        prefetch = None
        if first_query is not None and self.mode != "vector" and not self.request.where:
            from memgit.recall.bm25_query import BM25Prefetch

            prefetch = BM25Prefetch(ws, first_query, self.request.k)  # and a large index's BM25 query starts
            started.append(prefetch)

        try:
            self._recorder = open_recorder(ws, recording)
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
        self, query: str, request: SearchRequest | None = None, *, exclude_paths: Collection[str] = ()
    ) -> SearchResult:
        """One search (this session's request unless another is given), its hits recorded. Hits
        in `exclude_paths` are never returned (nor recorded): more are asked for and those
        dropped, so there are fewer only at worst."""
        request = request or self.request
        self._refuse_without_index()
        worktree = self._look_at_worktree()
        if not exclude_paths:
            return self._recorder.record(self._said(self.searcher.search(query, request, worktree=worktree)))
        from dataclasses import replace

        from memgit.config import MAX_K
        from memgit.errors import MemgitError

        wanted = self.searcher.ws.config.search.k if request.k is None else request.k
        if not 1 <= wanted <= MAX_K:
            raise MemgitError(f"k must be between 1 and {MAX_K}, got {wanted}")
        result = self.searcher.search(query, replace(request, k=min(wanted * 3, MAX_K)), worktree=worktree)
        result.hits = [hit for hit in result.hits if hit.path not in exclude_paths][:wanted]
        return self._recorder.record(self._said(result))

    def _look_at_worktree(self) -> bool:
        """Bring the work tree's uncommitted memory edits into the index before this search, when
        they are not what it holds (a `git status`; nothing more when they are). Text only, as a
        capture does (`Policy.CAPTURE`: no model, no rebuild, no wait for a busy lock): their vectors
        are filled by the search's own bounded fill, so a search never embeds a whole backlog
        because a note is uncommitted. A batch looks once a second at most. True when the search
        itself must include the work tree (a rebuild is due, which only the search's policy makes)."""
        import time

        if not self.worktree or not self.searcher.auto_index:
            return False
        now = time.monotonic()
        if now - self._worktree_seen < 1.0:
            return False
        self._worktree_seen = now
        from memgit.errors import IndexLocked, MemgitError
        from memgit.index.freshen import Policy, freshen
        from memgit.index.layout import read_marker
        from memgit.index.worktree import worktree_needs_indexing

        ws = self.searcher.ws
        try:
            if read_marker(ws)[0] is None:
                return True  # no index yet: the search's first build includes the work tree
            if not worktree_needs_indexing(ws):
                return False
            report = freshen(ws, Policy.CAPTURE, worktree=True, wait=0.0)
        except IndexLocked:
            return False  # another run is updating: the search answers from its last state
        except MemgitError:
            return False  # git status failed: the search answers as without the work tree
        if report.mode != "due":
            self.searcher.refresh()
        return report.mode == "due"

    def _refuse_without_index(self) -> None:
        """No index and a memgit.toml that cannot be read: nothing to answer from, and none is built
        with settings nobody chose; the error says what to do first."""
        broken = self.searcher.ws.config.broken
        if broken:
            from memgit.errors import MemgitError
            from memgit.index.layout import read_marker

            if read_marker(self.searcher.ws)[0] is None:
                raise MemgitError(
                    "there is no index yet, and none is built while memgit.toml cannot be read: fix it "
                    "(`memgit doctor` says where), then run `memgit index`"
                )

    def _said(self, result: SearchResult) -> SearchResult:
        """The result, saying when memgit.toml could not be read (the defaults answered, from the
        index as it was: no update ran with settings nobody chose)."""
        broken = self.searcher.ws.config.broken
        if broken:
            result.notices.insert(
                0, f"{broken}: searched with the default settings, in the index as it is (not brought up to date)"
            )
        return result

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
