"""The lint hook decides in the shell whether a commit could touch memory (issue #11, point 2).

The probe: the hook records an interpreter that does not exist and memgit is not on PATH, so the
pre-commit hook blocks the commit ("memgit not found") exactly when it tries to start Python. A
commit that goes through therefore proved that the shell answered alone.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memgit.githooks import install as hook_install
from memgit.workspace import Workspace
from tests.helpers import git, memgit, write
from tests.test_hooks import commit


@pytest.fixture
def lint_hook_without_python(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    hook_install.install_hooks(Workspace.discover(workspace), ["pre-commit"], python="/nonexistent/bin/python")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return workspace


def tried_python(repo: Path, *args: str) -> bool:
    proc = commit(repo, *args)
    if proc.returncode == 0:
        return False
    assert "memgit not found" in proc.stderr, proc.stderr
    git(repo, "reset", "-q")
    return True


@pytest.mark.parametrize(
    "path",
    [
        "src/app.py",
        "README.md",
        "docs/guide/setup.md",
        "notes.txt",
        "data/report-2026.csv",
    ],
)
def test_non_memory_commit_never_starts_python(lint_hook_without_python: Path, path: str) -> None:
    write(lint_hook_without_python / path, "plain project file\n")
    git(lint_hook_without_python, "add", "-A")
    assert not tried_python(lint_hook_without_python, "-m", "code")


def test_empty_commit_never_starts_python(lint_hook_without_python: Path) -> None:
    assert not tried_python(lint_hook_without_python, "--allow-empty", "-m", "empty")


@pytest.mark.parametrize(
    "path",
    [
        "MEMORY.md",
        "USER.md",
        "memory/2026-03-01.md",
        "memory/projects/billing.md",
        "sessions/2026-03-01-abc.jsonl",
        "notes/2026-03-01.md",  # looks like a daily log outside the memory paths: F405
        "docs/memories.md",
        "memgit.toml",
        "odd\tname.md",  # git quotes it: the shell does not guess
    ],
)
def test_memory_or_memory_looking_paths_run_the_lint(lint_hook_without_python: Path, path: str) -> None:
    write(lint_hook_without_python / path, "- a note\n")
    git(lint_hook_without_python, "add", "-A")
    assert tried_python(lint_hook_without_python, "-m", "memory")


def test_deleting_a_memory_file_runs_the_lint(lint_hook_without_python: Path) -> None:
    git(lint_hook_without_python, "rm", "-q", "memory/2026-01-05.md")
    assert tried_python(lint_hook_without_python, "-m", "delete a past log")


def test_commit_all_reads_the_temporary_index(lint_hook_without_python: Path) -> None:
    """`git commit -a` stages into a temporary index that the shell check must read too."""
    (lint_hook_without_python / "MEMORY.md").write_text("# Long-term Memory\n\n- changed\n")
    assert tried_python(lint_hook_without_python, "-a", "-m", "memory via -a")


def test_extra_paths_make_every_commit_run_the_lint(lint_hook_without_python: Path) -> None:
    """With [memory] extra_paths the shell cannot tell memory from code, so it asks Python."""
    write(lint_hook_without_python / "memgit.toml", '[memory]\nextra_paths = ["kb/**/*.md"]\n')
    (lint_hook_without_python / ".git" / "info" / "exclude").write_text("memgit.toml\n")
    write(lint_hook_without_python / "kb" / "facts.md", "- fact\n")
    git(lint_hook_without_python, "add", "kb")
    assert tried_python(lint_hook_without_python, "-m", "extra path")


def test_lint_still_blocks_a_secret_through_the_installed_hook(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path only skips; a staged memory file still reaches the real lint."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    hook_install.install_hooks(Workspace.discover(workspace), ["pre-commit"])
    write(workspace / "src" / "app.py", "print('hello')\n")
    git(workspace, "add", "-A")
    assert commit(workspace, "-m", "code").returncode == 0
    write(workspace / "MEMORY.md", "# Long-term Memory\n\n-----BEGIN OPENSSH PRIVATE KEY-----\n")
    git(workspace, "add", "-A")
    proc = commit(workspace, "-m", "key")
    assert proc.returncode == 1 and "S101" in proc.stderr, proc.stderr


# -- the index hooks ------------------------------------------------------------------------------
def index_hook_warnings(repo: Path, *args: str) -> list[str]:
    proc = commit(repo, *args)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stderr.splitlines() if "memgit not found" in line]


def test_code_commits_skip_the_index_hook_in_the_shell(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no Python to run, an index hook that tried would print one warning line."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    assert memgit(workspace, "index").returncode == 0
    hook_install.install_hooks(
        Workspace.discover(workspace), ["post-commit", "post-checkout"], python="/nonexistent/bin/python"
    )
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    write(workspace / "src" / "app.py", "x = 1\n")
    git(workspace, "add", "-A")
    assert index_hook_warnings(workspace, "-m", "code") == []
    git(workspace, "checkout", "-q", "-b", "feature")
    write(workspace / "src" / "app.py", "x = 2\n")
    git(workspace, "add", "-A")
    assert index_hook_warnings(workspace, "-m", "more code") == []
    checkout = subprocess.run(["git", "checkout", "-q", "main"], cwd=workspace, capture_output=True, text=True)
    assert "memgit not found" not in checkout.stderr

    write(workspace / "memory" / "2026-03-02.md", "- Narwhal tusks are teeth.\n")
    git(workspace, "add", "-A")
    assert len(index_hook_warnings(workspace, "-m", "memory")) == 1


def test_index_after_code_commits_answers_for_head(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The skipped commits leave the index at an older tree with the same memory: status says so,
    search finds everything, and the next reader moves the index to HEAD (equal to a rebuild)."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    assert memgit(workspace, "hooks", "install").returncode == 0
    write(workspace / "memory" / "2026-03-03.md", "- The okapi is related to the giraffe.\n")
    git(workspace, "add", "-A")
    assert commit(workspace, "-m", "memory").returncode == 0
    marker = workspace / ".git" / "memgit" / "indexed_tree"
    memory_tree = marker.read_text().strip()
    write(workspace / "src" / "app.py", "x = 1\n")
    git(workspace, "add", "-A")
    assert commit(workspace, "-m", "code").returncode == 0
    assert marker.read_text().strip() == memory_tree  # the shell skipped the update

    status = memgit(workspace, "status", "--json")
    data = json.loads(status.stdout)
    assert data["pending"] == [] and data["indexed_tree"] == memory_tree
    text = memgit(workspace, "status").stdout
    assert "up to date for memory" in text

    found = memgit(workspace, "search", "okapi giraffe", "--json")
    assert found.returncode == 0, found.stderr
    assert any("okapi" in hit["text"] for hit in json.loads(found.stdout)["hits"])
    assert marker.read_text().strip() == git(workspace, "rev-parse", "HEAD^{tree}").strip()
    verify = memgit(workspace, "index", "--verify", "--json")
    assert verify.returncode == 0 and json.loads(verify.stdout)["verify"]["ok"], verify.stdout
