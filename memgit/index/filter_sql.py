"""Which chunks a search may return, and that restriction as SQL.

A search front end says what it wants (`Filter`: path globs, a range of days); only the index
side turns it into a `WHERE` fragment over `chunks c`, so no SQL travels up into recall. Globs are
matched in Python against the stored paths (memgit's `**` rules, not SQLite's GLOB) and the
matches handed to SQLite as one JSON array.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from memgit.core.paths import glob_match


@dataclass(frozen=True)
class Filter:
    """Chunks of stored paths matching any of `paths` (a glob ending in `/` means all under it),
    of daily logs dated `since`..`until` (ISO days, both ends included). Empty: every chunk."""

    paths: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None

    @classmethod
    def of(
        cls, path_glob: str | Sequence[str] | None = None, since: str | None = None, until: str | None = None
    ) -> Filter:
        """From a front end's values: one glob or several, blanks dropped."""
        globs = [path_glob] if isinstance(path_glob, str) else list(path_glob or [])
        return cls(tuple(g if not g.endswith("/") else g + "**" for g in globs if g), since or None, until or None)

    def __bool__(self) -> bool:
        return bool(self.paths or self.since or self.until)


def where_sql(where: Filter | None, stored_paths: Callable[[], Iterable[str]]) -> tuple[str, list[Any]]:
    """The fragment (over `chunks c`; "" for no restriction) and its parameters. `stored_paths`
    is asked only when there are globs to match."""
    if not where:
        return "", []
    clauses: list[str] = []
    params: list[Any] = []
    if where.paths:
        allowed = [p for p in stored_paths() if any(glob_match(g, p) for g in where.paths)]
        clauses.append("c.path IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(allowed))
    if where.since:
        clauses.append("c.day >= ?")
        params.append(where.since)
    if where.until:
        clauses.append("c.day <= ?")
        params.append(where.until)
    return " AND ".join(clauses), params
