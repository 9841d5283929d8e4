"""The one module that starts git: `git` processes on the hot path, pygit2 where a library call fits.

Everything returns plain values (hex ids, paths, bytes) so callers never hold pygit2 objects.
Every `git` process memgit starts goes through `run_git` (or the long-lived `BlobReader`) with the
environment of `clean_env`: inside a hook git sets variables that pin it to the hook's own
operation, and a git memgit starts must find the repository by itself.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.errors import MemgitError, NotAWorkspace

if TYPE_CHECKING:
    import pygit2

BLOB_MODES = (0o100644, 0o100755)
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
# Variables git sets for a hook's own operation; a git we start must find the repo by itself.
# They describe the operation in progress and, inherited by a git process memgit starts, make it
# look at the wrong index or directory.
GIT_LOCATION_ENV = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_QUARANTINE_PATH",
)


def clean_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """`env` (default: this process's) minus the variables that pin git to a hook's operation."""
    source = os.environ if env is None else env
    return {k: v for k, v in source.items() if k not in GIT_LOCATION_ENV}


def leave_hook_location() -> None:
    """Drop the hook's location variables from this process, for the libraries (pygit2) and child
    processes that read `os.environ` directly once a hook goes on to real work."""
    for key in GIT_LOCATION_ENV:
        os.environ.pop(key, None)


def probe_head(cwd: Path) -> tuple[Path, str] | None:
    """(absolute per-worktree git dir, HEAD's tree id or the empty tree) from one `git` process.

    The no-op checks of hooks and search use this instead of pygit2: a few ms, not ~70.
    """
    env = clean_env()
    try:
        proc = subprocess.run(
            ["git", "rev-parse", "--absolute-git-dir", "--verify", "-q", "HEAD^{tree}"],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    lines = proc.stdout.split()
    if not lines:
        return None
    if proc.returncode == 0 and len(lines) >= 2:
        return Path(lines[0]), lines[1]
    return Path(lines[0]), EMPTY_TREE


@dataclass(frozen=True)
class Entry:
    """A file in a git tree: its blob id and mode (links and submodules are not readable text)."""

    blob: str
    mode: int

    @property
    def is_regular(self) -> bool:
        return self.mode in BLOB_MODES


def discover(start: Path) -> tuple[Path, Path, Path] | None:
    """(work tree root, git dir, common git dir) for the repository containing `start`.

    Asks the `git` binary first (a few ms; every command starts here), pygit2 without it.
    """
    if start.is_dir():
        env = clean_env()
        try:
            proc = subprocess.run(
                [
                    "git",
                    "rev-parse",
                    "--is-bare-repository",
                    "--absolute-git-dir",
                    "--git-common-dir",
                    "--show-toplevel",
                ],
                cwd=start,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
        except OSError:
            proc = None
        if proc is not None:
            lines = proc.stdout.splitlines()
            if proc.returncode == 0 and len(lines) == 4 and lines[0] == "false":
                git_dir = Path(lines[1]).resolve()
                common = (start / lines[2]).resolve()
                return Path(lines[3]).resolve(), git_dir, common
            if lines[:1] == ["true"]:
                raise NotAWorkspace(
                    f"{lines[1] if len(lines) > 1 else start} is a bare repository; memgit needs a work tree"
                )
            if "not a git repository" in proc.stderr:
                return None
    return _discover_pygit2(start)


def _discover_pygit2(start: Path) -> tuple[Path, Path, Path] | None:
    import pygit2  # ~70 ms: only paths that read objects pay for it

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


class UnsupportedObjectFormat(MemgitError):
    """The repository names its objects with another hash than SHA-1 (`git init
    --object-format=sha256`): pygit2 (libgit2) cannot open it yet, the `git` binary can."""

    def __init__(self, root: Path, object_format: str, what: str = "this command") -> None:
        super().__init__(
            f"{what} needs a SHA-1 repository; {root} uses {object_format} objects, which pygit2 cannot read yet"
        )
        self.object_format = object_format


def object_format(root: Path) -> str:
    """The repository's object hash as git names it (`sha1`, `sha256`); `sha1` when git cannot say."""
    proc = run_git(root, "rev-parse", "--show-object-format")
    text = proc.stdout.decode(errors="replace").strip()
    return text if proc.returncode == 0 and text else "sha1"


def repository(root: Path, what: str = "this command") -> pygit2.Repository:
    """A pygit2 repository, or a MemgitError saying why not (UnsupportedObjectFormat for a SHA-256 one).

    `what` names the feature in that error (e.g. "dreaming")."""
    import pygit2  # ~70 ms: only paths that read objects pay for it

    try:
        return pygit2.Repository(str(root))
    except (pygit2.GitError, ValueError) as exc:
        found = object_format(root)
        if found != "sha1":
            raise UnsupportedObjectFormat(root, found, what) from None
        raise MemgitError(f"cannot open the repository at {root}: {exc}") from None


@functools.lru_cache(maxsize=8)
def open_repo(root: Path) -> pygit2.Repository:
    return repository(root)


def pygit2_can_read(root: Path) -> bool:
    """False for a repository pygit2 cannot open because of its object format (callers then use `git`)."""
    try:
        open_repo(root)
    except UnsupportedObjectFormat:
        return False
    return True


def run_git(
    root: Path,
    *args: str,
    data: bytes | None = None,
    extra_env: dict[str, str] | None = None,
    hook_location: bool = False,
) -> subprocess.CompletedProcess[bytes]:
    """One `git` process in `root`: the hook's location variables removed (`extra_env` added after),
    unless `hook_location` asks for git as the hook sees it (its GIT_INDEX_FILE: what is staged).
    A git that cannot start at all is a `MemgitError`; its own failures are the caller's to read."""
    env = dict(os.environ) if hook_location else clean_env()
    env.update(extra_env or {})
    try:
        return subprocess.run(
            ["git", "--literal-pathspecs", "-C", str(root), *args],
            input=data,
            env=env,
            capture_output=True,
            check=False,
        )
    except OSError as exc:
        raise MemgitError(f"cannot run git: {exc}; install git and make sure it is on PATH") from None


def head_ids(root: Path) -> tuple[str | None, str | None]:
    """(HEAD commit, its tree) from one `git` process: the cheap start of every index update.

    HEAD is resolved once (`log -1 --format`), so the pair always belongs together: with
    `rev-parse HEAD^{commit} HEAD^{tree}` git resolves HEAD twice, and a commit landing in between
    paired the old commit with the new tree (a hit could then name a commit without its file).
    """
    proc = run_git(root, "log", "-1", "--no-walk", "--format=%H %T", "HEAD", "--")
    lines = proc.stdout.decode().split()
    if proc.returncode == 0 and len(lines) == 2 and all(is_object_id(x) for x in lines):
        return lines[0], lines[1]
    unborn = run_git(root, "symbolic-ref", "-q", "HEAD")
    if unborn.returncode == 0 and run_git(root, "rev-parse", "--verify", "-q", "HEAD").returncode != 0:
        return None, None
    raise MemgitError(f"cannot read HEAD in {root}: {proc.stderr.decode().strip() or 'git rev-parse failed'}")


def is_object_id(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def tree_exists(root: Path, tree_id: str) -> bool:
    if tree_id == EMPTY_TREE:
        return True
    proc = run_git(root, "cat-file", "-t", tree_id)
    return proc.returncode == 0 and proc.stdout.strip() == b"tree"


def diff_paths(root: Path, old_tree: str | None, new_tree: str | None) -> set[str]:
    """Paths whose blob or mode differs between two trees (`git diff-tree`: cost follows the diff)."""
    old, new = old_tree or EMPTY_TREE, new_tree or EMPTY_TREE
    if old == new:
        return set()
    proc = run_git(root, "diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new)
    if proc.returncode != 0:
        raise MemgitError(f"git diff-tree failed: {proc.stderr.decode().strip()}")
    return {p.decode("utf-8", "surrogateescape") for p in proc.stdout.split(b"\0") if p}


def entries(root: Path, tree_id: str | None, paths: Iterable[str] | None = None) -> dict[str, Entry]:
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
        proc = run_git(root, *args)
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


class MissingTree(MemgitError):
    """A tree the caller named is not in the repository (e.g. garbage-collected)."""


GITLINK_MODE = 0o160000


def diff_entries(root: Path, old_tree: str | None, new_tree: str | None) -> dict[str, Entry | None]:
    """Paths whose blob or mode differs between two trees, with what `new_tree` holds there
    (None: gone, or not a file: submodules are commits, not text). One `git diff-tree --raw`:
    the cost follows the diff, and no `ls-tree` is needed afterwards."""
    old, new = old_tree or EMPTY_TREE, new_tree or EMPTY_TREE
    if old == new:
        return {}
    proc = run_git(root, "diff-tree", "-r", "-z", "--no-renames", "--raw", "--full-index", old, new)
    if proc.returncode != 0:
        message = proc.stderr.decode(errors="replace").strip()
        for tree in (old, new):
            if tree != EMPTY_TREE and not tree_exists(root, tree):
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


class BlobReader:
    """One `git cat-file --batch-command` process answering many size and content requests.

    Sizes are asked first (`info`), so a file over the size limit is never read, and contents
    are read one blob at a time, so memory holds one blob, not a workspace.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._proc: subprocess.Popen[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            env = clean_env()
            try:
                self._proc = subprocess.Popen(
                    ["git", "-C", str(self.root), "cat-file", "--batch-command"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    env=env,
                )
            except OSError as exc:
                raise MemgitError(f"cannot run git: {exc}; install git and make sure it is on PATH") from None
        return self._proc

    def _header(self, proc: subprocess.Popen[bytes], oid: str) -> int:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        parts = line.split()
        if len(parts) != 3:
            raise MemgitError(f"git cat-file: object {oid} is missing")
        return int(parts[2])

    def sizes(self, blob_ids: Iterable[str]) -> dict[str, int]:
        ids = list(dict.fromkeys(blob_ids))
        proc = self._start()
        assert proc.stdin is not None
        out: dict[str, int] = {}
        for start in range(0, len(ids), 256):  # bounded batches: neither pipe ever fills
            batch = ids[start : start + 256]
            proc.stdin.write("".join(f"info {oid}\n" for oid in batch).encode())
            proc.stdin.flush()
            for oid in batch:
                out[oid] = self._header(proc, oid)
        return out

    def read_many(self, blob_ids: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        """(id, content) for each id, in order. Requests go out 256 at a time (a few KB: never
        enough to fill the pipe) and answers are read one blob at a time as they are consumed."""
        ids = list(blob_ids)
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        for start in range(0, len(ids), 256):
            batch = ids[start : start + 256]
            proc.stdin.write("".join(f"contents {oid}\n" for oid in batch).encode())
            proc.stdin.flush()
            for oid in batch:
                size = self._header(proc, oid)
                yield oid, proc.stdout.read(size + 1)[:size]

    def read(self, blob_id: str) -> bytes:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"contents {blob_id}\n".encode())
        proc.stdin.flush()
        size = self._header(proc, blob_id)
        data = proc.stdout.read(size + 1)
        return data[:size]

    def close(self) -> None:
        if self._proc is not None:
            with contextlib.suppress(OSError, ValueError):
                assert self._proc.stdin is not None
                self._proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=10)
            if self._proc.poll() is None:
                self._proc.kill()
                self._proc.wait()
            if self._proc.stdout is not None:
                self._proc.stdout.close()
            self._proc = None

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_blobs(root: Path, blob_ids: Iterable[str]) -> dict[str, bytes]:
    """Contents of many blobs from one `git cat-file --batch` process."""
    ids = list(dict.fromkeys(blob_ids))
    if not ids:
        return {}
    proc = run_git(root, "cat-file", "--batch", data=("\n".join(ids) + "\n").encode())
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


def read_blob(root: Path, blob_id: str) -> bytes:
    if not pygit2_can_read(root):
        return read_blobs(root, [blob_id])[blob_id]
    import pygit2

    found = open_repo(root)[blob_id]
    if not isinstance(found, pygit2.Blob):
        raise MemgitError(f"git object {blob_id} is a {found.type_str}, not a file's contents")
    return bytes(found.data)


def blob_id_of(data: bytes) -> str:
    """The id git would give these bytes as a blob (for uncommitted work-tree files).

    Computed here rather than by pygit2 so that checking work-tree rows costs no import."""
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def worktree_changed_paths(root: Path) -> set[str]:
    """Paths whose work-tree (or staged) state differs from HEAD; untracked files included.

    One `git status` rather than pygit2: the MCP server asks this when it starts and after
    edits, and importing pygit2 alone adds ~20 MB to a process's resident memory. No optional
    locks (git would otherwise refresh `.git/index` under a commit running beside us) and no
    rename detection (a rename is its two paths, as for pygit2).
    """
    proc = run_git(root, "--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=all", "--no-renames")
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip()
        raise MemgitError(f"git status failed in {root}: {detail or f'exit {proc.returncode}'}")
    items = [item.decode("utf-8", "surrogateescape") for item in proc.stdout.split(b"\0")]
    return {item[3:] for item in items if len(item) > 3}


def changed_paths_under(root: Path, folder: str) -> list[str]:
    """Files under `folder` that are new or differ from HEAD (one `git status` limited to it)."""
    proc = run_git(root, "status", "--porcelain", "-z", "--untracked-files=all", "--", folder)
    if proc.returncode != 0:
        return []
    items = [item.decode("utf-8", "surrogateescape") for item in proc.stdout.split(b"\0")]
    return sorted(item[3:] for item in items if len(item) > 3 and item[3:].startswith(folder.rstrip("/") + "/"))


# -- hooks and lint (issue 3: memgit/hooks.py, memgit/lint_git.py) ---------------------------
def index_entries(root: Path, index_file: Path | None = None) -> dict[str, Entry]:
    """Files staged in git's index: what the next commit will hold.

    `index_file` is the index a pre-commit hook must read when git exported `GIT_INDEX_FILE`
    (`git commit -a` and `git commit PATH` stage into a temporary index, not `.git/index`).
    One `git ls-files --stage`, not pygit2: the pre-commit hook reads the index on every commit,
    and importing pygit2 alone cost it ~70 ms (as much as the rest of the lint).
    """
    extra = {"GIT_INDEX_FILE": str(index_file)} if index_file is not None else None
    proc = run_git(root, "ls-files", "--stage", "-z", extra_env=extra)
    if proc.returncode != 0:
        raise MemgitError(f"git ls-files failed: {proc.stderr.decode(errors='replace').strip()}")
    out: dict[str, Entry] = {}
    for record in proc.stdout.split(b"\0"):
        meta, tab, name = record.partition(b"\t")
        fields = meta.split(b" ")
        if tab and len(fields) == 3:
            out[name.decode("utf-8", "surrogateescape")] = Entry(fields[1].decode(), int(fields[0], 8))
    return out


def head_files(root: Path) -> dict[str, Entry]:
    """Every file of HEAD's tree; empty in a repository with no commits yet."""
    return entries(root, head_ids(root)[1])


def worktree_files(root: Path) -> list[str]:
    """Tracked files plus untracked files git does not ignore: what `memgit lint` looks at."""
    if not pygit2_can_read(root):
        proc = run_git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
        if proc.returncode != 0:
            raise MemgitError(f"git ls-files failed: {proc.stderr.decode(errors='replace').strip()}")
        return sorted({p.decode("utf-8", "surrogateescape") for p in proc.stdout.split(b"\0") if p})
    import pygit2  # ~70 ms: only paths that read objects pay for it

    repo = open_repo(root)
    index = repo.index
    index.read()
    paths_found = {entry.path for entry in index}
    for path, flags in repo.status(untracked_files="all").items():
        if flags & pygit2.enums.FileStatus.WT_NEW:
            paths_found.add(path)
    return sorted(paths_found)


def init_repository(target: Path) -> None:
    """`git init` with `main` as the first branch (what `memgit init` creates)."""
    proc = run_git(target, "init", "-q", "--initial-branch=main")
    if proc.returncode != 0:
        raise MemgitError(f"git init failed in {target}: {proc.stderr.decode(errors='replace').strip()}")


def commit_only(
    root: Path, paths: list[str], message: str, extra_env: dict[str, str] | None = None
) -> tuple[str | None, str]:
    """Stage and commit exactly `paths` with the user's own git, so their hooks run as for any
    commit (with `extra_env` in their environment); other staged changes stay staged and out of
    it. Returns (commit id, "") or (None, git's complaint)."""
    proc = run_git(root, "add", "--", *paths)
    if proc.returncode == 0:
        proc = run_git(root, "commit", "-q", "-m", message, "--only", "--", *paths, extra_env=extra_env)
        if proc.returncode == 0:
            # `commit --only` reads each file twice (once into the real index, once into the
            # commit): lines another process appended in between are committed but not staged,
            # and git would show them as a staged removal. The index takes HEAD's version.
            run_git(root, "reset", "-q", "--", *paths)
            head = run_git(root, "rev-parse", "HEAD")
            return head.stdout.decode().strip(), ""
    return None, (proc.stderr + proc.stdout).decode(errors="replace").strip()


def unstage(root: Path, paths: list[str]) -> None:
    """Put `paths` in git's index back as HEAD has them (a failed commit's `git add` undone)."""
    if head_ids(root)[0] is None:
        run_git(root, "rm", "-q", "--cached", "--ignore-unmatch", "--", *paths)
    else:
        run_git(root, "reset", "-q", "--", *paths)


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


def config_value(root: Path, key: str) -> str | None:
    """One git config value as git would resolve it for this repository (None when unset)."""
    try:
        repo = repository(root)
    except UnsupportedObjectFormat:
        proc = run_git(root, "config", "--get", key)
        text = proc.stdout.decode("utf-8", "surrogateescape").rstrip("\n")
        return text if proc.returncode == 0 else None
    try:
        return str(repo.config[key])
    except KeyError:
        return None


def unmerged_paths(root: Path) -> list[str]:
    """Paths git's index holds in conflict (stages 1-3): a merge or rebase stopped on them."""
    proc = run_git(root, "ls-files", "--unmerged", "-z")
    if proc.returncode != 0:
        return []
    records = (record.split(b"\t", 1) for record in proc.stdout.split(b"\0") if b"\t" in record)
    return sorted({path.decode("utf-8", "surrogateescape") for _meta, path in records})
