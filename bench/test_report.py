"""Tests for the split tables and paired comparisons of bench/report.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.corpus import Conversation, Query
from bench.report import compare, evaluate, split_queries, split_tables
from bench.scoring_retrieval import Hit

A = "memory/2023-01-01.md"


def conv(name: str, n: int) -> Conversation:
    queries = tuple(
        Query(f"{name}-q{i}", f"question {i}?", 1 + i % 4, frozenset({(A, i + 1), (A, i + 100)})) for i in range(n)
    )
    return Conversation(name, Path("."), Path("."), queries)


def test_splits_differences_and_intervals() -> None:
    convs = [conv("locomo-c0", 8), conv("locomo-c2", 40)]
    # "good" returns one of the two evidence lines of every question, "bad" nothing
    good = {q.id: [Hit(A, i + 1, i + 1, "x")] for c in convs for i, q in enumerate(c.queries)}
    systems = {"good": evaluate(convs, good), "bad": evaluate(convs, {})}
    report = split_queries(convs, ["locomo-c2"])
    assert len(report) == 40 and all(qid.startswith("locomo-c2") for qid, _ in report)
    point, low, high = compare(systems["good"], systems["bad"], report, "budget_micro@4000")
    assert point == pytest.approx(0.5) and low == pytest.approx(0.5) and high == pytest.approx(0.5)
    hit = compare(systems["good"], systems["bad"], report, "budget_hit@4000", "multi-hop")
    assert hit[0] == 1.0
    text = split_tables(convs, systems, [("good", "bad")])
    assert "**tune (c0–c1)**: 8 questions, 16 evidence lines" in text
    assert "**report (c2–c3)**: 40 questions, 80 evidence lines" in text
    assert "| good − bad | +50.0 [+50.0, +50.0] *" in text
