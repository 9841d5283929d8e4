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


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    weights: Sequence[float] | None = None,
    reps: int = 2000,
    seed: int = 13,
) -> tuple[float, float, float]:
    """Difference ``A - B`` of a ratio-of-sums metric and its paired bootstrap 95% interval.

    ``a[i]`` and ``b[i]`` are the two systems' scores on question ``i``; the metric is
    ``sum(a) / sum(weights)`` (weights default to 1: a plain mean). Questions are resampled with
    replacement, the same resample for both systems (paired), ``reps`` times; the interval is the
    2.5th and 97.5th percentile of the resampled differences. A difference whose interval contains
    0 is not a win. Returns ``(difference, low, high)``.
    """
    import numpy as np

    a_arr, b_arr = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    w_arr = np.ones_like(a_arr) if weights is None else np.asarray(weights, dtype=float)
    if not (len(a_arr) == len(b_arr) == len(w_arr)) or len(a_arr) == 0:
        raise ValueError("paired samples must be non-empty and of equal length")
    diff = a_arr - b_arr
    total = float(w_arr.sum())
    point = float(diff.sum() / total) if total else 0.0
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(diff), size=(reps, len(diff)))
    sums = w_arr[idx].sum(axis=1)
    samples = np.divide(diff[idx].sum(axis=1), sums, out=np.zeros(reps), where=sums > 0)
    low, high = np.percentile(samples, [2.5, 97.5])
    return point, float(low), float(high)
