"""Settings where they belong: `memgit hooks install --agent claude-code|codex --settings local|project|user`.

Personal paths (this machine's interpreter, its memory folder) go only to files that are never
committed; the project's committed file gets a portable command that runs from any checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.githooks.test_agent_hooks import NOW
from tests.helpers import assert_clean_error, commit_all, git, memgit, write
from tests.memory.test_capture import SESSION, SESSION_FILE, fixture_lines


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    root = tmp_path / "mem"
    assert memgit(tmp_path, "init", "mem").returncode == 0
    write(root / "MEMORY.md", "# Long-term Memory\n\n- Reports go out on Fridays.\n")
    commit_all(root, "memory")
    return root


def _install(memory: Path, *args: str) -> dict[str, object]:
    proc = memgit(memory, "hooks", "install", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _commands(path: Path) -> dict[str, str]:
    hooks = json.loads(path.read_text())["hooks"]
    return {event: groups[0]["hooks"][0]["command"] for event, groups in hooks.items()}


def test_no_flag_writes_only_the_personal_git_ignored_file(memory: Path) -> None:
    report = _install(memory, "--agent", "claude-code")
    assert report["kind"] == "local" and report["settings"] == str(memory / ".claude" / "settings.local.json")
    assert sorted(p.name for p in (memory / ".claude").iterdir()) == ["settings.local.json"]
    assert sys.executable in str(report["command"])  # personal: this machine's interpreter
    assert git(memory, "status", "--porcelain") == ""
    assert git(memory, "check-ignore", ".claude/settings.local.json").strip() == ".claude/settings.local.json"
    assert "--workspace" not in str(report["command"])  # the project is the memory itself


def test_project_settings_are_portable_and_run_from_any_checkout(memory: Path, tmp_path: Path) -> None:
    report = _install(memory, "--agent", "claude-code", "--settings", "project")
    settings = memory / ".claude" / "settings.json"
    assert report["kind"] == "project" and report["settings"] == str(settings)
    text = settings.read_text()
    assert str(tmp_path) not in text and sys.executable not in text and "PYTHONPATH" not in text
    assert set(_commands(settings).values()) == {"memgit hook claude-code"}

    # The team commits it; another checkout, elsewhere, runs the same command and captures there.
    commit_all(memory, "claude code hooks")
    clone = tmp_path / "elsewhere" / "mem"
    git(tmp_path, "clone", "-q", str(memory), str(clone))
    transcript = write(tmp_path / "t.jsonl", fixture_lines())
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "CLAUDE_PROJECT_DIR": str(clone),
        "MEMGIT_NOW": NOW,
        "MEMGIT_EMBEDDING": "none",
    }
    payload = {
        "session_id": SESSION,
        "transcript_path": str(transcript),
        "cwd": str(clone),
        "hook_event_name": "SessionEnd",
    }
    proc = subprocess.run(
        ["sh", "-c", _commands(clone / ".claude" / "settings.json")["SessionEnd"]],
        cwd=clone,
        input=json.dumps(payload),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert len((clone / SESSION_FILE).read_text().splitlines()) == 8 and not (memory / SESSION_FILE).exists()


def test_a_memory_inside_the_project_is_named_from_the_project_dir(tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    git(project, "init", "-q")
    assert memgit(project, "init", "team-memory").returncode == 0
    _install(project / "team-memory", "--agent", "claude-code", "--settings", "project", "--project", str(project))
    commands = set(_commands(project / ".claude" / "settings.json").values())
    assert commands == {'memgit hook claude-code --workspace "$CLAUDE_PROJECT_DIR"/team-memory'}
    shown = subprocess.run(
        ["sh", "-c", f"echo {commands.pop().removeprefix('memgit hook claude-code --workspace ')}"],
        env={**os.environ, "CLAUDE_PROJECT_DIR": "/some checkout/app"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout == "/some checkout/app/team-memory\n"


def test_project_settings_refuse_a_memory_outside_the_project(memory: Path, tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    proc = memgit(
        memory, "hooks", "install", "--agent", "claude-code", "--settings", "project", "--project", str(project)
    )
    assert_clean_error(proc, "use --settings local")
    assert not (project / ".claude").exists()


def test_user_settings_name_the_memory(memory: Path, hermetic_env: Path) -> None:
    report = _install(memory, "--agent", "claude-code", "--settings", "user")
    path = hermetic_env / ".claude" / "settings.json"
    assert report["settings"] == str(path) and f"--workspace {memory}" in _commands(path)["SessionStart"]
    assert not (memory / ".claude").exists()
    removed = memgit(memory, "hooks", "uninstall", "--agent", "claude-code", "--settings", "user")
    assert removed.returncode == 0 and "memgit" not in path.read_text()


def test_codex_hooks_json_within_its_three_second_clamp(memory: Path, hermetic_env: Path) -> None:
    report = _install(memory, "--agent", "codex")
    path = hermetic_env / ".codex" / "hooks.json"
    assert report["kind"] == "user" and report["settings"] == str(path)
    hooks = json.loads(path.read_text())["hooks"]
    assert hooks["SessionEnd"][0]["hooks"][0]["timeout"] <= 3
    assert all("-m memgit hook codex --workspace" in c for c in _commands(path).values())
    # A second level would run every hook twice: refused, naming the first (issue 48).
    second = memgit(memory, "hooks", "install", "--agent", "codex", "--settings", "project")
    assert_clean_error(second, "already in ~/.codex/hooks.json (--settings user)")
    assert not (memory / ".codex").exists()
    assert memgit(memory, "hooks", "uninstall", "--agent", "codex").returncode == 0
    project = _install(memory, "--agent", "codex", "--settings", "project")
    assert _commands(memory / ".codex" / "hooks.json")["PreCompact"] == "memgit hook codex"
    assert project["kind"] == "project"
    assert_clean_error(
        memgit(memory, "hooks", "install", "--agent", "codex", "--settings", "local"), "codex has no local settings"
    )


def test_session_start_says_conflict_markers_where_the_user_looks(memory: Path) -> None:
    _install(memory, "--agent", "claude-code")
    today = "2026-12-01"
    write(memory / "memory" / f"{today}.md", f"# {today}\n\n<<<<<<< HEAD\n- ours\n=======\n- theirs\n>>>>>>> b\n")
    payload = {"session_id": SESSION, "cwd": str(memory), "hook_event_name": "SessionStart", "source": "startup"}
    command = _commands(memory / ".claude" / "settings.local.json")["SessionStart"]
    proc = subprocess.run(
        ["sh", "-c", command],
        cwd=memory,
        input=json.dumps(payload),
        env={**os.environ, "MEMGIT_NOW": NOW},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0
    shown = json.loads(proc.stdout)
    assert "git conflict markers" in shown["systemMessage"] and shown["systemMessage"].startswith("memgit: ")
    context = shown["hookSpecificOutput"]["additionalContext"]
    assert shown["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert context.splitlines()[0].startswith("[memgit: WARNING:") and "- theirs" in context
    assert len(proc.stdout) <= 9000


def test_a_second_claude_code_install_at_another_level_is_refused(memory: Path) -> None:
    """Installing `--settings project` over the default local install ran both (the context twice,
    ~17 KB): refused in one line naming the local file, which stays as it was."""
    _install(memory, "--agent", "claude-code")
    local = memory / ".claude" / "settings.local.json"
    kept = local.read_bytes()
    proc = memgit(memory, "hooks", "install", "--agent", "claude-code", "--settings", "project")
    assert_clean_error(proc, "already in .claude/settings.local.json (--settings local)")
    assert "memgit hooks uninstall --agent claude-code --settings local" in proc.stderr
    assert not (memory / ".claude" / "settings.json").exists() and local.read_bytes() == kept
    assert _install(memory, "--agent", "claude-code")["changed"] is False  # the same level again is fine
