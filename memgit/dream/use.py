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
from datetime import datetime
from typing import TYPE_CHECKING

from memgit.dream.ledger import query_hash, recording_enabled

if TYPE_CHECKING:
    from memgit.workspace import Workspace

#: The "query" of each kind of use: its hash marks a ledger line as a use, not a search.
USE_QUERIES = {"context": "(session start: memgit context)", "get": "(read: memgit get)"}
USE_QUERY_HASHES = frozenset(query_hash(text) for text in USE_QUERIES.values())
#: Only MEMORY.md's uses matter to forgetting (daily logs and notes are never forgotten).
USED_FILES = ("MEMORY.md",)


def use_line(kind: str, path: str, start: int, end: int, now: datetime) -> str:
    """The ledger line of one use (pure)."""
    record = {
        "t": now.isoformat(timespec="seconds"),
        "q": query_hash(USE_QUERIES[kind]),
        "query": USE_QUERIES[kind],
        "path": path,
        "lines": [start, end],
        "focus": [start, end],
        "hash": "",
        "score": 1.0,
        "use": kind,
    }
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def record_use(ws: Workspace, kind: str, path: str, start: int, end: int, now: datetime | None = None) -> bool:
    """Record one use of lines `start`-`end` of `path` in the clone's spool; False when nothing was
    recorded (recording off, not MEMORY.md, no lines, or the spool cannot be written: a read
    never fails because of this)."""
    if path not in USED_FILES or start < 1 or end < start:
        return False
    if not recording_enabled(ws.config.dream.record):
        return False
    from memgit.dream.clock import resolve_now
    from memgit.errors import MemgitError
    from memgit.memory.recall_spool import append_spool

    try:
        when = now or resolve_now()
        append_spool(ws.data_dir, when.date(), (use_line(kind, path, start, end, when) + "\n").encode("utf-8"))
    except (MemgitError, OSError):
        return False
    return True
