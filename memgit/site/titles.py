"""What a Markdown file written for another site calls itself (pure): its YAML front matter, its
title, and the headings its repository repeats in most files.

A repository of documents (RFCs, docs, a wiki) is not a memory log: most of its files open with
a template's sections ("Summary", "Motivation"), many carry YAML front matter between `---`
lines, and the document's name is in the front matter's `title`, the first H1 or the file name.
So a page's title is the front matter's `title`, else the first H1 unless that H1 is a template
heading, else the file's name; never merely the first heading of any level. A heading is a
template heading when most of the site's Markdown files have it (`template_headings`): it names a
section of every document, not a document, nor a concept.

Front matter is read, not executed or fully parsed: top-level `key: value` lines, with indented
and `- item` lines joined to the key above them, which is what a reader needs from it in a small
table. Nothing here imports a YAML library.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

#: A heading counts as a template's when at least this share of the Markdown files have it...
TEMPLATE_SHARE = 0.5
#: ...and at least this many: a handful of notes that happen to share "Notes" are not a template.
TEMPLATE_MIN_FILES = 5
#: Headings of one file remembered for template detection (a long file's tail adds nothing).
MAX_HEADS = 40
#: Front matter ends within this many lines, or the opening `---` was a rule.
MAX_FRONT_LINES = 200

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT_H1 = re.compile(r"^ {0,3}=+[ \t]*$")
_KEY = re.compile(r"^([A-Za-z0-9_][\w .-]{0,60}?)[ \t]*:(?:[ \t]+(.*))?$")
_MARKS = re.compile(r"[*_`~]|!?\[([^\]]*)\]\([^)]*\)")


def front_matter(lines: Sequence[str]) -> tuple[int, list[tuple[str, str]]] | None:
    """(number of lines the block takes, [(key, value)]) when the file opens with YAML front matter.

    The block is a `---` first line, `key: value` lines, and a closing `---` (or `...`); a block
    with no `key:` line is a thematic break and a heading, as CommonMark reads it, so None.
    """
    if not lines or lines[0].lstrip("\ufeff").rstrip() != "---":
        return None
    fields: list[list[str]] = []
    for number in range(1, min(len(lines), MAX_FRONT_LINES)):
        line = lines[number].rstrip("\r")
        if line.rstrip() in ("---", "..."):
            return (number + 1, [(k, v) for k, v in fields]) if fields else None
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _KEY.match(line) if not line[0].isspace() else None
        if match and not line.startswith("- "):
            fields.append([match[1], _scalar(match[2] or "")])
        elif fields:
            item = line.strip()
            item = item[2:].strip() if item.startswith("- ") else item
            joiner = ", " if line.strip().startswith("- ") and fields[-1][1] else " "
            fields[-1][1] = (fields[-1][1] + joiner + _scalar(item)).strip(" ,")
        else:
            return None
    return None


def _scalar(value: str) -> str:
    """A YAML scalar as written, without its quotes and block indicators (`|`, `>`)."""
    text = value.strip()
    if text in ("|", ">", "|-", ">-", "|+", ">+"):
        return ""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def heading_text(raw: str) -> str:
    """A heading as a reader reads it: emphasis, code ticks and link syntax removed."""
    return " ".join(_MARKS.sub(lambda m: m.group(1) or "", raw).split())


def headings(lines: Sequence[str], start: int = 0) -> list[tuple[int, str]]:
    """(level, text) of the ATX headings and setext H1s from line index `start`, fenced code
    left out (a `# comment` in a shell block is no heading)."""
    out: list[tuple[int, str]] = []
    fence = ""
    previous = ""
    for line in lines[start:]:
        line = line.rstrip("\r")
        opened = _FENCE.match(line)
        if fence:
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence):
                fence = "" if not line.strip()[len(opened[1]) :].strip() else fence
            previous = ""
            continue
        if opened:
            fence = opened[1]
            previous = ""
            continue
        atx = _ATX.match(line)
        if atx:
            if text := heading_text(atx[2] or ""):
                out.append((len(atx[1]), text))
            previous = ""
        elif _SETEXT_H1.match(line) and previous.strip() and not previous.startswith((" " * 4, "\t")):
            out.append((1, heading_text(previous)))
            previous = ""
        else:
            previous = line
    return out


def own_title(lines: Sequence[str]) -> tuple[str, str, list[str], int]:
    """What a file says its title is, whatever site shows it: (title, where it came from:
    "front" | "h1" | "", its distinct headings as `template_headings` compares them, the number
    of front matter lines)."""
    front = front_matter(lines)
    skip, fields = front if front is not None else (0, [])
    found = headings(lines, skip)
    heads = list(dict.fromkeys(key(text) for _, text in found))[:MAX_HEADS]
    for name, value in fields:
        if name.lower() == "title" and value.strip():
            return " ".join(value.split()), "front", heads, skip
    h1 = next((text for level, text in found if level == 1), "")
    return h1, ("h1" if h1 else ""), heads, skip


def key(heading: str) -> str:
    """How headings compare across files: case, spacing and a trailing colon do not count."""
    return " ".join(heading.lower().split()).rstrip(":").strip()


def template_headings(heads: Iterable[Sequence[str]], files: int) -> frozenset[str]:
    """The headings (as `key` gives them) most of `files` Markdown files share."""
    if files < TEMPLATE_MIN_FILES:
        return frozenset()
    counts = Counter(h for per_file in heads for h in set(per_file))
    need = max(TEMPLATE_MIN_FILES, files * TEMPLATE_SHARE)
    return frozenset(h for h, n in counts.items() if n >= need)


def file_title(path: str) -> str:
    """A file's name as its title: `text/0042-const-generics.md` -> `0042-const-generics`."""
    name = posixpath.basename(path)
    return name[:-3] if name.endswith(".md") and len(name) > 3 else name


def site_title(path: str, title: str, source: str, templates: frozenset[str]) -> tuple[str, str]:
    """(title, where from) on this site: a template heading names no document, the file does."""
    if source == "front" or (source == "h1" and key(title) not in templates):
        return title, source
    return file_title(path), "file"


def concept_slugs(templates: Iterable[str]) -> frozenset[str]:
    """The `#tag` spelling of each template heading (`[summary]: #summary` in an RFC template
    makes every file "about" summary)."""
    return frozenset(re.sub(r"[^\w-]+", "-", t).strip("-") for t in templates)


def result_heading(title: str, heading: str) -> str:
    """What a search result is called: the document's title, and the section when it says more."""
    if not heading or key(heading) == key(title):
        return title
    return f"{title} › {heading}"


def summary_fields(records: Mapping[str, Mapping]) -> list[Sequence[str]]:
    """The headings of each summarised Markdown file, for `template_headings`."""
    return [r.get("heads", []) for p, r in records.items() if p.endswith(".md") and not r.get("problem")]
