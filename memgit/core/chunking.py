"""Pure chunking: numbered lines in, line-aligned chunks out.

Chunks are sized in the embedding model's own tokens (a char estimate stands in when there is
no model), overlap by whole lines, and start a new chunk at a Markdown heading when the current
one already holds content, so a section stays with its heading where it fits.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

HEADING_RE = re.compile(r"^#{1,6}\s")


@dataclass(frozen=True)
class Chunk:
    start_line: int
    end_line: int
    text: str

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


def chunk_lines(
    lines: Sequence[tuple[int, str]],
    *,
    max_tokens: int,
    overlap_tokens: int,
    count_tokens: Callable[[str], int],
) -> list[Chunk]:
    """Group numbered lines into chunks of at most `max_tokens` (a longer single line stands alone).

    `lines` are (line_number, text) pairs in increasing line order; numbers may skip (transcripts
    keep JSONL line numbers). Blank lines never start or end a chunk.
    """
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
        end = start  # exclusive
        used = 0
        while end < n:
            cost = costs[end]
            if end > start and used + cost > max_tokens:
                break
            if end > start and HEADING_RE.match(lines[end][1]) and _has_body(lines, start, end):
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
        start = _overlap_start(lines, costs, start, end, overlap_tokens)
    return chunks


def _has_body(lines: Sequence[tuple[int, str]], start: int, end: int) -> bool:
    """True when lines[start:end] hold something besides headings and blank lines."""
    return any(text.strip() and not HEADING_RE.match(text) for _, text in lines[start:end])


def _overlap_start(
    lines: Sequence[tuple[int, str]], costs: list[int], start: int, end: int, overlap_tokens: int
) -> int:
    """Where the next chunk begins: carry whole trailing lines worth <= overlap_tokens, never
    crossing into a heading boundary, and always make progress."""
    if overlap_tokens <= 0 or HEADING_RE.match(lines[end][1]):
        return end
    begin = end
    carried = 0
    while begin - 1 > start and carried + costs[begin - 1] <= overlap_tokens:
        if HEADING_RE.match(lines[begin - 1][1]):
            break
        carried += costs[begin - 1]
        begin -= 1
    return begin


def _make_chunk(lines: Sequence[tuple[int, str]], first: int, last: int) -> Chunk:
    text = "\n".join(text for _, text in lines[first : last + 1])
    return Chunk(start_line=lines[first][0], end_line=lines[last][0], text=text)
