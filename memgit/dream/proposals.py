"""What a run's proposals carry for review (pure): provenance records and the questions behind them.

Each proposal becomes one record of the provenance store (entries.py): the key and text, the hash
of the line as written into MEMORY.md, the subject group it went under, the source reference with
the heading above it and its date, up to three of the questions that recalled it, and for an
update the entry it replaces. The report shows the same facts as the pull request's checklist.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from memgit.core.paths import daily_log_day
from memgit.core.provenance import SourceRef
from memgit.core.text import STOP_WORDS
from memgit.dream import memory_doc
from memgit.dream.blocks import fenced_lines
from memgit.dream.concepts import plain
from memgit.dream.entries import EntryRecord
from memgit.dream.model import Action, Candidate
from memgit.dream.subjects import stem
from memgit.dream.turns import note_day
from memgit.ledger.lines import Recall

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
MAX_WHY = 3


def source_heading(text: str | None, line: int) -> str | None:
    """The nearest Markdown heading above line `line` (1-based) of `text`, as written."""
    if not text:
        return None
    lines = text.splitlines()
    fenced = fenced_lines(lines)
    for number in range(min(line, len(lines)) - 1, -1, -1):
        if _HEADING.match(lines[number]) and number + 1 not in fenced:
            return lines[number].strip()
    return None


def why(candidate: Candidate, queries: Mapping[str, str]) -> tuple[str, ...]:
    """Up to three of the questions that recalled this very line (not an older version of its fact
    whose searches were pooled into it) and share its subject (a key word, by stem), the most
    frequent first: a question about something else that happened to land on the line explains
    nothing to a reviewer."""
    own = [key for key in candidate.entry.evidence if key not in candidate.entry.pooled]
    counts = Counter(q for _, q, _ in own)
    ordered = sorted(counts, key=lambda q: (-counts[q], queries.get(q, "~")))
    mine = _stems(candidate.entry.fact)
    return tuple(queries[q] for q in ordered if queries.get(q) and _stems(queries[q]) & mine)[:MAX_WHY]


def _stems(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[^\W\d_]{3,}", text.lower()) if w not in STOP_WORDS}


def query_texts(recalls: Sequence[Recall]) -> dict[str, str]:
    """Query hash -> its text, where the ledger kept it (`[dream] keep_queries`)."""
    out: dict[str, str] = {}
    for r in recalls:
        if r.query and r.query_hash not in out:
            out[r.query_hash] = " ".join(r.query.split())[:200]
    return out


def _group(state: str, line: int) -> str | None:
    lines = state.splitlines()
    for number in range(line - 2, -1, -1):
        text = lines[number]
        if text.startswith("### "):
            return text[4:].strip()
        if text.startswith("## ") or text.startswith("# "):
            return None
    return None


def action_records(
    actions: Sequence[Action],
    states: Sequence[str],
    candidates: Sequence[Candidate],
    *,
    day: str,
    files: Mapping[str, str | None],
    recalls: Sequence[Recall],
) -> list[EntryRecord]:
    """One provenance record per action, in commit order."""
    by_key = {c.key: c for c in candidates if c.gate is None}
    queries = query_texts(recalls)
    out: list[EntryRecord] = []
    for action, state in zip(actions, states, strict=True):
        if action.kind == "forget":
            out.append(EntryRecord(action.key, "forget", day, text=action.text, source=action.source))
            continue
        entry = next((e for e in memory_doc.parse_entries(state) if e.key == action.key), None)
        candidate = by_key.get(action.key)
        source = action.source
        source_day = note_day(source.path) if source is not None else None
        out.append(
            EntryRecord(
                key=action.key,
                action=action.kind,
                day=day,
                text=action.text,
                hash=memory_doc.body_hash(entry.body) if entry is not None else None,
                group=_group(state, entry.marker_line) if entry is not None else None,
                source=source,
                also=tuple(action.also),
                score=action.score,
                replaces=action.target,
                was=action.previous_source,
                heading=source_heading(files.get(source.path), source.start) if source is not None else None,
                date=source_day,
                why=why(candidate, queries) if candidate is not None else (),
            )
        )
    return out


def migration_records(migrated: Sequence[tuple[memory_doc.MemoryEntry, str]], day: str) -> list[EntryRecord]:
    """Records of long-form entries rewritten to short markers: their provenance moves to the store."""
    out = []
    for entry, _line in migrated:
        marker = entry.marker
        also = tuple(_refs(marker.extra.get("also", "")))
        was = next(iter(_refs(marker.extra.get("was", ""))), None)
        out.append(
            EntryRecord(
                key=entry.key,
                action="migrate",
                day=marker.promoted or day,
                text=plain(entry.body),
                hash=entry.written_hash,
                source=marker.source,
                also=also,
                score=marker.score,
                replaces=marker.extra.get("supersedes"),
                was=was,
                date=_day_of(marker.source),
            )
        )
    return out


def _refs(text: str) -> list[SourceRef]:
    from memgit.core.provenance import parse_reference

    refs = []
    for part in text.split(","):
        try:
            refs.append(parse_reference(part))
        except ValueError:
            continue
    return refs


def _day_of(source: SourceRef | None) -> str | None:
    day = daily_log_day(source.path) if source is not None else None
    return day.isoformat() if day else None
