"""Opening what an index process works with: the index database (rebuilt only when it is corrupt
or from an older memgit) and the configured embedding model (now, lazily, or on a thread).

Updates, `--verify`, searches and the MCP server all open them the same way, so they live here
rather than in any one of those.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

from memgit.embed import Embedder
from memgit.index.layout import cache_path, index_path
from memgit.index.settings import LOAD
from memgit.index.store import CorruptIndex, IndexUnavailable, RetiredSchema, Store
from memgit.workspace import Workspace


def open_embedder(ws: Workspace, threads: int | None = None) -> tuple[Embedder | None, str | None]:
    """The configured embedder; `threads` overrides the config (queries are fastest on one)."""
    from memgit.embed.providers import open_embedder as open_provider

    cfg = ws.config.embedding
    return open_provider(cfg.provider, cfg.model or None, n_threads=threads or cfg.threads)


class EmbedderLoad:
    """The configured embedder, opening on a thread while the caller gets on with its start-up.

    Loading the model is ≈45 ms of llama.cpp's C code, which runs without Python's lock; a
    one-shot search meanwhile imports its modules and numpy and opens the index on the other
    core. The thread does little Python before it reaches C (no numpy, only llama-cpp-python's
    ctypes layer), or it would only contend for the lock. `result` waits for it.
    """

    def __init__(self, ws: Workspace, threads: int | None = None) -> None:
        self._outcome: tuple[Embedder | None, str | None] = (None, None)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(ws, threads), name="memgit-model", daemon=True)
        self._thread.start()

    def _run(self, ws: Workspace, threads: int | None) -> None:
        try:
            self._outcome = open_embedder(ws, threads=threads)
        except BaseException as exc:  # handed to the caller's thread by `result`
            self._error = exc

    def wait(self) -> None:
        """Until the load is over, whatever its outcome (`result` says it)."""
        self._thread.join()

    def result(self) -> tuple[Embedder | None, str | None]:
        """`(embedder, None)` or `(None, notice)`, as `open_embedder` returns them."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._outcome

    def close(self) -> None:
        """Wait for the load and free what it made, for a caller that will not use it."""
        self._thread.join()
        embedder = self._outcome[0]
        if embedder is not None and hasattr(embedder, "close"):
            embedder.close()


def _remove_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + suffix).unlink()


def open_store(ws: Workspace, notices: list[str] | None = None) -> Store:
    """Open (creating) the index. Only corruption (or an index from an older memgit) removes
    the file, with a notice; any other SQLite failure raises `IndexUnavailable` and keeps it."""
    for folder in (ws.data_dir, cache_path(ws).parent):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise IndexUnavailable(f"cannot create {folder} ({exc.strerror}); check its permissions") from None
    try:
        return Store(index_path(ws), cache_path(ws), busy_timeout=ws.config.index.busy_timeout)
    except RetiredSchema as exc:
        _remove_database(index_path(ws))
        if notices is not None:
            notices.append(f"{exc}; rebuilding it")
    except CorruptIndex as exc:
        _remove_database(index_path(ws))
        if notices is not None:
            notices.append(f"{exc}; rebuilding it from scratch")
    try:
        return Store(index_path(ws), cache_path(ws), busy_timeout=ws.config.index.busy_timeout)
    except CorruptIndex:
        _remove_database(cache_path(ws))
        if notices is not None:
            notices.append("the embedding cache was unreadable too; it was reset")
        return Store(index_path(ws), cache_path(ws), busy_timeout=ws.config.index.busy_timeout)


class LazyEmbedder:
    """Loads the model only when an update has text to embed (a deletion or no-op never does)."""

    def __init__(self, ws: Workspace, given: Any) -> None:
        self.ws = ws
        self._value: Embedder | None = None if given is LOAD else given
        self._loaded = given is not LOAD
        self.notice: str | None = None

    def get(self) -> Embedder | None:
        if not self._loaded:
            self._value, self.notice = open_embedder(self.ws)
            self._loaded = True
        return self._value
