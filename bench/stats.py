"""Pure summary statistics for timing samples."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def percentile(samples: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (``pct`` in 0–100): the smallest sample with ≥ pct% of samples ≤ it."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summarize(samples: Sequence[float]) -> dict[str, float]:
    """``{"median", "p95", "min", "max", "n"}`` of the samples (seconds in, seconds out)."""
    return {
        "median": statistics.median(samples),
        "p95": percentile(samples, 95),
        "min": min(samples),
        "max": max(samples),
        "n": len(samples),
    }


def format_summary(summary: dict[str, float], unit: str = "ms") -> str:
    scale, digits = {"ms": (1000.0, 1), "s": (1.0, 3)}[unit]

    def show(key: str) -> str:
        return f"{summary[key] * scale:.{digits}f} {unit}"

    return f"median {show('median')}  p95 {show('p95')}  min {show('min')}  n={int(summary['n'])}"
