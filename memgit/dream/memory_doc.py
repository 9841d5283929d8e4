"""MEMORY.md as memgit sees it (pure): the entries memgit wrote, and everything else untouched.

An entry memgit writes is one line ending in a short marker, under one section of its own
(`## From dreaming`, a setting), grouped by subject (`### Subject`):

    ## From dreaming

    ### Priya
    - Priya owns the nightly ETL jobs. <!--mg:k3b71873e72-->

The marker is only the entry's key: its provenance (source, score, dates, the body's hash as
written) lives in the provenance store beside MEMORY.md (`entries.py`), so the markers are a small
share of the bytes an agent loads. When a person edits the line, its hash no longer matches the
store's and the entry counts as theirs (memgit never rewrites, moves or forgets it).

Entries written by earlier versions (a long marker on its own line above one or more body lines,
its hash inside the marker) are still read; `migrate` rewrites the one-line ones to today's form.

Every edit here splices lines of memgit's own entries (and the section and subject headings it
made); all other bytes of the file are carried over as they are, and one line an entry means a
reviewer can delete one proposal with one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from memgit.core.provenance import (
    EntryMarker,
    has_inline_marker,
    short_marker,
    strip_marker,
)

# Re-exported: dreaming reads MEMORY.md's entries through this module (the recogniser stays provenance's).
from memgit.core.provenance import MemoryEntry as MemoryEntry
from memgit.core.provenance import body_hash as body_hash
from memgit.core.provenance import parse_entries as parse_entries
from memgit.dream.concepts import plain
from memgit.dream.subjects import speaker_of, title_of, title_stems

DEFAULT_SECTION = "From dreaming"
DEFAULT_TITLE = "# Long-term Memory"
#: The subject heading of an entry whose subject cannot be told.
NO_SUBJECT = "General"

_CONFLICT = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.MULTILINE)
_HEADING = re.compile(r"^#{1,6}\s")
_HEADING_PARTS = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>.*?)\s*#*\s*$")


def has_conflict_markers(text: str) -> bool:
    return bool(_CONFLICT.search(text))


def human_text(text: str, hashes: Mapping[str, str] | None = None) -> str:
    """What a person wrote: the file without memgit's own (unedited) entries, markers taken out."""
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    for entry in parse_entries(text, hashes):
        if entry.owned:
            drop.update(range(entry.marker_line - 1, entry.body_end))
    return "".join(_unmarked(line) for n, line in enumerate(lines) if n not in drop)


def _unmarked(line: str) -> str:
    ending = line[len(line.rstrip("\r\n")) :]
    return strip_marker(line.rstrip("\r\n")) + ending


def subject_title(body: str, titles: Iterable[str] = ()) -> str:
    """The subject heading an entry goes under (subjects.title_of: a transcript's speaker, the name
    its subject starts with, else its subject as spelled: "Osprey", "Platform standup"), joining
    one of the section's `titles` where that names the same thing: the same heading in fewer or
    more words ("Standup" / "Platform standup"), or a name the entry mentions ("Marta takes over the
    Osprey migration" goes under "Osprey"; the earliest mentioned wins). A speaker's turn stays
    under its speaker."""
    title = " ".join((title_of(body) or NO_SUBJECT).split())[:40]
    titles = list(titles)
    for existing in titles:
        if existing.casefold() == title.casefold():
            return existing
    if speaker_of(body):
        return title
    mine = title_stems(title)
    for existing in titles:
        theirs = title_stems(existing)
        if mine and theirs and (theirs <= mine or mine <= theirs):
            return existing
    text = plain(body)
    mentioned = []
    for existing in titles:
        name = existing.split()[0] if existing.split() else ""
        if name[:1].isupper() and not name.isupper():
            found = re.search(r"(?<![\w'’])" + re.escape(name) + r"(?![\w])", text)
            if found:
                mentioned.append((found.start(), existing))
    return min(mentioned)[1] if mentioned else title


_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")


def one_line(body: str) -> str:
    """`body` on one line with single spaces, but a code span's bytes as written (a command's spacing
    is part of the command)."""
    flat = body.replace("\r", " ").replace("\n", " ")
    out: list[str] = []
    at = 0
    for match in _CODE_SPAN.finditer(flat):
        out += [re.sub(r"\s+", " ", flat[at : match.start()]), match.group(0)]
        at = match.end()
    out.append(re.sub(r"\s+", " ", flat[at:]))
    return "".join(out).strip()


def entry_line(key: str, body: str) -> str:
    """An entry as memgit writes it: its one body line and the short marker (no line ending)."""
    return one_line(body) + short_marker(key)


def _eol(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _heading(line: str) -> tuple[int, str] | None:
    match = _HEADING_PARTS.match(line.rstrip("\r\n"))
    return (len(match["level"]), match["title"]) if match else None


def _find_heading(lines: list[str], level: int, title: str, start: int = 0, end: int | None = None) -> int | None:
    wanted = title.casefold()
    for i in range(start, len(lines) if end is None else end):
        found = _heading(lines[i])
        if found is not None and found[0] == level and found[1].casefold() == wanted:
            return i
    return None


def _block_end(lines: list[str], start: int, level: int, limit: int) -> int:
    """Index of the first heading of `level` or above after `start` (or `limit`)."""
    for i in range(start + 1, limit):
        found = _heading(lines[i])
        if found is not None and found[0] <= level:
            return i
    return limit


def _last_content(lines: list[str], start: int, end: int) -> int:
    last = start
    for i in range(start, end):
        if lines[i].strip():
            last = i
    return last


def add_entry(text: str, key: str, body: str, *, section: str = DEFAULT_SECTION, group: str | None = None) -> str:
    """`text` with one entry added at the end of its subject's group, in memgit's section (made at
    the end of the file when missing); nothing else changes."""
    eol = _eol(text)
    line = entry_line(key, body) + eol
    if not text.strip():
        text = DEFAULT_TITLE + eol
    lines = text.splitlines(keepends=True)
    if not lines[-1].endswith("\n"):
        lines[-1] += eol
    sec = _find_heading(lines, 2, section)
    if sec is None:
        group = group or subject_title(body)
        block = ([eol] if lines[-1].strip() else []) + [f"## {section}{eol}", eol, f"### {group}{eol}", line]
        return "".join(lines + block)
    sec_end = _block_end(lines, sec, 2, len(lines))
    titles = [found[1] for i in range(sec + 1, sec_end) if (found := _heading(lines[i])) is not None and found[0] == 3]
    group = group or subject_title(body, titles)
    sub = _find_heading(lines, 3, group, sec + 1, sec_end)
    if sub is not None:
        at = _last_content(lines, sub, _block_end(lines, sub, 3, sec_end)) + 1
        new = [line]
    else:
        at = _last_content(lines, sec, sec_end) + 1
        new = [eol, f"### {group}{eol}", line]
    if at < len(lines) and lines[at].strip():
        new.append(eol)  # a heading right below: keep a blank line before it
    return "".join(lines[:at] + new + lines[at:])


def replace_entry(text: str, key: str, new_key: str, body: str, hashes: Mapping[str, str] | None = None) -> str:
    """`text` with the entry `key` replaced in place by one line (an update keeps its place)."""
    entry = _find(text, key, hashes)
    lines = text.splitlines(keepends=True)
    last = lines[entry.body_end - 1] if entry.body_end >= entry.marker_line else lines[entry.marker_line - 1]
    ending = last[len(last.rstrip("\r\n")) :] or ""
    new = entry_line(new_key, body) + ending
    return "".join(lines[: entry.marker_line - 1]) + new + "".join(lines[max(entry.body_end, entry.marker_line) :])


_ITEM = re.compile(r"^(?P<indent>\s*)(?P<marker>(?:[-*+]|\d+[.)])\s+)?")


def replace_line(text: str, raw: str, key: str, body: str) -> str:
    """`text` with a line a person wrote (`raw`, as written) replaced in place by an entry (an update
    of a hand-written fact): its indentation and list marker kept, memgit's marker added."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        bare = line.rstrip("\r\n")
        if bare != raw or has_inline_marker(bare):
            continue
        ending = line[len(bare) :]
        found = _ITEM.match(bare)
        indent = found["indent"] if found else ""
        marker = (found["marker"] or "") if found else ""
        fact = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", body)
        lines[i] = indent + marker.rstrip() + (" " if marker else "") + entry_line(key, fact) + ending
        return "".join(lines)
    raise ValueError("the line to update is no longer in MEMORY.md")


def remove_entry(text: str, key: str, hashes: Mapping[str, str] | None = None) -> str:
    """`text` without the entry; a subject heading left with nothing under it goes too (with the
    blank line that separated it), as does the blank line above a removed long-form entry."""
    entry = _find(text, key, hashes)
    lines = text.splitlines(keepends=True)
    start = entry.marker_line - 1
    end = max(entry.body_end, entry.marker_line)
    if not entry.inline:
        if start > 0 and not lines[start - 1].strip() and (end >= len(lines) or not lines[end].strip()):
            start -= 1
        return "".join(lines[:start]) + "".join(lines[end:])
    rest = lines[:start] + lines[end:]
    # A `### subject` group left empty: its heading, blank lines, then a heading or the end.
    above = start - 1
    while above >= 0 and not rest[above].strip():
        above -= 1
    below = start
    while below < len(rest) and not rest[below].strip():
        below += 1
    heading = _heading(rest[above]) if above >= 0 else None
    following = _heading(rest[below]) if below < len(rest) else None
    if (
        heading is not None
        and heading[0] == 3
        and (below == len(rest) or (following is not None and following[0] <= 3))
    ):
        cut_from = above
        if below == len(rest):
            while cut_from > 0 and not rest[cut_from - 1].strip():
                cut_from -= 1  # nothing follows: no blank lines left dangling at the end
        rest = rest[:cut_from] + rest[below:]
    return "".join(rest)


def migrate(text: str) -> tuple[str, list[tuple[MemoryEntry, str]]]:
    """Long-form entries with a one-line body rewritten in place to today's one-line form.
    Returns the new text and, for each rewritten entry, the entry as it was and its new line."""
    lines = text.splitlines(keepends=True)
    done: list[tuple[MemoryEntry, str]] = []
    for entry in reversed(parse_entries(text)):
        if entry.inline or entry.body_end != entry.body_start:
            continue
        old = lines[entry.body_start - 1]
        ending = old[len(old.rstrip("\r\n")) :]
        new = old.rstrip("\r\n").rstrip() + short_marker(entry.key) + ending
        lines[entry.marker_line - 1 : entry.body_end] = [new]
        done.append((entry, new.rstrip("\r\n")))
    done.reverse()
    return "".join(lines), done


def _find(text: str, key: str, hashes: Mapping[str, str] | None = None) -> MemoryEntry:
    for entry in parse_entries(text, hashes):
        if entry.key == key:
            return entry
    raise KeyError(key)


def render_long_entry(marker: EntryMarker, body: str) -> str:
    """An entry in the long form earlier versions wrote (marker line with the body's hash, body):
    what existing workspaces hold, and what `migrate` rewrites."""
    extra = dict(marker.extra)
    extra["hash"] = body_hash(body)
    stamped = EntryMarker(marker.key, marker.source, marker.score, marker.promoted, extra)
    return stamped.format() + "\n" + body.rstrip("\n") + "\n"
