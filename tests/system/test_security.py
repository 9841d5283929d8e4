"""Claims of docs/SECURITY.md that no other test file checks.

* A versioned `memgit.toml` can widen the memory paths, but never to git's own files or to files
  outside the work tree, through the CLI or the MCP server.
* The hook scripts never evaluate repository content: a memgit.toml written to run a command when
  a shell expands it runs nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.githooks.test_hooks import commit
from tests.helpers import REPO_ROOT, assert_clean_error, commit_all, git, memgit, write

SENTINEL = "NOT-MEMORY-SENTINEL"


@pytest.mark.parametrize(
    "spec", [".git/config", ".git/description", "memory/out.md", "memory/.dreams/x.md", "../outside.md"]
)
def test_widest_extra_paths_still_refuse_git_and_outside(workspace: Path, tmp_path: Path, spec: str) -> None:
    write(workspace / "memgit.toml", '[memory]\nextra_paths = ["**", "**/*", ".git/**"]\n')
    (workspace / ".git" / "description").write_text(SENTINEL + "\n")
    write(tmp_path / "outside.md", SENTINEL + "\n")
    write(workspace / "memory" / ".dreams" / "x.md", SENTINEL + "\n")
    os.symlink(str(tmp_path / "outside.md"), workspace / "memory" / "out.md")
    commit_all(workspace, "widen")
    proc = memgit(workspace, "get", spec)
    assert_clean_error(proc)
    assert SENTINEL not in proc.stdout + proc.stderr


def test_hooks_never_evaluate_repository_content(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    assert memgit(workspace, "hooks", "install").returncode == 0
    pwned = workspace / "pwned"
    payload = f"$(touch {pwned}) `touch {pwned}` ; touch {pwned}"
    write(workspace / "memgit.toml", f'[memory]\nextra_paths = ["{payload}"]\n')
    write(workspace / "src" / f"x$(touch {pwned}).py", "x = 1\n")
    git(workspace, "add", "-A")
    proc = commit(workspace, "-m", f"$(touch {pwned})")
    assert proc.returncode in (0, 1), proc.stderr  # the lint may object to the config; it must not run it
    git(workspace, "checkout", "-q", "-b", "b$(touch${IFS}pwned)")  # hooks run at the top of the work tree
    git(workspace, "commit", "-q", "--allow-empty", "-m", "empty")
    assert not pwned.exists()


def test_every_test_security_md_names_exists() -> None:
    """docs/SECURITY.md backs each claim with a test; a renamed or deleted test breaks the doc."""
    import re

    root = REPO_ROOT
    text = (root / "docs" / "SECURITY.md").read_text(encoding="utf-8")
    named = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", text)
    named += [(file, extra) for file, _first, extra in re.findall(r"`(tests/[\w/]+\.py)::(\w+)`, `(\w+)`", text)]
    assert len(named) >= 20
    for file, function in named:
        source = (root / file).read_text(encoding="utf-8")
        if function:
            assert f"def {function}(" in source, f"docs/SECURITY.md names {file}::{function}, which does not exist"
