"""The site of the bundled example workspace, compared byte for byte with a checked-in tree.

Like pelican's `tests/output/basic`: any change to what the site shows for a fixed workspace shows up
here as a diff a reviewer reads. Regenerate with `MEMGIT_UPDATE_SNAPSHOTS=1 ./dev test
tests/site/test_site_snapshot.py` and review the diff before committing it.
"""

from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path

import pytest

from memgit.resources import shipped_dir
from tests.helpers import REPO_ROOT, commit_all, git
from tests.site.helpers import build, tree_bytes

ROOT = REPO_ROOT
SNAPSHOT = ROOT / "tests" / "snapshots" / "example-site"
VENDORED: dict[str, str] = {}


def test_example_workspace_site_matches_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = tmp_path / "workspace"
    shutil.copytree(ROOT / "examples" / "workspace", ws)
    git(ws, "init", "-q")
    for key in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(key, "2026-11-28T09:00:00+00:00")
    commit_all(ws, "example memory")
    out = tmp_path / "site"
    build(ws, out)
    built = tree_bytes(out)
    for name, source in VENDORED.items():  # vendored as is, not worth a second copy in the snapshot
        assert built.pop(name) == (shipped_dir("templates") / source).read_bytes()
    if os.environ.get("MEMGIT_UPDATE_SNAPSHOTS"):
        shutil.rmtree(SNAPSHOT, ignore_errors=True)
        for name, data in built.items():
            (SNAPSHOT / name).parent.mkdir(parents=True, exist_ok=True)
            (SNAPSHOT / name).write_bytes(data)
    expected = tree_bytes(SNAPSHOT)
    assert sorted(built) == sorted(expected)
    for name in expected:
        if built[name] != expected[name]:
            diff = difflib.unified_diff(
                expected[name].decode().splitlines(),
                built[name].decode().splitlines(),
                f"snapshot/{name}",
                f"built/{name}",
                lineterm="",
            )
            pytest.fail("\n".join(list(diff)[:60]))
