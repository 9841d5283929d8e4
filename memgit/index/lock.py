"""The index lock: two updates never interleave; readers never need it (SQLite WAL).

An OS lock on `.git/memgit/lock`: `flock` on POSIX, taken here directly, and `filelock`
(msvcrt) elsewhere. The lock dies with its process, so a killed update never leaves a stale lock
behind. On POSIX it is the same `flock` that `filelock` takes, so both kinds of process exclude
each other; `filelock` itself is not imported there because its import (logging, hashlib,
secrets) cost 13-27 ms of every one-file update, a third of the update's own work.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator

from memgit.errors import IndexLocked
from memgit.index.store import IndexUnavailable
from memgit.workspace import Workspace

POLL_SECONDS = 0.02


@contextlib.contextmanager
def index_lock(ws: Workspace, timeout: float | None = 30.0) -> Iterator[None]:
    """Hold the index lock; wait up to `timeout` seconds (None: forever) for another run."""
    path = ws.data_dir / "lock"
    try:
        ws.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise IndexUnavailable(f"cannot create {ws.data_dir} ({exc.strerror}); check its permissions") from None
    try:
        import fcntl
    except ImportError:  # Windows
        with _portable_lock(ws, timeout):
            yield
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise _unavailable(ws, exc) from None
    try:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if deadline is not None and time.monotonic() >= deadline:
                    raise IndexLocked(
                        f"another memgit run is updating the index ({path}); try again when it finishes"
                    ) from None
                time.sleep(POLL_SECONDS)
            except OSError as exc:
                raise _unavailable(ws, exc) from None
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _unavailable(ws: Workspace, exc: OSError) -> IndexUnavailable:
    return IndexUnavailable(
        f"cannot take the index lock {ws.data_dir / 'lock'} ({exc.strerror or exc}); "
        f"check the permissions of {ws.data_dir}"
    )


@contextlib.contextmanager
def _portable_lock(ws: Workspace, timeout: float | None) -> Iterator[None]:
    import filelock

    path = ws.data_dir / "lock"
    lock = filelock.FileLock(str(path), timeout=-1 if timeout is None else timeout, is_singleton=False)
    try:
        lock.acquire(poll_interval=POLL_SECONDS)
    except filelock.Timeout:
        raise IndexLocked(f"another memgit run is updating the index ({path}); try again when it finishes") from None
    except OSError as exc:
        raise _unavailable(ws, exc) from None
    try:
        yield
    finally:
        lock.release()
