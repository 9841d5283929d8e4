"""The index lock: two updates never interleave; readers never need it (SQLite WAL).

`filelock` holds an OS lock on `.git/memgit/lock` (flock on POSIX, msvcrt on Windows); the
lock dies with its process, so a killed update never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from memgit.errors import IndexLocked
from memgit.index.store import IndexUnavailable
from memgit.workspace import Workspace


@contextlib.contextmanager
def index_lock(ws: Workspace, timeout: float | None = 30.0) -> Iterator[None]:
    """Hold the index lock; wait up to `timeout` seconds (None: forever) for another run."""
    import filelock

    path = ws.data_dir / "lock"
    try:
        ws.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise IndexUnavailable(f"cannot create {ws.data_dir} ({exc.strerror}); check its permissions") from None
    lock = filelock.FileLock(str(path), timeout=-1 if timeout is None else timeout, is_singleton=False)
    try:
        lock.acquire(poll_interval=0.02)
    except filelock.Timeout:
        raise IndexLocked(
            f"another memgit run is updating the index ({path}); try again when it finishes"
        ) from None
    except OSError as exc:
        raise IndexUnavailable(
            f"cannot take the index lock {path} ({exc.strerror or exc}); check the permissions of {ws.data_dir}"
        ) from None
    try:
        yield
    finally:
        lock.release()
