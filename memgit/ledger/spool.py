"""The recall spool, and publishing it into the tracked ledger.

A search must never dirty the work tree (a dirty tracked file makes `git checkout` and `git pull`
refuse), so searches record their hits in a per-clone spool under the data dir
(`.git/memgit/recall/YYYY-MM-DD.jsonl`), never in `memory/.dreams/recall/`. The spool's lines reach
the tracked ledger files (merge=union, so clones merge them) only when they are *published*: by
`memgit recalls publish` or by `memgit remember/log --commit`, in one commit of the ledger paths.

Publishing is crash-safe and idempotent: the lines are appended to the tracked files, committed,
and only then dropped from the spool (under its lock, keeping lines recorded meanwhile). A failed
commit restores the tracked files and leaves the spool as it was; a line that is already in the
tracked file is never appended twice, so a retry after a crash between commit and drop does not
duplicate anything.

Writers take an exclusive `flock` on the spool file and land a search's lines with one `write`;
the spool is replaced by rename when lines are dropped, so a writer that waited on the old file
notices it was replaced and writes to the new one instead.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core import locks
from memgit.core.atomic import TornAppend, append_whole, atomic_write
from memgit.core.paths import LEDGER_DIR
from memgit.errors import MemgitError
from memgit.ledger.lines import parse_line

if TYPE_CHECKING:
    from memgit.git.repo import Repo

SPOOL_FOLDER = "recall"
_DAY_FILE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}\.jsonl$")
_CONFLICT_RE = re.compile(r"^(<<<<<<<|=======|>>>>>>>)( |$)", re.MULTILINE)


class PublishRefused(MemgitError):
    """The spool cannot be published now; the message says why and what to do."""


@dataclass
class PublishResult:
    """What a publish did: lines moved into the tracked ledger, the commit, the files."""

    lines: int = 0
    commit: str | None = None
    paths: list[str] = field(default_factory=list)
    pending: int = 0
    dropped: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# --------------------------------------------------------------------------------- pure logic


def tracked_path(spool_name: str) -> str:
    """The tracked ledger file a spool file publishes into (same day, same name)."""
    return f"{LEDGER_DIR}/{spool_name}"


def lines_of(data: bytes) -> list[str]:
    """The non-blank lines of a ledger or spool file (a torn last line included: it is kept as is)."""
    return [line for line, _ in _decoded(data)]


def _decoded(data: bytes) -> list[tuple[str, bool]]:
    """Each non-blank line, and whether its bytes were valid UTF-8 (a line that is not is shown
    with U+FFFD in place of its bad bytes, the same text every time, so it can still be dropped)."""
    out: list[tuple[str, bool]] = []
    for raw in data.split(b"\n"):
        raw = raw.removesuffix(b"\r")
        try:
            line, ok = raw.decode("utf-8"), True
        except UnicodeDecodeError:
            line, ok = raw.decode("utf-8", errors="replace"), False
        if line.strip():
            out.append((line, ok))
    return out


def sort_lines(data: bytes) -> tuple[list[str], list[str]]:
    """(every non-blank line, the ones fit to publish): valid UTF-8 that the ledger parser accepts."""
    every: list[str] = []
    good: list[str] = []
    for line, ok in _decoded(data):
        every.append(line)
        if ok and parse_line(line) is not None:
            good.append(line)
    return every, good


def new_lines(existing: Iterable[str], spool: Iterable[str]) -> list[str]:
    """Spool lines not already in the tracked file, each once, in spool order: exact lines dedupe."""
    seen = set(existing)
    out: list[str] = []
    for line in spool:
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out


def remaining(current: list[str], taken: list[str]) -> list[str]:
    """The spool after dropping what was published: one occurrence per published line, so lines
    recorded while the commit ran (after the spool was read) are kept."""
    left = Counter(taken)
    out: list[str] = []
    for line in current:
        if left[line] > 0:
            left[line] -= 1
        else:
            out.append(line)
    return out


def has_conflict_markers(text: str) -> bool:
    return _CONFLICT_RE.search(text) is not None


def append_payload(existing: bytes, lines: list[str]) -> bytes:
    """Bytes to append so `lines` start on a line of their own."""
    if not lines:
        return b""
    lead = b"\n" if existing and not existing.endswith(b"\n") else b""
    return lead + ("\n".join(lines) + "\n").encode("utf-8")


# --------------------------------------------------------------------------------- the spool


def spool_dir(data_dir: Path) -> Path:
    return data_dir / SPOOL_FOLDER


def spool_files(data_dir: Path) -> list[Path]:
    folder = spool_dir(data_dir)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if _DAY_FILE_RE.match(p.name) and p.is_file() and not p.is_symlink())


@contextlib.contextmanager
def _locked(path: Path, *, create: bool) -> Iterator[int | None]:
    """An fd of the spool file `path` under its exclusive lock (`core.locks.locked_file`)."""
    with contextlib.ExitStack() as stack:
        try:
            fd = stack.enter_context(locks.locked_file(path, create=create))
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise MemgitError(f"{path} is a symlink; the recall spool is only written to regular files") from None
            raise MemgitError(f"cannot open the recall spool {path}: {exc.strerror}") from None
        yield fd


def _read_fd(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    return os.pread(fd, size, 0) if size else b""


def append_spool(data_dir: Path, day: date, data: bytes) -> None:
    """One `write` of a search's lines at the end of the day's spool file, under its lock."""
    if not data:
        return
    with _locked(spool_dir(data_dir) / f"{day.isoformat()}.jsonl", create=True) as fd:
        assert fd is not None
        append_whole(fd, data, os.fstat(fd).st_size)


def read_spool(data_dir: Path) -> dict[str, list[str]]:
    """Each spool file's lines by tracked ledger path (no lock: appends are whole writes)."""
    out: dict[str, list[str]] = {}
    for path in spool_files(data_dir):
        with contextlib.suppress(OSError):
            lines = lines_of(path.read_bytes())
            if lines:
                out[tracked_path(path.name)] = lines
    return out


def pending_count(data_dir: Path) -> int:
    """Recall lines recorded here and not published yet."""
    return sum(len(lines) for lines in read_spool(data_dir).values())


def _drop(path: Path, taken: list[str]) -> None:
    """Remove published lines from one spool file: new file by rename, under the old one's lock."""
    with _locked(path, create=False) as fd:
        if fd is None:
            return
        left = remaining(lines_of(_read_fd(fd)), taken)
        if not left:
            path.unlink()
            return
        atomic_write(path, ("\n".join(left) + "\n").encode("utf-8"))


# --------------------------------------------------------------------------------- publishing


@contextlib.contextmanager
def publishing(data_dir: Path) -> Iterator[None]:
    """One publisher at a time per clone (two would both append the same lines before either
    commits); searches are not blocked: they take the spool files' own locks."""
    lock = data_dir / "locks" / "recall-publish.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with locks.exclusive(lock, timeout=None, poll=0.01):
        yield


@dataclass
class Staged:
    """Spool lines written into the tracked ledger files, not committed yet."""

    paths: list[str] = field(default_factory=list)
    lines: int = 0
    taken: dict[Path, list[str]] = field(default_factory=dict)
    before: dict[str, bytes | None] = field(default_factory=dict)
    dropped: int = 0
    made_dirs: list[Path] = field(default_factory=list)


def _check_target(root: Path, rel: str) -> bytes | None:
    """The tracked ledger file's bytes (None when absent), refusing anything but a regular file
    in a folder that is, or can be made, a real folder: checked for every file before any write."""
    target = root / rel
    folder = root
    for part in rel.split("/")[:-1]:
        folder = folder / part
        mode = _own_mode(folder, folder.relative_to(root).as_posix())
        if mode is None:
            break  # made when writing
        if not stat.S_ISDIR(mode):
            raise PublishRefused(f"{folder.relative_to(root)} is not a folder; move it away and publish again")
    mode = _own_mode(target, rel)
    if mode is None:
        return None
    if not stat.S_ISREG(mode):
        raise PublishRefused(f"{rel} is not a regular file; move it away and publish again")
    try:
        return target.read_bytes()
    except OSError as exc:
        raise PublishRefused(f"cannot read {rel}: {exc.strerror}") from None


def _own_mode(path: Path, shown: str) -> int | None:
    """The mode of `path` itself, None when absent; a symlink is refused (the ledger is written
    only to real files in real folders, never through a link to somewhere else)."""
    try:
        mode = os.stat(path, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PublishRefused(f"cannot use {shown}: {exc.strerror}") from None
    if stat.S_ISLNK(mode):
        raise PublishRefused(f"{shown} is a symlink; the recall ledger is only written to real files and folders")
    return mode


def stage(root: Path, git_dir: Path, data_dir: Path) -> Staged:
    """Append the spool's new lines to the tracked ledger files (refusing a half-done merge, a
    ledger file with conflict markers, or one that is not a regular file, before writing anything;
    undoing what was written when a write fails). Spool lines the ledger parser rejects (a torn
    write, a hand edit, bytes that are not UTF-8) are never published: they are dropped from the
    spool with the rest, and counted in `dropped`."""
    staged = Staged()
    spools = spool_files(data_dir)
    if not spools:
        return staged
    from memgit.git import trees

    operation = trees.operation_in_progress(git_dir)
    if operation:
        raise PublishRefused(f"cannot publish the recall spool during {operation}; finish it (or abort it) first")
    plans: list[tuple[Path, str, bytes | None, list[str], list[str]]] = []
    for spool in spools:
        with _locked(spool, create=False) as fd:
            lines, good = sort_lines(_read_fd(fd)) if fd is not None else ([], [])
        if not lines:
            continue
        rel = tracked_path(spool.name)
        before = _check_target(root, rel) if good else None
        if before is not None and has_conflict_markers(before.decode("utf-8", errors="replace")):
            raise PublishRefused(
                f"{rel} holds merge conflict markers; resolve them (keep both sides' lines) and commit first"
            )
        staged.dropped += len(lines) - len(good)
        plans.append((spool, rel, before, lines, new_lines(lines_of(before or b""), good) if good else []))
    try:
        for spool, rel, before, lines, fresh in plans:
            staged.taken[spool] = lines
            if fresh:
                target = root / rel
                _make_dirs(root, target.parent, staged)
                staged.before[rel] = before
                _append_whole(target, append_payload(before or b"", fresh), len(before or b""))
                staged.lines += len(fresh)
            if fresh or before is not None:
                staged.paths.append(rel)
    except TornAppend as exc:
        _undo_writes(root, staged)
        raise PublishRefused(
            f"cannot write the recall ledger: {exc}; a ledger file ends in part of a line: "
            "`memgit lint` names it; delete that part by hand (the lines stay in the spool)"
        ) from None
    except OSError as exc:
        _undo_writes(root, staged)
        raise PublishRefused(
            f"cannot write the recall ledger: {exc.strerror or exc}"
            + (f" ({exc.filename})" if exc.filename else "")
            + "; nothing was published, the lines stay in the spool"
        ) from None
    return staged


def _make_dirs(root: Path, folder: Path, staged: Staged) -> None:
    """`mkdir -p`, remembering each folder it made so a failed publish can remove it again."""
    missing: list[Path] = []
    while not folder.exists() and folder != root:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir()
        staged.made_dirs.append(path)


def _append_whole(target: Path, data: bytes, size: int) -> None:
    """Append `data` to the ledger file `target` (`size` bytes long now), all of it or none."""
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        append_whole(fd, data, size)
    finally:
        os.close(fd)


def _undo_writes(root: Path, staged: Staged) -> None:
    """The tracked files as they were before `stage` (cut back to their size, which needs no free
    space; new ones and new folders gone)."""
    for rel, before in staged.before.items():
        target = root / rel
        with contextlib.suppress(OSError):
            if before is None:
                target.unlink()
            else:
                os.truncate(target, len(before))
    for folder in reversed(staged.made_dirs):
        with contextlib.suppress(OSError):
            folder.rmdir()


def rollback(repo: Repo, staged: Staged) -> None:
    """Undo `stage` after a failed commit: the tracked files and git's index as they were."""

    _undo_writes(repo.root, staged)
    if staged.paths:
        repo.unstage(staged.paths)


def finish(staged: Staged) -> None:
    """After the commit: drop the published lines from the spool."""
    for spool, lines in staged.taken.items():
        _drop(spool, lines)


def publish(repo: Repo, git_dir: Path, data_dir: Path, message: str | None = None) -> PublishResult:
    """Publish the spool: append, commit only the ledger paths, then drop the published lines."""
    with publishing(data_dir):
        return _publish(repo, git_dir, data_dir, message)


def _publish(repo: Repo, git_dir: Path, data_dir: Path, message: str | None) -> PublishResult:
    from memgit.git import commits

    staged = stage(repo.root, git_dir, data_dir)
    result = PublishResult(lines=staged.lines, paths=staged.paths, dropped=staged.dropped)
    if not staged.paths:
        if staged.taken:  # only lines the ledger parser rejects: nothing to commit, drop them
            finish(staged)
            result.pending = pending_count(data_dir)
        return result
    if set(repo.changed_paths_under(LEDGER_DIR)) & set(staged.paths):
        message = message or f"memory: publish {staged.lines} recall ledger line(s)"
        try:
            result.commit = commits.commit_paths(repo, staged.paths, message)
        except commits.CommitFailed as exc:
            rollback(repo, staged)
            raise PublishRefused(
                f"git commit of the recall ledger failed ({exc.complaint}); "
                + exc.advice("the lines stay in the spool; fix the problem and publish again")
            ) from None
    finish(staged)
    result.pending = pending_count(data_dir)
    return result
