"""MEMORY.md as memgit sees it (pure): the entries memgit wrote, and everything else untouched.

An entry memgit wrote is a marker line (`<!-- memgit:entry key=… -->`) and the body lines under it,
up to a blank line, a heading or the next marker. The marker carries `hash=` of the body as written:
when a person edits the body, the hash no longer matches and the entry counts as theirs (memgit
never rewrites, moves or forgets it). Every edit here splices lines of memgit's own entries; all
other bytes of the file are carried over as they are.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from memgit.core.provenance import EntryMarker, parse_marker

_CONFLICT = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.MULTILINE)
_HEADING = re.compile(r"^#{1,6}\s")


@dataclass(frozen=True)
class MemoryEntry:
    marker: EntryMarker
    marker_line: int  # 1-based line of the marker
    body_start: int
    body_end: int  # inclusive; body_end < body_start when the body is empty
    body: str

    @property
    def key(self) -> str:
        return self.marker.key

    @property
    def owned(self) -> bool:
        """Still exactly as memgit wrote it (so memgit may supersede or forget it)."""
        return self.marker.extra.get("hash") == body_hash(self.body)


def body_hash(body: str) -> str:
    normal = "\n".join(line.rstrip() for line in body.strip("\n").splitlines())
    return hashlib.sha1(normal.encode("utf-8")).hexdigest()[:10]


def has_conflict_markers(text: str) -> bool:
    return bool(_CONFLICT.search(text))


def parse_entries(text: str) -> list[MemoryEntry]:
    lines = text.splitlines()
    out: list[MemoryEntry] = []
    i = 0
    while i < len(lines):
        marker = parse_marker(lines[i])
        if marker is None:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() and not _HEADING.match(lines[j]) and parse_marker(lines[j]) is None:
            j += 1
        out.append(MemoryEntry(marker, i + 1, i + 2, j, "\n".join(lines[i + 1 : j])))
        i = j
    return out


def human_text(text: str) -> str:
    """What a person wrote: the file without memgit's own (unedited) entries."""
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    for entry in parse_entries(text):
        if entry.owned:
            drop.update(range(entry.marker_line - 1, entry.body_end))
    return "".join(line for n, line in enumerate(lines) if n not in drop)


def render_entry(marker: EntryMarker, body: str) -> str:
    """Marker line and body, with the body's hash in the marker."""
    extra = dict(marker.extra)
    extra["hash"] = body_hash(body)
    stamped = EntryMarker(marker.key, marker.source, marker.score, marker.promoted, extra)
    return stamped.format() + "\n" + body.rstrip("\n") + "\n"


def append_entry(text: str, marker: EntryMarker, body: str) -> str:
    """`text` with one entry added at its end, after a blank line; nothing before it changes."""
    if text and not text.endswith("\n"):
        text += "\n"
    if text and not text.endswith("\n\n"):
        text += "\n"
    if not text:
        text = "# Long-term Memory\n\n"
    return text + render_entry(marker, body)


def replace_entry(text: str, key: str, marker: EntryMarker, body: str) -> str:
    entry = _find(text, key)
    lines = text.splitlines(keepends=True)
    new = render_entry(marker, body)
    return "".join(lines[: entry.marker_line - 1]) + new + "".join(lines[entry.body_end :])


def remove_entry(text: str, key: str) -> str:
    """`text` without the entry (and the blank line that separated it from what came before)."""
    entry = _find(text, key)
    lines = text.splitlines(keepends=True)
    start = entry.marker_line - 1
    end = entry.body_end
    if start > 0 and not lines[start - 1].strip() and (end >= len(lines) or not lines[end].strip()):
        start -= 1
    return "".join(lines[:start]) + "".join(lines[end:])


def _find(text: str, key: str) -> MemoryEntry:
    for entry in parse_entries(text):
        if entry.key == key:
            return entry
    raise KeyError(key)
