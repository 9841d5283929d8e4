"""The one module that speaks SQL: the index database and the embedding cache.

SQLite comes from the first module that can load sqlite-vec: the standard library if it was
built with extension loading, else `sqlean` (sqlean.py), else `pysqlite3`. Without sqlite-vec
vectors still work (numpy over the cached vectors), and `doctor` says so.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from memgit.core.text import fts_text
from memgit.errors import MemgitError

if TYPE_CHECKING:
    import numpy as np

MIGRATIONS: list[tuple[str, str]] = [
    (
        "001_initial",
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE files (
            path TEXT PRIMARY KEY,
            blob TEXT NOT NULL,
            mode INTEGER NOT NULL,
            source TEXT NOT NULL,          -- 'tree' (from the indexed tree) or 'worktree'
            skipped TEXT                   -- why the file holds no chunks (binary, too large, ...)
        );
        CREATE TABLE chunks (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            text TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            day TEXT                       -- YYYY-MM-DD for dated daily logs, NULL if evergreen
        );
        CREATE INDEX chunks_path ON chunks (path);
        CREATE INDEX chunks_day ON chunks (day);
        CREATE VIRTUAL TABLE chunks_fts USING fts5 (
            body, tokenize = 'porter unicode61 remove_diacritics 2'
        );
        """,
    ),
]
SCHEMA_VERSION = len(MIGRATIONS)
CACHE_SCHEMA = """
CREATE TABLE IF NOT EXISTS cache.embeddings (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
"""


class CorruptIndex(MemgitError):
    pass


@dataclass(frozen=True)
class SqliteBackend:
    module: ModuleType
    name: str
    vec_version: str | None
    problem: str | None


_BACKEND: SqliteBackend | None = None


def backend() -> SqliteBackend:
    """Pick the SQLite module once per process (see module docstring for the order)."""
    global _BACKEND
    if _BACKEND is not None:
        return _BACKEND
    problems: list[str] = []
    fallback: ModuleType | None = None
    for name in ("sqlite3", "sqlean", "pysqlite3.dbapi2"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        fallback = fallback or module
        try:
            conn = module.connect(":memory:")
            conn.enable_load_extension(True)
            conn.load_extension(vec_extension_path())
            version = conn.execute("select vec_version()").fetchone()[0]
            conn.close()
        except AttributeError:
            problems.append(f"{name} cannot load extensions")
            continue
        except Exception as exc:  # sqlite-vec missing or failing to load
            problems.append(f"{name}: sqlite-vec did not load ({exc})")
            continue
        _BACKEND = SqliteBackend(module, name.split(".")[0], version, None)
        return _BACKEND
    assert fallback is not None
    problem = "; ".join(problems) + " - vectors fall back to numpy (pip install sqlean.py sqlite-vec)"
    _BACKEND = SqliteBackend(fallback, fallback.__name__.split(".")[0], None, problem)
    return _BACKEND


def vec_extension_path() -> str:
    """sqlite-vec's loadable library, found without importing `sqlite_vec` (which imports numpy,
    ~150 ms that a git hook should not pay)."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the sqlite-vec package is not installed")
    return str(Path(next(iter(spec.submodule_search_locations))) / "vec0")


def _vec_blob(vector: np.ndarray) -> bytes:
    import numpy as np

    return np.asarray(vector, dtype="<f4").tobytes()


class Store:
    """An open index database with the embedding cache attached."""

    def __init__(self, path: Path, cache_path: Path | None = None, *, readonly: bool = False) -> None:
        self.path = path
        self.backend = backend()
        self.readonly = readonly
        try:
            self.conn = self.backend.module.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=30
            )
            if self.backend.vec_version:
                self.conn.enable_load_extension(True)
                self.conn.load_extension(vec_extension_path())
                self.conn.enable_load_extension(False)
            self.conn.execute("PRAGMA busy_timeout = 30000")
            if not readonly:
                self.conn.execute("PRAGMA journal_mode = WAL")
                self.conn.execute("PRAGMA synchronous = NORMAL")
            if cache_path is not None:
                self.conn.execute("ATTACH DATABASE ? AS cache", (str(cache_path),))
                if not readonly:
                    self.conn.execute("PRAGMA cache.journal_mode = WAL")
                    self.conn.executescript(CACHE_SCHEMA)
            self.has_cache = cache_path is not None
            self._vocab_ready = False
            if not readonly:
                self._migrate()
            else:
                self.conn.execute("SELECT count(*) FROM meta").fetchone()
        except self.backend.module.DatabaseError as exc:
            with contextlib.suppress(Exception):
                self.conn.close()
            raise CorruptIndex(f"index database {path} is unreadable ({exc})") from None

    # -- schema ------------------------------------------------------------------------------
    def _migrate(self) -> None:
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        done = {row[0] for row in self.conn.execute("SELECT name FROM migrations")}
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(sql):
                    self.conn.execute(statement)
                self.conn.execute("INSERT INTO migrations VALUES (?, ?)", (name, time.time()))
                self.conn.execute("COMMIT")
            except Exception:
                self.conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction: all of an index update lands, or none of it."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- meta --------------------------------------------------------------------------------
    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta"))

    def set_meta(self, values: dict[str, str | None]) -> None:
        for key, value in values.items():
            if value is None:
                self.conn.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- vectors table -----------------------------------------------------------------------
    def has_vec_table(self) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'chunks_vec'"
        ).fetchone()
        return row is not None

    def reset_vectors(self, dim: int | None) -> None:
        """Drop and (if there is a model and sqlite-vec) recreate the vector table."""
        if self.has_vec_table():
            self.conn.execute("DROP TABLE chunks_vec")
        if dim and self.backend.vec_version:
            self.conn.execute(
                f"CREATE VIRTUAL TABLE chunks_vec USING vec0 "
                f"(embedding float[{int(dim)}] distance_metric=cosine)"
            )

    # -- files and chunks ----------------------------------------------------------------------
    def files(self) -> dict[str, tuple[str, int, str, str | None]]:
        rows = self.conn.execute("SELECT path, blob, mode, source, skipped FROM files")
        return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}

    def file_sources(self, paths: Sequence[str]) -> list[tuple[str, str, str]]:
        """(path, blob, source) of the given files only: search needs a handful, not all."""
        wanted = list(dict.fromkeys(paths))
        rows = self.conn.execute(
            "SELECT path, blob, source FROM files WHERE path IN (SELECT value FROM json_each(?))",
            (json.dumps(wanted),),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def worktree_paths(self) -> list[str]:
        return [row[0] for row in self.conn.execute("SELECT path FROM files WHERE source = 'worktree'")]

    def clear_all(self) -> None:
        self.conn.execute("DELETE FROM files")
        self.conn.execute("DELETE FROM chunks")
        self.conn.execute("DELETE FROM chunks_fts")

    def delete_path(self, path: str) -> list[int]:
        """Remove a file and its chunks; returns the chunk ids removed."""
        ids = [row[0] for row in self.conn.execute("SELECT id FROM chunks WHERE path = ?", (path,))]
        if ids:
            self._delete_ids(ids)
        self.conn.execute("DELETE FROM files WHERE path = ?", (path,))
        return ids

    def _delete_ids(self, ids: Sequence[int]) -> None:
        vec = self.has_vec_table()
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            marks = ",".join("?" * len(batch))
            self.conn.execute(f"DELETE FROM chunks WHERE id IN ({marks})", batch)
            self.conn.execute(f"DELETE FROM chunks_fts WHERE rowid IN ({marks})", batch)
            if vec:
                self.conn.execute(f"DELETE FROM chunks_vec WHERE rowid IN ({marks})", batch)

    def put_file(self, path: str, blob: str, mode: int, source: str, skipped: str | None) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)", (path, blob, mode, source, skipped)
        )

    def add_chunks(
        self,
        path: str,
        day: str | None,
        chunks: Iterable[tuple[int, int, str, str]],
        vectors: dict[str, bytes] | None,
    ) -> list[tuple[int, str]]:
        """Insert chunks (and their vectors); returns (chunk id, text hash) pairs."""
        vec = vectors is not None and self.has_vec_table()
        added: list[tuple[int, str]] = []
        for start, end, text, thash in chunks:
            cur = self.conn.execute(
                "INSERT INTO chunks (path, start_line, end_line, text, text_hash, day) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (path, start, end, text, thash, day),
            )
            rowid = cur.lastrowid
            self.conn.execute("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)", (rowid, fts_text(text)))
            if vec and vectors is not None and thash in vectors:
                self.conn.execute(
                    "INSERT INTO chunks_vec (rowid, embedding) VALUES (?, ?)", (rowid, vectors[thash])
                )
            added.append((int(rowid), thash))
        return added

    # -- embedding cache ---------------------------------------------------------------------
    def cached_vectors(self, model: str, hashes: Iterable[str]) -> dict[str, bytes]:
        if not self.has_cache:
            return {}
        wanted = list(dict.fromkeys(hashes))
        found: dict[str, bytes] = {}
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            rows = self.conn.execute(
                f"SELECT text_hash, vector FROM cache.embeddings WHERE model = ? AND text_hash IN ({marks})",
                [model, *batch],
            )
            found.update({row[0]: bytes(row[1]) for row in rows})
        return found

    def cache_vectors(self, model: str, items: dict[str, np.ndarray]) -> None:
        """Commit a batch of fresh embeddings at once, so an interrupted run resumes from here."""
        if not self.has_cache or not items:
            return
        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO cache.embeddings VALUES (?, ?, ?)",
                [(model, h, _vec_blob(v)) for h, v in items.items()],
            )

    # -- queries -----------------------------------------------------------------------------
    def bm25(self, match: str, limit: int, where: str = "", params: Sequence[Any] = ()) -> list[tuple[int, float]]:
        sql = (
            "SELECT chunks_fts.rowid, bm25(chunks_fts) AS r FROM chunks_fts "
            + ("JOIN chunks c ON c.id = chunks_fts.rowid " if where else "")
            + "WHERE chunks_fts MATCH ? "
            + (f"AND {where} " if where else "")
            + "ORDER BY r LIMIT ?"
        )
        rows = self.conn.execute(sql, [match, *params, limit])
        return [(int(row[0]), -float(row[1])) for row in rows]

    def term_document_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """How many chunks contain each query word, as FTS5 counts them after its own tokenizer
        (porter stemming included): the words go through a scratch FTS5 table in the temp schema
        and are looked up in an fts5vocab view of the index."""
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
        words = list(terms)
        self.conn.execute("DELETE FROM temp.query_tokens")
        self.conn.executemany(
            "INSERT INTO temp.query_tokens (rowid, body) VALUES (?, ?)", list(enumerate(words))
        )
        tokens: dict[int, list[str]] = {}
        for doc, token in self.conn.execute("SELECT doc, term FROM temp.query_token_rows"):
            tokens.setdefault(int(doc), []).append(token)
        out: dict[str, int] = {}
        for index, word in enumerate(words):
            found = tokens.get(index, [])
            if len(found) != 1:
                continue
            row = self.conn.execute("SELECT doc FROM temp.chunk_terms WHERE term = ?", (found[0],)).fetchone()
            out[word] = int(row[0]) if row else 0
        return out

    def chunk_total(self) -> int:
        meta = self.meta()
        if "chunk_count" in meta:
            return int(meta["chunk_count"])
        return int(self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0])

    def knn(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Nearest chunks by cosine similarity (vec0 when present, numpy over the cache otherwise)."""
        if self.has_vec_table():
            rows = self.conn.execute(
                "SELECT rowid, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance",
                (_vec_blob(query), k),
            )
            return [(int(row[0]), 1.0 - float(row[1])) for row in rows]
        return self.similarities(query, None, k)

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

    def vectors_for(self, ids: Sequence[int] | None, model: str | None = None) -> list[tuple[int, bytes]]:
        """Vectors of chunks. A handful by id come from the cache (B-tree lookups): vec0 answers
        `rowid IN (...)` by scanning, ~80 ms at 100k rows."""
        if self.has_vec_table() and (ids is None or not self.has_cache):
            if ids is None:
                return [(int(r[0]), bytes(r[1])) for r in self.conn.execute("SELECT rowid, embedding FROM chunks_vec")]
            out: list[tuple[int, bytes]] = []
            for start in range(0, len(ids), 500):
                batch = list(ids[start : start + 500])
                marks = ",".join("?" * len(batch))
                rows = self.conn.execute(
                    f"SELECT rowid, embedding FROM chunks_vec WHERE rowid IN ({marks})", batch
                )
                out.extend((int(r[0]), bytes(r[1])) for r in rows)
            return out
        if not self.has_cache:
            return []
        model = model or self.meta().get("model_id", "")
        sql = (
            "SELECT c.id, e.vector FROM chunks c JOIN cache.embeddings e "
            "ON e.model = ? AND e.text_hash = c.text_hash"
        )
        if ids is None:
            return [(int(r[0]), bytes(r[1])) for r in self.conn.execute(sql, (model,))]
        out = []
        for start in range(0, len(ids), 500):
            batch = list(ids[start : start + 500])
            marks = ",".join("?" * len(batch))
            rows = self.conn.execute(sql + f" WHERE c.id IN ({marks})", [model, *batch])
            out.extend((int(r[0]), bytes(r[1])) for r in rows)
        return out

    def chunk_rows(self, ids: Sequence[int]) -> dict[int, tuple[str, int, int, str, str | None]]:
        out: dict[int, tuple[str, int, int, str, str | None]] = {}
        for start in range(0, len(ids), 500):
            batch = list(ids[start : start + 500])
            marks = ",".join("?" * len(batch))
            rows = self.conn.execute(
                f"SELECT id, path, start_line, end_line, text, day FROM chunks WHERE id IN ({marks})", batch
            )
            out.update({int(r[0]): (r[1], r[2], r[3], r[4], r[5]) for r in rows})
        return out

    def chunk_ids_where(self, where: str, params: Sequence[Any]) -> list[int]:
        return [int(r[0]) for r in self.conn.execute(f"SELECT c.id FROM chunks c WHERE {where}", params)]

    def counts(self) -> dict[str, int]:
        one = self.conn.execute
        counts = {
            "files": one("SELECT count(*) FROM files").fetchone()[0],
            "chunks": one("SELECT count(*) FROM chunks").fetchone()[0],
            "vectors": one("SELECT count(*) FROM chunks_vec").fetchone()[0] if self.has_vec_table() else 0,
        }
        if self.has_cache:
            counts["cached_embeddings"] = one("SELECT count(*) FROM cache.embeddings").fetchone()[0]
        return counts

    def snapshot(self) -> dict[str, Any]:
        """Everything that must match between an incremental index and a full rebuild."""
        files = sorted(self.conn.execute("SELECT path, blob, mode, source, skipped FROM files"))
        chunks = sorted(self.conn.execute("SELECT path, start_line, end_line, text_hash, day FROM chunks"))
        fts_bad = self.conn.execute(
            "SELECT count(*) FROM chunks c LEFT JOIN chunks_fts f ON f.rowid = c.id WHERE f.rowid IS NULL"
        ).fetchone()[0]
        fts_count = self.conn.execute("SELECT count(*) FROM chunks_fts").fetchone()[0]
        vec: list[tuple[Any, ...]] = []
        if self.has_vec_table():
            rows = self.conn.execute(
                "SELECT c.path, c.start_line, c.end_line, v.embedding FROM chunks c "
                "JOIN chunks_vec v ON v.rowid = c.id"
            )
            vec = sorted((r[0], r[1], r[2], bytes(r[3])) for r in rows)
        return {
            "files": files,
            "chunks": chunks,
            "fts_missing": fts_bad,
            "fts_rows": fts_count,
            "vectors": vec,
        }


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip() and not s.strip().startswith("--")]
