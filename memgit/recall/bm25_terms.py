"""BM25 from per-word scores kept warm: the same ranking as one FTS5 OR query, without rescoring
every matching chunk on every search.

FTS5 computes `bm25()` for every chunk holding any query word. At 100k chunks a word like
"budget" sits in a third of them, and scoring those rows is most of a warm search (≈1 µs a row).
But bm25() is a sum over the query's phrases of a part that depends only on the phrase and the
row, so one phrase's scores (`Store.bm25_phrase`) are exactly its share of any query's score.
A long-running searcher (the MCP server, `memgit search --batch`) keeps them per word, within
`[search] bm25_cache_mb` per 100,000 chunks (a word's rows grow with the index), least recently
used out first, and adds them up per query. The same
words come back in an agent's searches, and the common words, the expensive ones, most of all.

Everything cached belongs to one state of the FTS index (`Store.fts_state`, plus the index id and
generation); any other state empties the cache first, so a score is never from another index.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from memgit.core.text import match_expression

if TYPE_CHECKING:
    import numpy as np

    from memgit.index.store import Store

#: Bytes a cached row takes: its chunk id (int32 while ids fit, else int64) and its score (float32).
ROW_BYTES = 8


class TermScores:
    """Per-word BM25 scores of one index state, least recently used dropped past `max_rows`."""

    def __init__(self, max_bytes: int) -> None:
        self.max_rows = max_bytes // ROW_BYTES
        self._state: tuple[object, ...] | None = None
        self._words: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._rows = 0
        self._sums: np.ndarray | None = None
        self.hits = 0
        self.misses = 0

    @property
    def rows(self) -> int:
        return self._rows

    def resize(self, max_bytes: int) -> None:
        """A new budget (the index grew or shrank); the least recently used words go first."""
        self.max_rows = max_bytes // ROW_BYTES
        self._evict()

    def _evict(self) -> None:
        while self._rows > self.max_rows and self._words:
            _, (old_ids, _) = self._words.popitem(last=False)
            self._rows -= len(old_ids)

    def _phrase(self, store: Store, term: str) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        found = self._words.get(term)
        if found is not None:
            self._words.move_to_end(term)
            self.hits += 1
            return found
        self.misses += 1
        match = match_expression([term])
        assert match is not None
        ids, scores = store.bm25_phrase(match)
        # float32 keeps the cache small: a sum of a few of them differs from FTS5's float64
        # score by ~1e-6 of its size, which can only swap two chunks FTS5 scores within that.
        ids = ids.astype(np.int32) if len(ids) and int(ids[-1]) < 2**31 else ids
        scores = scores.astype(np.float32)
        if len(ids) <= self.max_rows:
            self._words[term] = (ids, scores)
            self._rows += len(ids)
            self._evict()
        return ids, scores

    def top(self, store: Store, terms: list[str], limit: int, state: tuple[object, ...]) -> list[tuple[int, float]]:
        """The `limit` best chunks for the OR of `terms`, as `Store.bm25` ranks them, with the
        same scores (up to the order of a floating-point sum). Call inside the read
        transaction that `state` was read in."""
        import numpy as np

        if state != self._state:
            self._words.clear()
            self._rows = 0
            self._state = state
        parts = [self._phrase(store, term) for term in dict.fromkeys(terms)]
        parts = [p for p in parts if len(p[0])]
        if not parts or limit <= 0:
            return []
        if len(parts) == 1:
            ids, scores = parts[0]
            best = np.argpartition(-scores, limit - 1)[:limit] if len(ids) > limit else np.arange(len(ids))
            chosen = [(int(ids[i]), float(scores[i])) for i in best]
        else:
            # Add the words' scores in a dense array indexed by chunk id (a word's ids are
            # unique, so `+=` on a fancy index is exact, and every score is above 0), pick the
            # best ids straight from it, then zero it again for the next query.
            top_id = max(int(p[0].max()) for p in parts) + 1
            if self._sums is None or len(self._sums) < top_id:
                self._sums = np.zeros(max(top_id, 2 * len(self._sums) if self._sums is not None else 0))
            window = self._sums[:top_id]
            for part_ids, part_scores in parts:
                window[part_ids] += part_scores
            best = np.argpartition(-window, limit - 1)[:limit] if top_id > limit else np.arange(top_id)
            chosen = [(int(i), float(window[i])) for i in best if window[i] > 0]
            for part_ids, _ in parts:
                window[part_ids] = 0.0
        return sorted(chosen, key=lambda pair: (-pair[1], pair[0]))
