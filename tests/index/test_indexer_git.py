"""The index follows real git operations: every update equals a full rebuild (`--verify`).

Each scenario runs real git in a temporary repository and the real `memgit` CLI in a
subprocess; BM25-only unless a test embeds with the tiny random-weight GGUF.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memgit.errors import IndexLocked
from memgit.index.filter_sql import Filter
from memgit.index.lock import index_lock
from memgit.index.settings import UpdateSettings
from memgit.index.status import index_status
from memgit.index.update import CHEAPER, update_index
from memgit.index.verify import verify_index
from memgit.recall.request import SearchRequest
from memgit.recall.search import Searcher
from memgit.workspace import Workspace
from tests.helpers import commit_all, git, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none"}


# -- helpers -----------------------------------------------------------------------------------
def index(root: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    """`memgit index --verify --json`: must succeed and equal a full rebuild."""
    proc = memgit(root, "index", "--verify", "--json", *args, env=env or BM25)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(proc.stdout)
    assert data["verify"]["ok"], data["verify"]
    assert data["verify"]["tree"] == (head_tree(root) if "--worktree" not in args else data["tree"])
    return data


def search(root: Path, query: str, *args: str, env: dict[str, str] | None = None, mode: str = "bm25") -> dict:
    """The real CLI search (used where the JSON output itself is under test)."""
    proc = memgit(root, "search", query, "--json", "-k", "20", "--mode", mode, *args, env=env or BM25)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return json.loads(proc.stdout)


def hits(root: Path, query: str) -> list[dict]:
    """BM25 hits from the index as it is (in-process, no auto-indexing: tests what `index` did)."""
    searcher = Searcher(Workspace.discover(root), embedder=None, auto_index=False)
    try:
        return searcher.search(query, SearchRequest(k=20, mode="bm25")).to_dict()["hits"]
    finally:
        searcher.close()


def found(root: Path, word: str) -> set[str]:
    """Paths of hits whose text holds `word`."""
    return {h["path"] for h in hits(root, word) if word in h["text"]}


def head_tree(root: Path) -> str:
    return git(root, "rev-parse", "HEAD^{tree}").strip()


def head(root: Path) -> str:
    return git(root, "rev-parse", "HEAD").strip()


def status(root: Path) -> dict:
    return index_status(Workspace.discover(root))


@pytest.fixture
def repo(workspace: Path) -> Path:
    """The committed workspace, indexed once."""
    data = index(workspace)
    assert data["mode"] == "full" and data["reason"] == "new index"
    assert data["files_indexed"] == 2
    return workspace


# -- everyday operations -------------------------------------------------------------------------
def test_commit_adds_and_edits(repo: Path) -> None:
    write(repo / "memory" / "projects.md", "# Projects\n\n- Zanzibarquux launch is next week.\n")
    commit_all(repo, "add projects")
    data = index(repo)
    assert (data["mode"], data["changed_paths"], data["files_indexed"]) == ("incremental", 1, 1)
    assert found(repo, "Zanzibarquux") == {"memory/projects.md"}
    hit = hits(repo, "Zanzibarquux")[0]
    assert (hit["start_line"], hit["end_line"]) == (1, 3)
    assert hit["commit"] == head(repo) and hit["source"] == "tree"

    write(repo / "memory" / "projects.md", "# Projects\n\n- Marmalizard replaced the old plan.\n")
    commit_all(repo, "edit projects")
    assert index(repo)["mode"] == "incremental"
    assert found(repo, "Marmalizard") == {"memory/projects.md"}
    assert found(repo, "Zanzibarquux") == set()
    # Nothing changed since: a no-op.
    assert index(repo)["mode"] == "noop"


def test_amend(repo: Path) -> None:
    write(repo / "memory" / "a.md", "Gloriphant was decided.\n")
    commit_all(repo, "a")
    index(repo)
    assert found(repo, "Gloriphant") == {"memory/a.md"}
    write(repo / "memory" / "a.md", "Tremblewick was decided instead.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--amend", "-m", "a (amended)")
    data = index(repo)
    assert data["mode"] == "incremental" and data["commit"] == head(repo)
    assert found(repo, "Tremblewick") == {"memory/a.md"}
    assert found(repo, "Gloriphant") == set()


def test_merge_clean_and_conflicted(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo / "memory" / "feature.md", "Featurewombat notes.\n")
    write(repo / "MEMORY.md", "# Long-term Memory\n\n- The user prefers mate over coffee.\n")
    commit_all(repo, "feature work")
    git(repo, "checkout", "-q", "main")
    write(repo / "memory" / "mainline.md", "Mainlinebadger notes.\n")
    commit_all(repo, "main work")
    index(repo)
    git(repo, "merge", "-q", "--no-edit", "feature")
    data = index(repo)
    assert data["mode"] == "incremental"
    assert found(repo, "Featurewombat") == {"memory/feature.md"}
    assert found(repo, "Mainlinebadger") == {"memory/mainline.md"}
    assert found(repo, "mate") == {"MEMORY.md"}

    # A conflict: both branches change the same line of MEMORY.md.
    git(repo, "checkout", "-q", "-b", "other")
    write(repo / "MEMORY.md", "# Long-term Memory\n\n- The user prefers Rooibosqua tea.\n")
    commit_all(repo, "other side")
    git(repo, "checkout", "-q", "main")
    write(repo / "MEMORY.md", "# Long-term Memory\n\n- The user prefers Sencharoo tea.\n")
    commit_all(repo, "main side")
    index(repo)
    merge = subprocess.run(["git", "merge", "--no-edit", "other"], cwd=repo, capture_output=True, text=True)
    assert merge.returncode != 0 and "CONFLICT" in merge.stdout
    # Mid-conflict: HEAD did not move, the index holds; the work-tree overlay indexes the markers.
    assert index(repo, "--committed")["mode"] == "noop"
    overlay = index(repo, "--worktree")
    assert overlay["changed_paths"] >= 1
    assert found(repo, "Rooibosqua") == {"MEMORY.md"}
    hit = next(h for h in search(repo, "Rooibosqua")["hits"] if h["path"] == "MEMORY.md")  # through the CLI
    assert hit["source"] == "worktree" and hit["commit"] is None
    # Resolved: both facts kept.
    write(repo / "MEMORY.md", "# Long-term Memory\n\n- The user prefers Sencharoo tea, and Rooibosqua at night.\n")
    commit_all(repo, "merge other")
    assert len(git(repo, "rev-list", "--parents", "-n", "1", "HEAD").split()) == 3
    index(repo)
    resolved = hits(repo, "Sencharoo")
    assert [h["path"] for h in resolved] == ["MEMORY.md"]
    assert resolved[0]["source"] == "tree" and resolved[0]["commit"] == head(repo)
    assert "<<<<<<<" not in resolved[0]["text"]
    assert status(repo)["worktree_overlay"] == []


def test_rebase(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "topic")
    write(repo / "memory" / "topic.md", "Topicpangolin one.\n")
    commit_all(repo, "topic 1")
    write(repo / "memory" / "topic.md", "Topicpangolin one.\nTopicnarwhal two.\n")
    commit_all(repo, "topic 2")
    index(repo)
    git(repo, "checkout", "-q", "main")
    write(repo / "memory" / "upstream.md", "Upstreamotter.\n")
    commit_all(repo, "upstream")
    index(repo)
    assert found(repo, "Topicnarwhal") == set()
    git(repo, "checkout", "-q", "topic")
    git(repo, "rebase", "-q", "main")
    data = index(repo)
    assert data["mode"] == "incremental" and data["commit"] == head(repo)
    assert found(repo, "Topicnarwhal") == {"memory/topic.md"}
    assert found(repo, "Upstreamotter") == {"memory/upstream.md"}


def test_cherry_pick_and_revert(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "side")
    write(repo / "memory" / "picked.md", "Cherrymarmot fact.\n")
    picked = commit_all(repo, "pick me")
    write(repo / "memory" / "left.md", "Leftbehindyak fact.\n")
    commit_all(repo, "leave me")
    git(repo, "checkout", "-q", "main")
    index(repo)
    git(repo, "cherry-pick", picked)
    index(repo)
    assert found(repo, "Cherrymarmot") == {"memory/picked.md"}
    assert found(repo, "Leftbehindyak") == set()

    git(repo, "revert", "--no-edit", "HEAD")
    data = index(repo)
    assert data["files_removed"] == 1
    assert found(repo, "Cherrymarmot") == set()


def test_reset_hard_to_an_earlier_commit(repo: Path) -> None:
    start = head(repo)
    for i, word in enumerate(["Resetalpaca", "Resetbison", "Resetcoyote"]):
        write(repo / "memory" / f"r{i}.md", f"{word} fact.\n")
        write(repo / "MEMORY.md", (repo / "MEMORY.md").read_text() + f"- {word} line.\n")
        commit_all(repo, word)
        index(repo)
    git(repo, "reset", "-q", "--hard", "HEAD~2")
    data = index(repo)
    assert data["files_removed"] == 2
    assert found(repo, "Resetalpaca") == {"memory/r0.md", "MEMORY.md"}
    assert found(repo, "Resetbison") == found(repo, "Resetcoyote") == set()
    git(repo, "reset", "-q", "--hard", start)
    index(repo)
    assert found(repo, "Resetalpaca") == set()
    assert status(repo)["up_to_date"] is True


def test_checkout_another_branch(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "experiment")
    write(repo / "memory" / "experiment.md", "Branchiguana only here.\n")
    git(repo, "rm", "-q", "memory/2026-01-05.md")
    commit_all(repo, "experiment")
    index(repo)
    assert found(repo, "Branchiguana") == {"memory/experiment.md"}
    assert found(repo, "billing") == set()
    git(repo, "checkout", "-q", "main")
    index(repo)
    assert found(repo, "Branchiguana") == set()
    assert found(repo, "billing") == {"memory/2026-01-05.md"}


def test_rename_delete_and_mode_change(repo: Path) -> None:
    git(repo, "mv", "memory/2026-01-05.md", "memory/2026-01-06.md")
    commit_all(repo, "rename")
    data = index(repo)
    assert (data["files_indexed"], data["files_removed"]) == (1, 1)
    moved = hits(repo, "billing")
    assert [h["path"] for h in moved] == ["memory/2026-01-06.md"]
    assert moved[0]["day"] == "2026-01-06"
    assert moved[0]["blob"] == git(repo, "rev-parse", "HEAD:memory/2026-01-06.md").strip()

    (repo / "memory" / "2026-01-06.md").chmod(0o755)
    commit_all(repo, "chmod +x")
    assert "100755" in git(repo, "ls-tree", "HEAD", "memory/2026-01-06.md")
    data = index(repo)
    assert (data["mode"], data["changed_paths"]) == ("incremental", 1)
    assert found(repo, "billing") == {"memory/2026-01-06.md"}

    git(repo, "rm", "-q", "memory/2026-01-06.md")
    commit_all(repo, "delete")
    data = index(repo)
    assert (data["files_removed"], data["files_indexed"]) == (1, 0)
    assert found(repo, "billing") == set()
    assert status(repo)["counts"]["files"] == 1


def test_files_leaving_and_joining_memory(repo: Path) -> None:
    write(repo / "notes" / "draft.md", "Joiningheron draft.\n")
    write(repo / "memory" / "leaving.md", "Leavingfalcon fact.\n")
    commit_all(repo, "two files")
    index(repo)
    assert found(repo, "Leavingfalcon") == {"memory/leaving.md"}
    assert found(repo, "Joiningheron") == set()
    git(repo, "mv", "memory/leaving.md", "notes/leaving.md")
    git(repo, "mv", "notes/draft.md", "memory/draft.md")
    commit_all(repo, "swap")
    data = index(repo)
    assert (data["files_indexed"], data["files_removed"]) == (1, 1)
    assert found(repo, "Leavingfalcon") == set()
    assert found(repo, "Joiningheron") == {"memory/draft.md"}
    # Moving into a hidden folder under memory/ also takes a file out of memory.
    (repo / "memory" / ".dreams").mkdir()
    git(repo, "mv", "memory/draft.md", "memory/.dreams/draft.md")
    commit_all(repo, "hide")
    index(repo)
    assert found(repo, "Joiningheron") == set()


def test_symlinks_in_memory_are_skipped(repo: Path) -> None:
    write(repo / "notes" / "secret.md", "Symlinksecret outside memory.\n")
    (repo / "memory" / "link.md").symlink_to("../notes/secret.md")
    (repo / "memory" / "alias.md").symlink_to("2026-01-05.md")
    commit_all(repo, "links")
    assert git(repo, "ls-tree", "HEAD", "memory/link.md").startswith("120000")
    proc = memgit(repo, "index", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "memgit: warning: skipped memory/link.md: not a regular file (symlink)" in proc.stderr
    assert "memgit: warning: skipped memory/alias.md" in proc.stderr
    assert index(repo)["mode"] == "noop"
    assert found(repo, "Symlinksecret") == set()
    assert found(repo, "billing") == {"memory/2026-01-05.md"}  # not twice through the alias
    skipped = {s["path"] for s in status(repo)["skipped"]}
    assert skipped == {"memory/link.md", "memory/alias.md"}
    # The link becomes a regular file: indexed.
    (repo / "memory" / "link.md").unlink()
    write(repo / "memory" / "link.md", "Symlinkgone now a file.\n")
    commit_all(repo, "replace link")
    index(repo)
    assert found(repo, "Symlinkgone") == {"memory/link.md"}
    assert {s["path"] for s in status(repo)["skipped"]} == {"memory/alias.md"}


# -- settings and history changes force announced full rebuilds ---------------------------------
def test_changed_extra_paths_rebuilds(repo: Path) -> None:
    write(repo / "notes" / "idea.md", "Extrapathlemur idea.\n")
    commit_all(repo, "notes")
    index(repo)
    assert found(repo, "Extrapathlemur") == set()
    write(repo / "memgit.toml", '[memory]\nextra_paths = ["notes/**/*.md"]\n')
    commit_all(repo, "config")
    proc = memgit(repo, "index", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "memgit: notice: full rebuild: memory path settings changed" in proc.stderr
    assert "full index" in proc.stdout
    assert index(repo)["mode"] == "noop"
    assert found(repo, "Extrapathlemur") == {"notes/idea.md"}
    write(repo / "memgit.toml", "[memory]\nsessions = true\n")
    commit_all(repo, "config back")
    data = index(repo)
    assert (data["mode"], data["reason"]) == ("full", "memory path settings changed")
    assert found(repo, "Extrapathlemur") == set()


def test_changed_chunking_rebuilds(repo: Path) -> None:
    write(repo / "memory" / "long.md", "".join(f"- Chunkyaardvark fact number {i} is here.\n" for i in range(40)))
    commit_all(repo, "long")
    before = index(repo)
    chunks_before = status(repo)["counts"]["chunks"]
    write(repo / "memgit.toml", "[chunking]\nmax_tokens = 32\noverlap_tokens = 0\n")
    proc = memgit(repo, "index", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "full rebuild: chunking settings changed" in proc.stderr
    assert status(repo)["counts"]["chunks"] > chunks_before
    assert before["mode"] == "incremental"
    assert index(repo)["mode"] == "noop"
    small = hits(repo, "Chunkyaardvark")
    assert small and all(h["end_line"] - h["start_line"] < 5 for h in small)


def test_garbage_collected_indexed_tree(repo: Path) -> None:
    write(repo / "memory" / "gc.md", "Gcgerbil before amend.\n")
    commit_all(repo, "to be amended")
    old_tree = index(repo)["tree"]
    write(repo / "memory" / "gc.md", "Gcflamingo after amend.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--amend", "-m", "amended")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")
    assert subprocess.run(["git", "cat-file", "-e", old_tree], cwd=repo).returncode != 0
    st = status(repo)
    assert st["indexed_tree"] == old_tree
    assert "no longer in the repository" in st["needs_full_rebuild"]
    proc = memgit(repo, "index", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert f"full rebuild: indexed tree {old_tree[:12]} is no longer in the repository" in proc.stderr
    index(repo)
    assert found(repo, "Gcflamingo") == {"memory/gc.md"}
    assert found(repo, "Gcgerbil") == set()


# -- cost follows the diff -----------------------------------------------------------------------
def test_one_file_commit_in_a_large_workspace_is_incremental(workspace: Path) -> None:
    for i in range(200):
        write(workspace / "memory" / "topics" / f"t{i:03d}.md", f"# Topic {i}\n\n- fact {i} about item{i}.\n")
    commit_all(workspace, "200 files")
    first = index(workspace)
    assert first["files_indexed"] == 202
    write(workspace / "memory" / "topics" / "t100.md", "# Topic 100\n\n- Costfollowsdiff changed.\n")
    write(workspace / "notes.txt", "not memory")
    commit_all(workspace, "one memory file (and a non-memory file)")
    data = index(workspace)
    assert (data["mode"], data["changed_paths"], data["files_indexed"], data["files_removed"]) == (
        "incremental",
        1,
        1,
        0,
    )
    assert found(workspace, "Costfollowsdiff") == {"memory/topics/t100.md"}
    git(workspace, "rm", "-q", "memory/topics/t001.md")
    write(workspace / "memory" / "topics" / "new.md", "fresh\n")
    commit_all(workspace, "one in, one out")
    data = index(workspace)
    assert (data["changed_paths"], data["files_indexed"], data["files_removed"]) == (2, 1, 1)


# -- the work-tree overlay and status ------------------------------------------------------------
def test_worktree_overlay_kept_by_a_plain_index_dropped_by_committed(repo: Path) -> None:
    write(repo / "MEMORY.md", (repo / "MEMORY.md").read_text() + "- Uncommittedkoala preference.\n")
    write(repo / "memory" / "untracked.md", "Untrackedmoose idea.\n")
    (repo / "memory" / "2026-01-05.md").unlink()
    write(repo / "notes.md", "Notmemorytapir.\n")
    data = index(repo, "--worktree")
    assert data["mode"] == "incremental" and data["changed_paths"] == 3
    uncommitted = search(repo, "Uncommittedkoala")["hits"]  # through the CLI
    assert [h["path"] for h in uncommitted] == ["MEMORY.md"]
    assert uncommitted[0]["commit"] is None and uncommitted[0]["source"] == "worktree"
    blob = subprocess.run(["git", "hash-object", "MEMORY.md"], cwd=repo, capture_output=True, text=True).stdout
    assert uncommitted[0]["blob"] == blob.strip()
    assert found(repo, "Untrackedmoose") == {"memory/untracked.md"}
    assert found(repo, "billing") == set()  # deleted in the work tree
    assert found(repo, "Notmemorytapir") == set()
    st = status(repo)
    assert st["worktree_overlay"] == ["MEMORY.md", "memory/2026-01-05.md", "memory/untracked.md"]
    assert st["up_to_date"] is False
    # A plain update keeps them (searches include the work tree); `--committed` goes back to HEAD exactly.
    assert index(repo)["mode"] == "noop" and status(repo)["worktree_overlay"] == st["worktree_overlay"]
    data = index(repo, "--committed")
    assert data["mode"] == "incremental"
    assert found(repo, "Uncommittedkoala") == set()
    assert found(repo, "Untrackedmoose") == set()
    assert found(repo, "billing") == {"memory/2026-01-05.md"}
    hit = hits(repo, "tea")[0]
    assert hit["source"] == "tree" and hit["commit"] == head(repo)
    st = status(repo)
    assert st["worktree_overlay"] == [] and st["up_to_date"] is True


def test_status_pending(repo: Path) -> None:
    st = status(repo)
    assert st["indexed_tree"] == st["head_tree"] == head_tree(repo)
    assert st["pending"] == [] and st["up_to_date"] is True
    assert st["indexed_commit"] == st["head_commit"] == head(repo)
    write(repo / "memory" / "2026-01-05.md", "# changed\n")
    write(repo / "README.md", "not memory\n")
    commit_all(repo, "change")
    proc = memgit(repo, "status", "--json", env=BM25)
    assert proc.returncode == 0, proc.stderr
    st = json.loads(proc.stdout)
    assert st["head_tree"] == head_tree(repo) != st["indexed_tree"]
    assert st["pending"] == ["memory/2026-01-05.md"]
    assert st["up_to_date"] is False
    text = memgit(repo, "status", env=BM25)
    assert "1 memory files changed since indexing" in text.stdout and "pending memory/2026-01-05.md" in text.stdout
    index(repo)
    st = status(repo)
    assert st["pending"] == [] and st["indexed_tree"] == st["head_tree"] and st["up_to_date"] is True


def test_status_before_any_index(workspace: Path) -> None:
    st = status(workspace)
    assert st["indexed_tree"] is None and st["head_tree"] == head_tree(workspace)
    assert st["pending"] == ["MEMORY.md", "memory/2026-01-05.md"]
    assert "no index yet" in st["needs_full_rebuild"]


# -- locking and concurrency ---------------------------------------------------------------------
def test_held_lock_fails_fast_in_process(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    ws = Workspace.discover(repo)
    with index_lock(ws):
        started = time.monotonic()
        with pytest.raises(IndexLocked, match="another memgit run is updating the index"):
            update_index(ws, UpdateSettings(lock_wait=0))
        assert time.monotonic() - started < 2
    # Released: the next update runs.
    assert update_index(ws, UpdateSettings(lock_wait=0)).mode == "noop"
    assert verify_index(ws).ok


def test_hook_asked_not_to_wait_gives_up_at_once(repo: Path) -> None:
    """The CLI's no-wait path (the git hook with MEMGIT_HOOK_LOCK_TIMEOUT=0): never blocks a commit."""
    write(repo / "memory" / "hooked.md", "Hookedferret.\n")
    commit_all(repo, "hooked")
    ws = Workspace.discover(repo)
    with index_lock(ws):
        started = time.monotonic()
        proc = memgit(repo, "hook", "post-commit", env={**BM25, "MEMGIT_HOOK_LOCK_TIMEOUT": "0"})
        assert time.monotonic() - started < 20
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "another memgit run is updating the index" in proc.stderr
    assert status(repo)["pending"] == ["memory/hooked.md"]
    assert index(repo)["changed_paths"] == 1


def test_search_answers_from_the_last_index_while_locked(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    write(repo / "memory" / "late.md", "Lockedlynx fact.\n")
    commit_all(repo, "late")
    ws = Workspace.discover(repo)
    with index_lock(ws):
        proc = memgit(repo, "search", "Lockedlynx", "--json", env=BM25)
        assert proc.returncode == 0, proc.stderr
        result = json.loads(proc.stdout)
        assert result["hits"] == []
        assert any("being updated by another run" in n for n in result["notices"])
        assert status(repo)["pending"] == ["memory/late.md"]
    after = search(repo, "Lockedlynx")  # the CLI's auto-index catches up afterwards
    assert [h["path"] for h in after["hits"]] == ["memory/late.md"]


def test_concurrent_index_runs_serialise(workspace: Path) -> None:
    for i in range(60):
        write(workspace / "memory" / f"c{i}.md", f"Concurrentquail {i}\n")
    commit_all(workspace, "many")
    env = {**os.environ, **BM25}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "memgit", "index", "--json"],
            cwd=workspace,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    modes = sorted(json.loads(out)["mode"] for out, _ in outs)
    assert modes == ["full", "noop"]
    index(workspace)
    assert len(found(workspace, "Concurrentquail")) == 20  # -k 20


def test_reader_thread_sees_complete_states_during_updates(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process: searches racing an update see either the old or the new index, never an error."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    from memgit.recall.search import Searcher

    ws = Workspace.discover(repo)
    errors: list[BaseException] = []
    counts: list[int] = []
    stop = threading.Event()

    def reader() -> None:
        searcher = Searcher(ws, embedder=None, auto_index=False)
        try:
            while not stop.is_set():
                counts.append(len(searcher.search("Racingnewt", SearchRequest(k=50, mode="bm25")).hits))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            searcher.close()

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for round_ in range(4):
            for i in range(30):
                write(repo / "memory" / f"race{i}.md", f"Racingnewt {round_} {i}\n")
            commit_all(repo, f"round {round_}")
            update_index(ws, embedder=None)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not errors, errors
    assert counts and set(counts) <= {0, 30}
    assert verify_index(ws, embedder=None).ok


# -- vectors with the tiny random-weight model -----------------------------------------------------
@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("llama_cpp")
    pytest.importorskip("gguf")
    from memgit.embed.tiny import write_tiny_bert_gguf

    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


def vector_hits_agree(root: Path) -> int:
    """Unfiltered vector search (the derived vector files) and filtered (SQLite) rank alike."""
    searcher = Searcher(Workspace.discover(root), auto_index=False)
    try:
        plain = searcher.search("billing service notes", SearchRequest(k=100, mode="vector")).hits
        filtered = searcher.search(
            "billing service notes", SearchRequest(k=100, mode="vector", where=Filter.of("**"))
        ).hits
    finally:
        searcher.close()
    assert sorted((h.path, h.start_line, h.end_line) for h in plain) == sorted(
        (h.path, h.start_line, h.end_line) for h in filtered
    )
    scores = {(h.path, h.start_line): h.vector_score for h in filtered}
    for h in plain:
        assert h.vector_score == pytest.approx(scores[(h.path, h.start_line)], abs=1e-3)
    return len(plain)


def test_git_operations_with_vectors(workspace: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))  # for the in-process searches
    data = index(workspace, env=env)
    assert data["mode"] == "full" and data["embedded"] == data["chunks"] > 0
    result = search(workspace, "billing service", env=env, mode="hybrid")
    assert result["mode"] == "hybrid" and result["hits"]
    assert all(h["vector_score"] is not None for h in result["hits"])
    assert not any("BM25 only" in n for n in result["notices"])
    vector = search(workspace, "anything at all", env=env, mode="vector")
    assert len(vector["hits"]) == status(workspace)["counts"]["chunks"]

    write(workspace / "memory" / "vec.md", "# Vectors\n\nVectorquetzal fact one.\n\n## More\n\nAnother line.\n")
    commit_all(workspace, "vec")
    data = index(workspace, env=env)
    assert data["mode"] == "incremental" and data["embedded"] == data["chunks"] == 2
    st = status(workspace)
    assert st["counts"]["vectors"] == st["counts"]["chunks"]
    assert st["model_id"].startswith("llama:tiny:")
    assert vector_hits_agree(workspace) == st["counts"]["chunks"]

    git(workspace, "mv", "memory/vec.md", "memory/vectors.md")  # same text: every vector from the cache
    commit_all(workspace, "rename")
    data = index(workspace, env=env)
    assert (data["embedded"], data["embeddings_cached"]) == (0, 2)
    assert found(workspace, "Vectorquetzal") == {"memory/vectors.md"}

    write(workspace / "memory" / "vectors.md", "# Vectors\n\nVectorokapi replaced it.\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "--amend", "-m", "amend")
    data = index(workspace, env=env)
    assert data["embedded"] == 1
    vector_hits_agree(workspace)
    git(workspace, "rm", "-q", "memory/2026-01-05.md")
    commit_all(workspace, "delete")
    index(workspace, env=env)
    assert vector_hits_agree(workspace) == status(workspace)["counts"]["chunks"]
    git(workspace, "reset", "-q", "--hard", "HEAD~1")
    data = index(workspace, env=env)
    assert data["embedded"] == 0  # restored text comes back from the cache
    st = status(workspace)
    assert st["counts"]["vectors"] == st["counts"]["chunks"]
    assert vector_hits_agree(workspace) == st["counts"]["chunks"]
    assert (workspace / ".git" / "memgit" / "vectors.f32").is_file()  # the unfiltered search used it

    # A run that cannot embed (another environment, no model) changes no vectors and rebuilds
    # nothing: it indexes the text and leaves the new chunks' vectors pending.
    vectors_before = st["counts"]["vectors"]
    no_model = {"MEMGIT_EMBEDDING": "none"}
    data = index(workspace, env=no_model)
    assert data["mode"] == "noop"
    write(workspace / "memory" / "later.md", "# Later\n\nPendingpangolin arrived without a model.\n")
    commit_all(workspace, "later")
    data = index(workspace, env=no_model)
    assert data["mode"] == "incremental" and data["embedded"] == 0
    assert data["model_id"] == st["model_id"] and data["pending_vectors"] == data["chunks"] == 1
    st = status(workspace)
    assert st["model_id"] == data["model_id"] and st["pending_vectors"] == 1
    assert st["counts"]["vectors"] == vectors_before == st["counts"]["chunks"] - 1
    assert vector_hits_agree(workspace) == vectors_before  # the files still serve every other vector
    assert found(workspace, "Pendingpangolin") == {"memory/later.md"}
    shown = memgit(workspace, "status", env=no_model)
    assert shown.returncode == 0 and "1 pending" in shown.stdout, shown.stdout
    # The next run that can embed fills what is pending, incrementally.
    data = index(workspace, env=env)
    # The text is as it was (noop); the fill phase publishes the pending vector.
    assert (data["mode"], data["vectors_filled"], data["embedded"], data["pending_vectors"]) == ("noop", 1, 1, 0)
    st = status(workspace)
    assert st["pending_vectors"] == 0 and st["counts"]["vectors"] == st["counts"]["chunks"]
    assert vector_hits_agree(workspace) == st["counts"]["chunks"]

    # Only `--full` (or memgit.toml) changes the model: rebuilt without one, the index adopts the
    # first model that loads, without rebuilding the text.
    data = index(workspace, "--full", env=no_model)
    assert data["mode"] == "full" and data["model_id"] is None
    assert status(workspace)["counts"]["vectors"] == 0
    assert not (workspace / ".git" / "memgit" / "vectors.f32").exists()
    data = index(workspace, env=env)
    assert data["mode"] == "incremental" and data["model_id"] == st["model_id"] and data["embedded"] == 0
    st = status(workspace)
    assert st["counts"]["vectors"] == st["counts"]["chunks"] and st["pending_vectors"] == 0
    assert vector_hits_agree(workspace) == st["counts"]["chunks"]


def test_killed_update_leaves_a_consistent_index(workspace: Path, tiny_model: Path) -> None:
    env = {**os.environ, "MEMGIT_MODEL": str(tiny_model)}
    index(workspace, env=env)
    old_tree = head_tree(workspace)
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()
    for i in range(300):
        body = "\n\n".join(
            f"crashnote{i}y{j} "  # each piece of a long line unique too (equal texts share one vector)
            + " ".join(words[(i + j + k) % len(words)] for k in range(112))
            + f" crashnote{i}x{j}"
            for j in range(3)
        )
        write(workspace / "memory" / "bulk" / f"n{i:03d}.md", body + "\n")
    commit_all(workspace, "bulk")
    total = 900

    cache = workspace / ".git" / "memgit" / "embed-cache.sqlite"

    def cached_rows() -> int:
        try:
            conn = sqlite3.connect(f"file:{cache}?mode=ro", uri=True, timeout=1)
            try:
                return conn.execute("SELECT count(*) FROM embeddings").fetchone()[0]
            finally:
                conn.close()
        except sqlite3.Error:
            return 0

    baseline = cached_rows()
    proc = subprocess.Popen(
        [sys.executable, "-m", "memgit", "index", "--full", "--json"],
        cwd=workspace,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and cached_rows() < baseline + 64:
        time.sleep(0.01)
    assert proc.poll() is None, "the update finished before it could be killed; give it more work"
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    embedded_before_kill = cached_rows() - baseline
    assert 64 <= embedded_before_kill < total

    # The index is still the old, complete one.
    conn = sqlite3.connect(workspace / ".git" / "memgit" / "index.sqlite")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    st = status(workspace)
    assert st["indexed_tree"] == old_tree and len(st["pending"]) == 300
    # The rerun does not hang on the dead run's lock and embeds only what is missing.
    data = index(workspace, env=env)
    # 300 of 302 files changed: applied as the rebuild it equals, which is cheaper.
    # A paragraph longer than the model's window is several chunks (issue 34): count them.
    conn = sqlite3.connect(workspace / ".git" / "memgit" / "index.sqlite")
    bulk = conn.execute("SELECT count(*) FROM chunks WHERE path LIKE 'memory/bulk/%'").fetchone()[0]
    conn.close()
    assert bulk >= total
    others = data["chunks"] - bulk  # the rebuild adds the two files the kill did not touch too
    assert data["mode"] == "full" and data["reason"].endswith(CHEAPER) and 0 < others < 10
    assert data["embeddings_cached"] >= embedded_before_kill + others
    assert data["embedded"] == data["chunks"] - data["embeddings_cached"] < bulk
    assert found(workspace, "crashnote299x2") == {"memory/bulk/n299.md"}
