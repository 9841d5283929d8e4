"""Tests for bench/stats.py."""

from __future__ import annotations

import pytest

from bench.stats import format_summary, percentile, summarize


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
