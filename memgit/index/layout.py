"""Where the per-clone index data lives, and the marker file that lets hooks skip SQLite.

Everything under `.git/memgit/` is derived and never committed. The marker names the tree the
index reflects; it is removed before an update changes anything and written only after the
update (SQLite commit, vector files fsynced) succeeded, so a marker never says "up to date"
about an index that is not.

The marker has one reader in Python, `read_marker_in`, which every hook reaches before it opens a
workspace (so this module imports nothing but the file helpers), and one in the shell hook
(`hooks/git-hook.sh`), which reads it the same way: the tree, then an optional ` worktree`.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.core.atomic import atomic_write

if TYPE_CHECKING:
    from memgit.workspace import Workspace

#: The marker's file name in the data dir (`.git/memgit/`), beside the database it speaks for.
MARKER_NAME = "indexed_tree"
DATABASE_NAME = "index.sqlite"

#: Suffix on the marker line while rows indexed from the work tree are in the index: the fast
#: "HEAD's tree is indexed" check must then not pass, since `git restore` runs no hook.
OVERLAY_SUFFIX = " worktree"


def index_path(ws: Workspace) -> Path:
    return ws.data_dir / DATABASE_NAME


def cache_path(ws: Workspace) -> Path:
    """The embedding cache, one for every work tree of the repository (in the common git dir):
    a new `git worktree` embeds nothing another one already did. Its writers take SQLite's own
    lock on it (a `BEGIN IMMEDIATE` a batch, waiting up to `[index] busy_timeout`), so two
    worktrees indexing at once share it safely."""
    return shared_dir(ws) / "embed-cache.sqlite"


def shared_dir(ws: Workspace) -> Path:
    """Derived data every work tree of the repository shares (the main one's `.git/memgit`)."""
    return ws.common_dir / "memgit"


def word_cache_path(ws: Workspace) -> Path:
    """Per-word BM25 scores a warm searcher kept, tagged with the index state they belong to."""
    return ws.data_dir / "bm25-words.bin"


def tree_marker_path(ws: Workspace) -> Path:
    """A tiny file holding the indexed tree id: lets hooks decide "nothing to do" without SQLite."""
    return ws.data_dir / MARKER_NAME


def read_marker(ws: Workspace) -> tuple[str | None, bool]:
    """(indexed tree, whether work-tree rows are in the index) from the marker, or (None, False)."""
    return read_marker_in(ws.data_dir)


def read_marker_in(data_dir: Path) -> tuple[str | None, bool]:
    """(indexed tree, whether work-tree rows are in the index) from the marker in `data_dir`, or
    (None, False). The marker is trusted only beside its database: an index deleted by hand has no
    tree, whatever a marker left behind says (the next update rebuilds it)."""
    try:
        text = (data_dir / MARKER_NAME).read_text().strip()
        if not (data_dir / DATABASE_NAME).is_file():
            return None, False
    except (OSError, UnicodeDecodeError):
        return None, False
    tree, _, rest = text.partition(" ")
    return tree or None, rest == OVERLAY_SUFFIX.strip()


def clear_marker(ws: Workspace) -> None:
    with contextlib.suppress(FileNotFoundError):
        tree_marker_path(ws).unlink()


def write_marker(ws: Workspace, tree: str, *, overlay: bool) -> None:
    """Written by rename, without fsync (two fsyncs were ~5 ms of every one-file update). It
    guards against killed processes, which never leave it ahead of the database; a power cut can
    lose it (the next hook diffs again from the tree the database records) or leave it ahead of a
    database that lost its last commit (index.sqlite is not synced either, see `Store`): then the
    next commit's hook, or `memgit index`, which diffs from the database's own tree, catches up."""
    atomic_write(tree_marker_path(ws), [(tree + (OVERLAY_SUFFIX if overlay else "") + "\n").encode()], durable=False)
