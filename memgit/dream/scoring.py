"""Promotion score (pure): six components in [0, 1] and their weighted sum.

The components and their shapes follow the reference system, with one change: `relevance` is the
mean score of the recalls *relative to the best hit of the same search*. memgit's hybrid scores are
not calibrated across queries (a precise question's best hit may score 0.45, a vague one's 0.9),
so an absolute mean would make the 0.75 gate unreachable on some workspaces and trivial on others.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from datetime import date

from memgit.config import DREAM_WEIGHTS

COMPONENTS = tuple(DREAM_WEIGHTS)
DEFAULT_WEIGHTS = DREAM_WEIGHTS  # declared with the settings: `[dream] weights` defaults to it


@dataclass(frozen=True)
class Components:
    frequency: float
    relevance: float
    diversity: float
    recency: float
    consolidation: float
    conceptual: float

    def weighted(self, weights: dict[str, float]) -> float:
        merged = {**DEFAULT_WEIGHTS, **weights}
        total = sum(merged[name] for name in COMPONENTS) or 1.0
        return sum(merged[name] * float(getattr(self, name)) for name in COMPONENTS) / total

    def as_dict(self) -> dict[str, float]:
        return {name: round(value, 3) for name, value in asdict(self).items()}

    def trailer(self, score: float) -> str:
        parts = " ".join(f"{name}={getattr(self, name):.2f}" for name in COMPONENTS)
        return f"{score:.3f} ({parts})"


def components(
    *,
    recalls: int,
    queries: int,
    days: list[str],
    relevance: float,
    tags: int,
    today: date,
    half_life_days: float,
) -> Components:
    distinct_days = sorted(set(days))
    last = date.fromisoformat(distinct_days[-1]) if distinct_days else today
    age = max(0, (today - last).days)
    return Components(
        frequency=min(1.0, math.log1p(recalls) / math.log(11)),
        relevance=max(0.0, min(1.0, relevance)),
        diversity=min(1.0, max(queries, len(distinct_days)) / 5),
        recency=math.exp(-math.log(2) / half_life_days * age),
        consolidation=min(1.0, max(0, len(distinct_days) - 1) / 2),
        conceptual=min(1.0, tags / 6),
    )


def rem_confidence(avg_score: float, recalls: int, days: int, tags: int) -> float:
    """The REM phase's "candidate truth" confidence (reference formula)."""
    return (
        0.45 * avg_score
        + 0.25 * min(1.0, math.log1p(recalls) / math.log(7))
        + 0.2 * min(1.0, days / 3)
        + 0.1 * min(1.0, tags / 6)
    )
