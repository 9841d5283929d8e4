"""The concepts dreaming found, as the Concepts pages show them (pure).

Each dreaming run commits `memory/.dreams/concepts/YYYY-MM-DD.json` beside its report
(`memgit.dream.concept_map`): REM themes with their strength, and the places (path, lines, text
hash at the dream's base commit) of the light phase's most frequent concept tags. The site reads
those files from the tree it is built at and finds each place again in that tree's version of the
note with the rehydration dreaming itself uses, so a page is a function of the commit alone: no
ledger, no clock, no configuration of the run. A place whose text is gone is counted, not linked.
Reports written before these files existed still give their themes through the report's
"Themes:" line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from memgit.dream.rehydrate import relocate

#: Dreams read: the newest ones (a concept that has not come back in that many dreams is old news).
MAX_DREAMS = 30
#: Concepts from dreaming listed (themes first, then the tags with most places).
MAX_CONCEPTS = 100
#: Places listed on one concept's page.
MAX_PLACES = 50

_THEMES_LINE = re.compile(r"^Themes: (?P<items>.+)\.\s*$")
_THEME = re.compile(r"(?P<tag>[^,()]+?) \((?P<strength>[0-9.]+)\)")


@dataclass
class DreamConcept:
    """One concept as dreaming saw it, over the dreams read."""

    tag: str
    strength: float | None = None  # the strongest REM theme strength, None when never a theme
    theme_days: list[str] = field(default_factory=list)  # dreams that named it a theme, newest first
    found_days: list[str] = field(default_factory=list)  # dreams whose light phase tagged it
    count: int = 0  # the most places one dream counted
    raw: list[tuple[str, int, int, str]] = field(default_factory=list)  # path, lines, text hash at the dream
    memory: list[tuple[int, int]] = field(default_factory=list)  # promoted MEMORY.md entries carrying it


def parse_document(data: bytes) -> dict | None:
    """A concepts file as plain data, or None when it is not one (hand-edited, conflicted)."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or doc.get("version") != 1 or not isinstance(doc.get("day"), str):
        return None
    try:
        themes = [[str(t["tag"]), float(t["strength"])] for t in doc.get("themes", [])]
        concepts = [
            [str(c["tag"]), int(c["count"]), [[str(p[0]), int(p[1]), int(p[2]), str(p[3])] for p in c["places"]]]
            for c in doc.get("concepts", [])
        ]
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return {"day": doc["day"], "base": str(doc.get("base", "")), "themes": themes, "concepts": concepts}


def report_themes(text: str) -> tuple[int | None, list[tuple[str, float]]]:
    """The report's "Themes: a (1.00), b (0.50)." line: its number and the themes it names."""
    for number, line in enumerate(text.splitlines(), start=1):
        match = _THEMES_LINE.match(line)
        if match:
            return number, [(m["tag"].strip(), float(m["strength"])) for m in _THEME.finditer(match["items"])]
    return None, []


def dream_concepts(
    docs: Sequence[dict],
    shown: Container[str],
    memory_entries: Iterable[tuple[int, int, Sequence[str]]] = (),
    limit: int = MAX_CONCEPTS,
    public: bool = False,
) -> list[DreamConcept]:
    """Concepts of the dreams `docs` (newest first) with the places they name in `shown` notes.

    `shown` holds every note a page may link to (a public site passes only public notes, so a
    private place is never named); `memory_entries` the (start, end, tags) of promoted MEMORY.md
    entries (empty on a public site). A public site lists only concepts with a place it shows: a
    theme alone would be read from a private report. Nothing here reads a note: the places are
    found again in the notes when a concept's page is rendered (`locate`), so a commit to one note
    re-renders only the pages of the concepts it holds.
    """
    found: dict[str, DreamConcept] = {}
    for doc in docs:
        for tag, strength in doc["themes"]:
            concept = found.setdefault(tag, DreamConcept(tag))
            concept.strength = max(concept.strength or 0.0, strength)
            concept.theme_days.append(doc["day"])
        for tag, count, places in doc["concepts"]:
            concept = found.setdefault(tag, DreamConcept(tag))
            concept.found_days.append(doc["day"])
            concept.count = max(concept.count, count)
            concept.raw.extend(tuple(place) for place in places if place[0] in shown)
    ranked = sorted(found.values(), key=lambda c: (c.strength is None, -(c.strength or 0.0), -c.count, c.tag))
    kept = ranked[:limit]
    for concept in kept:
        unique = {
            (path, text_hash): (path, start, end, text_hash) for path, start, end, text_hash in reversed(concept.raw)
        }
        concept.raw = sorted(unique.values(), key=lambda p: (p[0], p[1], p[2], p[3]))
    by_tag = {c.tag: c for c in kept}
    for start, end, tags in memory_entries:
        for tag in tags:
            if tag in by_tag:
                by_tag[tag].memory.append((start, end))
    return [c for c in kept if c.raw or c.memory or (c.theme_days and not public)]


def locate(
    raw: Sequence[tuple[str, int, int, str]], current: Mapping[str, list[str]]
) -> tuple[list[tuple[str, int, int, str]], int]:
    """The places as they are in `current` (path -> lines): (path, start, end, first words), and
    how many are gone (their text rewritten or deleted since the dream). A moved line is followed."""
    spots: set[tuple[str, int, int, str]] = set()
    gone = 0
    for path, start, end, text_hash in raw:
        lines = current.get(path)
        located = relocate(lines, start, end, text_hash) if lines is not None else None
        if located is None:
            gone += 1
        else:
            spots.add((path, located.start, located.end, snippet(located.text)))
    return sorted(spots), gone


def snippet(text: str, width: int = 100) -> str:
    """The first words of a place, as its link shows them."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def places_note(concept: DreamConcept) -> str:
    """What a listing says about a concept's places, in a few words."""
    shown = len(concept.raw)
    return f"{shown} place{'s' if shown != 1 else ''}"
