"""`commits.commit_paths` and git's index lock: a lock another git holds right now is waited
out (two writers committing at once); one nobody has touched for a minute is not, since waiting
cannot release a lock a crashed git left or an editor holds."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from memgit.git import commits
from memgit.git.repo import Repo
from tests.helpers import write


def counted_commits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The errors of every `git commit` attempt (the real one runs)."""
    seen: list[str] = []
    real = Repo.commit_only

    def attempt(*args: object, **kwargs: object) -> tuple[str | None, str]:
        commit, error = real(*args, **kwargs)  # type: ignore[arg-type]
        seen.append(error)
        return commit, error

    monkeypatch.setattr(Repo, "commit_only", attempt)
    return seen


def note_and_lock(workspace: Path, words: str) -> Path:
    """A daily log to commit, and git's index lock held as another git would hold it."""
    write(workspace / "memory" / "2026-01-05.md", f"# 2026-01-05\n\n- {words}\n")
    lock = workspace / ".git" / "index.lock"
    lock.touch()
    return lock


def test_a_lock_released_while_retrying_lets_the_commit_through(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts = counted_commits(monkeypatch)
    lock = note_and_lock(workspace, "waited")
    released = threading.Timer(0.3, lock.unlink)
    released.start()
    try:
        commit = commits.commit_paths(Repo(workspace), ["memory/2026-01-05.md"], "waited for the lock")
    finally:
        released.join()
    assert len(commit) == 40
    assert len(attempts) >= 2 and "index.lock" in attempts[0]


def test_a_lock_untouched_for_minutes_fails_at_the_first_attempt(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts = counted_commits(monkeypatch)
    lock = note_and_lock(workspace, "not waited")
    old = time.time() - 2 * commits.OLD_LOCK_SECONDS
    os.utime(lock, (old, old))
    with pytest.raises(commits.CommitFailed) as failed:
        commits.commit_paths(Repo(workspace), ["memory/2026-01-05.md"], "a stale lock")
    assert len(attempts) == 1
    assert "delete that file" in failed.value.advice("then commit again")
    lock.unlink()
