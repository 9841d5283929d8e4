"""Appending to memory safely: today's daily log or MEMORY.md.

Several writers (an MCP server, a shell, a cron job) may append to the same daily log at the
same moment. Two rules keep that safe:

* Every append takes an exclusive `flock` on the target file and writes with `O_APPEND`, so
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
import fcntl
import os
import re
import stat
import subprocess
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.config import McpConfig
from memgit.core.paths import daily_log_path
from memgit.errors import MemgitError

if TYPE_CHECKING:
    from memgit.workspace import Workspace

#: Largest append accepted, in characters. Memory is notes, not documents: anything bigger is
#: almost certainly a pasted file or a runaway loop, and would bloat every session's context.
DEFAULT_MAX_APPEND_CHARS = McpConfig.max_append_chars  # declared once, in the config schema

#: How long a writer waits for another writer's lock before giving up.
LOCK_TIMEOUT_SECONDS = 10.0

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


def _open_locked(abs_path: Path, timeout: float) -> tuple[int, bool]:
    """Open `abs_path` for appending (creating it), holding an exclusive flock.

    Returns the descriptor and whether the file was empty. Refuses symlinks (O_NOFOLLOW) and
    re-opens if the file was replaced (renamed over) while we waited for the lock, so the
    lock always guards the file that the path names.
    """
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
    deadline = time.monotonic() + timeout
    while True:
        try:
            fd = os.open(abs_path, flags, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise AppendRefused(f"{abs_path.name} is a symlink; memgit only appends to regular files") from exc
            raise AppendRefused(f"cannot open {abs_path}: {exc.strerror}") from exc
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise AppendRefused(
                            f"another writer has held the lock on {abs_path.name} for over "
                            f"{timeout:.0f} s; try again in a moment"
                        ) from None
                    time.sleep(0.01)
            st = os.fstat(fd)
            try:
                current = os.stat(abs_path, follow_symlinks=False)
            except FileNotFoundError:
                current = None
            if current is None or (current.st_ino, current.st_dev) != (st.st_ino, st.st_dev):
                os.close(fd)
                continue
            if not stat.S_ISREG(st.st_mode):
                raise AppendRefused(f"{abs_path.name} is not a regular file")
            return fd, st.st_size == 0
        except BaseException:
            _close_quietly(fd)
            raise


def _close_quietly(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


def _count_newlines(fd: int, size: int) -> int:
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
) -> tuple[int, int, bool]:
    """Append `text` (already cleaned) to `abs_path` under an exclusive lock.

    Returns `(start_line, end_line, created)` of the text itself (1-based, inclusive).
    The file is only ever extended: it is opened with O_APPEND and a single `write` lands
    at its end, whatever else happens.
    """
    abs_path.parent.mkdir(parents=True, exist_ok=True)
    fd, empty = _open_locked(abs_path, lock_timeout)
    try:
        size = os.fstat(fd).st_size
        tail = _read_tail(fd, size) if size else ""
        chunk, text_offset = render_entry(tail, text, title=title, heading=heading)
        start_line = _count_newlines(fd, size) + chunk[:text_offset].count("\n") + 1
        end_line = start_line + text.count("\n")
        data = chunk.encode("utf-8")
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
        os.fsync(fd)
        return start_line, end_line, empty
    finally:
        _close_quietly(fd)  # closing releases the flock


def lint_text(ws: Workspace, path: str, text: str, today: date) -> list[str]:
    """Run the pre-commit hook's memory lint on the text about to be appended.

    Errors (a secret, a conflict marker, ...) refuse the append before anything is written,
    so the commit hook will not refuse it later; warnings (instruction-like phrasing) are
    returned for the caller to show. The text is linted on its own: an append cannot trip
    the past-log rule, since it never rewrites anything.
    """
    from memgit.core import lint
    from memgit.memory.lint import lint_settings

    settings = lint_settings(ws.config.lint, default_max_bytes=ws.config.memory.max_file_bytes)
    findings = lint.lint_file(lint.LintInput(path, text.encode("utf-8")), settings, today)
    errors = [f for f in findings if f.severity == lint.ERROR]
    if errors:
        detail = "; ".join(f"{f.code} {f.message} (line {f.line} of the text)" for f in errors)
        raise AppendRefused(f"memory lint refused the text: {detail}")
    return [f"lint warning {f.code}: {f.message} (line {f.line} of the text)" for f in findings]


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    for key in ("GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE"):
        env.pop(key, None)  # inherited from an outer hook, these would point git elsewhere
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, env=env, check=False)


def commit_paths(root: Path, paths: list[str], message: str, *, attempts: int = 20) -> str:
    """Commit exactly `paths` with the user's own git, so their hooks (memgit's indexer,
    the lint) run as for any commit. Other staged changes stay staged and out of it.

    INTEGRATION POINT: this is the writer's only git call; it shells out on purpose, because
    hooks run only for a real `git commit`. Retries while another git process holds the index
    lock (two writers committing at once).
    """
    last_error = ""
    for attempt in range(attempts):
        proc = _git(root, "add", "--", *paths)
        if proc.returncode == 0:
            proc = _git(root, "commit", "-q", "-m", message, "--only", "--", *paths)
            if proc.returncode == 0:
                return _git(root, "rev-parse", "HEAD").stdout.strip()
        last_error = (proc.stderr + proc.stdout).strip()
        if "index.lock" not in last_error:
            break
        time.sleep(0.05 * (attempt + 1))
    raise AppendRefused(
        f"the text was appended, but git commit failed: {last_error or 'unknown error'}; "
        "fix the problem and commit the file yourself"
    )


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
    """
    now = now or datetime.now().astimezone()
    cleaned = clean_text(text, max_chars=max_chars)
    if long_term:
        rel, title, heading = LONG_TERM_PATH, "# Long-term Memory", None
    else:
        rel = daily_log_path(now.date())
        title, heading = f"# {now.date().isoformat()}", now.strftime("%H:%M")
    rel = ws.safe_memory_path(rel)
    notices = lint_text(ws, rel, cleaned, now.date()) if lint else []
    start, end, created = write_entry(ws.root / rel, cleaned, title=title, heading=heading)
    result = AppendResult(path=rel, start_line=start, end_line=end, heading=heading, created=created, notices=notices)
    if commit:
        where = "long-term memory" if long_term else "daily log"
        result.commit = commit_paths(ws.root, [rel], f"memory: append to {where} {rel}")
    return result
