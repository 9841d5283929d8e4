"""The embedding cache (`embed-cache.sqlite`): one float32 vector per (model, text hash),
kept across rebuilds so that no text is embedded twice.

It is a database of its own, attached to the index connection as `cache`: reads that pair chunks
with their vectors run there, in the index's transaction, so they see one state of both. A
writer commits fresh embeddings on a second connection of its own, batch by batch, while the
index's write transaction stays open (an interrupted build resumes without re-embedding).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

#: A chunk whose vector is published (in the vector files and the vec0 table): not pending.
PUBLISHED = "c.id NOT IN (SELECT id FROM pending)"

CACHE_SCHEMA = """
CREATE TABLE IF NOT EXISTS cache.embeddings (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class CachedVectors:
    """The cached vectors of an index's chunks: `ids` ascending, `hashes[i]` and `matrix[i]`
    the text hash and vector of chunk `ids[i]`."""

    ids: np.ndarray
    hashes: list[str]
    matrix: np.ndarray

    def __len__(self) -> int:
        return len(self.hashes)

    def row(self, chunk_id: int) -> np.ndarray | None:
        """The vector of one chunk (None: it has no cached vector)."""
        import numpy as np

        at = int(np.searchsorted(self.ids, chunk_id))
        return self.matrix[at] if at < len(self.ids) and int(self.ids[at]) == chunk_id else None


def float32_rows(cursor: Any, hashes: list[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(ids, float32 matrix) of a cursor's rows (id, [text hash,] vector blob), read a batch at
    a time: no row outlives its batch as Python objects. `hashes` collects the middle column;
    no cursor gives two empty arrays."""
    import numpy as np

    ids: list[np.ndarray] = []
    blocks: list[np.ndarray] = []
    while cursor is not None and (rows := cursor.fetchmany(8192)):
        ids.append(np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)))
        if hashes is not None:
            hashes.extend(r[1] for r in rows)
        blocks.append(np.frombuffer(b"".join(r[-1] for r in rows), dtype="<f4").reshape(len(rows), -1))
    if not ids:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype="<f4")
    return np.concatenate(ids), np.concatenate(blocks)


def attach_cache(conn: Any, target: str, *, readonly: bool) -> None:
    """Attach the cache (a path or an `immutable` URI) to the index connection as `cache`; a
    writer makes its table if it is new."""
    conn.execute("ATTACH DATABASE ? AS cache", (target,))
    if not readonly:
        conn.execute("PRAGMA cache.journal_mode = WAL")
        conn.executescript(CACHE_SCHEMA)


def _vec_blob(vector: np.ndarray) -> bytes:
    import numpy as np

    return np.asarray(vector, dtype="<f4").tobytes()


class EmbeddingCache:
    """The cache as one store sees it (`Store.cache`): attached to its connection, or absent
    (`attached` False: every read is empty and every chunk's vector pending).

    `meta` reads the index's meta table: a read asked for no model uses the index's."""

    def __init__(
        self,
        conn: Any,
        path: Path | None,
        module: ModuleType,
        meta: Callable[[], dict[str, str]],
        *,
        readonly: bool,
        busy_timeout: float,
    ) -> None:
        self.conn = conn
        self.path = path
        self.attached = path is not None
        self._module = module
        self._meta = meta
        self._readonly = readonly
        self._busy_timeout = busy_timeout
        # A writer reads and writes the cache on a connection of its own, so that embeddings are
        # committed batch by batch while the index's own write transaction stays open.
        self._own_conn: Any = None

    def close(self) -> None:
        if self._own_conn is not None:
            with contextlib.suppress(Exception):
                self._own_conn.close()

    def _writer(self) -> Any:
        """The cache's own connection (writers), or the attached cache (read-only stores)."""
        if self._readonly or self.path is None:
            return self.conn
        if self._own_conn is None:
            conn = self._module.connect(
                str(self.path), isolation_level=None, check_same_thread=False, timeout=self._busy_timeout
            )
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            self._own_conn = conn
        return self._own_conn

    # -- the cache's own table ---------------------------------------------------------------
    def get(self, model: str, hashes: Iterable[str]) -> dict[str, bytes]:
        """{text hash: vector} of the given texts that the cache holds under `model`."""
        if not self.attached:
            return {}
        conn = self._writer()
        table = "cache.embeddings" if conn is self.conn else "embeddings"
        wanted = list(dict.fromkeys(hashes))
        found: dict[str, bytes] = {}
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            rows = conn.execute(
                f"SELECT text_hash, vector FROM {table} WHERE model = ? AND text_hash IN ({marks})",
                [model, *batch],
            )
            found.update({row[0]: bytes(row[1]) for row in rows})
        return found

    def put(self, model: str, items: dict[str, np.ndarray]) -> None:
        """Commit a batch of fresh embeddings at once, so an interrupted run resumes from here
        (even while the index's own transaction is open: the cache has its own connection)."""
        if not self.attached or not items:
            return
        conn = self._writer()
        table = "cache.embeddings" if conn is self.conn else "embeddings"
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(
                f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)",
                [(model, h, _vec_blob(v)) for h, v in items.items()],
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def size(self) -> int:
        """Vectors in the cache, of every model and text (indexed or not)."""
        return int(self.conn.execute("SELECT count(*) FROM cache.embeddings").fetchone()[0])

    # -- chunks and their cached vectors (the index connection) -------------------------------
    def pending_chunks(self, limit: int | None = None, after: int = 0) -> list[tuple[int, str, str]]:
        """(id, text hash, text) of the chunks whose vector is not published yet (`pending`), ids
        above `after` ascending (at most `limit`): the fill's next batch."""
        rows = self.conn.execute(
            "SELECT c.id, c.text_hash, c.text FROM pending p JOIN chunks c ON c.id = p.id WHERE p.id > ? "
            "ORDER BY p.id LIMIT ?",
            (after, -1 if limit is None else limit),
        )
        return [(int(r[0]), r[1], r[2]) for r in rows]

    def pending_count(self, model: str | None) -> int:
        """Chunks whose vector is not published yet (none without a model)."""
        if not model:
            return 0
        return int(self.conn.execute("SELECT count(*) FROM pending").fetchone()[0])

    def first_vector_dim(self, model: str) -> int | None:
        """The dimension of any chunk's cached vector under `model` (None when none has one)."""
        if not self.attached:
            return None
        row = self.conn.execute(
            "SELECT length(e.vector) / 4 FROM chunks c JOIN cache.embeddings e "
            "ON e.model = ? AND e.text_hash = c.text_hash LIMIT 1",
            (model,),
        ).fetchone()
        return int(row[0]) if row else None

    def vector_count(self, model: str) -> int:
        """Published chunks, whose vector is in the cache (the rows the vector files hold)."""
        if not self.attached:
            return 0
        return int(
            self.conn.execute(
                "SELECT count(*) FROM chunks c JOIN cache.embeddings e ON e.model = ? AND e.text_hash = c.text_hash "
                f"WHERE {PUBLISHED}",
                (model,),
            ).fetchone()[0]
        )

    def iter_vectors(self, model: str, batch: int = 8192) -> Iterator[list[tuple[int, bytes]]]:
        """Every published (chunk id, vector), ids ascending, a batch at a time: a
        million vectors are 1.5 GB, never held at once."""
        if not self.attached:
            return
        cursor = self.conn.execute(
            "SELECT c.id, e.vector FROM chunks c JOIN cache.embeddings e "
            f"ON e.model = ? AND e.text_hash = c.text_hash WHERE {PUBLISHED} ORDER BY c.id",
            (model,),
        )
        while rows := cursor.fetchmany(batch):
            yield [(int(r[0]), bytes(r[1])) for r in rows]

    def vector_table(self, model: str) -> CachedVectors:
        """Every published chunk's cached vector under `model` (none without one), ids ascending, as
        arrays: one float32 matrix instead of a bytes object a row (23k chunks: 35 MB instead of
        twice that, and no Python object per row for `index --verify` to build and free)."""
        hashes: list[str] = []
        cursor = None
        if self.attached and model:
            cursor = self.conn.execute(
                "SELECT c.id, c.text_hash, e.vector FROM chunks c JOIN cache.embeddings e "
                f"ON e.model = ? AND e.text_hash = c.text_hash WHERE {PUBLISHED} ORDER BY c.id",
                (model,),
            )
        ids, matrix = float32_rows(cursor, hashes)
        return CachedVectors(ids, hashes, matrix)

    def vectors_for(self, ids: Sequence[int] | None, model: str | None = None) -> list[tuple[int, bytes]]:
        """(chunk id, vector) from the embedding cache, for the given chunks or all of them;
        chunks whose vector is still pending are left out."""
        if not self.attached:
            return []
        model = model or self._meta().get("model_id", "")
        if not model:
            return []
        sql = "SELECT c.id, e.vector FROM chunks c JOIN cache.embeddings e ON e.model = ? AND e.text_hash = c.text_hash"
        if ids is None:
            return [(int(r[0]), bytes(r[1])) for r in self.conn.execute(sql + " ORDER BY c.id", (model,))]
        out: list[tuple[int, bytes]] = []
        for start in range(0, len(ids), 500):
            batch = list(ids[start : start + 500])
            marks = ",".join("?" * len(batch))
            rows = self.conn.execute(sql + f" WHERE c.id IN ({marks})", [model, *batch])
            out.extend((int(r[0]), bytes(r[1])) for r in rows)
        return out

    def knn(self, query: np.ndarray, k: int, model: str | None = None) -> list[tuple[int, float]]:
        """Nearest chunks by cosine similarity: numpy over the cached vectors (the slow path,
        used only while the vector files are being rebuilt)."""
        return self.similarities(query, None, k, model)

    def similarities(
        self, query: np.ndarray, ids: Sequence[int] | None, k: int | None = None, model: str | None = None
    ) -> list[tuple[int, float]]:
        """Exact cosine similarity of the query to the given chunks (or all), best first."""
        import numpy as np

        pairs = self.vectors_for(ids, model)
        if not pairs:
            return []
        id_list = [p[0] for p in pairs]
        matrix = np.frombuffer(b"".join(p[1] for p in pairs), dtype="<f4").reshape(len(pairs), -1)
        sims = matrix @ np.asarray(query, dtype=np.float32)
        order = np.argsort(-sims)
        if k is not None:
            order = order[:k]
        return [(id_list[i], float(sims[i])) for i in order]


def open_text_cache(path: Path, module: ModuleType, busy_timeout: float) -> EmbeddingCache:
    """The cache opened on its own, with no index, for texts that are no chunk: a dream compares
    recalls, candidate lines and MEMORY.md entries night after night, mostly the same texts. The
    same table and writer as a store's; an unusable file raises `module.Error` or `OSError`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = module.connect(":memory:", isolation_level=None, check_same_thread=False, timeout=busy_timeout)
    try:
        attach_cache(conn, str(path), readonly=False)
    except BaseException:
        conn.close()
        raise
    return EmbeddingCache(conn, path, module, dict, readonly=False, busy_timeout=busy_timeout)
