"""Unit tests for the round-5 candidates: word neighbours and line windows (bench only)."""

from __future__ import annotations

import numpy as np

from bench.line_selection import line_windows
from bench.retrieval_sweep import Variant, grid
from bench.word_neighbours import neighbours, vocabulary
from memgit.recall.ranking import Candidate


def test_vocabulary_keeps_words_two_chunks_share() -> None:
    texts = ["Melanie took the kids camping", "The kids loved camping 2023", "Caroline paints", "kids 42"]
    # "the" is a stop word, "2023"/"42" hold digits, "paints" and "took" are in one chunk only
    assert vocabulary(texts) == ["camping", "kids"]
    assert vocabulary(texts, min_chunks=3) == ["kids"]


def unit(*rows: list[float]) -> np.ndarray:
    array = np.asarray(rows, dtype=np.float32)
    return array / np.linalg.norm(array, axis=1, keepdims=True)


def test_neighbours_obey_the_cap_the_threshold_and_skip_query_words() -> None:
    words = ["family", "kids", "husband", "bank", "fam"]
    vectors = unit([1, 0, 0], [0.9, 0.1, 0], [0.8, 0.3, 0], [0, 0, 1], [0.95, 0, 0.05])
    query = unit([1, 0, 0])
    got = neighbours(["family"], query, words, vectors, n=2, tau=0.5)
    # "family" itself is the nearest but is a query word; then fam (0.999), kids (0.994)
    assert list(got) == ["fam", "kids"]
    assert got["fam"] > got["kids"] > 0.99
    assert "bank" not in neighbours(["family"], query, words, vectors, n=10, tau=0.5)  # cosine 0
    assert neighbours(["family"], query, words, vectors, n=10, tau=0.9999) == {}
    assert neighbours([], query[:0], words, vectors, n=3, tau=0.0) == {}


def test_neighbours_keep_each_words_best_cosine_over_query_words() -> None:
    words = ["a", "b"]
    vectors = unit([1, 0], [0, 1])
    got = neighbours(["x", "y"], unit([1, 0.2], [0.2, 1]), words, vectors, n=2, tau=0.0)
    assert got["a"] == got["b"]  # each is some query word's best neighbour at the same cosine
    assert got["a"] > 0.98


FILE = [f"line {i:02d}" for i in range(1, 21)]


def chunk(start: int, end: int, score: float) -> Candidate:
    return Candidate(0, "memory/a.md", start, end, "\n".join(FILE[start - 1 : end]), None, score=score)


def test_line_windows_centre_on_the_best_lines_and_never_repeat_one() -> None:
    hits = [chunk(1, 8, 1.0), chunk(11, 18, 0.5)]
    cosine = {("memory/a.md", n): 0.1 for n in range(1, 21)}
    cosine[("memory/a.md", 15)] = 0.9
    cosine[("memory/a.md", 16)] = 0.8
    got = line_windows(hits, cosine, lambda _: FILE, alpha=1.0, w=1, depth=2)
    assert (got[0].start_line, got[0].end_line) == (14, 16)
    assert got[0].text.split("\n") == FILE[13:16]
    # line 16 was returned by the first window: the next window centres elsewhere, and no line
    # is ever returned twice
    seen = [n for h in got for n in range(h.start_line, h.end_line + 1)]
    assert len(seen) == len(set(seen))
    # ties go in line order: 1-2, 3-4, 5-6, 7-8, then 10-12 around 11, 13, 17-18; a line inside an
    # earlier window is never a centre, so 9 and 19 stay out
    assert set(seen) == set(range(1, 9)) | set(range(10, 19))


def test_line_windows_with_alpha_zero_follow_the_chunk_order_and_depth() -> None:
    hits = [chunk(11, 12, 1.0), chunk(1, 2, 0.4), chunk(5, 6, 0.2)]
    cosine = {("memory/a.md", n): 1.0 - n / 100 for n in range(1, 21)}
    got = line_windows(hits, cosine, lambda _: FILE, alpha=0.0, w=0, depth=2)
    assert [(h.start_line, h.end_line) for h in got] == [(11, 11), (12, 12), (1, 1), (2, 2)]


def test_blank_lines_are_never_centres() -> None:
    got = line_windows([chunk(1, 3, 1.0)], {("memory/a.md", 2): 0.5}, lambda _: FILE, alpha=0.5, w=1, depth=1)
    assert [(h.start_line, h.end_line) for h in got] == [(1, 3)]


def test_round5_grids() -> None:
    for name in ("expansion", "lines"):
        variants = grid(name)
        assert variants and len({v.name for v in variants}) == len(variants)
        assert all(isinstance(v, Variant) for v in variants)
    assert all(v.expansion[0] > 0 and v.lines[0] < 0 for v in grid("expansion"))
    assert all(v.lines[0] >= 0 and v.k == v.lines[2] for v in grid("lines"))
