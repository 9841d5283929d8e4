"""Appending and `memgit init` against a hostile workspace (an adversarial pass found these): a
file named `memory`, read-only `.git` folders, a commit git refuses, a merge in progress, eight
`remember --commit` at once, text that is not UTF-8, a read-only `.gitattributes`, a bad
MEMGIT_NOW. Each ends in one readable `memgit: error:` line and a non-zero exit (or, for the
concurrent commits, success), with nothing written and nothing lost."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import pytest

from tests.helpers import TODAY as SESSION_TODAY
from tests.helpers import commit_all, git, memgit, write

TODAY = f"memory/{SESSION_TODAY.isoformat()}.md"


def one_error(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Non-zero exit; stderr is exactly one readable `memgit: error:` line naming `needles`."""
    assert proc.returncode != 0, proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("memgit: error: "), proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    for needle in needles:
        assert needle.lower() in lines[0].lower(), proc.stderr
    return lines[0]


def snapshot(root: Path) -> tuple[dict[str, bytes], str]:
    """Every work-tree file's bytes, and `git status --porcelain`."""
    files = {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }
    return files, git(root, "status", "--porcelain", "--untracked-files=all")


# Root ignores chmod; without these capabilities it obeys file modes like any user.
_NO_OVERRIDE = "-dac_override,-dac_read_search,-fowner"


def unprivileged(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI as a process that file modes bind (root loses its override capabilities)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: read-only folders cannot be simulated")
        prefix = [setpriv, "--bounding-set", _NO_OVERRIDE, "--inh-caps", _NO_OVERRIDE]
    return subprocess.run(
        [*prefix, sys.executable, "-m", "memgit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    modes = [(p, p.stat().st_mode) for p in paths]
    for p, mode in modes:
        p.chmod(mode & 0o555)
    try:
        yield
    finally:
        for p, mode in modes:
            p.chmod(mode)


# ------------------------------------------------------------------ 1. a file named `memory`


@pytest.fixture
def memory_file(tmp_path: Path) -> Path:
    root = tmp_path / "mf"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "memory", "x\n")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- The user prefers tea.\n")
    commit_all(root, "a file named memory")
    return root


@pytest.mark.parametrize(
    "args",
    [("remember", "fact"), ("log", "fact"), ("remember", "fact", "--commit"), ("log", "--json", "fact")],
)
def test_a_file_named_memory_refuses_appends_cleanly(memory_file: Path, args: tuple[str, ...]) -> None:
    before = snapshot(memory_file)
    one_error(memgit(memory_file, *args), "memory is a file, not a folder", "memory/YYYY-MM-DD.md")
    assert snapshot(memory_file) == before


def test_a_file_named_memory_still_allows_long_term_appends(memory_file: Path) -> None:
    proc = memgit(memory_file, "remember", "--long-term", "- Likes green tea.")
    assert proc.returncode == 0, proc.stderr
    assert (memory_file / "MEMORY.md").read_text().endswith("- Likes green tea.\n")


def test_a_file_named_memory_refuses_init_cleanly(memory_file: Path) -> None:
    before = snapshot(memory_file)
    one_error(memgit(memory_file, "init"), "memory is a file, not a folder", "changed nothing")
    assert snapshot(memory_file) == before


def test_context_with_a_file_named_memory_loads_the_rest_and_warns(memory_file: Path) -> None:
    before = snapshot(memory_file)
    proc = memgit(memory_file, "context")
    assert proc.returncode == 0, proc.stderr
    assert "prefers tea" in proc.stdout
    assert proc.stderr.splitlines() == [
        "memgit: warning: daily logs left out: memory is a file, not a folder; memgit keeps daily logs in "
        "memory/YYYY-MM-DD.md (rename that file, e.g. `git mv memory memory.md`)"
    ]
    assert snapshot(memory_file) == before


# ------------------------------------------------------------------ 2. read-only .git folders


def test_read_only_data_dir_refuses_before_appending(workspace: Path) -> None:
    data = workspace / ".git" / "memgit"
    data.mkdir(exist_ok=True)
    before = snapshot(workspace)
    with read_only(data):
        for args in (("remember", "x"), ("remember", "x", "--commit"), ("log", "--json", "x")):
            one_error(unprivileged(workspace, *args), "cannot create the lock file", str(data), "nothing was written")
    assert snapshot(workspace) == before


def test_read_only_git_dir_without_data_dir_refuses_before_appending(workspace: Path) -> None:
    gitdir = workspace / ".git"
    shutil.rmtree(gitdir / "memgit", ignore_errors=True)
    before = snapshot(workspace)
    with read_only(gitdir):
        line = one_error(unprivileged(workspace, "remember", "x", "--commit"), "cannot create the lock file")
    assert f"needs write access to {gitdir}:" in line
    assert snapshot(workspace) == before
    assert not (workspace / "memory" / Path(TODAY).name).exists()


# ------------------------------------------------------------------ 3. a commit git refuses


def test_failed_commit_is_one_line_and_keeps_the_text(workspace: Path) -> None:
    objects = workspace / ".git" / "objects"
    with read_only(objects, *(p for p in objects.iterdir() if p.is_dir())):
        line = one_error(
            unprivileged(workspace, "remember", "- kept despite git", "--commit"),
            f"the text was appended to {TODAY}",
            "git commit failed (error: insufficient permission",
            f"git add {TODAY} && git commit",
        )
    assert "fatal: adding files failed" not in line
    assert "- kept despite git\n" in (workspace / TODAY).read_text()
    # Nothing else changed: the log is the only new file, and the commit can be made now.
    assert git(workspace, "status", "--porcelain") == f"?? {TODAY}\n"
    assert memgit(workspace, "remember", "- next", "--commit").returncode == 0
    assert git(workspace, "status", "--porcelain") == ""


def test_a_stale_index_lock_is_named_in_one_line(workspace: Path) -> None:
    lock = workspace / ".git" / "index.lock"
    lock.touch()
    stale = time.time() - 600  # left ten minutes ago by a git that crashed: no retrying helps
    os.utime(lock, (stale, stale))
    try:
        one_error(
            memgit(workspace, "log", "- waits for the lock", "--commit"),
            "the text was appended",
            "fatal: Unable to create",
            "delete that file",
        )
    finally:
        lock.unlink()
    assert "- waits for the lock\n" in (workspace / TODAY).read_text()


def _conflicted_merge(root: Path) -> None:
    branch = git(root, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(root, "checkout", "-q", "-b", "side")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- side\n")
    commit_all(root, "side")
    git(root, "checkout", "-q", branch)
    write(root / "MEMORY.md", "# Long-term Memory\n\n- main\n")
    commit_all(root, "main")
    assert git(root, "merge", "side", check=False)  # stops on the conflict
    assert (root / ".git" / "MERGE_HEAD").exists()


@pytest.mark.parametrize("args", [("remember", "- mid-merge"), ("remember", "--long-term", "- mid-merge")])
def test_commit_during_a_merge_is_refused_before_writing(workspace: Path, args: tuple[str, ...]) -> None:
    _conflicted_merge(workspace)
    before = snapshot(workspace)
    one_error(memgit(workspace, *args, "--commit"), "cannot commit during a merge", "nothing was written")
    assert snapshot(workspace) == before
    assert not (workspace / TODAY).exists()
    # Without --commit the append is fine (it stays out of the merge's index).
    assert memgit(workspace, "log", "- noted mid-merge").returncode == 0
    assert git(workspace, "diff", "--cached", "--name-only", "--", TODAY) == ""


# ------------------------------------------------------------------ 4. concurrent --commit


def test_concurrent_remember_commit_all_succeed(workspace: Path) -> None:
    env = {**os.environ}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "memgit", "remember", f"- fact {i}", "--commit"],
            cwd=workspace,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(8)
    ]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    for code, out, err in results:
        assert code == 0, err
        assert "committed" in out and err == "", err
    head = git(workspace, "show", f"HEAD:{TODAY}")
    assert all(f"- fact {i}\n" in head for i in range(8)), head
    assert git(workspace, "status", "--porcelain") == ""
    commits = git(workspace, "log", "--format=%s", "-8").splitlines()
    assert commits == [f"memory: append to daily log {TODAY}"] * 8


# ------------------------------------------------------------------ 5. text that is not UTF-8


@pytest.mark.parametrize("command", ["remember", "log"])
def test_non_utf8_text_is_refused(workspace: Path, command: str) -> None:
    before = snapshot(workspace)
    bad = os.fsdecode(b"bad \xff")  # how a POSIX argv byte that is not UTF-8 reaches Python
    one_error(memgit(workspace, command, bad), "the text is not valid UTF-8")
    one_error(memgit(workspace, command, bad, "--commit"), "the text is not valid UTF-8")
    proc = subprocess.run(
        [sys.executable, "-m", "memgit", command, "-"],
        cwd=workspace,
        input=b"bad \xff\n",
        capture_output=True,
        timeout=300,
        check=False,
    )
    one_error(
        subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()),
        "the text is not valid UTF-8",
    )
    assert snapshot(workspace) == before


# ------------------------------------------------------------------ 6. init: check, then write


def test_init_with_a_read_only_gitattributes_creates_nothing(tmp_path: Path) -> None:
    target = tmp_path / "d"
    write(target / ".gitattributes", "*.png binary\n")
    with read_only(target / ".gitattributes"):
        one_error(unprivileged(tmp_path, "init", "d"), "cannot write", ".gitattributes", "changed nothing")
    assert sorted(p.name for p in target.iterdir()) == [".gitattributes"]
    assert (target / ".gitattributes").read_text() == "*.png binary\n"


def test_init_in_a_read_only_folder_creates_nothing(tmp_path: Path) -> None:
    parent = tmp_path / "ro"
    parent.mkdir()
    with read_only(parent):
        one_error(unprivileged(tmp_path, "init", "ro/new/deep"), "cannot write", "Permission denied")
    assert list(parent.iterdir()) == []


def test_init_adopting_with_a_read_only_memory_folder_creates_nothing(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "memory").mkdir(parents=True)
    git(root, "init", "-q")
    before = snapshot(root)
    with read_only(root / "memory"):
        one_error(unprivileged(root, "init"), "cannot write in", "memory", "changed nothing")
    assert snapshot(root) == before


def test_init_undoes_what_it_created_when_a_late_write_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a write fail after the checks (a full disk), what this run created goes again."""
    from memgit.errors import MemgitError
    from memgit.memory import init

    def full_disk(path: Path, text: str, undo: object) -> None:
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(init, "_append_attributes", full_disk)
    fresh = tmp_path / "fresh" / "ws"
    with pytest.raises(MemgitError, match="No space left on device.*changed nothing"):
        init.init_workspace(fresh)
    assert not (tmp_path / "fresh").exists()

    adopted = tmp_path / "adopted"
    adopted.mkdir()
    git(adopted, "init", "-q")
    write(adopted / ".gitattributes", "*.png binary\n")
    before = snapshot(adopted)
    with pytest.raises(MemgitError, match="No space left"):
        init.init_workspace(adopted)
    assert snapshot(adopted) == before
    assert not (adopted / "memory").exists()


# ------------------------------------------------------------------ 7. MEMGIT_NOW


@pytest.mark.parametrize("args", [("remember", "x"), ("log", "x", "--commit"), ("context",), ("context", "--json")])
def test_an_invalid_memgit_now_is_refused(workspace: Path, args: tuple[str, ...]) -> None:
    before = snapshot(workspace)
    one_error(memgit(workspace, *args, env={"MEMGIT_NOW": "garbage"}), "MEMGIT_NOW 'garbage' is not an ISO date")
    assert snapshot(workspace) == before


def test_a_valid_memgit_now_is_the_clock_of_remember_and_context(workspace: Path) -> None:
    env = {"MEMGIT_NOW": "2026-01-05T12:00:00"}
    proc = memgit(workspace, "remember", "- simulated day", env=env)
    assert proc.returncode == 0, proc.stderr
    day = date.fromisoformat(proc.stdout.split("memory/")[1][:10])
    assert abs((day - date(2026, 1, 5)).days) <= 1  # 12:00 UTC is 2026-01-05 in every zone but ±12-14 h
    proc = memgit(workspace, "context", "--scope", "group", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "- simulated day" in proc.stdout
    # --date still wins over MEMGIT_NOW.
    proc = memgit(workspace, "context", "--date", "2025-06-01", env={"MEMGIT_NOW": "garbage"})
    assert proc.returncode == 0, proc.stderr
