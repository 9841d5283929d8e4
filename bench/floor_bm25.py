"""The BM25 floor: an independent reference implementation of plain FTS5 retrieval.

FTS5 (stdlib sqlite3, ``unicode61`` tokenizer) over ≈400-token chunks (1,600 characters with a
320-character overlap, line-aligned, sized at ≈4 characters per token like the reference system),
the question's words OR'ed (each quoted), ranked by ``bm25()``, top 10. Scored with the same
functions as memgit (``bench/scoring_retrieval.py``).

Run: ``.venv/bin/python bench/floor_bm25.py [--corpus PATH] [--json OUT]``.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import DEFAULT_CORPUS, Conversation, load_conversations, memory_files  # noqa: E402
from bench.scoring_retrieval import Hit  # noqa: E402

CHUNK_CHARS = 1600
OVERLAP_CHARS = 320
TOP_K = 10
LABEL = "floor (FTS5, 400-token chunks)"


def chunk_lines(
    path: str, lines: Sequence[str], max_chars: int = CHUNK_CHARS, overlap_chars: int = OVERLAP_CHARS
) -> list[Hit]:
    """Line-aligned chunks of at most ``max_chars`` (a line costs its length + 1 for the newline).

    A chunk is closed when the next line would overflow it; the next chunk starts with the closed
    chunk's trailing lines that together reach ``overlap_chars``. A single line longer than
    ``max_chars`` becomes a chunk of its own (lines are never split, so text lines map 1:1 to line
    numbers). Returned as ``Hit`` objects (path, start_line, end_line, text).
    """
    chunks: list[Hit] = []
    current: list[int] = []  # 0-based line indexes
    size = 0

    def close() -> None:
        chunks.append(Hit(path, current[0] + 1, current[-1] + 1, "\n".join(lines[i] for i in current)))

    for index, line in enumerate(lines):
        cost = len(line) + 1
        if current and size + cost > max_chars:
            close()
            carried: list[int] = []
            carried_size = 0
            for kept in reversed(current):
                if carried_size >= overlap_chars:
                    break
                carried.insert(0, kept)
                carried_size += len(lines[kept]) + 1
            # never carry the whole chunk: the next chunk must move forward
            if len(carried) == len(current):
                carried = carried[1:]
                carried_size -= len(lines[current[0]]) + 1
            current, size = carried, carried_size
        current.append(index)
        size += cost
    if current:
        close()
    return chunks


def fts_query(question: str) -> str:
    """Every distinct word of the question, quoted, OR'ed: ``"when" OR "did" OR ...``."""
    seen: dict[str, str] = {}
    for word in re.findall(r"\w+", question):
        seen.setdefault(word.lower(), word)
    return " OR ".join(f'"{word}"' for word in seen.values())


class FloorIndex:
    """An in-memory FTS5 index of one workspace's memory files."""

    def __init__(self, root: Path) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute(
            "CREATE VIRTUAL TABLE chunks USING fts5("
            "text, path UNINDEXED, start_line UNINDEXED, end_line UNINDEXED, tokenize='unicode61')"
        )
        rows = []
        for rel, absolute in memory_files(root):
            lines = absolute.read_text(encoding="utf-8").split("\n")
            if lines and lines[-1] == "":
                lines.pop()  # the final newline does not start a line
            rows.extend((c.text, c.path, c.start_line, c.end_line) for c in chunk_lines(rel, lines))
        self.db.executemany("INSERT INTO chunks(text, path, start_line, end_line) VALUES (?, ?, ?, ?)", rows)
        self.chunk_count = len(rows)

    def search(self, question: str, k: int = TOP_K) -> list[Hit]:
        match = fts_query(question)
        if not match:
            return []
        cur = self.db.execute(
            "SELECT path, start_line, end_line, text FROM chunks WHERE chunks MATCH ? ORDER BY bm25(chunks) LIMIT ?",
            (match, k),
        )
        return [Hit(path, start, end, text) for path, start, end, text in cur]


def run_floor(conversations: Sequence[Conversation], k: int = TOP_K) -> dict[str, list[Hit]]:
    """Query id -> ranked hits, for every query of every conversation."""
    results: dict[str, list[Hit]] = {}
    for conv in conversations:
        index = FloorIndex(conv.workspace)
        for query in conv.queries:
            results[query.id] = index.search(query.question, k)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    from bench.report import evaluate, markdown_tables, write_json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="locomo-dev folder")
    parser.add_argument("--json", type=Path, help="also write the scores to this JSON file")
    args = parser.parse_args(argv)
    conversations = load_conversations(args.corpus)
    systems = {LABEL: evaluate(conversations, run_floor(conversations))}
    print(markdown_tables(systems))
    if args.json:
        write_json(args.json, {"corpus": str(args.corpus), "systems": systems})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
