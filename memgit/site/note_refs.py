"""Pure: what a note's text points at, read from the text alone (the summary of a blob keeps it):
the paths it links (inline and reference-style Markdown links, links without `.md`, pictures,
provenance references) and the `#tags` a reader sees as tags.

`[[wikilinks]]` name files, not paths: they are resolved per build against the whole tree
(`vault.py`), since a note added anywhere may change where one leads.
"""

from __future__ import annotations

import re

_TAG = re.compile(r"(?<![\w&#/])#([A-Za-z][\w-]{1,40})\b")
_MD_LINK = re.compile(r"\]\(\s*<?([^)\s>#]+\.(?:md|jsonl))(?:#[^)\s>]*)?>?")
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>#?]+\.(?:png|jpe?g|gif|webp))(?:[?#][^)\s>]*)?>?", re.IGNORECASE)
#: A reference-style link's definition line: `[label]: path/to/note.md "title"`.
_REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*<?([^\s>#]+?\.(?:md|jsonl))(?:#\S*)?>?(?:[ \t]|$)", re.MULTILINE)
#: A link without a file type (Obsidian's `[x](Some%20note)`): it may mean `Some note.md`.
_BARE_LINK = re.compile(r"\]\(\s*<?([^)\s>#:?]+?)(?:#[^)\s>]*)?>?\)")
_REF_PATH = re.compile(r"(?<![\w/])([\w./%+~-]+\.(?:md|jsonl)):\d+-\d+")


def link_targets(path: str, text: str) -> list[str]:
    """The paths a note points at by path: Markdown links (inline, reference definitions, or
    without `.md`, relative to the note), provenance references (relative to the workspace), and
    the images it shows: for the "linked from" list of their pages and the images a build copies.
    `[[wikilinks]]` name files, not paths: a build resolves them against its whole tree (vault.py)."""
    import posixpath
    from urllib.parse import unquote

    if "](" not in text and ".md:" not in text and ".jsonl:" not in text and "]:" not in text:
        return []
    here = posixpath.dirname(path)
    written = [*_MD_LINK.findall(text), *_MD_IMAGE.findall(text), *_REF_DEF.findall(text)]
    written += [m + ".md" for m in _BARE_LINK.findall(text) if "." not in posixpath.basename(m)]
    found = {
        posixpath.normpath(posixpath.join(here, unquote(m)))
        for m in written
        if "://" not in m and not m.startswith("/")
    }
    found |= {unquote(m) for m in _REF_PATH.findall(text)}
    return sorted(p for p in found if p != path and not p.startswith("../"))


#: What holds a `#` that is no tag: fenced code, code spans, wikilinks (`[[#Heading]]`), link
#: destinations and reference definitions, bare URLs, HTML comments. Each is blanked (newlines
#: kept) before tags are looked for.
_NOT_TAGS = re.compile(
    r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}\1[ \t]*$|\Z)"
    r"|(`+)(?:(?!\2).)+?\2"
    r"|!?\[\[[^\[\]\n]*\]\]"
    r"|\]\([^)\n]*\)"
    r"|^ {0,3}\[[^\]\n]+\]:[^\n]*"
    r"|\b[a-z][a-z0-9+.-]*://\S+"
    r"|<!--.*?-->",
    re.MULTILINE | re.DOTALL,
)
#: A colour (`#a1b2c3`, `#f00`): a hex triple or sextet (with alpha: 4 or 8) holding a digit is
#: no concept (a word such as `#cafe` may be one).
_COLOUR = re.compile(r"(?=[a-f]*\d)(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})", re.IGNORECASE)


def concept_lines(text: str) -> dict[str, list[int]]:
    """`#tag` -> the 1-based lines it appears on (one scan of the whole text, not one per line),
    counting only tags a reader sees as tags: none in code, links, URLs or comments, no colours."""
    concepts: dict[str, list[int]] = {}
    if "#" not in text:
        return concepts
    if any(mark in text for mark in ("`", "~~~", "[[", "](", "]:", "://", "<!--")):
        text = _NOT_TAGS.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), text)
    line, offset = 1, 0
    start = 1 if text.startswith("\ufeff") else 0
    for match in _TAG.finditer(text, start):
        line += text.count("\n", offset, match.start())
        offset = match.start()
        if _COLOUR.fullmatch(match.group(1)):
            continue
        lines = concepts.setdefault(match.group(1).lower(), [])
        if not lines or lines[-1] != line:
            lines.append(line)
    return concepts
