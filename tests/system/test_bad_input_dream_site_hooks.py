"""Bad input to dreaming, the site and the hooks, end to end through the CLI: one readable
`memgit: error:` line, a non-zero exit, and nothing half-written (no branch, no half-built site,
no hook script)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.dream.test_dream import BM25, BRANCH, NOW, dreaming, recall, seed  # noqa: F401 - fixture
from tests.helpers import commit_all, git, memgit, write


def assert_one_error(proc: subprocess.CompletedProcess[str], needle: str = "") -> str:
    """Non-zero exit, exactly one `memgit: error:` line, no traceback, no internal error."""
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("memgit: error:")]
    assert len(errors) == 1, proc.stderr
    assert needle.lower() in errors[0].lower(), errors[0]
    return errors[0]


def branches(root: Path) -> list[str]:
    return git(root, "for-each-ref", "--format=%(refname:short)", "refs/heads/").split()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(parent: Path) -> list[str]:
    return [p.name for p in parent.iterdir() if ".memgit-build-" in p.name]


# -- 1. SHA-256 repositories ------------------------------------------------------------------------
@pytest.fixture
def sha256_workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws256"
    root.mkdir()
    git(root, "init", "-q", "--object-format=sha256")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- The user prefers tea over coffee.\n")
    write(root / "memory" / "2026-01-05.md", "# 2026-01-05\n\n- Deployed the billing service to production.\n")
    commit_all(root, "initial memory")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- The user prefers tea over coffee.\n- Standups at ten.\n")
    commit_all(root, "second fact")
    return root


def test_sha256_dream_is_a_clear_error_and_writes_no_branch(sha256_workspace: Path) -> None:
    before = branches(sha256_workspace)
    for args in (("--dry-run",), ()):
        proc = memgit(sha256_workspace, "dream", "--now", NOW, *args, env=BM25)
        line = assert_one_error(proc, "dreaming needs a SHA-1 repository")
        assert "sha256" in line
    assert branches(sha256_workspace) == before


def test_sha256_site_build_and_hooks_work_through_git(sha256_workspace: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    proc = memgit(sha256_workspace, "site", "build", "-o", str(out), env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert (out / "index.html").is_file() and (out / ".memgit-site").is_file()
    assert "Standups at ten" in (out / "index.html").read_text(encoding="utf-8")
    assert leftovers(tmp_path) == []
    proc = memgit(sha256_workspace, "hooks", "install")
    assert proc.returncode == 0, proc.stderr
    write(sha256_workspace / "memory" / "2026-01-06.md", "# 2026-01-06\n\n- The pre-commit hook ran.\n")
    commit_all(sha256_workspace, "a commit through memgit's hooks")  # the lint hook reads git's index
    proc = memgit(sha256_workspace, "lint")
    assert proc.returncode == 0, proc.stderr


# -- 2. .git/hooks is a file ----------------------------------------------------------------------
def test_hooks_directory_that_is_a_file_is_refused_and_nothing_written(workspace: Path) -> None:
    hooks = workspace / ".git" / "hooks"
    subprocess.run(["rm", "-rf", str(hooks)], check=True)
    hooks.write_text("x\n")
    proc = memgit(workspace, "hooks", "install")
    line = assert_one_error(proc, str(hooks))
    assert "is a file, not a folder" in line
    assert hooks.is_file() and hooks.read_text() == "x\n"
    assert sorted(p.name for p in (workspace / ".git").iterdir() if "hook" in p.name) == ["hooks"]


def test_hook_path_that_is_a_folder_is_refused_before_any_hook_is_written(workspace: Path) -> None:
    hooks = workspace / ".git" / "hooks"
    for sample in hooks.glob("*"):
        sample.unlink()
    (hooks / "post-commit").mkdir()
    proc = memgit(workspace, "hooks", "install")
    assert_one_error(proc, str(hooks / "post-commit"))
    assert sorted(p.name for p in hooks.iterdir()) == ["post-commit"]
    assert (hooks / "post-commit").is_dir()


# -- 3. absurdly nested JSON in a transcript; a failed build leaves no half-built site ------------
DEEP = '{"role":"user","content":' + "[" * 100000 + "]" * 100000 + "}\n"


def test_deeply_nested_transcript_line_is_skipped_by_the_site(workspace: Path, tmp_path: Path) -> None:
    write(workspace / "sessions" / "deep.jsonl", DEEP + '{"role":"user","content":"the readable turn"}\n')
    commit_all(workspace, "a transcript with an unreadable line")
    assert memgit(workspace, "index", env=BM25).returncode == 0
    out = tmp_path / "site"
    proc = memgit(workspace, "site", "build", "-o", str(out), env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr
    assert (out / "index.html").is_file()
    assert any("deep.jsonl" in name for name in snapshot(out))
    assert leftovers(tmp_path) == []


FAILING_BUILD = """
import sys
import memgit.site.output as output
real, calls, limit = output.digest, [0], int(sys.argv[2])
def digest(data):
    calls[0] += 1
    if calls[0] > limit:
        raise RecursionError("injected: a page failed to render")
    return real(data)
output.digest = digest
sys.argv = ["memgit", "site", "build", "-o", sys.argv[1]]
from memgit.cli import main
main()
"""


def failing_build(root: Path, out: Path, after_pages: int) -> subprocess.CompletedProcess[str]:
    """The real CLI, with page number `after_pages + 1` failing to render (a fault injected)."""
    import os

    env = {**os.environ, **BM25}
    return subprocess.run(
        [sys.executable, "-c", FAILING_BUILD, str(out), str(after_pages)],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_failed_first_build_leaves_no_output_folder(workspace: Path, tmp_path: Path) -> None:
    out = tmp_path / "new" / "site"
    proc = failing_build(workspace, out, after_pages=5)
    assert proc.returncode != 0 and "injected" in proc.stderr, proc.stderr
    assert not (tmp_path / "new").exists()
    assert leftovers(tmp_path) == []
    empty = tmp_path / "empty"
    empty.mkdir()
    assert failing_build(workspace, empty, after_pages=5).returncode != 0
    assert empty.is_dir() and list(empty.iterdir()) == []
    assert leftovers(tmp_path) == []


def test_failed_rebuild_leaves_the_previous_site_unchanged(workspace: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert memgit(workspace, "site", "build", "-o", str(out), env=BM25).returncode == 0
    before = snapshot(out)
    write(workspace / "MEMORY.md", "# Long-term Memory\n\n- The user prefers green tea now.\n")
    write(workspace / "memory" / "2026-01-06.md", "# 2026-01-06\n\n- A new day with a new note.\n")
    commit_all(workspace, "more memory")
    proc = failing_build(workspace, out, after_pages=1)
    assert proc.returncode != 0 and "injected" in proc.stderr, proc.stderr
    assert snapshot(out) == before
    assert leftovers(tmp_path) == []
    # The next build (nothing injected) is an ordinary incremental one.
    proc = memgit(workspace, "site", "build", "-o", str(out), "--json", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert '"incremental": true' in proc.stdout
    assert "green tea" in (out / "index.html").read_text(encoding="utf-8")
    assert leftovers(tmp_path) == []


# -- 4. dream --push to a remote that is not there ------------------------------------------------
def test_push_to_unknown_remote_is_refused_before_any_branch(dreaming: Path, tmp_path: Path) -> None:  # noqa: F811 - the fixture
    before = branches(dreaming)
    proc = memgit(dreaming, "dream", "--now", NOW, "--push", "nonexistent-remote", env=BM25)
    assert_one_error(proc, "no remote named 'nonexistent-remote'")
    assert branches(dreaming) == before and BRANCH not in branches(dreaming)
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(dreaming, "remote", "add", "origin", str(bare))
    proc = memgit(dreaming, "dream", "--now", NOW, "--push", "origin", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert BRANCH in branches(dreaming)
    assert git(bare, "for-each-ref", "--format=%(refname)").split() == [f"refs/heads/{BRANCH}"]


def test_failed_push_removes_the_branch_so_the_same_command_can_run_again(dreaming: Path, tmp_path: Path) -> None:  # noqa: F811 - the fixture
    git(dreaming, "remote", "add", "broken", str(tmp_path / "no-such-remote.git"))
    before = branches(dreaming)
    proc = memgit(dreaming, "dream", "--now", NOW, "--push", "broken", env=BM25)
    line = assert_one_error(proc, "cannot read branch")  # the remote is read first: nothing written
    assert "nothing was written" in line and "no-such-remote.git" in line
    assert branches(dreaming) == before
    # A remote that refuses the push (a hook): the new branch is removed again.
    refusing = tmp_path / "refusing.git"
    git(tmp_path, "init", "-q", "--bare", str(refusing))
    write(refusing / "hooks/pre-receive", "#!/bin/sh\necho 'protected' >&2\nexit 1\n").chmod(0o755)
    git(dreaming, "remote", "set-url", "broken", str(refusing))
    line = assert_one_error(memgit(dreaming, "dream", "--now", NOW, "--push", "broken", env=BM25), "broken")
    assert f"branch {BRANCH} was removed" in line and branches(dreaming) == before
    # A forced run over an existing branch puts that branch back when its push fails.
    git(dreaming, "branch", BRANCH, "HEAD")
    head = git(dreaming, "rev-parse", "HEAD").strip()
    proc = memgit(dreaming, "dream", "--now", NOW, "--push", "broken", "--force", env=BM25)
    assert f"branch {BRANCH} was restored" in assert_one_error(proc, "broken")
    assert git(dreaming, "rev-parse", BRANCH).strip() == head
    git(dreaming, "branch", "-D", BRANCH)
    git(tmp_path, "init", "-q", "--bare", str(tmp_path / "no-such-remote.git"))
    git(dreaming, "remote", "set-url", "broken", str(tmp_path / "no-such-remote.git"))
    proc = memgit(dreaming, "dream", "--now", NOW, "--push", "broken", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert BRANCH in branches(dreaming)
