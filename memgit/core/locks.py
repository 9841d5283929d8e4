"""File locks, one module for every writer: the index update, appends to memory, the recall spool.

An OS lock dies with its process, so a killed writer never leaves a stale lock behind. On POSIX
it is `flock`, taken here directly: the same lock `filelock` takes there, so processes using
either exclude each other, and `filelock`'s import (logging, hashlib, secrets: 13-27 ms) stays
off the hooks' hot path. Elsewhere (Windows) `filelock` (msvcrt). Each caller turns `LockBusy`
and `OSError` into its own message (who holds the lock, what to do).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path


class LockBusy(Exception):
    """Another process held the lock for the whole wait."""


@contextlib.contextmanager
def exclusive(path: Path, timeout: float | None, poll: float) -> Iterator[None]:
    """Hold an exclusive lock on the lock file `path` (created if missing, never removed), waiting
    up to `timeout` seconds (None: as long as it takes) and looking again every `poll` seconds.
    `LockBusy` when the wait ran out; `OSError` when the file cannot be created or locked."""
    try:
        import fcntl
    except ImportError:  # Windows
        with _portable(path, timeout, poll):
            yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        deadline = None if timeout is None else time.monotonic() + timeout
        if deadline is None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # no deadline: the kernel wakes this writer when it is free
        while deadline is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if deadline is not None and time.monotonic() >= deadline:
                    raise LockBusy(str(path)) from None
                time.sleep(poll)
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextlib.contextmanager
def _portable(path: Path, timeout: float | None, poll: float) -> Iterator[None]:
    import filelock

    lock = filelock.FileLock(str(path), timeout=-1 if timeout is None else timeout, is_singleton=False)
    try:
        lock.acquire(poll_interval=poll)
    except filelock.Timeout:
        raise LockBusy(str(path)) from None
    try:
        yield
    finally:
        lock.release()


@contextlib.contextmanager
def locked_file(path: Path, *, create: bool) -> Iterator[int | None]:
    """A descriptor of `path` itself (read-write, appending, never through a symlink) under an
    exclusive `flock`, waiting as long as it takes; reopened when the file was replaced while this
    waited, so the lock always covers the file the path names. None when `path` does not exist
    and `create` is false. POSIX only (the recall spool's files); `OSError` when it cannot open."""
    import fcntl

    flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC | os.O_NOFOLLOW | (os.O_CREAT if create else 0)
    while True:
        try:
            fd = os.open(path, flags, 0o644)
        except FileNotFoundError:
            if not create:
                yield None
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, flags, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                same = os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                yield fd
                return
        finally:
            with contextlib.suppress(OSError):
                os.close(fd)
