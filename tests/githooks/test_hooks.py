"""Plain git hooks (`memgit hooks install`) on real repositories driven by real git commands.

What matters is what a user sees: after commit, merge, pull, pull --rebase, checkout, amend and
interactive rebase the index is at HEAD without anyone running memgit (the check reads the
marker the hooks left and then asks `memgit index --verify`, whose own update must be a no-op),
a lint finding blocks a commit, and no index problem ever does.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memgit.git.repo import clean_env
from memgit.githooks import install as hook_install
from memgit.githooks import run as hooks
from tests.helpers import assert_clean_error, commit_all, git, memgit, write


@pytest.fixture(autouse=True)
def bm25_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hooks inherit the environment through git; BM25 keeps them fast and model-free."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.setenv("MEMGIT_NO_PROGRESS", "1")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)


# -- helpers shared with tests/githooks/test_precommit_framework.py ----------------------------------------
def git_dir(repo: Path) -> Path:
    return Path(git(repo, "rev-parse", "--absolute-git-dir").strip())


def head_tree(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD^{tree}").strip()


def search_texts(repo: Path, *queries: str) -> list[list[str]]:
    """Hit texts (lower-cased) for each query, from one `memgit search --batch` process."""
    proc = memgit(repo, "search", "--batch", "-", "--mode", "bm25", "--json", input="\n".join(queries) + "\n")
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(results) == len(queries), proc.stdout
    return [[hit["text"].lower() for hit in result["hits"]] for result in results]


def assert_indexed(repo: Path, present: str | None = None, absent: str | None = None) -> None:
    """The hooks, not this check, brought the index to HEAD; it equals a rebuild; search agrees."""
    marker = git_dir(repo) / "memgit" / "indexed_tree"
    assert marker.is_file(), "no hook has indexed this repository"
    assert marker.read_text().strip() == head_tree(repo), "the index is not at HEAD after the hook"
    proc = memgit(repo, "index", "--verify", "--json")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    report = json.loads(proc.stdout)
    assert report["mode"] == "noop", report
    assert report["verify"]["ok"], report["verify"]
    queries = [q for q in (present, absent) if q]
    if not queries:
        return
    found = dict(zip(queries, search_texts(repo, *queries), strict=True))
    if present:
        assert any(present in text for text in found[present]), (present, found[present])
    if absent:
        assert not any(absent in text for text in found[absent]), (absent, found[absent])


def warning_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip()]


def run_git_scenario(ws: Path, tmp_path: Path) -> None:
    """Commit, merge, pull, pull --rebase, checkout, amend, rebase -i: the index follows each."""
    write(ws / "memory" / "2026-02-01.md", "# 2026-02-01\n\n- Saw a quokka at the zoo.\n")
    commit_all(ws, "commit")
    assert_indexed(ws, present="quokka")

    git(ws, "checkout", "-q", "-b", "side")
    write(ws / "memory" / "notes" / "side.md", "- Narwhal tusks are teeth.\n")
    commit_all(ws, "side note")
    git(ws, "checkout", "-q", "main")
    assert_indexed(ws, absent="narwhal")
    git(ws, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    assert_indexed(ws, present="narwhal")

    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(ws), str(other))
    write(other / "memory" / "2026-02-02.md", "- An axolotl regrows limbs.\n")
    commit_all(other, "from the other clone")
    git(ws, "pull", "-q", "--no-rebase", str(other), "main")
    assert_indexed(ws, present="axolotl")

    write(ws / "memory" / "local.md", "- Pangolin scales are keratin.\n")
    commit_all(ws, "local work")
    write(other / "memory" / "2026-02-03.md", "- The okapi is related to the giraffe.\n")
    commit_all(other, "more from the other clone")
    git(ws, "pull", "-q", "--rebase", str(other), "main")
    assert_indexed(ws, present="okapi")
    assert any("pangolin" in text for text in search_texts(ws, "pangolin")[0])

    git(ws, "checkout", "-q", "--detach", "HEAD~1")
    assert_indexed(ws, absent="pangolin")
    git(ws, "checkout", "-q", "main")
    assert_indexed(ws, present="pangolin")

    write(ws / "memory" / "local.md", "- Tapir calves have stripes.\n")
    git(ws, "commit", "-q", "-a", "--amend", "-m", "local work, amended")
    assert_indexed(ws, present="tapir", absent="pangolin")

    write(ws / "memory" / "a.md", "- Ocelot notes.\n")
    commit_all(ws, "ocelot")
    write(ws / "memory" / "b.md", "- Wombat notes.\n")
    commit_all(ws, "wombat")
    git(ws, "-c", "sequence.editor=sed -i -e 1s/^pick/drop/", "rebase", "-q", "-i", "HEAD~2")
    assert_indexed(ws, present="wombat", absent="ocelot")


# -- fixtures -------------------------------------------------------------------------------------
@pytest.fixture
def hooked(workspace: Path) -> Path:
    proc = memgit(workspace, "hooks", "install")
    assert proc.returncode == 0, proc.stderr
    return workspace


# -- the whole tour ---------------------------------------------------------------------------------
def test_plain_hooks_follow_every_git_operation(hooked: Path, tmp_path: Path) -> None:
    run_git_scenario(hooked, tmp_path)


def test_worktree_gets_its_own_index(hooked: Path, tmp_path: Path) -> None:
    wt = tmp_path / "wt"
    git(hooked, "worktree", "add", "-q", str(wt), "-b", "wt")
    write(wt / "memory" / "2026-02-05.md", "- A dingo in the worktree.\n")
    commit_all(wt, "worktree note")
    assert git_dir(wt) != git_dir(hooked)
    assert_indexed(wt, present="dingo")


# -- install, chain, uninstall -----------------------------------------------------------------------
def test_install_chains_existing_hooks_and_uninstall_restores_them(workspace: Path) -> None:
    hooks_dir = workspace / ".git" / "hooks"
    user_hook = '#!/bin/sh\necho "user post-commit $*" >> user-hooks.log\n'
    write(hooks_dir / "post-commit", user_hook).chmod(0o755)
    write(hooks_dir / "post-rewrite", "#!/bin/sh\ncat >> rewrites.log\n").chmod(0o755)
    (workspace / ".gitignore").write_text("*.log\n")

    proc = memgit(workspace, "hooks", "install")
    assert proc.returncode == 0, proc.stderr
    assert "post-commit: kept the existing hook as post-commit.legacy" in proc.stdout
    assert (hooks_dir / "post-commit.legacy").read_text() == user_hook
    again = memgit(workspace, "hooks", "install")  # idempotent: memgit's own hook is never "legacy"
    assert again.returncode == 0 and "kept the existing hook" not in again.stdout

    write(workspace / "MEMORY.md", "# Long-term Memory\n\n- Lemurs live on Madagascar.\n")
    old_head = commit_all(workspace, "lemurs")
    assert (workspace / "user-hooks.log").read_text() == "user post-commit \n"
    assert_indexed(workspace, present="lemurs")

    git(workspace, "commit", "-q", "--amend", "-m", "lemurs, amended")
    new_head = git(workspace, "rev-parse", "HEAD").strip()
    assert (workspace / "rewrites.log").read_text().split() == [old_head, new_head]

    status = json.loads(memgit(workspace, "hooks", "status", "--json").stdout)
    states = {h["name"]: (h["state"], h["legacy"]) for h in status["hooks"]}
    assert states["post-commit"] == ("memgit", True) and states["post-merge"] == ("memgit", False)
    assert all(h["python"] == sys.executable for h in status["hooks"])

    proc = memgit(workspace, "hooks", "uninstall")
    assert proc.returncode == 0, proc.stderr
    assert (hooks_dir / "post-commit").read_text() == user_hook
    assert not (hooks_dir / "post-commit.legacy").exists()
    assert not (hooks_dir / "post-merge").exists()
    status = json.loads(memgit(workspace, "hooks", "status", "--json").stdout)
    assert {h["name"]: h["state"] for h in status["hooks"]}["post-commit"] == "foreign"


def test_a_failing_legacy_pre_commit_still_blocks(workspace: Path) -> None:
    hooks_dir = workspace / ".git" / "hooks"
    write(hooks_dir / "pre-commit", "#!/bin/sh\necho 'team policy says no' >&2\nexit 3\n").chmod(0o755)
    assert memgit(workspace, "hooks", "install").returncode == 0
    write(workspace / "MEMORY.md", "# Long-term Memory\n\n- fine\n")
    git(workspace, "add", "-A")
    proc = subprocess.run(["git", "commit", "-q", "-m", "x"], cwd=workspace, capture_output=True, text=True)
    assert proc.returncode != 0 and "team policy says no" in proc.stderr


def test_refuses_a_foreign_hook_when_a_legacy_copy_already_exists(workspace: Path) -> None:
    hooks_dir = workspace / ".git" / "hooks"
    write(hooks_dir / "post-merge", "#!/bin/sh\n").chmod(0o755)
    write(hooks_dir / "post-merge.legacy", "#!/bin/sh\n").chmod(0o755)
    proc = memgit(workspace, "hooks", "install")
    assert_clean_error(proc, "post-merge.legacy already exists")
    assert not (hooks_dir / "post-commit").exists()  # nothing half-installed


def test_core_hooks_path_is_refused_with_the_fix_or_used_on_request(workspace: Path) -> None:
    git(workspace, "config", "core.hooksPath", ".githooks")
    proc = memgit(workspace, "hooks", "install")
    assert_clean_error(proc, "core.hooksPath")
    assert "--use-hooks-path" in proc.stderr and "git config --unset core.hooksPath" in proc.stderr

    proc = memgit(workspace, "hooks", "install", "--use-hooks-path", "-t", "post-commit")
    assert proc.returncode == 0, proc.stderr
    assert hook_install.is_memgit_hook(workspace / ".githooks" / "post-commit")
    assert not (workspace / ".git" / "hooks" / "post-commit").exists()
    write(workspace / "memory" / "2026-02-06.md", "- A caracal has tufted ears.\n")
    commit_all(workspace, "hooksPath")
    assert_indexed(workspace, present="caracal")
    status = memgit(workspace, "hooks", "status")
    assert "core.hooksPath: .githooks" in status.stdout


# -- lint blocks, index problems never do ---------------------------------------------------------
def commit(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def test_lint_finding_blocks_the_commit_with_a_readable_message(hooked: Path) -> None:
    head = git(hooked, "rev-parse", "HEAD")
    write(hooked / "MEMORY.md", "# Long-term Memory\n\n-----BEGIN OPENSSH PRIVATE KEY-----\n")
    git(hooked, "add", "-A")
    proc = commit(hooked, "-m", "oops")
    assert proc.returncode == 1
    assert "MEMORY.md:3: S101 openssh private key block; keep keys out of memory" in proc.stderr
    assert "commit blocked" in proc.stderr and "Traceback" not in proc.stderr
    assert git(hooked, "rev-parse", "HEAD") == head

    assert commit(hooked, "-m", "skip once", env={"MEMGIT_SKIP_HOOKS": "1"}).returncode == 0
    git(hooked, "reset", "-q", "--hard", "HEAD~1")

    # `git commit -a` stages into a temporary index; lint must read that one.
    (hooked / "memory" / "2026-01-05.md").write_text("# 2026-01-05\n\n- Rewrote what happened.\n")
    proc = commit(hooked, "-a", "-m", "rewrite history")
    assert proc.returncode == 1 and "memory/2026-01-05.md:3: D301 " in proc.stderr


def test_index_failure_never_blocks_and_the_next_hook_heals(hooked: Path) -> None:
    write(hooked / "memory" / "2026-02-07.md", "- Meerkats stand guard.\n")
    commit_all(hooked, "first")
    assert_indexed(hooked, present="meerkats")
    data_dir = git_dir(hooked) / "memgit"
    shutil.rmtree(data_dir)
    data_dir.write_text("not a directory")  # the index cannot even be opened

    write(hooked / "memory" / "2026-02-08.md", "- Capybaras are calm.\n")
    git(hooked, "add", "-A")
    proc = commit(hooked, "-m", "while broken")
    assert proc.returncode == 0, proc.stderr
    lines = warning_lines(proc.stderr)
    assert len(lines) == 1 and lines[0].startswith("memgit: warning: post-commit hook:"), proc.stderr

    data_dir.unlink()
    write(hooked / "memory" / "2026-02-09.md", "- Quolls are marsupials.\n")
    commit_all(hooked, "healed")
    assert_indexed(hooked, present="capybaras")


def test_locked_index_warns_once_and_heals(hooked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_HOOK_LOCK_TIMEOUT", "0.1")
    write(hooked / "memory" / "2026-02-10.md", "- Echidnas lay eggs.\n")
    commit_all(hooked, "before the lock")
    lock = os.open(git_dir(hooked) / "memgit" / "lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        write(hooked / "memory" / "2026-02-11.md", "- Platypus venom.\n")
        git(hooked, "add", "-A")
        proc = commit(hooked, "-m", "while locked")
        assert proc.returncode == 0
        lines = warning_lines(proc.stderr)
        assert len(lines) == 1 and "another memgit run" in lines[0], proc.stderr
    finally:
        os.close(lock)
    proc = memgit(hooked, "hook", "post-commit")
    assert proc.returncode == 0 and proc.stderr == ""
    assert_indexed(hooked, present="platypus")


# -- bad input: each exits 0 with at most one warning line; the next clean hook heals --------------
def run_hook(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = memgit(repo, "hook", *args, env=env)
    assert proc.returncode == 0, proc.stderr
    assert len(warning_lines(proc.stderr)) <= 1, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    return proc


def test_repo_with_no_commits(tmp_path: Path) -> None:
    repo = tmp_path / "empty"
    git(tmp_path, "init", "-q", str(repo))
    assert memgit(repo, "hooks", "install").returncode == 0
    run_hook(repo, "post-commit")
    run_hook(repo, "post-checkout", "0" * 40, "0" * 40, "1")
    write(repo / "MEMORY.md", "- A first gecko note.\n")
    commit_all(repo, "first")
    assert_indexed(repo, present="gecko")


def test_detached_head_and_file_checkout(hooked: Path) -> None:
    write(hooked / "memory" / "2026-02-12.md", "- Ibis.\n")
    commit_all(hooked, "ibis")
    git(hooked, "checkout", "-q", "--detach", "HEAD~1")
    assert_indexed(hooked, absent="ibis")
    run_hook(hooked, "post-checkout", "0" * 40, "0" * 40, "0")  # a file checkout: nothing to do
    git(hooked, "checkout", "-q", "main")
    assert_indexed(hooked, present="ibis")


def test_shallow_clone(workspace: Path, tmp_path: Path) -> None:
    write(workspace / "memory" / "2026-02-13.md", "- Kiwi birds.\n")
    commit_all(workspace, "kiwi")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{workspace}", str(shallow))
    assert git(shallow, "rev-parse", "--is-shallow-repository").strip() == "true"
    assert memgit(shallow, "hooks", "install").returncode == 0
    run_hook(shallow, "post-checkout", "0" * 40, git(shallow, "rev-parse", "HEAD").strip(), "1")
    write(shallow / "memory" / "2026-02-14.md", "- Kakapo parrots.\n")
    commit_all(shallow, "kakapo")
    assert_indexed(shallow, present="kakapo")


def test_conflicted_merge(hooked: Path) -> None:
    git(hooked, "checkout", "-q", "-b", "left")
    write(hooked / "MEMORY.md", "# Long-term Memory\n\n- left side\n")
    commit_all(hooked, "left")
    git(hooked, "checkout", "-q", "main")
    write(hooked / "MEMORY.md", "# Long-term Memory\n\n- right side\n")
    commit_all(hooked, "right")
    merge = subprocess.run(["git", "merge", "-q", "left"], cwd=hooked, capture_output=True, text=True)
    assert merge.returncode != 0  # stopped on conflicts: git runs no post-merge hook
    run_hook(hooked, "post-merge", "0")
    run_hook(hooked, "post-commit")

    staged_markers = commit(hooked, "-a", "--no-edit")  # conflict markers are a lint error
    assert staged_markers.returncode == 1 and "MEMORY.md:3: F401 " in staged_markers.stderr
    write(hooked / "MEMORY.md", "# Long-term Memory\n\n- Both sides agree on the serval.\n")
    git(hooked, "add", "-A")
    assert commit(hooked, "--no-edit").returncode == 0
    assert_indexed(hooked, present="serval")


def test_damaged_index_is_rebuilt(hooked: Path) -> None:
    """Index file deleted, whole data dir deleted, index file garbage: the next hook rebuilds."""
    write(hooked / "memory" / "2026-02-15.md", "- Jerboa hops.\n")
    commit_all(hooked, "jerboa")
    data_dir = git_dir(hooked) / "memgit"

    (data_dir / "index.sqlite").unlink()  # the marker alone must not make the hook skip
    run_hook(hooked, "post-commit")
    assert (data_dir / "index.sqlite").is_file()

    shutil.rmtree(data_dir)
    run_hook(hooked, "post-checkout", "0" * 40, git(hooked, "rev-parse", "HEAD").strip(), "1")
    assert (data_dir / "indexed_tree").read_text().strip() == head_tree(hooked)

    (data_dir / "index.sqlite").write_bytes(b"this is not sqlite" * 100)
    write(hooked / "memory" / "2026-02-16.md", "- Vicuna wool.\n")
    git(hooked, "add", "-A")
    proc = commit(hooked, "-m", "on a garbage index")
    assert proc.returncode == 0 and len(warning_lines(proc.stderr)) <= 1, proc.stderr
    assert_indexed(hooked, present="jerboa")
    assert any("vicuna" in text for text in search_texts(hooked, "vicuna")[0])


def test_model_missing(hooked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMGIT_EMBEDDING")
    monkeypatch.setenv("MEMGIT_MODEL", str(tmp_path / "no-such-model.gguf"))
    shutil.rmtree(git_dir(hooked) / "memgit", ignore_errors=True)
    write(hooked / "memory" / "2026-02-16.md", "- Fennec foxes.\n")
    git(hooked, "add", "-A")
    proc = commit(hooked, "-m", "no model")
    assert proc.returncode == 0
    lines = warning_lines(proc.stderr)
    assert len(lines) == 1 and "BM25 only" in lines[0], proc.stderr
    write(hooked / "memory" / "2026-02-17.md", "- Gerenuk.\n")
    quiet = commit_all(hooked, "still no model")  # said once, at the build, not on every commit
    assert quiet
    assert_indexed(hooked, present="fennec")


def test_unknown_hook_name_and_skip_variable(hooked: Path) -> None:
    proc = run_hook(hooked, "pre-push")
    assert "unknown hook 'pre-push'" in proc.stderr
    write(hooked / "memory" / "2026-02-18.md", "- Skipped.\n")
    git(hooked, "add", "-A")
    assert commit(hooked, "-m", "skip", env={"MEMGIT_SKIP_HOOKS": "1"}).returncode == 0
    marker = git_dir(hooked) / "memgit" / "indexed_tree"
    assert not marker.exists() or marker.read_text().strip() != head_tree(hooked)
    run_hook(hooked, "post-commit")
    assert_indexed(hooked, present="skipped")


def test_missing_interpreter(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorded Python is gone and memgit is not on PATH: index hooks warn, lint blocks."""
    from memgit.workspace import Workspace

    hook_install.install_hooks(Workspace.discover(workspace), python="/nonexistent/bin/python")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    write(workspace / "memory" / "2026-02-19.md", "- Bilby.\n")
    git(workspace, "add", "-A")
    blocked = commit(workspace, "-m", "x")
    assert blocked.returncode == 1 and "memgit not found" in blocked.stderr
    assert "MEMGIT_SKIP_HOOKS=1" in blocked.stderr

    hook_install.uninstall_hooks(Workspace.discover(workspace), ["pre-commit"])
    proc = commit(workspace, "-m", "x")
    assert proc.returncode == 0
    lines = warning_lines(proc.stderr)
    assert len(lines) == 1 and "memgit not found" in lines[0], proc.stderr


# -- small pure pieces ---------------------------------------------------------------------------
def test_rendered_script_quotes_paths_and_parses() -> None:
    script = hook_install.render_hook("post-commit", "/opt/my python/bin/python", "")
    assert hook_install.MARKER in script
    assert "MEMGIT_PYTHON='/opt/my python/bin/python'" in script
    assert subprocess.run(["sh", "-n"], input=script, text=True).returncode == 0
    assert "MEMGIT_BLOCKING=1" in hook_install.render_hook("pre-commit", "/usr/bin/python3")


def test_framework_stage_and_no_op_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    assert hooks.framework_stage({}) == "post-commit"
    assert hooks.framework_stage({"PRE_COMMIT_CHECKOUT_TYPE": "1"}) == "post-checkout"
    assert hooks.framework_stage({"PRE_COMMIT_REWRITE_COMMAND": "amend"}) == "post-rewrite"
    assert hooks.framework_stage({"PRE_COMMIT_IS_SQUASH_MERGE": "0"}) == "post-merge"
    assert not hooks._needs_update("post-checkout", ["a", "b", "0"])
    assert hooks._needs_update("post-checkout", ["a", "b", "1"])
    assert not hooks._needs_update("post-merge", ["1"])
    monkeypatch.setenv("PRE_COMMIT_CHECKOUT_TYPE", "0")
    assert not hooks._needs_update("post-checkout", [])


def test_model_notice_is_said_once() -> None:
    missing = ["BM25 only: no embedding model at /x; run `memgit model install`"]
    assert hooks._notice_worth_a_line("full", missing)
    assert hooks._notice_worth_a_line("incremental", missing) is None
    assert hooks._notice_worth_a_line("full", ["BM25 only: MEMGIT_EMBEDDING=none"]) is None


def test_clean_git_env_drops_location_variables() -> None:
    env = clean_env({"GIT_DIR": ".git", "GIT_INDEX_FILE": "x", "GIT_CONFIG_GLOBAL": "g", "HOME": "/h"})
    assert env == {"GIT_CONFIG_GLOBAL": "g", "HOME": "/h"}


def test_init_with_hooks_installs_them(tmp_path: Path) -> None:
    target = tmp_path / "fresh"
    proc = memgit(tmp_path, "init", "--hooks", str(target))
    assert proc.returncode == 0, proc.stderr
    status = json.loads(memgit(target, "hooks", "status", "--json").stdout)
    assert {h["state"] for h in status["hooks"]} == {"memgit"}
