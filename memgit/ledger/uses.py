"""Uses of MEMORY.md that are not searches: a session-start load and a `get` of its lines.

Forgetting asks whether an entry is still in use. A search hit is one answer (the recall ledger);
an agent loading MEMORY.md at session start (`memgit context`, an MCP client's context) or reading
an entry with `get` / `memory_get` is another: those reads are recorded as one ledger line each in
the clone's recall spool (published with the rest), with the lines they covered and a fixed query
hash that marks them as uses. Dreaming never counts a use as evidence for promotion (the light
phase leaves MEMORY.md out anyway); the forget policy counts it as use (dream/forget.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from memgit.core.provenance import parse_entries
from memgit.ledger.lines import query_hash
from memgit.ledger.lines import text_hash as ledger_text_hash
from memgit.ledger.recording import recording_enabled

if TYPE_CHECKING:
    from memgit.workspace import Workspace

#: The "query" of each kind of use: its hash marks a ledger line as a use, not a search.
USE_QUERIES = {"context": "(session start: memgit context)", "get": "(read: memgit get)"}
USE_QUERY_HASHES = frozenset(query_hash(text) for text in USE_QUERIES.values())
#: Only MEMORY.md's uses matter to forgetting (daily logs and notes are never forgotten).
USED_FILES = ("MEMORY.md",)


def use_line(kind: str, path: str, start: int, end: int, now: datetime, text_hash: str = "") -> str:
    """The ledger line of one use (pure)."""
    record = {
        "t": now.isoformat(timespec="seconds"),
        "q": query_hash(USE_QUERIES[kind]),
        "query": USE_QUERIES[kind],
        "path": path,
        "lines": [start, end],
        "focus": [start, end],
        "hash": text_hash,
        "score": 1.0,
        "use": kind,
    }
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def use_lines(kind: str, path: str, start: int, end: int, now: datetime, text: str | None = None) -> list[str]:
    """The ledger lines of one use (pure). A whole-file load is one line with its line range; a
    `get` is one line per entry it read, with the hash of the entry's text, so the use still finds
    the entry after lines above it moved (a merge, a marker migration)."""
    if kind == "context" or text is None:
        return [use_line(kind, path, start, end, now)]
    out = []
    for entry in parse_entries(text):
        if entry.body_start <= end and start <= max(entry.body_end, entry.body_start):
            out.append(
                use_line(
                    kind,
                    path,
                    entry.body_start,
                    max(entry.body_end, entry.body_start),
                    now,
                    ledger_text_hash(entry.body),
                )
            )
    return out


def record_use(
    ws: Workspace, kind: str, path: str, start: int, end: int, now: datetime | None = None, text: str | None = None
) -> bool:
    """Record one use of lines `start`-`end` of `path` (whose text is `text`, for a get) in the
    clone's spool; False when nothing was recorded (recording off, not MEMORY.md, no lines, or
    the spool cannot be written: a read never fails because of this)."""
    if path not in USED_FILES or start < 1 or end < start:
        return False
    if not recording_enabled(ws.config.dream.record):
        return False
    from memgit.core.clock import resolve_now
    from memgit.errors import MemgitError
    from memgit.ledger.spool import append_spool

    try:
        when = now or resolve_now()
        lines = use_lines(kind, path, start, end, when, text)
        if lines:
            append_spool(ws.data_dir, when.date(), ("\n".join(lines) + "\n").encode("utf-8"))
    except (MemgitError, OSError):
        return False
    return bool(lines)


class _Section(Protocol):
    """One source of a load (`memgit.recall.context.Section`); read-only, as `included` is computed."""

    @property
    def path(self) -> str: ...
    @property
    def included(self) -> bool: ...
    @property
    def start_line(self) -> int: ...
    @property
    def end_line(self) -> int: ...


class _Loaded(Protocol):
    """What a session-start load read (`memgit.recall.context.ContextResult` is one)."""

    @property
    def sections(self) -> Sequence[_Section]: ...


def record_context_load(ws: Workspace, result: _Loaded) -> None:
    """A session-start load that included MEMORY.md is a use of the lines it held. The clock
    (MEMGIT_NOW) is resolved inside `record_use`: a bad one skips the record, never the context."""
    for section in result.sections:
        if section.path in USED_FILES and section.included:
            record_use(ws, "context", section.path, section.start_line, section.end_line)


def read_text(ws: Workspace, path: str) -> str | None:
    """The work-tree text of a memory file (for a get's use lines), None when unreadable."""
    try:
        return (ws.root / ws.safe_memory_path(path)).read_text(encoding="utf-8", errors="replace")
    except (OSError, ValueError):
        return None
