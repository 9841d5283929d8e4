"""What Markdown written for other sites (GitHub, a docs generator) needs to read well here,
under the site's Content-Security-Policy and with raw HTML off.

- YAML front matter is metadata, not text: its lines are blanked before parsing (line numbers
  stay put, so `#L3` still lands on the page) and the fields are shown as a small table, instead of
  a rule and a heading made of `title: …`.
- `<br>` in a table cell is the only way to break a line there, so it becomes a line break (any
  other raw HTML stays text, as everywhere on the site).
- An aligned column gets a class (`al-left`, `al-center`, `al-right`), not markdown-it's inline
  `style="text-align:…"`, which the page's policy (`default-src 'self'`) refuses, one console
  error a cell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from memgit.site.titles import front_matter

if TYPE_CHECKING:
    from markdown_it.token import Token

_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_ALIGN = re.compile(r"text-align:\s*(left|center|right)")


def blank_front_matter(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The text with its front matter lines emptied (the numbering kept), and the fields."""
    if not text.startswith(("---", "\ufeff---")):
        return text, []
    lines = text.split("\n")
    found = front_matter(lines)
    if found is None:
        return text, []
    count, fields = found
    return "\n" * count + "\n".join(lines[count:]), fields


def front_matter_html(fields: Sequence[tuple[str, str]]) -> Markup:
    """The fields as a two-column table in the site's scrolling table region."""
    if not fields:
        return Markup("")
    rows = "".join(f'<tr><th scope="row">{escape(k)}</th><td>{escape(v)}</td></tr>' for k, v in fields)
    return Markup(
        '<div class="table-wrap front-matter" tabindex="0" role="region" aria-label="Front matter">'
        f'<table class="front-matter"><caption>Front matter</caption><tbody>{rows}</tbody></table></div>\n'
    )


def fix_cells(tokens: list[Token]) -> None:
    """Alignment as classes and `<br>` as line breaks, in every table cell of a token stream."""
    in_cell = False
    for token in tokens:
        if token.type in ("th_open", "td_open"):
            in_cell = True
            style = token.attrGet("style")
            if style is not None:
                del token.attrs["style"]
                align = _ALIGN.search(str(style))
                if align:
                    token.attrJoin("class", "al-" + align[1])
        elif token.type in ("th_close", "td_close"):
            in_cell = False
        elif in_cell and token.type == "inline" and token.children:
            token.children = _breaks(token.children)


def _breaks(children: list[Token]) -> list[Token]:
    """Text children split at each `<br>`, with a hard line break between the parts."""
    from markdown_it.token import Token

    if not any(c.type == "text" and "<" in c.content for c in children):
        return children
    merged: list[Token] = []
    for child in children:  # `<` may end a text token: join neighbours first
        if child.type == "text" and merged and merged[-1].type == "text":
            merged[-1].content += child.content
        else:
            merged.append(child)
    out: list[Token] = []
    for child in merged:
        if child.type != "text" or not _BR.search(child.content):
            out.append(child)
            continue
        for i, part in enumerate(_BR.split(child.content)):
            if i:
                out.append(Token("hardbreak", "br", 0))
            if part:
                text = Token("text", "", 0)
                text.content = part
                out.append(text)
    return out


_COMMENTS_ONLY = re.compile(r"\s*(?:<!--.*?-->\s*)+", re.DOTALL)


def neutralise_html(tokens: list[Token]) -> None:
    """Raw HTML, parsed so that its blocks end where GitHub ends them, never becomes markup: a
    block is shown as its text (`raw_html`; only HTML comments, which GitHub hides, show nothing);
    inline, `<br>` is a line break, a comment goes, any other tag is text."""
    from markdown_it.token import Token

    for token in tokens:
        if token.type == "html_block":
            token.type = "raw_html"
            token.meta = {**(token.meta or {}), "comment": bool(_COMMENTS_ONLY.fullmatch(token.content))}
        elif token.type == "inline" and token.children and any(c.type == "html_inline" for c in token.children):
            out: list[Token] = []
            for child in token.children:
                if child.type != "html_inline":
                    out.append(child)
                elif _BR.fullmatch(child.content.strip()):
                    out.append(Token("hardbreak", "br", 0))
                elif not child.content.startswith("<!--"):
                    text = Token("text", "", 0)
                    text.content = child.content
                    out.append(text)
            token.children = out


def render_raw_html(self: object, tokens: Sequence[Token], idx: int, options: object, env: object) -> str:
    """A raw HTML block as the text it is (escaped; line breaks kept by the stylesheet)."""
    token = tokens[idx]
    if (token.meta or {}).get("comment"):
        return ""
    return f'<p class="raw-html">{escape(token.content.rstrip())}</p>\n'
