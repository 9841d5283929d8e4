"""From the two legs' scores to the hits a search returns: fuse and decay, rank, diversify, and
give each chosen chunk its provenance and snippet.

Everything here reads one committed state through the store the search holds (inside its read
transaction); the arithmetic itself is `memgit.recall.ranking`'s.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from memgit.core import paths
from memgit.core.provenance import strip_markers
from memgit.core.text import query_terms, token_set
from memgit.recall.ranking import Candidate, decay, drop_repeated_lines, fuse, mmr
from memgit.recall.request import Hit

if TYPE_CHECKING:
    from memgit.config import SearchConfig
    from memgit.index.store import Store


class Scores:
    """One search's scores by chunk id: BM25 min-max normalised, and cosine. (A plain class: a
    dataclass costs a one-shot search ~0.3 ms to build at import.)"""

    __slots__ = ("text", "vector", "no_vector", "use_vectors")

    def __init__(self) -> None:
        self.text: dict[int, float] = {}
        self.vector: dict[int, float] = {}
        self.no_vector: set[int] = set()  # chunks whose vector is still pending
        self.use_vectors = False


def candidates(cfg: SearchConfig, store: Store, scores: Scores, mode: str, today: date) -> list[Candidate]:
    """Every chunk either leg found, with its fused and decayed score (above the floor)."""
    if mode == "bm25":
        ids = list(scores.text)
    elif mode == "vector":
        ids = list(scores.vector)
    else:
        ids = list(dict.fromkeys([*scores.text, *scores.vector]))
    rows = store.chunk_rows(ids)
    found: list[Candidate] = []
    for chunk_id in ids:
        if chunk_id not in rows:
            continue
        path, start, end, text, day = rows[chunk_id]
        t = scores.text.get(chunk_id, 0.0)
        v = max(0.0, scores.vector.get(chunk_id, 0.0))
        if mode == "bm25":
            base = t
        elif mode == "vector":
            base = v
        elif not scores.use_vectors or chunk_id in scores.no_vector:
            # No vector to weigh (BM25 only, or this chunk's is still pending): its text score
            # stands alone, not as the text share of a fusion it cannot win.
            base = t
        else:
            base = fuse(t, v, cfg.text_weight, cfg.vector_weight)
        score = base * decay(day, today, cfg.half_life_days, cfg.decay_floor)
        if score < cfg.min_score:
            continue
        found.append(Candidate(chunk_id, path, start, end, text, day, t, v, score))
    return found


def rank(cfg: SearchConfig, query: str, found: list[Candidate], k: int, mode: str, today: date) -> list[Candidate]:
    """The ranking steps after the legs merge: (re-rank,) order, diversify, drop lines already returned."""
    if cfg.rerank and mode == "hybrid":
        # imported here: the re-ranker is opt-in, and a one-shot CLI call pays for every import
        from memgit.recall.rerank import rerank
        from memgit.recall.rerank_weights import WEIGHTS as RERANK_WEIGHTS

        found = [
            replace(c, score=c.score * decay(c.day, today, cfg.half_life_days, cfg.decay_floor))
            for c in rerank(query, found, RERANK_WEIGHTS)
        ]
    found = sorted(found, key=lambda c: (-c.score, c.path, c.start_line))
    pool = fold_versioned_copies(found[: max(6 * k, 40)])[: max(3 * k, 20)]
    diverse = drop_repeated_lines(mmr(pool, [token_set(c.text) for c in pool], k * 2, cfg.mmr_lambda))
    if cfg.reports_last:
        # A dream report quotes the questions that recalled a fact word for word, so it would
        # outrank the note that holds the fact: reports come after the notes, never instead of them.
        report = paths.DREAM_REPORT_DIR + "/"
        diverse = [c for c in diverse if not c.path.startswith(report)] + [
            c for c in diverse if c.path.startswith(report)
        ]
    return diverse[:k]


#: A folder named like a version: `7.4`, `v2`, `1.0.3`, `v2.1-preview`, `2024.1` (a file's own
#: name is never one: daily logs are `memory/2026-01-05.md`).
_VERSION = re.compile(r"^v?\d+(?:\.\d+)+(?:[-_.]?[a-z]+\d*)?$|^v\d+$", re.IGNORECASE)
#: Two chunks of versioned copies are the same section when this share of their words is shared.
SAME_SECTION = 0.7


def version_free(path: str) -> str | None:
    """`path` with its version folders made one ("reference/*/Microsoft.Core/Get-Item.md"), or
    None when no folder of it is a version."""
    parts = path.split("/")
    folders = ["*" if _VERSION.match(part) else part for part in parts[:-1]]
    if "*" not in folders:
        return None
    return "/".join([*folders, parts[-1]])


def fold_versioned_copies(ranked: list[Candidate]) -> list[Candidate]:
    """Pure: hits that are the same section of one file in several versions (the same path but
    for its version folders, and most words alike) become the best-ranked one, whose `also_in`
    lists the others' paths. The candidates kept, in their order."""
    kept: list[Candidate] = []
    folded: dict[int, list[str]] = {}
    seen: dict[str, list[tuple[Candidate, frozenset[str]]]] = {}
    for cand in ranked:
        key = version_free(cand.path)
        if key is None:
            kept.append(cand)
            continue
        words = token_set(cand.text)
        same = next((first for first, first_words in seen.get(key, []) if _alike(words, first_words)), None)
        if same is None or same.path == cand.path:
            seen.setdefault(key, []).append((cand, words))
            kept.append(cand)
            continue
        paths = folded.setdefault(same.id, [])
        if cand.path not in paths:
            paths.append(cand.path)
    return [replace(c, also_in=tuple(folded[c.id])) if c.id in folded else c for c in kept]


def _alike(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return a == b
    return len(a & b) / len(a | b) >= SAME_SECTION


def hits(
    store: Store, meta: dict[str, str], chosen: list[Candidate], scores: Scores, query: str, snippet_chars: int
) -> list[Hit]:
    """The chosen candidates with their provenance: blob, and the commit for indexed files."""
    files = _file_info(store, [c.path for c in chosen])
    pieces = store.chunk_chars([c.id for c in chosen])
    words = query_terms(query)
    out = []
    for cand in chosen:
        blob, source = files.get(cand.path, (None, "tree"))
        scored = scores.use_vectors and cand.id not in scores.no_vector
        out.append(
            Hit(
                path=cand.path,
                start_line=cand.start_line,
                end_line=cand.end_line,
                score=round(cand.score, 4),
                text=snippet(_shown_text(cand.path, cand.text), words, snippet_chars),
                blob=blob,
                commit=meta.get("commit") if source == "tree" else None,
                source=source,
                day=cand.day,
                text_score=round(cand.text_score, 4),
                vector_score=round(cand.vector_score, 4) if scored else None,
                start_char=pieces.get(cand.id, (None, None))[0],
                end_char=pieces.get(cand.id, (None, None))[1],
                also_in=list(cand.also_in),
            )
        )
    return out


def _file_info(store: Store, wanted: list[str]) -> dict[str, tuple[str | None, str]]:
    if not wanted:
        return {}
    return {path: (blob or None, source) for path, blob, source in store.file_sources(wanted)}


def _shown_text(path: str, text: str) -> str:
    """A hit's text as an agent reads it: MEMORY.md's entry markers (review keys) left out, as
    `memgit context` and `memgit get` leave them out; line numbers stay as indexed."""
    return strip_markers(text) if path == "MEMORY.md" else text


def snippet(text: str, words: list[str], limit: int) -> str:
    """At most `limit` characters of a hit's text: its start, unless no query word appears there
    and one does further on; then from the line holding the first one (or a little before the word
    in a long line), so the snippet shows the match."""
    if len(text) <= limit:
        return text
    lowered = text.lower()
    found = [i for i in (lowered.find(w.lower()) for w in words if len(w) >= 2) if i >= 0]
    if not found or min(found) + max(len(w) for w in words) <= limit:
        return text[:limit]
    at = min(found)
    line_start = text.rfind("\n", 0, at) + 1
    begin = line_start if at - line_start < limit // 2 else at - limit // 4
    return text[begin : begin + limit]


def agreed_first(chosen: list[Candidate], text: dict[int, float], vector: dict[int, float]) -> list[Candidate]:
    """The chunk both legs rank first is the hybrid's first too: a fusion must not rank below
    both of its parts what they agree on (weighted scores on different scales can: a chunk a
    little behind in both legs may add up to more)."""
    if not text or not vector:
        return chosen
    top_text = max(text, key=lambda i: (text[i], -i))
    top_vector = max(vector, key=lambda i: (vector[i], -i))
    if top_text != top_vector:
        return chosen
    return sorted(chosen, key=lambda c: c.id != top_text)
