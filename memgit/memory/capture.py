"""Capturing a host's transcript into `sessions/YYYY-MM-DD-<session>.jsonl`, committed and indexed.

A host compacts or ends a session and what was said is gone from the agent's view; capture keeps
it as memory: user and assistant text, one line per tool call, nothing else
(`memgit.core.transcript_formats` decides). The guarantees, the same for every way in
(`memgit capture`, `memgit hook claude-code`):

* **Incremental.** Each stored line carries its turn's key; a second capture of the same
  transcript (PreCompact, then SessionEnd) appends only turns not stored yet. The file is only
  ever appended to, and `.gitattributes` merges `sessions/*.jsonl` by union, so two clones never
  conflict on it.
* **No secrets.** Every turn passes the lint's redaction (`memgit.lint.redact`) before it is
  written, and the encoded line is checked once more with the lint's own rules, so the pre-commit
  lint never refuses a capture and no commit ever holds a key.
* **Nothing half-written.** Everything is checked before a byte is written (a merge or rebase in
  progress, a conflicted or symlinked session file, a `sessions` that is not a folder). The
  append and the commit happen under the same locks as `memgit remember --commit`; when the commit
  fails (a hook refused it), the file is cut back to what it was and the error says so. The turns
  are still in the host's transcript, so the next capture takes them.
* **Bounded files.** A session file that would outgrow the lint's size limit continues in
  `…-<session>.2.jsonl`, `.3`, …; keys are read from every part.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core import clock
from memgit.core.atomic import TornAppend, append_whole
from memgit.core.transcript_formats import TranscriptError, Turn, parse_transcript
from memgit.errors import MemgitError
from memgit.lint.known import load_values, save_values
from memgit.lint.redact import (
    ConversationSecrets,
    Redaction,
    conversation_secrets,
    placeholder,
    redact_line,
    redact_text,
    secret_code,
)

if TYPE_CHECKING:
    from memgit.lint.rules import LintSettings
    from memgit.workspace import Workspace

SESSIONS_DIR = "sessions"
#: The environment of a capture's `git commit`: memgit's post-commit hook indexes the text only.
#: Embedding a long session took most of a capture's time (37 of 39 s for 1,688 turns) while the
#: host waited on it; the vectors are left pending and the next search, MCP call or hook fills them.
TEXT_ONLY_ENV = {"MEMGIT_EMBEDDING": "none", "MEMGIT_HOOK_LOCK_TIMEOUT": "0"}
#: (The hook does not wait for the index lock either: an MCP server's background work may hold it
#: for seconds, and a capture never waits on it; the server, or the next search, catches up.)
#: Longest session name kept in a file name; longer ids are cut and given a digest suffix.
MAX_SESSION_CHARS = 64
#: Longest text of one turn kept (a pasted log, a whole file): the rest is said to be left out.
MAX_TURN_CHARS = 100_000
_SESSION_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})-(?P<session>[A-Za-z0-9_-]+)(?:\.(?P<part>[2-9]|[1-9]\d+))?\.jsonl$")


class CaptureRefused(MemgitError):
    """The transcript cannot be captured now; the message says why, and that nothing was written."""


@dataclass
class CaptureResult:
    session: str
    format: str
    #: The session file the new turns went to (the last one, when they spilled into a new part).
    path: str | None = None
    #: Lines stored: turns of the user and the assistant, and `tool_calls` of them tool lines.
    added: int = 0
    tool_calls: int = 0
    already: int = 0
    #: Turns another session's file holds already (a forked session starts with copies of its
    #: parent's records, ids and all): not stored twice.
    copied: int = 0
    redacted: dict[str, int] = field(default_factory=dict)
    commit: str | None = None
    indexed: bool = False
    start_line: int | None = None
    end_line: int | None = None
    paths: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- pure parts -----------------------------------------------------------------------------------
def session_name(raw: str) -> str:
    """A session id as it may appear in a file name: letters, digits, `_` and `-` (pure). An id
    that had to change keeps a digest of the original, so two ids never share a file."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", raw.strip()).strip("-_") or "session"
    if cleaned == raw and len(cleaned) <= MAX_SESSION_CHARS:
        return cleaned
    digest = hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{cleaned[: MAX_SESSION_CHARS - 9]}-{digest}"


def session_files(names: list[str], session: str) -> list[str]:
    """The names in `sessions/` that hold `session`, first part first (pure)."""
    found = []
    for name in names:
        match = _SESSION_FILE.match(name)
        if match and match["session"] == session:
            found.append((int(match["part"] or 1), name))
    return [name for _part, name in sorted(found)]


_TURN_KEY = re.compile(rb'"turn": "([0-9a-f]{16})"\}$', re.MULTILINE)


def other_session_keys(folder: Path, own: set[str]) -> set[str]:
    """Turn keys stored in the session files not in `own`: read with one pattern over the bytes
    (every capture pays for it, and a years-long sessions/ folder is large). Unreadable files
    count for nothing."""
    keys: set[str] = set()
    for name in _names(folder):
        if name in own or not _SESSION_FILE.match(name):
            continue
        with contextlib.suppress(OSError):
            keys.update(m.decode() for m in _TURN_KEY.findall((folder / name).read_bytes()))
    return keys


def part_name(first: str, part: int) -> str:
    """`2026-12-01-abc.jsonl`, part 3 -> `2026-12-01-abc.3.jsonl` (pure)."""
    stem = first[: -len(".jsonl")]
    base = re.sub(r"\.\d+$", "", stem)
    return f"{base}.jsonl" if part == 1 else f"{base}.{part}.jsonl"


def stored_keys(text: str) -> set[str]:
    """Turn keys already in a session file's text; lines that are not ours are ignored."""
    keys = set()
    for line in text.split("\n"):
        if '"turn"' not in line:
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(record, dict) and isinstance(record.get("turn"), str):
            keys.add(record["turn"])
    return keys


def render_turn(
    turn: Turn, settings: LintSettings, known: Mapping[str, str] | None = None, *, clean: bool = False
) -> tuple[str, list[str]]:
    """One stored line for `turn`, secrets redacted by the lint's rules, and the rules that fired.
    `known`: the values its conversation holds (`ConversationSecrets.for_turn`: a code given in
    another turn, the answer to a question in the turn before), hidden here wherever they stand.
    `clean`: no rule hit this very text when the conversation was read (`ConversationSecrets.clean`),
    so unless a known value stands in it, its redaction would find nothing and is not run again.

    Redaction runs on the text (a flagged value of it becomes `[redacted: RULE]`); the encoded
    JSON line is then checked again, since JSON puts a multi-line text on one line and a rule may
    see across what were lines. Should it fire, the value it names is replaced in the encoded line
    when that leaves a valid record no rule flags; otherwise the whole text goes.
    """
    text = turn.text
    if len(text) > MAX_TURN_CHARS:
        text = text[:MAX_TURN_CHARS] + f"\n[memgit: {len(turn.text) - MAX_TURN_CHARS:,} more characters left out]"
    hidden = {**settings.known, **(known or {})}
    found: list[Redaction] = []
    if not (clean and text is turn.text and not any(value in text for value in hidden)):
        text, found = redact_text(
            text, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=hidden
        )
    codes = [r.code for r in found]
    line = _encode(turn, text)
    code = secret_code(
        line, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
    )
    if code is not None:
        codes.append(code)
        line = _redacted_record(line, settings) or _encode(turn, placeholder(code))
    return line, codes


def _redacted_record(line: str, settings: LintSettings) -> str | None:
    """`line` (an encoded record) with the values the rules name replaced, if it still parses as
    the same record and nothing flags any more; None otherwise."""
    out, _code = redact_line(
        line, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
    )
    try:
        record = json.loads(out)
    except json.JSONDecodeError:
        return None
    before = json.loads(line)
    if not isinstance(record, dict) or {k: v for k, v in record.items() if k != "content"} != {
        k: v for k, v in before.items() if k != "content"
    }:
        return None  # the value stood in a field other than the text: not this record any more
    if (
        secret_code(
            out, entropy_threshold=settings.entropy_threshold, severities=settings.severities, known=settings.known
        )
        is not None
    ):
        return None
    return out


def _encode(turn: Turn, text: str) -> str:
    record: dict[str, str] = {"role": turn.role, "content": _valid_unicode(text)}
    if turn.at:
        record["at"] = _valid_unicode(turn.at)
    record["turn"] = turn.key
    line = json.dumps(record, ensure_ascii=False)
    # JSON allows these raw, but they end a line for some readers: keep one record a line for all.
    return line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _valid_unicode(text: str) -> str:
    """JSON may spell a lone surrogate (`"\\ud83d"`); UTF-8 cannot hold one, and the lint would refuse
    the file. Such a character becomes U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    return text


def capture_count(turns: list[Turn]) -> str:
    """What a capture stored, as a commit message says it (pure): the user's and the assistant's
    turns, and the tool calls apart (a tool line is not a turn)."""
    said = sum(1 for t in turns if t.role != "tool")
    tools = len(turns) - said
    text = f"{said} turn{'s' if said != 1 else ''}"
    return text + (f" and {tools} tool call{'s' if tools != 1 else ''}" if tools else "")


def split_parts(sizes: list[int], current: int, limit: int) -> list[int]:
    """How many of the new lines (byte sizes, newline included) go to the current file, then to
    each next part, so no file grows past `limit` (a line larger than the limit gets a part of
    its own). Pure."""
    counts = [0]
    used = current
    for size in sizes:
        if used and used + size > limit:
            counts.append(0)
            used = 0
        counts[-1] += 1
        used += size
    return counts


# -- I/O ------------------------------------------------------------------------------------------
def check_transcript(path: Path) -> None:
    """Refuse, in one line, a transcript that is missing or not a regular file (before any work:
    a hook that captures in a detached process says so while its host still listens)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise CaptureRefused(f"transcript {path} does not exist; nothing was captured") from None
    except OSError as exc:
        raise CaptureRefused(f"cannot look at transcript {path}: {exc.strerror or exc}; nothing was captured") from None
    if not stat.S_ISREG(st.st_mode):
        raise CaptureRefused(f"transcript {path} is not a regular file; nothing was captured")


def read_transcript(path: Path) -> str:
    """The transcript's text; a missing, unreadable or special file is refused in one line."""
    check_transcript(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CaptureRefused(f"cannot read transcript {path}: {exc.strerror or exc}; nothing was captured") from None
    return data.decode("utf-8", errors="replace")


def capture_transcript(
    ws: Workspace,
    transcript: Path,
    *,
    fmt: str = "auto",
    session: str | None = None,
    now: datetime | None = None,
    index: bool = True,
    commit_lock_timeout: float | None = None,
    index_lock_timeout: float | None = None,
    reason: str | None = None,
    subagents: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> CaptureResult:
    """Append the transcript's new turns to its session file, commit that file, index it.
    `reason` (the host's hook event, say) ends the commit message, so history says what captured.
    Sub-agent threads stay out unless `subagents` asks for them (Claude Code's, kept beside the
    transcript in `<session>/subagents/*.jsonl`: their turns follow the main thread's).
    `progress(done, total)`: each turn read for the session's secrets, then each turn stored (a
    long session is seconds of work; the command shows it, a host's hook does not)."""
    from memgit.lint.files import output_settings

    ws.config.require_readable("capturing a session")  # its redaction and file size are settings
    now = now or clock.local_now()
    try:
        parsed = parse_transcript(read_transcript(transcript), fmt)
        if subagents:
            parsed.turns += subagent_turns(transcript, parsed.format)
    except TranscriptError as exc:
        raise CaptureRefused(f"{transcript}: {exc}; nothing was captured") from None
    name = session_name(session or parsed.session or transcript.stem)
    result = CaptureResult(session=name, format=parsed.format)
    if parsed.unreadable:
        result.notices.append(f"{parsed.unreadable} line(s) of the transcript are not JSON and were skipped")
    settings = output_settings(ws)
    _refuse_now(ws)
    if not ws.config.memory.sessions:
        result.notices.append("[memory] sessions = false in memgit.toml: the session file is committed, not indexed")
    _commit_and_write(ws, parsed.turns, result, settings, now, commit_lock_timeout, reason, progress)
    if index and result.commit:
        _index(ws, result, index_lock_timeout)
    return result


def subagent_turns(transcript: Path, fmt: str) -> list[Turn]:
    """The turns of the sub-agent threads Claude Code keeps beside `transcript` (none for others)."""
    if fmt != "claude-code":
        raise TranscriptError("only Claude Code transcripts have sub-agent threads memgit reads; leave out --subagents")
    turns: list[Turn] = []
    folder = transcript.with_suffix("") / "subagents"
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        turns += parse_transcript(read_transcript(path), "claude-code", sidechain=True).turns
    return turns


def _refuse_now(ws: Workspace) -> None:
    """Everything that would stop the commit, checked before anything is written."""
    from memgit.git import trees

    operation = trees.operation_in_progress(ws.git_dir)
    if operation:
        raise CaptureRefused(
            f"cannot capture during {operation}: finish it (or abort it), then capture again; nothing was written"
        )
    folder = ws.root / SESSIONS_DIR
    if os.path.lexists(folder) and (folder.is_symlink() or not folder.is_dir()):
        raise CaptureRefused(
            f"{SESSIONS_DIR} is not a folder, so transcripts cannot be kept there; nothing was written"
        )
    conflicted = [p for p in ws.git.unmerged_paths() if p.startswith(SESSIONS_DIR + "/")]
    if conflicted:
        raise CaptureRefused(
            f"{conflicted[0]} is in conflict: resolve it and commit, then capture again; nothing was written"
        )


def _commit_and_write(
    ws: Workspace,
    turns: list[Turn],
    result: CaptureResult,
    settings: LintSettings,
    now: datetime,
    lock_timeout: float | None,
    reason: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    from memgit.memory.append import COMMIT_LOCK_TIMEOUT_SECONDS, append_lock

    locks = ws.data_dir / "locks"
    folder = ws.root / SESSIONS_DIR
    wait = COMMIT_LOCK_TIMEOUT_SECONDS if lock_timeout is None else lock_timeout
    commit_lock = append_lock(locks / "append-commit.lock", folder, wait, holder="another committing writer")
    session_lock = append_lock(
        locks / ("session-" + hashlib.sha1(result.session.encode()).hexdigest() + ".lock"), folder, wait
    )
    with commit_lock, session_lock:
        existing = session_files(_names(folder), result.session)
        keys: set[str] = set()
        for name in existing:
            keys |= stored_keys(_read_text(folder / name))
        new = [t for t in turns if t.key not in keys]
        result.already = len(turns) - len(new)
        if any(t.own for t in new):
            elsewhere = other_session_keys(folder, set(existing))
            result.copied = sum(1 for t in new if t.own and t.key in elsewhere)
            new = [t for t in new if not (t.own and t.key in elsewhere)]
        first = existing[0] if existing else f"{now.date().isoformat()}-{result.session}.jsonl"
        current = existing[-1] if existing else first
        if not new:
            result.path = f"{SESSIONS_DIR}/{current}" if existing else None
            result.commit = _commit_leftovers(ws, [f"{SESSIONS_DIR}/{n}" for n in existing], result)
            return
        lines: list[str] = []
        fired: Counter[str] = Counter()
        position = {id(turn): at for at, turn in enumerate(turns)}
        conversation, read = _conversation_secrets(ws, result.session, turns, settings, progress, len(new))
        for done, turn in enumerate(new, start=read + 1):
            at = position[id(turn)]
            line, codes = render_turn(turn, settings, conversation.for_turn(at), clean=conversation.clean[at])
            lines.append(line)
            fired.update(codes)
            if progress is not None:
                progress(done, read + len(new))
        result.redacted = dict(sorted(fired.items()))
        written = _write_parts(folder, first, current, lines, settings.max_file_bytes, result)
        message = f"sessions: capture {capture_count(new)} of session {result.session}"
        message += f" ({reason})" if reason else ""
        result.commit = _commit(ws, written, message)
        result.added = len(new)
        result.tool_calls = sum(1 for t in new if t.role == "tool")


#: Where a session's values found so far are kept (`.git/memgit/`, owner-only, as the workspace's
#: are): its stored turns are redacted, so a later capture could not find them there again.
SESSION_SECRETS_DIR = "session-secrets"
#: A session's kept values go once no capture has touched them for this many days. The values are
#: secrets written to disk, so they are kept no longer than they serve: a session captured again
#: later is scanned again from its host's transcript (Claude Code deletes its own after 30 days).
SESSION_SECRETS_DAYS = 30


def prune_session_secrets(folder: Path, now: float, keep: str = "") -> list[str]:
    """Remove the kept values of sessions no capture touched for `SESSION_SECRETS_DAYS` (by the
    file's modification time against `now`, seconds since the epoch); `keep` is never removed.
    Returns the names removed. A file that cannot be read or removed stays (owner-only already)."""
    removed = []
    for name in sorted(_names_quiet(folder)):
        if name == keep or not name.endswith(".json"):
            continue
        path = folder / name
        with contextlib.suppress(OSError):
            if now - os.stat(path, follow_symlinks=False).st_mtime > SESSION_SECRETS_DAYS * 86400:
                path.unlink()
                removed.append(name)
    return removed


def _names_quiet(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _conversation_secrets(
    ws: Workspace,
    session: str,
    turns: list[Turn],
    settings: LintSettings,
    progress: Callable[[int, int], None] | None = None,
    then: int = 0,
) -> tuple[ConversationSecrets, int]:
    """The session's secrets (`redact.conversation_secrets`), reading only the turns no capture of
    it has read before; and how many it read. `progress` counts them, out of those and the `then`
    steps that follow."""
    name = hashlib.sha256(session.encode("utf-8", "surrogatepass")).hexdigest()[:24] + ".json"
    path = ws.data_dir / SESSION_SECRETS_DIR / name
    cached = load_values(path, settings)
    scanned = [dict((v, c) for v, c in cached[t.key]) if t.key in cached else None for t in turns]
    unread = sum(1 for values in scanned if values is None)
    found = conversation_secrets(
        [(t.role, t.text) for t in turns],
        entropy_threshold=settings.entropy_threshold,
        severities=settings.severities,
        scanned=scanned,
        on_turn=None if progress is None else (lambda done: progress(done, unread + then)),
    )
    if unread:
        kept = {t.key: sorted([v, c] for v, c in found.by_turn[i].items()) for i, t in enumerate(turns)}
        save_values(path, settings, kept)
    prune_session_secrets(path.parent, clock.local_now().timestamp(), keep=name)
    return found, unread


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise CaptureRefused(f"cannot list {SESSIONS_DIR}/: {exc.strerror or exc}; nothing was written") from None


def _read_text(path: Path) -> str:
    try:
        st = os.stat(path, follow_symlinks=False)
        if not stat.S_ISREG(st.st_mode):
            raise CaptureRefused(f"{SESSIONS_DIR}/{path.name} is not a regular file (a link?); nothing was written")
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise CaptureRefused(
            f"cannot read {SESSIONS_DIR}/{path.name}: {exc.strerror or exc}; nothing was written"
        ) from None


@dataclass
class _Written:
    """One file this capture appended to, and how to undo it."""

    rel: str
    path: Path
    size_before: int
    created: bool


def _write_parts(
    folder: Path, first: str, current: str, lines: list[str], limit: int, result: CaptureResult
) -> list[_Written]:
    """Append `lines` to the current session file, continuing in new parts past `limit` bytes."""
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise CaptureRefused(f"cannot create {SESSIONS_DIR}/: {exc.strerror or exc}; nothing was written") from None
    try:
        size = os.stat(folder / current, follow_symlinks=False).st_size
    except FileNotFoundError:
        size = 0
    encoded = [(line + "\n").encode("utf-8") for line in lines]
    counts = split_parts([len(e) for e in encoded], size, limit)
    match = _SESSION_FILE.match(current)
    part = int(match["part"] or 1) if match else 1
    written: list[_Written] = []
    offset = 0
    try:
        for number, count in enumerate(counts):
            if count == 0:
                continue
            name = current if number == 0 else part_name(first, part + number)
            chunk = b"".join(encoded[offset : offset + count])
            offset += count
            end_line = _append(folder / name, f"{SESSIONS_DIR}/{name}", chunk, written)
            result.paths.append(f"{SESSIONS_DIR}/{name}")
            result.path = f"{SESSIONS_DIR}/{name}"
            result.start_line, result.end_line = end_line - count + 1, end_line
    except BaseException:
        _undo(written)
        raise
    return written


def _append(path: Path, rel: str, chunk: bytes, written: list[_Written]) -> int:
    """Append `chunk` (whole lines) in one write; returns the file's last line number after it."""
    from memgit.memory.append import count_newlines

    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    existed = os.path.lexists(path)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise CaptureRefused(f"cannot write {rel}: {exc.strerror or exc}; nothing was written") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CaptureRefused(f"{rel} is not a regular file; nothing was written")
        written.append(_Written(rel, path, st.st_size, not existed))
        lead = b""
        newlines = 0
        if st.st_size:
            tail = os.pread(fd, 1, st.st_size - 1)
            lead = b"" if tail == b"\n" else b"\n"
            newlines = count_newlines(fd, st.st_size)
        data = lead + chunk
        try:
            append_whole(fd, data, st.st_size)
        except TornAppend as exc:
            raise CaptureRefused(
                f"cannot write {rel}: {exc}; it ends in part of a line (after byte {st.st_size:,}): delete that by hand"
            ) from None
        except OSError as exc:
            raise CaptureRefused(f"cannot write {rel}: {exc.strerror or exc}; nothing was written") from None
        return newlines + data.count(b"\n")
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


def _undo(written: list[_Written]) -> None:
    """Put every file this capture touched back as it was (cut back and synced, or removed when new)."""
    for item in reversed(written):
        with contextlib.suppress(OSError):
            if item.created:
                item.path.unlink()
                continue
            fd = os.open(item.path, os.O_WRONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
            try:
                os.ftruncate(fd, item.size_before)
                os.fsync(fd)
            finally:
                os.close(fd)


def _commit(ws: Workspace, written: list[_Written], message: str) -> str:
    from memgit.git import commits

    paths = list(dict.fromkeys(item.rel for item in written))
    try:
        return commits.commit_paths(ws.git, paths, message, extra_env=TEXT_ONLY_ENV)
    except commits.CommitFailed as exc:
        _undo(written)
        with contextlib.suppress(Exception):
            ws.git.unstage(paths)
        raise CaptureRefused(
            f"git commit failed ({exc.complaint}); the capture was taken back, nothing was written "
            "(the turns are still in the host's transcript: capture again once that is fixed)"
        ) from None


def _commit_leftovers(ws: Workspace, rels: list[str], result: CaptureResult) -> str | None:
    """Commit session files that differ from HEAD (an earlier capture whose commit was
    interrupted); None when everything is committed already."""
    from memgit.git import commits, trees

    if not rels:
        return None
    _head, tree = ws.git.head_ids()
    committed = ws.git.entries(tree, rels) if tree else {}
    dirty = []
    for rel in rels:
        data = (ws.root / rel).read_bytes()
        entry = committed.get(rel)
        if entry is None or entry.blob != trees.blob_id_of(data):
            dirty.append(rel)
    if not dirty:
        return None
    try:
        return commits.commit_paths(
            ws.git, dirty, f"sessions: commit captured turns of session {result.session}", extra_env=TEXT_ONLY_ENV
        )
    except commits.CommitFailed as exc:
        with contextlib.suppress(Exception):
            ws.git.unstage(dirty)
        result.notices.append(f"{', '.join(dirty)} not committed: git commit failed ({exc.complaint})")
        return None


def _index(ws: Workspace, result: CaptureResult, lock_timeout: float | None) -> None:
    """Bring the index's text to the new commit (a no-op when memgit's post-commit hook already
    did), as `Policy.CAPTURE` does: no model, no rebuild, no wait for a busy index lock unless the
    caller names one (a capture never waits on an MCP server's background work; the server follows
    HEAD); the new chunks' vectors are left pending for the next search, MCP call or hook."""
    from memgit.errors import IndexLocked
    from memgit.index.freshen import Policy, freshen

    try:
        report = freshen(ws, Policy.CAPTURE, wait=0.0 if lock_timeout is None else lock_timeout)
    except IndexLocked:
        return  # another run (an MCP server's background work) has the index: it, or the next search, catches up
    except MemgitError as exc:
        result.notices.append(f"not indexed yet ({exc}); the next hook or `memgit index` catches up")
        return
    if report.mode == "due":
        result.notices.append("not indexed: a rebuild of the index is due; run `memgit index`")
        return
    result.indexed = True
