"""The one module that speaks to git (in-process, through pygit2).

Everything returns plain values (hex ids, paths, bytes) so callers never hold pygit2 objects.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import pygit2

from memgit.errors import MemgitError, NotAWorkspace

BLOB_MODES = (pygit2.enums.FileMode.BLOB, pygit2.enums.FileMode.BLOB_EXECUTABLE)
LINK_MODE = pygit2.enums.FileMode.LINK
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


@dataclass(frozen=True)
class Entry:
    """A file in a git tree: its blob id and mode (links and submodules are not readable text)."""

    blob: str
    mode: int

    @property
    def is_regular(self) -> bool:
        return self.mode in BLOB_MODES


def discover(start: Path) -> tuple[Path, Path, Path] | None:
    """(work tree root, git dir, common git dir) for the repository containing `start`."""
    found = pygit2.discover_repository(str(start))
    if found is None:
        return None
    repo = pygit2.Repository(found)
    if repo.is_bare or repo.workdir is None:
        raise NotAWorkspace(f"{found} is a bare repository; memgit needs a work tree")
    git_dir = Path(repo.path).resolve()
    common = git_dir
    commondir_file = git_dir / "commondir"
    if commondir_file.is_file():
        common = (git_dir / commondir_file.read_text().strip()).resolve()
    return Path(repo.workdir).resolve(), git_dir, common


@functools.lru_cache(maxsize=8)
def open_repo(root: Path) -> pygit2.Repository:
    return pygit2.Repository(str(root))


def head(root: Path) -> tuple[str | None, str | None]:
    """(HEAD commit id, its tree id); (None, None) in a repository with no commits yet."""
    repo = open_repo(root)
    try:
        if repo.head_is_unborn:
            return None, None
        commit = repo.head.peel(pygit2.Commit)
    except (pygit2.GitError, KeyError) as exc:
        raise MemgitError(f"cannot read HEAD: {exc}") from None
    return str(commit.id), str(commit.tree_id)


def head_tree_fast(git_dir: Path) -> str | None:
    """HEAD's tree id, for the hook's no-op check (same answer as `head`, cached repo)."""
    repo = pygit2.Repository(str(git_dir))
    if repo.head_is_unborn:
        return EMPTY_TREE
    return str(repo.head.peel(pygit2.Commit).tree_id)


def has_tree(root: Path, tree_id: str) -> bool:
    repo = open_repo(root)
    try:
        obj = repo.get(tree_id)
    except (ValueError, pygit2.GitError):
        return False
    return obj is not None and obj.type == pygit2.enums.ObjectType.TREE


def list_files(root: Path, tree_id: str | None) -> dict[str, Entry]:
    """Every file of a tree, recursively (used only for full rebuilds)."""
    if tree_id is None or tree_id == EMPTY_TREE:
        return {}
    repo = open_repo(root)
    out: dict[str, Entry] = {}

    def walk(tree: pygit2.Tree, prefix: str) -> None:
        for item in tree:
            path = prefix + item.name
            if item.type == pygit2.enums.ObjectType.TREE:
                walk(repo[item.id], path + "/")
            elif item.type == pygit2.enums.ObjectType.BLOB:
                out[path] = Entry(str(item.id), int(item.filemode))

    walk(repo[tree_id], "")
    return out


def changed_paths(root: Path, old_tree: str | None, new_tree: str | None) -> set[str]:
    """Paths whose blob or mode differs between two trees; cost follows the diff, not the tree."""
    repo = open_repo(root)
    old = repo[old_tree] if old_tree and old_tree != EMPTY_TREE else None
    new = repo[new_tree] if new_tree and new_tree != EMPTY_TREE else None
    if old is None and new is None:
        return set()
    if old is None:
        diff = new.diff_to_tree(swap=True)
    elif new is None:
        diff = old.diff_to_tree()
    else:
        diff = repo.diff(old, new)
    paths: set[str] = set()
    for delta in diff.deltas:
        paths.add(delta.old_file.path)
        paths.add(delta.new_file.path)
    return paths


def entry_at(root: Path, tree_id: str | None, path: str) -> Entry | None:
    """The file at `path` in a tree, or None when absent (or not a file)."""
    if tree_id is None or tree_id == EMPTY_TREE:
        return None
    repo = open_repo(root)
    try:
        item = repo[tree_id][path]
    except KeyError:
        return None
    if item.type != pygit2.enums.ObjectType.BLOB:
        return None
    return Entry(str(item.id), int(item.filemode))


def read_blob(root: Path, blob_id: str) -> bytes:
    return bytes(open_repo(root)[blob_id].data)


def blob_id_of(data: bytes) -> str:
    """The id git would give these bytes as a blob (for uncommitted work-tree files)."""
    return str(pygit2.hash(data))


def worktree_changed_paths(root: Path) -> set[str]:
    """Paths whose work-tree (or staged) state differs from HEAD; untracked files included."""
    repo = open_repo(root)
    status = repo.status(untracked_files="all")
    return {path for path, flags in status.items() if flags != pygit2.enums.FileStatus.CURRENT}


def is_shallow(root: Path) -> bool:
    return bool(open_repo(root).is_shallow)


# -- hooks and lint (issue 3: memgit/hooks.py, memgit/lint_git.py) ---------------------------
def index_entries(root: Path, index_file: Path | None = None) -> dict[str, Entry]:
    """Files staged in git's index: what the next commit will hold.

    `index_file` is the index a pre-commit hook must read when git exported `GIT_INDEX_FILE`
    (`git commit -a` and `git commit PATH` stage into a temporary index, not `.git/index`).
    """
    repo = open_repo(root)
    path = index_file if index_file is not None else Path(repo.path) / "index"
    if not path.exists():
        return {}
    index = pygit2.Index(str(path))
    return {entry.path: Entry(str(entry.id), int(entry.mode)) for entry in index}


def head_files(root: Path) -> dict[str, Entry]:
    """Every file of HEAD's tree; empty in a repository with no commits yet."""
    return list_files(root, head(root)[1])


def worktree_files(root: Path) -> list[str]:
    """Tracked files plus untracked files git does not ignore: what `memgit lint` looks at."""
    repo = open_repo(root)
    index = repo.index
    index.read()
    paths_found = {entry.path for entry in index}
    for path, flags in repo.status(untracked_files="all").items():
        if flags & pygit2.enums.FileStatus.WT_NEW:
            paths_found.add(path)
    return sorted(paths_found)


def config_value(root: Path, key: str) -> str | None:
    """One git config value as git would resolve it for this repository (None when unset)."""
    repo = pygit2.Repository(str(root))
    try:
        return str(repo.config[key])
    except KeyError:
        return None
