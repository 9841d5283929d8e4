"""Which lines of MEMORY.md were used lately: the evidence that orders its entries in a tight context.

A use is a search hit on MEMORY.md or a read of its lines (`memgit get`, `memory_get`), as the
recall ledger records them: the tracked ledger of the last `DAYS` days and this clone's spool
of lines not published yet. Session-start loads are left out (every session loads whatever the
context held, so counting them would only keep the same entries in forever). Reading is
tolerant: a malformed line or an unreadable file counts for nothing and never stops a session.
"""

from __future__ import annotations

import contextlib
from datetime import date
from typing import TYPE_CHECKING

from memgit.ledger.lines import parse_line, query_hash
from memgit.ledger.read import ledger_days
from memgit.ledger.spool import read_spool
from memgit.ledger.uses import USE_QUERIES

if TYPE_CHECKING:
    from memgit.workspace import Workspace

DAYS = 90
_CONTEXT_HASH = query_hash(USE_QUERIES["context"])


def memory_uses(ws: Workspace, today: date, path: str = "MEMORY.md") -> tuple[tuple[int, int], ...]:
    """The line ranges of `path` that searches and reads returned in the last `DAYS` days."""
    texts: list[str] = []
    for rel in ledger_days(today, DAYS):
        with contextlib.suppress(OSError, ValueError):
            texts += (ws.root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
    with contextlib.suppress(OSError):
        for lines in read_spool(ws.data_dir).values():
            texts += lines
    out = []
    for line in texts:
        if path not in line:
            continue
        recall = parse_line(line)
        if recall is not None and recall.path == path and recall.query_hash != _CONTEXT_HASH:
            out.append((recall.focus_start, recall.focus_end))
    return tuple(out)
