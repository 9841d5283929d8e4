"""When a BM25 OR query may skip the rows that only common words match, and still be exact.

FTS5's `bm25()` scores a row as Σ idf(p) · f·(k1+1) / (f + k1·(1 − b + b·len/avglen)) over the
query's phrases p, with f the phrase's count in the row (fts5_aux.c: k1 = 1.2, b = 0.75; idf
= ln((N − n + 0.5) / (n + 0.5)) over N rows of which n hold the phrase, and 1e-6 where that is
not positive). The fraction is below k1 + 1 for every row, so a phrase can add at most
idf(p)·(k1+1) to any row's score. Split the query's words into rare ones R and common ones C:
a row that holds no word of R scores at most Σ_C idf·(k1+1). If the best `limit` rows among
those holding a word of R all score above that bound, no other row can enter them, and scoring
only R's rows (with every phrase still in the query, so their scores are the OR query's own)
gives the exact answer. Common words are what make an OR query slow (FTS5 scores each of their
rows, ≈1.4 µs a row), and they are also what makes the bound low (a word in a third of all rows
has idf ≈ 0.7).

This module holds the arithmetic and the choice of R and C; `memgit.recall.bm25_query` runs the
queries and checks the bound.
"""

from __future__ import annotations

import math

#: FTS5's bm25() constant k1 (its b does not enter the bound).
K1 = 1.2


def fts5_idf(hits: int, rows: int) -> float:
    """idf as FTS5's bm25() computes it for a phrase found in `hits` of `rows` rows."""
    idf = math.log((0.5 + rows - hits) / (0.5 + hits))
    return idf if idf > 0.0 else 1e-6


def score_bound(counts: list[int], rows: int) -> float:
    """The most that phrases with these row counts can add to any row's score."""
    return sum(fts5_idf(n, rows) * (K1 + 1.0) for n in counts)


#: A split is tried only if its bound stays below this share of Σ idf, about what a row holding
#: every word once scores: the rows that must beat the bound hold the rare words and usually
#: some common ones (on the 1M bench index the best 60 scored 1.25-1.5 times Σ idf).
BOUND_SHARE = 1.0


def split_common(
    terms: list[str], doc_counts: dict[str, int], rows: int, *, min_saving: int, min_ratio: float = 2.0
) -> tuple[list[str], list[str]] | None:
    """(rare, common): the query's words split where scoring only the rare words' rows saves
    most among the splits whose bound is likely to hold, or None when none saves `min_saving`
    rows and `min_ratio` times the rows it keeps.

    Words without a count (phrases, words FTS5 splits in several tokens) always stay rare, since
    the bound needs each common word's exact row count; so do words in no row, which add nothing.
    Both parts keep the query's word order.
    """
    known = sorted((doc_counts[t], t) for t in dict.fromkeys(terms) if " " not in t and doc_counts.get(t, 0) > 0)
    if len(known) < 2:
        return None
    full_row = sum(fts5_idf(count, rows) for count, _ in known)
    best: tuple[int, int] | None = None  # (saving, how many of the most common words are common)
    for n_common in range(1, len(known)):
        kept = sum(count for count, _ in known[: len(known) - n_common])
        skipped_counts = [count for count, _ in known[len(known) - n_common :]]
        saving = sum(skipped_counts) - kept
        if saving < min_saving or sum(skipped_counts) < min_ratio * kept:
            continue
        if score_bound(skipped_counts, rows) > BOUND_SHARE * full_row:
            continue
        if best is None or saving > best[0]:
            best = (saving, n_common)
    if best is None:
        return None
    common_words = {w for _, w in known[len(known) - best[1] :]}
    return [t for t in terms if t not in common_words], [t for t in terms if t in common_words]
