"""The subject timeline (pure): each fact beside every newer line on its subject, so the newest wins.

A fact that changed is written several times over the weeks, and searches reach whichever version
shares their words: the newest version may never be searched often enough to be a candidate of
its own, and an entry of MEMORY.md (memgit's, or one the person wrote by hand before memgit ever
ran) may be contradicted by a log nobody searched. So before anything is proposed, every candidate
and every entry is placed beside the dated lines written after it (the daily logs and the person's
transcript turns of the window, `silent_lines`), and whether a newer line is another version of
it is asked of one judge (versions.py: meaning, the slot a fact fills, the people it names, change
words; dates decide which is newer). Then, whatever the wording:

* a candidate with a newer version at the base is never proposed (`outdated`); the newest version
  stands in its place, with its searches as evidence (when it can stand alone);
* an entry with a newer version gets an update proposal, even when nobody searched for it (the
  entry shows the subject is long-term) — a person's hand-written line included, replaced in place
  with the old text beside the new in the pull request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from memgit.core.provenance import is_marker_line, parse_entries
from memgit.dream.blocks import fenced_lines
from memgit.dream.concepts import entry_key, plain
from memgit.dream.light import judge as judge_line
from memgit.dream.model import ShortTerm
from memgit.dream.safety import flagged_lines
from memgit.dream.turns import is_transcript, note_day, role_of
from memgit.ledger.lines import text_hash
from memgit.lint.rules import LintSettings

_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)
#: The least cosine two texts need before the judge is asked whether one is a version of the other.
FLOOR = 0.35

#: (newer text, older text, similarity) -> "update", "conflict" or None (versions.py).
Judge = Callable[[str, str, float], str | None]


@dataclass(frozen=True)
class Unit:
    """An entry of MEMORY.md as an older version: memgit's (its key, its source's day), or a line a
    person wrote (its key made from its words, day "" = before every log, its text as written)."""

    key: str
    text: str
    day: str
    raw: str | None = None  # a person's line as written (None: memgit's entry)


def human_units(memory_text: str, hashes: Mapping[str, str]) -> list[Unit]:
    """The facts a person wrote in MEMORY.md, one a line: list items and sentences of two words or
    more ("current: v0.9.2"), outside code blocks (headings, markers and memgit's own entries left out)."""
    lines = memory_text.splitlines()
    mine: set[int] = set()
    for entry in parse_entries(memory_text, hashes):
        mine.update(range(entry.marker_line, max(entry.body_end, entry.marker_line) + 1))
    fenced = fenced_lines(lines)
    out = []
    for number, line in enumerate(lines, 1):
        text = plain(line)
        if (
            number in mine
            or number in fenced
            or not text
            or _HEADING.match(line)
            or is_marker_line(line)
            or line.lstrip().startswith("<!--")
            or len(_WORDS.findall(text)) < 2
        ):
            continue
        out.append(Unit(entry_key(line), text, "", line))
    return out


def order(entry: ShortTerm) -> tuple[str, str, int]:
    """When a line was written: its note's day, then its place."""
    return (note_day(entry.path) or "", entry.path, entry.start)


def silent_lines(
    notes: Mapping[str, str],
    taken: set[tuple[str, int]],
    today: date,
    lint: LintSettings,
    voices: frozenset[str],
    user_name: str,
) -> list[ShortTerm]:
    """Every line of the window's dated notes that could be a fact on its own (judged as a recalled
    line is: standalone, not transient, not flagged, no assistant's words), without evidence; lines
    already short-term entries (`taken`) left out."""
    out: list[ShortTerm] = []
    for path, text in sorted(notes.items()):
        if note_day(path) is None:
            continue
        lines = text.splitlines()
        fenced = frozenset() if is_transcript(path) else fenced_lines(lines)
        flags = flagged_lines(lines, lint)
        for number, line in enumerate(lines, 1):
            if (path, number) in taken or not line.strip() or _HEADING.match(line) or number in fenced:
                continue
            if is_transcript(path) and (role_of(line) or ("",))[0] != "user":
                continue
            entry = ShortTerm(path, number, number, line, text_hash(line), {}, [], sources=[(path, number, number)])
            judge_line(entry, lines, today, lint, voices, flags.get(number), user_name, fenced)
            if entry.rejected is None:
                out.append(entry)
    return out


def newest_versions(
    older: Sequence[tuple[str, tuple[str, str, int]]],
    newer: Sequence[ShortTerm],
    compare: Callable[[list[str], list[str]], list[list[float]]],
    judge: Judge,
) -> list[int | None]:
    """For each older fact (its text and when it was written), the index in `newer` of its newest
    version written after it, following versions of versions; None when there is none."""
    if not older or not newer:
        return [None] * len(older)
    texts = [plain(e.fact) for e in newer]
    when = [order(e) for e in newer]
    sims = compare([plain(t) for t, _ in older], texts)
    out: list[int | None] = []
    for (text, at), row in zip(older, sims, strict=True):
        found = [
            j
            for j, sim in enumerate(row)
            if when[j] > at and sim >= FLOOR and judge(texts[j], plain(text), sim) == "update"
        ]
        out.append(max(found, key=lambda j: when[j]) if found else None)
    return _follow(out, texts, when, compare, judge)


def _follow(
    first: list[int | None],
    texts: list[str],
    when: list[tuple[str, str, int]],
    compare: Callable[[list[str], list[str]], list[list[float]]],
    judge: Judge,
) -> list[int | None]:
    """Each found version's own newest version, until none is newer (a fact changed twice)."""
    step: dict[int, int | None] = {}
    pending = sorted({j for j in first if j is not None})
    for _ in range(4):
        todo = [j for j in pending if j not in step]
        if not todo:
            break
        sims = compare([texts[j] for j in todo], texts)
        for j, row in zip(todo, sims, strict=True):
            later = [
                k
                for k, sim in enumerate(row)
                if when[k] > when[j] and sim >= FLOOR and judge(texts[k], texts[j], sim) == "update"
            ]
            step[j] = max(later, key=lambda k: when[k]) if later else None
        pending = [k for k in step.values() if k is not None]
    out: list[int | None] = []
    for start in first:
        at, seen = start, set()
        while at is not None and at not in seen:
            seen.add(at)
            after = step.get(at)
            if after is None:
                break
            at = after
        out.append(at)
    return out


def with_evidence(line: ShortTerm, evidence: Mapping[tuple[str, str, str], float]) -> ShortTerm:
    """A newer version standing in for older ones: their searches count for it, each once."""
    merged = dict(line.evidence)
    for search, weight in evidence.items():
        merged[search] = max(merged.get(search, 0.0), weight)
    added = frozenset(merged.keys() - line.evidence.keys())
    return replace(line, evidence=merged, sources=list(line.sources), pooled=line.pooled | added)
