"""Edges of `memgit dream` and `memgit recalls publish`, end to end on real repositories: a dream
branch checked out in another worktree is never moved, a ledger target in the way leaves nothing
half-written, and malformed spool lines are never published."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.ledger import spool as recall_spool
from memgit.ledger.lines import parse_line
from tests.dream.test_dream import BM25, BRANCH, DAYS, NOW, dream, dreaming, recall, seed  # noqa: F401 - fixture
from tests.helpers import assert_clean_error, git, memgit, memgit_json, write
from tests.ledger.test_spool import initialised

LEDGER_DIR = "memory/.dreams/recall"
SPOOL_DIR = ".git/memgit/recall"


def spooled(workspace: Path) -> Path:
    """Committed notes, `memgit init` done, and three days of recalls in the spool (not published)."""
    root = initialised(workspace)
    seed(root)
    recall(root)
    assert sorted(p.name for p in (root / SPOOL_DIR).iterdir()) == [f"{d}.jsonl" for d in DAYS]
    return root


# -- bug 1: a branch checked out in another worktree ----------------------------------------------
def test_force_refuses_a_dream_branch_checked_out_in_another_worktree(dreaming: Path, tmp_path: Path) -> None:  # noqa: F811
    assert dream(dreaming)["branch"] == BRANCH
    other = tmp_path / "wt"
    git(dreaming, "worktree", "add", "-q", str(other), BRANCH)
    with (other / "MEMORY.md").open("a") as handle:
        handle.write("- my own edit on the dream branch\n")
    git(other, "commit", "-q", "-am", "mine")
    tip = git(other, "rev-parse", "HEAD").strip()
    index = git(other, "ls-files", "-s")
    for args in (("--force",), ()):
        proc = memgit(dreaming, "dream", "--now", NOW, *args, env=BM25)
        assert_clean_error(proc, f"branch {BRANCH} is checked out at {other}")
        assert len([ln for ln in proc.stderr.splitlines() if ln.startswith("memgit: error:")]) == 1
        assert git(dreaming, "rev-parse", BRANCH).strip() == tip
        assert git(other, "ls-files", "-s") == index and git(other, "status", "--porcelain") == ""
    # Another name still works, and the worktree's branch stays where its owner put it.
    assert dream(dreaming, "--branch", "memgit/dream/other")["branch"] == "memgit/dream/other"
    assert git(dreaming, "rev-parse", BRANCH).strip() == tip


def test_force_refuses_the_branch_checked_out_in_the_main_worktree(dreaming: Path) -> None:  # noqa: F811
    assert memgit(dreaming, "recalls", "publish", env=BM25).returncode == 0  # the ledger in the base
    base = git(dreaming, "rev-parse", "HEAD").strip()
    assert dream(dreaming)["branch"] == BRANCH
    git(dreaming, "checkout", "-q", BRANCH)
    tip = git(dreaming, "rev-parse", "HEAD").strip()
    proc = memgit(dreaming, "dream", "--now", NOW, "--force", "--base", base, env=BM25)
    assert_clean_error(proc, f"branch {BRANCH} is checked out at")
    assert git(dreaming, "rev-parse", "HEAD").strip() == tip and git(dreaming, "status", "--porcelain") == ""


# -- bug 2: a ledger target that is not a regular file --------------------------------------------
@pytest.mark.parametrize("blocker", ["folder", "parent-file"])
def test_publish_with_a_target_in_the_way_writes_nothing(workspace: Path, blocker: str) -> None:
    root = spooled(workspace)
    if blocker == "folder":
        (root / LEDGER_DIR / f"{DAYS[1]}.jsonl").mkdir(parents=True)  # the second of three targets
        needle = f"{LEDGER_DIR}/{DAYS[1]}.jsonl is not a regular file"
    else:
        write(root / "memory/.dreams", "a file where the ledger's folder goes\n")
        needle = "memory/.dreams is not a folder"
    status = git(root, "status", "--porcelain", "--untracked-files=all")
    head = git(root, "rev-parse", "HEAD").strip()
    spool = {p.name: p.read_bytes() for p in (root / SPOOL_DIR).iterdir()}
    proc = memgit(root, "recalls", "publish", env=BM25)
    assert_clean_error(proc, needle)
    assert git(root, "status", "--porcelain", "--untracked-files=all") == status
    assert git(root, "rev-parse", "HEAD").strip() == head
    ledger = root / LEDGER_DIR
    assert not ledger.is_dir() or not [p for p in ledger.iterdir() if p.is_file()]
    assert {p.name: p.read_bytes() for p in (root / SPOOL_DIR).iterdir()} == spool


def test_a_failed_write_undoes_the_files_already_written(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails after the checks (a full disk) restores the files and removes new folders."""
    root = spooled(workspace)
    status = git(root, "status", "--porcelain", "--untracked-files=all")
    real = recall_spool.append_payload
    calls = []

    def failing(existing: bytes, lines: list[str]) -> bytes:
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(existing, lines)

    monkeypatch.setattr(recall_spool, "append_payload", failing)
    with pytest.raises(recall_spool.PublishRefused, match="No space left on device"):
        recall_spool.stage(root, root / ".git", root / ".git/memgit")
    assert len(calls) == 2
    assert git(root, "status", "--porcelain", "--untracked-files=all") == status
    assert not (root / LEDGER_DIR).exists()


# -- bug 3: malformed spool lines -----------------------------------------------------------------
def test_publish_drops_malformed_spool_lines_and_says_how_many(workspace: Path) -> None:
    root = spooled(workspace)
    spool = root / SPOOL_DIR / f"{DAYS[2]}.jsonl"
    good = spool.read_bytes()
    torn = b'{"t":BROKEN\n\xff\xfe x\n'
    bad_utf8 = (
        b'{"t":"2026-03-04T10:00:00+00:00","q":"abc","path":"memory/2026-02-02.md",'
        b'"lines":[1,2],"score":1,"query":"\xff"}\n'
    )
    spool.write_bytes(good + torn + bad_utf8)
    proc = memgit(root, "recalls", "publish", "--json", env=BM25)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["dropped"] == 3 and out["commit"]
    warnings = [ln for ln in proc.stderr.splitlines() if ln.startswith("memgit: warning:")]
    assert len(warnings) == 1 and "dropped 3 malformed" in warnings[0], proc.stderr
    for name in out["paths"]:
        data = git(root, "show", f"HEAD:{name}")
        assert data and all(parse_line(line) is not None for line in data.splitlines())
    assert not any((root / SPOOL_DIR).iterdir())  # the malformed lines left the spool too
    assert "malformed" not in json.dumps(dream(root)["notices"])
    # Only malformed lines: nothing to commit, the spool is emptied, the warning says so.
    head = git(root, "rev-parse", "HEAD").strip()
    spool.write_bytes(torn)
    again = memgit(root, "recalls", "publish", env=BM25)
    assert again.returncode == 0 and "dropped 2 malformed" in again.stderr, again.stderr
    assert git(root, "rev-parse", "HEAD").strip() == head and not spool.exists()


def test_remember_commit_says_when_it_dropped_malformed_spool_lines(workspace: Path) -> None:
    root = spooled(workspace)
    spool = root / SPOOL_DIR / f"{DAYS[2]}.jsonl"
    spool.write_bytes(spool.read_bytes() + b'{"t":BROKEN\n')
    proc = memgit(root, "remember", "Droppedlinemarmot noted.", "--commit", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "dropped 1 malformed recall line(s)" in proc.stderr, proc.stderr
    assert "Droppedlinemarmot" in git(root, "show", "HEAD", "--", ".")
    assert not spool.exists()


def test_a_line_separator_inside_a_query_is_one_ledger_line(workspace: Path) -> None:
    root = spooled(workspace)
    memgit(root, "recalls", "publish", env=BM25)
    proc = memgit(root, "search", "staging\u2028password", "--now", f"{DAYS[0]}T13:00:00+00:00", env=BM25)
    assert proc.returncode == 0, proc.stderr
    out = memgit_json(root, "recalls", "publish")
    assert out["lines"] >= 1 and out["dropped"] == 0


@pytest.mark.parametrize("name", ["@", "HEAD", "refs/heads/zz", "-x", "a..b", "a b"])
def test_dream_branch_names_that_git_would_read_otherwise_are_refused(dreaming: Path, name: str) -> None:  # noqa: F811
    before = git(dreaming, "for-each-ref", "--format=%(refname)")
    proc = memgit(dreaming, "dream", "--now", NOW, "--branch", name, env=BM25)
    assert_clean_error(proc, "--branch")
    assert proc.stderr.count("memgit: error:") == 1
    assert git(dreaming, "for-each-ref", "--format=%(refname)") == before
