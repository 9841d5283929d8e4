"""Recording a search's hits: the one call a search front end makes, decided once, cheap per search.

A search writes to this clone's spool (`.git/memgit/recall/`, `memgit.ledger.spool`), never the
work tree, so it never dirties a checkout; publishing moves the lines into the tracked ledger
under `memory/.dreams/recall/` (merge=union, never indexed). The lines of one search land with a
single `write` under an exclusive `flock`, so two processes never interleave half lines.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core.clock import resolve_now
from memgit.core.transcripts import transcript_lines
from memgit.errors import MemgitError
from memgit.ledger.lines import render_lines
from memgit.ledger.spool import append_spool

if TYPE_CHECKING:
    from memgit.workspace import Workspace


class Recorder:
    """Records search results in the recall spool when recording is on; passes results through."""

    def __init__(self, ws: Workspace, *, no_record: bool = False, now: str | None = None, read_only: bool = False):
        self.data_dir = ws.data_dir
        self.turns = TranscriptTurns(ws.root)
        self.enabled = not read_only and recording_enabled(ws.config.dream.record, no_record)
        self.keep_query = ws.config.dream.keep_queries
        # A bad --now is refused before any search runs.
        self._fixed = resolve_now(now) if now is not None else None
        if self._fixed is None:
            resolve_now()  # validates MEMGIT_NOW early, once

        self.problem: str | None = None

    def record(self, result: Any) -> Any:
        """Record `result`'s hits and return it; a failed write never fails the search (it is
        kept in `problem`, and recording stops for this process)."""
        if self.enabled and result.hits:
            now = self._fixed or resolve_now()
            try:
                record_search(
                    self.data_dir, result.query, result.hits, now, keep_query=self.keep_query, turns=self.turns
                )
            except (MemgitError, OSError) as exc:
                self.problem = f"the recall ledger was not written: {exc}"
                self.enabled = False
        return result


def recording_enabled(config_record: bool, no_record: bool = False) -> bool:
    """Off with `[dream] record = false`, `--no-record`, or MEMGIT_NO_RECALL=1 (benchmarks set it)."""
    if no_record or not config_record:
        return False
    return os.environ.get("MEMGIT_NO_RECALL", "").strip().lower() in ("", "0", "false", "no")


def record_search(
    data_dir: Path,
    query: str,
    hits: Sequence[Any],
    now: datetime,
    *,
    keep_query: bool = True,
    turns: Callable[[str], Mapping[int, str]] | None = None,
) -> int:
    """Record the hits of one search in this clone's spool (never the work tree: a search must not
    dirty it); returns how many lines were written. Publishing moves them into the tracked ledger."""
    data = render_lines(query, hits, now, keep_query=keep_query, turns=turns)
    append_spool(data_dir, now.date(), data)
    return data.count(b"\n")


class TranscriptTurns:
    """A session transcript's turns by JSONL line number, read from the work tree when a search hit
    one (only then), and kept while the file is unchanged: a transcript chunk's text does not say
    which JSONL line each of its turns is on (tool calls take lines of their own)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._read: dict[str, tuple[tuple[int, int], dict[int, str]]] = {}

    def __call__(self, path: str) -> Mapping[int, str]:
        file = self.root / path
        try:
            stat = file.stat()
            stamp = (stat.st_mtime_ns, stat.st_size)
            kept = self._read.get(path)
            if kept is not None and kept[0] == stamp:
                return kept[1]
            turns = dict(transcript_lines(file.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            return {}
        self._read[path] = (stamp, turns)
        return turns
