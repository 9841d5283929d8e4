"""Where a note's lines belong (pure): inside a fenced block, or a lead-in whose content is below.

A shell `# comment` inside a fenced code block is no heading, and a line of code is no fact on its
own; a line ending in ":" whose content is the block or the list below it ("Run the backup like
this:") says nothing alone. Dreaming promotes neither: a copy of one would be half of what was
written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_FENCE = re.compile(r"^\s{0,3}(?P<mark>`{3,}|~{3,})")
_LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")
_TABLE = re.compile(r"^\s*\|")
_QUOTE = re.compile(r"^\s*>")


def fenced_lines(lines: Sequence[str]) -> frozenset[int]:
    """1-based numbers of the lines of fenced code blocks, their fences included (an unclosed
    fence runs to the end, as CommonMark reads it)."""
    out: set[int] = set()
    opened: str | None = None
    for number, line in enumerate(lines, 1):
        match = _FENCE.match(line)
        if opened is None:
            if match:
                opened = match["mark"]
                out.add(number)
            continue
        out.add(number)
        if (
            match
            and match["mark"][0] == opened[0]
            and len(match["mark"]) >= len(opened)
            and not line.strip()[len(match["mark"]) :].strip()
        ):
            opened = None
    return frozenset(out)


def continues_below(lines: Sequence[str], number: int) -> bool:
    """Line `number` (1-based) is a lead-in: it ends in ":" and the next non-blank line opens a
    fenced block, a list, a table, a quoted message or an indented block ("messaged him the
    dates:" / "> 9 May, 27 June …"); or a fenced block opens right below it,
    with no blank line between ("… → every PR opened since shows" / "```" / the message)."""
    text = lines[number - 1].rstrip() if 0 < number <= len(lines) else ""
    if number < len(lines) and _FENCE.match(lines[number]) and text.strip():
        return True
    if not text.endswith(":"):
        return False
    for below in lines[number:]:
        if not below.strip():
            continue
        indent = len(below) - len(below.lstrip())
        own = len(text) - len(text.lstrip())
        return bool(
            _FENCE.match(below) or _LIST.match(below) or _TABLE.match(below) or _QUOTE.match(below) or indent > own
        )
    return False


#: Between two sentences of one line: a full stop, "!" or "?", then a space.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])[ \t]+(?=\S)")
#: The most words a closing lead-in has ("She wants:", "Steps for the rerun:").
LEAD_IN_WORDS = 8


def before_lead_in(text: str) -> str | None:
    """The sentences of a one-line lead-in before its closing clause ("Submission now 4 Dec, not
    20 Nov. She wants:" -> "Submission now 4 Dec, not 20 Nov."): they stand alone, while the closing
    clause introduces the block below and goes with it. None when the line is all lead-in."""
    line = text.rstrip()
    if "\n" in line.strip() or not line.endswith(":"):
        return None
    breaks = list(_SENTENCE_BREAK.finditer(line))
    if not breaks:
        return None
    head, tail = line[: breaks[-1].start()], line[breaks[-1].end() :]
    last = head.split()[-1] if head.split() else ""
    if "." in last[:-1] or (len(last) <= 3 and last.endswith(".")):
        return None  # an abbreviation's dot ("e.g.", "vs.") ends no sentence
    if len(tail.split()) > LEAD_IN_WORDS or len(re.findall(r"\w+", head)) < 3:
        return None
    return head


def table_row(line: str) -> bool:
    """A row of a Markdown table: without its header row it says half of what it holds."""
    stripped = line.strip()
    return stripped.startswith("|") and stripped.count("|") >= 2


_QUOTED = re.compile(r"^\s*>\s?(?P<said>.*\S)")
_SENDER = re.compile(r"^\s*(?:[-*+]\s+)?(?P<who>[^\s:>][^:]{0,40}?)\s*:\s*$")
_NAMED_SPEAKER = re.compile(r"^\**[^\W\d_][\w .'-]{0,30}?\**\s*:\s")
#: The most words a line naming a quoted message's sender has ("- Ffion:", "Tomos texted back:").
SENDER_WORDS = 4


def quoted_sender(lines: Sequence[str], number: int) -> str | None:
    """Line `number` (1-based) is a quoted message ("> so they've put me on fixed mondays …") right
    under the line that says who sent it ("- Ffion:"): that sender, so that a copy of the quote says
    whose words it holds ("me" in it is Ffion, not the note's writer). None otherwise."""
    quoted = _QUOTED.match(lines[number - 1]) if 1 < number <= len(lines) else None
    if quoted is None or _NAMED_SPEAKER.match(quoted["said"]):
        return None  # no quote, or one that names its speaker itself ("> Sana: my cousin's …")
    for above in reversed(lines[: number - 1]):
        if _QUOTED.match(above):
            continue  # the message's earlier lines
        match = _SENDER.match(above)
        if match is None or len(match["who"].split()) > SENDER_WORDS:
            return None
        return match["who"].strip("*_ ")
    return None


def with_sender(text: str, sender: str) -> str:
    """A quoted message's copy with its sender named after it, as a quote is signed ("> so they've
    put me on … (Ffion)"): at the end, in parentheses, so that what the message is about still opens
    it and the key a line names (keys.py, an aside never part of it) is the message's own."""
    return f"{text.rstrip()} ({sender})"
