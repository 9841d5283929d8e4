"""Durable or one-off (pure): a measured judgement of whether a candidate line says something that lasts.

A log holds what stays true ("bins go out on Tuesdays now", "Priya: no new deps without asking")
beside what happened once or holds for a moment ("football 9:30, lost 6-2", "County award letter:
not yet", "Erinnerung Di 24.03.: Vorratsbestellung"). Rules written from one workspace's wording
missed most of these on notes other people wrote, so this is a logistic regression fitted on lines
other hands labelled (the tuning half of the folder cases: durable against transient, chatter,
questions, lines that need their log), over two kinds of evidence:

* the line's meaning: its MiniLM embedding (the vector memgit computes anyway);
* a few signs that read the same in every language: how long it is, its digits, whether it names a
  day on or before the dream or one still ahead (ISO, English and day-first dates, CLDR's month
  names), a clock time, its shape (list item, checkbox, "Key: value", a question, bold), whether it
  is a person's turn in a conversation or a daily log's line, and whether the heading above it is
  a timestamped log entry.

`bench/dream_durable_train.py` fits it (and writes `durable_weights.py`); its held-out figures
(each workspace scored by a model fitted on the others) are in docs/DREAMING.md. It is a weak
judge (held-out AUC 0.65-0.82 by workspace), so dreaming uses it only as a gate after the rules,
never without an embedding model: for a line people searched for, only the clearest one-offs
(`durable_weights.THRESHOLD`); for a line nobody searched that would be proposed as a newer
version of an entry, a stricter one (`SILENT_THRESHOLD`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from memgit.core.paths import daily_log_day
from memgit.dream import durable_weights
from memgit.dream.concepts import plain
from memgit.dream.dates_intl import dates_intl
from memgit.dream.events import dates_in
from memgit.dream.model import ShortTerm
from memgit.dream.turns import is_transcript, note_day

#: texts -> their embeddings (an array of rows), as `model.Similarity.vectors` gives them.
Vectors = Callable[[list[str]], Any]

#: Why a line the model judges a one-off is never promoted (a gate of the light phase's kind).
ONE_OFF = "one-off"

FEATURES = (
    "words",
    "digits",
    "date_past",
    "date_ahead",
    "clock",
    "turn",
    "daily_log",
    "list_item",
    "checkbox",
    "question",
    "exclaim",
    "key_value",
    "capitals",
    "rewritten",
    "relative_date",
    "heading_clock",
    "arrow",
    "bold",
)

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*)$")
_CLOCK = re.compile(r"\b\d{1,2}[:.h]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b", re.IGNORECASE)
_LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_CHECKBOX = re.compile(r"^\s*(?:[-*+]\s+)?\[[ xX]\]")
_KEY_VALUE = re.compile(r"^[^:]{1,40}:\s")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


@dataclass(frozen=True)
class Line:
    """What the model reads of a candidate: its copy, its source line, where it is, the heading above."""

    text: str
    raw: str
    path: str
    heading: str = ""
    changes: tuple[str, ...] = ()


def heading_above(lines: Sequence[str], start: int) -> str:
    """The text of the nearest Markdown heading above line `start` (1-based), or ""."""
    for number in range(min(start, len(lines)) - 1, 0, -1):
        match = _HEADING.match(lines[number - 1])
        if match:
            return match["text"].strip()
    return ""


def features(line: Line, today: date) -> list[float]:
    """The language-independent signs, in the order of `FEATURES`."""
    text = plain(line.text)
    words = _WORD.findall(text)
    found = note_day(line.path)
    near = date.fromisoformat(found) if found else today
    days = dates_in(text, near) + dates_intl(text, near)
    return [
        math.log1p(len(words)),
        sum(ch.isdigit() for ch in text) / max(1, len(text)),
        float(any(d <= today for d in days)),
        float(any(d > today for d in days)),
        float(_CLOCK.search(text) is not None),
        float(is_transcript(line.path)),
        float(daily_log_day(line.path) is not None),
        float(_LIST.match(line.raw) is not None),
        float(_CHECKBOX.match(line.raw) is not None),
        float("?" in text),
        float("!" in text),
        float(_KEY_VALUE.match(text) is not None),
        sum(w[:1].isupper() for w in words) / max(1, len(words)),
        float(bool(line.changes)),
        float("date" in line.changes),
        float(_CLOCK.search(line.heading) is not None),
        float("→" in line.raw or "->" in line.raw),
        float("**" in line.raw),
    ]


def probability(vector: Sequence[float], signs: Sequence[float]) -> float | None:
    """P(durable) of a line from its embedding and its signs, or None when the embedding is not
    the model's the weights were fitted on (another size)."""
    weights = durable_weights.EMBEDDING
    if len(vector) != len(weights):
        return None
    z = durable_weights.BIAS
    z += sum(w * float(v) for w, v in zip(weights, vector, strict=True))
    z += sum(durable_weights.SIGNS[name] * s for name, s in zip(FEATURES, signs, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def gate_one_offs(
    entries: Sequence[ShortTerm],
    lines_of: Mapping[str, Sequence[str]],
    vectors: Vectors,
    today: date,
    threshold: float = durable_weights.THRESHOLD,
) -> int:
    """Judge each entry the rules let pass (`entry.durable`), and set aside as `one-off` those the
    model puts below `threshold` (a line nobody searched for: `durable_weights.SILENT_THRESHOLD`).
    `lines_of`: each note's lines (for the heading above a line). Returns how many were set aside."""
    live = [e for e in entries if e.rejected is None]
    if not live:
        return 0
    rows = vectors([plain(e.fact) for e in live])
    stopped = 0
    for entry, vector in zip(live, rows, strict=True):
        lines = lines_of.get(entry.path, ())
        line = Line(entry.fact, entry.text, entry.path, heading_above(lines, entry.start), tuple(entry.changes))
        p = probability([float(v) for v in vector], features(line, today))
        if p is None:
            return stopped  # another embedding model than the weights': the rules alone decide
        entry.durable = round(p, 3)
        if p < threshold:
            entry.rejected = ONE_OFF
            stopped += 1
    return stopped
