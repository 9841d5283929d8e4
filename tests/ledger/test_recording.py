"""The recall ledger end to end: what `memgit search` (single, --batch) and the MCP server record
(in the clone's spool), how it is switched off, how two clones merge it once published, and that it
is never searchable itself. Publishing itself is tested in tests/ledger/test_spool.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.ledger.lines import focus_lines, query_hash, text_hash
from memgit.ledger.read import parse_ledger
from tests.helpers import assert_clean_error, commit_all, git, memgit, write
from tests.mcp.test_mcp import call, mcp_session, ok, run

BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "0"}
LEDGER = "memory/.dreams/recall/2026-03-02.jsonl"
SPOOL = ".git/memgit/recall/2026-03-02.jsonl"


def ledger_lines(root: Path, rel: str = SPOOL) -> list[dict]:
    path = root / rel
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_search_records_each_hit_with_focus_and_hash(workspace: Path) -> None:
    proc = memgit(workspace, "search", "database migration", "--now", "2026-03-02T10:00:00+00:00", env=BM25)
    assert proc.returncode == 0, proc.stderr
    lines = ledger_lines(workspace)
    assert lines, "a search with hits writes ledger lines"
    first = lines[0]
    assert first["t"] == "2026-03-02T10:00:00+00:00"
    assert first["q"] == query_hash("database migration") and first["query"] == "database migration"
    assert first["path"] == "memory/2026-01-05.md"
    # The focus is the line that answers the query, and the hash is of that line as it is in the file.
    text = (workspace / "memory/2026-01-05.md").read_text().splitlines()
    start, end = first["focus"]
    assert start == end and "migration" in text[start - 1]
    assert first["hash"] == text_hash(text[start - 1])
    assert first["lines"][0] <= start <= first["lines"][1]
    # The ledger is never indexed: its own words are not found in it.
    again = json.loads(memgit(workspace, "search", first["q"], "--json", "--no-record", env=BM25).stdout)
    assert all(not h["path"].startswith("memory/.dreams") for h in again["hits"])
    assert len(ledger_lines(workspace)) == len(lines)  # --no-record wrote nothing
    assert git(workspace, "status", "--porcelain") == ""  # a search never dirties the work tree


def test_batch_records_every_query_and_switches_work(workspace: Path, tmp_path: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text("tea\nbilling service\n\nmigration\n")
    env = {**BM25, "MEMGIT_NOW": "2026-03-02T08:00:00"}
    assert memgit(workspace, "search", "--batch", str(queries), env=env).returncode == 0
    recorded = {line["query"] for line in ledger_lines(workspace) if "query" in line}
    assert recorded == {"tea", "billing service", "migration"}
    count = len(ledger_lines(workspace))
    assert memgit(workspace, "search", "tea", env={**env, "MEMGIT_NO_RECALL": "1"}).returncode == 0
    assert len(ledger_lines(workspace)) == count
    assert memgit(workspace, "search", "tea", env={**env, "MEMGIT_NO_RECALL": "true"}).returncode == 0
    assert len(ledger_lines(workspace)) == count
    write(workspace / "memgit.toml", "[dream]\nrecord = false\n")
    assert memgit(workspace, "search", "tea", env=env).returncode == 0
    assert len(ledger_lines(workspace)) == count
    write(workspace / "memgit.toml", "[dream]\nkeep_queries = false\n")
    assert memgit(workspace, "search", "tea", env=env).returncode == 0
    newest = ledger_lines(workspace)[-1]
    assert "query" not in newest and newest["q"] == query_hash("tea")


def test_bad_now_is_one_clean_error(workspace: Path) -> None:
    assert_clean_error(memgit(workspace, "search", "tea", "--now", "yesterday", env=BM25), "--now")
    assert_clean_error(memgit(workspace, "search", "tea", env={**BM25, "MEMGIT_NOW": "31/12/2026"}), "MEMGIT_NOW")
    assert not (workspace / "memory/.dreams").exists() and not (workspace / ".git/memgit/recall").exists()


def test_remember_commit_publishes_the_spool(workspace: Path) -> None:
    assert memgit(workspace, "search", "tea", "--now", "2026-03-02T09:00:00", env=BM25).returncode == 0
    proc = memgit(workspace, "remember", "--commit", "The user likes green tea.", env=BM25)
    assert proc.returncode == 0, proc.stderr
    changed = git(workspace, "show", "--name-only", "--format=", "HEAD").split()
    assert LEDGER in changed and "memory/" in " ".join(changed)
    assert git(workspace, "status", "--porcelain") == ""
    assert not (workspace / SPOOL).exists()  # published: the spool is empty
    assert json.loads(git(workspace, "show", f"HEAD:{LEDGER}").splitlines()[0])["query"] == "tea"


def test_ledger_of_two_clones_merges_without_conflict(workspace: Path, tmp_path: Path) -> None:
    assert memgit(workspace, "init").returncode == 0  # writes merge=union for the ledger
    commit_all(workspace, "init")
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(workspace), str(bare))
    a, b = tmp_path / "a", tmp_path / "b"
    git(tmp_path, "clone", "-q", str(bare), str(a))
    git(tmp_path, "clone", "-q", str(bare), str(b))
    for clone, query in ((a, "tea"), (b, "billing")):
        assert memgit(clone, "search", query, "--now", "2026-03-02T10:00:00", env=BM25).returncode == 0
        assert memgit(clone, "recalls", "publish", env=BM25).returncode == 0
    git(a, "push", "-q", "origin", "HEAD")
    git(b, "-c", "pull.rebase=false", "pull", "-q", "--no-edit", "origin", "main")
    assert "<<<<<<<" not in (b / LEDGER).read_text()
    queries = [line["query"] for line in ledger_lines(b, LEDGER)]
    assert "tea" in queries and "billing" in queries
    assert git(b, "status", "--porcelain") == ""


def test_parse_ledger_counts_malformed_lines() -> None:
    good = json.dumps(
        {
            "t": "2026-03-02T10:00:00+00:00",
            "q": "abc",
            "path": "memory/x.md",
            "lines": [1, 3],
            "focus": [2, 2],
            "hash": "h",
            "score": 0.5,
        }
    )
    text = "\n".join(
        [
            good,
            "{not json",
            json.dumps({"t": "x"}),
            good.replace('"lines":[1, 3]', '"lines":[3, 1]'),
            json.dumps({"t": "2026-03-02", "q": "a", "path": "../etc", "lines": [1, 1], "score": 1}),
            "",
        ]
    )
    read = parse_ledger([("memory/.dreams/recall/2026-03-02.jsonl", text)])
    assert len(read.recalls) == 2 and read.malformed == 3
    assert read.malformed_where == [f"memory/.dreams/recall/2026-03-02.jsonl:{n}" for n in (2, 3, 5)]


def test_focus_prefers_the_line_with_the_query_terms() -> None:
    text = "# Day\n\n- Went hiking.\n- The staging password rotates on Mondays.\n"
    assert focus_lines("when does the staging password rotate", text, 10)[:2] == (13, 13)
    assert focus_lines("zzz", "\n\n- only line\n", 1)[:2] == (3, 3)


def test_mcp_search_records_and_read_only_does_not(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_NO_RECALL", "0")  # the server inherits MEMGIT_* from the test

    async def scenario(*args: str) -> None:
        async with mcp_session(workspace, *args) as session:
            assert ok(await call(session, "memory_search", {"query": "database migration"}))["hits"]

    run(lambda: scenario("--read-only"))
    assert not (workspace / ".git/memgit/recall").exists()
    run(lambda: scenario())
    assert not (workspace / "memory/.dreams").exists()
    files = list((workspace / ".git/memgit/recall").glob("*.jsonl"))
    assert len(files) == 1
    lines = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert lines and lines[0]["query"] == "database migration" and lines[0]["path"] == "memory/2026-01-05.md"


def test_a_query_is_kept_once_per_search_and_capped(workspace: Path) -> None:
    """Issue 48: a 100 KB query was kept whole on every hit's line (a 601 KB spool, a 603 KB
    commit, union-merged forever). Now its text is on the search's first line, cut to 300
    characters, and dreaming's reader gives it back to every hit of the search by its hash."""
    for n in range(4):
        write(workspace / "memory" / f"2026-02-0{n + 1}.md", f"# day\n\n- The billing service note {n}.\n")
    commit_all(workspace, "notes")
    query = "billing service " + " ".join(f"word{i}" for i in range(12_000))  # ~100 KB
    assert len(query) > 100_000
    proc = memgit(workspace, "search", query, "-k", "5", "--now", "2026-03-02T10:00:00+00:00", env=BM25)
    assert proc.returncode == 0, proc.stderr
    lines = ledger_lines(workspace)
    assert len(lines) >= 3
    assert [("query" in line) for line in lines] == [True] + [False] * (len(lines) - 1)
    kept = lines[0]["query"]
    assert kept.startswith("billing service word0") and kept.endswith("…") and len(kept) <= 301
    assert {line["q"] for line in lines} == {query_hash(query)}
    assert (workspace / SPOOL).stat().st_size < 2_000
    assert memgit(workspace, "recalls", "publish", env=BM25).returncode == 0
    assert (workspace / LEDGER).stat().st_size < 2_000
    read = parse_ledger([(LEDGER, (workspace / LEDGER).read_text())])
    assert [r.query for r in read.recalls] == [kept] * len(lines)
