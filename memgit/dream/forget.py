"""Forgetting a person agrees with (pure): few proposals, each with a reason a reviewer accepts.

Time alone never forgets a fact: "Sam prefers squash merges" is as true after 100 quiet days as
on the day it was written. An entry memgit wrote is proposed for removal only when it is old
(`forget_after_days`), unused for `forget_unrecalled_days` (no search surfaced it or its source, no
session-start load or `get` read it: those are recorded as uses, ledger/uses.py), and either

* **superseded**: a newer entry about the same subject says something close to it; or
* **past**: it is a dated event (a plan or an outcome: a meeting, a rehearsal, a release "on
  2026-03-21 at 14:00", a cutover that completed on a day) whose days are all long past: the rule
  is events.py's, the one promotion uses to call a plan whose day has passed transient.

Never: an entry a person edited (it is theirs), one a reviewer kept when its forgetting was
proposed, or a decision, rule or preference ("prefers", "decided", "never", "no deploys on
Fridays"). At most `max_forgets` a run, the oldest first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from memgit.config import DreamConfig
from memgit.core.paths import daily_log_day
from memgit.core.provenance import SourceRef
from memgit.dream.concepts import plain, words
from memgit.dream.entries import EntryRecord
from memgit.dream.events import long_past
from memgit.dream.light import overlap
from memgit.dream.memory_doc import MemoryEntry
from memgit.dream.model import Review
from memgit.dream.subjects import same_subject, subject_of
from memgit.ledger.lines import Recall, text_hash
from memgit.ledger.uses import USE_QUERY_HASHES

#: Words of a decision, a rule or a preference: such an entry is never forgotten on time alone.
_LASTING = re.compile(
    r"\b(?:prefer|prefers|preferred|preference|preferences|favou?rite|likes?|dislikes?|loves?|hates?|"
    r"wants?|rather|decided|decides|decision|decisions|agreed|agree|chose|chosen|choose|policy|rule|rules|"
    r"always|never|must|should|shall|avoid|only|no|not|don't|doesn't|do not|does not|won't|convention|"
    r"standard|requires?|required|allowed|forbidden|owns?|owner)\b",
    re.IGNORECASE,
)
#: Word overlap at which a newer entry about the same subject says the same thing again, updated.
SUPERSEDED_OVERLAP = 0.5


@dataclass(frozen=True)
class ForgetProposal:
    entry: MemoryEntry
    reason: str  # superseded | past
    written: str  # the day memgit wrote it
    detail: str  # what a reviewer reads in the commit and the report


def lasting(text: str) -> bool:
    """A decision, a rule or a preference (never forgotten on time alone)."""
    return _LASTING.search(plain(text)) is not None


def _written(entry: MemoryEntry, records: Mapping[str, EntryRecord]) -> str | None:
    record = records.get(entry.key)
    return record.day if record is not None else entry.marker.promoted


def _source(entry: MemoryEntry, records: Mapping[str, EntryRecord]) -> SourceRef | None:
    record = records.get(entry.key)
    return record.source if record is not None and record.source is not None else entry.marker.source


def _source_day(entry: MemoryEntry, records: Mapping[str, EntryRecord]) -> str:
    record = records.get(entry.key)
    if record is not None and record.date:
        return record.date
    source = _source(entry, records)
    day = daily_log_day(source.path) if source is not None else None
    return day.isoformat() if day else (_written(entry, records) or "")


def used(entry: MemoryEntry, source: SourceRef | None, recalls: Iterable[Recall]) -> bool:
    """A search surfaced the entry or its source lines, or a session-start load or a get read it."""
    line_hash = text_hash(entry.body)
    for r in recalls:
        if r.path == "MEMORY.md":
            if r.query_hash in USE_QUERY_HASHES:
                if r.text_hash == line_hash or (
                    not r.text_hash and r.start <= entry.body_end and entry.body_start <= r.end
                ):
                    return True
            elif r.text_hash == line_hash or entry.body_start <= r.focus_start <= entry.body_end:
                return True
        elif source is not None and r.path == source.path and source.start <= r.focus_start <= source.end:
            return True
    return False


def forget_proposals(
    entries: list[MemoryEntry],
    recalls: list[Recall],
    *,
    cfg: DreamConfig,
    today: date,
    busy: set[str],
    review: Review,
    records: Mapping[str, EntryRecord],
) -> list[ForgetProposal]:
    """The forget proposals of a run, oldest first, at most `max_forgets`. `busy`: keys this run
    already updates."""
    if cfg.forget_after_days <= 0 or cfg.max_forgets <= 0:
        return []
    written_before = (today - timedelta(days=cfg.forget_after_days)).isoformat()
    quiet_since = (today - timedelta(days=cfg.forget_unrecalled_days)).isoformat()
    horizon = today - timedelta(days=cfg.forget_unrecalled_days)
    recent = [r for r in recalls if r.day >= quiet_since]
    out: list[ForgetProposal] = []
    for entry in entries:
        written = _written(entry, records)
        if (
            not entry.owned
            or entry.key in busy
            or entry.key in review.kept
            or not written
            or written > written_before
            or lasting(entry.body)
        ):
            continue
        if used(entry, _source(entry, records), recent):
            continue
        proposal = _superseded(entry, entries, records, written)
        latest = long_past(plain(entry.body), horizon) if proposal is None else None
        if latest is not None:
            proposal = ForgetProposal(
                entry,
                "past",
                written,
                f"a dated event or plan: its latest date, {latest.isoformat()}, is {(today - latest).days} days past",
            )
        if proposal is not None:
            out.append(proposal)
    out.sort(key=lambda p: (p.written, p.entry.marker_line))
    return out[: cfg.max_forgets]


def _superseded(
    entry: MemoryEntry, entries: list[MemoryEntry], records: Mapping[str, EntryRecord], written: str
) -> ForgetProposal | None:
    mine = subject_of(plain(entry.body))
    if mine.empty:
        return None
    day = _source_day(entry, records)
    my_words = words(plain(entry.body))
    for other in entries:
        if other.key == entry.key or not same_subject(mine, subject_of(plain(other.body))):
            continue
        if _source_day(other, records) <= day:
            continue
        if overlap(my_words, words(plain(other.body))) >= SUPERSEDED_OVERLAP:
            return ForgetProposal(
                entry, "superseded", written, f"superseded by the newer entry {other.key}: {plain(other.body)}"
            )
    return None
