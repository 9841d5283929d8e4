"""The index lock: two updates never interleave; readers never need it (SQLite WAL).

An OS lock on `.git/memgit/lock` (`core.locks`: `flock` on POSIX, `filelock` elsewhere): it dies
with its process, so a killed update never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from memgit.core import locks
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
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(locks.exclusive(path, timeout, POLL_SECONDS))
        except locks.LockBusy:
            raise IndexLocked(
                f"another memgit run is updating the index ({path}); try again when it finishes"
            ) from None
        except OSError as exc:
            raise IndexUnavailable(
                f"cannot take the index lock {path} ({exc.strerror or exc}); check the permissions of {ws.data_dir}"
            ) from None
        yield
