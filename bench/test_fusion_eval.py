"""Tests for bench/fusion_eval.py's corpus handling: a work folder left by an earlier run must be
measured as the documents installed now, and the report must say which documents those were."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.fusion_eval import build, fingerprint, rank_of

LONG = " ".join(["filler"] * 60)


def commits(repo: Path) -> int:
    out = subprocess.run(["git", "-C", str(repo), "rev-list", "--count", "HEAD"], capture_output=True, text=True)
    return int(out.stdout.strip())


def found(ws: Path, word: str) -> list[str]:
    """The files a BM25 search of the built workspace returns for one word."""
    out = subprocess.run(
        [sys.executable, "-m", "memgit", "search", "--json", "--mode", "bm25", "--no-record", "-k", "10", word],
        cwd=ws,
        capture_output=True,
        text=True,
        check=True,
    )
    return sorted({hit["path"] for hit in json.loads(out.stdout)["hits"]})


def test_an_old_work_folder_is_brought_in_line_with_the_installed_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    ws = tmp_path / "npm"
    build(ws, {"alpha": f"alpha parses zebras {LONG}", "beta": f"beta parses yaks {LONG}"})
    assert found(ws, "parses") == ["pkgs/alpha.md", "pkgs/beta.md"]

    # The packages changed since: alpha's README was rewritten, beta is gone, gamma is new.
    build(ws, {"alpha": f"alpha now herds llamas {LONG}", "gamma": f"gamma parses yaks {LONG}"})
    assert sorted(p.name for p in (ws / "pkgs").iterdir()) == ["alpha.md", "gamma.md"]
    assert found(ws, "parses") == ["pkgs/gamma.md"]
    assert found(ws, "llamas") == ["pkgs/alpha.md"]
    assert found(ws, "zebras") == []
    assert commits(ws) == 2

    # The same documents again: nothing to commit, nothing changes.
    build(ws, {"gamma": f"gamma parses yaks {LONG}", "alpha": f"alpha now herds llamas {LONG}"})
    assert commits(ws) == 2


def test_the_fingerprint_names_the_documents_not_their_order() -> None:
    docs = {"a": "one", "b": "two"}
    assert fingerprint(docs) == fingerprint({"b": "two", "a": "one"})
    assert fingerprint(docs) != fingerprint({"a": "one", "b": "two!"})
    assert fingerprint(docs) != fingerprint({"a": "one"})
    assert len(fingerprint(docs)) == 12


def test_a_hit_counts_at_the_rank_of_its_file_among_distinct_files() -> None:
    paths = ["pkgs/x.md", "pkgs/x.md", "pkgs/y.md", "pkgs/z.md"]
    assert rank_of(paths, "y") == 2
    assert rank_of(paths, "x") == 1
    assert rank_of(paths, "w") is None
