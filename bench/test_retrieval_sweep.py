"""Unit tests for bench/retrieval_sweep.py's pure parts (the sweep itself needs the corpus)."""

from __future__ import annotations

import sqlite3

import pytest

from bench.retrieval_sweep import (
    VECTOR_QUERIES,
    Variant,
    bm25_match,
    fused_scores,
    grid,
    names_in,
    parent_chunks,
    vector_query_texts,
    widened,
)
from memgit.core.text import query_terms
from memgit.recall.ranking import Candidate

QUESTION = "When did Melanie paint a sunrise with Caroline?"


def fts(rows: list[str]) -> sqlite3.Connection:
    """A real FTS5 table with memgit's tokenizer, one row per text (rowid = position + 1)."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5 (body, tokenize = 'porter unicode61 remove_diacritics 2')")
    conn.executemany("INSERT INTO t (rowid, body) VALUES (?, ?)", [(i + 1, r) for i, r in enumerate(rows)])
    return conn


def ranked(conn: sqlite3.Connection, match: str) -> list[int]:
    return [r[0] for r in conn.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t)", [match])]


def test_names_skip_the_first_word() -> None:
    assert names_in(QUESTION) == {"melanie", "caroline"}


@pytest.mark.parametrize("how", ["default", "keep_stop", "phrases", "near", "names_up", "names_out"])
def test_every_query_variant_is_valid_fts5(how: str) -> None:
    conn = fts(["Melanie painted a sunrise last year", "Caroline went to a support group"])
    match = bm25_match(QUESTION, query_terms(QUESTION), how)
    assert match
    assert ranked(conn, match)[0] == 1


def test_phrase_bonus_puts_adjacent_words_first() -> None:
    # both rows hold "paint" and "sunrise"; only row 2 has them next to each other
    conn = fts(["sunrise walk, then I paint at home", "I paint sunrise scenes", "nothing here"])
    question = "Who likes to paint sunrise?"
    plain = bm25_match(question, query_terms(question), "default")
    phrased = bm25_match(question, query_terms(question), "phrases")
    assert plain is not None and phrased is not None
    assert '"paint sunrise"' in phrased
    assert ranked(conn, phrased)[0] == 2


def test_names_weighted_up_repeat_and_left_out_drop() -> None:
    terms = query_terms(QUESTION)
    up = bm25_match(QUESTION, terms, "names_up")
    out = bm25_match(QUESTION, terms, "names_out")
    assert up is not None and up.count('"melanie"') == 2
    assert out is not None and "melanie" not in out and '"sunris' in out


def test_rrf_orders_by_rank_not_by_raw_score() -> None:
    bm25 = {1: 100.0, 2: 1.0}
    vector = {1: 0.10, 2: 0.11, 3: 0.50}
    got = fused_scores("rrf:10", bm25, vector, 0.5, 0.5)
    # chunk 2 is second in BM25 and second in vectors; chunk 1 first and third; chunk 3 only in vectors
    assert got[1] == pytest.approx(0.5 / 11 + 0.5 / 13)
    assert got[2] == pytest.approx(0.5 / 12 + 0.5 / 12)
    assert got[3] == pytest.approx(0.5 / 11)


def test_zscore_gives_a_missing_leg_its_worst() -> None:
    got = fused_scores("zscore", {1: 3.0, 2: 1.0}, {1: 0.2, 2: 0.2, 3: 0.9}, 0.5, 0.5)
    # BM25 z-scores are +1 / -1; vector z-scores -1/sqrt(2), -1/sqrt(2), +sqrt(2)
    assert got[1] == pytest.approx(0.5 * 1 - 0.5 / 2**0.5)
    assert got[3] == pytest.approx(0.5 * -1 + 0.5 * 2**0.5)  # no BM25 score: that leg's worst, -1


def cand(start: int, end: int, lines: list[str]) -> Candidate:
    return Candidate(0, "memory/a.md", start, end, "\n".join(lines[start - 1 : end]), None)


def test_window_grows_both_ways_within_the_budget_and_drops_repeats() -> None:
    lines = [f"line {i:02d}" for i in range(1, 21)]  # 7 characters + newline each
    got = widened([cand(10, 10, lines), cand(11, 11, lines)], lambda _: lines, 8 * 5)
    assert (got[0].start_line, got[0].end_line) == (8, 12)
    assert got[0].text.split("\n") == lines[7:12]
    # the second hit's window 9-13 repeats 9-12: only line 13 is new
    assert (got[1].start_line, got[1].end_line) == (13, 13)
    assert widened([cand(1, 1, lines)], lambda _: lines, 8 * 3)[0].end_line == 3  # the top edge
    assert widened([cand(5, 5, lines)], lambda _: lines, -1)[0].end_line == 5  # -1 leaves it


def test_small_units_become_the_chunk_that_holds_them_once() -> None:
    lines = [f"line {i:02d}" for i in range(1, 21)]
    parents = {"memory/a.md": [(1, 8, "p1"), (7, 14, "p2"), (13, 20, "p3")]}
    parents = {p: [(s, e, "\n".join(lines[s - 1 : e])) for s, e, _ in rows] for p, rows in parents.items()}
    got = parent_chunks([cand(8, 8, lines), cand(12, 12, lines), cand(10, 10, lines)], parents)
    # line 8 sits in 1-8 and 7-14: 7-14 holds it more centrally; 12 and 10 then map to 7-14 again
    assert [(h.start_line, h.end_line) for h in got] == [(7, 14)]
    got = parent_chunks([cand(2, 2, lines), cand(13, 13, lines)], parents)
    # 13 is in 7-14 and 13-20; 7-14's middle (10.5) is nearer than 13-20's (16.5)
    assert [(h.start_line, h.end_line) for h in got] == [(1, 8), (9, 14)]  # 7-8 already returned
    outside = Candidate(0, "memory/b.md", 3, 3, "x", None)
    assert parent_chunks([outside], parents) == [outside]


def test_grids_are_named_and_unknown_ones_refused() -> None:
    for name in ("chunking", "window", "bm25", "fusion", "third"):
        variants = grid(name)
        assert variants and len({v.name for v in variants}) == len(variants)
        assert all(isinstance(v, Variant) for v in variants)
    with pytest.raises(SystemExit):
        grid("nope")


def test_vector_query_texts() -> None:
    assert vector_query_texts(QUESTION, "question") == [QUESTION]
    assert vector_query_texts(QUESTION, "content") == ["Melanie paint a sunrise with Caroline"]
    assert vector_query_texts(QUESTION, "bm25_words") == [" ".join(query_terms(QUESTION))]
    assert vector_query_texts(QUESTION, "blend_content") == [QUESTION, "Melanie paint a sunrise with Caroline"]
    assert [v.vector_query for v in grid("vector-query")] == list(VECTOR_QUERIES[1:])
