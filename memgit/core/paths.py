"""Pure path rules: which repository paths are memory, glob matching, daily-log dates."""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Iterable

from memgit.errors import BadPattern

#: Any dated memory file (`memory/2026-02-06.md`, `sessions/2026-02-06-x.jsonl`): dates for decay.
DAILY_RE = re.compile(r"(?:^|/)(\d{4})-(\d{2})-(\d{2})(?:[^/]*)\.(?:md|jsonl)$")
#: The daily log itself, exactly `memory/YYYY-MM-DD.md`: append-only, one per day.
DAILY_LOG_RE = re.compile(r"^memory/(\d{4})-(\d{2})-(\d{2})\.md$")
#: Dreaming's evidence: the recall ledger, one append-only JSONL file a day (never indexed).
LEDGER_DIR = "memory/.dreams/recall"
#: Where each dream's concepts are placed, one JSON file a day beside the report (never indexed).
CONCEPTS_DIR = "memory/.dreams/concepts"
#: Dream reports, one Markdown file a day: what a dreaming run saw and proposed.
DREAM_REPORT_DIR = "memory/dreams"
#: The provenance of MEMORY.md's entries (what each dream proposed, from where, why), append-only
#: JSONL beside the short markers in MEMORY.md (never indexed, merge=union).
ENTRIES_PATH = "memory/.dreams/entries.jsonl"
#: Review decisions (a proposal rejected, a forget refused), one append-only JSONL file a day.
DECISIONS_DIR = "memory/.dreams/decisions"


@functools.lru_cache(maxsize=256)
def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Compile a git-style glob (`*`, `?`, `**`, `[...]` classes) over '/'-separated paths.

    The wildmatch rules come from `pathspec` (git's own); the pattern is anchored at the
    repository root, as `memgit.toml` globs and `--path` filters are written. A trailing
    `/` means everything below that folder.
    """
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    text = pattern if pattern.startswith("/") else "/" + pattern
    if text.endswith("/"):
        text += "**"
    try:
        regex, _include = GitIgnoreSpecPattern.pattern_to_regex(text)
    except ValueError as exc:  # pathspec's GitIgnorePatternError, e.g. a lone trailing backslash
        raise BadPattern(f"invalid glob {pattern!r}: {exc}") from None
    try:
        return re.compile(regex or r"(?!)")
    except re.error as exc:  # a class pathspec passes through, e.g. the reversed range `[z-a]`
        raise BadPattern(f"invalid glob {pattern!r}: {exc.msg}") from None


def glob_match(pattern: str, path: str) -> bool:
    """True when the whole of `path` (a file, not a folder above it) matches `pattern`."""
    match = glob_to_regex(pattern).match(path)
    if match is None:
        return False
    return "ps_d" not in match.re.groupindex or match.group("ps_d") is None


# -- lossless text form of a path --------------------------------------------------------------
# Git allows any bytes in a file name; SQLite text and JSON must be valid Unicode. Paths travel
# through memgit as `str` with undecodable bytes as surrogate escapes (`os.fsdecode` style), and
# are stored and shown in git's own quoting (`"memory/caf\351.md"`, as `git ls-files` prints
# it) when, and only when, they need it. Memory paths never begin with `"`, so the two forms
# never collide.
def path_key(path: str) -> str:
    """The stored/displayed form of a path: itself when it is valid UTF-8, else git's quoting."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        if not path.startswith('"'):
            return path
    raw = path.encode("utf-8", "surrogateescape")
    out = []
    for byte in raw:
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def display_path(path: str) -> str:
    """A path for one line of text output: `path_key`, and git's quoting also for a name holding a
    control character (a newline in a name must not break the line; `memgit get` reads it back)."""
    key = path_key(path)
    if key.startswith('"') or not any(ord(c) < 0x20 or ord(c) == 0x7F for c in key):
        return key
    out = []
    for char in key:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\{ord(char):03o}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def path_from_key(key: str) -> str:
    """The inverse of `path_key`."""
    if not key.startswith('"') or not key.endswith('"') or len(key) < 2:
        return key
    body = key[1:-1]
    raw = bytearray()
    i = 0
    while i < len(body):
        char = body[i]
        if char == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in '"\\':
                raw.append(ord(nxt))
                i += 2
                continue
            digits = body[i + 1 : i + 4]
            if len(digits) == 3 and all(d in "01234567" for d in digits):
                raw.append(int(digits, 8))
                i += 4
                continue
        raw.extend(char.encode("utf-8", "surrogateescape"))
        i += 1
    return bytes(raw).decode("utf-8", "surrogateescape")


def is_memory_path(path: str, extra_paths: Iterable[str] = (), sessions: bool = True) -> bool:
    """The memory files of a workspace, by repository-relative POSIX path.

    Hidden directories (e.g. `memory/.dreams/`, dreaming's own evidence) are not memory:
    indexing them would let dreaming feed on its own output.
    """
    if not path or path.startswith("/") or "\x00" in path:
        return False
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return False
    if path in ("MEMORY.md", "USER.md"):
        return True
    if parts[0] == "memory" and path.endswith(".md") and not any(p.startswith(".") for p in parts[1:]):
        return True
    if sessions and len(parts) == 2 and parts[0] == "sessions" and path.endswith(".jsonl"):
        return True
    if any(part.startswith(".") for part in parts):
        return False  # hidden folders (.git, memory/.dreams, ...) are never memory
    return any(glob_match(pattern, path) for pattern in extra_paths)


def daily_date(path: str) -> str | None:
    """`memory/2026-02-06.md` (or `sessions/2026-02-06-x.jsonl`) -> '2026-02-06'; else None."""
    if path in ("MEMORY.md", "USER.md"):
        return None
    match = DAILY_RE.search(path)
    if not match:
        return None
    year, month, day = (int(g) for g in match.groups())
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:  # e.g. 2026-02-30 is no date
        return None


def daily_log_path(day: datetime.date) -> str:
    """Workspace-relative path of the daily log for `day` (`memory/YYYY-MM-DD.md`)."""
    return f"memory/{day.isoformat()}.md"


def daily_log_day(path: str) -> datetime.date | None:
    """The day of a daily log (`memory/YYYY-MM-DD.md` exactly), or None for any other path."""
    match = DAILY_LOG_RE.match(path)
    if not match:
        return None
    try:
        return datetime.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def yesterday(day: datetime.date) -> datetime.date:
    return day - datetime.timedelta(days=1)


def normalise_user_path(user_path: str) -> str | None:
    """A path typed by a user or an agent -> repository-relative POSIX path, or None if unsafe."""
    if not user_path or "\x00" in user_path:
        return None
    path = user_path.replace("\\", "/")
    if path.startswith("/") or re.match(r"^[A-Za-z]:", path):
        return None
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        return None
    return "/".join(parts)
