"""Whether rows indexed from the work tree (`--worktree`, MCP appends) still match the files, and a
new `git worktree`'s first index seeded from the main one's.

`git restore`, `git stash` and an editor's undo run no hook, so a search that finds work-tree
rows in the index re-checks each of those files first (a hash of a few files, no git process)
and re-indexes when any differs: discarded text is never served. A search that includes the work
tree (`[search] worktree`, the default) asks git once which memory files are uncommitted
(`worktree_needs_indexing`) and updates only when that is not what the index holds.
"""

from __future__ import annotations

from memgit.git import trees
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
        return trees.blob_id_of(full.read_bytes())
    except OSError:
        return ""


def seed_from_main(ws: Workspace) -> bool:
    """A new worktree (no index of its own yet) starts from a copy of the main worktree's index
    and its vector files, when there is one, so that its first update is the diff from that tree
    to its own (the text and vectors it shares are not written again): SQLite's backup copies one
    committed state while writers go on. The copy keeps the database's index id, which names
    vector files only within one data folder; files that do not match the copied generation are
    rewritten by the update, as after any interrupted one. Rows the main worktree indexed from
    its work tree fall back to the tree's version in that first update. Returns whether it copied."""
    import contextlib
    import shutil

    from memgit.index.layout import shared_dir
    from memgit.index.store import backend

    source_dir = shared_dir(ws)
    source = source_dir / "index.sqlite"
    target = index_path(ws)
    if ws.data_dir.resolve() == source_dir.resolve() or target.exists() or not source.is_file():
        return False
    module = backend().module
    partial = target.with_name(target.name + ".seed")
    try:
        src = module.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        try:
            dst = module.connect(str(partial))
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
        for name in ("vectors.f32", "vectors.delta", "bm25-words.bin"):
            if (source_dir / name).is_file():
                shutil.copyfile(source_dir / name, ws.data_dir / f"{name}.seed")
                (ws.data_dir / f"{name}.seed").replace(ws.data_dir / name)
        partial.replace(target)
    except (OSError, module.Error):
        with contextlib.suppress(OSError):
            partial.unlink()
        return False
    return True


def worktree_needs_indexing(ws: Workspace) -> bool:
    """True when the work tree's uncommitted memory files are not exactly the rows the index holds
    from the work tree (one `git status`, a hash of those few files): a search that includes the
    work tree then updates first, and otherwise answers at once. Also True when the index is
    behind HEAD while files are uncommitted (the update to HEAD must keep them)."""
    from memgit.index.layout import read_marker

    changed = {path for path in ws.git.worktree_changed_paths() if ws.is_memory_path(path)}
    try:
        store = Store(index_path(ws), cache_path(ws), readonly=True, busy_timeout=ws.config.index.busy_timeout)
    except (CorruptIndex, IndexUnavailable):
        return bool(changed)
    try:
        rows = store.worktree_files()
    finally:
        store.close()
    if set(rows) != changed:
        return True
    if not changed:
        return False
    probed = ws.git.probe_head()
    if probed is None or read_marker(ws)[0] != probed[1]:
        return True
    return any(_current_blob(ws, path) != blob for path, blob in rows.items())
