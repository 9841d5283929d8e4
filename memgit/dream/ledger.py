"""The recall ledger: which hits each search surfaced, one append-only JSONL file a day.

It is dreaming's evidence. A line is written for every hit of every search (CLI, `--batch`, MCP),
so the writer must cost nothing a user can measure: the lines of one search are rendered in memory
and land with a single `write` under an exclusive `flock` (the same discipline as memory appends,
so two processes never interleave half lines). Searches write to a per-clone spool under the data
dir (`.git/memgit/recall/`, see memgit/memory/recall_spool.py), so they never dirty the work tree;
publishing moves the lines into the tracked files under `memory/.dreams/recall/` (a hidden folder:
never indexed), which carry `merge=union` in .gitattributes, so two clones that searched on the
same day merge without a conflict.

Reading is tolerant: a malformed line (a torn write, a bad merge, a hand edit) is skipped and
counted, never fatal.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from memgit.core.paths import DREAM_REPORT_DIR, LEDGER_DIR
from memgit.core.text import WORD_RE, fts_text, query_terms

# A record and its parser live with the spool (a lower layer), so publishing can refuse exactly the
# lines this reader would skip; they are re-exported here, where dreaming has always found them.
from memgit.memory.recall_spool import Recall, ledger_lines, parse_line


@dataclass
class LedgerRead:
    recalls: list[Recall]
    malformed: int = 0
    files: int = 0
    malformed_where: list[str] | None = None


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


def render_lines(
    query: str, hits: Sequence[Any], now: datetime, *, keep_query: bool = True
) -> bytes:
    """The ledger lines of one search (pure): one JSON object a hit, dream reports left out."""
    stamp = now.isoformat(timespec="seconds")
    qhash = query_hash(query)
    terms = _query_words(query)
    out: list[str] = []
    for hit in hits:
        path = hit.path
        if path.startswith(DREAM_REPORT_DIR + "/") or path.startswith(LEDGER_DIR + "/"):
            continue  # dreaming's own output is never evidence for dreaming
        focus_start, focus_end, line = focus_lines(terms, hit.text, hit.start_line)
        record: dict[str, Any] = {"t": stamp, "q": qhash}
        if keep_query:
            record["query"] = query
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


def recording_enabled(config_record: bool, no_record: bool = False) -> bool:
    """Off with `[dream] record = false`, `--no-record`, or MEMGIT_NO_RECALL=1 (benchmarks set it)."""
    if no_record or not config_record:
        return False
    return os.environ.get("MEMGIT_NO_RECALL", "").strip().lower() in ("", "0", "false", "no")


def record_search(
    data_dir: Path, query: str, hits: Sequence[Any], now: datetime, *, keep_query: bool = True
) -> int:
    """Record the hits of one search in this clone's spool (never the work tree: a search must not
    dirty it); returns how many lines were written. Publishing moves them into the tracked ledger."""
    from memgit.memory.recall_spool import append_spool

    data = render_lines(query, hits, now, keep_query=keep_query)
    append_spool(data_dir, now.date(), data)
    return data.count(b"\n")


# ------------------------------------------------------------------------------------ reading


def parse_ledger(files: Iterable[tuple[str, str]]) -> LedgerRead:
    """Records of several ledger files `(path, text)`, in file then line order (pure)."""
    result = LedgerRead(recalls=[], malformed_where=[])
    for rel, text in files:
        result.files += 1
        for number, line in enumerate(ledger_lines(text), 1):
            if not line.strip():
                continue
            record = parse_line(line)
            if record is None:
                result.malformed += 1
                assert result.malformed_where is not None
                result.malformed_where.append(f"{rel}:{number}")
                continue
            result.recalls.append(record)
    return result


def ledger_days(until: date, days: int) -> list[str]:
    """File names of the ledger covering the `days` days that end on `until`."""
    return [ledger_path(until - timedelta(days=offset)) for offset in range(days - 1, -1, -1)]
