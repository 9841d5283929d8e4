"""BM25 query expansion from the workspace's own vocabulary, by word vectors (retrieval round 5).

Round 3's pseudo-relevance feedback takes its expansion words from the first hits, so it can only
drift towards what BM25 already found. Here they come from the whole vocabulary instead: every
word that two chunks or more hold is embedded once, with the index's own model, and each query
word brings in its nearest vocabulary words ("family" → "kids", "husband"; "destress" →
"relax"), the bridges the failed multi-hop questions lack. The expansion words go into a second
OR query whose BM25 scores, × β, are added to the leg's, as the feedback does
(``memgit.recall.feedback.add_feedback``). Bench only: ``bench/retrieval_sweep.py --grid expansion``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from memgit.recall.feedback import feedback_words


def vocabulary(texts: Iterable[str], min_chunks: int = 2) -> list[str]:
    """The words worth expanding to, sorted: alphabetic, not stop words, in ``min_chunks`` chunks
    or more (a word of one chunk can bring no other chunk in)."""
    chunks_holding: Counter[str] = Counter()
    for text in texts:
        chunks_holding.update(set(feedback_words([text])))
    return sorted(w for w, n in chunks_holding.items() if n >= min_chunks and w.isalpha())


def neighbours(
    query_words: Sequence[str], query_vectors: Any, words: Sequence[str], word_vectors: Any, n: int, tau: float
) -> dict[str, float]:
    """Up to ``n`` vocabulary words per query word whose cosine with it is at least ``tau``, with
    their best cosine; the query words themselves are never returned. Vectors are unit rows."""
    taken = set(query_words)
    picked: dict[str, float] = {}
    if not len(query_words) or not len(words):
        return picked
    sims = query_vectors @ word_vectors.T
    for row in sims:
        got = 0
        for j in (-row).argsort():
            if got == n or row[j] < tau:
                break
            word = words[j]
            if word in taken:
                continue
            picked[word] = max(picked.get(word, -1.0), float(row[j]))
            got += 1
    return picked
