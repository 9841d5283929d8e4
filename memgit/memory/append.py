"""Appending to memory safely: today's daily log or MEMORY.md.

Several writers (an MCP server, a shell, a cron job) may append to the same daily log at the
same moment. Two rules keep that safe:

* Every append takes an exclusive lock for the target file (`core.locks`) and writes with `O_APPEND`, so
  concurrent entries never interleave and nothing written earlier is ever rewritten (the
  pre-commit lint refuses rewritten past logs; the writer must never trip it).
* What to write is decided by pure functions (`clean_text`, `render_entry`) from the file's
  last few bytes, read under the same lock, so the I/O shell stays tiny and testable.

Text is refused (never silently altered beyond newline normalisation) when it is empty, too
large, or carries control characters: an escape sequence or a bidi override in memory is an
injection vector for whatever renders or reads it later.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.config import McpConfig
from memgit.core import clock, locks
from memgit.core.atomic import TornAppend, append_whole
from memgit.core.paths import daily_log_path
from memgit.core.text import invalid_utf8_at
from memgit.errors import MemgitError

if TYPE_CHECKING:
    from memgit.git.repo import Repo
    from memgit.workspace import Workspace

#: Largest append accepted, in characters. Memory is notes, not documents: anything bigger is
#: almost certainly a pasted file or a runaway loop, and would bloat every session's context.
DEFAULT_MAX_APPEND_CHARS = McpConfig.max_append_chars  # declared once, in the config schema

#: How long a writer waits for another writer's lock before giving up, and how often it looks.
LOCK_TIMEOUT_SECONDS = 10.0
POLL_SECONDS = 0.01

#: Bytes read from the end of the target to decide separators and heading reuse.
_TAIL_BYTES = 4096

LONG_TERM_PATH = "MEMORY.md"

_HEADING_RE = re.compile(r"^## (\d{2}:\d{2})\s*$")

#: Unicode bidi embedding/override/isolate controls ("Trojan Source"): they make text read
#: differently from how it is stored.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class AppendRefused(MemgitError):
    """The text (or the target) cannot be appended; the message says why and what to do."""


@dataclass
class AppendResult:
    """What an append did, with the exact lines written so callers can cite them."""

    path: str
    start_line: int
    end_line: int
    heading: str | None
    created: bool
    commit: str | None = None
    notices: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# --------------------------------------------------------------------------------------------
# Pure logic


def find_control_character(text: str) -> tuple[int, str] | None:
    """First forbidden character and its offset, or None.

    Newline and tab are the only controls memory text needs; C0/C1 controls, DEL and bidi
    overrides are refused. (Carriage returns are normalised away before this check.)
    """
    for offset, char in enumerate(text):
        if char in "\n\t":
            continue
        code = ord(char)
        if code < 0x20 or code == 0x7F or 0x80 <= code <= 0x9F or char in _BIDI_CONTROLS:
            return offset, char
    return None


def clean_text(text: str, *, max_chars: int = DEFAULT_MAX_APPEND_CHARS) -> str:
    """Validate and normalise text for appending; raise `AppendRefused` with the fix.

    Only harmless normalisation happens here: CRLF/CR become LF, trailing spaces on each
    line and blank lines at either end go. Anything else that is wrong is refused, so what
    is stored is exactly what the caller meant.
    """
    if not isinstance(text, str):
        raise AppendRefused("text must be a string")
    bad = invalid_utf8_at(text)
    if bad is not None:
        raise AppendRefused(
            f"the text is not valid UTF-8 (at character {bad}): convert it to UTF-8 (e.g. with iconv) and try again"
        )
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    found = find_control_character(text)
    if found is not None:
        offset, char = found
        name = unicodedata.name(char, "control character")
        raise AppendRefused(
            f"text contains a control character (U+{ord(char):04X} {name}) at offset {offset}; "
            "only newlines and tabs are allowed: remove it and try again"
        )
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    cleaned = "\n".join(lines)
    if not cleaned:
        raise AppendRefused("text is empty: nothing to append")
    if len(cleaned) > max_chars:
        raise AppendRefused(
            f"text is {len(cleaned):,} characters, over the limit of {max_chars:,} for one append; "
            "store a short summary instead, or split it into several smaller notes"
        )
    return cleaned


def last_heading(tail: str) -> str | None:
    """The last `## HH:MM` heading in `tail`, if no other heading follows it."""
    for line in reversed(tail.split("\n")):
        match = _HEADING_RE.match(line)
        if match:
            return match.group(1)
        if line.startswith("#"):
            return None
    return None


def render_entry(
    tail: str,
    text: str,
    *,
    title: str | None = None,
    heading: str | None = None,
) -> tuple[str, int]:
    """The exact string to append after `tail` (the file's current ending), and the offset in
    it where `text` itself starts.

    `tail` is "" for an empty or new file, in which case `title` (e.g. `# 2026-02-06`) is
    written first. An entry under `heading` reuses the file's last heading when it is the same
    minute, so a burst of appends reads as one section rather than a stack of identical
    headings. Entries are separated by one blank line, whatever the file ended with.
    """
    out = f"{title}\n" if not tail and title else ""
    ending = tail + out  # what the file ends with as `out` grows
    if ending and not ending.endswith("\n"):
        out += "\n"
        ending += "\n"
    if heading is not None and last_heading(ending) != heading:
        if ending and not ending.endswith("\n\n"):
            out += "\n"
        out += f"## {heading}\n"
        ending = f"## {heading}\n"
    if ending and not ending.endswith("\n\n"):
        out += "\n"
    return out + text + "\n", len(out)


# --------------------------------------------------------------------------------------------
# I/O


@contextlib.contextmanager
def append_lock(lock_path: Path, target: Path, timeout: float, *, holder: str = "another writer") -> Iterator[None]:
    """An exclusive lock for appends to one file (`core.locks`: flock on POSIX, msvcrt on Windows).

    The lock is a separate file (under `.git/memgit/locks/` for workspace appends), never the
    memory file itself, so replacing the memory file cannot leave a writer holding a lock on
    a file the path no longer names. A lock that cannot be created (a read-only `.git`) refuses
    the append before anything is written.
    """
    with contextlib.ExitStack() as held:
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            held.enter_context(locks.exclusive(lock_path, timeout, POLL_SECONDS))
        except locks.LockBusy:
            raise AppendRefused(
                f"{holder} has held the lock on {target.name} for over {timeout:.0f} s; try again in a moment"
            ) from None
        except OSError as exc:
            folder = lock_path.parent
            while not folder.exists() and folder != folder.parent:
                folder = folder.parent
            raise AppendRefused(
                f"cannot create the lock file {lock_path}: {exc.strerror or exc}; "
                f"memgit needs write access to {folder}: fix its permissions and try again (nothing was written)"
            ) from None
        yield


def _refuse_non_folders(root: Path, rel: str) -> None:
    """Refuse when a folder on the way to `rel` is something else (e.g. a file named `memory`),
    before anything is written; the error says what memgit expects there."""
    parts = rel.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        folder = "/".join(parts[:depth])
        try:
            st = os.stat(root / folder)
        except FileNotFoundError:
            return  # created by the append
        except OSError as exc:
            raise AppendRefused(f"cannot look at {folder}: {exc.strerror}") from None
        if not stat.S_ISDIR(st.st_mode):
            if folder == "memory":
                raise AppendRefused(
                    "memory is a file, not a folder; memgit keeps daily logs in memory/YYYY-MM-DD.md: "
                    "rename that file (e.g. `git mv memory memory.md`) and try again"
                )
            raise AppendRefused(f"{folder} is a file, not a folder, so {rel} cannot be written there")


def _open_for_append(abs_path: Path) -> tuple[int, bool]:
    """Open `abs_path` for appending (creating it); returns the descriptor and whether the file
    was empty. Refuses symlinks (O_NOFOLLOW) and anything but a regular file."""
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(abs_path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise AppendRefused(f"{abs_path.name} is a symlink; memgit only appends to regular files") from exc
        raise AppendRefused(f"cannot open {abs_path}: {exc.strerror}") from exc
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        _close_quietly(fd)
        raise AppendRefused(f"{abs_path.name} is not a regular file")
    return fd, st.st_size == 0


def _close_quietly(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


def count_newlines(fd: int, size: int) -> int:
    """Newlines in the first `size` bytes, read in blocks (logs can be long)."""
    count = 0
    offset = 0
    while offset < size:
        block = os.pread(fd, min(1 << 20, size - offset), offset)
        if not block:
            break
        count += block.count(b"\n")
        offset += len(block)
    return count


def _read_tail(fd: int, size: int) -> str:
    """The file's last few KB as text; a multi-byte character cut at the start decodes to
    U+FFFD, which only the heading check could ever see."""
    start = max(0, size - _TAIL_BYTES)
    return os.pread(fd, size - start, start).decode("utf-8", errors="replace")


def write_entry(
    abs_path: Path,
    text: str,
    *,
    title: str | None,
    heading: str | None,
    lock_timeout: float = LOCK_TIMEOUT_SECONDS,
    lock_path: Path | None = None,
) -> tuple[int, int, bool]:
    """Append `text` (already cleaned) to `abs_path` under an exclusive lock.

    Returns `(start_line, end_line, created)` of the text itself (1-based, inclusive).
    The file is only ever extended: it is opened with O_APPEND and a single `write` lands
    at its end, whatever else happens.
    """
    if lock_path is None:
        lock_path = abs_path.with_name(f".{abs_path.name}.lock")
    with append_lock(lock_path, abs_path, lock_timeout):
        try:
            abs_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AppendRefused(f"cannot create the folder {abs_path.parent}: {exc.strerror or exc}") from None
        existed = os.path.lexists(abs_path)
        fd, empty = _open_for_append(abs_path)
        try:
            size = os.fstat(fd).st_size
            tail = _read_tail(fd, size) if size else ""
            chunk, text_offset = render_entry(tail, text, title=title, heading=heading)
            start_line = count_newlines(fd, size) + chunk[:text_offset].count("\n") + 1
            end_line = start_line + text.count("\n")
            _write_all_or_nothing(fd, chunk.encode("utf-8"), size, abs_path, created=not existed)
            return start_line, end_line, empty
        finally:
            _close_quietly(fd)


def _write_all_or_nothing(fd: int, data: bytes, size: int, abs_path: Path, *, created: bool) -> None:
    """The entry in one append, or the file as it was (a file this append created is removed):
    a full disk never leaves half a note for the next append to follow."""
    try:
        append_whole(fd, data, size)
    except TornAppend as exc:
        raise AppendRefused(
            f"cannot append to {abs_path.name}: {exc}; it ends in part of the text (after byte {size:,}): "
            "delete that by hand"
        ) from None
    except OSError as exc:
        if created:
            with contextlib.suppress(OSError):
                abs_path.unlink()
        raise AppendRefused(
            f"cannot append to {abs_path.name}: {exc.strerror or exc}; nothing was written (the file is as it was)"
        ) from None


def lint_text(ws: Workspace, path: str, text: str, today: date) -> list[str]:
    """Run the pre-commit hook's memory lint on the text about to be appended.

    Errors (a secret, a conflict marker, ...) refuse the append before anything is written,
    so the commit hook will not refuse it later; warnings (instruction-like phrasing) are
    returned for the caller to show. The text is linted on its own: an append cannot trip
    the past-log rule, since it never rewrites anything.
    """
    from memgit.lint import rules
    from memgit.lint.files import report_settings

    settings = report_settings(ws)  # a lint: a short code found elsewhere is no reason to refuse
    findings = rules.lint_file(rules.LintInput(path, text.encode("utf-8")), settings, today)
    errors = [f for f in findings if f.severity == rules.ERROR]
    if errors:
        detail = "; ".join(f"{f.code} {f.message} (line {f.line} of the text)" for f in errors)
        raise AppendRefused(f"memory lint refused the text: {detail}")
    return [f"lint warning {f.code}: {f.message} (line {f.line} of the text)" for f in findings]


#: How long a `--commit` append waits for another one to finish its commit (hooks may index).
COMMIT_LOCK_TIMEOUT_SECONDS = 120.0


def _committed_already(repo: Repo, rel: str, start: int, end: int, text: str) -> str | None:
    """HEAD's id when HEAD already holds `text` at lines `start`-`end` of `rel` (another process
    committed the file after this append), else None."""

    try:
        head, tree = repo.head_ids()
        entry = repo.entries(tree, [rel]).get(rel)
        if head is None or entry is None:
            return None
        lines = repo.read_blob(entry.blob).decode("utf-8", errors="replace").split("\n")
    except (MemgitError, OSError, KeyError, ValueError):
        return None
    return head if lines[start - 1 : end] == text.split("\n") else None


def _refuse_commit_now(ws: Workspace, rel: str) -> None:
    """Refuse `--commit` up front, before anything is written, when git could not take the
    commit: a merge (rebase, cherry-pick...) waiting to be finished, or `rel` itself in conflict."""
    from memgit.git import trees
    from memgit.memory.conflicts import conflict_advice

    operation = trees.operation_in_progress(ws.git_dir)
    if operation:
        raise AppendRefused(
            f"cannot commit during {operation}: finish it (or abort it) first, or append without --commit; "
            "nothing was written"
        )
    if rel in ws.git.unmerged_paths():
        raise AppendRefused(f"cannot append and commit now: {conflict_advice(rel)}; nothing was written")


def append_memory(
    ws: Workspace,
    text: str,
    *,
    long_term: bool = False,
    commit: bool = False,
    now: datetime | None = None,
    max_chars: int = DEFAULT_MAX_APPEND_CHARS,
    lint: bool = True,
) -> AppendResult:
    """Append `text` to today's daily log under a `## HH:MM` heading (local time), or to
    MEMORY.md with `long_term`; optionally commit just that file.

    Validation and lint run before anything is written, so a refused append leaves no trace.
    With `commit`, appends that commit hold one lock per clone from the write to the end of
    the commit, so each run commits its own text (none finds it already committed by another).
    """
    ws.config.require_readable("appending to memory")  # its lint, paths and limits are settings
    now = now or clock.local_now()
    cleaned = clean_text(text, max_chars=max_chars)
    if long_term:
        rel, title, heading = LONG_TERM_PATH, "# Long-term Memory", None
    else:
        rel = daily_log_path(now.date())
        title, heading = f"# {now.date().isoformat()}", now.strftime("%H:%M")
    rel = ws.safe_memory_path(rel)
    _refuse_non_folders(ws.root, rel)
    if commit:
        _refuse_commit_now(ws, rel)
    notices = lint_text(ws, rel, cleaned, now.date()) if lint else []
    locks = ws.data_dir / "locks"
    lock_path = locks / (hashlib.sha1(rel.encode("utf-8")).hexdigest() + ".lock")
    if not commit:
        start, end, created = write_entry(ws.root / rel, cleaned, title=title, heading=heading, lock_path=lock_path)
        return AppendResult(path=rel, start_line=start, end_line=end, heading=heading, created=created, notices=notices)
    with append_lock(
        locks / "append-commit.lock", ws.root / rel, COMMIT_LOCK_TIMEOUT_SECONDS, holder="another `--commit` append"
    ):
        start, end, created = write_entry(ws.root / rel, cleaned, title=title, heading=heading, lock_path=lock_path)
        result = AppendResult(
            path=rel, start_line=start, end_line=end, heading=heading, created=created, notices=notices
        )
        result.commit = _commit_append(ws, result, cleaned, long_term=long_term)
    return result


def _commit_append(ws: Workspace, result: AppendResult, text: str, *, long_term: bool) -> str:
    """Commit the appended file (and the recall spool's new ledger lines) after `append_memory`."""
    rel = result.path
    where = "long-term memory" if long_term else "daily log"
    message = f"memory: append to {where} {rel}"
    # The recall spool is published in the same commit: that is how CI's dreaming sees the
    # evidence. A spool that cannot be published now (mid-merge, conflicted ledger) stays put.
    from memgit.git import commits
    from memgit.ledger import spool

    with spool.publishing(ws.data_dir):
        try:
            staged = spool.stage(ws.root, ws.git_dir, ws.data_dir)
        except spool.PublishRefused as exc:
            staged = spool.Staged()
            result.notices.append(f"recall lines not published: {exc}")
        try:
            commit = commits.commit_paths(ws.git, [rel, *staged.paths], message)
        except commits.CommitFailed as exc:
            spool.rollback(ws.git, staged)
            # Someone else's commit (a plain `git commit -a`) may already hold the text: then
            # there was nothing left to commit, which is success (the spool keeps its lines).
            done = _committed_already(ws.git, rel, result.start_line, result.end_line, text)
            if done is not None:
                result.notices.append(f"the text was already committed (in {done[:12]}) by another process")
                return done
            advice = f'then commit the text yourself: git add {rel} && git commit -m "{message}" -- {rel}'
            if "index.lock" not in exc.complaint:
                advice = "fix that, " + advice
            raise AppendRefused(
                f"the text was appended to {rel} (lines {result.start_line}-{result.end_line}), but git commit "
                f"failed ({exc.complaint}); {exc.advice(advice)}"
            ) from None
        spool.finish(staged)
        if staged.dropped:
            result.notices.append(f"dropped {staged.dropped} malformed recall line(s) from the spool")
    return commit
