"""REM phase (pure): themes across days and candidate truths with their confidence.

Themes are concept tags that keep coming back in what was recalled and written recently; a theme's
strength is `min(1, 2 * count / N)` over the N short-term entries of the window (reference). A
candidate truth is a short-term entry with the reference's confidence formula; the report lists
the strongest of them, so a reader sees what is rising before the deep phase decides.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from memgit.dream.model import ShortTerm
from memgit.dream.scoring import rem_confidence


@dataclass
class RemResult:
    themes: list[tuple[str, float]]
    truths: list[tuple[ShortTerm, float]]


def rem_phase(
    entries: list[ShortTerm], recent_tags: dict[str, int], today: date, *, lookback_days: int, min_strength: float
) -> RemResult:
    first = (today - timedelta(days=lookback_days - 1)).isoformat()
    window = [e for e in entries if any(day >= first for day in e.days)]
    counts: Counter[str] = Counter()
    for entry in window:
        counts.update(set(entry.tags))
    n = max(1, len(window))
    themes = [(tag, min(1.0, 2 * count / n)) for tag, count in counts.items() if count >= 2]
    themes = [t for t in themes if t[1] >= min_strength]
    if not themes and recent_tags:
        # Nothing recalled yet: what the recent notes talk about most, so the report is not blank.
        total = max(1, sum(recent_tags.values()))
        top = sorted(recent_tags.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        themes = [(tag, min(1.0, 2 * count / total)) for tag, count in top]
    themes.sort(key=lambda t: (-t[1], t[0]))
    truths = [(e, rem_confidence(e.relevance, e.recalls, len(set(e.days)), len(e.tags))) for e in window]
    truths.sort(key=lambda t: (-t[1], t[0].path, t[0].start))
    return RemResult(themes[:10], truths[:10])
