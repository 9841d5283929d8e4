"""Markdown to HTML for the site: CommonMark (markdown-it-py) with raw HTML escaped at parse time.

Nothing is sanitised after the fact: raw HTML never becomes markup (`html=False`), link schemes other
than http(s) and mailto never become links, images never load anything (they become their alt
text, so no request leaves the page), and a link to another memory file points at that note's page.
Any other relative link becomes plain text, so the site never holds a link that goes nowhere.

A rendered page still answers `#L12` and `#L10-L14`: markdown-it's token map gives every block its
source lines, each innermost block (paragraph, heading, list item, table row, code block) carries
the ids of the lines it holds, so a provenance link lands on the block that holds its lines. In
text, `#tags` link to their concept page and `path:start-end@commit` references to the lines they
name. memgit's marker comments are never shown.

`entries()` and `render_memory()` know MEMORY.md's shape: each top-level list item or paragraph is
an entry; memgit's short marker at the end of a line belongs to the entry that holds the line, a
long marker on its own line (earlier versions) to the entry below it. Markers are never shown; a
short marker names only its key, and `provenance` (the store beside MEMORY.md, dream/entries.py)
gives the rest.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from markupsafe import Markup, escape

from memgit.core.provenance import EntryMarker, has_inline_marker, is_marker_line, parse_marker, strip_marker
from memgit.site import urls
from memgit.site import vault as vault_links
from memgit.site.md_bounds import PIECES_OVER, bounded_table, pieces

if TYPE_CHECKING:  # imported where a page is rendered: a rebuild that renders no Markdown skips it
    from markdown_it import MarkdownIt
    from markdown_it.renderer import RendererHTML
    from markdown_it.token import Token
    from markdown_it.utils import EnvType, OptionsDict

_EXTERNAL = ("http", "https", "mailto")
# The forms a note's text may link without Markdown link syntax: a `#tag` (as models._TAG finds
# them) and a provenance reference `path.md:start-end[@commit]`.
_INLINE = re.compile(
    r"(?P<tag>(?<![\w&#/])#(?P<name>[A-Za-z][\w-]{1,40})\b)"
    r"|(?P<ref>(?<![\w/])(?P<path>[\w./%+~-]+\.(?:md|jsonl)):(?P<start>\d+)-(?P<end>\d+)(?:@(?P<commit>[0-9a-f]{7,64}))?\b)"
)
_LEAVES = frozenset(
    {"paragraph_open", "heading_open", "fence", "code_block", "hr", "tr_open", "html_block", "raw_html", "wiki_embed"}
    | {"callout_title_open"}
)
_WRAPPED = frozenset({"fence", "code_block", "hr", "html_block", "raw_html", "wiki_embed"})
#: How deep embedded notes nest: an embed inside an embedded note shows as a link.
MAX_EMBED_DEPTH = 1
#: The most of an embedded note shown in place; the rest is on its own page.
MAX_EMBED_CHARS = 20_000


@dataclass(frozen=True)
class Entry:
    """One MEMORY.md entry: its 1-based line range and the marker memgit wrote above it, if any."""

    start: int
    end: int
    marker: EntryMarker | None


@dataclass(frozen=True)
class VaultView:
    """What a note's wikilinks need from the rest of the vault: where each `(note, target)` the
    build resolved leads (the planner resolves them: `vault.Resolver`), and the text of a note an
    embed shows (None: not readable)."""

    resolved: Mapping[tuple[str, str], str] = field(default_factory=dict)
    text: Callable[[str], str | None] = lambda path: None


#: Ids the page templates use: a heading whose slug is one of them gets a suffix.
_RESERVED_IDS = frozenset(
    {"main", "hq", "hpanel", "hstatus", "hresults", "promoted-h", "heat-h", "linked-h", "history-h"}
    | {"search-form", "search-input", "search-results", "search-status"}
)
_SLUG_DROP = re.compile(r"[^\w\- ]+")
_TASK = re.compile(r"\[([ xX])\][ \t]")


def heading_slug(text: str) -> str:
    """The id GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return _SLUG_DROP.sub("", text.strip().lower()).replace(" ", "-") or "section"


def _highlight(code: str, lang: str, attrs: str) -> str:
    """A fenced block's tokens as `<span class="tok-…">`, coloured by site.css in both palettes:
    done at build time (no script on the page), only for a language Pygments knows by name."""
    return _highlighted(code, lang.lower()) if lang else ""


@functools.lru_cache(maxsize=2048)
def _highlighted(code: str, lang: str) -> str:
    """Highlighting, once a block: documentation repeats its examples in every version's copy."""
    tools = _pygments(lang)
    if tools is None:
        return ""
    from pygments import highlight

    return str(highlight(code, *tools))


@functools.lru_cache(maxsize=64)
def _pygments(lang: str) -> tuple[Any, Any] | None:
    """(lexer, formatter) for a language name, made once a build (a lexer costs more than a short
    block's highlighting), or None for a name Pygments does not know."""
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(lang, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None
    return lexer, HtmlFormatter(nowrap=True, classprefix="tok-")


def _parser() -> MarkdownIt:
    """CommonMark with GitHub's tables, strikethrough, autolinks and footnotes (mdit-py-plugins)
    and an Obsidian vault's syntax (`obsidian_md`). Raw HTML is parsed, so that its blocks end
    where GitHub ends them (reference definitions after an HTML comment stay definitions), and
    then neutralised (`repo_markdown.neutralise_html`): it never becomes markup."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.gfm_autolink import gfm_autolink_plugin

    from memgit.site import obsidian_md

    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False, "highlight": _highlight})
    md.enable(["table", "strikethrough"])
    md.use(footnote_plugin, inline=False)
    md.use(gfm_autolink_plugin)
    md.use(obsidian_md.plugin)
    md.block.ruler.at("table", bounded_table, {"alt": ["paragraph", "reference"]})
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


def _pair(
    tokens: Sequence[Token],
    spans: list[tuple[int, int]],
    markers: dict[int, EntryMarker | None],
    provenance: Mapping[str, EntryMarker] | None = None,
) -> list[Entry]:
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


def _host(tokens: Sequence[Token], index: int) -> int:
    """The token whose element shows a leaf block: a tight list hides its paragraphs' `<p>`, so
    their list item holds the lines instead."""
    token = tokens[index]
    if token.type == "paragraph_open" and token.hidden:
        for j in range(index - 1, -1, -1):
            if tokens[j].type == "list_item_open" and tokens[j].level == token.level - 1:
                return j
    return index


def _anchor_html(lines: range) -> str:
    return "".join(f'<span id="L{n}"></span>' for n in lines)


def anchor_lines(
    tokens: list[Token],
    line_count: int,
    classes: Callable[[int, int], list[str]] | None = None,
    first_line: int = 1,
) -> None:
    """Give every source line from `first_line` to `line_count` an id (`L12`) inside the
    innermost block that shows it.

    Each leaf block owns its own lines plus the blank or hidden lines after it (a marker line, a
    table's delimiter row), the first one also the lines before it, so every `#Ln` of the file
    lands somewhere. The block's element gets `class="blk"`, `data-l="first-last"` and the id of
    its first line; the other lines become empty spans at its start. Works on the token stream in
    place; the wrappers of code blocks are put in with one pass at the end (inserting each into a
    list of a million tokens made a big note's page take minutes).
    """
    from markdown_it.token import Token

    leaves = [i for i, t in enumerate(tokens) if t.type in _LEAVES and t.map]
    if not leaves:
        if line_count >= first_line:
            extra = Token("html_block", "", 0)
            lines = range(first_line, line_count + 1)
            extra.content = f'<div class="blk" data-l="{first_line}-{line_count}">{_anchor_html(lines)}</div>\n'
            tokens.append(extra)
        return
    starts = [(tokens[i].map or (0, 0))[0] + 1 for i in leaves]
    # Ranges follow the lines, not the token order: footnotes are moved to the end of the stream.
    order = sorted(set(starts))
    following = {a: b for a, b in zip(order, order[1:], strict=False)}
    wrapped: dict[int, tuple[Token, Token]] = {}
    for k, index in enumerate(leaves):
        first = first_line if starts[k] == order[0] else starts[k]
        last = following[starts[k]] - 1 if starts[k] in following else max(line_count, starts[k])
        last = max(last, first)
        rest = _anchor_html(range(first + 1, last + 1))
        token = tokens[index]
        own_first, own_last = (token.map or (0, 0))[0] + 1, max((token.map or (0, 0))[1], starts[k])
        css = " ".join(["blk", *(classes(own_first, own_last) if classes else [])])
        if token.type in _WRAPPED:
            opener = Token("html_block", "", 0)
            opener.content = f'<div class="{css}" id="L{first}" data-l="{first}-{last}">{rest}'
            closer = Token("html_block", "", 0)
            closer.content = "</div>\n"
            wrapped[index] = (opener, closer)
            continue
        host = tokens[_host(tokens, index)]
        host.attrSet("id", f"L{first}")
        host.attrSet("data-l", f"{first}-{last}")
        host.attrJoin("class", css)
        if rest:
            inline = next((t for t in tokens[index + 1 : index + 4] if t.type == "inline"), None)
            if inline is not None:
                anchor = Token("html_inline", "", 0)
                anchor.content = rest
                inline.children = [anchor, *(inline.children or [])]
    if wrapped:
        out: list[Token] = []
        for index, token in enumerate(tokens):
            pair = wrapped.get(index)
            out += (pair[0], token, pair[1]) if pair else (token,)
        tokens[:] = out


class Renderer:
    """Renders one Markdown file as it appears on one page of the site.

    `tag_url` gives the page of a `#tag` (None: the site has none, the tag stays text);
    `provenance` completes a short marker (a key only) from the store beside MEMORY.md;
    `vault` where the note's `[[wikilinks]]` lead and the text of the notes it embeds.
    """

    def __init__(
        self,
        page_url: str,
        source_path: str,
        known_paths: Container[str],
        tag_url: Callable[[str], str | None] | None = None,
        provenance: Mapping[str, EntryMarker] | None = None,
        keep_h1: bool = True,
        images: Mapping[str, str] | None = None,
        vault: VaultView | None = None,
    ) -> None:
        self.page_url = page_url
        self.vault = vault or VaultView()
        self.depth = 0  # how deep inside embedded notes this renderer works
        self.keep_h1 = keep_h1  # False: the leading H1 is not the page's title (titles.site_title)
        self.source_path = source_path
        self.known_paths = known_paths
        self.tag_url = tag_url
        self.provenance = provenance
        #: workspace path of an image -> where the build copied it (site-root relative)
        self.images = images or {}
        self.has_h1 = False
        self.title_html = Markup("")  # the leading `# Title`, split from the body (render())

    def link_target(self, href: str) -> str | None:
        """Where a link in the note may point on the site, or None to render it as text."""
        parts = urlsplit(href)
        if parts.scheme:
            return href if parts.scheme.lower() in _EXTERNAL else None
        if parts.netloc:
            return None
        if not parts.path:
            return "#" + _fragment(parts.fragment) if parts.fragment else None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(self.source_path), unquote(parts.path)))
        if target not in self.known_paths and target + ".md" in self.known_paths:
            target += ".md"  # Obsidian's `[x](Some%20note)`: the extension is implied
        if target not in self.known_paths:
            return None
        anchor = "#" + _fragment(parts.fragment) if parts.fragment else ""
        return urls.relative(self.page_url, urls.note_url(target) + anchor)

    def wiki_href(self, link: vault_links.WikiLink) -> str | None:
        """Where `[[link]]` leads on the site: the page of the note it resolves to (at its heading
        or block), the copy of a picture; None when the vault has no such file on the site."""
        anchor = ""
        if link.fragment:
            anchor = "#" + (
                link.fragment if link.fragment.startswith("^") else _fragment(vault_links.heading_of(link.fragment))
            )
        if not link.target:
            return anchor or None
        target = self.vault.resolved.get((self.source_path, link.target))
        if target is None:
            return None
        if target == self.source_path:
            return anchor or urls.relative(self.page_url, urls.note_url(target))
        if target in self.images:
            return urls.relative(self.page_url, self.images[target])
        if target not in self.known_paths:
            return None
        return urls.relative(self.page_url, urls.note_url(target) + anchor)

    def embed(self, link: vault_links.WikiLink) -> tuple[str, str | None, Markup] | None:
        """A `![[note]]` shown in place: (its path, its page, its rendered part), or None when the
        vault has no such note or its part (`#heading`, `#^block`) is not found. Embeds nest one
        level: deeper, they are links."""
        from memgit.site.obsidian_md import section

        target = self.vault.resolved.get((self.source_path, link.target)) if link.target else self.source_path
        if target is None or self.depth >= MAX_EMBED_DEPTH or not target.endswith(".md"):
            return None
        text = self.vault.text(target)
        part = section(text, link.fragment) if text is not None else None
        if part is None:
            return None
        child = Renderer(self.page_url, target, self.known_paths, self.tag_url, None, False, self.images, self.vault)
        child.depth = self.depth + 1
        cut = part[:MAX_EMBED_CHARS]
        html = child.render(cut, anchors=False)
        href = urls.relative(self.page_url, urls.note_url(target)) if target in self.known_paths else None
        return target, href, html

    def image_src(self, src: str) -> str | None:
        """Where an image the note shows was copied, relative to this page (None: not copied)."""
        parts = urlsplit(src)
        if parts.scheme or parts.netloc or not parts.path:
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(self.source_path), unquote(parts.path)))
        copied = self.images.get(target)
        return urls.relative(self.page_url, copied) if copied else None

    def _ref_target(self, match: re.Match[str]) -> str | None:
        path = unquote(match["path"])
        if path not in self.known_paths:
            return None
        start, end = int(match["start"]), int(match["end"])
        if start < 1 or end < start:
            return None
        return urls.relative(self.page_url, urls.note_url(path) + urls.lines_anchor(start, end))

    def _link_text(self, tokens: list[Token]) -> None:
        """Turn `#tags` and `path:start-end@commit` in plain text into links (not inside links)."""
        from markdown_it.token import Token

        for block in tokens:
            if block.type != "inline" or not block.children:
                continue
            out: list[Token] = []
            depth = 0
            for child in block.children:
                if child.type == "link_open":
                    depth += 1
                elif child.type == "link_close":
                    depth -= 1
                content = child.content
                if child.type != "text" or depth or ("#" not in content and ":" not in content):
                    out.append(child)
                    continue
                text, pos = child.content, 0
                for match in _INLINE.finditer(text):
                    if match["tag"]:
                        href = self.tag_url(match["name"].lower()) if self.tag_url else None
                        label, cls = match["tag"], "tag"
                    else:
                        href = self._ref_target(match)
                        commit = match["commit"]
                        label = match["ref"] if not commit else match["ref"][: -len(commit)] + commit[:8]
                        cls = "ref"
                    if href is None:
                        continue
                    if match.start() > pos:
                        out.append(_text_token(text[pos : match.start()]))
                    opener = Token("link_open", "a", 1)
                    opener.attrSet("href", href)
                    opener.attrSet("class", cls)
                    opener.meta["site"] = True
                    if cls == "ref":
                        opener.attrSet("title", match["ref"])
                    out += [opener, _text_token(label), Token("link_close", "a", -1)]
                    pos = match.end()
                if pos < len(text):
                    out.append(_text_token(text[pos:]))
            block.children = out

    def render(
        self,
        text: str,
        annotate: Callable[[Entry], str] | None = None,
        anchors: bool = True,
        heat: dict[int, int] | None = None,
        marked: Container[int] = (),
    ) -> Markup:
        """The note as HTML. A leading `# Title` stays the page's one H1 (`has_h1` says so); any
        other level-1 heading becomes an H2. `heat` (line -> recalls) and `marked` (promoted lines)
        add classes to the blocks holding those lines.

        A note longer than PIECES_OVER characters is parsed a piece at a time (`pieces`: each ends
        at a blank line outside code), so the tokens alive at once follow a piece, not the note (a
        4.8 MB note held 400 MB of them); a link reference defined in another piece stays text."""
        from memgit.site.repo_markdown import blank_front_matter, front_matter_html, neutralise_html

        clean, markers = strip_markers(text)
        clean, front = blank_front_matter(clean)
        count = (clean.count("\n") + (0 if clean.endswith("\n") else 1)) if clean else 0
        classes = _block_classes(heat or {}, marked) if heat or marked else None
        spans = pieces(clean) if annotate is None and len(clean) > PIECES_OVER else [(0, len(clean), 0)]
        self.has_h1 = False
        slugs: dict[str, int] = {}
        parts: list[str] = []
        for start, end, line in spans:
            tokens = _MD.parse(clean[start:end])
            neutralise_html(tokens)
            for token in tokens if line else ():
                if token.map:
                    token.map = [token.map[0] + line, token.map[1] + line]
            self._shape(tokens, first=not parts)
            if annotate is not None:
                self._annotate(tokens, markers, annotate)
            _task_items(tokens)
            if anchors:
                last = count if end >= len(clean) else line + clean.count("\n", start, end)
                anchor_lines(tokens, last, classes, first_line=line + 1)
            if not self.depth:  # an embedded note's headings are not this page's anchors
                _heading_ids(tokens, slugs)
            parts.append(_MD.renderer.render(tokens, _MD.options, {"renderer": self}))
        html = "".join(parts)
        self.title_html = Markup("")
        if self.has_h1 and html.startswith("<h1"):
            end = html.index("</h1>") + len("</h1>")
            self.title_html, html = Markup(html[:end]), html[end:].lstrip("\n")
        return front_matter_html(front) + Markup(html)

    def _shape(self, tokens: list[Token], first: bool) -> None:
        """Table cells, links in text, and headings: the first block's `# Title` is the page's H1
        (only in the note's first piece), any other H1 an H2."""
        from memgit.site.repo_markdown import fix_cells

        fix_cells(tokens)
        self._link_text(tokens)
        keep = False
        first_block = next((t for t in tokens if t.map and t.nesting >= 0), None) if first else None
        for token in tokens:
            if token.type in ("heading_open", "heading_close") and token.tag == "h1":
                if token.type == "heading_open" and token is first_block and self.keep_h1:
                    self.has_h1 = True
                    token.attrJoin("class", "page-title")
                    keep = True
                elif token.type == "heading_open":
                    keep = False
                if not keep:
                    token.tag = "h2"

    def _annotate(
        self, tokens: list[Token], markers: dict[int, EntryMarker | None], annotate: Callable[[Entry], str]
    ) -> None:
        """MEMORY.md's entries: each gets its provenance line (`annotate`) after it."""
        from markdown_it.token import Token

        spans = _entry_tokens(tokens)
        paired = _pair(tokens, spans, markers, self.provenance)
        for (opened, closed), entry in reversed(list(zip(spans, paired, strict=True))):
            tokens[opened].attrJoin("class", "entry")
            note = Token("html_block", "", 0)
            note.content = annotate(entry)
            # inside a list item; after a paragraph (a <p> holds no block)
            tokens.insert(closed + 1 if tokens[opened].type == "paragraph_open" else closed, note)


def _fragment(fragment: str) -> str:
    """A link's `#…` as the page has it: a line anchor as written, anything else as a heading's slug."""
    fragment = unquote(fragment)
    if fragment.startswith("L") and fragment[1:].replace("-L", "", 1).isdigit():
        return fragment
    slug = heading_slug(fragment)
    return slug + "-h" if slug in _RESERVED_IDS else slug


def _heading_ids(tokens: list[Token], seen: dict[str, int]) -> None:
    """Each heading's id is its slug (`note.md#heading` lands on it; repeats get `-1`, `-2`, over
    the whole note: `seen` counts the slugs of earlier pieces); the line anchor it held moves into
    an empty span at its start, so `#L12` still lands there."""
    from markdown_it.token import Token

    for i, token in enumerate(tokens):
        if token.type != "heading_open" or i + 1 >= len(tokens):
            continue
        inline = tokens[i + 1]
        words = "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))
        slug = heading_slug(words)
        if slug in _RESERVED_IDS:
            slug += "-h"
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        line_id = token.attrGet("id")
        token.attrSet("id", slug if not count else f"{slug}-{count}")
        if line_id:
            anchor = Token("html_inline", "", 0)
            anchor.content = f'<span id="{escape(str(line_id))}"></span>'
            inline.children = [anchor, *(inline.children or [])]


def _task_items(tokens: list[Token]) -> None:
    """`- [ ] item` and `- [x] item` as disabled checkboxes (a list item's first words)."""
    from markdown_it.token import Token

    for i in range(2, len(tokens)):
        inline = tokens[i]
        if inline.type != "inline" or tokens[i - 1].type != "paragraph_open" or tokens[i - 2].type != "list_item_open":
            continue
        if not inline.children:
            continue
        first = inline.children[0]
        match = _TASK.match(first.content) if first.type == "text" else None
        if match is None:
            continue
        done = match[1] != " "
        first.content = first.content[match.end() :]
        box = Token("html_inline", "", 0)
        box.content = (
            f'<input type="checkbox" class="task" disabled{" checked" if done else ""} '
            f'aria-label="{"done" if done else "not done"}"> '
        )
        inline.children = [box, *(inline.children or [])]
        tokens[i - 2].attrJoin("class", "task-item")


def _block_classes(heat: dict[int, int], marked: Container[int]) -> Callable[[int, int], list[str]]:
    from memgit.site.svg import heat_level

    top = max(heat.values(), default=0)

    def classes(first: int, last: int) -> list[str]:
        out = []
        hottest = max((heat.get(n, 0) for n in range(first, last + 1)), default=0)
        if hottest:
            out.append(f"heat{heat_level(hottest, top)}")
        if any(n in marked for n in range(first, last + 1)):
            out.append("promoted")
        return out

    return classes


def _text_token(content: str) -> Token:
    from markdown_it.token import Token

    token = Token("text", "", 0)
    token.content = content
    return token


def _render_link_open(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    if token.meta.get("dead"):
        return '<span class="dead-link">'
    if token.meta.get("site"):
        title = token.attrGet("title")
        extra = f' title="{escape(title)}"' if title else ""
        return f'<a class="{token.attrGet("class")}" href="{escape(str(token.attrGet("href")))}"{extra}>'
    target = env["renderer"].link_target(str(token.attrGet("href") or ""))
    token.meta["dropped"] = target is None
    if target is None:
        return '<span class="dead-link">'
    attrs = f' href="{escape(target)}"'
    if not target.startswith(("http:", "https:", "mailto:")) and "://" not in target:
        return f"<a{attrs}>"
    return f'<a{attrs} rel="nofollow noopener noreferrer">'


def _render_raw_html(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    from memgit.site.repo_markdown import render_raw_html

    return render_raw_html(self, tokens, idx, options, env)


def _render_link_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    depth = 0
    for j in range(idx - 1, -1, -1):
        kind = tokens[j].type
        if kind == "link_close":
            depth += 1
        elif kind == "link_open":
            if depth == 0:
                return "</span>" if tokens[j].meta.get("dropped") or tokens[j].meta.get("dead") else "</a>"
            depth -= 1
    return "</a>"


def _render_image(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    alt = "".join(child.content for child in (token.children or []))
    src = env["renderer"].image_src(str(token.attrGet("src") or ""))
    if src is None:  # not a file of the workspace the build copied: no request leaves the page
        return f'<span class="image-alt">[image: {escape(alt)}]</span>'
    title = token.attrGet("title")
    extra = f' title="{escape(title)}"' if title else ""
    return f'<img class="note-img" src="{escape(src)}" alt="{escape(alt)}"{extra} loading="lazy" decoding="async">'


def _render_table_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # A wide table scrolls in its own focusable region, never the page (390 px screens).
    return '<div class="table-wrap" tabindex="0" role="region" aria-label="Table">' + self.renderToken(
        tokens, idx, options, env
    )


def _render_table_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


_MD.add_render_rule("link_open", _render_link_open)
_MD.add_render_rule("link_close", _render_link_close)
_MD.add_render_rule("image", _render_image)
_MD.add_render_rule("table_open", _render_table_open)
_MD.add_render_rule("table_close", _render_table_close)
_MD.add_render_rule("raw_html", _render_raw_html)
