"""Whether rows indexed from the work tree (`--worktree`, MCP appends) still match the files.

`git restore`, `git stash` and an editor's undo run no hook, so a search that finds work-tree
rows in the index re-checks each of those files first (a hash of a few files, no git process)
and re-indexes when any differs: discarded text is never served.
"""

from __future__ import annotations

from memgit.git import plumbing
from memgit.index.layout import cache_path, index_path
from memgit.index.store import CorruptIndex, IndexUnavailable, Store
from memgit.workspace import Workspace


def overlay_matches_worktree(ws: Workspace) -> bool:
    """True when every work-tree row holds exactly what its file holds now."""
    try:
        store = Store(index_path(ws), cache_path(ws), readonly=True, busy_timeout=ws.config.index.busy_timeout)
    except (CorruptIndex, IndexUnavailable):
        return False
    try:
        rows = store.worktree_files()
    finally:
        store.close()
    return all(_current_blob(ws, path) == blob for path, blob in rows.items())


def _current_blob(ws: Workspace, path: str) -> str:
    """The blob id the work tree's file would have; "" when it is gone or not a regular file
    (the form in which such rows are stored)."""
    full = ws.root / path
    if full.is_symlink() or not full.is_file():
        return ""
    try:
        return plumbing.blob_id_of(full.read_bytes())
    except OSError:
        return ""
