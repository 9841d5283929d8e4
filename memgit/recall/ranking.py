"""Pure ranking logic: normalise each leg, merge, decay by age, diversify, drop repeated lines."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date


@dataclass(frozen=True)
class Candidate:
    id: int
    path: str
    start_line: int
    end_line: int
    text: str
    day: str | None
    text_score: float = 0.0
    vector_score: float = 0.0
    score: float = 0.0
    also_in: tuple[str, ...] = ()  # versioned copies of this section folded into it (`hits.fold_versioned_copies`)


def minmax(scores: dict[int, float]) -> dict[int, float]:
    """Scale raw BM25 scores to [0, 1] over this query's candidates (best = 1).

    A squash like |r|/(1+|r|) puts every BM25 hit near 0.9, so the vector leg alone would decide
    the order; min-max keeps BM25's ordering information (measured on the dev split).
    """
    if not scores:
        return {}
    high, low = max(scores.values()), min(scores.values())
    if high - low < 1e-12:
        return {key: 1.0 for key in scores}
    return {key: (value - low) / (high - low) for key, value in scores.items()}


def fuse(text: float, vector: float, text_weight: float, vector_weight: float) -> float:
    total = text_weight + vector_weight
    if total <= 0:
        return 0.0
    return (text_weight * text + vector_weight * vector) / total


def decay(day: str | None, today: date, half_life_days: float, floor: float) -> float:
    """Multiplier for a dated daily log: 1 today, falling to `floor`; undated notes are evergreen."""
    if day is None or half_life_days <= 0:
        return 1.0
    try:
        age = (today - date.fromisoformat(day)).days
    except ValueError:
        return 1.0
    age = max(0, age)
    return floor + (1.0 - floor) * math.exp(-math.log(2) / half_life_days * age)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def mmr(ranked: Sequence[Candidate], tokens: Sequence[frozenset[str]], k: int, lam: float) -> list[Candidate]:
    """Maximal marginal relevance: trade relevance against similarity to what is already chosen.

    Each candidate's redundancy (its highest similarity to a chosen one) is updated with the
    newest choice only, so selection costs O(k x candidates) similarity computations.
    """
    if lam >= 1.0 or len(ranked) <= 1:
        return list(ranked[:k])
    redundancy = [0.0] * len(ranked)
    remaining = list(range(len(ranked)))
    chosen: list[int] = []
    while remaining and len(chosen) < k:
        best = max(remaining, key=lambda i: (lam * ranked[i].score - (1 - lam) * redundancy[i], -i))
        chosen.append(best)
        remaining.remove(best)
        for i in remaining:
            similarity = jaccard(tokens[i], tokens[best])
            if similarity > redundancy[i]:
                redundancy[i] = similarity
    return [ranked[i] for i in chosen]


def drop_repeated_lines(hits: Sequence[Candidate]) -> list[Candidate]:
    """Overlapping chunks repeat lines; trim each hit to lines no higher hit already returned.

    A hit whose lines were all returned already is dropped; a partly covered one keeps only
    its new lines (its text is cut to match, so line numbers stay exact).
    """
    seen: dict[str, list[tuple[int, int]]] = {}
    out: list[Candidate] = []
    for hit in hits:
        covered = seen.setdefault(hit.path, [])
        lines = hit.text.split("\n")
        span = hit.end_line - hit.start_line + 1
        if len(lines) != span:  # transcripts: line numbers skip; keep the hit whole
            if any(s <= hit.start_line and hit.end_line <= e for s, e in covered):
                continue
            covered.append((hit.start_line, hit.end_line))
            out.append(hit)
            continue
        keep = [not any(s <= hit.start_line + i <= e for s, e in covered) for i in range(span)]
        if not any(keep):
            continue
        first = keep.index(True)
        last = span - 1 - keep[::-1].index(True)
        if all(keep[first : last + 1]):
            trimmed = replace(
                hit,
                start_line=hit.start_line + first,
                end_line=hit.start_line + last,
                text="\n".join(lines[first : last + 1]),
            )
        else:
            trimmed = hit
        covered.append((trimmed.start_line, trimmed.end_line))
        out.append(trimmed)
    return out


def best_of(scored: list[tuple[int, float]], limit: int) -> list[tuple[int, float]]:
    """The `limit` best (id, score) pairs, best first; equal scores by id, so that the order
    does not depend on which query found a pair."""
    return sorted(scored, key=lambda pair: (-pair[1], pair[0]))[:limit]
