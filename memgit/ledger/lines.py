"""The recall ledger's lines: which hits each search surfaced, as one JSON object a hit (pure).

A line is written for every hit of every search (CLI, `--batch`, MCP) and read back by dreaming
as evidence, by publishing (which refuses exactly the lines a reader would skip) and by the
site's recall heat. Its shape, its parser and the hashes that make lines comparable across
clones live here, in one place, with no I/O.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from memgit.core.paths import DREAM_REPORT_DIR, LEDGER_DIR
from memgit.core.text import WORD_RE, fts_text, query_terms


@dataclass(frozen=True)
class Recall:
    """One hit one search surfaced: where, what text (by hash), how well it scored, when."""

    time: str
    day: str
    query_hash: str
    query: str | None
    path: str
    start: int
    end: int
    focus_start: int
    focus_end: int
    text_hash: str
    score: float

    @property
    def at(self) -> datetime:
        return datetime.fromisoformat(self.time)

    @property
    def key(self) -> str:
        """The short-term entry a recall counts for: the focused lines of one file."""
        return f"{self.path}:{self.focus_start}:{self.focus_end}"


MAX_SCORE = 1.0
MAX_LINE = 10_000_000


def parse_line(line: str) -> Recall | None:
    """One ledger line, or None when it is not a valid record (the caller counts those)."""
    try:
        obj = json.loads(line)
        when = datetime.fromisoformat(str(obj["t"]))
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)  # a hand-written line without an offset
        stamp = when.isoformat(timespec="seconds")
        start, end = (int(v) for v in obj["lines"])
        focus = obj.get("focus") or [start, end]
        focus_start, focus_end = int(focus[0]), int(focus[1])
        path = obj["path"]
        score = float(obj["score"])
        qhash = str(obj["q"])
        thash = str(obj.get("hash", ""))
        query = obj.get("query")
    except (ValueError, KeyError, TypeError, IndexError, RecursionError):  # RecursionError: absurd nesting
        return None
    if not isinstance(path, str) or not path or path.startswith("/") or ".." in path.split("/"):
        return None
    if start < 1 or end < start or focus_start < 1 or focus_end < focus_start or not qhash:
        return None
    # Values a search can write: a score in [0, 1] (1e308 or NaN would own every relevance mean),
    # line numbers a text file can have, short hashes.
    if not (0.0 <= score <= MAX_SCORE) or max(end, focus_end) > MAX_LINE or len(qhash) > 64 or len(thash) > 64:
        return None
    return Recall(
        time=stamp,
        day=when.date().isoformat(),
        query_hash=qhash,
        query=query if isinstance(query, str) else None,
        path=path,
        start=start,
        end=end,
        focus_start=focus_start,
        focus_end=focus_end,
        text_hash=thash,
        score=score,
    )


def is_session_path(path: str) -> bool:
    """A captured session transcript (`sessions/*.jsonl`)."""
    return path.startswith("sessions/") and path.endswith(".jsonl") and path.count("/") == 1


def ledger_lines(text: str) -> list[str]:
    """The lines of a ledger text, split on newlines only: a line is one JSON object, and JSON
    written with `ensure_ascii=False` may hold U+2028 and other characters `str.splitlines` splits on."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def ledger_path(day: date) -> str:
    return f"{LEDGER_DIR}/{day.isoformat()}.jsonl"


def query_hash(query: str) -> str:
    """Same query, same hash, whatever its spacing or case: distinct queries are counted by it."""
    normal = " ".join(query.lower().split())
    return hashlib.sha1(normal.encode("utf-8")).hexdigest()[:16]


def text_hash(text: str) -> str:
    """Hash of a line range's text, whitespace at the ends of lines ignored (rehydration compares it)."""
    normal = "\n".join(line.rstrip() for line in text.splitlines()).strip()
    return hashlib.sha1(normal.encode("utf-8")).hexdigest()[:16]


def _query_words(query: str) -> frozenset[str]:
    """The query's search words, CJK phrases split into their characters (as `fts_text` spaces them)."""
    out: set[str] = set()
    for term in query_terms(query):
        out.update(term.split())
    return frozenset(out)


def focus_lines(query: str | frozenset[str], text: str, start: int) -> tuple[int, int, str]:
    """The line of a hit that best answers the query (most query words), so a recall of a long
    chunk counts for the fact, not for its neighbours. Falls back to the first non-blank line."""
    terms = _query_words(query) if isinstance(query, str) else query
    best: tuple[int, int] | None = None
    lines = text.splitlines()
    for offset, line in enumerate(lines):
        if not line.strip():
            continue
        overlap = len(terms.intersection(w.lower() for w in WORD_RE.findall(fts_text(line))))
        if best is None or overlap > best[0]:
            best = (overlap, offset)
    if best is None:
        return start, start, ""
    return start + best[1], start + best[1], lines[best[1]]


#: The longest query text the ledger keeps (a search's first line only): a pasted page is not a
#: question, and every clone's ledger would carry it forever (merge=union). Its hash is of the whole.
MAX_QUERY_CHARS = 300


def kept_query(query: str) -> str:
    """The query as the ledger keeps it (pure): spaces collapsed, cut at a word past
    `MAX_QUERY_CHARS` with an ellipsis."""
    text = " ".join(query.split())
    if len(text) <= MAX_QUERY_CHARS:
        return text
    cut = text[:MAX_QUERY_CHARS]
    return (cut.rsplit(" ", 1)[0] if " " in cut[MAX_QUERY_CHARS // 2 :] else cut) + "…"


def transcript_focus(line: str, start: int, end: int, turns: Mapping[int, str]) -> int | None:
    """The JSONL line number of the turn `line` (as a transcript chunk's text holds it), between
    `start` and `end`. A chunk's text has one line per turn, but tool calls and blank lines
    between turns take JSONL lines of their own, so the line's place in the text is not its number."""
    for number in range(start, end + 1):
        if turns.get(number) == line:
            return number
    return None


def render_lines(
    query: str,
    hits: Sequence[Any],
    now: datetime,
    *,
    keep_query: bool = True,
    turns: Callable[[str], Mapping[int, str]] | None = None,
) -> bytes:
    """The ledger lines of one search (pure but for `turns`): one JSON object a hit, dream reports
    left out. The query text (`kept_query`) is on the first line only; the others carry its hash,
    by which readers (`memgit.ledger.read`) find it. `turns`: a session transcript's turns by JSONL
    line number, to name a transcript hit's focused turn by its own line."""
    stamp = now.isoformat(timespec="seconds")
    qhash = query_hash(query)
    terms = _query_words(query)
    out: list[str] = []
    for hit in hits:
        path = hit.path
        if path.startswith(DREAM_REPORT_DIR + "/") or path.startswith(LEDGER_DIR + "/"):
            continue  # dreaming's own output is never evidence for dreaming
        focus_start, focus_end, line = focus_lines(terms, hit.text, hit.start_line)
        if turns is not None and is_session_path(path) and line:
            found = transcript_focus(line, hit.start_line, hit.end_line, turns(path))
            if found is not None:
                focus_start = focus_end = found
        record: dict[str, Any] = {"t": stamp, "q": qhash}
        if keep_query and not out:
            record["query"] = kept_query(query)
        record.update(
            {
                "path": path,
                "lines": [hit.start_line, hit.end_line],
                "focus": [focus_start, focus_end],
                "hash": text_hash(line),
                "score": round(float(hit.score), 4),
            }
        )
        out.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    return ("\n".join(out) + "\n").encode("utf-8") if out else b""
