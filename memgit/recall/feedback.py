"""BM25 pseudo-relevance feedback: words of the first hits become a second, weighted query.

Evidence for an open-domain or multi-hop question often shares no word with the question but
does share words with the chunk BM25 ranks first ("relationship status?" finds a chunk about a
breakup; the evidence elsewhere says "single parent"). The first `m` chunks are taken as
relevant, their most telling words (term frequency there × idf over the index) are searched as
one OR query, and those scores are added, scaled by β, to the original ones. Pure: the caller
reads the chunks' text and the words' document counts from the index.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping

from memgit.core.text import STOP_WORDS, WORD_RE, fts_text


def feedback_words(texts: Iterable[str], exclude: Iterable[str] = ()) -> Counter[str]:
    """How often each candidate expansion word occurs in `texts`: lower-cased words, without stop
    words, the excluded (query) words, anything holding a digit (dates and times match everywhere
    in a daily log) and words shorter than three letters."""
    skip = {w.lower() for w in exclude}
    counts: Counter[str] = Counter()
    for text in texts:
        for word in WORD_RE.findall(fts_text(text)):
            lowered = word.lower()
            if len(lowered) < 3 or lowered in STOP_WORDS or lowered in skip or any(ch.isdigit() for ch in lowered):
                continue
            counts[lowered] += 1
    return counts


def pick_feedback_terms(
    tf: Mapping[str, int],
    doc_counts: Mapping[str, int],
    total: int,
    t: int,
    *,
    tokens: Mapping[str, str] | None = None,
    query_tokens: Iterable[str] = (),
) -> list[str]:
    """The `t` words with the highest tf × idf, best first.

    A word known to only one chunk is skipped (it can bring no other chunk in); so are words
    whose count is unknown. With `tokens` (word → index token after stemming), a word that stems
    like a query word is skipped and of several words with one stem only the best is kept.
    """
    if t <= 0 or total <= 0:
        return []
    taken_tokens = set(query_tokens)
    scored = []
    for word, freq in tf.items():
        df = doc_counts.get(word, 0)
        if df < 2:
            continue
        idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
        scored.append((-freq * idf, word))
    picked: list[str] = []
    for _, word in sorted(scored):
        token = tokens.get(word) if tokens is not None else word
        if token is None:  # only a word the tokenizer drops; `word` itself is never None
            continue
        if token in taken_tokens:
            continue
        taken_tokens.add(token)
        picked.append(word)
        if len(picked) == t:
            break
    return picked


def add_feedback(
    original: Iterable[tuple[int, float]], expansion: Iterable[tuple[int, float]], beta: float, limit: int
) -> list[tuple[int, float]]:
    """Original BM25 scores plus β × the expansion query's, over the union of ids, best first,
    cut to `limit` (ties by id, so the order is stable)."""
    scores = dict(original)
    for chunk_id, score in expansion:
        scores[chunk_id] = scores.get(chunk_id, 0.0) + beta * score
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
