"""The index's vec0 face: `chunks_vec`, a sqlite-vec table holding one float32 row per chunk
whose vector is published (cached, and not `pending`) (rowid = chunk id, cosine distance), written in the index update's own
transaction so that a user's SQLite client sees chunks, FTS rows and vectors in one state
(docs/SQL.md). Search never needs it (the memory-mapped vector files serve vectors in every
process); it is the index's open SQL face and `index --verify`'s exact oracle.

A process that cannot load sqlite-vec leaves the table behind: the changed chunk ids wait in
`vec_todo` (or `meta.vec_state` says the whole table is due) for the next process that can.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from memgit.index.cache import EmbeddingCache

#: The vec0 table: one row per chunk vector (rowid = chunks.id), float32, cosine distance.
VEC_TABLE = "chunks_vec"


def sqlite_vec_path() -> str | None:
    """The sqlite-vec library without importing its package (which imports numpy: ~120 ms)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("sqlite_vec")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return os.path.join(os.path.dirname(spec.origin), "vec0")


def load_sqlite_vec(conn: Any) -> bool:
    """Load sqlite-vec into `conn`; False when this module or install cannot (never raises)."""
    path = sqlite_vec_path()
    if path is None or not hasattr(conn, "enable_load_extension"):
        return False
    try:
        conn.enable_load_extension(True)
        try:
            conn.load_extension(path)
        finally:
            conn.enable_load_extension(False)
        conn.execute("SELECT vec_version()").fetchone()
    except Exception:
        return False
    return True


class Vec0:
    """The vec0 table of one store (`Store.vec`), on its connection and in its transactions.

    `cache` pairs chunks with their cached vectors; `set_meta` writes the index's meta rows
    (`vec_state`, `vec_dim`) in the caller's transaction."""

    def __init__(self, conn: Any, cache: EmbeddingCache, set_meta: Callable[[dict[str, str | None]], None]) -> None:
        self.conn = conn
        self.cache = cache
        self.set_meta = set_meta
        self.loaded = False  # sqlite-vec loaded into this connection (`enable`)

    def enable(self) -> bool:
        """Load sqlite-vec into this connection (once); False when it cannot load here."""
        if not self.loaded:
            self.loaded = load_sqlite_vec(self.conn)
        return self.loaded

    def dim(self) -> int | None:
        """The dimension of the vec0 table, or None when the index has none."""
        row = self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (VEC_TABLE,)).fetchone()
        value = self.conn.execute("SELECT value FROM meta WHERE key = 'vec_dim'").fetchone()
        return int(value[0]) if row and value else None

    def waiting(self) -> bool:
        """True when the vec0 table is behind the chunks (a process without sqlite-vec changed
        them, or the table is still to be made for vectors the index has)."""
        state = self.conn.execute("SELECT value FROM meta WHERE key = 'vec_state'").fetchone()
        if state and state[0] in ("pending", "rebuild"):
            return True
        model = self.conn.execute("SELECT value FROM meta WHERE key = 'model_id'").fetchone()
        return bool(model and model[0]) and self.dim() is None and self.cache.first_vector_dim(model[0]) is not None

    def matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """Every row of the table as (rowids ascending, float32 matrix); empty without the table."""
        from memgit.index.cache import float32_rows

        cursor = None
        if self.dim() is not None:
            cursor = self.conn.execute(f"SELECT rowid, embedding FROM {VEC_TABLE} ORDER BY rowid")
        return float32_rows(cursor)

    def sync(self, model: str | None, changed: Iterable[int], *, reset: bool) -> str:
        """Bring the vec0 table in line with the chunks' cached vectors, inside the caller's
        transaction: it holds exactly one float32 row per chunk whose vector is in the cache.

        `changed`: chunk ids removed, added or given a vector by this update; `reset`: every
        chunk was rewritten (a rebuild). Without sqlite-vec the ids wait in `vec_todo` (or the
        whole table is marked for a refill) for the next process that loads it, and nothing
        else waits. Returns the table's state: "synced", "pending" or "rebuild"."""
        meta = dict(self.conn.execute("SELECT key, value FROM meta WHERE key IN ('vec_state', 'vec_dim')"))
        state = meta.get("vec_state") or "synced"
        if not self.loaded:
            has_table = "vec_dim" in meta
            if reset or model is None:
                self.conn.execute("DELETE FROM vec_todo")
                state = "rebuild" if has_table or state != "synced" else "synced"
            elif state != "rebuild" and (has_table or state == "pending"):
                self.conn.executemany("INSERT OR IGNORE INTO vec_todo VALUES (?)", ((i,) for i in changed))
                state = "pending"
            self.set_meta({"vec_state": None if state == "synced" else state})
            return state
        table_dim = self.dim()
        if model is None:
            if table_dim is not None or "vec_dim" in meta:
                self.conn.execute(f"DROP TABLE IF EXISTS {VEC_TABLE}")
            self.conn.execute("DELETE FROM vec_todo")
            self.set_meta({"vec_state": None, "vec_dim": None})
            return "synced"
        if reset or state == "rebuild" or table_dim is None:
            self._refill(model, table_dim)
            return "synced"
        ids = set(changed)
        ids.update(int(r[0]) for r in self.conn.execute("SELECT id FROM vec_todo"))
        if ids:
            ordered = sorted(ids)
            self.conn.executemany(f"DELETE FROM {VEC_TABLE} WHERE rowid = ?", ((i,) for i in ordered))
            for start in range(0, len(ordered), 500):
                self.conn.execute(
                    f"INSERT INTO {VEC_TABLE} (rowid, embedding) SELECT c.id, e.vector FROM chunks c "
                    "JOIN cache.embeddings e ON e.model = ? AND e.text_hash = c.text_hash "
                    "WHERE c.id IN (SELECT value FROM json_each(?)) AND length(e.vector) = ? "
                    "AND c.id NOT IN (SELECT id FROM pending)",
                    (model, json.dumps(ordered[start : start + 500]), table_dim * 4),
                )
            self.conn.execute("DELETE FROM vec_todo")
        self.set_meta({"vec_state": None})
        return "synced"

    def _refill(self, model: str, table_dim: int | None) -> None:
        """Every row again, straight from the cache in SQL (nothing passes through Python)."""
        dim = self.cache.first_vector_dim(model)
        # Dropped and made again, never emptied row by row (a vec0 DELETE is one row at a time).
        if (
            table_dim is not None
            or self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (VEC_TABLE,)).fetchone()
        ):
            self.conn.execute(f"DROP TABLE {VEC_TABLE}")
        if dim is not None:
            self.conn.execute(
                f"CREATE VIRTUAL TABLE {VEC_TABLE} USING vec0(embedding float[{dim}] distance_metric=cosine)"
            )
            self.conn.execute(
                f"INSERT INTO {VEC_TABLE} (rowid, embedding) SELECT c.id, e.vector FROM chunks c "
                "JOIN cache.embeddings e ON e.model = ? AND e.text_hash = c.text_hash "
                "WHERE length(e.vector) = ? AND c.id NOT IN (SELECT id FROM pending) ORDER BY c.id",
                (model, dim * 4),
            )
        self.conn.execute("DELETE FROM vec_todo")
        self.set_meta({"vec_state": None, "vec_dim": None if dim is None else str(dim)})

    def knn(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """sqlite-vec's exact KNN over the vec0 table: (chunk id, cosine similarity), best first."""
        import numpy as np

        rows = self.conn.execute(
            f"SELECT rowid, distance FROM {VEC_TABLE} WHERE embedding MATCH ? AND k = ? ORDER BY distance",
            (np.asarray(query, dtype="<f4").tobytes(), k),
        )
        return [(int(r[0]), 1.0 - float(r[1])) for r in rows]
