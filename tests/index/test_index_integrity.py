"""Index integrity (issue 9): every hit true to its commit, settings that do not flip between
environments, every path git can hold, failures that keep the index. Real git, real SQLite,
the real CLI in subprocesses, the tiny GGUF where vectors matter."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memgit.index.filter_sql import Filter
from memgit.index.layout import read_marker
from memgit.index.params import ALGORITHM_VERSION
from memgit.index.status import index_status
from memgit.recall.request import SearchRequest
from memgit.recall.search import Searcher
from memgit.workspace import Workspace
from tests.helpers import assert_clean_error, commit_all, git, memgit, run_async, write

BM25 = {"MEMGIT_EMBEDDING": "none"}


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from memgit.embed.tiny import write_tiny_bert_gguf

    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


def index(root: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    """`memgit index --verify --json`: must succeed and equal a full rebuild."""
    proc = memgit(root, "index", "--verify", "--json", *args, env=env or BM25)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    data = json.loads(proc.stdout)
    assert data["verify"]["ok"], data["verify"]
    return data


def search(root: Path, query: str, *args: str, env: dict[str, str] | None = None) -> dict:
    proc = memgit(root, "search", query, "--json", "-k", "20", "--mode", "bm25", *args, env=env or BM25)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return json.loads(proc.stdout)


def hit_paths(result: dict, word: str) -> set[str]:
    return {h["path"] for h in result["hits"] if word in h["text"]}


def data_dir(root: Path) -> Path:
    return root / ".git" / "memgit"


# -- 1. any path git can hold ----------------------------------------------------------------------
def test_a_file_name_that_is_not_utf8_is_indexed_under_a_lossless_name(workspace: Path) -> None:
    latin1 = Path(os.fsdecode(bytes(workspace / "memory") + b"/caf\xe9.md"))
    latin1.write_bytes(b"# Cafe\n\n- The kiwifruit supplier is in Nelson.\n")
    commit_all(workspace, "latin-1 name")
    data = index(workspace)
    assert data["mode"] == "full" and data["skipped"] == []
    assert hit_paths(search(workspace, "kiwifruit"), "kiwifruit") == {'"memory/caf\\351.md"'}  # git's own quoting
    # Later updates go on past it, and deleting it removes it.
    write(workspace / "memory" / "later.md", "- Walrusfeed arrives Tuesday.\n")
    commit_all(workspace, "later")
    assert index(workspace)["mode"] == "incremental"
    assert hit_paths(search(workspace, "walrusfeed"), "Walrusfeed") == {"memory/later.md"}
    latin1.unlink()
    commit_all(workspace, "remove it")
    data = index(workspace)
    assert data["files_removed"] == 1 and search(workspace, "kiwifruit")["hits"] == []


def test_orphan_branch_submodule_and_lfs_pointer(workspace: Path, tmp_path: Path) -> None:
    index(workspace)
    # A submodule under memory/ is a commit, not text: never indexed, never an error.
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    write(other / "inner.md", "- Submarinequokka lives in the submodule.\n")
    commit_all(other, "inner")
    git(workspace, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(other), "memory/sub")
    # A Git LFS pointer holds no memory text: skipped with the reason.
    write(
        workspace / "memory" / "big.md",
        "version https://git-lfs.github.com/spec/v1\noid sha256:" + "ab" * 32 + "\nsize 52428800\n",
    )
    commit_all(workspace, "submodule and lfs pointer")
    data = index(workspace)
    assert data["mode"] == "incremental"
    assert [s["path"] for s in data["skipped"]] == ["memory/big.md"] and "LFS" in data["skipped"][0]["reason"]
    assert search(workspace, "Submarinequokka")["hits"] == [] and search(workspace, "sha256")["hits"] == []
    # An orphan branch shares no history: checking it out swaps every file.
    git(workspace, "checkout", "-q", "--orphan", "fresh")
    git(workspace, "rm", "-rq", "--cached", ".")
    for path in ("MEMORY.md", "memory/2026-01-05.md", "memory/big.md", ".gitmodules"):
        (workspace / path).unlink()
    shutil.rmtree(workspace / "memory" / "sub")
    write(workspace / "MEMORY.md", "- Orphanocelot is the only fact here.\n")
    commit_all(workspace, "orphan root")
    data = index(workspace)
    assert data["mode"] == "incremental"
    assert hit_paths(search(workspace, "orphanocelot"), "Orphanocelot") == {"MEMORY.md"}
    assert search(workspace, "billing")["hits"] == []
    git(workspace, "checkout", "-q", "-f", "main")
    index(workspace)
    assert hit_paths(search(workspace, "billing"), "billing") == {"memory/2026-01-05.md"}
    assert search(workspace, "orphanocelot")["hits"] == []


def test_glob_classes_filter_search(workspace: Path) -> None:
    for day in ("2026-01-20", "2026-02-03", "2026-03-09"):
        write(workspace / "memory" / f"{day}.md", f"- Glob heron sighting on {day}.\n")
    commit_all(workspace, "three days")
    index(workspace)
    result = search(workspace, "heron", "--path", "memory/2026-0[12]-*.md")
    assert {h["path"] for h in result["hits"]} == {"memory/2026-01-20.md", "memory/2026-02-03.md"}
    result = search(workspace, "heron", "--path", "memory/2026-0[!12]-*.md")
    assert {h["path"] for h in result["hits"]} == {"memory/2026-03-09.md"}
    # The MCP tool's path filter takes the same globs.

    from tests.mcp.test_mcp import call, mcp_session, ok

    async def scenario() -> None:
        async with mcp_session(workspace) as session:
            found = ok(await call(session, "memory_search", {"query": "heron", "path": "memory/2026-0[12]-*.md"}))
            assert {h["path"] for h in found["hits"]} == {"memory/2026-01-20.md", "memory/2026-02-03.md"}

    run_async(scenario)


# -- 2. the index is a function of tree, config and version, not of the process ---------------------
def test_a_hook_never_rebuilds_it_says_one_is_due(workspace: Path) -> None:
    assert memgit(workspace, "hooks", "install").returncode == 0
    index(workspace)
    before = index_status(Workspace.discover(workspace))["indexed_tree"]
    write(workspace / "memgit.toml", "[chunking]\nmax_tokens = 40\n")
    git(workspace, "add", "memgit.toml")
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "smaller chunks"],
        cwd=workspace,
        capture_output=True,
        text=True,
        env={**os.environ, **BM25},
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "memgit" in line]
    assert len(lines) == 1 and "rebuild of the index is due (chunking settings changed)" in lines[0], proc.stderr
    st = index_status(Workspace.discover(workspace))
    assert st["indexed_tree"] == before and "chunking settings changed" in (st["needs_full_rebuild"] or "")
    data = index(workspace)
    assert (data["mode"], data["reason"]) == ("full", "chunking settings changed")


def test_an_upgrade_that_changes_the_rules_is_an_announced_rebuild(workspace: Path) -> None:
    index(workspace)
    db = data_dir(workspace) / "index.sqlite"
    conn = sqlite3.connect(db)
    params = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'params'").fetchone()[0])
    params["algorithm"] = 1  # as an older memgit would have recorded it
    conn.execute("UPDATE meta SET value = ? WHERE key = 'params'", (json.dumps(params, sort_keys=True),))
    conn.commit()
    conn.close()
    data = index(workspace)
    assert data["mode"] == "full" and f"indexing rules changed (version 1 -> {ALGORITHM_VERSION})" in data["reason"]
    # An index in the first schema (ids reused, a vec0 table) is recreated, with a notice.
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    conn.execute("INSERT INTO migrations VALUES ('001_initial', 0)")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.commit()
    conn.close()
    data = index(workspace)
    assert data["mode"] == "full" and any("older memgit" in n for n in data["notices"])
    assert hit_paths(search(workspace, "billing"), "billing") == {"memory/2026-01-05.md"}


# -- 3. one read transaction per search; hits true to their commit -----------------------------------
def test_mcp_hits_match_their_commit_while_a_writer_commits(workspace: Path) -> None:
    import anyio

    from tests.mcp.test_mcp import call, mcp_session, ok

    index(workspace)
    commits_before = int(git(workspace, "rev-list", "--count", "HEAD"))
    stop = workspace.parent / "stop"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(workspace), str(stop)],
        env={**os.environ, **BM25},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    checked = 0

    async def scenario() -> None:
        nonlocal checked
        async with mcp_session(workspace) as session:
            with anyio.fail_after(90):
                searches = 0
                # At least 40 searches, and on until the writer has committed a few times (a
                # server that starts fast could otherwise be done before the race begins).
                while searches < 40 or int(git(workspace, "rev-list", "--count", "HEAD")) < commits_before + 3:
                    searches += 1
                    result = ok(await call(session, "memory_search", {"query": "racefact round", "k": 8}))
                    for hit in result["hits"]:
                        if hit["source"] != "tree":
                            continue
                        shown = git(workspace, "show", f"{hit['commit']}:{hit['path']}").split("\n")
                        want = "\n".join(shown[hit["start_line"] - 1 : hit["end_line"]])
                        assert want.startswith(hit["snippet"]) and hit["snippet"], (hit, want)
                        checked += 1

    try:
        run_async(scenario)
    finally:
        stop.write_text("stop")
        out, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err
    assert int(out.strip()) >= 3, "the writer made too few commits to race with"
    assert checked > 20


WRITER = r"""
import pathlib, subprocess, sys
root, stop = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
rounds = 0
while not stop.exists() and rounds < 200:
    path = root / "memory" / "race.md"
    lines = [f"- racefact round {rounds} line {i} " + "word " * (rounds % 7) for i in range(rounds % 9 + 3)]
    path.write_text("# Race\n\n" + "\n".join(lines) + "\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-q", "-m", f"round {rounds}"], cwd=root, check=True)
    subprocess.run([sys.executable, "-m", "memgit", "index", "-q"], cwd=root, check=True)
    rounds += 1
print(rounds)
"""


# -- 4. work-tree rows never outlive their text -------------------------------------------------------
@pytest.mark.parametrize("discard", [["restore", "memory/2026-01-05.md"], ["stash", "-q"]])
def test_discarded_worktree_text_is_never_served(workspace: Path, discard: list[str]) -> None:
    index(workspace)
    log = workspace / "memory" / "2026-01-05.md"
    log.write_text(log.read_text() + "- Ephemeralwombat was only ever in the work tree.\n")
    data = index(workspace, "--worktree")
    assert data["overlay"] is True
    assert read_marker(Workspace.discover(workspace))[1] is True
    hits = search(workspace, "ephemeralwombat")["hits"]
    assert [(h["path"], h["source"]) for h in hits] == [("memory/2026-01-05.md", "worktree")]
    git(workspace, *discard)  # runs no hook
    assert search(workspace, "ephemeralwombat")["hits"] == []
    assert hit_paths(search(workspace, "billing"), "billing") == {"memory/2026-01-05.md"}
    st = index_status(Workspace.discover(workspace))
    assert st["worktree_overlay"] == [] and st["up_to_date"] is True


# -- 6. only corruption rebuilds; other failures are one line and keep the index ---------------------
def test_a_corrupt_index_is_rebuilt_with_a_notice(workspace: Path) -> None:
    index(workspace)
    db = data_dir(workspace) / "index.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    db.write_bytes(b"this is not a database at all" * 100)
    data = index(workspace)
    assert data["mode"] == "full" and any("rebuilding it" in n for n in data["notices"])
    assert hit_paths(search(workspace, "billing"), "billing") == {"memory/2026-01-05.md"}


def test_a_full_disk_keeps_the_index_and_says_so(workspace: Path) -> None:
    index(workspace)
    files_before = sorted(p.name for p in data_dir(workspace).iterdir())
    marker_before = (data_dir(workspace) / "indexed_tree").read_text()
    body = "\n\n".join(f"- Diskfull fact {i}: " + "lorem ipsum dolor sit amet " * 20 for i in range(400))
    write(workspace / "memory" / "bulk.md", body + "\n")
    commit_all(workspace, "bulk")
    size_kb = max(p.stat().st_size for p in data_dir(workspace).iterdir()) // 1024 + 16
    proc = subprocess.run(
        ["bash", "-c", f'ulimit -f {size_kb}; exec "$0" -m memgit index', sys.executable],
        cwd=workspace,
        capture_output=True,
        text=True,
        env={**os.environ, **BM25},
        timeout=300,
    )
    assert_clean_error(proc)
    assert len([line for line in proc.stderr.splitlines() if line.strip()]) == 1, proc.stderr
    assert "full" in proc.stderr or "too large" in proc.stderr.lower(), proc.stderr
    # Nothing was deleted, the old state still answers, and no marker claims the new tree.
    assert set(files_before) - {"indexed_tree"} <= {p.name for p in data_dir(workspace).iterdir()}
    marker = data_dir(workspace) / "indexed_tree"
    assert not marker.exists() or marker.read_text() == marker_before
    searcher = Searcher(Workspace.discover(workspace), auto_index=False)
    try:
        assert {h.path for h in searcher.search("billing", SearchRequest(mode="bm25")).hits} == {"memory/2026-01-05.md"}
    finally:
        searcher.close()
    data = index(workspace)  # with room again, the update lands
    assert data["mode"] == "incremental" and hit_paths(search(workspace, "diskfull"), "Diskfull") == {"memory/bulk.md"}


_HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
conn.execute("BEGIN " + sys.argv[2])
conn.execute("INSERT INTO meta SELECT * FROM meta WHERE 0")  # a write inside the held transaction
print("locked", flush=True)
sys.stdin.read()  # hold the lock until the test closes stdin
conn.execute("ROLLBACK")
"""


@pytest.mark.parametrize("mode", ["IMMEDIATE", "EXCLUSIVE"])
def test_a_write_lock_held_by_another_process_waits_then_says_so(workspace: Path, mode: str) -> None:
    """Another process (a real sqlite3 connection) holds a write transaction on the index:
    `memgit index` waits `[index] busy_timeout`, then prints one error line and keeps the index;
    `memgit search` waits as long, then answers from the last complete index with a notice."""
    import time

    index(workspace)
    write(workspace / "memgit.toml", "[index]\nbusy_timeout = 1.5\n")
    (workspace / ".git" / "info" / "exclude").write_text("memgit.toml\n")
    write(workspace / "memory" / "2026-01-06.md", "- The capybara is the largest living rodent.\n")
    commit_all(workspace, "new fact")
    db = data_dir(workspace) / "index.sqlite"
    marker_before = (data_dir(workspace) / "indexed_tree").read_text()
    tables = {row[0] for row in sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "meta" in tables, tables
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(db), mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.perf_counter()
        proc = memgit(workspace, "index", env=BM25)
        waited = time.perf_counter() - started
        assert_clean_error(proc, "locked by another process")
        assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert 1.5 <= waited < 30, waited  # the configured wait, not SQLite's default of 30 s
        marker = data_dir(workspace) / "indexed_tree"
        assert not marker.exists() or marker.read_text() == marker_before  # never claims the new tree

        started = time.perf_counter()
        found = search(workspace, "billing capybara")
        assert time.perf_counter() - started >= 1.5
        assert any("answering from its last complete state" in n and "locked" in n for n in found["notices"])
        assert hit_paths(found, "billing") == {"memory/2026-01-05.md"}
        assert hit_paths(found, "capybara") == set()  # the index is where it was
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        assert holder.wait(timeout=30) == 0
    data = index(workspace)  # the lock gone, the same update lands and equals a rebuild
    assert data["mode"] == "incremental"
    assert hit_paths(search(workspace, "capybara"), "capybara") == {"memory/2026-01-06.md"}


def test_busy_timeout_is_checked_like_every_setting(workspace: Path) -> None:
    write(workspace / "memgit.toml", "[index]\nbusy_timeout = -1\n")
    proc = memgit(workspace, "index", env=BM25)  # the default, with one warning naming the line
    assert proc.returncode == 0 and "memgit.toml:2: index.busy_timeout must not be negative" in proc.stderr


def _unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _unshare_works(), reason="needs `unshare -rm` (user and mount namespaces)")
def _run_with_read_only_data_dir(script: str, workspace: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run memgit in a user and mount namespace where `script` made the data dir read-only."""
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, sys.executable],
        cwd=workspace,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_a_read_only_data_dir_keeps_the_index_and_says_so(workspace: Path) -> None:
    index(workspace)
    before = {p.name: p.read_bytes() for p in data_dir(workspace).iterdir() if p.is_file()}
    write(workspace / "memory" / "new.md", "- Readonlyraccoon.\n")
    commit_all(workspace, "new")
    folder = data_dir(workspace)
    script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && exec "$0" -m memgit index'
    env = {**os.environ, **BM25}
    proc = _run_with_read_only_data_dir(script, workspace, env)
    assert_clean_error(proc)
    assert len([line for line in proc.stderr.splitlines() if line.strip()]) == 1, proc.stderr
    assert "read-only" in proc.stderr.lower() or "permission" in proc.stderr.lower(), proc.stderr
    after = {p.name: p.read_bytes() for p in data_dir(workspace).iterdir() if p.is_file()}
    assert after == before
    # Search on a read-only data dir answers from the index it has, and says why it is behind.
    script = script.replace("-m memgit index", "-m memgit search billing --json --mode bm25")
    proc = _run_with_read_only_data_dir(script, workspace, env)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert {h["path"] for h in result["hits"]} == {"memory/2026-01-05.md"}
    assert any("could not be updated" in n for n in result["notices"]), result["notices"]


# -- 7. vector files tied to the database -------------------------------------------------------------
def vector_paths_agree(root: Path) -> int:
    """The vector files (unfiltered) and the cache (filtered) rank alike."""
    searcher = Searcher(Workspace.discover(root), auto_index=False)
    try:
        plain = searcher.search("billing service notes", SearchRequest(k=100, mode="vector")).hits
        filtered = searcher.search(
            "billing service notes", SearchRequest(k=100, mode="vector", where=Filter.of("**"))
        ).hits
    finally:
        searcher.close()
    assert sorted((h.path, h.start_line) for h in plain) == sorted((h.path, h.start_line) for h in filtered)
    return len(plain)


KILL_AT = r"""
import os, signal, sys, importlib
module, name = sys.argv[1].rsplit(".", 1)
target = importlib.import_module(module)
def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
setattr(target, name, die)
from memgit.cli.main import main
sys.argv = ["memgit", "index"]
main()
"""


@pytest.mark.parametrize("kill_at", ["memgit.index.matrix.sync_vector_files", "memgit.index.layout.write_marker"])
def test_killed_between_the_sqlite_commit_and_the_vector_files_or_marker(
    workspace: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch, kill_at: str
) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))
    index(workspace, env=env)
    write(workspace / "memory" / "killed.md", "# Killed\n\nKillednarwhal notes about billing.\n")
    commit_all(workspace, "one more")
    proc = subprocess.run(
        [sys.executable, "-c", KILL_AT, kill_at],
        cwd=workspace,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == -9, proc.stderr
    ws = Workspace.discover(workspace)
    st = index_status(ws)
    assert st["indexed_tree"] == st["head_tree"]  # SQLite committed
    assert read_marker(ws)[0] is None  # but no marker claims it before the files are written
    # Stale vector files are never used: search falls back to the cache and agrees with it.
    assert vector_paths_agree(workspace) == st["counts"]["chunks"]
    data = index(workspace, env=env)  # the next run repairs the files (no sqlite-vec needed)
    assert data["mode"] == "noop" and read_marker(ws)[0] == st["head_tree"]
    assert vector_paths_agree(workspace) == st["counts"]["chunks"]


def test_verify_compares_the_vector_files(workspace: Path, tiny_model: Path) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    index(workspace, env=env)
    path = data_dir(workspace) / "vectors.f32"
    raw = bytearray(path.read_bytes())
    tail = np.frombuffer(bytes(raw[-4:]), dtype="<f4")[0]
    raw[-4:] = np.asarray([tail + 0.5], dtype="<f4").tobytes()  # one float of one vector
    path.write_bytes(bytes(raw))
    proc = memgit(workspace, "index", "--verify", env=env)
    assert_clean_error(proc, "verify failed")
    assert "vectors:" in proc.stderr and "differ" in proc.stderr
    # A full rebuild from the cache repairs them.
    assert index(workspace, "--full", env=env)["mode"] == "full"


def test_verify_reports_its_progress_through_every_cached_vector(
    workspace: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgit.index.verify import verify_index

    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))
    for n in range(40):  # more than one batch of 32 texts to embed again
        write(workspace / "memory" / f"2026-02-{n % 28 + 1:02d}-{n}.md", f"- fact {n}: Progressotter{n}.\n")
    commit_all(workspace, "many notes")
    index(workspace, env={"MEMGIT_MODEL": str(tiny_model)})
    calls: list[tuple[int, int]] = []
    report = verify_index(
        Workspace.discover(workspace), progress=lambda done, total: calls.append((done, total)), reembed=True
    )
    assert report.ok and report.vectors_checked > 32
    totals = {total for _, total in calls}
    assert len(totals) == 1 and len(calls) >= 2  # one total, reached in batches
    assert [done for done, _ in calls] == sorted(done for done, _ in calls) and calls[-1][0] == calls[-1][1]


def test_vector_files_of_a_recreated_database_are_never_used(
    workspace: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"MEMGIT_MODEL": str(tiny_model)}
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))
    index(workspace, env=env)
    keep = data_dir(workspace) / "keep.f32"
    shutil.copy(data_dir(workspace) / "vectors.f32", keep)
    db = data_dir(workspace) / "index.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    index(workspace, env=env)  # a new database: generation 1 again
    shutil.copy(keep, data_dir(workspace) / "vectors.f32")  # the old files, same generation number
    meta = dict(sqlite3.connect(db).execute("SELECT key, value FROM meta").fetchall())
    from memgit.index.vectors import VectorSet

    assert VectorSet.open(data_dir(workspace), meta["index_id"], int(meta["generation"])) is None
    vector_paths_agree(workspace)  # search ignores them
    assert index(workspace, env=env)["mode"] == "noop"  # and the next run rewrites them from the cache
    assert VectorSet.open(data_dir(workspace), meta["index_id"], int(meta["generation"])) is not None
