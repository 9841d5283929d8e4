"""The one call a search front end makes to record its hits: decided once, cheap per search."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memgit.dream.clock import resolve_now
from memgit.dream.ledger import record_search, recording_enabled
from memgit.errors import MemgitError

if TYPE_CHECKING:
    from memgit.workspace import Workspace


class Recorder:
    """Records search results in the recall spool when recording is on; passes results through."""

    def __init__(self, ws: Workspace, *, no_record: bool = False, now: str | None = None, read_only: bool = False):
        self.data_dir = ws.data_dir
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
                record_search(self.data_dir, result.query, result.hits, now, keep_query=self.keep_query)
            except (MemgitError, OSError) as exc:
                self.problem = f"the recall ledger was not written: {exc}"
                self.enabled = False
        return result
