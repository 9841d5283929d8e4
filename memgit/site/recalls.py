"""Recall heat: how often searches surfaced each line of each note, read from the recall ledger
(`memory/.dreams/recall/*.jsonl`, committed by `memgit recalls publish`). It shows which facts get
used. Pure: ledger texts in, counts out; the build caches the counts per ledger blob."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from memgit.ledger.lines import parse_line


def ledger_heat(text: str) -> dict[str, dict[str, int]]:
    """path -> {line (as text, for JSON): times a search surfaced it}, from one ledger file.
    Each recall counts once for every line of its focus; malformed lines are skipped."""
    out: dict[str, dict[str, int]] = {}
    for raw in text.split("\n"):
        if not raw.strip():
            continue
        recall = parse_line(raw)
        if recall is None:
            continue
        lines = out.setdefault(recall.path, {})
        for n in range(recall.focus_start, min(recall.focus_end, recall.focus_start + 200) + 1):
            lines[str(n)] = lines.get(str(n), 0) + 1
    return out


def merge(parts: Iterable[Mapping[str, Mapping[str, int]]], keep: Iterable[str]) -> dict[str, dict[int, int]]:
    """The heat of every kept path over all ledger files."""
    wanted = set(keep)
    out: dict[str, dict[int, int]] = {}
    for part in parts:
        for path, lines in part.items():
            if path not in wanted:
                continue
            into = out.setdefault(path, {})
            for line, count in lines.items():
                into[int(line)] = into.get(int(line), 0) + count
    return {path: dict(sorted(lines.items())) for path, lines in sorted(out.items())}
