"""The index lock: two updates never interleave; readers never need it (SQLite WAL).

An OS lock on `.git/memgit/lock` (`core.locks`: `flock` on POSIX, `filelock` elsewhere): it dies
with its process, so a killed update never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from memgit.core import locks
from memgit.errors import IndexLocked
from memgit.index.store import IndexUnavailable
from memgit.workspace import Workspace

POLL_SECONDS = 0.02


#: A caller waiting for the lock longer than this is told why (`on_wait`), once.
SAY_AFTER_SECONDS = 2.0


@contextlib.contextmanager
def index_lock(
    ws: Workspace, timeout: float | None = 30.0, on_wait: Callable[[], None] | None = None
) -> Iterator[None]:
    """Hold the index lock; wait up to `timeout` seconds (None: forever) for another run.
    `on_wait()` is called once if the wait passes 2 s (a search waiting for a first index's text)."""
    path = ws.data_dir / "lock"
    try:
        ws.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise IndexUnavailable(f"cannot create {ws.data_dir} ({exc.strerror}); check its permissions") from None
    with contextlib.ExitStack() as held:
        try:
            _take(held, path, timeout, on_wait)
        except locks.LockBusy:
            raise IndexLocked(
                f"another memgit run is updating the index ({path}); try again when it finishes"
            ) from None
        except OSError as exc:
            raise IndexUnavailable(
                f"cannot take the index lock {path} ({exc.strerror or exc}); check the permissions of {ws.data_dir}"
            ) from None
        yield


def index_busy(ws: Workspace) -> bool:
    """Does another run hold the index lock now? (Taken and let go at once when it is free.)"""
    path = ws.data_dir / "lock"
    if not path.exists():
        return False
    try:
        with locks.exclusive(path, 0, POLL_SECONDS):
            return False
    except locks.LockBusy:
        return True
    except OSError:
        return False


def _take(held: contextlib.ExitStack, path: Path, timeout: float | None, on_wait: Callable[[], None] | None) -> None:
    if on_wait is None or (timeout is not None and timeout <= SAY_AFTER_SECONDS):
        held.enter_context(locks.exclusive(path, timeout, POLL_SECONDS))
        return
    try:
        held.enter_context(locks.exclusive(path, SAY_AFTER_SECONDS, POLL_SECONDS))
        return
    except locks.LockBusy:
        on_wait()
    rest = None if timeout is None else timeout - SAY_AFTER_SECONDS
    held.enter_context(locks.exclusive(path, rest, POLL_SECONDS))
