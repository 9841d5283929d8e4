"""Markdown of any size parsed in bounded memory: big notes in pieces, huge tables as text.

markdown-it builds a token per block and several per cell before rendering one: a 4.8 MB note
held ~400 MB of them, a 1 MB table of 340,000 cells 570 MB. `pieces` cuts a big note where a
piece parses alone as it parses in the whole (after a blank line outside code, before a line at
the margin), so `markdown.Renderer` holds one piece's tokens at a time; `bounded_table` shows a
table of more than MAX_TABLE_CELLS cells as its text before any cell is parsed.
"""

from __future__ import annotations

import re
from typing import Any

#: The most cells a table is rendered with: markdown-it makes ~4 tokens a cell (a 1 MB table of
#: 340,000 cells took 570 MB and 11 s); a bigger one is shown as its text, lines and anchors kept.
MAX_TABLE_CELLS = 20_000


def bounded_table(state: Any, start: int, end: int, silent: bool) -> bool:
    """GFM's table rule, but a table of more than MAX_TABLE_CELLS cells becomes a plain code
    block of its lines (with a line saying why) before any cell is parsed."""
    from markdown_it.rules_block.table import table

    if not table(state, start, end, True):
        return False
    if silent:
        return True
    first = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    columns = max(1, first.strip().strip("|").count("|") + 1)
    line = start
    while line < end and not state.isEmpty(line) and (line - start) * columns <= MAX_TABLE_CELLS:
        line += 1
    if (line - start) * columns <= MAX_TABLE_CELLS:
        return bool(table(state, start, end, False))
    while line < end and not state.isEmpty(line):
        line += 1
    notice = state.push("html_block", "", 0)
    notice.content = (
        f'<p class="note-meta">A table of {line - start - 2} rows and {columns} columns, shown as its text '
        f"(tables of more than {MAX_TABLE_CELLS:,} cells are not laid out).</p>\n"
    )
    token = state.push("fence", "code", 0)
    token.info, token.markup = "", "```"
    token.content = state.getLines(start, line, state.blkIndent, True)
    token.map = [start, line]
    state.line = line
    return True


#: Notes longer than this are parsed in pieces of about PIECE characters (`Renderer.render`).
PIECES_OVER = 400_000
PIECE = 100_000
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def pieces(text: str, size: int = PIECE) -> list[tuple[int, int, int]]:
    """(start, end, first line, 0-based) of pieces of `text` that parse alone as they parse in
    the whole: each of about `size` characters, ending after a blank line outside a fenced block,
    before a line that begins at the margin (not an indented continuation or code)."""
    found = []
    start = line = begin_line = 0
    fence = ""
    blank_before = False
    pos = 0
    while pos < len(text):
        nl = text.find("\n", pos)
        stop = len(text) if nl < 0 else nl + 1
        row = text[pos:stop]
        if not fence and blank_before and pos - start >= size and row.strip() and not row[0].isspace():
            found.append((start, pos, begin_line))
            start, begin_line = pos, line
        opened = _FENCE.match(row)
        if opened is not None:
            mark = opened[1]
            if not fence:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not row[opened.end() :].strip():
                fence = ""
        blank_before = not row.strip()
        pos = stop
        line += 1
    found.append((start, len(text), begin_line))
    return found
