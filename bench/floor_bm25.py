"""The BM25 floor: an independent reference implementation of plain FTS5 retrieval.

FTS5 (stdlib sqlite3, ``unicode61`` tokenizer) over ≈400-token chunks (1,600 characters with a
320-character overlap, line-aligned, sized at ≈4 characters per token like the reference system),
the question's words OR'ed (each quoted), ranked by ``bm25()``, top 10. Scored with the same
functions as memgit (``bench/scoring_retrieval.py``).

Run: ``.venv/bin/python bench/floor_bm25.py [--corpus PATH] [--json OUT]``.

``--sensitivity`` prints how far the floor moves under choices a floor might reasonably make
(each hit's text cut as memgit's snippets are, other chunk sizes, overlap, a stemming tokenizer,
stop words dropped), on the report split: a floor quoted from elsewhere can differ from this one
by that much without either being wrong.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import DEFAULT_CORPUS, Conversation, load_conversations, memory_files  # noqa: E402
from bench.scoring_retrieval import Hit, aggregate, score_query  # noqa: E402
from memgit.core.text import match_expression, query_terms  # noqa: E402

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


def without_stop_words(question: str) -> str | None:
    """memgit's own query words (stop words dropped), OR'ed: a sensitivity variant."""
    return match_expression(query_terms(question))


class FloorIndex:
    """An in-memory FTS5 index of one workspace's memory files."""

    def __init__(
        self,
        root: Path,
        chunk_chars: int = CHUNK_CHARS,
        overlap_chars: int = OVERLAP_CHARS,
        tokenize: str = "unicode61",
        query: Callable[[str], str | None] = fts_query,
        cut: int | None = None,
    ) -> None:
        self.query = query
        self.cut = cut
        self.db = sqlite3.connect(":memory:")
        self.db.execute(
            "CREATE VIRTUAL TABLE chunks USING fts5("
            f"text, path UNINDEXED, start_line UNINDEXED, end_line UNINDEXED, tokenize='{tokenize}')"
        )
        rows = []
        for rel, absolute in memory_files(root):
            lines = absolute.read_text(encoding="utf-8").split("\n")
            if lines and lines[-1] == "":
                lines.pop()  # the final newline does not start a line
            chunks = chunk_lines(rel, lines, chunk_chars, overlap_chars)
            rows.extend((c.text, c.path, c.start_line, c.end_line) for c in chunks)
        self.db.executemany("INSERT INTO chunks(text, path, start_line, end_line) VALUES (?, ?, ?, ?)", rows)

    def search(self, question: str, k: int = TOP_K) -> list[Hit]:
        match = self.query(question)
        if not match:
            return []
        cur = self.db.execute(
            "SELECT path, start_line, end_line, text FROM chunks WHERE chunks MATCH ? ORDER BY bm25(chunks) LIMIT ?",
            (match, k),
        )
        return [Hit(path, start, end, text[: self.cut]) for path, start, end, text in cur]


def run_floor(conversations: Sequence[Conversation], k: int = TOP_K, **options: Any) -> dict[str, list[Hit]]:
    """Query id -> ranked hits, for every query of every conversation (``options``: FloorIndex's)."""
    results: dict[str, list[Hit]] = {}
    for conv in conversations:
        index = FloorIndex(conv.workspace, **options)
        for query in conv.queries:
            results[query.id] = index.search(query.question, k)
    return results


SENSITIVITY: tuple[tuple[str, dict[str, Any]], ...] = (
    ("this floor (1,600/320 characters, unicode61, every question word)", {}),
    ("each hit's text cut to 700 characters (memgit's snippet)", {"cut": 700}),
    ("each hit's text cut to 1,000 characters", {"cut": 1000}),
    ("no overlap", {"overlap_chars": 0}),
    ("chunks of 1,200 / 240 characters", {"chunk_chars": 1200, "overlap_chars": 240}),
    ("chunks of 2,000 / 400 characters", {"chunk_chars": 2000, "overlap_chars": 400}),
    ("porter stemming", {"tokenize": "porter unicode61"}),
    ("stop words dropped (memgit's query words)", {"query": without_stop_words}),
)


def sensitivity(conversations: Sequence[Conversation]) -> str:
    """A Markdown table: the floor's micro budget recall and budget hit under each variant."""
    out = [
        "| floor variant | micro @2,000 | micro @4,000 | micro @8,000 | hit @4,000 |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, options in SENSITIVITY:
        results = run_floor(conversations, **options)
        rows = [(q.category, score_query(results[q.id], q.evidence)) for c in conversations for q in c.queries]
        overall = aggregate(rows)["overall"]
        cells = [f"{overall[f'budget_micro@{c}']:.3f}" for c in (2000, 4000, 8000)]
        out.append(f"| {label} | " + " | ".join(cells) + f" | {overall['budget_hit@4000']:.3f} |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    from bench.report import evaluate, markdown_tables, write_json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="locomo-dev folder")
    parser.add_argument("--json", type=Path, help="also write the scores to this JSON file")
    parser.add_argument(
        "--sensitivity", action="store_true", help="how far the floor moves under other reasonable choices"
    )
    parser.add_argument("--convs", default="locomo-c2,locomo-c3", help="conversations for --sensitivity")
    args = parser.parse_args(argv)
    if args.sensitivity:
        print(sensitivity(load_conversations(args.corpus, args.convs.split(","))))
        return 0
    conversations = load_conversations(args.corpus)
    systems = {LABEL: evaluate(conversations, run_floor(conversations))}
    print(markdown_tables(systems))
    if args.json:
        write_json(args.json, {"corpus": str(args.corpus), "systems": systems})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
