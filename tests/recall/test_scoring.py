"""Pure ranking: min-max normalisation, fusion, temporal decay, MMR, repeated-line trimming."""

from __future__ import annotations

import math
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.core.text import token_set
from memgit.recall.ranking import Candidate, decay, drop_repeated_lines, fuse, jaccard, minmax, mmr

TODAY = date(2026, 2, 6)


# -- minmax and fuse ---------------------------------------------------------------------------
def test_minmax_examples() -> None:
    assert minmax({}) == {}
    assert minmax({7: 3.5}) == {7: 1.0}
    assert minmax({1: 2.0, 2: 2.0}) == {1: 1.0, 2: 1.0}
    assert minmax({1: 10.0, 2: 5.0, 3: 0.0}) == {1: 1.0, 2: 0.5, 3: 0.0}
    assert minmax({1: -1.0, 2: -3.0}) == {1: 1.0, 2: 0.0}


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, 1000), st.floats(-1e6, 1e6, allow_nan=False), max_size=30))
def test_minmax_properties(scores: dict[int, float]) -> None:
    out = minmax(scores)
    assert set(out) == set(scores)
    assert all(0.0 <= v <= 1.0 for v in out.values())
    if scores:
        best = max(scores, key=scores.__getitem__)
        assert out[best] == 1.0
        # Order is kept: a higher raw score never gets a lower normalised one.
        for a in scores:
            for b in scores:
                if scores[a] > scores[b]:
                    assert out[a] >= out[b]


def test_fuse() -> None:
    assert fuse(1.0, 0.0, 0.5, 0.5) == pytest.approx(0.5)
    assert fuse(0.2, 0.8, 1.0, 3.0) == pytest.approx((0.2 + 2.4) / 4)
    assert fuse(0.9, 0.1, 1.0, 0.0) == pytest.approx(0.9)
    assert fuse(0.9, 0.1, 0.0, 0.0) == 0.0


# -- decay -------------------------------------------------------------------------------------
def test_decay_evergreen_and_disabled() -> None:
    assert decay(None, TODAY, 30, 0.8) == 1.0  # undated notes (MEMORY.md, topic files) never decay
    assert decay("2000-01-01", TODAY, 0, 0.8) == 1.0  # half-life 0 disables decay
    assert decay("not-a-date", TODAY, 30, 0.8) == 1.0
    assert decay("2026-02-30", TODAY, 30, 0.8) == 1.0


def test_decay_values() -> None:
    assert decay(TODAY.isoformat(), TODAY, 30, 0.8) == pytest.approx(1.0)
    # One half-life halves the part above the floor.
    assert decay((TODAY - timedelta(days=30)).isoformat(), TODAY, 30, 0.8) == pytest.approx(0.9)
    assert decay((TODAY - timedelta(days=60)).isoformat(), TODAY, 30, 0.0) == pytest.approx(0.25)
    # Future dates count as today (no bonus above 1).
    assert decay((TODAY + timedelta(days=400)).isoformat(), TODAY, 30, 0.8) == pytest.approx(1.0)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 20_000), st.floats(0.5, 3650), st.floats(0.0, 1.0))
def test_decay_bounded_by_floor_and_monotone(age: int, half_life: float, floor: float) -> None:
    day = (TODAY - timedelta(days=age)).isoformat()
    older = (TODAY - timedelta(days=age + 1)).isoformat()
    value = decay(day, TODAY, half_life, floor)
    assert floor - 1e-12 <= value <= 1.0 + 1e-12
    assert decay(older, TODAY, half_life, floor) <= value + 1e-12
    expected = floor + (1 - floor) * 0.5 ** (age / half_life)
    assert value == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_old_logs_stay_findable_at_the_floor() -> None:
    ancient = decay("1990-01-01", TODAY, 30, 0.8)
    assert ancient == pytest.approx(0.8, abs=1e-9)
    assert ancient >= 0.8


# -- MMR ---------------------------------------------------------------------------------------
def cand(i: int, score: float, text: str, path: str = "memory/a.md", start: int = 1) -> Candidate:
    lines = text.count("\n") + 1
    return Candidate(i, path, start, start + lines - 1, text, None, score, 0.0, score)


def test_mmr_demotes_near_duplicates() -> None:
    ranked = [
        cand(1, 1.0, "deployed the billing service to production"),
        cand(2, 0.95, "deployed the billing service to production today"),
        cand(3, 0.9, "the user prefers green tea in the morning"),
    ]
    tokens = [token_set(c.text) for c in ranked]
    assert [c.id for c in mmr(ranked, tokens, 3, 0.7)] == [1, 3, 2]
    # lambda 1 = pure relevance, the input order.
    assert [c.id for c in mmr(ranked, tokens, 3, 1.0)] == [1, 2, 3]
    assert [c.id for c in mmr(ranked, tokens, 2, 1.0)] == [1, 2]
    assert mmr([], [], 5, 0.7) == []


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.lists(st.sampled_from("abcdefgh"), max_size=6)), max_size=15),
    st.integers(1, 20),
    st.floats(0, 1),
)
def test_mmr_properties(items: list[tuple[float, list[str]]], k: int, lam: float) -> None:
    ranked = sorted((cand(i, score, " ".join(words)) for i, (score, words) in enumerate(items)), key=lambda c: -c.score)
    tokens = [frozenset(c.text.split()) for c in ranked]
    out = mmr(ranked, tokens, k, lam)
    assert len(out) == min(k, len(ranked))
    assert len({c.id for c in out}) == len(out)
    assert {c.id for c in out} <= {c.id for c in ranked}
    if out:
        assert out[0] == ranked[0]  # nothing chosen yet: the most relevant goes first


def test_jaccard() -> None:
    assert jaccard(frozenset(), frozenset()) == 1.0
    assert jaccard(frozenset("ab"), frozenset("ab")) == 1.0
    assert jaccard(frozenset("ab"), frozenset("cd")) == 0.0
    assert jaccard(frozenset("abc"), frozenset("bcd")) == pytest.approx(0.5)


# -- drop_repeated_lines -----------------------------------------------------------------------
SOURCE = [f"line {n}" for n in range(1, 41)]


def hit(i: int, start: int, end: int, path: str = "memory/a.md") -> Candidate:
    text = "\n".join(SOURCE[start - 1 : end])
    return Candidate(i, path, start, end, text, None, 1.0, 0.0, 1.0 - i / 100)


def test_drop_repeated_lines_trims_overlap_exactly() -> None:
    out = drop_repeated_lines([hit(1, 1, 5), hit(2, 4, 8), hit(3, 2, 3), hit(4, 8, 12, "memory/b.md")])
    assert [(c.id, c.start_line, c.end_line) for c in out] == [(1, 1, 5), (2, 6, 8), (4, 8, 12)]
    assert out[1].text == "line 6\nline 7\nline 8"
    assert out[2].text == "\n".join(SOURCE[7:12])  # other files are independent


def test_drop_repeated_lines_trims_the_front_too() -> None:
    out = drop_repeated_lines([hit(1, 10, 15), hit(2, 6, 11)])
    assert [(c.start_line, c.end_line, c.text) for c in out][1] == (6, 9, "line 6\nline 7\nline 8\nline 9")


def test_drop_repeated_lines_keeps_a_hit_with_a_hole_whole() -> None:
    # Lines 4-5 were returned; 1-10 would need two pieces, so it is kept as it is.
    out = drop_repeated_lines([hit(1, 4, 5), hit(2, 1, 10)])
    assert [(c.start_line, c.end_line) for c in out] == [(4, 5), (1, 10)]


def test_drop_repeated_lines_transcript_hits() -> None:
    # Transcript chunks skip line numbers (their text has fewer lines than the span).
    t1 = Candidate(1, "sessions/s.jsonl", 2, 9, "user: a\nassistant: b", None, 1, 0, 1)
    t2 = Candidate(2, "sessions/s.jsonl", 4, 9, "assistant: b", None, 1, 0, 0.9)
    t3 = Candidate(3, "sessions/s.jsonl", 7, 20, "assistant: b\nuser: c", None, 1, 0, 0.8)
    out = drop_repeated_lines([t1, t2, t3])
    assert [c.id for c in out] == [1, 3]
    assert out[1] == t3  # kept whole: its line numbers cannot be trimmed line by line


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.integers(0, 10), st.sampled_from(["a", "b"])), max_size=12))
def test_drop_repeated_lines_properties(spans: list[tuple[int, int, str]]) -> None:
    hits = [hit(i, s, min(40, s + n), f"memory/{p}.md") for i, (s, n, p) in enumerate(spans)]
    out = drop_repeated_lines(hits)
    ids = [c.id for c in out]
    assert ids == sorted(ids)  # order kept, a subsequence of the input
    by_id = {h.id: h for h in hits}
    returned: dict[str, set[int]] = {"memory/a.md": set(), "memory/b.md": set()}
    for c in out:
        original = by_id[c.id]
        assert original.start_line <= c.start_line <= c.end_line <= original.end_line
        assert c.text == "\n".join(SOURCE[c.start_line - 1 : c.end_line])  # line numbers stay exact
        lines = set(range(c.start_line, c.end_line + 1))
        if c != original:
            assert not lines & returned[c.path]  # a trimmed hit holds only new lines
        else:
            assert lines - returned[c.path]  # a kept hit adds at least one new line
        returned[c.path] |= lines
    # Nothing is lost: every input line is in some output.
    for h in hits:
        assert set(range(h.start_line, h.end_line + 1)) <= returned[h.path]


def test_decay_formula_matches_half_life() -> None:
    value = decay((TODAY - timedelta(days=7)).isoformat(), TODAY, 7, 0.0)
    assert math.isclose(value, 0.5)
