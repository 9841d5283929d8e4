"""A diff that touches most indexed files is applied as a rebuild (the same index, cheaper to
write), also from a hook, which otherwise never rebuilds."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from memgit.index.update import CHEAPER, REBUILD_MIN_PATHS
from tests.helpers import commit_all, git, memgit, memgit_json, write

BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1"}


def _notes(root: Path, count: int, word: str) -> None:
    for i in range(count):
        write(root / "memory" / "notes" / f"n{i:03d}.md", f"# note {i}\n\n- the {word} of item {i}\n")


def test_most_files_changed_is_a_rebuild_and_a_few_is_a_diff(workspace: Path) -> None:
    count = REBUILD_MIN_PATHS + 10
    _notes(workspace, count, "heron")
    commit_all(workspace, "notes")
    assert memgit_json(workspace, "index", env=BM25)["mode"] == "full"

    _notes(workspace, count, "osprey")
    commit_all(workspace, "every note edited")
    report = memgit_json(workspace, "index", env=BM25)
    assert report["mode"] == "full" and report["reason"].endswith(CHEAPER)
    assert f"{count} paths changed of {count + 2} indexed" in report["reason"]
    assert memgit_json(workspace, "index", "--verify", env=BM25)["verify"]["ok"]

    write(workspace / "memory" / "notes" / "n000.md", "# note 0\n\n- the kite of item 0\n")
    commit_all(workspace, "one note")
    assert memgit_json(workspace, "index", env=BM25)["mode"] == "incremental"


def test_a_hook_takes_the_cheaper_rebuild(workspace: Path) -> None:
    count = REBUILD_MIN_PATHS + 4
    _notes(workspace, count, "heron")
    commit_all(workspace, "notes")
    assert memgit(workspace, "hooks", "install", env=BM25).returncode == 0
    assert memgit_json(workspace, "index", env=BM25)["mode"] == "full"
    _notes(workspace, count, "osprey")
    git(workspace, "add", "-A")
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "every note"],
        cwd=workspace,
        capture_output=True,
        text=True,
        env={**os.environ, **BM25},
    )
    assert proc.returncode == 0 and "rebuild of the index is due" not in proc.stderr, proc.stderr
    status = json.loads(memgit(workspace, "status", "--json", env=BM25).stdout)
    assert status["up_to_date"]
    hits = memgit_json(workspace, "search", "osprey", env=BM25)["hits"]
    assert len(hits) >= 5 and all("osprey" in h["text"] for h in hits)
