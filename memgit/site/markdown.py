"""Markdown to HTML for the site: CommonMark (markdown-it-py) with raw HTML escaped at parse time.

Nothing is sanitised after the fact: raw HTML never becomes markup (`html=False`), link schemes other
than http(s) and mailto never become links, images never load anything (they become their alt
text, so no request leaves the page), and a link to another memory file points at that note's page.
Any other relative link becomes plain text, so the site never holds a link that goes nowhere.

`entries()` and `render_memory()` know MEMORY.md's shape: each top-level list item or paragraph is
an entry; memgit's short marker at the end of a line belongs to the entry that holds the line, a
long marker on its own line (earlier versions) to the entry below it. Markers are never shown; a
short marker names only its key, and `provenance` (the store beside MEMORY.md, dream/entries.py)
gives the rest.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from markupsafe import Markup, escape

from memgit.core.provenance import EntryMarker, has_inline_marker, is_marker_line, parse_marker, strip_marker
from memgit.site import urls

if TYPE_CHECKING:  # imported where a page is rendered: a rebuild that renders no Markdown skips it
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

_EXTERNAL = ("http", "https", "mailto")


@dataclass(frozen=True)
class Entry:
    """One MEMORY.md entry: its 1-based line range and the marker memgit wrote above it, if any."""

    start: int
    end: int
    marker: EntryMarker | None


def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    return md


_MD = _parser()


def strip_markers(text: str) -> tuple[str, dict[int, EntryMarker | None]]:
    """Blank out memgit comment lines and cut short markers off the ends of lines (line numbers
    stay put); return the markers by line number (negative: inside that line)."""
    lines = text.split("\n")
    markers: dict[int, EntryMarker | None] = {}
    for number, line in enumerate(lines, start=1):
        if is_marker_line(line):
            markers[number] = parse_marker(line.rstrip("\r"))
            lines[number - 1] = ""
        elif has_inline_marker(line):
            markers[-number] = parse_marker(line.rstrip("\r"))
            lines[number - 1] = strip_marker(line)
    return "\n".join(lines), markers


def _entry_tokens(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """(open index, close index) of every entry: top-level list items and top-level paragraphs."""
    out = []
    stack: list[int] = []
    for i, token in enumerate(tokens):
        if token.nesting == 1:
            stack.append(i)
        elif token.nesting == -1 and stack:
            opened = stack.pop()
            first = tokens[opened]
            top_item = first.type == "list_item_open" and first.level == 1
            top_para = first.type == "paragraph_open" and first.level == 0
            if (top_item or top_para) and first.map:
                out.append((opened, i))
    return sorted(out)


def entries(text: str, provenance: Mapping[str, EntryMarker] | None = None) -> list[Entry]:
    """The entries of a MEMORY.md text, each with its marker (completed from `provenance`)."""
    clean, markers = strip_markers(text)
    tokens = _MD.parse(clean)
    return _pair(tokens, _entry_tokens(tokens), markers, provenance)


def _pair(tokens: Sequence[Token], spans: list[tuple[int, int]], markers: dict[int, EntryMarker | None],
          provenance: Mapping[str, EntryMarker] | None = None) -> list[Entry]:
    found = []
    pending = sorted((n, m) for n, m in markers.items() if n > 0)
    inline = {-n: m for n, m in markers.items() if n < 0}
    previous_end = 0
    for opened, _ in spans:
        start, end = tokens[opened].map or (0, 0)
        start += 1
        marker = None
        for line, item in pending:
            if previous_end <= line < start and item is not None:
                marker = item
        for line in range(start, max(start, end) + 1):
            if inline.get(line) is not None:
                marker = inline[line]
                break
        if marker is not None and marker.source is None and provenance and marker.key in provenance:
            marker = provenance[marker.key]
        found.append(Entry(start, max(start, end), marker))
        previous_end = max(start, end)
    return found


class Renderer:
    """Renders one Markdown file as it appears on one page of the site."""

    def __init__(self, page_url: str, source_path: str, known_paths: Container[str],
                 provenance: Mapping[str, EntryMarker] | None = None) -> None:
        self.page_url = page_url
        self.source_path = source_path
        self.known_paths = known_paths
        self.provenance = provenance

    def link_target(self, href: str) -> str | None:
        """Where a link in the note may point on the site, or None to render it as text."""
        parts = urlsplit(href)
        if parts.scheme:
            return href if parts.scheme.lower() in _EXTERNAL else None
        if parts.netloc or not parts.path:
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(self.source_path), unquote(parts.path)))
        if target not in self.known_paths:
            return None
        anchor = ""
        if parts.fragment.startswith("L") and parts.fragment[1:].replace("-L", "", 1).isdigit():
            anchor = "#" + parts.fragment
        return urls.relative(self.page_url, urls.note_url(target) + anchor)

    def render(self, text: str, annotate: Callable[[Entry], str] | None = None) -> Markup:
        clean, markers = strip_markers(text)
        tokens = _MD.parse(clean)
        if annotate is not None:
            spans = _entry_tokens(tokens)
            paired = _pair(tokens, spans, markers, self.provenance)
            for (opened, closed), entry in reversed(list(zip(spans, paired, strict=True))):
                tokens[opened].attrSet("id", f"L{entry.start}")
                from markdown_it.token import Token

                note = Token("html_block", "", 0)
                note.content = annotate(entry)
                tokens.insert(closed, note)
        html = _MD.renderer.render(tokens, _MD.options, {"renderer": self})
        return Markup(html)


def _render_link_open(self, tokens: Sequence[Token], idx: int, options, env) -> str:  # type: ignore[no-untyped-def]
    token = tokens[idx]
    target = env["renderer"].link_target(str(token.attrGet("href") or ""))
    token.meta["dropped"] = target is None
    if target is None:
        return '<span class="dead-link">'
    attrs = f' href="{escape(target)}"'
    if not target.startswith(("http:", "https:", "mailto:")) and "://" not in target:
        return f"<a{attrs}>"
    return f'<a{attrs} rel="nofollow noopener noreferrer">'


def _render_link_close(self, tokens: Sequence[Token], idx: int, options, env) -> str:  # type: ignore[no-untyped-def]
    depth = 0
    for j in range(idx - 1, -1, -1):
        kind = tokens[j].type
        if kind == "link_close":
            depth += 1
        elif kind == "link_open":
            if depth == 0:
                return "</span>" if tokens[j].meta.get("dropped") else "</a>"
            depth -= 1
    return "</a>"


def _render_image(self, tokens: Sequence[Token], idx: int, options, env) -> str:  # type: ignore[no-untyped-def]
    token = tokens[idx]
    alt = "".join(child.content for child in (token.children or []))
    return f'<span class="image-alt">[image: {escape(alt)}]</span>'


_MD.add_render_rule("link_open", _render_link_open)
_MD.add_render_rule("link_close", _render_link_close)
_MD.add_render_rule("image", _render_image)
