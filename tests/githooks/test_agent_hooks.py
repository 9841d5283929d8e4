"""Claude Code, end to end: `memgit hooks install --agent claude-code`, then the commands it wrote
run the way Claude Code runs them (through a shell, the hook JSON on stdin) on a real workspace.

The transcript fixture is written from Claude Code's documented JSONL (tests/fixtures): tool calls,
a compaction, a sub-agent, and an AWS-shaped key in a user turn. The hook input carries the
documented fields (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, and `source` /
`trigger` / `reason`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from memgit.githooks.claude_settings import TIMEOUTS, merge_hooks, remove_hooks
from tests.helpers import assert_clean_error, commit_all, git, memgit, wait_until, write
from tests.memory.test_append_refusals import _NO_OVERRIDE, one_error, snapshot
from tests.memory.test_capture import BEFORE_COMPACTION, KEY, SESSION, SESSION_FILE, fixture_lines
from tests.recall.test_search import real_model  # noqa: F401 (a fixture)

NOW = "2026-12-01T10:30:00+00:00"
LOCAL = Path(".claude") / "settings.local.json"  # where `--agent claude-code` writes by default


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    """A memory workspace with facts in MEMORY.md, memgit's git hooks and its Claude Code hooks."""
    root = tmp_path / "agent-memory"
    assert memgit(tmp_path, "init", "agent-memory").returncode == 0
    write(root / "MEMORY.md", "# Long-term Memory\n\n- Priya owns release checklists.\n- Staging runs Postgres 14.\n")
    write(root / "memory" / "2026-12-01.md", "# 2026-12-01\n\n## 08:00\n- Planned the Heron cutover.\n")
    commit_all(root, "memory")
    assert memgit(root, "hooks", "install").returncode == 0
    installed = memgit(root, "hooks", "install", "--agent", "claude-code")
    assert installed.returncode == 0, installed.stderr
    return root


def settings_of(project: Path) -> dict[str, Any]:
    return json.loads((project / LOCAL).read_text())


def command_for(project: Path, event: str) -> str:
    (group,) = settings_of(project)["hooks"][event]
    (hook,) = group["hooks"]
    assert hook["type"] == "command" and hook["timeout"] == TIMEOUTS[event]
    return hook["command"]


def as_host(
    project: Path, event: str, fields: dict[str, Any] | str, *, cwd: Path | None = None, prefix: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the installed command for `event` as Claude Code does: `sh -c COMMAND`, JSON on stdin."""
    payload = (
        fields
        if isinstance(fields, str)
        else json.dumps(
            {
                "session_id": SESSION,
                "cwd": str(cwd or project),
                "permission_mode": "default",
                "hook_event_name": event,
                **fields,
            }
        )
    )
    env = {**os.environ, "MEMGIT_NOW": NOW}
    return subprocess.run(
        [*(prefix or []), "sh", "-c", command_for(project, event)],
        input=payload,
        cwd=cwd or project,
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUTS[event],
        check=False,
    )


def quiet_success(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def one_warning(proc: subprocess.CompletedProcess[str], needle: str) -> str:
    """What every bad input must give: exit 0, one warning line, no traceback."""
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("memgit: warning: claude-code hook: "), proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert needle.lower() in lines[0].lower(), lines[0]
    # The user sees it too: Claude Code shows the JSON output's systemMessage (stderr it does not).
    shown = json.loads(proc.stdout)
    assert needle.lower() in shown["systemMessage"].lower() and shown["systemMessage"].startswith("memgit: ")
    return lines[0]


@pytest.mark.model
@pytest.mark.usefixtures("real_model")
def test_precompact_then_session_end_then_session_start(memory: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "claude" / f"{SESSION}.jsonl", fixture_lines(BEFORE_COMPACTION))
    head = git(memory, "rev-parse", "HEAD").strip()

    started = time.monotonic()
    quiet_success(
        as_host(
            memory, "PreCompact", {"transcript_path": str(transcript), "trigger": "auto", "custom_instructions": ""}
        )
    )
    precompact_s = time.monotonic() - started
    write(transcript, fixture_lines())  # compacted, then the session went on
    started = time.monotonic()
    quiet_success(as_host(memory, "SessionEnd", {"transcript_path": str(transcript), "reason": "prompt_input_exit"}))
    session_end_s = time.monotonic() - started
    # Well inside the host's limits (and SessionEnd's 60 s ceiling), with the real model indexing.
    assert precompact_s < 20 and session_end_s < 20, (precompact_s, session_end_s)

    commits = git(memory, "rev-list", "--reverse", f"{head}..HEAD").split()
    assert len(commits) == 2  # one commit each
    for commit in commits:
        assert git(memory, "show", "--name-only", "--format=", commit).split() == [SESSION_FILE]
    stored = [json.loads(line) for line in (memory / SESSION_FILE).read_text().splitlines()]
    assert len(stored) == 8 and len({r["turn"] for r in stored}) == 8  # no duplicate turn
    assert [r["role"] for r in stored].count("tool") == 1
    assert KEY not in git(memory, "log", "-p", "--all")
    assert stored[0]["content"].startswith("We move the Heron staging database to Postgres 16")
    assert "user's key is [redacted: S102], keep it handy." in stored[0]["content"]
    assert git(memory, "status", "--porcelain") == ""  # the personal settings file is git-ignored

    found = json.loads(memgit(memory, "search", "what did we decide about the read replica", "--json").stdout)
    assert found["mode"] == "hybrid" and found["hits"][0]["path"] == SESSION_FILE
    assert "quillfeather" in found["hits"][0]["text"] and found["hits"][0]["commit"] == commits[1]

    pending = json.loads(memgit(memory, "status", "--json").stdout)["recall_pending"]
    start = as_host(
        memory,
        "SessionStart",
        {"transcript_path": str(transcript), "source": "startup", "model": "claude-sonnet-4-5-20250929"},
    )
    quiet_success(start)
    # Loading MEMORY.md at session start is a use of its entries (forgetting reads it): one spool line.
    assert json.loads(memgit(memory, "status", "--json").stdout)["recall_pending"] == pending + 1
    assert "Priya owns release checklists." in start.stdout and "Staging runs Postgres 14." in start.stdout
    assert "Planned the Heron cutover." in start.stdout
    assert start.stdout.startswith("# Memory context (private scope, 2026-12-01)")


def test_hooks_status_names_the_agent_hooks(memory: Path) -> None:
    status = json.loads(memgit(memory, "hooks", "status", "--json").stdout)
    assert status["agents"] == {"claude-code": ["SessionStart", "PreCompact", "SessionEnd"]}
    assert (
        "claude-code: memgit's SessionStart, PreCompact, SessionEnd hooks" in memgit(memory, "hooks", "status").stdout
    )
    assert memgit(memory, "hooks", "uninstall", "--agent", "claude-code").returncode == 0
    assert json.loads(memgit(memory, "hooks", "status", "--json").stdout)["agents"] == {"claude-code": []}
    assert not (memory / LOCAL).read_text().count("memgit")


def test_hooks_capture_into_the_memory_from_another_project(memory: Path, tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    git(project, "init", "-q")  # a code repository, not a memory workspace
    write(
        project / LOCAL,
        json.dumps(
            {
                "model": "opus",
                "hooks": {
                    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo checked"}]}],
                    "SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye", "timeout": 5}]}],
                },
            },
            indent=2,
        ),
    )
    installed = memgit(memory, "hooks", "install", "--agent", "claude-code", "--project", str(project), "--json")
    assert installed.returncode == 0, installed.stderr
    report = json.loads(installed.stdout)
    assert report["changed"] is True and f"--workspace {memory}" in report["command"]
    settings = settings_of(project)
    assert settings["model"] == "opus"
    assert settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "echo checked"
    assert [g["hooks"][0]["command"] for g in settings["hooks"]["SessionEnd"]][0] == "echo bye"
    first = (project / LOCAL).read_bytes()
    again = json.loads(
        memgit(memory, "hooks", "install", "--agent", "claude-code", "--project", str(project), "--json").stdout
    )
    assert again["changed"] is False and (project / LOCAL).read_bytes() == first

    transcript = write(tmp_path / "t.jsonl", fixture_lines())
    (group,) = [g for g in settings["hooks"]["SessionEnd"] if "memgit" in g["hooks"][0]["command"]]
    proc = subprocess.run(
        ["sh", "-c", group["hooks"][0]["command"]],
        cwd=project,
        capture_output=True,
        text=True,
        input=json.dumps(
            {
                "session_id": SESSION,
                "transcript_path": str(transcript),
                "cwd": str(project),
                "hook_event_name": "SessionEnd",
                "reason": "clear",
            }
        ),
        env={**os.environ, "MEMGIT_NOW": NOW, "MEMGIT_EMBEDDING": "none"},
        timeout=60,
        check=False,
    )
    quiet_success(proc)
    assert len((memory / SESSION_FILE).read_text().splitlines()) == 8
    assert not (project / "sessions").exists()

    removed = memgit(memory, "hooks", "uninstall", "--agent", "claude-code", "--project", str(project))
    assert removed.returncode == 0 and "removed the SessionEnd hook" in removed.stdout
    after = settings_of(project)
    assert after == {
        "model": "opus",
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo checked"}]}],
            "SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye", "timeout": 5}]}],
        },
    }


def test_a_broken_settings_file_is_refused_untouched(memory: Path, tmp_path: Path) -> None:
    project = tmp_path / "broken"
    for text, needle in (
        ('{"hooks": {"SessionStart": [}', "not valid JSON (line 1, column 29)"),
        ('["a", "list"]', "does not hold a JSON object"),
        ('{"hooks": []}', '"hooks" in .claude/settings.local.json is not an object'),
        ('{"hooks": {"PreCompact": {"matcher": "auto"}}}', "not a list of matcher objects"),
        ('{"hooks": {"SessionEnd": [{"hooks": "memgit"}]}}', 'has a "hooks" that is not a list'),
    ):
        path = write(project / LOCAL, text)
        one_error(memgit(memory, "hooks", "install", "--agent", "claude-code", "--project", str(project)), needle)
        assert path.read_text() == text
    assert_clean_error(
        memgit(memory, "hooks", "install", "--project", str(project)), "--project and --settings go with --agent"
    )
    one_error(
        memgit(memory, "hooks", "install", "--agent", "claude-code", "--project", str(tmp_path / "nope")),
        "is not a folder",
    )


def test_merging_is_pure_and_idempotent() -> None:
    theirs = {"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "x"}]}]}}
    merged, actions = merge_hooks(theirs, "memgit hook claude-code")
    assert actions == ["added the SessionStart hook", "added the PreCompact hook", "added the SessionEnd hook"]
    assert theirs == {
        "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "x"}]}]}
    }
    assert merge_hooks(merged, "memgit hook claude-code") == (merged, [])
    moved, actions = merge_hooks(merged, "/new/python -m memgit hook claude-code")
    assert actions == [f"updated the {e} hook" for e in TIMEOUTS]
    doubled = json.loads(json.dumps(moved))
    doubled["hooks"]["PreCompact"].append({"hooks": [{"type": "command", "command": "memgit hook claude-code"}]})
    fixed, actions = merge_hooks(doubled, "/new/python -m memgit hook claude-code")
    assert fixed == moved and actions == ["removed a duplicate PreCompact hook"]
    assert remove_hooks(moved) == (theirs, [f"removed the {e} hook" for e in TIMEOUTS])


# ----------------------------------------------------------------------------- bad input


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    return write(tmp_path / "claude" / f"{SESSION}.jsonl", fixture_lines())


def unchanged(memory: Path, run: Any) -> subprocess.CompletedProcess[str]:
    before = snapshot(memory), git(memory, "rev-parse", "HEAD")
    proc = run()
    assert (snapshot(memory), git(memory, "rev-parse", "HEAD")) == before
    return proc


def test_bad_hook_input_warns_once_and_changes_nothing(memory: Path, transcript: Path, tmp_path: Path) -> None:
    capture = {"transcript_path": str(transcript), "trigger": "manual"}
    cases = [
        ("not json {", "the hook input is not JSON"),
        ("", "no hook input on stdin"),
        ('["PreCompact"]', "not a JSON object"),
        (json.dumps({"session_id": SESSION, "transcript_path": str(transcript)}), "no hook_event_name"),
    ]
    for payload, needle in cases:
        one_warning(unchanged(memory, lambda p=payload: as_host(memory, "PreCompact", p)), needle)
    one_warning(
        unchanged(memory, lambda: as_host(memory, "PreCompact", {"transcript_path": str(tmp_path / "gone.jsonl")})),
        "does not exist",
    )
    one_warning(unchanged(memory, lambda: as_host(memory, "SessionEnd", {"reason": "logout"})), "no transcript_path")
    one_warning(
        unchanged(memory, lambda: as_host(memory, "PreCompact", {**capture, "hook_event_name": "Stop"})),
        "Stop is not an event memgit handles",
    )
    write(transcript.parent / "bad.jsonl", "\x00\x01 not a transcript\n")
    one_warning(
        unchanged(
            memory, lambda: as_host(memory, "PreCompact", {"transcript_path": str(transcript.parent / "bad.jsonl")})
        ),
        "no line of the transcript is JSON",
    )


def test_outside_any_memory_workspace(memory: Path, transcript: Path, tmp_path: Path) -> None:
    nowhere = tmp_path / "scratch"
    nowhere.mkdir()
    code = tmp_path / "code"
    code.mkdir()
    git(code, "init", "-q")
    for cwd, needle in ((nowhere, "not inside a memory workspace"), (code, "not a memory workspace")):
        proc = unchanged(
            memory, lambda c=cwd: as_host(memory, "SessionEnd", {"transcript_path": str(transcript)}, cwd=c)
        )
        one_warning(proc, needle)
        assert not (cwd / "sessions").exists() and "hookSpecificOutput" not in json.loads(proc.stdout)
        start = as_host(memory, "SessionStart", {"transcript_path": str(transcript), "source": "startup"}, cwd=cwd)
        one_warning(start, needle)
        assert "hookSpecificOutput" not in json.loads(start.stdout)


def test_unreadable_transcript(memory: Path, transcript: Path) -> None:
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: an unreadable file cannot be simulated")
    prefix = ["setpriv", "--bounding-set", _NO_OVERRIDE, "--inh-caps", _NO_OVERRIDE] if os.geteuid() == 0 else []
    transcript.chmod(0)
    proc = unchanged(memory, lambda: as_host(memory, "PreCompact", {"transcript_path": str(transcript)}, prefix=prefix))
    one_warning(proc, "cannot read transcript")


def test_merge_in_progress(memory: Path, transcript: Path) -> None:
    git(memory, "checkout", "-q", "-b", "other")
    write(memory / "MEMORY.md", "# Long-term Memory\n\n- Other machine.\n")
    git(memory, "commit", "-qam", "other")
    git(memory, "checkout", "-q", "main")
    write(memory / "MEMORY.md", "# Long-term Memory\n\n- This machine.\n")
    git(memory, "commit", "-qam", "this")
    git(memory, "merge", "other", check=False)
    proc = unchanged(memory, lambda: as_host(memory, "PreCompact", {"transcript_path": str(transcript)}))
    one_warning(proc, "cannot capture during a merge")
    git(memory, "merge", "--abort")
    quiet_success(as_host(memory, "SessionEnd", {"transcript_path": str(transcript)}))  # nothing was lost
    assert len((memory / SESSION_FILE).read_text().splitlines()) == 8


def test_dirty_work_tree_is_left_as_it_was(memory: Path, transcript: Path) -> None:
    write(memory / "MEMORY.md", "# Long-term Memory\n\n- Half-edited, staged.\n")
    git(memory, "add", "MEMORY.md")
    write(memory / "memory" / "2026-12-01.md", "# 2026-12-01\n\n## 08:00\n- Planned the Heron cutover.\n- typing…\n")
    status, staged = git(memory, "status", "--porcelain"), git(memory, "diff", "--cached")
    head = git(memory, "rev-parse", "HEAD").strip()
    quiet_success(as_host(memory, "PreCompact", {"transcript_path": str(transcript)}))
    (commit,) = git(memory, "rev-list", f"{head}..HEAD").split()
    assert git(memory, "show", "--name-only", "--format=", commit).split() == [SESSION_FILE]
    assert git(memory, "status", "--porcelain") == status and git(memory, "diff", "--cached") == staged


def test_the_hook_cannot_be_run_by_hand_by_mistake(memory: Path) -> None:
    proc = memgit(memory, "hook", "claude-code", "--wat")
    one_warning(proc, "unknown argument")
    bad_clock = subprocess.run(
        [sys.executable, "-m", "memgit", "hook", "claude-code"],
        cwd=memory,
        input="{}",
        capture_output=True,
        text=True,
        env={**os.environ, "MEMGIT_NOW": "later"},
        check=False,
    )
    one_warning(bad_clock, "MEMGIT_NOW")


def test_codex_session_end_answers_at_once_and_the_capture_lands_after(memory: Path, tmp_path: Path) -> None:
    """Codex clamps SessionEnd to 3 s and kills a hook past it: memgit's hook returns before the
    capture's commit and index update, which finish in a process of their own."""
    rollout = write(
        tmp_path / "codex" / "rollout.jsonl",
        "\n".join(
            json.dumps(record)
            for record in [
                {"type": "session_meta", "payload": {"id": "codex-7", "cwd": str(memory)}},
                {
                    "type": "response_item",
                    "payload": {
                        "type": "message",
                        "role": "user",
                        "content": [{"type": "input_text", "text": "The Heron cutover moved to Thursday."}],
                    },
                },
            ]
        )
        + "\n",
    )
    head = git(memory, "rev-parse", "HEAD").strip()
    payload = {
        "session_id": "codex-7",
        "cwd": str(memory),
        "hook_event_name": "SessionEnd",
        "transcript_path": str(rollout),
    }
    proc = memgit(memory, "hook", "codex", input=json.dumps(payload), env={"MEMGIT_NOW": NOW})
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == "", proc.stderr
    wait_until(lambda: git(memory, "rev-list", f"{head}..HEAD").strip() != "", "the detached capture is committed")
    (subject,) = git(memory, "log", "--format=%s", f"{head}..HEAD").splitlines()
    assert subject.startswith("sessions: capture") and "(SessionEnd" in subject
    stored = "".join(p.read_text() for p in (memory / "sessions").glob("*.jsonl"))
    assert "Heron cutover moved to Thursday" in stored


def test_codex_session_end_with_bad_input_warns_before_it_detaches(memory: Path, tmp_path: Path) -> None:
    """The detached capture cannot tell the host anything: input it would refuse is refused first."""
    head = git(memory, "rev-parse", "HEAD").strip()
    for fields, needle in (
        ({"transcript_path": str(tmp_path / "gone.jsonl")}, "does not exist"),
        ({"transcript_path": str(tmp_path)}, "not a regular file"),
        ({}, "no transcript_path"),
    ):
        payload = {"session_id": "codex-8", "cwd": str(memory), "hook_event_name": "SessionEnd", **fields}
        proc = memgit(memory, "hook", "codex", input=json.dumps(payload))
        assert proc.returncode == 0, proc.stderr
        (line,) = proc.stderr.splitlines()
        assert line.startswith("memgit: warning: codex hook: ") and needle in line, line
        assert "Traceback" not in proc.stderr
    assert git(memory, "rev-parse", "HEAD").strip() == head
    assert not (memory / "sessions").exists()
