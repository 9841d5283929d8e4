"""The one way into git: a command's handle on its repository, and the few calls made before there is one.

A `Repo` owns everything that talks to git for a command: the `git` process runner (`run`, and the
long-lived `cat-file` reader), pygit2's repository (opened on first use, kept for the command's
life; nothing is cached across handles) and GitPython's `Repo` (the user's remotes, opened on first
use), and the reads of `trees` and `log` as its methods; `commits` and `remote` are given it;
`discover`, `probe_head` and `init_repository` run before a handle can exist. Every `git` process
memgit starts has the environment of `clean_env`: inside a hook git sets variables that pin it to
the hook's own operation, and a git memgit starts must find the repository by itself.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.errors import MemgitError, NotAWorkspace
from memgit.git.log import HistoryReads
from memgit.git.trees import EMPTY_TREE, is_object_id

if TYPE_CHECKING:
    import git
    import pygit2

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
_NO_GIT = "install git and make sure it is on PATH"


def clean_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """`env` (default: this process's) minus the variables that pin git to a hook's operation."""
    source = os.environ if env is None else env
    return {k: v for k, v in source.items() if k not in GIT_LOCATION_ENV}


def leave_hook_location() -> None:
    """Drop the hook's location variables from this process, for the libraries (pygit2) and child
    processes that read `os.environ` directly once a hook goes on to real work."""
    for key in GIT_LOCATION_ENV:
        os.environ.pop(key, None)


class UnsupportedObjectFormat(MemgitError):
    """The repository names its objects with another hash than SHA-1 (`git init
    --object-format=sha256`): pygit2 (libgit2) cannot open it yet, the `git` binary can."""

    def __init__(self, root: Path, object_format: str, what: str = "this command") -> None:
        super().__init__(
            f"{what} needs a SHA-1 repository; {root} uses {object_format} objects, which pygit2 cannot read yet"
        )
        self.object_format = object_format


class Repo(HistoryReads):
    """A command's one handle on its repository (`Workspace.git`): the runner of `git` processes,
    pygit2's repository opened on first use and kept (refs and new objects are read from disk on
    every lookup, so a `git fetch` or `git update-ref` meanwhile is seen), GitPython's for the
    remotes, and the reads of trees, the index, the work tree (`TreeReads`) and history
    (`HistoryReads`) through them. `what` names the feature in the error a repository pygit2
    cannot open (a SHA-256 one) gives: a command that needs pygit2 (dreaming) says so."""

    def __init__(self, root: Path, what: str = "this command") -> None:
        self.root = root
        self.what = what
        self._lib: pygit2.Repository | None = None
        self._lib_readable: bool | None = None
        self._remotes: git.Repo | None = None

    def run(
        self,
        *args: str,
        data: bytes | None = None,
        extra_env: dict[str, str] | None = None,
        hook_location: bool = False,
    ) -> subprocess.CompletedProcess[bytes]:
        """One `git` process in the work tree: the hook's location variables removed (`extra_env`
        added after), unless `hook_location` asks for git as the hook sees it (its GIT_INDEX_FILE:
        what is staged). A git that cannot start is a `MemgitError`; its own failures are the
        caller's to read."""
        env = dict(os.environ) if hook_location else clean_env()
        env.update(extra_env or {})
        try:
            return subprocess.run(
                ["git", "--literal-pathspecs", "-C", str(self.root), *args],
                input=data,
                env=env,
                capture_output=True,
                check=False,
            )
        except OSError as exc:
            raise MemgitError(f"cannot run git: {exc}; {_NO_GIT}") from None

    def probe_head(self) -> tuple[Path, str] | None:
        """`probe_head` of the work tree: (git dir, HEAD's tree) from one `git` process."""
        return probe_head(self.root)

    def blob_reader(self) -> BlobReader:
        """A long-lived `git cat-file --batch-command` for many blobs (close it, or use `with`)."""
        return BlobReader(self.root)

    @property
    def lib(self) -> pygit2.Repository:
        """pygit2's repository, or a MemgitError saying why not (UnsupportedObjectFormat for a SHA-256 one)."""
        if self._lib is None:
            import pygit2  # ~70 ms: only paths that read objects pay for it

            try:
                self._lib = pygit2.Repository(str(self.root))
            except (pygit2.GitError, ValueError) as exc:
                found = self.object_format()
                if found != "sha1":
                    raise UnsupportedObjectFormat(self.root, found, self.what) from None
                raise MemgitError(f"cannot open the repository at {self.root}: {exc}") from None
        return self._lib

    def lib_can_read(self) -> bool:
        """False for a repository pygit2 cannot open because of its object format (callers then use `git`)."""
        if self._lib_readable is None:
            try:
                self.lib  # noqa: B018 (opened here, kept for the reads that follow)
            except UnsupportedObjectFormat:
                self._lib_readable = False
            else:
                self._lib_readable = True
        return self._lib_readable

    def object_format(self) -> str:
        """The repository's object hash as git names it (`sha1`, `sha256`); `sha1` when git cannot say."""
        proc = self.run("rev-parse", "--show-object-format")
        text = proc.stdout.decode(errors="replace").strip()
        return text if proc.returncode == 0 and text else "sha1"

    def remote(self, name: str, doing: str) -> git.Remote:
        """The remote `name` through GitPython (the user's remote names, credential helpers and SSH
        agent), or a MemgitError (`doing`: what it is for)."""
        import git

        try:
            if self._remotes is None:
                self._remotes = git.Repo(self.root)
            found = {remote.name: remote for remote in self._remotes.remotes}
        except (git.exc.GitError, OSError, ValueError) as exc:
            raise MemgitError(f"cannot open the repository {doing}: {exc}") from None
        if name not in found:
            raise MemgitError(f"no remote named {name!r}; see `git remote -v`")
        return found[name]

    def blame_lines(self, commit: str, path: str, ignore_whitespace: bool = False) -> list[str]:
        """For each line of `path` at `commit`, the id of the commit that last changed it; empty when
        git cannot say (no such file there). `ignore_whitespace` credits a line to who wrote its
        words, not to a commit that only added the newline after it. One `git blame --porcelain`
        (any object format, no pygit2): each final line is a header naming its commit, some
        metadata lines, then the line's text after a tab."""
        proc = self.run("blame", "--porcelain", *(["-w"] if ignore_whitespace else []), commit, "--", path)
        if proc.returncode != 0:
            return []
        out: list[str] = []
        current = ""
        for line in proc.stdout.split(b"\n"):
            if line.startswith(b"\t"):
                out.append(current)
                continue
            fields = line.split(b" ")
            if len(fields) in (3, 4) and is_object_id(fields[0].decode("ascii", "replace")):
                current = fields[0].decode()
        return out


def probe_head(cwd: Path) -> tuple[Path, str] | None:
    """(absolute per-worktree git dir, HEAD's tree id or the empty tree) from one `git` process.

    The no-op checks of hooks and search use this before any workspace exists: a few ms, not ~70.
    """
    try:
        proc = subprocess.run(
            ["git", "rev-parse", "--absolute-git-dir", "--verify", "-q", "HEAD^{tree}"],
            cwd=cwd,
            env=clean_env(),
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


def discover(start: Path) -> tuple[Path, Path, Path] | None:
    """(work tree root, git dir, common git dir) for the repository containing `start`.

    Asks the `git` binary first (a few ms; every command starts here), pygit2 without it.
    """
    if start.is_dir():
        try:
            proc: subprocess.CompletedProcess[str] | None = subprocess.run(
                [
                    "git",
                    "rev-parse",
                    "--is-bare-repository",
                    "--absolute-git-dir",
                    "--git-common-dir",
                    "--show-toplevel",
                ],
                cwd=start,
                env=clean_env(),
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


def init_repository(target: Path) -> None:
    """`git init` with `main` as the first branch (what `memgit init` creates)."""
    proc = Repo(target).run("init", "-q", "--initial-branch=main")
    if proc.returncode != 0:
        raise MemgitError(f"git init failed in {target}: {proc.stderr.decode(errors='replace').strip()}")


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
            try:
                self._proc = subprocess.Popen(
                    ["git", "-C", str(self.root), "cat-file", "--batch-command"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    env=clean_env(),
                )
            except OSError as exc:
                raise MemgitError(f"cannot run git: {exc}; {_NO_GIT}") from None
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
