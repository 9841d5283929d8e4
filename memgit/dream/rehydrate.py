"""Rehydration (pure): find a recalled fact in its file as the file is now.

Lines move (a note is edited above them), so the recorded position is only a hint: the text hash
decides. Exact position first, then every window of the same height, nearest to the hint; text
that is nowhere any more drops the candidate (it was rewritten or deleted since the recall).
"""

from __future__ import annotations

from dataclasses import dataclass

from memgit.ledger.lines import text_hash


@dataclass(frozen=True)
class Located:
    start: int
    end: int
    text: str
    moved: bool


def relocate(lines: list[str], start: int, end: int, wanted_hash: str) -> Located | None:
    height = end - start + 1
    if height < 1:
        return None

    def window(at: int) -> str:
        return "\n".join(lines[at - 1 : at - 1 + height])

    if start >= 1 and end <= len(lines) and (not wanted_hash or text_hash(window(start)) == wanted_hash):
        return Located(start, end, window(start), moved=False)
    if not wanted_hash:
        return None
    found = [at for at in range(1, len(lines) - height + 2) if text_hash(window(at)) == wanted_hash]
    if not found:
        return None
    best = min(found, key=lambda at: (abs(at - start), at))
    return Located(best, best + height - 1, window(best), moved=True)
