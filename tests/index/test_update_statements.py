"""A one-file update costs statements in proportion to the diff, not to the workspace: the SQL an
update runs is counted (SQLite's own trace of every statement it starts, FTS5's internal ones
included) on a small and a ten times larger workspace, after the same one-file commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from memgit.index import store as store_module
from memgit.index.update import update_index
from memgit.workspace import Workspace
from tests.helpers import commit_all, git, write

#: Statements one one-file update may run (BM25 only). Measured: 46 (FTS5's own included): a delete or insert per
#: chunk of the changed file, the file row, meta, the vec0 bookkeeping, and opening the store.
MAX_STATEMENTS = 80


def workspace_of(root: Path, files: int) -> Workspace:
    root.mkdir()
    git(root, "init", "-q")
    for i in range(files):
        write(root / "memory" / "notes" / f"n{i:04d}.md", f"# note {i}\n\n- fact {i} about the kestrel pilot\n")
    write(root / "memory" / "2026-01-05.md", "# 2026-01-05\n\n- the changing file\n")
    commit_all(root, "notes")
    return Workspace.discover(root)


def statements_of_one_file_update(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    update_index(ws)
    write(ws.root / "memory" / "2026-01-05.md", "# 2026-01-05\n\n- the changing file\n- one more line\n")
    commit_all(ws.root, "one file")
    seen: list[str] = []
    original = store_module.Store.__init__

    def traced(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        original(self, *args, **kwargs)
        self.conn.set_trace_callback(seen.append)

    monkeypatch.setattr(store_module.Store, "__init__", traced)
    report = update_index(ws)
    monkeypatch.setattr(store_module.Store, "__init__", original)
    assert report.mode == "incremental" and report.changed_paths == 1
    return seen


def test_a_one_file_update_runs_the_same_statements_at_any_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    small = statements_of_one_file_update(workspace_of(tmp_path / "small", 30), monkeypatch)
    large = statements_of_one_file_update(workspace_of(tmp_path / "large", 300), monkeypatch)
    assert len(small) <= MAX_STATEMENTS, small
    assert len(large) == len(small), (len(small), len(large), sorted(set(large) ^ set(small)))
    # Nothing reads every file or every chunk (what a full scan would look like).
    for sql in large:
        upper = sql.upper()
        assert not upper.startswith("SELECT PATH, BLOB, MODE, SOURCE, SKIPPED FROM FILES") or "WHERE" in upper, sql
        assert "FROM CHUNKS" not in upper or "WHERE" in upper or "LIMIT" in upper or "COUNT" in upper, sql
