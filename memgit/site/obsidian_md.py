"""markdown-it rules for what an Obsidian vault writes beyond CommonMark, as token transforms.

What the field's plugins cover is taken from them (footnotes, GitHub's autolinks: see
`markdown._parser`); what none covers is here, each as a small rule over markdown-it's tokens so
that the page keeps its source-line anchors:

- `[[target#fragment|label]]` and `![[...]]` (an inline rule, so emphasis and a table's `\\|`
  never split a link), resolved later by the page's renderer against the whole vault;
- an embed alone in its paragraph becomes a block (`wiki_embed`): the note, section or block it
  names is shown in place;
- callouts, `> [!type] Title` with `-`/`+` to fold, of any type (GitHub's five alerts included);
- block ids: a paragraph or list item ending in ` ^id` (or a `^id` line below a block) gets that
  id as an anchor, without the marker;
- `%%comments%%` are not shown, `==highlights==` are marked.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from markupsafe import escape

from memgit.site import vault

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore
    from markdown_it.rules_inline import StateInline
    from markdown_it.token import Token

#: `[!type]`, a fold sign and the title, on a callout's first line.
_CALLOUT = re.compile(r"^\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*(.*)$")
_BLOCK_ID = re.compile(r"(?:^|[ \t])\^([A-Za-z0-9-]{1,64})[ \t]*$")
_COMMENT = re.compile(r"%%.*?%%", re.DOTALL)
_HIGHLIGHT = re.compile(r"==(?=\S)(.+?)(?<=\S)==")

#: Obsidian's callout types by the family that gives their colour (aliases included).
CALLOUT_FAMILIES = {
    "note": "note",
    "abstract": "abstract",
    "summary": "abstract",
    "tldr": "abstract",
    "info": "info",
    "todo": "info",
    "tip": "tip",
    "hint": "tip",
    "important": "tip",
    "success": "success",
    "check": "success",
    "done": "success",
    "question": "question",
    "help": "question",
    "faq": "question",
    "warning": "warning",
    "caution": "warning",
    "attention": "warning",
    "failure": "failure",
    "fail": "failure",
    "missing": "failure",
    "danger": "danger",
    "error": "danger",
    "bug": "danger",
    "example": "example",
    "quote": "quote",
    "cite": "quote",
}


def plugin(md: MarkdownIt) -> None:
    """Add the rules to a parser, and how their tokens render."""
    md.inline.ruler.before("link", "wikilink", _wikilink)
    md.core.ruler.after("block", "callouts", _callouts)
    md.core.ruler.push("obsidian_inline", _inline_marks)
    md.core.ruler.push("wiki_embeds", _embed_blocks)
    render_rules(md)


def _wikilink(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    embed = src.startswith("![[", pos)
    if not (embed or src.startswith("[[", pos)):
        return False
    opening = pos + (3 if embed else 2)
    end = src.find("]]", opening, state.posMax)
    if end < 0 or "\n" in src[opening:end] or "[" in src[opening:end]:
        return False
    if not silent:
        token = state.push("wikilink", "", 0)
        token.content = src[pos : end + 2]
        token.meta = {"link": vault.parse(src[opening:end], embed)}
    state.pos = end + 2
    return True


def _callouts(state: StateCore) -> None:
    """A blockquote whose first line is `[!type] Title` becomes a callout: `callout_open` (the
    blockquote's own token, renamed), a `callout_title` with the title's words, then the rest."""
    from markdown_it.token import Token

    tokens = state.tokens
    i = 0
    while i < len(tokens) - 2:
        opener = tokens[i]
        first = tokens[i + 2]
        if opener.type != "blockquote_open" or tokens[i + 1].type != "paragraph_open" or first.type != "inline":
            i += 1
            continue
        head, _, rest = first.content.partition("\n")
        match = _CALLOUT.match(head.strip())
        if match is None:
            i += 1
            continue
        kind = match[1].lower()
        opener.type = "callout_open"
        opener.meta = {"kind": kind, "family": CALLOUT_FAMILIES.get(kind, "note"), "fold": match[2]}
        title = Token("inline", "", 0)
        title.content = match[3].strip() or kind.capitalize()
        title.map = first.map
        title.children = []
        depth = 1
        for j in range(i + 1, len(tokens)):  # its closing blockquote token
            depth += tokens[j].nesting if tokens[j].type.startswith("blockquote") else 0
            if depth == 0:
                tokens[j].type = "callout_close"
                tokens[j].meta = opener.meta
                break
        if rest.strip():
            first.content = rest
            for token in (tokens[i + 1], first):  # its lines start below the title's
                if token.map:
                    token.map = [token.map[0] + 1, max(token.map[1], token.map[0] + 1)]
        else:  # the title was the whole first paragraph
            del tokens[i + 1 : i + 4]
        title_open, title_close = Token("callout_title_open", "p", 1), Token("callout_title_close", "p", -1)
        title_open.map = [opener.map[0], opener.map[0] + 1] if opener.map else None
        title_open.meta = title_close.meta = opener.meta
        tokens[i + 1 : i + 1] = [title_open, title, title_close]
        i += 1


def _inline_marks(state: StateCore) -> None:
    """Block ids, comments and highlights, in each inline token's text children."""
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        _block_id(token)
        token.children = _text_marks(token.children)


def _block_id(token: Token) -> None:
    """` ^id` at the end of a paragraph: the marker goes, and an empty `block_anchor` at the
    block's start carries the id (`note.html#^id` lands there, as in Obsidian Publish)."""
    from markdown_it.token import Token

    children = token.children or []
    last = children[-1] if children else None
    if last is None or last.type != "text" or "^" not in last.content:
        return
    match = _BLOCK_ID.search(last.content)
    if match is None:
        return
    last.content = last.content[: match.start()].rstrip()
    anchor = Token("block_anchor", "span", 0)
    anchor.meta = {"id": "^" + match[1]}
    token.children = [anchor, *children]


def _text_marks(children: list[Token]) -> list[Token]:
    from markdown_it.token import Token

    if not any(c.type == "text" and ("%%" in c.content or "==" in c.content) for c in children):
        return children
    out: list[Token] = []
    for child in children:
        if child.type != "text":
            out.append(child)
            continue
        text = _COMMENT.sub("", child.content) if "%%" in child.content else child.content
        pos = 0
        for match in _HIGHLIGHT.finditer(text):
            if match.start() > pos:
                out.append(_text(text[pos : match.start()]))
            out += [Token("mark_open", "mark", 1), _text(match[1]), Token("mark_close", "mark", -1)]
            pos = match.end()
        if pos < len(text):
            out.append(_text(text[pos:]))
    return out


def _embed_blocks(state: StateCore) -> None:
    """A paragraph holding nothing but one `![[note]]` shows the note in place: the three tokens
    become one `wiki_embed` block (its source lines kept for the page's anchors). An embedded
    picture stays inline: it is an image in its paragraph."""
    from markdown_it.token import Token

    tokens = state.tokens
    for i in range(len(tokens) - 3, -1, -1):
        opener, inline = tokens[i], tokens[i + 1]
        if opener.type != "paragraph_open" or inline.type != "inline" or tokens[i + 2].type != "paragraph_close":
            continue
        kids = [c for c in inline.children or [] if not (c.type == "text" and not c.content.strip())]
        kids = [c for c in kids if c.type not in ("softbreak", "hardbreak")]
        if len(kids) != 1 or kids[0].type != "wikilink":
            continue
        link = kids[0].meta["link"]
        if not link.embed or link.target.lower().endswith(vault.IMAGE_SUFFIXES):
            continue
        block = Token("wiki_embed", "div", 0)
        block.map = opener.map
        block.meta = {"link": link}
        block.block = True
        tokens[i : i + 3] = [block]


def _text(content: str) -> Token:
    from markdown_it.token import Token

    token = Token("text", "", 0)
    token.content = content
    return token


def section(text: str, fragment: str) -> str | None:
    """The part of a note an embed's `#Heading` or `#^block` names (None: not found); the whole
    note for no fragment. A section runs from its heading to the next heading of its level or
    higher; a block is the paragraph (or list item) that ends in ` ^id`."""
    if not fragment:
        return text
    lines = text.split("\n")
    if fragment.startswith("^"):
        wanted = fragment[1:]
        for n, line in enumerate(lines):
            match = _BLOCK_ID.search(line)
            if match and match[1] == wanted:
                start = n
                while (
                    start > 0
                    and lines[start - 1].strip()
                    and not lines[start - 1].lstrip().startswith(("#", "- ", "* "))
                ):
                    start -= 1
                return "\n".join(lines[start : n + 1])
        return None
    heading = vault.heading_of(fragment).lower()
    for n, line in enumerate(lines):
        match = re.match(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$", line)
        if match and _plain(match[2]) == heading:
            level = len(match[1])
            end = n + 1
            while end < len(lines):
                other = re.match(r"^ {0,3}(#{1,6})[ \t]", lines[end])
                if other and len(other[1]) <= level:
                    break
                end += 1
            return "\n".join(lines[n:end])
    return None


def _plain(heading: str) -> str:
    return " ".join(re.sub(r"[*_`]|\[\[|\]\]", "", heading).split()).lower()


# ------------------------------------------------------------------------------- rendering
# Each rule reads the page's `markdown.Renderer` from the render environment: it knows where a
# link leads on this site and what an embed shows.


def render_rules(md: MarkdownIt) -> None:
    """The HTML of the tokens above (callouts as `<div>`, or `<details>` when they fold: no script)."""
    md.add_render_rule("wikilink", _render_wikilink)
    md.add_render_rule("wiki_embed", _render_embed)
    md.add_render_rule("callout_open", _render_callout_open)
    md.add_render_rule("callout_close", _render_callout_close)
    md.add_render_rule("callout_title_open", _render_title_open)
    md.add_render_rule("callout_title_close", _render_title_close)
    md.add_render_rule("block_anchor", _render_block_anchor)


def _render_wikilink(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    link: vault.WikiLink = tokens[idx].meta["link"]
    renderer = env["renderer"]
    href = renderer.wiki_href(link)
    if link.embed and link.target.lower().endswith(vault.IMAGE_SUFFIXES):
        name = posixpath.basename(link.target)
        if href is None or href.startswith("#"):
            return f'<span class="image-alt">[image: {escape(name)}]</span>'
        size = re.fullmatch(r"(\d{1,5})(?:x(\d{1,5}))?", link.label)
        dims = f' width="{size[1]}"' + (f' height="{size[2]}"' if size and size[2] else "") if size else ""
        alt = link.label if link.label and not size else name
        return f'<img class="note-img" src="{escape(href)}" alt="{escape(alt)}"{dims} loading="lazy" decoding="async">'
    text = escape(link.text)
    if href is None:
        env.setdefault("unresolved", []).append(link.target)
        return f'<span class="dead-link wikilink" title="not on this site">{text}</span>'
    cls = "wikilink embed-link" if link.embed else "wikilink"
    return f'<a class="{cls}" href="{escape(href)}">{text}</a>'


def _render_embed(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    link: vault.WikiLink = tokens[idx].meta["link"]
    renderer = env["renderer"]
    found = renderer.embed(link)
    if found is None:
        href = renderer.wiki_href(link)
        words = escape(link.text)
        shown = f'<a class="wikilink embed-link" href="{escape(href)}">{words}</a>' if href else words
        return f'<p class="embed embed-missing">{shown}</p>\n'
    path, href, html = found
    title = link.label or vault.heading_of(link.fragment) or posixpath.basename(path)[:-3]
    head = f'<a href="{escape(href)}">{escape(title)}</a>' if href else escape(title)
    return (
        f'<div class="embed" role="group" aria-label="{escape("Embedded: " + title)}">'
        f'<p class="embed-title">{head}</p>\n{html}</div>\n'
    )


def _fold(token: Token) -> str:
    return str((token.meta or {}).get("fold", ""))


def _render_callout_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    meta = tokens[idx].meta
    cls = f'class="callout callout-{escape(meta["family"])}" data-callout="{escape(meta["kind"])}"'
    if meta["fold"]:
        return f"<details {cls}{' open' if meta['fold'] == '+' else ''}>\n"
    return f'<div {cls} role="note">\n'


def _render_callout_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return "</details>\n" if _fold(tokens[idx]) else "</div>\n"


def _render_title_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    token.attrJoin("class", "callout-title")
    token.tag = "summary" if _fold(token) else "p"
    return str(self.renderToken(tokens, idx, options, env))


def _render_title_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    tokens[idx].tag = "summary" if _fold(tokens[idx]) else "p"
    return str(self.renderToken(tokens, idx, options, env))


def _render_block_anchor(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    if env["renderer"].depth:  # an embedded note's block ids are its own page's anchors
        return ""
    return f'<span class="block-id" id="{escape(tokens[idx].meta["id"])}"></span>'
