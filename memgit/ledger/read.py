"""Reading the tracked recall ledger, dreaming's evidence: tolerant, a malformed line (a torn write,
a bad merge, a hand edit) is skipped and counted (and named), never fatal. A search's query text is
on its first line; every recall gets it back by the query's hash."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta

from memgit.ledger.lines import Recall, ledger_lines, ledger_path, parse_line


@dataclass
class LedgerRead:
    recalls: list[Recall]
    malformed: int = 0
    files: int = 0
    malformed_where: list[str] | None = None


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
    return _with_queries(result)


def _with_queries(result: LedgerRead) -> LedgerRead:
    """Each recall with its search's query text: a search keeps it on its first line only, the
    others find it by the query's hash (pure)."""
    texts: dict[str, str] = {}
    for recall in result.recalls:
        if recall.query and recall.query_hash not in texts:
            texts[recall.query_hash] = recall.query
    result.recalls = [
        replace(r, query=texts[r.query_hash]) if r.query is None and r.query_hash in texts else r
        for r in result.recalls
    ]
    return result


def ledger_days(until: date, days: int) -> list[str]:
    """File names of the ledger covering the `days` days that end on `until`."""
    return [ledger_path(until - timedelta(days=offset)) for offset in range(days - 1, -1, -1)]
