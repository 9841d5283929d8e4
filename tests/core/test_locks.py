"""`core.locks`: one lock module for the index, appends and the spool; real `flock`s, no sleeps."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from memgit.core import locks
from memgit.core.atomic import atomic_write

posix = pytest.mark.skipif(sys.platform == "win32", reason="flock")


def test_a_held_lock_makes_another_holder_give_up_then_frees(tmp_path: Path) -> None:
    path = tmp_path / "lock"
    held = locks.exclusive(path, timeout=5, poll=0.01)
    with held, pytest.raises(locks.LockBusy), locks.exclusive(path, timeout=0, poll=0.01):
        pass
    with locks.exclusive(path, timeout=0, poll=0.01):
        assert path.exists()  # the lock file stays; only the OS lock is gone


@posix
def test_it_is_the_same_lock_filelock_takes(tmp_path: Path) -> None:
    """Processes of an older memgit (filelock for appends) and this one exclude each other."""
    import filelock

    path = tmp_path / "append.lock"
    other = filelock.FileLock(str(path), is_singleton=False)
    with other.acquire(timeout=5), pytest.raises(locks.LockBusy), locks.exclusive(path, timeout=0, poll=0.01):
        pass
    with locks.exclusive(path, timeout=None, poll=0.01), pytest.raises(filelock.Timeout):
        other.acquire(timeout=0)


def test_a_folder_that_cannot_hold_the_lock_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError), locks.exclusive(tmp_path / "missing" / "lock", timeout=0, poll=0.01):
        pass


@posix
def test_locked_file_yields_none_for_a_missing_file_unless_created(tmp_path: Path) -> None:
    path = tmp_path / "spool" / "day.jsonl"
    with locks.locked_file(path, create=False) as fd:
        assert fd is None
    assert not path.exists()
    with locks.locked_file(path, create=True) as fd:
        assert fd is not None
        os.write(fd, b"a\n")
    assert path.read_bytes() == b"a\n"


@posix
def test_locked_file_follows_a_file_replaced_while_a_writer_waits(tmp_path: Path) -> None:
    """A writer waiting on the old file's lock ends up writing into the file the path names now."""
    path = tmp_path / "day.jsonl"
    path.write_bytes(b"old\n")
    done = threading.Event()

    def writer() -> None:
        with locks.locked_file(path, create=True) as fd:
            assert fd is not None
            os.write(fd, b"late\n")
        done.set()

    with locks.locked_file(path, create=False) as fd:
        assert fd is not None
        thread = threading.Thread(target=writer)
        thread.start()
        atomic_write(path, b"new\n")  # what publishing does: a new file by rename, under the old one's lock
    thread.join()
    assert done.is_set() and path.read_bytes() == b"new\nlate\n"


@posix
def test_locked_file_refuses_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"")
    link = tmp_path / "day.jsonl"
    link.symlink_to(target)
    with pytest.raises(OSError), locks.locked_file(link, create=True):
        pass
