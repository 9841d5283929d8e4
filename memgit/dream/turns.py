"""Session transcripts as dreaming reads them (pure): one line per JSONL line, a turn's words on it.

The index reads a transcript (`sessions/*.jsonl`) as `role: words` lines numbered by their JSONL
line (core/transcripts.py: tool calls, system text and metadata are no turn), and a recall names
one of those lines by its number and the hash of its text. The dream reads the file the same way:
`turn_view` gives the text with each turn on its JSONL line number and every other line blank, so
rehydration, crediting and the heading lookups work on a transcript as on a daily log.

Only what the person said can become their memory: a user turn is a candidate, copied in their
words with the speaker named; an assistant turn never is (a suggestion, a summary, general
knowledge), though when it restates what the person said, a search that found it counts for the
person's line (credit.py).
"""

from __future__ import annotations

import json
import re

from memgit.core.paths import daily_date, daily_log_day
from memgit.core.transcripts import transcript_lines

_TURN = re.compile(r"^(?P<role>user|assistant): (?P<said>.*)$", re.DOTALL)
#: Who a user turn is attributed to when the workspace does not name the person (`[dream] user_name`).
DEFAULT_SPEAKER = "The user"


def is_transcript(path: str) -> bool:
    """A captured session (`sessions/*.jsonl`), which dreaming reads turn by turn."""
    return path.startswith("sessions/") and path.endswith(".jsonl") and path.count("/") == 1


def turn_view(text: str) -> str:
    """The transcript as lines: line n holds `role: words` when JSONL line n is a turn, else nothing."""
    turns = dict(transcript_lines(text))
    total = text.count("\n") + 1
    return "\n".join(turns.get(n, "") for n in range(1, total + 1))


def role_of(line: str) -> tuple[str, str] | None:
    """(role, words) of a turn line of `turn_view`, or None."""
    match = _TURN.match(line)
    return (match["role"], match["said"]) if match else None


def note_day(path: str) -> str | None:
    """The day a note was written: a daily log's, a session's (`sessions/2026-03-04-x.jsonl`)."""
    day = daily_log_day(path)
    if day is not None:
        return day.isoformat()
    return daily_date(path) if is_transcript(path) else None


def turn_id(text: str, line: int) -> str | None:
    """The `turn` a transcript's JSONL line names (Claude Code's `uuid`, a case's "t5"), or None."""
    raw = text.split("\n")[line - 1] if 0 < line <= text.count("\n") + 1 else ""
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    found = record.get("turn") or record.get("uuid") or record.get("id")
    return str(found) if isinstance(found, str | int) else None


def around(text: str, line: int) -> tuple[tuple[int, str] | None, tuple[int, str] | None]:
    """The turns just before and after JSONL line `line` (their line and `role: words`): the
    question a promoted turn answered and the answer it got, for a reviewer."""
    turns = transcript_lines(text)
    before = [t for t in turns if t[0] < line]
    after = [t for t in turns if t[0] > line]
    return (before[-1] if before else None, after[0] if after else None)
