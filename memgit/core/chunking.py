"""Pure chunking: numbered lines in, line-aligned chunks out.

Chunks are sized by a token estimate the caller passes (the index uses characters divided by
`[chunking] chars_per_token`, the same in every process, so boundaries never depend on which
libraries loaded), overlap by whole lines, and start a new chunk at a Markdown heading when the
current one already holds content, so a section stays with its heading where it fits. Headings
are what a CommonMark parser says they are: a `#` line inside a fenced code block is code, not a
heading. The parser is cmark, CommonMark's reference implementation in C (through cmarkgfm), for
files the regex path cannot answer: markdown-it-py's block parser took 12 of the 20 s of a
3,100-file docs repository's build; cmark agreed with it on every one of 8,915 public files and
is the tests' oracle no more than markdown-it is (a property test holds the three equal).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: An ATX heading line, as CommonMark reads one outside any container block.
_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
#: Fence lines the regex path follows itself: an opener in the first column (CommonMark: three or
#: more backticks whose info string holds no backtick, or three or more tildes) and a closer (up to
#: three spaces, the same character at least as many times, then only spaces or tabs).
_FENCE_OPENER = re.compile(r"^(?:(`{3,})[^`]*|(~{3,}).*)$")
_FENCE_START = re.compile(r"^(?:```|~~~)")
#: Lines outside fenced code after which a plain ATX match could disagree with CommonMark, at any
#: indentation (inside a list item, four spaces may still be a heading's or underline's own
#: indentation): HTML blocks and block quotes, setext underlines and thematic breaks, a `#` that
#: only a list item's indentation can make a heading, an indented fence (a list item's), a list
#: item that opens with a block of its own (`- # title`, `1. ```` `, a nested list marker).
#: Files with none of them (most memory files, code fences and all) need no parser; the rest are
#: parsed by markdown-it-py. A property test holds the two equal on generated Markdown.
_NEEDS_PARSER = re.compile(
    r"""^(?:
      [ \t]*[<>]
    | [ \t]*(?:=+|-+|\*[ \t*]*|_[ \t_]*)[ \t]*$
    | (?:\ {0,3}\t|\ {4,})[ \t]*\#
    | [ \t]+(?:```|~~~)
    | [ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+(?:[\#`~<>]|(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$))
    )""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Chunk:
    start_line: int
    end_line: int
    text: str
    #: A piece of one line too long for a chunk: its characters `[start_char, end_char)` of that
    #: line (code points, 0-based, the line without its CR). None: whole lines.
    start_char: int | None = None
    end_char: int | None = None

    @property
    def text_hash(self) -> str:
        return text_hash(self.text)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def char_token_counter(chars_per_token: int) -> Callable[[str], int]:
    """Token estimate for BM25-only mode: about `chars_per_token` characters a token."""

    def count(text: str) -> int:
        return -(-len(text) // chars_per_token)

    return count


def split_lines(text: str) -> list[str]:
    """Lines as git and editors number them: split on LF only, a trailing CR dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def heading_rows(texts: Sequence[str]) -> frozenset[int]:
    """Indices of the lines that begin a Markdown heading (ATX or setext), per CommonMark."""
    rows = _plain_heading_rows(texts)
    return rows if rows is not None else cmark_heading_rows(texts)


def _plain_heading_rows(texts: Sequence[str]) -> frozenset[int] | None:
    """Headings by regex for files of plain blocks and first-column code fences; None for the rest.

    Inside a fence nothing is a heading and nothing needs the parser; outside, an ATX match is
    a heading unless some line could change that (`_NEEDS_PARSER`), in which case the caller
    parses the whole file.
    """
    rows = []
    fence = ""  # the open fence's marker run ("```", "~~~~", ...), or "" outside fenced code
    for i, text in enumerate(texts):
        if fence:
            stripped = text.lstrip(" ")
            if (
                len(text) - len(stripped) <= 3
                and stripped.startswith(fence)
                and not stripped.lstrip(fence[0]).strip(" \t")
            ):
                fence = ""
            continue
        if _FENCE_START.match(text):
            opener = _FENCE_OPENER.match(text)
            if opener is None:
                return None  # "```" with a backtick in its info string is no fence: let the parser say
            fence = opener.group(1) or opener.group(2)
            continue
        if _NEEDS_PARSER.match(text):
            return None
        if _ATX_HEADING.match(text):
            rows.append(i)
    return frozenset(rows)


#: A heading's opening tag in cmark's HTML with source positions (raw HTML is never passed
#: through: cmark's default, safe rendering omits it, so only real headings write this).
_CMARK_HEADING = re.compile(r'<h[1-6] data-sourcepos="(\d+):')


def cmark_heading_rows(texts: Sequence[str]) -> frozenset[int]:
    """`heading_rows` by cmark: its HTML with source positions, each heading's first line."""
    import cmarkgfm
    from cmarkgfm.cmark import Options

    html = cmarkgfm.markdown_to_html("\n".join(texts), options=Options.CMARK_OPT_SOURCEPOS)
    return frozenset(int(found.group(1)) - 1 for found in _CMARK_HEADING.finditer(html))


def chunk_lines(
    lines: Sequence[tuple[int, str]],
    *,
    max_tokens: int,
    overlap_tokens: int,
    count_tokens: Callable[[str], int],
    markdown: bool = True,
) -> list[Chunk]:
    """Group numbered lines into chunks of at most `max_tokens`.

    `lines` are (line_number, text) pairs in increasing line order; numbers may skip (transcripts
    keep JSONL line numbers). Blank lines never start or end a chunk. With `markdown`, headings
    start chunks. A line longer than a chunk is split into pieces of the usual size, each with
    its exact character range (`Chunk.start_char`/`end_char`), overlapping as chunks do.
    """
    headings = heading_rows([text for _, text in lines]) if markdown else frozenset()
    max_tokens = max(1, max_tokens)
    overlap_tokens = max(0, min(overlap_tokens, max_tokens // 2))
    costs = [count_tokens(text) + 1 for _, text in lines]
    chunks: list[Chunk] = []
    start = 0
    n = len(lines)
    while start < n:
        while start < n and not lines[start][1].strip():
            start += 1
        if start >= n:
            break
        if costs[start] > max_tokens:
            number, text = lines[start]
            chunks.extend(split_long_line(number, text, max_tokens - 1, overlap_tokens, count_tokens))
            start += 1
            continue
        end = start  # exclusive
        used = 0
        while end < n:
            cost = costs[end]
            if end > start and used + cost > max_tokens:
                break
            if end > start and end in headings and _has_body(lines, start, end, headings):
                break
            used += cost
            end += 1
        last = end - 1
        while last > start and not lines[last][1].strip():
            last -= 1
        # Carried overlap lines that are followed by a line too big to join them would make a
        # chunk holding nothing new (a repeat of the previous one's tail): skip it.
        if not chunks or lines[last][0] > chunks[-1].end_line:
            chunks.append(_make_chunk(lines, start, last))
        if end >= n:
            break
        start = _overlap_start(costs, start, end, overlap_tokens, headings)
    return chunks


def _has_body(lines: Sequence[tuple[int, str]], start: int, end: int, headings: frozenset[int]) -> bool:
    """True when lines[start:end] hold something besides headings and blank lines."""
    return any(lines[i][1].strip() and i not in headings for i in range(start, end))


def _overlap_start(costs: list[int], start: int, end: int, overlap_tokens: int, headings: frozenset[int]) -> int:
    """Where the next chunk begins: carry whole trailing lines worth <= overlap_tokens, never
    crossing into a heading boundary, and always make progress."""
    if overlap_tokens <= 0 or end in headings:
        return end
    begin = end
    carried = 0
    while begin - 1 > start and carried + costs[begin - 1] <= overlap_tokens:
        if begin - 1 in headings:
            break
        carried += costs[begin - 1]
        begin -= 1
    return begin


def _make_chunk(lines: Sequence[tuple[int, str]], first: int, last: int) -> Chunk:
    text = "\n".join(text for _, text in lines[first : last + 1])
    return Chunk(start_line=lines[first][0], end_line=lines[last][0], text=text)


def split_long_line(
    number: int, text: str, max_tokens: int, overlap_tokens: int, count_tokens: Callable[[str], int]
) -> list[Chunk]:
    """Pieces of one line, each within `max_tokens`, cut after a space where one is near the end
    (a word is not split unless it is longer than a piece), the next starting `overlap_tokens`
    back at a word's start. `text[c.start_char:c.end_char] == c.text` for every piece."""
    pieces: list[Chunk] = []
    pos = 0
    while pos < len(text):
        begin = pos
        end = pos + _fitting(text, pos, len(text) - pos, max(1, max_tokens), count_tokens)
        if end < len(text):
            space = text.rfind(" ", pos + (end - pos) * 4 // 5, end)
            end = space + 1 if space > pos else end
        pieces.append(Chunk(number, number, text[pos:end], start_char=pos, end_char=end))
        if end >= len(text):
            break
        back = _fitting_back(text, end, end - pos - 1, overlap_tokens, count_tokens)
        nxt = end - back
        space = text.find(" ", nxt, end)
        pos = space + 1 if 0 <= space < end - 1 else nxt
        pos = max(pos, begin + 1)
    return pieces


def _fitting(text: str, pos: int, most: int, budget: int, count_tokens: Callable[[str], int]) -> int:
    """The largest length L <= most with count_tokens(text[pos:pos+L]) <= budget (at least 1)."""
    low, high = 1, most
    while low < high:
        mid = (low + high + 1) // 2
        if count_tokens(text[pos : pos + mid]) <= budget:
            low = mid
        else:
            high = mid - 1
    return low


def _fitting_back(text: str, end: int, most: int, budget: int, count_tokens: Callable[[str], int]) -> int:
    """The largest length L <= most with count_tokens(text[end-L:end]) <= budget (0 allowed)."""
    low, high = 0, max(0, most)
    while low < high:
        mid = (low + high + 1) // 2
        if count_tokens(text[end - mid : end]) <= budget:
            low = mid
        else:
            high = mid - 1
    return low
