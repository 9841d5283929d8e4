"""Which line a recall counts for (pure): the one that answers the question.

A search hit is a chunk of several lines; the ledger names one of them, the line sharing the most
words with the query, else the chunk's first line. A question in other words than its answer
("when is the retro" / "Retros happen every second Friday at 15:00") shares none, so the recall
lands on the chunk's first line, often a heading, and is lost as junk; or on the line that names
the person asked about rather than the line that says what was asked. So the dream reads each
recall again: among the content lines of its hit (for a heading, the lines of its section), it
credits the one that meets the question best, by its words and by meaning (cosine of the
embeddings, when a model is installed), and a tie keeps the ledger's own line.

A recall is moved only when its hit is still where the ledger saw it (the focused line's text
hash matches the file at the base); otherwise rehydration finds the line as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from memgit.core.text import STOP_WORDS
from memgit.dream.blocks import fenced_lines
from memgit.dream.turns import is_transcript, role_of
from memgit.ledger.lines import Recall, text_hash

_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
#: How far below a heading its section is read for the answer.
SECTION_LINES = 20
#: Weight of shared words beside the cosine (both in [0, 1]).
WORD_WEIGHT = 0.5
#: How much better another line must answer before a recall leaves the line the ledger named.
MARGIN = 0.1
#: The least cosine for a heading's recall to go to a line under it that shares no word with the question.
HEADING_FLOOR = 0.3

#: How far back (JSONL lines) an assistant's restatement looks for the person's line, and how close it must be.
RESTATE_LINES = 8
RESTATE_SIMILARITY = 0.6

Compare = Callable[[list[str], list[str]], list[list[float]]]


def _words(text: str) -> set[str]:
    return {w for w in (m.lower() for m in _WORD.findall(text)) if w not in STOP_WORDS and len(w) > 2}


def _region(lines: Sequence[str], r: Recall, fenced: frozenset[int] = frozenset()) -> list[int]:
    """Line numbers that may answer: the hit's content lines; for a focused heading, its section
    (a `# comment` in a fenced block is no heading, and code lines never answer)."""
    first, last = r.start, r.end
    heading = _HEADING.match(lines[r.focus_start - 1]) and r.focus_start not in fenced
    if heading:
        level = len(lines[r.focus_start - 1].lstrip()) - len(lines[r.focus_start - 1].lstrip().lstrip("#"))
        first, last = r.focus_start, min(len(lines), max(r.end, r.focus_start + SECTION_LINES))
        for number in range(r.focus_start + 1, last + 1):
            line = lines[number - 1].lstrip()
            if _HEADING.match(line) and number not in fenced and len(line) - len(line.lstrip("#")) <= level:
                last = number - 1  # the section ends at the next heading of its level or above
                break
    return [
        n
        for n in range(first, min(last, len(lines)) + 1)
        if lines[n - 1].strip() and not _HEADING.match(lines[n - 1]) and n not in fenced
    ]


def credit(recalls: Sequence[Recall], files: Mapping[str, str | None], compare: Compare | None) -> list[Recall]:
    """The recalls, each moved to the line of its hit that best answers its query (see above)."""
    split: dict[str, list[str]] = {}
    fences: dict[str, frozenset[int]] = {}
    out: list[Recall] = []
    for r in recalls:
        text = files.get(r.path)
        if text is None or r.path == "MEMORY.md" or r.focus_start != r.focus_end:
            out.append(r)
            continue
        lines = split.setdefault(r.path, text.splitlines())
        if r.focus_start > len(lines) or (r.text_hash and text_hash(lines[r.focus_start - 1]) != r.text_hash):
            out.append(r)  # the file changed since: rehydration finds the line
            continue
        if r.path not in fences:
            fences[r.path] = frozenset() if is_transcript(r.path) else fenced_lines(lines)
        region = _region(lines, r, fences[r.path])
        heading = bool(_HEADING.match(lines[r.focus_start - 1])) and r.focus_start not in fences[r.path]
        if not region or (len(region) == 1 and region[0] == r.focus_start):
            best = r.focus_start
        else:
            best = _best(r, lines, region, compare, heading)
        if is_transcript(r.path):
            best = _restated(lines, best, compare)
        if best == r.focus_start:
            out.append(r)
            continue
        out.append(replace(r, focus_start=best, focus_end=best, text_hash=text_hash(lines[best - 1])))
    return out


def _restated(lines: Sequence[str], number: int, compare: Compare | None) -> int:
    """For an assistant's turn that restates what the person said a few turns before ("Got it:
    Amy charges £12 an hour"), the person's line (a search that found the restatement found
    their fact); any other line as it is."""
    turn = role_of(lines[number - 1])
    if turn is None or turn[0] != "assistant":
        return number
    earlier = [
        n
        for n in range(number - 1, max(0, number - RESTATE_LINES) - 1, -1)
        if n >= 1 and (found := role_of(lines[n - 1])) is not None and found[0] == "user"
    ]
    if not earlier:
        return number
    said = [role_of(lines[n - 1])[1] for n in earlier]  # type: ignore[index]
    if compare is not None:
        scores = compare([turn[1]], said)[0]
    else:
        mine = _words(turn[1])
        scores = [len(mine & _words(s)) / len(mine | _words(s)) if mine | _words(s) else 0.0 for s in said]
    best = max(range(len(earlier)), key=lambda i: (scores[i], -i))
    return earlier[best] if scores[best] >= RESTATE_SIMILARITY else number


def _best(r: Recall, lines: Sequence[str], region: list[int], compare: Compare | None, heading: bool) -> int:
    """The best answering line of `region` (the ledger's own on a tie, unless it is a heading)."""
    if not r.query:
        return r.focus_start
    asked = _words(r.query)
    texts = [lines[n - 1] for n in region]
    cosines = compare([r.query], texts)[0] if compare is not None else [0.0] * len(texts)
    scored = []
    for n, text, cosine in zip(region, texts, cosines, strict=True):
        shared = len(asked & _words(text)) / len(asked) if asked else 0.0
        scored.append((cosine + WORD_WEIGHT * shared, shared, n))
    best = max(scored, key=lambda row: (row[0], row[2] == r.focus_start, -row[2]))
    if heading:
        # Off a heading only to a line that meets the question at all: a word, or a close meaning.
        return best[2] if best[1] > 0 or best[0] >= HEADING_FLOOR else r.focus_start
    own = next((row for row in scored if row[2] == r.focus_start), None)
    if own is None:
        return r.focus_start
    # Away from the ledger's own line only on clear evidence: no fewer shared words, a better score.
    if best[1] >= own[1] and best[0] >= own[0] + MARGIN:
        return best[2]
    return r.focus_start
