"""A repository's trees, git's index and the work tree, read (and committed to) through a command's
handle: `TreeReads` is the part of `memgit.git.repo.Repo` that does it, with batched `git`
processes on the hot path and pygit2 where a library call fits; the values it returns are plain
(hex ids, paths, bytes, `Entry`), so callers never hold pygit2 objects.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.errors import MemgitError

if TYPE_CHECKING:
    import pygit2

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def is_object_id(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


BLOB_MODES = (0o100644, 0o100755)


@dataclass(frozen=True)
class Entry:
    """A file in a git tree: its blob id and mode (links and submodules are not readable text)."""

    blob: str
    mode: int

    @property
    def is_regular(self) -> bool:
        return self.mode in BLOB_MODES


class MissingTree(MemgitError):
    """A tree the caller named is not in the repository (e.g. garbage-collected)."""


GITLINK_MODE = 0o160000


def blob_id_of(data: bytes) -> str:
    """The id git would give these bytes as a blob (for uncommitted work-tree files).

    Computed here rather than by pygit2 so that checking work-tree rows costs no import."""
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


#: Files git keeps in a work tree's git dir while an operation waits for the user to finish it.
IN_PROGRESS_MARKERS = (
    ("MERGE_HEAD", "a merge"),
    ("rebase-merge", "a rebase"),
    ("rebase-apply", "a rebase or am"),
    ("CHERRY_PICK_HEAD", "a cherry-pick"),
    ("REVERT_HEAD", "a revert"),
)


def operation_in_progress(git_dir: Path) -> str | None:
    """What git operation is half done in this work tree (a merge, a rebase, ...), or None."""
    for name, what in IN_PROGRESS_MARKERS:
        if (git_dir / name).exists():
            return what
    return None


class TreeReads:
    """Reads of trees, git's index and the work tree, and commits of exactly some paths with the
    user's own git: a part of `Repo`, which supplies the runner and pygit2's repository."""

    root: Path

    def run(
        self,
        *args: str,
        data: bytes | None = None,
        extra_env: dict[str, str] | None = None,
        hook_location: bool = False,
    ) -> subprocess.CompletedProcess[bytes]:
        raise NotImplementedError  # `Repo.run`

    @property
    def lib(self) -> pygit2.Repository:
        raise NotImplementedError  # `Repo.lib`

    def lib_can_read(self) -> bool:
        raise NotImplementedError  # `Repo.lib_can_read`

    def head_ids(self) -> tuple[str | None, str | None]:
        """(HEAD commit, its tree) from one `git` process: the cheap start of every index update.

        HEAD is resolved once (`log -1 --format`), so the pair always belongs together: with
        `rev-parse HEAD^{commit} HEAD^{tree}` git resolves HEAD twice, and a commit landing in between
        paired the old commit with the new tree (a hit could then name a commit without its file).
        """
        proc = self.run("log", "-1", "--no-walk", "--format=%H %T", "HEAD", "--")
        lines = proc.stdout.decode().split()
        if proc.returncode == 0 and len(lines) == 2 and all(is_object_id(x) for x in lines):
            return lines[0], lines[1]
        unborn = self.run("symbolic-ref", "-q", "HEAD")
        if unborn.returncode == 0 and self.run("rev-parse", "--verify", "-q", "HEAD").returncode != 0:
            return None, None
        raise MemgitError(f"cannot read HEAD in {self.root}: {proc.stderr.decode().strip() or 'git rev-parse failed'}")

    def tree_exists(self, tree_id: str) -> bool:
        if tree_id == EMPTY_TREE:
            return True
        proc = self.run("cat-file", "-t", tree_id)
        return proc.returncode == 0 and proc.stdout.strip() == b"tree"

    def diff_paths(self, old_tree: str | None, new_tree: str | None) -> set[str]:
        """Paths whose blob or mode differs between two trees (`git diff-tree`: cost follows the diff)."""
        old, new = old_tree or EMPTY_TREE, new_tree or EMPTY_TREE
        if old == new:
            return set()
        proc = self.run("diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new)
        if proc.returncode != 0:
            raise MemgitError(f"git diff-tree failed: {proc.stderr.decode().strip()}")
        return {p.decode("utf-8", "surrogateescape") for p in proc.stdout.split(b"\0") if p}

    def entries(self, tree_id: str | None, paths: Iterable[str] | None = None) -> dict[str, Entry]:
        """Files of a tree (all of them, or those at `paths`) with blob id and mode; links included,
        submodules and folders not."""
        if tree_id is None or tree_id == EMPTY_TREE:
            return {}
        wanted = None if paths is None else sorted(set(paths))
        if wanted == []:
            return {}
        out: dict[str, Entry] = {}
        chunks = [None] if wanted is None else [wanted[i : i + 500] for i in range(0, len(wanted), 500)]
        for chunk in chunks:
            args = ["ls-tree", "-r", "-z", "--full-tree", tree_id]
            if chunk is not None:
                args += ["--", *chunk]
            proc = self.run(*args)
            if proc.returncode != 0:
                raise MemgitError(f"git ls-tree failed: {proc.stderr.decode().strip()}")
            for record in proc.stdout.split(b"\0"):
                if not record:
                    continue
                meta, _, name = record.partition(b"\t")
                mode, kind, oid = meta.split(b" ")
                if kind == b"blob":
                    out[name.decode("utf-8", "surrogateescape")] = Entry(oid.decode(), int(mode, 8))
        return out

    def diff_entries(self, old_tree: str | None, new_tree: str | None) -> dict[str, Entry | None]:
        """Paths whose blob or mode differs between two trees, with what `new_tree` holds there
        (None: gone, or not a file: submodules are commits, not text). One `git diff-tree --raw`:
        the cost follows the diff, and no `ls-tree` is needed afterwards."""
        old, new = old_tree or EMPTY_TREE, new_tree or EMPTY_TREE
        if old == new:
            return {}
        proc = self.run("diff-tree", "-r", "-z", "--no-renames", "--raw", "--full-index", old, new)
        if proc.returncode != 0:
            message = proc.stderr.decode(errors="replace").strip()
            for tree in (old, new):
                if tree != EMPTY_TREE and not self.tree_exists(tree):
                    raise MissingTree(f"tree {tree} is not in the repository")
            raise MemgitError(f"git diff-tree failed: {message}")
        out: dict[str, Entry | None] = {}
        fields = proc.stdout.split(b"\0")
        i = 0
        while i + 1 < len(fields):
            meta, name = fields[i], fields[i + 1]
            i += 2
            if not meta.startswith(b":"):
                break
            _old_mode, new_mode, _old_id, new_id, _status = meta[1:].split(b" ")
            mode = int(new_mode, 8)
            path = name.decode("utf-8", "surrogateescape")
            out[path] = None if mode == 0 or mode == GITLINK_MODE else Entry(new_id.decode(), mode)
        return out

    def read_blobs(self, blob_ids: Iterable[str]) -> dict[str, bytes]:
        """Contents of many blobs from one `git cat-file --batch` process."""
        ids = list(dict.fromkeys(blob_ids))
        if not ids:
            return {}
        proc = self.run("cat-file", "--batch", data=("\n".join(ids) + "\n").encode())
        if proc.returncode != 0:
            raise MemgitError(f"git cat-file failed: {proc.stderr.decode().strip()}")
        out: dict[str, bytes] = {}
        data = proc.stdout
        pos = 0
        for oid in ids:
            end = data.index(b"\n", pos)
            header = data[pos:end].split(b" ")
            pos = end + 1
            if len(header) != 3:
                raise MemgitError(f"git cat-file: object {oid} is missing")
            size = int(header[2])
            out[oid] = data[pos : pos + size]
            pos += size + 1
        return out

    def read_blob(self, blob_id: str) -> bytes:
        if not self.lib_can_read():
            return self.read_blobs([blob_id])[blob_id]
        import pygit2

        found = self.lib[blob_id]
        if not isinstance(found, pygit2.Blob):
            raise MemgitError(f"git object {blob_id} is a {found.type_str}, not a file's contents")
        return bytes(found.data)

    def worktree_changed_paths(self) -> set[str]:
        """Paths whose work-tree (or staged) state differs from HEAD; untracked files included.

        One `git status` rather than pygit2: the MCP server asks this when it starts and after
        edits, and importing pygit2 alone adds ~20 MB to a process's resident memory. No optional
        locks (git would otherwise refresh `.git/index` under a commit running beside us) and no
        rename detection (a rename is its two paths, as for pygit2).
        """
        proc = self.run("--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=all", "--no-renames")
        if proc.returncode != 0:
            detail = proc.stderr.decode("utf-8", "replace").strip()
            raise MemgitError(f"git status failed in {self.root}: {detail or f'exit {proc.returncode}'}")
        items = [item.decode("utf-8", "surrogateescape") for item in proc.stdout.split(b"\0")]
        return {item[3:] for item in items if len(item) > 3}

    def changed_paths_under(self, folder: str) -> list[str]:
        """Files under `folder` that are new or differ from HEAD (one `git status` limited to it)."""
        proc = self.run("status", "--porcelain", "-z", "--untracked-files=all", "--", folder)
        if proc.returncode != 0:
            return []
        items = [item.decode("utf-8", "surrogateescape") for item in proc.stdout.split(b"\0")]
        return sorted(item[3:] for item in items if len(item) > 3 and item[3:].startswith(folder.rstrip("/") + "/"))

    def index_entries(self, index_file: Path | None = None) -> dict[str, Entry]:
        """Files staged in git's index: what the next commit will hold.

        `index_file` is the index a pre-commit hook must read when git exported `GIT_INDEX_FILE`
        (`git commit -a` and `git commit PATH` stage into a temporary index, not `.git/index`).
        One `git ls-files --stage`, not pygit2: the pre-commit hook reads the index on every commit,
        and importing pygit2 alone cost it ~70 ms (as much as the rest of the lint).
        """
        extra = {"GIT_INDEX_FILE": str(index_file)} if index_file is not None else None
        proc = self.run("ls-files", "--stage", "-z", extra_env=extra)
        if proc.returncode != 0:
            raise MemgitError(f"git ls-files failed: {proc.stderr.decode(errors='replace').strip()}")
        out: dict[str, Entry] = {}
        for record in proc.stdout.split(b"\0"):
            meta, tab, name = record.partition(b"\t")
            fields = meta.split(b" ")
            if tab and len(fields) == 3:
                out[name.decode("utf-8", "surrogateescape")] = Entry(fields[1].decode(), int(fields[0], 8))
        return out

    def head_files(self) -> dict[str, Entry]:
        """Every file of HEAD's tree; empty in a repository with no commits yet."""
        return self.entries(self.head_ids()[1])

    def worktree_files(self) -> list[str]:
        """Tracked files plus untracked files git does not ignore: what `memgit lint` looks at."""
        if not self.lib_can_read():
            proc = self.run("ls-files", "-z", "--cached", "--others", "--exclude-standard")
            if proc.returncode != 0:
                raise MemgitError(f"git ls-files failed: {proc.stderr.decode(errors='replace').strip()}")
            return sorted({p.decode("utf-8", "surrogateescape") for p in proc.stdout.split(b"\0") if p})
        import pygit2  # ~70 ms: only paths that read objects pay for it

        index = self.lib.index
        index.read()
        paths_found = {entry.path for entry in index}
        for path, flags in self.lib.status(untracked_files="all").items():
            if flags & pygit2.enums.FileStatus.WT_NEW:
                paths_found.add(path)
        return sorted(paths_found)

    def commit_only(
        self, paths: list[str], message: str, extra_env: dict[str, str] | None = None
    ) -> tuple[str | None, str]:
        """Stage and commit exactly `paths` with the user's own git, so their hooks run as for any
        commit (with `extra_env` in their environment); other staged changes stay staged and out of
        it. Returns (commit id, "") or (None, git's complaint)."""
        proc = self.run("add", "--", *paths)
        if proc.returncode == 0:
            proc = self.run("commit", "-q", "-m", message, "--only", "--", *paths, extra_env=extra_env)
            if proc.returncode == 0:
                # `commit --only` reads each file twice (once into the real index, once into the
                # commit): lines another process appended in between are committed but not staged,
                # and git would show them as a staged removal. The index takes HEAD's version.
                self.run("reset", "-q", "--", *paths)
                head = self.run("rev-parse", "HEAD")
                return head.stdout.decode().strip(), ""
        return None, (proc.stderr + proc.stdout).decode(errors="replace").strip()

    def unstage(self, paths: list[str]) -> None:
        """Put `paths` in git's index back as HEAD has them (a failed commit's `git add` undone)."""
        if self.head_ids()[0] is None:
            self.run("rm", "-q", "--cached", "--ignore-unmatch", "--", *paths)
        else:
            self.run("reset", "-q", "--", *paths)

    def config_value(self, key: str) -> str | None:
        """One git config value as git resolves it for this repository (None when unset): asked of
        `git config` itself, so includes and the current state of the files count, in any object format."""
        proc = self.run("config", "--get", key)
        text = proc.stdout.decode("utf-8", "surrogateescape").rstrip("\n")
        return text if proc.returncode == 0 else None

    def unmerged_paths(self) -> list[str]:
        """Paths git's index holds in conflict (stages 1-3): a merge or rebase stopped on them."""
        proc = self.run("ls-files", "--unmerged", "-z")
        if proc.returncode != 0:
            return []
        records = (record.split(b"\t", 1) for record in proc.stdout.split(b"\0") if b"\t" in record)
        return sorted({path.decode("utf-8", "surrogateescape") for _meta, path in records})
