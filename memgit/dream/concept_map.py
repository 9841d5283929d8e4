"""Where a dream's concepts appear (pure): the machine-readable companion of the dream report.

The report names REM themes in prose for a reviewer; the memory site needs them per place, at
the commit it is built from. So a run also commits `memory/.dreams/concepts/YYYY-MM-DD.json`
beside the report: the themes with their strength, and for the most frequent concept tags of the
light phase (every theme among them) the places that carry them, as `[path, start, end, hash]`
at the base commit. The hash is the ledger's text hash, so the site can find the lines again in
a later version of the note (`rehydrate.relocate`) exactly as dreaming finds a recalled fact.

Bounded: at most `MAX_CONCEPTS` tags besides the themes and `MAX_PLACES` places each, so a big
memory does not make a big file. The same inputs give the same bytes (sorted, fixed rounding).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from memgit.core.paths import CONCEPTS_DIR
from memgit.dream.chatter import without_chatter
from memgit.dream.concepts import concept_tags
from memgit.dream.light import junk_reason
from memgit.dream.model import ShortTerm
from memgit.dream.safety import flagged, flagged_lines
from memgit.ledger.lines import text_hash
from memgit.lint.rules import LintSettings

VERSION = 1
MAX_CONCEPTS = 40
MAX_PLACES = 20

Place = tuple[str, int, int, str]


def concepts_path(day: str) -> str:
    return f"{CONCEPTS_DIR}/{day}.json"


def concept_places(
    entries: Sequence[ShortTerm],
    files: Mapping[str, str | None],
    recent_notes: Mapping[str, str],
    *,
    lint: LintSettings | None = None,
    exclude: frozenset[str] = frozenset(),
) -> dict[str, list[Place]]:
    """tag -> the places (path, start, end, text hash) whose own text carries it.

    Places are every source of the light phase's short-term entries (a folded copy is a place of
    its own, tagged by its own text), then every line of the recent daily logs the light phase read
    for themes. Transcripts are left out: their lines are not the file's lines. A line the lint
    flags (a secret, an instruction to the agent) is no place and gives no tag: its words would
    carry the secret into the file the site reads. Chat filler gives no tag either, nor do the
    speakers in `exclude`.
    """
    lint = lint or LintSettings()
    found: dict[str, dict[Place, int]] = {}  # tag -> place -> 0 recalled, 1 only read in a recent log
    split: dict[str, list[str]] = {}
    secrets: dict[str, dict[int, str]] = {}

    def add(path: str, start: int, end: int, text: str, rank: int) -> None:
        if flagged(text, lint) is not None:
            return
        place = (path, start, end, text_hash(text))
        kept, _dropped = without_chatter(text, min_content_words=1)
        for tag in concept_tags(kept, exclude=exclude):
            ranks = found.setdefault(tag, {})
            ranks[place] = min(rank, ranks.get(place, rank))

    for entry in entries:
        for path, start, end in entry.sources:
            text = files.get(path)
            if text is None:
                continue
            lines = split.setdefault(path, text.splitlines())
            if path not in secrets:
                secrets[path] = flagged_lines(lines, lint)
            if any(n in secrets[path] for n in range(start, end + 1)):
                continue
            if 1 <= start <= end <= len(lines):
                add(path, start, end, "\n".join(lines[start - 1 : end]), 0)
    for path, note in sorted(recent_notes.items()):
        if not path.endswith(".md"):
            continue
        lines = note.splitlines()
        secret = flagged_lines(lines, lint)
        for number, line in enumerate(lines, start=1):
            if line.strip() and number not in secret and junk_reason("memory/x.md", line) is None:
                add(path, number, number, line, 1)
    # Recalled places first (a file keeps the first MAX_PLACES), then by path and line.
    return {tag: sorted(ranks, key=lambda p: (ranks[p], p[0], p[1], p[2])) for tag, ranks in found.items()}


def concepts_document(
    day: str, base_commit: str, themes: Sequence[tuple[str, float]], places: Mapping[str, list[Place]]
) -> str:
    """The JSON text committed beside the report (deterministic, bounded)."""
    strength = {tag: round(value, 3) for tag, value in themes}
    kept = [tag for tag in strength if tag in places]  # every theme, strongest first
    kept += sorted((tag for tag in places if tag not in strength), key=lambda tag: (-len(places[tag]), tag))[
        :MAX_CONCEPTS
    ]
    themes_rows = [{"tag": tag, "strength": value} for tag, value in strength.items()]
    concept_rows = [
        {"tag": tag, "count": len(places.get(tag, [])), "places": [list(p) for p in places.get(tag, [])[:MAX_PLACES]]}
        for tag in kept
    ]

    # One theme or concept a line: readable in a review, small diffs between dreams.
    def rows(items: list[dict[str, Any]]) -> str:
        return (
            "[\n" + ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in items) + "\n ]"
            if items
            else "[]"
        )

    head = json.dumps({"version": VERSION, "day": day, "base": base_commit})[:-1]
    return f'{head},\n "themes": {rows(themes_rows)},\n "concepts": {rows(concept_rows)}\n}}\n'
