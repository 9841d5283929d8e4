"""A capture missed at a session's end is made at the next session start, and said there (issue 48):
a SessionEnd refused during a merge, and a session whose host never sent SessionEnd (Codex's TUI
`/quit`). Through the hook commands `memgit hooks install --agent claude-code` wrote, run as the
host runs them."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from memgit.githooks.agent_sessions import QUIET_SECONDS
from tests.githooks.test_agent_hooks import as_host, one_warning
from tests.helpers import commit_all, git, memgit, write
from tests.memory.test_capture import SESSION, SESSION_FILE, fixture_lines

OTHER = "0b9c3a11-7e2d-4f60-9d4e-5a1c2b3d4e5f"


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    """A memory workspace with memgit's git hooks and its Claude Code hooks (as test_agent_hooks')."""
    root = tmp_path / "agent-memory"
    assert memgit(tmp_path, "init", "agent-memory").returncode == 0
    write(root / "MEMORY.md", "# Long-term Memory\n\n- Priya owns release checklists.\n")
    write(root / "memory" / "2026-12-01.md", "# 2026-12-01\n\n## 08:00\n- Planned the Heron cutover.\n")
    commit_all(root, "memory")
    assert memgit(root, "hooks", "install").returncode == 0
    assert memgit(root, "hooks", "install", "--agent", "claude-code").returncode == 0
    return root


def _start(memory: Path, tmp_path: Path) -> dict[str, object]:
    """A new session starts: its SessionStart output, parsed (JSON when there is something to say)."""
    proc = as_host(
        memory,
        "SessionStart",
        {"session_id": OTHER, "transcript_path": str(tmp_path / "claude" / f"{OTHER}.jsonl"), "source": "startup"},
    )
    assert proc.returncode == 0, proc.stderr
    if proc.stdout.startswith("{"):
        return json.loads(proc.stdout)
    return {"context": proc.stdout}


def _conflict(memory: Path) -> None:
    git(memory, "checkout", "-q", "-b", "other")
    write(memory / "MEMORY.md", "# Long-term Memory\n\n- Other machine.\n")
    git(memory, "commit", "-qam", "other")
    git(memory, "checkout", "-q", "main")
    write(memory / "MEMORY.md", "# Long-term Memory\n\n- This machine.\n")
    git(memory, "commit", "-qam", "this")
    git(memory, "merge", "other", check=False)


def test_a_session_end_refused_during_a_merge_is_captured_at_the_next_start(memory: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "claude" / f"{SESSION}.jsonl", fixture_lines())
    _conflict(memory)
    one_warning(as_host(memory, "SessionEnd", {"transcript_path": str(transcript)}), "cannot capture during a merge")
    assert not (memory / SESSION_FILE).exists()

    during = _start(memory, tmp_path)  # still merging: said again, nothing lost
    assert f"session {SESSION}'s last turns are not captured yet" in str(during["systemMessage"])
    git(memory, "merge", "--abort")

    shown = _start(memory, tmp_path)
    message = str(shown["systemMessage"])
    assert f"captured 8 line(s) of session {SESSION} that its end left out" in message
    assert "SessionEnd: cannot capture during a merge" in message
    assert "Planned the Heron cutover." in str(shown["hookSpecificOutput"])  # the context still loads
    assert len((memory / SESSION_FILE).read_text().splitlines()) == 8
    assert "(SessionStart, catching up)" in git(memory, "log", "-1", "--format=%s")
    # Said once: the next start has nothing more to catch up.
    assert "systemMessage" not in _start(memory, tmp_path)


def test_a_session_its_host_never_ended_is_captured_once_it_is_quiet(memory: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "claude" / f"{SESSION}.jsonl", fixture_lines(4))
    started = as_host(memory, "SessionStart", {"transcript_path": str(transcript), "source": "startup"})
    assert started.returncode == 0
    write(transcript, fixture_lines())  # the session went on; then /quit, and no SessionEnd came

    assert "systemMessage" not in _start(memory, tmp_path)  # still being written to: left alone
    assert not (memory / SESSION_FILE).exists()

    quiet = time.time() - QUIET_SECONDS - 60
    os.utime(transcript, (quiet, quiet))
    message = str(_start(memory, tmp_path)["systemMessage"])
    assert f"captured 8 line(s) of session {SESSION} that its end left out (its host never said it ended)" in message
    assert len((memory / SESSION_FILE).read_text().splitlines()) == 8


_HOLD = """
import sys, time
from pathlib import Path
from memgit.core import locks
with locks.exclusive(Path(sys.argv[1]), 5.0, 0.01):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_a_capture_never_waits_for_the_index_lock(memory: Path, tmp_path: Path) -> None:
    """The MCP server's background work holds the index lock for seconds at a time; a capture (its
    commit's hook included) does not wait for it: it commits, says nothing, and leaves the index to
    the server (before: ~8 s and a warning that another run was updating the index)."""
    import subprocess
    import sys

    transcript = write(tmp_path / "claude" / f"{SESSION}.jsonl", fixture_lines())
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(memory / ".git" / "memgit" / "lock")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        head = git(memory, "rev-parse", "HEAD").strip()
        proc = as_host(memory, "PreCompact", {"transcript_path": str(transcript), "trigger": "auto"})
        assert proc.returncode == 0 and proc.stderr == "" and proc.stdout == "", proc.stderr
        assert git(memory, "rev-list", "--count", f"{head}..HEAD").strip() == "1"
        assert len((memory / SESSION_FILE).read_text().splitlines()) == 8
    finally:
        holder.communicate("", timeout=30)
