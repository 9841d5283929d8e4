"""Pure: which of MEMORY.md's entries a tight session context keeps, most used first.

A long MEMORY.md does not fit a host's hook output (Claude Code shows the model only a preview of
anything over ~10,000 characters). Keeping its first lines would keep whatever was written first;
keeping the entries searches and reads returned most often keeps what the agent actually uses.
The file is split into blocks (a heading; a top-level list item or paragraph with its
continuation lines and the blank lines after it), each block scored by the uses that touched its
lines, and blocks are granted in that order (file order between equals) while they fit. A chosen
block brings the headings above it, so an entry is never shown without its section.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_HEADING = re.compile(r"^#{1,6}\s")
_ITEM = re.compile(r"^(?:[-*+]|\d{1,9}[.)])\s")


@dataclass(frozen=True)
class Block:
    first: int  # 1-based, inclusive
    last: int
    level: int  # heading level 1-6; 0 for an entry or paragraph


def split_blocks(lines: Sequence[str]) -> list[Block]:
    """`lines` cut into headings and entries (pure); every line belongs to exactly one block."""
    blocks: list[Block] = []
    start = 0
    level = 0
    for number, line in enumerate(lines, start=1):
        heading = _HEADING.match(line)
        starts = heading or _ITEM.match(line) or (line.strip() and number > 1 and not lines[number - 2].strip())
        if starts and number > 1 and start:
            blocks.append(Block(start, number - 1, level))
            start = 0
        if not start:
            start = number
            level = len(line) - len(line.lstrip("#")) if heading else 0
    if start:
        blocks.append(Block(start, len(lines), level))
    return blocks


def use_counts(blocks: Sequence[Block], uses: Sequence[tuple[int, int]]) -> list[int]:
    """How many uses (line ranges) touch each block (pure)."""
    counts = [0] * len(blocks)
    for first, last in uses:
        for index, block in enumerate(blocks):
            if block.first <= last and first <= block.last:
                counts[index] += 1
    return counts


def _headings_above(blocks: Sequence[Block], index: int) -> list[int]:
    """The headings a block sits under: the nearest one of each shallower level."""
    out = []
    ceiling = blocks[index].level or 7
    for back in range(index - 1, -1, -1):
        level = blocks[back].level
        if 0 < level < ceiling:
            out.append(back)
            ceiling = level
            if level == 1:
                break
    return out


def gaps(chosen: Sequence[bool], blocks: Sequence[Block]) -> list[tuple[int, int]]:
    """The line ranges of the blocks not chosen, adjacent ones merged (pure)."""
    out: list[tuple[int, int]] = []
    for keep, block in zip(chosen, blocks, strict=True):
        if keep:
            continue
        if out and out[-1][1] + 1 == block.first:
            out[-1] = (out[-1][0], block.last)
        else:
            out.append((block.first, block.last))
    return out


def choose_blocks(
    blocks: Sequence[Block],
    counts: Sequence[int],
    cost: Callable[[Block], int],
    allowance: int,
    gap_cost: int,
) -> list[bool]:
    """Which blocks fit `allowance` tokens, granted most used first (pure). `cost` is a block's
    tokens; each run of left-out blocks costs `gap_cost` (its notice). Among the never-used blocks
    granting stops at the first that does not fit, so they keep the file's beginning, as a plain
    cut would."""
    chosen = [False] * len(blocks)
    body = 0
    for index in sorted(range(len(blocks)), key=lambda i: (-counts[i], i)):
        if chosen[index]:
            continue
        wanted = [index, *(h for h in _headings_above(blocks, index) if not chosen[h])]
        trial = list(chosen)
        for i in wanted:
            trial[i] = True
        price = body + sum(cost(blocks[i]) for i in wanted)
        if price + gap_cost * len(gaps(trial, blocks)) > allowance:
            if counts[index]:
                continue  # a large used entry: smaller used ones may still fit
            break
        body, chosen = price, trial
    return chosen
