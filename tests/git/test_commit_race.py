"""memgit's commits of memory files stay clean while another process appends to the same file."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from memgit.git.repo import Repo
from tests.helpers import commit_all, git, memgit, write


def test_commit_only_leaves_the_index_equal_to_head_while_another_process_appends(workspace: Path) -> None:
    """`git commit --only` reads the file twice; an append in between must not leave the index
    behind HEAD (found by the soak test's churn, which committed the same way)."""
    log = workspace / "memory" / "race.md"
    write(log, "- start\n")
    commit_all(workspace, "start")
    stop = threading.Event()
    written = [0]

    def append() -> None:
        i = 0
        while not stop.is_set():
            with log.open("a", encoding="utf-8") as handle:
                handle.write(f"- line {i}\n")
            i += 1
            written[0] = i

    writer = threading.Thread(target=append, daemon=True)
    writer.start()
    behind = 0
    try:
        for n in range(40):
            # Each round commits something new: on a loaded machine the writer may not have run
            # since the last commit ("nothing to commit" is not the race under test).
            seen = written[0]
            deadline = time.monotonic() + 10
            while written[0] == seen and time.monotonic() < deadline:
                time.sleep(0.001)
            commit, problem = Repo(workspace).commit_only(["memory/race.md"], f"round {n}")
            assert commit, problem
            staged = git(workspace, "diff", "--cached", "--name-only", "--", "memory/race.md").strip()
            behind += bool(staged)
    finally:
        stop.set()
        writer.join()
    assert behind == 0, f"{behind} of 40 commits left the index behind HEAD"


def test_memgit_log_commit_leaves_nothing_staged_while_another_process_appends(workspace: Path) -> None:
    """The same through the CLI: `memgit log --commit` while a writer keeps appending to that log."""
    first = memgit(workspace, "log", "--commit", "- first note")
    assert first.returncode == 0, first.stderr
    today = git(workspace, "log", "-1", "--name-only", "--format=").strip()
    log = workspace / today
    stop = threading.Event()

    def append() -> None:
        while not stop.is_set():
            with log.open("a", encoding="utf-8") as handle:
                handle.write("- raw line\n")

    writer = threading.Thread(target=append, daemon=True)
    writer.start()
    try:
        for n in range(4):
            proc = memgit(workspace, "log", "--commit", f"- note {n}")
            assert proc.returncode == 0, proc.stderr
            assert git(workspace, "diff", "--cached", "--name-only", "--", today).strip() == ""
    finally:
        stop.set()
        writer.join()
    assert "- note 3" in git(workspace, "show", f"HEAD:{today}")
