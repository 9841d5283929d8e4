"""The MCP tools' logic, synchronous: one warm searcher, an index kept fresh on its own thread.

* **Warm.** One `Searcher` (SQLite connection + embedding model) lives for the whole session,
  so a search costs a query, not a process start and a model load.
* **Fresh.** Before each tool call `ChangeWatcher` checks, cheaply and without asking git,
  whether HEAD or a memory file changed; only then does `freshen(ws, Policy.SERVER, worktree=True)` run,
  which also indexes uncommitted files.
* **Never blocked by a rebuild.** Index updates run on their own thread. A tool call waits for
  one at most `update_wait` seconds (in total, across calls), then answers from the last
  committed index state (SQLite WAL readers see it) and says so in a notice.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import TYPE_CHECKING, Any

from memgit import __version__
from memgit.errors import MemgitError
from memgit.index.freshen import POLICIES, Policy, fill, freshen
from memgit.mcp.options import PRIVATE_FILES, ServerOptions, path_filter
from memgit.mcp.render import get_payload, percentile, search_payload
from memgit.mcp.watcher import ChangeWatcher

if TYPE_CHECKING:
    from memgit.workspace import Workspace


#: Quiet seconds after an index update before the BM25 word cache is filled again: at least
#: this, and at least `PREWARM_QUIET_FACTOR` times the last round's duration, so that an agent
#: appending steadily to a very large index (a round takes ~75 s at a million chunks) spends at
#: most about a tenth of a core on it.
PREWARM_AFTER_UPDATE_S = 30.0
PREWARM_QUIET_FACTOR = 10.0


class MemoryService:
    """The tools' logic, synchronous. Not thread-safe: the server calls it from one thread."""

    def __init__(self, ws: Workspace, options: ServerOptions) -> None:
        from memgit.recall.session import Recording, SearchSession

        self.ws = ws
        self.options = options
        self.started = time.time()
        # Warm: the vectors in memory and per-word BM25 scores kept across calls; the model
        # (one thread: queries are fastest that way) is shared with the index updates. A
        # read-only session records no hits.
        self.session = SearchSession(
            ws, use="server", recording=Recording(read_only=options.read_only), auto_index=False
        )
        self.watcher = ChangeWatcher(ws)
        from memgit.index.layout import index_path

        self._index_file = index_path(ws)  # deleted under the server: built again, not "no index yet"
        self._stop = threading.Event()
        self._scanner: threading.Thread | None = None
        if options.scan_interval > 0:
            self._scanner = threading.Thread(target=self._scan_loop, name="memgit-scan", daemon=True)
            self._scanner.start()
        self._updater = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memgit-index")
        self._pending: Future[Any] | None = None
        self._pending_sig: tuple[Any, ...] | None = None
        self._pending_started = 0.0
        self._indexed_sig: tuple[Any, ...] | None = None
        self._failed: tuple[tuple[Any, ...], float, str] | None = None
        self.last_report: dict[str, Any] | None = None
        self.updates = 0
        self.search_ms: deque[float] = deque(maxlen=2000)
        self._prewarm_round = 0
        self._prewarm_thread: threading.Thread | None = None
        self._prewarm_cancel = threading.Event()
        self.prewarm_report: dict[str, Any] | None = None
        self._prewarm_phase = "off"  # off | waiting (for a quiet index) | running | done
        self._last_prewarm: dict[str, Any] | None = None  # the last round that ran, for its cost
        self._fill = VectorFill(self)
        self.warm_up: dict[str, Any] = {}

    def _scan_loop(self) -> None:
        while not self._stop.wait(self.options.scan_interval):
            with contextlib.suppress(Exception):  # a vanished directory mid-walk: next time
                self.watcher.scan()

    def close(self) -> None:
        self._stop.set()
        self._prewarm_cancel.set()
        self._prewarm_round += 1
        self._updater.shutdown(wait=False, cancel_futures=True)
        self.session.close()
        self._fill.close()

    # -- keeping the index current -------------------------------------------------------
    def _run_update(self) -> dict[str, Any]:
        # memgit.toml unreadable: the index is not updated with settings nobody chose (one notice).
        self.ws.config.require_readable("updating the index")
        # Vectors left pending by hooks are `VectorFill`'s, on a model instance of its own.
        report = freshen(self.ws, Policy.SERVER, worktree=True, embedder=self.session.embedder)
        return report.to_dict()

    def _finish_pending(self) -> list[str]:
        assert self._pending is not None
        future, sig = self._pending, self._pending_sig
        self._pending = self._pending_sig = None
        try:
            report = future.result()
        except MemgitError as exc:
            self._failed = (sig or (), time.monotonic(), str(exc))
            return [f"index update failed: {exc}; answering from the last complete index"]
        except Exception as exc:  # an index problem must never take the server down
            print(f"memgit mcp: index update failed: {exc!r}", file=sys.stderr)
            self._failed = (sig or (), time.monotonic(), f"{type(exc).__name__}: {exc}")
            return [f"index update failed ({type(exc).__name__}); answering from the last complete index"]
        self._failed = None
        self._indexed_sig = sig
        self.last_report = report
        self.updates += 1
        self.session.searcher.refresh()
        if report.get("mode") != "noop":
            self._start_prewarm(delay=self._prewarm_delay())
        self._fill.start(report)
        notices = list(report.get("notices", []))
        if report.get("mode") == "full":
            notices.append(f"index rebuilt: {report.get('reason')}")
        return notices

    def _wait_pending(self) -> list[str]:
        """Wait for a running update, but never more than `update_wait` since it started."""
        assert self._pending is not None
        budget = self.options.update_wait - (time.monotonic() - self._pending_started)
        if budget > 0:
            wait_futures([self._pending], timeout=budget)
        if self._pending.done():
            return self._finish_pending()
        running = time.monotonic() - self._pending_started
        return [
            f"the index is being updated (for {running:.0f} s); these results come from the last "
            "complete index and may miss the newest changes"
        ]

    def sync(self) -> tuple[list[str], bool]:
        """Bring the index up to the work tree if anything changed. Returns (notices, fresh)."""
        notices: list[str] = []
        if self._pending is not None:
            notices += self._wait_pending()
            if self._pending is not None:
                return notices, False
        sig = self.watcher.snapshot()
        if sig == self._indexed_sig and self._index_file.exists():
            return notices, True
        if self._failed and self._failed[0] == sig and time.monotonic() - self._failed[1] < 5.0:
            return [*notices, f"index update failed: {self._failed[2]}; answering from the last complete index"], False
        self._pending = self._updater.submit(self._run_update)
        self._pending_sig = sig
        self._pending_started = time.monotonic()
        notices += self._wait_pending()
        return notices, self._pending is None and self._indexed_sig == sig

    def warm(self) -> None:
        """Open the model and bring the index up to date before the first call needs it, and
        load what the first searches would otherwise load or compute (`Searcher.warm_up`)."""
        with contextlib.suppress(Exception):
            self.sync()
        with contextlib.suppress(Exception):
            self.warm_up = self.session.searcher.warm_up()
        self._start_prewarm()

    def _prewarm_delay(self) -> float:
        last = (self._last_prewarm or {}).get("seconds", 0.0)
        return max(PREWARM_AFTER_UPDATE_S, PREWARM_QUIET_FACTOR * float(last))

    def _start_prewarm(self, delay: float = 0.0) -> None:
        """Score the index's most widespread words in the background (memgit.index.bm25_terms):
        they are what a cold search pays most for. After an index update the scores of every word
        change: the words saved beside the index for an earlier state are carried to the new one
        at once (a fraction of a second; memgit.index.bm25_rebase), and only where they cannot be
        does a new round start, once the index has been quiet for `delay` seconds (an agent
        appending in a burst pays for one round, not one per append; `_prewarm_delay`). A newer
        round stops an older one. The thread runs at a lower CPU priority than searches."""
        if not self.ws.config.search.bm25_prewarm:
            return
        self._prewarm_round += 1
        current = self._prewarm_round
        self._prewarm_cancel.set()  # an older round still waiting ends now
        cancel = self._prewarm_cancel = threading.Event()

        def stale() -> bool:
            return self._stop.is_set() or current != self._prewarm_round

        def run() -> None:
            with contextlib.suppress(OSError, AttributeError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)  # this thread only (Linux)
            report = self._prewarm_step(stale, carry_only=True) if delay > 0 else None
            if not (report and report.get("words")):
                if delay > 0 and (cancel.wait(delay) or stale()):
                    return
                self._prewarm_phase = "running"
                report = self._prewarm_step(stale)
                if report is not None and "seconds" in report:
                    self._last_prewarm = report  # what a full round costs: the next delay follows it
            if not stale():
                self._prewarm_phase = "done"
                if report is not None:
                    self.prewarm_report = report

        # The last round's report stays visible while the next one waits or runs.
        self._prewarm_phase = "waiting" if delay > 0 else "running"
        self._prewarm_thread = threading.Thread(target=run, name="memgit-bm25-prewarm", daemon=True)
        self._prewarm_thread.start()

    def _prewarm_step(self, stale: Callable[[], bool], carry_only: bool = False) -> dict[str, Any] | None:
        try:
            return self.session.searcher.prewarm_terms(stop=stale, carry_only=carry_only)
        except Exception as exc:  # a cache that stays cold must never take the server down
            return {"error": f"{type(exc).__name__}: {exc}"}

    # -- tools ------------------------------------------------------------------------------
    def search(self, query: str, k: int, path: str | None) -> dict[str, Any]:
        from memgit.index.filter_sql import Filter
        from memgit.recall.request import SearchRequest

        started = time.perf_counter()
        if not query.strip():
            raise MemgitError("query is empty: say what to look for")
        glob = path_filter(path, is_dir=lambda rel: (self.ws.root / rel).is_dir())
        if self.group and glob in PRIVATE_FILES:
            raise MemgitError(self._group_refusal(glob))
        notices, _fresh = self.sync()
        checked = time.perf_counter()
        hidden = PRIVATE_FILES if self.group else ()  # a group session never shows private hits
        request = SearchRequest(k=k, where=Filter.of(glob))
        try:
            result = self.session.search(query, request, exclude_paths=hidden)
        except MemgitError as exc:
            if self._pending is None or "no index yet" not in str(exc):
                raise
            # No earlier index to answer from: the first build is worth waiting for (bounded).
            wait_futures([self._pending], timeout=POLICIES[Policy.SERVER].first_build_wait)
            if not self._pending.done():
                raise MemgitError("the index is still being built for the first time; try again in a moment") from None
            notices += self._finish_pending()
            result = self.session.search(query, request, exclude_paths=hidden)
        elapsed = (time.perf_counter() - started) * 1000
        self.search_ms.append(elapsed)
        payload = search_payload(result.to_dict(), notices, elapsed)
        payload["notices"] = list(dict.fromkeys(payload["notices"]))
        payload["timing"] = {
            "freshness_check_ms": round((checked - started) * 1000, 2),
            "search_ms": round((time.perf_counter() - checked) * 1000, 2),
        }
        return payload

    def get(self, path: str, start: int | None, lines: int) -> dict[str, Any]:
        from memgit.recall.get import read_memory

        # No end line: the reader stops after `lines` (or 12,000 characters) and, when the file
        # goes on, says where to continue.
        if self.group:
            rel = self.ws.safe_memory_path(path)
            real = (self.ws.root / rel).resolve().relative_to(self.ws.root.resolve()).as_posix()
            if rel in PRIVATE_FILES or real in PRIVATE_FILES:  # also through a link
                raise MemgitError(self._group_refusal(real))
        # a read of MEMORY.md is a use (forgetting reads it), recorded unless the session is read-only
        read = read_memory(self.ws, path, start or 1, None, max_lines=lines, record=not self.options.read_only)
        return get_payload(read.to_dict(), [])

    def append(self, text: str, long_term: bool, commit: bool) -> dict[str, Any]:
        from memgit.memory.append import append_memory

        if self.options.read_only:
            raise MemgitError(
                "memory is read-only in this session (the server runs with --read-only or "
                "[mcp] read_only = true); nothing was written"
            )
        if self.group and long_term:
            raise MemgitError(self._group_refusal("MEMORY.md") + "; nothing was written")
        result = append_memory(
            self.ws, text, long_term=long_term, commit=commit, max_chars=self.options.max_append_chars
        )
        notices, fresh = self.sync()
        payload = result.to_dict()
        payload["notices"] = [*payload["notices"], *notices]
        payload["indexed"] = fresh
        payload["citation"] = f"{result.path}:{result.start_line}-{result.end_line}"
        return payload

    @property
    def group(self) -> bool:
        return self.options.scope == "group"

    @staticmethod
    def _group_refusal(path: str) -> str:
        return (
            f"{path} is private memory and this is a group session (`memgit mcp --scope group` or "
            '[mcp] scope = "group"): search the daily logs and notes instead'
        )

    def status(self) -> dict[str, Any]:
        from memgit.memory.status import workspace_status

        notices, fresh = self.sync()
        index = workspace_status(self.ws)  # what `memgit status --json` prints
        embedder = self.session.embedder
        recent = list(self.search_ms)
        return {
            "workspace": str(self.ws.root),
            "read_only": self.options.read_only,
            "scope": self.options.scope,
            "version": __version__,
            "embedding": embedder.model_id if embedder else None,
            "embedding_notice": self.session.embedder_notice,
            "index": {
                "fresh": fresh,
                "head_commit": index.get("head_commit"),
                "indexed_commit": index.get("indexed_commit"),
                "up_to_date_with_head": index.get("indexed_tree") == index.get("head_tree"),
                "uncommitted_files_indexed": index.get("worktree_overlay", []),
                "counts": index.get("counts", {}),
                "skipped": index.get("skipped", []),
                "needs_full_rebuild": index.get("needs_full_rebuild"),
                "pending": index.get("pending", []),
                "pending_vectors": index.get("pending_vectors", 0),
            },
            "conflicts": index["conflicts"],
            "recall_pending": index["recall_pending"],
            "config_problems": index["config_problems"],
            "server": {
                "uptime_s": round(time.time() - self.started, 1),
                "index_updates": self.updates,
                "updating": self._pending is not None,
                "last_update": self.last_report,
                "searches": len(recent),
                "search_ms_p50": percentile(recent, 50),
                "search_ms_p95": percentile(recent, 95),
                "search_ms_mean": round(statistics.fmean(recent), 2) if recent else None,
                "bm25_prewarm": {
                    **(self.prewarm_report or {}),
                    "phase": self._prewarm_phase,
                    "running": self._prewarm_phase == "running",
                },
                "vector_fill": self._fill.status(),
            },
            "notices": notices,
        }


class VectorFill:
    """Embeds the vectors hooks left pending, in the background, a bounded step at a time.

    A hook running without the model (the pre-commit framework's own environment) indexes text
    and leaves the new chunks' vectors pending. The server, which has the model, fills them on
    its index thread (so steps never interleave with its index updates), `Policy.SERVER`'s fill
    pass (256 chunks) a step, embedded outside the index lock and published in a short transaction
    (`memgit.index.fill`), at a lower CPU priority. It uses a model
    instance of its own: the searches' instance holds a lock while it embeds, and a query must
    not wait behind a batch of chunks. The BM25 word cache survives these steps (they change no
    text). Searches meanwhile say how many chunks still lack a vector.
    """

    def __init__(self, service: MemoryService) -> None:
        self._service = service
        self._lock = threading.Lock()
        self._future: Future[Any] | None = None
        self._embedder: Any = None
        self.filled = 0
        self.steps = 0
        self.pending: int | None = None
        self.error: str | None = None

    def start(self, report: dict[str, Any] | None) -> None:
        """Begin (or keep going) when `report`, the last index update, left vectors pending."""
        service = self._service
        embedder = service.session.embedder
        if embedder is None or service._stop.is_set() or not report:
            return
        self.pending = int(report.get("pending_vectors") or 0)
        if not self.pending or report.get("model_id") != embedder.model_id:
            return
        with self._lock:
            if self._future is not None and not self._future.done():
                return
            try:
                self._future = service._updater.submit(self._step)
            except RuntimeError:  # the server is closing
                return
        self._future.add_done_callback(self._after)

    def _step(self) -> dict[str, Any]:
        from memgit.index.open import open_embedder

        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        try:
            if self._embedder is None:
                self._embedder, _ = open_embedder(self._service.ws, threads=1)
            if self._embedder is None:
                return {}
            from memgit.index.fill import FillBusy

            try:
                done = fill(self._service.ws, Policy.SERVER, self._embedder)
            except FillBusy:  # a fill after a hook runs: it publishes as it goes, the server need not
                return {}
            return {"vectors_filled": done.filled, "pending_vectors": done.pending, "model_id": done.model_id}
        finally:
            with contextlib.suppress(OSError, AttributeError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 0)

    def _after(self, future: Future[Any]) -> None:
        try:
            report = future.result()
        except Exception as exc:  # a fill that fails must never take the server down
            self.error = f"{type(exc).__name__}: {exc}"
            self._release()
            return
        self.steps += 1
        self.filled += int(report.get("vectors_filled") or 0)
        progressed = bool(report.get("vectors_filled"))
        if report.get("pending_vectors") and progressed and not self._service._stop.is_set():
            self.start(report)
        else:
            self.pending = int(report.get("pending_vectors") or 0)
            self._release()

    def _release(self) -> None:
        embedder, self._embedder = self._embedder, None
        if embedder is not None and hasattr(embedder, "close"):
            embedder.close()

    def status(self) -> dict[str, Any]:
        running = self._future is not None and not self._future.done()
        return {
            "running": running,
            "filled": self.filled,
            "steps": self.steps,
            "pending": self.pending,
            **({"error": self.error} if self.error else {}),
        }

    def close(self) -> None:
        with self._lock:
            future = self._future
        if future is None or future.done():
            self._release()
