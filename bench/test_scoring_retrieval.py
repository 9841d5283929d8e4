"""Unit tests for bench/scoring_retrieval.py (run: .venv/bin/python -m pytest bench/test_*.py -q)."""

from __future__ import annotations

import pytest

from bench.scoring_retrieval import (
    Hit,
    aggregate,
    budget_lines,
    budget_recall,
    evidence_lines,
    hit_at_k,
    recall_at_k,
    score_query,
)

A = "memory/2023-05-08.md"
B = "memory/2023-05-25.md"


def text(n_lines: int, width: int = 9) -> str:
    """``n_lines`` lines of ``width`` characters each."""
    return "\n".join(f"{i:0{width}d}" for i in range(n_lines))


def test_evidence_lines_from_corpus_format() -> None:
    got = evidence_lines([{"dia_id": "D1:3", "path": A, "line": 7}, {"path": B, "line": "5"}])
    assert got == {(A, 7), (B, 5)}


def test_hit_at_k_needs_same_path_and_range() -> None:
    hits = [Hit(B, 1, 10), Hit(A, 5, 9)]
    ev = frozenset({(A, 7)})
    assert hit_at_k(hits, ev, 1) == 0.0
    assert hit_at_k(hits, ev, 2) == 1.0
    assert hit_at_k(hits, frozenset({(A, 10)}), 10) == 0.0  # just past end_line
    assert hit_at_k(hits, frozenset({(A, 5)}), 10) == 1.0  # start_line inclusive
    assert hit_at_k(hits, frozenset({(A, 9)}), 10) == 1.0  # end_line inclusive


def test_recall_at_k_is_fraction_of_lines() -> None:
    hits = [Hit(A, 1, 4), Hit(A, 3, 8), Hit(B, 1, 2)]
    ev = frozenset({(A, 2), (A, 7), (B, 2), (B, 3)})
    assert recall_at_k(hits, ev, 1) == 0.25
    assert recall_at_k(hits, ev, 2) == 0.5
    assert recall_at_k(hits, ev, 3) == 0.75
    assert recall_at_k([], ev, 10) == 0.0
    assert recall_at_k(hits, frozenset(), 10) == 0.0


def test_budget_takes_whole_hits_when_they_fit() -> None:
    hits = [Hit(A, 10, 12, text(3)), Hit(B, 1, 2, text(2))]
    assert budget_lines(hits, 1000) == {(A, 10), (A, 11), (A, 12), (B, 1), (B, 2)}


def test_budget_cuts_the_last_hit_and_counts_only_whole_lines() -> None:
    # each line costs 9 chars + 1 newline (none before the first line of a hit)
    hits = [Hit(A, 1, 3, text(3)), Hit(B, 1, 3, text(3))]
    assert len(hits[0].text) == 29
    # 29 for the first hit, then B line 1 (9) fits, B line 2 needs 10 more: 29 + 9 + 10 = 48
    assert budget_lines(hits, 47) == {(A, 1), (A, 2), (A, 3), (B, 1)}
    assert budget_lines(hits, 48) == {(A, 1), (A, 2), (A, 3), (B, 1), (B, 2)}
    # a partly taken line does not count
    assert budget_lines(hits, 8) == frozenset()
    assert budget_lines(hits, 9) == {(A, 1)}
    assert budget_lines(hits, 0) == frozenset()


def test_budget_stops_after_exhaustion_even_if_later_hits_are_small() -> None:
    hits = [Hit(A, 1, 1, "x" * 50), Hit(B, 1, 1, "y")]
    assert budget_lines(hits, 40) == frozenset()


def test_budget_maps_text_lines_from_start_line_and_clips_at_end_line() -> None:
    hits = [Hit(A, 5, 6, "a\nb\nc")]  # a third text line would be line 7, outside the range
    assert budget_lines(hits, 100) == {(A, 5), (A, 6)}


def test_budget_counts_duplicate_text_twice() -> None:
    hits = [Hit(A, 1, 2, text(2)), Hit(A, 1, 2, text(2)), Hit(B, 1, 1, text(1))]
    assert budget_lines(hits, 38) == {(A, 1), (A, 2)}
    assert budget_lines(hits, 47) == {(A, 1), (A, 2), (B, 1)}


def test_budget_recall_with_truncated_snippet_text() -> None:
    # a hit whose text covers fewer lines than its range only earns the lines it returned
    hits = [Hit(A, 1, 10, "line one\nline two")]
    assert budget_recall(hits, frozenset({(A, 2), (A, 5)}), 4000) == 0.5


def test_score_query_has_every_metric() -> None:
    hits = [Hit(B, 1, 1, "nope"), Hit(A, 7, 7, "yes")]
    scores = score_query(hits, frozenset({(A, 7)}), ks=(1, 5, 10), budget_chars=4000)
    assert scores == {
        "hit@1": 0.0,
        "hit@5": 1.0,
        "hit@10": 1.0,
        "recall@1": 0.0,
        "recall@5": 1.0,
        "recall@10": 1.0,
        "budget_recall": 1.0,
        "evidence_n": 1.0,
        "budget_lines@2000": 1.0,
        "budget_recall@2000": 1.0,
        "budget_hit@2000": 1.0,
        "budget_lines@4000": 1.0,
        "budget_recall@4000": 1.0,
        "budget_hit@4000": 1.0,
        "budget_lines@8000": 1.0,
        "budget_recall@8000": 1.0,
        "budget_hit@8000": 1.0,
    }


def test_budgets_hit_and_micro_recall() -> None:
    # 300 lines of 9 chars (10 with the newline): 2,000 chars take lines 1-200, 4,000 take all 300.
    hits = [Hit(A, 1, 300, text(300))]
    one = score_query(hits, frozenset({(A, 150), (A, 250), (A, 299), (A, 400)}))
    assert one["budget_lines@2000"] == 1.0 and one["budget_lines@4000"] == 3.0
    assert one["budget_recall@2000"] == 0.25 and one["budget_hit@2000"] == 1.0
    other = score_query(hits, frozenset({(A, 260)}))
    assert other["budget_hit@2000"] == 0.0 and other["budget_hit@4000"] == 1.0
    summary = aggregate([(1, one), (4, other)])["overall"]
    # micro: (1 + 0) covered of 5 lines at 2,000; per query: (0.25 + 0) / 2
    assert summary["budget_micro@2000"] == pytest.approx(0.2)
    assert summary["budget_recall@2000"] == pytest.approx(0.125)
    assert summary["budget_micro@4000"] == pytest.approx(0.8)
    assert summary["budget_hit@2000"] == 0.5


def test_aggregate_micro_averages_per_category_and_overall() -> None:
    rows = [
        (4, {"hit@1": 1.0, "budget_recall": 0.5}),
        (1, {"hit@1": 0.0, "budget_recall": 1.0}),
        (4, {"hit@1": 0.0, "budget_recall": 0.0}),
    ]
    agg = aggregate(rows)
    assert list(agg) == ["multi-hop", "single-hop", "overall"]
    assert agg["single-hop"] == {"hit@1": 0.5, "budget_recall": 0.25, "n": 2}
    assert agg["multi-hop"] == {"hit@1": 0.0, "budget_recall": 1.0, "n": 1}
    assert agg["overall"]["n"] == 3
    assert agg["overall"]["hit@1"] == pytest.approx(1 / 3)
    assert agg["overall"]["budget_recall"] == pytest.approx(0.5)
