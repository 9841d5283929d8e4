"""Tests for bench/stats.py."""

from __future__ import annotations

import pytest

from bench.stats import format_summary, paired_bootstrap, percentile, summarize


def test_percentile_nearest_rank() -> None:
    data = [float(x) for x in range(1, 21)]  # 1..20
    assert percentile(data, 95) == 19.0
    assert percentile(data, 100) == 20.0
    assert percentile(data, 50) == 10.0
    assert percentile(data, 0) == 1.0
    assert percentile([3.0], 95) == 3.0
    with pytest.raises(ValueError):
        percentile([], 50)


def test_summarize_and_format() -> None:
    s = summarize([0.3, 0.1, 0.2])
    assert s == {"median": 0.2, "p95": 0.3, "min": 0.1, "max": 0.3, "n": 3}
    assert format_summary(s) == "median 200.0 ms  p95 300.0 ms  min 100.0 ms  n=3"
    assert format_summary(s, "s") == "median 0.200 s  p95 0.300 s  min 0.100 s  n=3"


def test_paired_bootstrap_interval() -> None:
    # B is A plus a constant: the paired difference has no spread, whatever the resample.
    a = [0.0, 1.0, 0.5, 0.25] * 10
    point, low, high = paired_bootstrap([x + 0.1 for x in a], a)
    assert point == pytest.approx(0.1) and low == pytest.approx(0.1) and high == pytest.approx(0.1)
    # one question of forty differs: the interval reaches 0, so it is no win
    b = list(a)
    b[0] = 1.0
    point, low, high = paired_bootstrap(b, a)
    assert point == pytest.approx(1 / 40) and low <= 0.0 < high
    # micro (ratio of sums): weights are the evidence lines per question
    point, _, _ = paired_bootstrap([2.0, 0.0], [1.0, 0.0], weights=[2.0, 2.0])
    assert point == pytest.approx(0.25)
    with pytest.raises(ValueError):
        paired_bootstrap([1.0], [1.0, 2.0])
