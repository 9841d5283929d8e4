"""Reading the tracked recall ledger, dreaming's evidence: tolerant, a malformed line (a torn write,
a bad merge, a hand edit) is skipped and counted (and named), never fatal."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
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
    return result


def ledger_days(until: date, days: int) -> list[str]:
    """File names of the ledger covering the `days` days that end on `until`."""
    return [ledger_path(until - timedelta(days=offset)) for offset in range(days - 1, -1, -1)]
