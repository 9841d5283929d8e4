"""The provenance store (pure): what each dream proposed for MEMORY.md, from where and why.

`memory/.dreams/entries.jsonl` holds one JSON line per proposal of a dream whose report was merged
(it is written in the report's commit): the entry's key, its text and the hash of its line as
written, the source reference and its heading and date, the score, the questions that recalled it,
what it replaced. MEMORY.md itself carries only the key (`<!--mg:KEY-->`), so an agent loading the
file reads facts, not bookkeeping; the site, `--explain` and reviewers read the provenance here.

The file is append-only and `merge=union` (two merged dream branches keep both sides' lines), so
nothing here depends on line order: the record that counts for a key is its latest by day.
A proposal listed here but missing from MEMORY.md was taken out by a person (decisions.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from memgit.core.provenance import EntryMarker, SourceRef, parse_reference

#: Actions that put an entry into MEMORY.md (a `forget` record takes one out).
WRITES = ("promote", "supersede", "migrate")
_RANK = {"migrate": 0, "promote": 1, "supersede": 1, "forget": 2}


@dataclass(frozen=True)
class EntryRecord:
    key: str
    action: str  # promote | supersede | forget | migrate
    day: str  # the dream's day (YYYY-MM-DD)
    text: str = ""
    hash: str | None = None  # of the entry's line as written (memory_doc.body_hash)
    group: str | None = None  # the subject heading it went under
    source: SourceRef | None = None
    also: tuple[SourceRef, ...] = ()
    score: float | None = None
    replaces: str | None = None  # the key an update replaced
    was: SourceRef | None = None  # the replaced entry's source
    heading: str | None = None  # the heading above the source lines
    date: str | None = None  # the source's date (its daily log's day)
    why: tuple[str, ...] = ()  # up to three of the questions that recalled it

    def to_json(self) -> str:
        data: dict[str, Any] = {"key": self.key, "action": self.action, "day": self.day}
        optional: dict[str, Any] = {
            "text": self.text,
            "hash": self.hash,
            "group": self.group,
            "source": self.source.format() if self.source else None,
            "also": [ref.format() for ref in self.also],
            "score": round(self.score, 3) if self.score is not None else None,
            "replaces": self.replaces,
            "was": self.was.format() if self.was else None,
            "heading": self.heading,
            "date": self.date,
            "why": list(self.why),
        }
        data.update({name: value for name, value in optional.items() if value not in (None, "", [])})
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def marker(self) -> EntryMarker:
        """The entry's provenance in the shape the long markers had (what the site shows)."""
        extra = {}
        if self.also:
            extra["also"] = ",".join(ref.format() for ref in self.also)
        if self.replaces:
            extra["supersedes"] = self.replaces
        if self.was is not None:
            extra["was"] = self.was.format()
        return EntryMarker(self.key, self.source, self.score, self.day, extra)


def _ref(value: Any) -> SourceRef | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_reference(value)
    except ValueError:
        return None


def _strings(value: Any, limit: int = 20) -> tuple[str, ...]:
    return tuple(v for v in value[:limit] if isinstance(v, str)) if isinstance(value, list) else ()


def json_object(line: str) -> dict[str, Any] | None:
    """One JSONL line as an object, or None (a torn line, a hand edit, absurd nesting)."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def parse_record(line: str) -> EntryRecord | None:
    """One store line, or None when it is not a valid record (the caller counts those)."""
    obj = json_object(line)
    if obj is None:
        return None
    key, action, day = obj.get("key"), obj.get("action"), obj.get("day")
    if not (isinstance(key, str) and key and action in _RANK and isinstance(day, str) and len(day) == 10):
        return None
    score = obj.get("score")
    text = obj.get("text")
    return EntryRecord(
        key=key,
        action=action,
        day=day,
        text=text if isinstance(text, str) else "",
        hash=obj["hash"] if isinstance(obj.get("hash"), str) else None,
        group=obj["group"] if isinstance(obj.get("group"), str) else None,
        source=_ref(obj.get("source")),
        also=tuple(ref for ref in map(_ref, _strings(obj.get("also"))) if ref is not None),
        score=float(score) if isinstance(score, int | float) and 0 <= score <= 1 else None,
        replaces=obj["replaces"] if isinstance(obj.get("replaces"), str) else None,
        was=_ref(obj.get("was")),
        heading=obj["heading"] if isinstance(obj.get("heading"), str) else None,
        date=obj["date"] if isinstance(obj.get("date"), str) else None,
        why=_strings(obj.get("why"), 3),
    )


@dataclass
class Store:
    records: list[EntryRecord] = field(default_factory=list)
    malformed: int = 0

    def _latest(self, actions: Iterable[str]) -> dict[str, EntryRecord]:
        wanted = set(actions)
        out: dict[str, EntryRecord] = {}
        for record in sorted(self.records, key=lambda r: (r.day, _RANK[r.action], r.to_json())):
            if record.action in wanted:
                out[record.key] = record
        return out

    def written(self) -> dict[str, EntryRecord]:
        """The latest record that wrote each key into MEMORY.md."""
        return self._latest(WRITES)

    def hashes(self) -> dict[str, str]:
        return {key: r.hash for key, r in self.written().items() if r.hash}

    def forgotten(self) -> dict[str, str]:
        """Key -> the day of the latest forget proposal of it."""
        return {key: r.day for key, r in self._latest(["forget"]).items()}

    def replaced(self) -> dict[str, str]:
        """Key an update replaced -> the day of that update."""
        out: dict[str, str] = {}
        for record in self.records:
            if record.replaces and record.action in WRITES:
                out[record.replaces] = max(out.get(record.replaces, ""), record.day)
        return out

    def markers(self) -> dict[str, EntryMarker]:
        """Key -> its provenance as a marker (what the site shows beside an entry)."""
        return {key: record.marker() for key, record in self.written().items()}


def parse_store(text: str) -> Store:
    store = Store()
    for line in text.split("\n"):
        if not line.strip():
            continue
        record = parse_record(line.removesuffix("\r"))
        if record is None:
            store.malformed += 1
        else:
            store.records.append(record)
    return store


def append_lines(existing: str, lines: Iterable[str]) -> str:
    """`existing` with the lines it does not hold yet appended, each once (exact lines dedupe)."""
    have = set(existing.split("\n"))
    new = [line for line in dict.fromkeys(lines) if line not in have]
    if not new:
        return existing
    lead = "" if not existing or existing.endswith("\n") else "\n"
    return existing + lead + "\n".join(new) + "\n"


def provenance(store_text: str | None) -> Mapping[str, EntryMarker]:
    """Key -> provenance marker, from the store's text (None: no store): the site's one call."""
    return parse_store(store_text).markers() if store_text else {}
