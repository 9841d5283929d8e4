"""The rare-words-first BM25 query (memgit.recall.bm25_query, memgit.recall.bm25_bound): when it
answers, it answers exactly what FTS5's OR query answers; when it cannot prove that, it declines.

The corpus is skewed the way large memories are: a few words in most chunks, some in a tenth,
many in a few percent, with repeats and lengths from a line to a page, so term frequency and
length normalisation matter to the scores.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.core.text import match_expression
from memgit.index.store import Store
from memgit.recall import bm25_query
from memgit.recall.bm25_bound import K1, fts5_idf, score_bound, split_common

COMMON = ["approved", "budget", "code", "name", "team"]
MIDDLE = ["pilot", "latency", "staging", "tenant", "invoice"]
RARE = ["xenon", "zephyr", "kestrel", "umbra", "saffron", "granite", "borealis", "lumen"]
ABSENT = ["nowhere"]


def _corpus(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    docs = []
    for _ in range(n):
        words = []
        for _ in range(rng.choice([4, 8, 15, 30, 60])):
            roll = rng.random()
            pool = COMMON if roll < 0.55 else MIDDLE if roll < 0.75 else RARE if roll < 0.8 else ["filler", "note"]
            words.append(rng.choice(pool))
        docs.append(" ".join(words))
    return docs


def _store(path: Path, docs: list[str]) -> Store:
    store = Store(path)
    with store.transaction():
        store.conn.executemany("INSERT INTO chunks_fts(rowid, body) VALUES (?, ?)", enumerate(docs, 1))
    return store


@pytest.fixture(scope="module")
def skewed(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = _store(tmp_path_factory.mktemp("fts") / "index.sqlite", _corpus(4000, seed=11))
    yield store
    store.close()


def _assert_same_answer(full: list[tuple[int, float]], fast: list[tuple[int, float]]) -> None:
    """Same scores (to 1e-9: the sum may run in another order), and the same chunks except
    among those tied with the last one, where a LIMIT may pick any of them."""
    assert len(fast) == len(full)
    assert [round(s, 9) for _, s in fast] == [round(s, 9) for _, s in sorted(full, key=lambda r: -r[1])]
    last = round(full[-1][1], 9) if full else 0.0
    assert {i for i, s in full if round(s, 9) > last} == {i for i, s in fast if round(s, 9) > last}


QUERIES = st.lists(st.sampled_from(COMMON + MIDDLE + RARE + ABSENT), min_size=2, max_size=6, unique=True)


@settings(max_examples=150, deadline=None)
@given(words=QUERIES, limit=st.sampled_from([5, 20, 60]))
def test_rare_words_first_answers_exactly_or_declines(skewed: Store, words: list[str], limit: int) -> None:
    bm25_query.RARE_FIRST_MIN_SAVING, saved = 0, bm25_query.RARE_FIRST_MIN_SAVING
    try:
        fast = bm25_query.rare_words_first(skewed, words, limit)
    finally:
        bm25_query.RARE_FIRST_MIN_SAVING = saved
    if fast is not None:
        _assert_same_answer(skewed.bm25(match_expression(words), limit), fast)


def test_the_exact_path_is_taken_often(skewed: Store) -> None:
    """Not a vacuous pass: on this corpus most mixed queries are answered the fast way."""
    rng = random.Random(5)
    used = 0
    for _ in range(60):
        words = [rng.choice(COMMON), rng.choice(COMMON), rng.choice(RARE)]
        bm25_query.RARE_FIRST_MIN_SAVING, saved = 0, bm25_query.RARE_FIRST_MIN_SAVING
        try:
            fast = bm25_query.rare_words_first(skewed, words, 20)
        finally:
            bm25_query.RARE_FIRST_MIN_SAVING = saved
        if fast is not None:
            used += 1
            _assert_same_answer(skewed.bm25(match_expression(words), 20), fast)
    assert used >= 45


def test_declines_when_the_bound_cannot_be_proved(tmp_path: Path) -> None:
    """The rare word sits once in long chunks; the common words fill short ones: the best rare
    rows score below what common words alone could reach, so the whole OR query must run."""
    docs = ["budget approved budget"] * 300 + ["approved " * 5 + "xenon " + "filler " * 80] * 20 + ["note"] * 700
    store = _store(tmp_path / "index.sqlite", docs)
    try:
        bm25_query.RARE_FIRST_MIN_SAVING, saved = 0, bm25_query.RARE_FIRST_MIN_SAVING
        try:
            split = split_common(
                ["budget", "approved", "xenon"],
                store.fts.term_document_counts(["budget", "approved", "xenon"]),
                store.fts.row_count(),
                min_saving=0,
            )
            assert split == (["xenon"], ["budget", "approved"])
            assert bm25_query.rare_words_first(store, ["budget", "approved", "xenon"], 10) is None
        finally:
            bm25_query.RARE_FIRST_MIN_SAVING = saved
        full = store.bm25(match_expression(["budget", "approved", "xenon"]), 10)
        assert bm25_query.plain_bm25(store, ["budget", "approved", "xenon"], 10, 1.0) == full
    finally:
        store.close()


def test_fts_row_count_is_what_bm25_counts(tmp_path: Path) -> None:
    store = _store(tmp_path / "index.sqlite", _corpus(700, seed=2))
    try:
        assert store.fts.row_count() == 700
        with store.transaction():
            store.conn.execute("DELETE FROM chunks_fts WHERE rowid % 3 = 0")
        assert store.fts.row_count() == store.conn.execute("SELECT count(*) FROM chunks_fts").fetchone()[0] == 467
    finally:
        store.close()


# ---------------------------------------------------------------- the pure part


def test_idf_and_bound_follow_fts5() -> None:
    assert fts5_idf(10, 1000) == pytest.approx(math.log(990.5 / 10.5))
    assert fts5_idf(600, 1000) == 1e-6  # FTS5 floors a word in over half the rows
    assert score_bound([10, 600], 1000) == pytest.approx((math.log(990.5 / 10.5) + 1e-6) * (K1 + 1))


def test_split_keeps_order_and_leaves_unknown_and_absent_words_rare() -> None:
    counts = {"approved": 300_000, "budget": 330_000, "xenon": 70_000, "fun": 0}
    assert split_common(["approved", "budget", "xenon", "fun"], counts, 1_000_000, min_saving=20_000) == (
        ["xenon", "fun"],
        ["approved", "budget"],
    )
    assert split_common(
        ["approved", "东 京", "xenon"], {"approved": 300_000, "xenon": 70_000}, 1_000_000, min_saving=0
    ) == (
        ["东 京", "xenon"],
        ["approved"],
    )
    # Nothing to gain: a single known word, or words of similar counts.
    assert split_common(["xenon", "fun"], counts, 1_000_000, min_saving=0) is None
    assert split_common(["a", "b"], {"a": 50_000, "b": 60_000}, 1_000_000, min_saving=0) is None
    # A bound that a row holding every word once could not beat is not tried.
    assert split_common(["a", "b"], {"a": 10_000, "b": 20_000}, 1_000_000, min_saving=0) is None
    assert split_common(["a", "b"], {"a": 10_000, "b": 40_000}, 1_000_000, min_saving=0) == (["a"], ["b"])
