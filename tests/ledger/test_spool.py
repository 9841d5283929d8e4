"""The recall spool end to end: searches never dirty the work tree (so pull and checkout work), and
`memgit recalls publish` moves the lines into the tracked ledger crash-safely: only ledger paths
committed, a failed commit keeps the spool, a retry never duplicates, a half-done merge is refused."""

from __future__ import annotations

import json
from pathlib import Path

from memgit.ledger.spool import append_payload, has_conflict_markers, new_lines, remaining
from tests.dream.test_dream import BM25, NOW, recall, seed
from tests.helpers import assert_clean_error, commit_all, git, memgit, memgit_json, write

DAY = "2026-03-02"
LEDGER = f"memory/.dreams/recall/{DAY}.jsonl"
SPOOL = f".git/memgit/recall/{DAY}.jsonl"


def search(root: Path, query: str, day: str = DAY) -> None:
    proc = memgit(root, "search", query, "--now", f"{day}T10:00:00+00:00", env=BM25)
    assert proc.returncode == 0, proc.stderr


def spool_lines(root: Path) -> list[str]:
    path = root / SPOOL
    return path.read_text().splitlines() if path.exists() else []


def initialised(workspace: Path) -> Path:
    """The workspace after `memgit init` (merge=union for the ledger), committed."""
    assert memgit(workspace, "init").returncode == 0
    commit_all(workspace, "memgit init")
    return workspace


def test_searches_keep_the_tree_clean_so_pull_and_checkout_work(workspace: Path, tmp_path: Path) -> None:
    root = initialised(workspace)
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(root), str(bare))
    git(root, "remote", "add", "origin", str(bare))
    git(root, "fetch", "-q", "origin")
    git(root, "branch", "-q", "--set-upstream-to=origin/main")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(bare), str(other))
    # The other clone publishes today's ledger and pushes it ...
    search(other, "billing service")
    assert memgit(other, "recalls", "publish", env=BM25).returncode == 0
    git(other, "push", "-q", "origin", "main")
    # ... and a side branch here changes the same file.
    git(root, "checkout", "-q", "-b", "side")
    write(root / LEDGER, '{"hand":"written"}\n')
    commit_all(root, "side ledger")
    git(root, "checkout", "-q", "main")
    # Searches here record, yet the work tree stays clean: checkout and pull both go through.
    search(root, "tea")
    search(root, "database migration")
    assert len(spool_lines(root)) >= 2
    assert git(root, "status", "--porcelain") == ""
    git(root, "checkout", "-q", "side")
    git(root, "checkout", "-q", "main")
    git(root, "-c", "pull.rebase=false", "pull", "-q", "--no-edit")
    assert (root / LEDGER).exists() and git(root, "status", "--porcelain") == ""
    # Publishing lands this clone's lines after the pulled ones, in a commit of the ledger only.
    pulled = (root / LEDGER).read_text().splitlines()
    spooled = len(spool_lines(root))
    out = memgit_json(root, "recalls", "publish", "--json", env=BM25)
    assert out["lines"] == spooled and out["paths"] == [LEDGER]
    now = (root / LEDGER).read_text().splitlines()
    assert now[: len(pulled)] == pulled and len(now) == len(pulled) + out["lines"]
    assert {json.loads(line)["query"] for line in now[len(pulled) :]} == {"tea", "database migration"}


def test_publish_commits_only_ledger_paths_and_empties_the_spool(workspace: Path) -> None:
    root = initialised(workspace)
    search(root, "tea")
    search(root, "billing", day="2026-03-03")
    recorded = spool_lines(root)
    write(root / "memory/2026-01-05.md", "a dirty edit, not committed\n")
    write(root / "scratch.txt", "staged, not mine to commit\n")
    git(root, "add", "scratch.txt")
    head = git(root, "rev-parse", "HEAD").strip()
    out = memgit_json(root, "recalls", "publish", "--json", env=BM25)
    assert out["commit"] == git(root, "rev-parse", "HEAD").strip() != head
    assert out["paths"] == [LEDGER, "memory/.dreams/recall/2026-03-03.jsonl"] and out["pending"] == 0
    committed = sorted(git(root, "show", "--name-only", "--format=", "HEAD").split())
    assert committed == sorted(out["paths"])
    assert git(root, "show", f"HEAD:{LEDGER}").splitlines() == recorded
    assert not (root / ".git/memgit/recall").exists() or not list((root / ".git/memgit/recall").glob("*.jsonl"))
    status = git(root, "status", "--porcelain").splitlines()
    assert sorted(status) == [" M memory/2026-01-05.md", "A  scratch.txt"]  # left as they were
    again = memgit(root, "recalls", "publish", env=BM25)
    assert again.returncode == 0 and "nothing to publish" in again.stdout
    assert git(root, "rev-parse", "HEAD").strip() == out["commit"]


def test_status_counts_pending_recall_lines(workspace: Path) -> None:
    search(workspace, "tea")
    search(workspace, "database migration")
    pending = len(spool_lines(workspace))
    assert pending >= 2
    assert memgit_json(workspace, "status")["recall_pending"] == pending
    text = memgit(workspace, "status").stdout
    assert f"recalls:      {pending} recall line(s) not published" in text
    assert memgit(workspace, "recalls", "publish").returncode == 0
    assert memgit_json(workspace, "status")["recall_pending"] == 0
    assert "recalls:" not in memgit(workspace, "status").stdout


def test_failed_commit_keeps_the_spool_and_a_retry_never_duplicates(workspace: Path) -> None:
    root = initialised(workspace)
    search(root, "tea")
    search(root, "billing service")
    recorded = spool_lines(root)
    head = git(root, "rev-parse", "HEAD").strip()
    hook = root / ".git/hooks/pre-commit"
    write(hook, "#!/bin/sh\necho 'refused by the test hook' >&2\nexit 1\n")
    hook.chmod(0o755)
    proc = memgit(root, "recalls", "publish", env=BM25)
    assert_clean_error(proc, "refused by the test hook")
    assert "stay in the spool" in proc.stderr
    assert spool_lines(root) == recorded and git(root, "rev-parse", "HEAD").strip() == head
    assert git(root, "status", "--porcelain") == ""  # the tracked file and git's index restored
    hook.unlink()
    first = memgit_json(root, "recalls", "publish", "--json", env=BM25)
    assert first["lines"] == len(recorded) and git(root, "show", f"HEAD:{LEDGER}").splitlines() == recorded
    # A crash after the commit and before the spool was emptied: the same lines are back in the
    # spool, plus one recorded since. The retry publishes only the new one.
    write(root / SPOOL, "\n".join(recorded) + "\n")
    search(root, "migration")
    added = spool_lines(root)[len(recorded) :]
    second = memgit_json(root, "recalls", "publish", "--json", env=BM25)
    assert added and second["lines"] == len(added) and second["commit"]
    assert git(root, "show", f"HEAD:{LEDGER}").splitlines() == [*recorded, *added]
    assert spool_lines(root) == []
    # Only the old lines again: nothing to commit, the spool is simply emptied.
    write(root / SPOOL, "\n".join(recorded) + "\n")
    head = git(root, "rev-parse", "HEAD").strip()
    third = memgit(root, "recalls", "publish", env=BM25)
    assert third.returncode == 0 and "already committed" in third.stdout
    assert git(root, "rev-parse", "HEAD").strip() == head and spool_lines(root) == []


def test_publish_refuses_mid_merge_and_conflict_markers(workspace: Path) -> None:
    root = initialised(workspace)
    git(root, "checkout", "-q", "-b", "side")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- side\n")
    commit_all(root, "side")
    git(root, "checkout", "-q", "main")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- main\n")
    commit_all(root, "main")
    git(root, "merge", "-q", "side", check=False)
    assert (root / ".git/MERGE_HEAD").exists()
    search(root, "database migration")
    recorded = spool_lines(root)
    assert recorded
    assert_clean_error(memgit(root, "recalls", "publish", env=BM25), "during a merge")
    assert spool_lines(root) == recorded and not (root / LEDGER).exists()
    git(root, "merge", "--abort")
    # A ledger committed with conflict markers (no merge=union somewhere) is refused, not appended to.
    write(root / LEDGER, "<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> other\n")
    commit_all(root, "a bad merge")
    before = (root / LEDGER).read_text()
    assert_clean_error(memgit(root, "recalls", "publish", env=BM25), "conflict markers")
    assert (root / LEDGER).read_text() == before and spool_lines(root) == recorded
    # remember --commit still commits the note, says why the lines stayed, and keeps them.
    proc = memgit(root, "remember", "--commit", "Bob likes ten o'clock standups.", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "recall lines not published" in proc.stderr and spool_lines(root) == recorded
    assert git(root, "status", "--porcelain") == ""


def test_remember_commit_failure_keeps_the_spool(workspace: Path) -> None:
    search(workspace, "tea")
    recorded = spool_lines(workspace)
    hook = workspace / ".git/hooks/pre-commit"
    write(hook, "#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    proc = memgit(workspace, "log", "--commit", "A note.", env=BM25)
    assert_clean_error(proc, "git commit failed")
    assert spool_lines(workspace) == recorded and not (workspace / LEDGER).exists()
    hook.unlink()
    assert memgit(workspace, "log", "--commit", "Another note.", env=BM25).returncode == 0
    assert git(workspace, "show", f"HEAD:{LEDGER}").splitlines() == recorded and spool_lines(workspace) == []


def test_dream_counts_unpublished_spool_lines_once(workspace: Path) -> None:
    seed(workspace)
    recall(workspace)
    spool = workspace / ".git/memgit/recall"
    lines = sum(len(p.read_text().splitlines()) for p in spool.glob("*.jsonl"))
    unpublished = memgit_json(workspace, "dream", "--now", NOW, "--dry-run", env=BM25)
    assert unpublished["light"]["recalls"] == lines and [a["action"] for a in unpublished["actions"]] == ["promote"]
    saved = {p.name: p.read_bytes() for p in spool.glob("*.jsonl")}
    assert memgit(workspace, "recalls", "publish").returncode == 0
    for name, data in saved.items():  # the same lines both committed and spooled: counted once
        (spool / name).write_bytes(data)
    both = memgit_json(workspace, "dream", "--now", NOW, "--dry-run", env=BM25)
    assert both["light"]["recalls"] == lines
    # A base other than HEAD reads only what is committed there.
    git(workspace, "branch", "-q", "before", "HEAD~1")
    assert (
        memgit_json(workspace, "dream", "--now", NOW, "--dry-run", "--base", "before", env=BM25)["light"]["recalls"]
        == 0
    )


def test_pure_helpers() -> None:
    assert new_lines(["a", "b"], ["b", "c", "c", "d"]) == ["c", "d"]
    assert remaining(["a", "b", "a", "c"], ["a", "b"]) == ["a", "c"]
    assert append_payload(b"x", ["y"]) == b"\ny\n" and append_payload(b"", ["y", "z"]) == b"y\nz\n"
    assert append_payload(b"x\n", []) == b""
    assert has_conflict_markers("a\n<<<<<<< HEAD\n") and not has_conflict_markers('{"q":"<<<<<<<"}\n')


def test_searches_racing_with_publishes_lose_and_duplicate_nothing(workspace: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = initialised(workspace)
    queries = tmp_path / "queries.txt"
    queries.write_text("tea\nbilling service\ndatabase migration\nproduction\ncoffee\ntwelve minutes\n" * 3)
    env = {**os.environ, **BM25}
    searches = [
        subprocess.Popen(
            [sys.executable, "-m", "memgit", "search", "--batch", str(queries), "--now", f"{DAY}T10:00:0{n}+00:00"],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(4)
    ]
    while any(p.poll() is None for p in searches):  # publish again and again while they record
        assert memgit(root, "recalls", "publish", env=BM25).returncode == 0
    outputs = [p.communicate() for p in searches]
    assert all(p.returncode == 0 for p in searches), [err for _, err in outputs]
    final = memgit_json(root, "recalls", "publish", "--json", env=BM25)
    # Each process's repeated queries give identical lines (same --now): those count once.
    expected: set[tuple[str, str, int]] = set()
    for n, (stdout, _) in enumerate(outputs):
        for line in stdout.splitlines():
            result = json.loads(line)
            expected.update((f"{n}", result["query"], i) for i in range(len(result["hits"])))
    published = git(root, "show", f"HEAD:{LEDGER}").splitlines()
    assert len(published) == len(set(published)) == len(expected)
    assert spool_lines(root) == [] and final["pending"] == 0
    assert git(root, "status", "--porcelain") == ""
