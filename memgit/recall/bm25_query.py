"""The BM25 query of a search that keeps no per-word scores (one-shot searches, filtered ones),
that query started early for a one-shot search, and the opt-in feedback query added to it.

Two things keep it short on large indexes:

- **Rare words first, exactly.** An OR query makes FTS5 score every row of every word; the
  rows of the common words are most of that work and rarely the answer. When the query's
  words split into rare and common ones (`memgit.recall.bm25_bound`), the rows holding a rare
  word are scored first, with every word still in the query, and the common words' other rows
  are skipped when the bound proves none of them can reach the best `limit`. Otherwise, or
  when the proof fails, the whole OR query runs as before. The answer is the same rows with
  the same scores either way (up to the last bit of a float sum taken in another order).
- **Started early.** At a million chunks the query can still take a few hundred ms, and it
  is then the one-shot search's critical path; yet it cannot start before the search command
  has imported its modules, checked HEAD and opened the index (≈100 ms into the process).
  `BM25Prefetch` starts it right after the workspace is found, on its own connection and
  thread. The searcher uses the rows only if its own read transaction sees the same index state
  and asks the same question; otherwise it computes them as before.

Light on purpose: it imports only the store and the text helpers, so the thread reaches SQLite's
C code while the command is still importing the rest.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from memgit.core.text import match_expression, prune_common_terms, query_terms
from memgit.index.layout import index_path
from memgit.index.store import Store
from memgit.index.word_cache import IndexState, index_state
from memgit.recall.bm25_bound import score_bound, split_common
from memgit.recall.ranking import best_of

if TYPE_CHECKING:
    from memgit.config import SearchConfig
    from memgit.index.filter_sql import Filter
    from memgit.workspace import Workspace

#: Below this many chunks the BM25 query takes tens of ms and gains nothing from starting early.
#: (Measured when it overlapped the model's load; it now starts after the load, beside the
#: searcher's opening and the query's embedding: see recall/session.py.)
PREFETCH_MIN_CHUNKS = 250_000

Rows = list[tuple[int, float]]


#: From this many chunks the rare-words-first query is tried: below it an OR query takes a few
#: ms and counting each word's rows first would cost about as much as it saves.
RARE_FIRST_MIN_CHUNKS = 50_000
#: ... and only when skipping the common words' rows spares at least this many row scores.
RARE_FIRST_MIN_SAVING = 20_000


def plain_bm25(store: Store, terms: list[str], limit: int, max_term_share: float, where: Filter | None = None) -> Rows:
    """The best `limit` chunks for the query words by FTS5's bm25(), best first, without a
    cache: what a one-shot search computes (and a warm one when a filter applies)."""
    if 0 < max_term_share < 1 and len(terms) > 1:
        terms = prune_common_terms(terms, store.fts.term_document_counts(terms), store.chunk_total(), max_term_share)
    match = match_expression(terms)
    if not match:
        return []
    if not where and len(terms) > 1 and store.chunk_total() >= RARE_FIRST_MIN_CHUNKS:
        rows = rare_words_first(store, terms, limit)
        if rows is not None:
            return rows
    return store.bm25(match, limit, where)


def rare_words_first(store: Store, terms: list[str], limit: int) -> Rows | None:
    """The OR query's best `limit` rows from the rows of its rare words only, or None when the
    words do not split usefully or the bound cannot prove the answer exact."""
    counts = store.fts.term_document_counts(terms)
    total = store.fts.row_count()
    split = split_common(terms, counts, total, min_saving=RARE_FIRST_MIN_SAVING)
    if split is None:
        return None
    rare, common = split
    rare_match, common_match = match_expression(rare), match_expression(common)
    # Two queries cover the rows holding a rare word, each naming every word once (so each
    # row's score is the OR query's): those that also hold a common word, and the rest.
    rows = store.bm25(f"({rare_match}) AND ({common_match})", limit)
    rows += store.bm25(f"({rare_match}) NOT ({common_match})", limit)
    best = best_of(rows, limit)
    bound = score_bound([counts[word] for word in common], total)
    if len(best) < limit or best[-1][1] <= bound:
        return None  # a row holding only common words might belong to the answer
    return best


def bm25_feedback(
    cfg: SearchConfig, store: Store, terms: list[str], rows: Rows, limit: int, where: Filter | None = None
) -> Rows:
    """Pseudo-relevance feedback (opt-in): the first hits' most telling words, searched as
    one OR query, add β × their scores to the leg's (memgit.recall.feedback)."""
    from memgit.recall.feedback import add_feedback, feedback_words, pick_feedback_terms

    top = [chunk_id for chunk_id, _ in rows[: cfg.bm25_feedback_docs]]
    texts = [row[3] for row in store.chunk_rows(top).values()]
    tf = feedback_words(texts, exclude=terms)
    if not tf:
        return rows
    tokens = store.fts.tokens([*tf, *terms])
    query_tokens = [tokens[t] for t in terms if t in tokens]
    counts = store.fts.term_document_counts(list(tf))
    words = pick_feedback_terms(
        tf, counts, store.chunk_total(), cfg.bm25_feedback_terms, tokens=tokens, query_tokens=query_tokens
    )
    match = match_expression(words)
    if match is None:
        return rows
    return add_feedback(rows, store.bm25(match, limit, where), cfg.bm25_feedback_weight, limit)


def candidate_count(k: int, factor: int) -> int:
    """How many chunks each leg of a search proposes for `k` hits."""
    return max(k * factor, 20)


class BM25Prefetch:
    """The BM25 rows of one query over the whole index, computed on a thread from now on."""

    def __init__(self, ws: Workspace, query: str, k: int | None) -> None:
        cfg = ws.config.search
        self._terms = query_terms(query)
        self._limit = candidate_count(cfg.k if k is None else k, cfg.candidates_factor)
        self._state: IndexState | None = None
        self._rows: Rows | None = None
        self._thread = threading.Thread(target=self._run, args=(ws,), name="memgit-bm25-early", daemon=True)
        self._thread.start()

    def _run(self, ws: Workspace) -> None:
        if not self._terms:
            return
        try:
            store = Store(index_path(ws), None, readonly=True, busy_timeout=ws.config.index.busy_timeout)
        except Exception:  # no index, a locked or corrupt one: the search itself says so
            return
        try:
            with store.snapshot_read():
                meta = store.meta()
                if "tree" not in meta or store.chunk_total() < PREFETCH_MIN_CHUNKS:
                    return
                state = index_state(store)
                rows = plain_bm25(store, self._terms, self._limit, ws.config.search.bm25_max_term_share)
            self._state, self._rows = state, rows
        except Exception:  # an optimisation only: the searcher computes the rows itself
            return
        finally:
            store.close()

    def take(self, state: IndexState, terms: list[str], limit: int) -> Rows | None:
        """The rows, if they were computed for this index state, these words and this depth."""
        self._thread.join()
        if self._rows is None or (self._state, self._terms, self._limit) != (state, terms, limit):
            return None
        return self._rows

    def close(self) -> None:
        self._thread.join()
