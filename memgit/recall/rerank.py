"""A light learned re-ranker: cheap features of (query, candidate), scored by a small linear model.

The two legs find the evidence but often rank it 10th to 30th; a perfect re-order of the first
page gains little (measured: 0.69 -> 0.72), of the first 30 much more (0.83). So the whole merged
candidate list is re-scored with features the legs do not see: how many query words a chunk and
its best line hold, whether the query's names recur in it, date cues for "when" questions, length,
and where the two legs agree. The weights are a logistic regression fitted on the tune split by
``bench/rerank_train.py`` (at commit b793ec0, docs/RETRIEVAL.md) and shipped as a versioned table (``rerank_weights.py``). Pure: data in,
data out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from memgit.core.text import STOP_WORDS, WORD_RE, query_terms
from memgit.recall.ranking import Candidate

FEATURES: tuple[str, ...] = (
    "bias",
    "text",  # min-max BM25 score over this query's candidates
    "vector",  # cosine similarity
    "text_rr",  # 1 / (1 + rank) in BM25 order
    "vector_rr",  # 1 / (1 + rank) in vector order
    "agree",  # text x vector: both legs like it
    "cover",  # share of query words in the chunk
    "line_cover",  # share of query words in its best single line (proximity)
    "names",  # share of the query's names (capitalised words) in the chunk
    "name_density",  # mentions of those names per line (who is spoken of)
    "name_leads",  # share of lines that open with one of those names (who is speaking)
    "when_dates",  # a "when" question x date words in the chunk
    "day_match",  # the query names this chunk's date (1) or its month (0.5)
    "length",  # chunk characters / 1,000
    "lines",  # log(1 + lines)
)

TEMPORAL_QUERY_RE = re.compile(
    r"\b(when|date|dates|year|years|month|months|week|weeks|ago|since|how long|before|after|last|first)\b",
    re.IGNORECASE,
)
DATE_WORDS_RE = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|last|next|ago|recently|week|weekend|month|year|years|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|"
    r"july|august|september|october|november|december|\d{4}|\d{1,2}(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)
NAME_RE = re.compile(r"\b[A-Z][\w'’-]*\b")
POSSESSIVE_RE = re.compile(r"['’]s?$")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH = r"(" + "|".join(m.capitalize() for m in MONTHS) + r")"
# "October 13, 2023", "13 October 2023", "2023-10-13", and a month with or without a year
DATE_PATTERNS = (
    re.compile(_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})"),
    re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH + r",?\s+(\d{4})"),
    re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"),
)
MONTH_RE = re.compile(r"\b" + _MONTH + r"\b(?:,?\s+(\d{4}))?")


@dataclass(frozen=True)
class QueryCues:
    """What the features need from the query, computed once per query."""

    terms: frozenset[str]
    names: tuple[str, ...]
    temporal: bool
    days: frozenset[str] = frozenset()  # ISO dates the query names
    months: frozenset[str] = frozenset()  # "YYYY-MM", or "-MM" when no year is given


def query_dates(query: str) -> tuple[frozenset[str], frozenset[str]]:
    """Dates and months a query names, as ISO prefixes of daily-log days."""
    days, months = set(), set()
    taken: list[tuple[int, int]] = []  # spans of full dates: their month word is not a month cue
    for index, pattern in enumerate(DATE_PATTERNS):
        for match in pattern.finditer(query):
            groups = match.groups()
            if index == 0:
                month, day, year = MONTHS.index(groups[0].lower()) + 1, int(groups[1]), int(groups[2])
            elif index == 1:
                day, month, year = int(groups[0]), MONTHS.index(groups[1].lower()) + 1, int(groups[2])
            else:
                year, month, day = int(groups[0]), int(groups[1]), int(groups[2])
            if 1 <= month <= 12 and 1 <= day <= 31:
                days.add(f"{year:04d}-{month:02d}-{day:02d}")
                taken.append(match.span())
    for match in MONTH_RE.finditer(query):
        if any(start <= match.start() < end for start, end in taken):
            continue
        name, named_year = match.group(1), match.group(2)
        if name == "May" and not named_year:
            continue  # "May" alone is more often the verb
        number = MONTHS.index(name.lower()) + 1
        months.add(f"{named_year}-{number:02d}" if named_year else f"-{number:02d}")
    return frozenset(days), frozenset(months)


def day_match(cues: QueryCues, day: str | None) -> float:
    """1 if the query names this daily log's date, 0.5 if it names its month, else 0."""
    if day is None:
        return 0.0
    if day in cues.days:
        return 1.0
    if day[:7] in cues.months or day[4:7] in cues.months or any(d[:7] == day[:7] for d in cues.days):
        return 0.5
    return 0.0


def query_cues(query: str) -> QueryCues:
    """Words (stop words out), names (capitalised words that are not stop words), date intent."""
    names = []
    for match in NAME_RE.finditer(query):
        word = POSSESSIVE_RE.sub("", match.group(0))
        if word and word.lower() not in STOP_WORDS and word.lower() not in MONTHS and word not in names:
            names.append(word)
    terms = frozenset(t for t in query_terms(query) if " " not in t)
    days, months = query_dates(query)
    return QueryCues(terms, tuple(names), bool(TEMPORAL_QUERY_RE.search(query)), days, months)


def _reciprocal_ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: -values[i])
    ranks = [0.0] * len(values)
    for rank, i in enumerate(order):
        ranks[i] = 1.0 / (1.0 + rank) if values[i] > 0 else 0.0
    return ranks


def features(cues: QueryCues, candidates: Sequence[Candidate]) -> list[list[float]]:
    """One feature row per candidate, in ``FEATURES`` order."""
    text_rr = _reciprocal_ranks([c.text_score for c in candidates])
    vector_rr = _reciprocal_ranks([c.vector_score for c in candidates])
    n_terms = len(cues.terms)
    rows = []
    for i, cand in enumerate(candidates):
        lines = [line for line in cand.text.split("\n") if line.strip()] or [""]
        line_words = [{w.lower() for w in WORD_RE.findall(line)} for line in lines]
        words = set().union(*line_words)
        cover = len(cues.terms & words) / n_terms if n_terms else 0.0
        line_cover = max(len(cues.terms & lw) for lw in line_words) / n_terms if n_terms else 0.0
        if cues.names:
            found = [cand.text.count(name) for name in cues.names]
            names = sum(1 for f in found if f) / len(cues.names)
            name_density = min(1.0, sum(found) / len(lines))
            name_leads = sum(1 for line in lines if any(n in line[:24] for n in cues.names)) / len(lines)
        else:
            names = name_density = name_leads = 0.0
        when_dates = min(1.0, len(DATE_WORDS_RE.findall(cand.text)) / 3) if cues.temporal else 0.0
        rows.append(
            [
                1.0,
                cand.text_score,
                cand.vector_score,
                text_rr[i],
                vector_rr[i],
                cand.text_score * cand.vector_score,
                cover,
                line_cover,
                names,
                name_density,
                name_leads,
                when_dates,
                day_match(cues, cand.day),
                len(cand.text) / 1000,
                math.log1p(len(lines)),
            ]
        )
    return rows


def linear_scores(rows: Sequence[Sequence[float]], weights: Mapping[str, float]) -> list[float]:
    """The model's weighted sums (logits: higher = likelier to hold evidence)."""
    w = [weights.get(name, 0.0) for name in FEATURES]
    return [sum(wi * xi for wi, xi in zip(w, row, strict=True)) for row in rows]


def rerank(query: str, candidates: Sequence[Candidate], weights: Mapping[str, float]) -> list[Candidate]:
    """Candidates re-scored by the model (``score`` replaced), best first; ties keep path order."""
    if not candidates:
        return []
    logits = linear_scores(features(query_cues(query), candidates), weights)
    # MMR weighs relevance against redundancy (Jaccard, 0-1), so the scores it sees must span 0-1
    # as the fused ones do: min-max over this query's candidates, best = 1.
    high, low = max(logits), min(logits)
    scores = [(z - low) / (high - low) if high > low else 1.0 for z in logits]
    rescored = [replace(c, score=s) for c, s in zip(candidates, scores, strict=True)]
    rescored.sort(key=lambda c: (-c.score, c.path, c.start_line))
    return rescored
