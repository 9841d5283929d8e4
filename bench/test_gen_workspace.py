"""Tests for bench/gen_workspace.py and the floor's pure parts (run: .venv/bin/python -m pytest bench/test_*.py -q)."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path

from bench.floor_bm25 import chunk_lines, fts_query
from bench.gen_workspace import generate, plan_files, split_commits


def head(repo: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()


def test_plan_is_deterministic_and_prefix_stable() -> None:
    small = plan_files(5, seed=3)
    large = plan_files(50, seed=3)
    assert small == large[:5]
    assert plan_files(5, seed=4) != small
    assert [f.path for f in small] == [f"memory/2025-01-0{d}.md" for d in range(1, 6)]
    for f in large:
        assert 800 <= len(f.text.encode()) <= 4200, (f.path, len(f.text))


def test_plan_overflows_into_notes() -> None:
    planned = plan_files(10, seed=0, start=dt.date(2025, 1, 1), end=dt.date(2025, 1, 7))
    assert sum(f.path.startswith("memory/notes/") for f in planned) == 3
    assert len({f.path for f in planned}) == 10
    assert planned[-1].date == dt.date(2025, 1, 8)


def test_split_commits_is_contiguous_and_even() -> None:
    planned = plan_files(7, seed=0)
    groups = split_commits(planned, 3)
    assert [len(g) for g in groups] == [3, 2, 2]
    assert [f for g in groups for f in g] == planned
    assert len(split_commits(planned, 100)) == 7


def test_generate_commits_deterministically(tmp_path: Path) -> None:
    a = generate(tmp_path / "a", 12, seed=1)
    b = generate(tmp_path / "b", 12, seed=1)
    assert head(a) == head(b)
    assert (a / "MEMORY.md").read_text().startswith("# Long-term Memory")
    assert len(list((a / "memory").glob("*.md"))) == 12
    status = subprocess.run(["git", "-C", str(a), "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == ""


def test_generate_spreads_over_commits(tmp_path: Path) -> None:
    repo = generate(tmp_path / "ws", 9, seed=0, commits=3)
    log = subprocess.run(
        ["git", "-C", str(repo), "log", "--format=%ad %s", "--date=short"], capture_output=True, text=True
    ).stdout.splitlines()
    assert log == [
        "2025-01-09 memory: 3 files (3/3)",
        "2025-01-06 memory: 3 files (2/3)",
        "2025-01-03 memory: 3 files (1/3)",
    ]


def test_chunk_lines_respects_size_and_overlap() -> None:
    lines = [f"line {i:03d} " + "x" * 91 for i in range(40)]  # 100 chars + newline each
    chunks = chunk_lines("m.md", lines, max_chars=1010, overlap_chars=202)
    assert chunks[0].start_line == 1 and chunks[0].end_line == 10
    assert chunks[1].start_line == 9  # two lines (202 chars) carried over
    assert chunks[-1].end_line == 40
    for c in chunks:
        assert c.text.split("\n") == lines[c.start_line - 1 : c.end_line]
        assert len(c.text) + 1 <= 1010


def test_chunk_lines_long_line_makes_progress() -> None:
    lines = ["short", "y" * 5000, "tail"]
    chunks = chunk_lines("m.md", lines, max_chars=1600, overlap_chars=320)
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 1), (2, 2), (3, 3)]


def test_fts_query_quotes_and_dedupes_words() -> None:
    got = fts_query("What did Caroline's mom say? What!")
    assert got == '"What" OR "did" OR "Caroline" OR "s" OR "mom" OR "say"'
    assert fts_query("?!") == ""
