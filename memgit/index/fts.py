"""FTS5's own statistics of the index's `chunks_fts` table, read through SQL: per-phrase BM25
scores, the row and token totals and per-row lengths bm25() divides by, and the tokens FTS5's
tokenizer makes of words (through scratch tables in the temp schema). Warm searchers keep BM25
scores per word out of these (memgit.index.bm25_terms); the table itself is written with the
chunks, by `Store`.

Every method runs on the store's one connection, in whatever transaction the caller holds, so
statistics and scores read inside one `Store.snapshot_read` belong to one state of the index.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memgit.core.text import fts_text

if TYPE_CHECKING:
    import numpy as np


class FtsStats:
    """The FTS table's statistics and tokenizer, on the index connection (`Store.fts`)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self._vocab_ready = False

    def bm25_phrase(self, match: str) -> tuple[np.ndarray, np.ndarray]:
        """(chunk ids, scores) of every chunk matching one quoted phrase, unordered and unlimited.

        FTS5's bm25() is a sum over the query's phrases of a term that depends only on the
        phrase (its idf over the whole table) and the row (its count there, the row's length):
        the score of a one-phrase query is exactly that phrase's share of any OR query's score,
        so warm searchers can keep these per word and add them up (memgit.index.bm25_terms).
        """
        import itertools

        import numpy as np

        rows = self.conn.execute("SELECT rowid, -bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH ?", (match,))
        flat = np.fromiter(itertools.chain.from_iterable(rows), dtype=np.float64).reshape(-1, 2)
        return flat[:, 0].astype(np.int64), np.ascontiguousarray(flat[:, 1])

    def row_count(self) -> int:
        """Rows in the FTS table as its bm25() counts them: the first varint of FTS5's
        averages record (read in the caller's transaction; no scan)."""
        row = self.conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
        return _sqlite_varint(bytes(row[0])) if row and row[0] else 0

    def state(self) -> bytes:
        """Bytes that change whenever the FTS5 index does: its averages record (row and token
        totals) and its structure record (segments and write counter), read in the caller's
        transaction. Per-phrase scores cached under one state are valid only while it holds."""
        rows = self.conn.execute("SELECT id, block FROM chunks_fts_data WHERE id IN (1, 10) ORDER BY id")
        return b"".join(bytes(block) for _, block in rows)

    def totals(self) -> tuple[int, int]:
        """(rows, tokens) of the FTS table as bm25() reads them (its average row length is
        tokens / rows): FTS5's averages record, in the caller's transaction."""
        row = self.conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
        if not row or not row[0]:
            return 0, 0
        rows, tokens = _sqlite_varints(bytes(row[0]), 2)
        return rows, tokens

    def last_row(self) -> int:
        """The highest row id in the FTS table (0 when empty)."""
        row = self.conn.execute("SELECT max(id) FROM chunks_fts_docsize").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def row_lengths(self) -> tuple[np.ndarray, np.ndarray]:
        """(row ids ascending, tokens in each row) of the FTS table: FTS5's own per-row sizes,
        which bm25() divides by the average."""
        import numpy as np

        rows = self.conn.execute("SELECT id, sz FROM chunks_fts_docsize ORDER BY id").fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        sizes = np.fromiter((_sqlite_varint(bytes(r[1])) for r in rows), dtype=np.int64, count=len(rows))
        return ids, sizes

    def chunk_token_counts(self, ids: Sequence[int]) -> dict[int, dict[str, int]]:
        """How often each index token occurs in each of these chunks, tokenized exactly as the
        FTS table tokenized them (its scratch twin in the temp schema)."""
        self._ensure_vocab()
        counts: dict[int, dict[str, int]] = {}
        ids = list(ids)
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            marks = ",".join("?" * len(batch))
            texts = self.conn.execute(f"SELECT id, text FROM chunks WHERE id IN ({marks})", batch).fetchall()
            self.conn.execute("DELETE FROM temp.query_tokens")
            self.conn.executemany(
                "INSERT INTO temp.query_tokens (rowid, body) VALUES (?, ?)", [(i, fts_text(t)) for i, t in texts]
            )
            for doc, term, n in self.conn.execute(
                "SELECT doc, term, count(*) FROM temp.query_token_rows GROUP BY doc, term"
            ):
                counts.setdefault(int(doc), {})[str(term)] = int(n)
        self.conn.execute("DELETE FROM temp.query_tokens")
        return counts

    def _ensure_vocab(self) -> None:
        if not self._vocab_ready:
            self.conn.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_tokens USING fts5 "
                "(body, tokenize = 'porter unicode61 remove_diacritics 2')"
            )
            self.conn.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_token_rows USING fts5vocab(temp, query_tokens, instance)"
            )
            self.conn.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunk_terms USING fts5vocab(main, chunks_fts, row)"
            )
            self._vocab_ready = True

    def tokens(self, words: Sequence[str]) -> dict[str, str]:
        """The one index token each word becomes after FTS5's own tokenizer (porter stemming
        included): the words go through a scratch FTS5 table in the temp schema. Words that make
        no token or several are left out."""
        self._ensure_vocab()
        words = list(words)
        self.conn.execute("DELETE FROM temp.query_tokens")
        self.conn.executemany("INSERT INTO temp.query_tokens (rowid, body) VALUES (?, ?)", list(enumerate(words)))
        tokens: dict[int, list[str]] = {}
        for doc, token in self.conn.execute("SELECT doc, term FROM temp.query_token_rows"):
            tokens.setdefault(int(doc), []).append(token)
        return {word: found[0] for index, word in enumerate(words) if len(found := tokens.get(index, [])) == 1}

    def term_document_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """How many chunks contain each query word, as FTS5 counts them after its tokenizer."""
        out: dict[str, int] = {}
        for word, token in self.tokens(terms).items():
            row = self.conn.execute("SELECT doc FROM temp.chunk_terms WHERE term = ?", (token,)).fetchone()
            out[word] = int(row[0]) if row else 0
        return out

    def frequent_tokens(self, limit: int) -> list[tuple[str, int]]:
        """(index token, chunks holding it), the most widespread first: the words whose BM25
        scores cost most to compute."""
        self._ensure_vocab()
        rows = self.conn.execute("SELECT term, doc FROM temp.chunk_terms ORDER BY doc DESC LIMIT ?", (limit,))
        return [(str(term), int(doc)) for term, doc in rows]


def _sqlite_varints(data: bytes, count: int) -> list[int]:
    """The first `count` SQLite varints of `data`, one after another (missing ones are 0)."""
    values: list[int] = []
    at = 0
    while len(values) < count:
        value = 0
        for n in range(9):
            if at >= len(data):
                break
            byte = data[at]
            at += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        values.append(value)
    return values


def _sqlite_varint(data: bytes) -> int:
    """SQLite's varint at the start of `data`: big-endian, 7 bits a byte, the ninth byte whole."""
    value = 0
    for byte in data[:8]:
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value
    return (value << 8) | data[8] if len(data) > 8 else value
