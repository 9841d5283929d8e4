"""What a search asks (`SearchRequest`: k, mode, filter) and what it answers (`Hit`, `SearchResult`).

A front end builds one request from its options and gives it once: the session starts the early
BM25 query from it and every search runs it. The filter is the index's `Filter`: the store alone
turns it into SQL.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from datetime import date
from typing import Any

from memgit.config import MAX_K
from memgit.errors import MemgitError
from memgit.index.filter_sql import Filter

MODES = ("hybrid", "bm25", "vector")


@dataclass(frozen=True)
class SearchRequest:
    """`k` hits (None: `[search] k`), by `mode`, from the chunks `where` allows."""

    k: int | None = None
    mode: str = "hybrid"
    where: Filter = field(default_factory=Filter)

    def checked(self, default_k: int) -> SearchRequest:
        """This request with `k` resolved and the filter's days normalised; a bad value is one
        `MemgitError` (mode first, then k, then the days)."""
        if self.mode not in MODES:
            raise MemgitError(f"unknown search mode {self.mode!r}; use one of {', '.join(MODES)}")
        k = default_k if self.k is None else self.k
        if not 1 <= k <= MAX_K:
            raise MemgitError(f"k must be between 1 and {MAX_K}, got {k}")
        since, until = parse_day(self.where.since, "--since"), parse_day(self.where.until, "--until")
        return replace(self, k=k, where=replace(self.where, since=since, until=until))


def parse_day(value: str | None, name: str) -> str | None:
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise MemgitError(f"{name} must be a date like 2026-02-06, got {value!r}") from None


@dataclass
class Hit:
    path: str
    start_line: int
    end_line: int
    score: float
    text: str
    blob: str | None
    commit: str | None
    source: str
    day: str | None
    text_score: float
    vector_score: float | None
    #: A piece of one long line: its character range in line `start_line` (None: whole lines).
    start_char: int | None = None
    end_char: int | None = None
    #: The same section in other versioned copies of this file (`docs/7.4/x.md` for a hit in
    #: `docs/7.5/x.md`), folded into this hit rather than filling the list with repeats.
    also_in: list[str] = field(default_factory=list)


@dataclass
class SearchResult:
    query: str
    mode: str
    hits: list[Hit]
    notices: list[str] = field(default_factory=list)
    elapsed_ms: float = 0.0
    #: The mode asked for; `mode` is what ran ("bm25" when a hybrid search had no vectors to use).
    requested_mode: str = ""
    #: Chunks without a vector yet (ranked by BM25 alone in a hybrid search).
    vectors_pending: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "mode": self.mode,
            "requested_mode": self.requested_mode or self.mode,
            "vectors_pending": self.vectors_pending,
            "hits": [asdict(hit) for hit in self.hits],
            "notices": self.notices,
            "elapsed_ms": self.elapsed_ms,
        }
