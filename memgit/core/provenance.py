"""Provenance references, MEMORY.md entry markers and commit trailers: how a fact names its source.

Three forms, one vocabulary, parsed and written only here (dreaming writes them, the site and the
index read them):

* a reference `path:start-end@commit` (`memory/2026-02-06.md:10-14@3f2a…`); the path is
  percent-encoded where it holds spaces or other characters that would make the form ambiguous;
* the marker of a `MEMORY.md` entry memgit wrote, an HTML comment that Markdown renderers hide. Today
  it is short, at the end of the entry's own line: `- Sam prefers squash merges. <!--mg:k3b71873e72-->`;
  the entry's provenance (source, score, dates, why) lives beside `MEMORY.md` in the provenance
  store (`memory/.dreams/entries.jsonl`), so markers stay a small share of the file an agent loads.
  Earlier versions wrote a long marker on its own line above the entry,
  `<!-- memgit:entry key=k3f2a9c01d source=memory/2026-02-06.md:10-14@3f2a… score=0.812 promoted=2026-11-30 -->`
  (further `name=value` fields are kept as they are); it is still read everywhere;
* git trailers on promotion commits: `Memgit-Promotion: <key>`, `Memgit-Source: <reference>`,
  `Memgit-Score: 0.812 (frequency=0.50 relevance=0.81 …)`, `Memgit-Action: promote|supersede|forget`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar
from urllib.parse import quote, unquote

T = TypeVar("T")

_PATH_SAFE = "/._-+~"
_REFERENCE = re.compile(r"^(?P<path>[^\s@]+):(?P<start>\d+)-(?P<end>\d+)(?:@(?P<commit>[0-9a-f]{4,64}))?$")
_MARKER = re.compile(r"^\s*<!--\s*memgit:entry\s+(?P<fields>[^>]*?)\s*-->\s*$")
#: The short marker: `<!--mg:KEY-->` (spaces inside tolerated), at the end of a line or alone on one.
_SHORT = re.compile(r"<!--\s*mg:(?P<key>[A-Za-z0-9_-]{1,40})\s*-->\s*$")
_FIELD = re.compile(r"(?P<name>[a-z_]+)=(?P<value>\S+)")

TRAILER_KEY = "Memgit-Promotion"
TRAILER_SOURCE = "Memgit-Source"
TRAILER_SCORE = "Memgit-Score"
TRAILER_ACTION = "Memgit-Action"


class BadReference(ValueError):
    """Text that is not a `path:start-end[@commit]` reference."""


@dataclass(frozen=True)
class SourceRef:
    path: str
    start: int
    end: int
    commit: str | None = None

    def format(self) -> str:
        text = f"{quote(self.path, safe=_PATH_SAFE)}:{self.start}-{self.end}"
        return f"{text}@{self.commit}" if self.commit else text

    def __str__(self) -> str:
        return self.format()


def parse_reference(text: str) -> SourceRef:
    match = _REFERENCE.match(text.strip())
    if not match:
        raise BadReference(f"not a path:start-end@commit reference: {text!r}")
    start, end = int(match["start"]), int(match["end"])
    if start < 1 or end < start:
        raise BadReference(f"line range {start}-{end} is empty or starts before line 1")
    return SourceRef(unquote(match["path"]), start, end, match["commit"])


@dataclass(frozen=True)
class EntryMarker:
    key: str
    source: SourceRef | None = None
    score: float | None = None
    promoted: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def format(self) -> str:
        parts = [f"key={self.key}"]
        if self.source is not None:
            parts.append(f"source={self.source.format()}")
        if self.score is not None:
            parts.append(f"score={self.score:.3f}")
        if self.promoted:
            parts.append(f"promoted={self.promoted}")
        parts += [f"{name}={value}" for name, value in sorted(self.extra.items())]
        return "<!-- memgit:entry " + " ".join(parts) + " -->"


def short_marker(key: str) -> str:
    """The marker memgit writes today, at the end of an entry's line (the leading space included)."""
    return f" <!--mg:{key}-->"


def parse_marker(line: str) -> EntryMarker | None:
    """The marker on this line, or None when it holds none: a long marker alone on the line, or a
    short one alone or at the end of a line of text (malformed long fields are dropped)."""
    short = _SHORT.search(line)
    if short is not None:
        return EntryMarker(key=short["key"])
    match = _MARKER.match(line)
    if not match:
        return None
    fields = {m["name"]: m["value"] for m in _FIELD.finditer(match["fields"])}
    key = fields.pop("key", None)
    if not key:
        return None
    source = _parsed(fields.pop("source", None), parse_reference)
    score = _parsed(fields.pop("score", None), float)
    return EntryMarker(key=key, source=source, score=score, promoted=fields.pop("promoted", None), extra=fields)


def _parsed(value: str | None, parse: Callable[[str], T]) -> T | None:
    """A marker field's value, or None when it is absent or does not parse (a hand edit, say)."""
    if value is None:
        return None
    try:
        return parse(value)
    except ValueError:  # BadReference is a ValueError too
        return None


def is_marker_line(line: str) -> bool:
    """A line that is only a memgit HTML comment (a long marker, well-formed or not, or a short
    one alone): never content worth promoting or showing. A line of text that ends in a short
    marker is content: `strip_marker` gives its text."""
    stripped = line.lstrip()
    if stripped.startswith("<!-- memgit:"):
        return True
    short = _SHORT.search(line)
    return short is not None and not line[: short.start()].strip()


def has_inline_marker(line: str) -> bool:
    """A line of text that ends in a short marker (an entry memgit wrote)."""
    short = _SHORT.search(line)
    return short is not None and bool(line[: short.start()].strip())


def strip_marker(line: str) -> str:
    """The line as a reader should see it: a short marker at its end cut off (with the spaces
    before it, the line's own ending kept), a line that is only a marker made empty."""
    if is_marker_line(line):
        return "\r" if line.endswith("\r") else ""
    short = _SHORT.search(line)
    if short is None:
        return line
    ending = "\r" if line.endswith("\r") else ""
    return line[: short.start()].rstrip(" \t") + ending


def strip_markers(text: str) -> str:
    """`text` with every marker taken out line by line; line numbers stay as they were."""
    if "<!--" not in text:
        return text
    return "\n".join(strip_marker(line) for line in text.split("\n"))


def parse_trailers(message: str) -> dict[str, str]:
    """The `Memgit-*` trailers of a commit message (last paragraph, `Key: value` lines)."""
    paragraphs = [p for p in message.strip().split("\n\n") if p.strip()]
    if not paragraphs:
        return {}
    out: dict[str, str] = {}
    for line in paragraphs[-1].splitlines():
        name, sep, value = line.partition(":")
        if sep and name.startswith("Memgit-") and " " not in name:
            out[name] = value.strip()
    return out


def format_trailers(trailers: dict[str, str]) -> str:
    return "\n".join(f"{name}: {value}" for name, value in trailers.items())


# -- MEMORY.md's entries ------------------------------------------------------------------------

_HEADING = re.compile(r"^#{1,6}\s")


@dataclass(frozen=True)
class MemoryEntry:
    marker: EntryMarker
    marker_line: int  # 1-based line of the marker (an inline marker: the entry's own line)
    body_start: int
    body_end: int  # inclusive; body_end < body_start when the body is empty
    body: str
    #: The body's hash as memgit wrote it (a long marker's `hash=`, else the provenance store's).
    written_hash: str | None = None
    inline: bool = False

    @property
    def key(self) -> str:
        return self.marker.key

    @property
    def owned(self) -> bool:
        """Still exactly as memgit wrote it (so memgit may supersede or forget it)."""
        return self.written_hash is not None and self.written_hash == body_hash(self.body)


def body_hash(body: str) -> str:
    normal = "\n".join(line.rstrip() for line in body.strip("\n").splitlines())
    return hashlib.sha1(normal.encode("utf-8")).hexdigest()[:10]


def parse_entries(text: str, hashes: Mapping[str, str] | None = None) -> list[MemoryEntry]:
    """memgit's entries in `text`; `hashes` (key -> body hash as written, from the provenance
    store) tells which of today's entries are still memgit's."""
    hashes = hashes or {}
    lines = text.splitlines()
    out: list[MemoryEntry] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if has_inline_marker(line):
            marker = parse_marker(line)
            assert marker is not None
            body = strip_marker(line).rstrip("\r")
            out.append(MemoryEntry(marker, i + 1, i + 1, i + 1, body, hashes.get(marker.key), inline=True))
            i += 1
            continue
        marker = parse_marker(line)
        if marker is None:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() and not _HEADING.match(lines[j]) and parse_marker(lines[j]) is None:
            j += 1
        written = marker.extra.get("hash") or hashes.get(marker.key)
        out.append(MemoryEntry(marker, i + 1, i + 2, j, "\n".join(lines[i + 1 : j]), written))
        i = j
    return out
