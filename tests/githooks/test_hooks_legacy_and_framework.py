"""memgit's plain hooks next to the pre-commit framework, on real repositories and real git.

- `memgit hooks install`, then `pre-commit install`: the framework moves memgit's script to
  `pre-commit.legacy` and runs it first. The script must not chain "its own" legacy hook (itself),
  must still run once, and `memgit hooks status`/`install`/`uninstall` must know where it sits.
- Under the framework, `memgit lint --staged FILE...` is named only added and modified files; a
  staged deletion of a past daily log (or the old side of a rename) must still fail D302.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memgit.githooks import install as hook_install
from tests.githooks.test_hooks import git_dir
from tests.githooks.test_precommit_framework import bm25_only, framework_ws, pre_commit  # noqa: F401
from tests.helpers import commit_all, git, memgit, write

TIMEOUT = 60
PAST_LOGS = ("2026-11-25", "2026-11-26")


def commit(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", *args], cwd=repo, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def hooks_status(repo: Path) -> dict[str, dict[str, object]]:
    proc = memgit(repo, "hooks", "status", "--json")
    assert proc.returncode == 0, proc.stderr
    return {h["name"]: h for h in json.loads(proc.stdout)["hooks"]}


@pytest.fixture
def plain_then_framework(workspace: Path) -> Path:
    """Plain memgit hooks first, then `pre-commit install` (migration mode) with a trivial config."""
    proc = memgit(workspace, "hooks", "install")
    assert proc.returncode == 0, proc.stderr
    write(
        workspace / ".pre-commit-config.yaml",
        'repos:\n- repo: local\n  hooks:\n  - {id: noop, name: noop, entry: "true", language: system}\n',
    )
    commit_all(workspace, "pre-commit config")
    proc = pre_commit(workspace, "install")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    hooks = git_dir(workspace) / "hooks"
    assert hook_install.is_memgit_hook(hooks / "pre-commit.legacy")
    assert not hook_install.is_memgit_hook(hooks / "pre-commit")
    return workspace


def test_memgit_hook_moved_to_legacy_runs_once_and_does_not_loop(plain_then_framework: Path) -> None:
    ws = plain_then_framework
    write(ws / "memory" / "2026-01-07.md", "# 2026-01-07\n\n- The axolotl regrew a gill.\n")
    git(ws, "add", "-A")
    proc = commit(ws, "-q", "-m", "memory")  # before the fix: endless nested shells, killed by the timeout
    assert proc.returncode == 0, proc.stdout + proc.stderr
    status = json.loads(memgit(ws, "status", "--json").stdout)
    assert status["up_to_date"] is True, status

    # memgit's lint still runs from pre-commit.legacy (the framework's config has no memgit hook).
    head = git(ws, "rev-parse", "HEAD")
    write(ws / "memory" / "keys.md", "- deploy token ghp_" + "a1B2c3D4e5" * 4 + "\n")
    git(ws, "add", "-A")
    proc = commit(ws, "-q", "-m", "leak")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "S102" in proc.stdout + proc.stderr
    assert git(ws, "rev-parse", "HEAD") == head


def test_status_install_and_uninstall_know_memgit_sits_at_legacy(plain_then_framework: Path) -> None:
    ws = plain_then_framework
    hooks = git_dir(ws) / "hooks"
    state = hooks_status(ws)["pre-commit"]
    assert state["state"] == "framework" and state["memgit_at_legacy"] is True
    text = memgit(ws, "hooks", "status").stdout
    line = next(line for line in text.splitlines() if line.strip().startswith("pre-commit "))
    assert "memgit's own hook sits at pre-commit.legacy" in line and "chains" not in line

    # An old script (no guard) at pre-commit.legacy: re-running install rewrites it in place.
    legacy = hooks / "pre-commit.legacy"
    legacy.write_text(legacy.read_text().replace('"$MEMGIT_HOOK.legacy")', '"not-this")'))
    framework_script = (hooks / "pre-commit").read_text()
    proc = memgit(ws, "hooks", "install")
    assert proc.returncode == 0, proc.stderr
    assert "updated memgit's hook at pre-commit.legacy" in proc.stdout
    assert '"$MEMGIT_HOOK.legacy")' in legacy.read_text()
    assert (hooks / "pre-commit").read_text() == framework_script
    assert not (hooks / "pre-commit.legacy.legacy").exists()
    proc = commit(ws, "-q", "--allow-empty", "-m", "after reinstall")
    assert proc.returncode == 0, proc.stdout + proc.stderr

    proc = memgit(ws, "hooks", "uninstall")
    assert proc.returncode == 0, proc.stderr
    assert not legacy.exists()
    assert (hooks / "pre-commit").read_text() == framework_script
    assert hooks_status(ws)["pre-commit"]["memgit_at_legacy"] is False


def test_rendered_hook_never_chains_itself() -> None:
    script = hook_install.render_hook("pre-commit", "/usr/bin/python3")
    guard = script.index('"$MEMGIT_HOOK.legacy") legacy= ;;')
    assert script.index('legacy="$here/$MEMGIT_HOOK.legacy"') < guard < script.index('if [ -x "$legacy" ]')


# -- bug 2: deletions under the framework ---------------------------------------------------------
@pytest.fixture
def framework_logs(framework_ws: Path) -> Path:  # noqa: F811
    for day in PAST_LOGS:
        write(framework_ws / "memory" / f"{day}.md", f"# {day}\n\n- Notes for {day}.\n")
    commit_all(framework_ws, "past logs")
    return framework_ws


def assert_refused_d302(repo: Path, proc: subprocess.CompletedProcess[str], head: str, path: str) -> None:
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert f"{path}:1: D302 past daily log deleted" in output, output
    assert git(repo, "rev-parse", "HEAD") == head


def test_framework_refuses_a_deleted_past_log_beside_another_file(framework_logs: Path) -> None:
    ws = framework_logs
    head = git(ws, "rev-parse", "HEAD")
    git(ws, "rm", "-q", "memory/2026-11-26.md")
    with (ws / "MEMORY.md").open("a") as handle:
        handle.write("- new\n")
    git(ws, "add", "MEMORY.md")
    assert_refused_d302(ws, commit(ws, "-m", "x"), head, "memory/2026-11-26.md")

    # Beside a file that cannot be memory (the fast path before the CLI must not skip it either).
    git(ws, "reset", "-q", "--hard")
    git(ws, "rm", "-q", "memory/2026-11-26.md")
    write(ws / "src" / "app.py", "print('hi')\n")
    git(ws, "add", "src/app.py")
    assert_refused_d302(ws, commit(ws, "-m", "x"), head, "memory/2026-11-26.md")


def test_framework_refuses_a_renamed_past_log(framework_logs: Path) -> None:
    ws = framework_logs
    head = git(ws, "rev-parse", "HEAD")
    git(ws, "mv", "memory/2026-11-25.md", "memory/2026-11-22.md")
    assert_refused_d302(ws, commit(ws, "-m", "y"), head, "memory/2026-11-25.md")


def test_staged_lint_checks_deletions_whatever_files_are_named(workspace: Path) -> None:
    git(workspace, "rm", "-q", "memory/2026-01-05.md")
    write(workspace / "notes.txt", "x\n")
    git(workspace, "add", "notes.txt")
    proc = memgit(workspace, "lint", "--staged", "notes.txt")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "memory/2026-01-05.md:1: D302" in proc.stdout + proc.stderr
