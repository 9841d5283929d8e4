"""Provenance references, MEMORY.md entry markers and commit trailers: how a fact names its source.

Three forms, one vocabulary, parsed and written only here (dreaming writes them, the site and the
index read them):

* a reference `path:start-end@commit` (`memory/2026-02-06.md:10-14@3f2a…`); the path is
  percent-encoded where it holds spaces or other characters that would make the form ambiguous;
* the marker memgit puts on its own line above every `MEMORY.md` entry it writes, an HTML comment
  that Markdown renderers hide:
  `<!-- memgit:entry key=k3f2a9c01d source=memory/2026-02-06.md:10-14@3f2a… score=0.812 promoted=2026-11-30 -->`
  (further `name=value` fields are kept as they are, so later versions can add some);
* git trailers on promotion commits: `Memgit-Promotion: <key>`, `Memgit-Source: <reference>`,
  `Memgit-Score: 0.812 (frequency=0.50 relevance=0.81 …)`, `Memgit-Action: promote|supersede|forget`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar
from urllib.parse import quote, unquote

T = TypeVar("T")

_PATH_SAFE = "/._-+~"
_REFERENCE = re.compile(r"^(?P<path>[^\s@]+):(?P<start>\d+)-(?P<end>\d+)(?:@(?P<commit>[0-9a-f]{4,64}))?$")
_MARKER = re.compile(r"^\s*<!--\s*memgit:entry\s+(?P<fields>[^>]*?)\s*-->\s*$")
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


def parse_marker(line: str) -> EntryMarker | None:
    """The marker on this line, or None when the line is not one (malformed fields are dropped)."""
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
    """Any memgit HTML comment, well-formed or not: never content worth promoting or showing."""
    return line.lstrip().startswith("<!-- memgit:")


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
