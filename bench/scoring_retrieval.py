"""Pure scoring functions for the retrieval benchmark.

A query's gold evidence is a set of ``(path, line)`` pairs (1-based lines). A system answers with a
ranked list of hits, each covering the inclusive line range ``[start_line, end_line]`` of one file and
carrying the ``text`` it returned. The metrics:

* ``hit@k``: 1 if any evidence line lies inside one of the top-k hits' ranges (same path), else 0.
* ``recall@k``: the fraction of evidence lines covered by the top-k hits' ranges.
* ``budget recall``: walk the hits in rank order and take their returned ``text`` until the budget
  (4,000 characters, ≈1,000 tokens at ≈4 characters per token) is spent; the last hit's text is cut
  to what fits. A hit's text lines map to ``start_line, start_line + 1, ...`` in order (never past
  ``end_line``); a line counts when all of its characters were taken. The score is the fraction of
  evidence lines counted.

* ``budget hit``: 1 if at least one evidence line was taken within the budget, else 0.

Budgets are scored at 2,000, 4,000 and 8,000 characters. Aggregates are per category and overall:
``budget_recall@C`` is the per-query average (each question weighs the same), ``budget_micro@C`` the
share of all evidence lines covered (each evidence line weighs the same: a multi-hop question with
four evidence lines counts four times), ``budget_hit@C`` the share of questions with a hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

CATEGORY_NAMES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
DEFAULT_KS: tuple[int, ...] = (1, 5, 10)
CHARS_PER_TOKEN = 4
DEFAULT_BUDGET_TOKENS = 1000
DEFAULT_BUDGET_CHARS = DEFAULT_BUDGET_TOKENS * CHARS_PER_TOKEN
BUDGETS: tuple[int, ...] = (2000, 4000, 8000)

Line = tuple[str, int]


@dataclass(frozen=True)
class Hit:
    """One ranked search result: an inclusive line range of a file and the text returned for it."""

    path: str
    start_line: int
    end_line: int
    text: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Hit:
        return cls(
            path=str(data["path"]),
            start_line=int(data["start_line"]),  # type: ignore[call-overload]
            end_line=int(data["end_line"]),  # type: ignore[call-overload]
            text=str(data.get("text") or ""),
        )


def evidence_lines(evidence: Iterable[Mapping[str, object]]) -> frozenset[Line]:
    """``[{"path": ..., "line": ...}, ...]`` (the corpus format) -> a set of (path, line)."""
    return frozenset((str(e["path"]), int(e["line"])) for e in evidence)  # type: ignore[call-overload]


def lines_in_ranges(hits: Sequence[Hit], k: int) -> frozenset[Line]:
    """Every (path, line) covered by the ranges of the top-k hits."""
    covered: set[Line] = set()
    for hit in hits[:k]:
        covered.update((hit.path, n) for n in range(hit.start_line, hit.end_line + 1))
    return frozenset(covered)


def covers(hit: Hit, line: Line) -> bool:
    return hit.path == line[0] and hit.start_line <= line[1] <= hit.end_line


def hit_at_k(hits: Sequence[Hit], evidence: frozenset[Line], k: int) -> float:
    """1.0 if any evidence line is inside one of the top-k hits, else 0.0 (0.0 without evidence)."""
    return 1.0 if any(covers(h, e) for h in hits[:k] for e in evidence) else 0.0


def recall_at_k(hits: Sequence[Hit], evidence: frozenset[Line], k: int) -> float:
    """Fraction of evidence lines covered by the top-k hits' ranges."""
    if not evidence:
        return 0.0
    return len(evidence & lines_in_ranges(hits, k)) / len(evidence)


def budget_lines(hits: Sequence[Hit], budget_chars: int = DEFAULT_BUDGET_CHARS) -> frozenset[Line]:
    """The (path, line) pairs whose text fits in the reading budget, hits taken in rank order.

    A hit costs ``len(text)`` characters (its internal newlines included); a line is counted when the
    whole line was taken. Text lines beyond ``end_line`` are ignored (they cost but map nowhere).
    """
    taken: set[Line] = set()
    left = budget_chars
    for hit in hits:
        if left <= 0:
            break
        for offset, line_text in enumerate(hit.text.split("\n")):
            # the newline separating this line from the previous one is paid for too
            cost = len(line_text) + (1 if offset else 0)
            if cost > left:
                left = 0
                break
            left -= cost
            line_no = hit.start_line + offset
            if line_no <= hit.end_line:
                taken.add((hit.path, line_no))
    return frozenset(taken)


def budget_recall(hits: Sequence[Hit], evidence: frozenset[Line], budget_chars: int = DEFAULT_BUDGET_CHARS) -> float:
    """Fraction of evidence lines whose text was taken within the budget."""
    if not evidence:
        return 0.0
    return len(evidence & budget_lines(hits, budget_chars)) / len(evidence)


def metric_names(ks: Sequence[int] = DEFAULT_KS) -> list[str]:
    return [f"hit@{k}" for k in ks] + [f"recall@{k}" for k in ks] + ["budget_recall"]


def budget_metric_names(budgets: Sequence[int] = BUDGETS) -> list[str]:
    """The aggregate budget metrics, per budget: micro recall, per-query recall, hit."""
    return [f"{name}@{c}" for name in ("budget_micro", "budget_recall", "budget_hit") for c in budgets]


def score_query(
    hits: Sequence[Hit],
    evidence: frozenset[Line],
    ks: Sequence[int] = DEFAULT_KS,
    budget_chars: int = DEFAULT_BUDGET_CHARS,
) -> dict[str, float]:
    """All metrics for one query."""
    scores = {f"hit@{k}": hit_at_k(hits, evidence, k) for k in ks}
    scores.update({f"recall@{k}": recall_at_k(hits, evidence, k) for k in ks})
    scores["budget_recall"] = budget_recall(hits, evidence, budget_chars)
    scores["evidence_n"] = float(len(evidence))
    for chars in BUDGETS:
        covered = len(evidence & budget_lines(hits, chars))
        scores[f"budget_lines@{chars}"] = float(covered)
        scores[f"budget_recall@{chars}"] = covered / len(evidence) if evidence else 0.0
        scores[f"budget_hit@{chars}"] = 1.0 if covered else 0.0
    return scores


def aggregate(rows: Iterable[tuple[int, Mapping[str, float]]]) -> dict[str, dict[str, float]]:
    """Micro averages over queries: ``{"overall" | category name: {metric: mean, "n": count}}``.

    ``rows`` are ``(category, scores)`` pairs. Groups appear in category order, then ``overall``.
    """
    groups: dict[str, list[Mapping[str, float]]] = {}
    all_rows: list[Mapping[str, float]] = []
    for category, scores in sorted(rows, key=lambda r: r[0]):
        groups.setdefault(CATEGORY_NAMES.get(category, f"category {category}"), []).append(scores)
        all_rows.append(scores)
    groups["overall"] = all_rows
    return {name: mean_scores(members) for name, members in groups.items()}


def mean_scores(rows: Sequence[Mapping[str, float]]) -> dict[str, float]:
    if not rows:
        return {"n": 0}
    keys = list(rows[0])
    means = {key: sum(r[key] for r in rows) / len(rows) for key in keys}
    means["n"] = len(rows)
    lines = sum(r.get("evidence_n", 0.0) for r in rows)
    for key in keys:
        if key.startswith("budget_lines@"):
            micro = "budget_micro@" + key.removeprefix("budget_lines@")
            means[micro] = sum(r[key] for r in rows) / lines if lines else 0.0
    return means
