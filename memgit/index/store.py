"""The one module that speaks SQL: the index database and the embedding cache.

The index holds files, chunks and FTS5 rows; a chunk's vector lives in the embedding cache,
keyed by (model, text hash), and the memory-mapped vector files (`vectors.py`) are derived from
it. Nothing in the database depends on an optional extension, so every process reads and writes
the same index whether or not sqlite-vec loads (`doctor` still reports sqlite-vec for tools that
want it). SQLite comes from the first module with FTS5: the standard library, else `sqlean`
(sqlean.py), else `pysqlite3`.

Chunk ids come from AUTOINCREMENT and are never reused, and the database carries a random
`index_id` made when it is created: a (index_id, chunk id) pair names one chunk text forever,
which is what lets vector files and long-running readers never pair a vector with other text.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from memgit.core.paths import path_from_key, path_key
from memgit.core.text import fts_text
from memgit.errors import MemgitError
from memgit.index.filter_sql import Filter, where_sql

if TYPE_CHECKING:
    import numpy as np

#: Schema migrations, append-only. `002_integrity` replaced the first schema (chunk ids reused,
#: a vec0 table only some processes could open): a database with `001_initial` is not migrated
#: but recreated, since the index is derived and vec0 tables cannot be dropped without vec0.
MIGRATIONS: list[tuple[str, str]] = [
    (
        "002_integrity",
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
            id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, even after a full rebuild
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
    (
        # Chunk ids whose row in the vec0 table `chunks_vec` is out of date because the process
        # that changed them could not load sqlite-vec; the next one that can brings them in.
        "003_vec_todo",
        """
        CREATE TABLE vec_todo (id INTEGER PRIMARY KEY);
        """,
    ),
    (
        # A piece of a line too long for one chunk: its character range in that line (NULL for
        # chunks of whole lines).
        "004_char_ranges",
        """
        ALTER TABLE chunks ADD COLUMN start_char INTEGER;
        ALTER TABLE chunks ADD COLUMN end_char INTEGER;
        """,
    ),
]
#: The vec0 table: one row per chunk vector (rowid = chunks.id), float32, cosine distance.
VEC_TABLE = "chunks_vec"
SCHEMA_VERSION = 2
RETIRED_MIGRATIONS = frozenset({"001_initial"})
CACHE_SCHEMA = """
CREATE TABLE IF NOT EXISTS cache.embeddings (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
"""


class CorruptIndex(MemgitError):
    """The file is not a usable SQLite database (or fails `quick_check`): rebuilding is the fix."""


class RetiredSchema(CorruptIndex):
    """An index written by an older memgit whose schema is not migrated but rebuilt."""


class IndexUnavailable(MemgitError):
    """SQLite failed for a reason a rebuild would not fix (locked, I/O, disk full, permissions).

    The index is kept as it is; the message says what went wrong and what to do.
    """


#: Phrases of SQLite errors that mean the file itself is damaged or not a database.
_CORRUPTION_MARKERS = ("not a database", "malformed", "file is encrypted", "database corrupt", "disk image")


def is_corruption(exc: BaseException) -> bool:
    """True only for errors a rebuild fixes; locked/busy/full/readonly/I-O errors are not."""
    text = str(exc).lower()
    return any(marker in text for marker in _CORRUPTION_MARKERS)


def describe_sqlite_error(path: Path, exc: BaseException) -> str:
    """One line for an SQLite failure that is not corruption, with the fix."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return f"the index {path} is locked by another process ({exc}); try again in a moment"
    if "full" in text:
        return f"the disk holding {path} is full ({exc}); free some space and run `memgit index` again"
    if "readonly" in text or "read-only" in text or "permission" in text or "access" in text:
        return f"cannot write the index {path} ({exc}); check the permissions of {path.parent}"
    if "unable to open" in text:
        return f"cannot open the index {path} ({exc}); check that {path.parent} exists and is writable"
    return f"the index {path} could not be used ({exc}); it was kept as it is"


@dataclass(frozen=True)
class SqliteBackend:
    module: ModuleType
    name: str
    loads_extensions: bool = False


_BACKEND: SqliteBackend | None = None
#: sqlean first: where it is installed (a dependency everywhere but Windows) it is the answer,
#: and probing the standard module first cost every process ~1.4 ms of importing it for nothing.
_MODULES = ("sqlean", "sqlite3", "pysqlite3.dbapi2")


def backend() -> SqliteBackend:
    """Pick the SQLite module once per process: the first whose SQLite has FTS5 and can load
    extensions (sqlite-vec writes the vec0 table), else the first with FTS5.

    This machine's standard `sqlite3` has FTS5 but no `enable_load_extension`; sqlean.py can
    load extensions, imports as fast, and its newer SQLite ran the BM25 queries ~8 % faster.
    `doctor` says which module is in use.
    """
    global _BACKEND
    if _BACKEND is not None:
        return _BACKEND
    fallback: ModuleType | None = None
    with_fts: SqliteBackend | None = None
    failures: list[str] = []
    for name in _MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            failures.append(f"{name}: {exc}")
            continue
        fallback = fallback or module
        try:
            conn = module.connect(":memory:")
            conn.execute("CREATE VIRTUAL TABLE probe USING fts5 (body)")
            loads = hasattr(conn, "enable_load_extension")
            conn.close()
        except Exception:
            continue
        found = SqliteBackend(module, name.split(".")[0], loads)
        if loads:
            _BACKEND = found
            return _BACKEND
        with_fts = with_fts or found
    if with_fts is not None:
        _BACKEND = with_fts
        return _BACKEND
    if fallback is None:
        raise IndexUnavailable(f"no SQLite module can be imported ({'; '.join(failures)}); pip install sqlean.py")
    _BACKEND = SqliteBackend(fallback, fallback.__name__.split(".")[0])
    return _BACKEND


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


def vec_status() -> tuple[str | None, str | None]:
    """(sqlite-vec version, problem): whether this process can load sqlite-vec, and so keep the
    vec0 table of the index filled (`memgit doctor` reports it)."""
    if sqlite_vec_path() is None:
        return None, "the sqlite-vec package is not installed (pip install sqlite-vec)"
    problems: list[str] = []
    for name in _MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        try:
            conn = module.connect(":memory:")
        except Exception:
            continue
        try:
            if not hasattr(conn, "enable_load_extension"):
                problems.append(f"{name} cannot load extensions")
                continue
            if load_sqlite_vec(conn):
                return str(conn.execute("SELECT vec_version()").fetchone()[0]), None
            problems.append(f"{name}: sqlite-vec did not load")
        finally:
            conn.close()
    return None, "; ".join(problems) or "no SQLite module can load extensions"


def _vec_blob(vector: np.ndarray) -> bytes:
    import numpy as np

    return np.asarray(vector, dtype="<f4").tobytes()


class Store:
    """An open index database with the embedding cache attached.

    Paths are stored in a lossless text form (`core.paths.path_key`): git allows any bytes in a
    name, SQLite text must be UTF-8. Callers pass and receive the planner's form (undecodable
    bytes as surrogate escapes); only this class sees the stored form.
    """

    def __init__(
        self, path: Path, cache_path: Path | None = None, *, readonly: bool = False, busy_timeout: float = 30.0
    ) -> None:
        """`busy_timeout`: seconds SQLite waits for another connection's lock before "database is locked"."""
        self.path = path
        self.backend = backend()
        self.readonly = readonly
        self.has_cache = cache_path is not None
        self.cache_path = cache_path
        self._vocab_ready = False
        self.vec = False  # sqlite-vec loaded into this connection (`enable_vec`)
        self._busy_timeout = busy_timeout
        # A writer reads and writes the cache on a connection of its own, so that embeddings are
        # committed batch by batch while the index's own write transaction stays open.
        self._cache_conn: Any = None
        module = self.backend.module
        cache_target = str(cache_path) if cache_path is not None else ""
        try:
            self.conn = module.connect(str(path), isolation_level=None, check_same_thread=False, timeout=busy_timeout)
            if readonly:
                self.conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone()
        except module.Error as exc:
            if is_corruption(exc):
                with contextlib.suppress(Exception):
                    self.conn.close()
                raise CorruptIndex(f"index database {path} is unreadable ({exc})") from None
            if not readonly:
                raise IndexUnavailable(describe_sqlite_error(path, exc)) from None
            # A read-only folder (a read-only mount, another user's clone): SQLite cannot make
            # the WAL's shared-memory file there, but nothing writes, so read it as immutable.
            with contextlib.suppress(Exception):
                self.conn.close()
            try:
                self.conn = module.connect(
                    f"{path.resolve().as_uri()}?immutable=1",
                    uri=True,
                    isolation_level=None,
                    check_same_thread=False,
                )
                self.conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone()
            except module.Error as exc2:
                raise IndexUnavailable(describe_sqlite_error(path, exc2)) from None
            if cache_path is not None:
                cache_target = f"{cache_path.resolve().as_uri()}?immutable=1"
        try:
            self.conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            if not readonly:
                self.conn.execute("PRAGMA journal_mode = WAL")
                # The index is derived (tree + config + the embedding cache, which keeps SQLite's
                # default durability): a process killed at any point still leaves a consistent
                # database (WAL), and only an OS crash or power cut can cost it, after which a
                # damaged index is rebuilt. Syncing cost 20-30 ms of fsyncs a process (a new
                # WAL's header, the checkpoint on close), most of a one-file update.
                self.conn.execute("PRAGMA synchronous = OFF")
            if cache_path is not None:
                self.conn.execute("ATTACH DATABASE ? AS cache", (cache_target,))
                if not readonly:
                    self.conn.execute("PRAGMA cache.journal_mode = WAL")
                    self.conn.executescript(CACHE_SCHEMA)
            if not readonly:
                self._migrate()
            else:
                self.conn.execute("SELECT count(*) FROM meta").fetchone()
        except module.Error as exc:
            with contextlib.suppress(Exception):
                self.conn.close()
            if isinstance(exc, RetiredSchema):
                raise
            if readonly and "no such table" in str(exc):
                # The file exists but its schema is not committed yet: the first build is running.
                raise IndexUnavailable(f"there is no index yet at {path} (it is being built)") from None
            if is_corruption(exc):
                raise CorruptIndex(f"index database {path} is unreadable ({exc})") from None
            raise IndexUnavailable(describe_sqlite_error(path, exc)) from None
        except RetiredSchema:
            with contextlib.suppress(Exception):
                self.conn.close()
            raise

    def quick_check(self) -> str | None:
        """None when SQLite's `quick_check` passes, else its first complaint."""
        try:
            row = self.conn.execute("PRAGMA quick_check(1)").fetchone()
        except self.backend.module.Error as exc:
            return str(exc)
        return None if row and row[0] == "ok" else str(row[0] if row else "no answer")

    # -- schema ------------------------------------------------------------------------------
    def _migrate(self) -> None:
        self.conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
        done = {row[0] for row in self.conn.execute("SELECT name FROM migrations")}
        if done & RETIRED_MIGRATIONS:
            raise RetiredSchema(f"index database {self.path} was written by an older memgit (schema 1)")
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(sql):
                    self.conn.execute(statement)
                self.conn.execute("INSERT INTO migrations VALUES (?, ?)", (name, time.time()))
                self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('index_id', ?)", (os.urandom(16).hex(),))
                self.conn.execute("COMMIT")
            except Exception:
                self.conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()
        if self._cache_conn is not None:
            with contextlib.suppress(Exception):
                self._cache_conn.close()

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

    @contextlib.contextmanager
    def update_transaction(self) -> Iterator[None]:
        """The index update's write transaction, which may run for the whole of a large build
        while embeddings are committed to the cache as they are made (`cache_vectors`, on the
        cache's own connection). DEFERRED, so it write-locks only the index, never the attached
        cache (BEGIN IMMEDIATE would lock both); safe because one update at a time holds the
        index lock and readers never write. Read the cache through this connection only after
        the last embedding, so that its snapshot includes them."""
        self.conn.execute("BEGIN DEFERRED")
        try:
            # Take the index's write lock first, through SQLite's busy handler (`busy_timeout`):
            # a deferred transaction that read first would get "database is locked" at once.
            self.conn.execute("DELETE FROM meta WHERE key = ''")
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def _cache(self) -> Any:
        """The cache's own connection (writers), or the attached cache (read-only stores)."""
        if self.readonly or self.cache_path is None:
            return self.conn
        if self._cache_conn is None:
            conn = self.backend.module.connect(
                str(self.cache_path), isolation_level=None, check_same_thread=False, timeout=self._busy_timeout
            )
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            self._cache_conn = conn
        return self._cache_conn

    @contextlib.contextmanager
    def snapshot_read(self) -> Iterator[None]:
        """One read transaction: every statement inside sees the same committed index state,
        so a search never pairs one version's scores with another version's lines."""
        self.conn.execute("BEGIN DEFERRED")
        try:
            self.conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()  # pins the snapshot
            yield
        finally:
            with contextlib.suppress(Exception):
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

    # -- files and chunks ----------------------------------------------------------------------
    def files(self) -> dict[str, tuple[str, int, str, str | None]]:
        rows = self.conn.execute("SELECT path, blob, mode, source, skipped FROM files")
        return {path_from_key(row[0]): (row[1], row[2], row[3], row[4]) for row in rows}

    def files_for(self, paths: Iterable[str]) -> dict[str, tuple[str, int, str, str | None]]:
        """The rows of the given paths only: an update reads what its diff names, not every file."""
        wanted = [path_key(p) for p in dict.fromkeys(paths)]
        out: dict[str, tuple[str, int, str, str | None]] = {}
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            rows = self.conn.execute(
                "SELECT path, blob, mode, source, skipped FROM files WHERE path IN (SELECT value FROM json_each(?))",
                (json.dumps(batch),),
            )
            out.update({path_from_key(r[0]): (r[1], r[2], r[3], r[4]) for r in rows})
        return out

    def file_sources(self, paths: Sequence[str]) -> list[tuple[str, str, str]]:
        """(stored path, blob, source) of the given stored paths only: search needs a handful."""
        wanted = list(dict.fromkeys(paths))
        rows = self.conn.execute(
            "SELECT path, blob, source FROM files WHERE path IN (SELECT value FROM json_each(?))",
            (json.dumps(wanted),),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def stored_paths(self) -> list[str]:
        """Every file path as stored (the lossless text form), for glob filters."""
        return [row[0] for row in self.conn.execute("SELECT path FROM files")]

    def worktree_files(self) -> dict[str, str]:
        """{path: blob} of the rows indexed from the work tree rather than the indexed tree."""
        rows = self.conn.execute("SELECT path, blob FROM files WHERE source = 'worktree'")
        return {path_from_key(row[0]): row[1] for row in rows}

    def worktree_paths(self) -> list[str]:
        return list(self.worktree_files())

    # -- the vec0 table ---------------------------------------------------------------------
    def enable_vec(self) -> bool:
        """Load sqlite-vec into this connection (once); False when it cannot load here."""
        if not self.vec:
            self.vec = load_sqlite_vec(self.conn)
        return self.vec

    def vec_dim(self) -> int | None:
        """The dimension of the vec0 table, or None when the index has none."""
        row = self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (VEC_TABLE,)).fetchone()
        value = self.conn.execute("SELECT value FROM meta WHERE key = 'vec_dim'").fetchone()
        return int(value[0]) if row and value else None

    def vec_waiting(self) -> bool:
        """True when the vec0 table is behind the chunks (a process without sqlite-vec changed
        them, or the table is still to be made for vectors the index has)."""
        state = self.conn.execute("SELECT value FROM meta WHERE key = 'vec_state'").fetchone()
        if state and state[0] in ("pending", "rebuild"):
            return True
        model = self.conn.execute("SELECT value FROM meta WHERE key = 'model_id'").fetchone()
        return bool(model and model[0]) and self.vec_dim() is None and self._first_vector_dim(model[0]) is not None

    def vec_rows(self) -> int | None:
        """Rows of the vec0 table, counted by sqlite-vec (a scan: ~50 ms at 100k rows); None
        without the table or the extension."""
        if not self.vec or self.vec_dim() is None:
            return None
        return int(self.conn.execute(f"SELECT count(*) FROM {VEC_TABLE}").fetchone()[0])

    def _first_vector_dim(self, model: str) -> int | None:
        if not self.has_cache:
            return None
        row = self.conn.execute(
            "SELECT length(e.vector) / 4 FROM chunks c JOIN cache.embeddings e "
            "ON e.model = ? AND e.text_hash = c.text_hash LIMIT 1",
            (model,),
        ).fetchone()
        return int(row[0]) if row else None

    def sync_vec(self, model: str | None, changed: Iterable[int], *, reset: bool) -> str:
        """Bring the vec0 table in line with the chunks' cached vectors, inside the caller's
        transaction: it holds exactly one float32 row per chunk whose vector is in the cache.

        `changed`: chunk ids removed, added or given a vector by this update; `reset`: every
        chunk was rewritten (a rebuild). Without sqlite-vec the ids wait in `vec_todo` (or the
        whole table is marked for a refill) for the next process that loads it, and nothing
        else waits. Returns the table's state: "synced", "pending" or "rebuild"."""
        meta = dict(self.conn.execute("SELECT key, value FROM meta WHERE key IN ('vec_state', 'vec_dim')"))
        state = meta.get("vec_state") or "synced"
        if not self.vec:
            has_table = "vec_dim" in meta
            if reset or model is None:
                self.conn.execute("DELETE FROM vec_todo")
                state = "rebuild" if has_table or state != "synced" else "synced"
            elif state != "rebuild" and (has_table or state == "pending"):
                self.conn.executemany("INSERT OR IGNORE INTO vec_todo VALUES (?)", ((i,) for i in changed))
                state = "pending"
            self.set_meta({"vec_state": None if state == "synced" else state})
            return state
        table_dim = self.vec_dim()
        if model is None:
            if table_dim is not None or "vec_dim" in meta:
                self.conn.execute(f"DROP TABLE IF EXISTS {VEC_TABLE}")
            self.conn.execute("DELETE FROM vec_todo")
            self.set_meta({"vec_state": None, "vec_dim": None})
            return "synced"
        if reset or state == "rebuild" or table_dim is None:
            self._refill_vec(model, table_dim)
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
                    "WHERE c.id IN (SELECT value FROM json_each(?)) AND length(e.vector) = ?",
                    (model, json.dumps(ordered[start : start + 500]), table_dim * 4),
                )
            self.conn.execute("DELETE FROM vec_todo")
        self.set_meta({"vec_state": None})
        return "synced"

    def _refill_vec(self, model: str, table_dim: int | None) -> None:
        """Every row again, straight from the cache in SQL (nothing passes through Python)."""
        dim = self._first_vector_dim(model)
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
                "WHERE length(e.vector) = ? ORDER BY c.id",
                (model, dim * 4),
            )
        self.conn.execute("DELETE FROM vec_todo")
        self.set_meta({"vec_state": None, "vec_dim": None if dim is None else str(dim)})

    def vec_knn(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """sqlite-vec's exact KNN over the vec0 table: (chunk id, cosine similarity), best first."""
        import numpy as np

        rows = self.conn.execute(
            f"SELECT rowid, distance FROM {VEC_TABLE} WHERE embedding MATCH ? AND k = ? ORDER BY distance",
            (np.asarray(query, dtype="<f4").tobytes(), k),
        )
        return [(int(r[0]), 1.0 - float(r[1])) for r in rows]

    def file_count(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM files").fetchone()[0])

    def clear_all(self) -> None:
        self.conn.execute("DELETE FROM files")
        self.conn.execute("DELETE FROM chunks")
        self.conn.execute("DELETE FROM chunks_fts")

    def delete_path(self, path: str) -> list[int]:
        """Remove a file and its chunks; returns the chunk ids removed."""
        key = path_key(path)
        ids = [row[0] for row in self.conn.execute("SELECT id FROM chunks WHERE path = ?", (key,))]
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            marks = ",".join("?" * len(batch))
            self.conn.execute(f"DELETE FROM chunks WHERE id IN ({marks})", batch)
            self.conn.execute(f"DELETE FROM chunks_fts WHERE rowid IN ({marks})", batch)
        self.conn.execute("DELETE FROM files WHERE path = ?", (key,))
        return ids

    def put_file(self, path: str, blob: str, mode: int, source: str, skipped: str | None) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)", (path_key(path), blob, mode, source, skipped)
        )

    def add_chunks(
        self, path: str, day: str | None, chunks: Iterable[tuple[int, int, str, str, int | None, int | None]]
    ) -> list[tuple[int, str]]:
        """Insert chunks (start line, end line, text, text hash, start char, end char); returns
        (chunk id, text hash) pairs (ids are new, never reused)."""
        key = path_key(path)
        added: list[tuple[int, str]] = []
        for start, end, text, thash, start_char, end_char in chunks:
            cur = self.conn.execute(
                "INSERT INTO chunks (path, start_line, end_line, text, text_hash, day, start_char, end_char) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, start, end, text, thash, day, start_char, end_char),
            )
            rowid = cur.lastrowid
            self.conn.execute("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)", (rowid, fts_text(text)))
            added.append((int(rowid), thash))
        return added

    def pending_chunks(self, model: str, limit: int | None = None) -> list[tuple[int, str, str]]:
        """(id, text hash, text) of chunks whose vector under `model` is not in the cache yet,
        oldest first (at most `limit`)."""
        if not self.has_cache:
            return []
        rows = self.conn.execute(
            "SELECT c.id, c.text_hash, c.text FROM chunks c WHERE NOT EXISTS "
            "(SELECT 1 FROM cache.embeddings e WHERE e.model = ? AND e.text_hash = c.text_hash) ORDER BY c.id "
            "LIMIT ?",
            (model, -1 if limit is None else limit),
        )
        return [(int(r[0]), r[1], r[2]) for r in rows]

    def pending_count(self, model: str | None) -> int:
        if not model:
            return 0
        if not self.has_cache:
            return int(self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
        return int(
            self.conn.execute(
                "SELECT count(*) FROM chunks c WHERE NOT EXISTS "
                "(SELECT 1 FROM cache.embeddings e WHERE e.model = ? AND e.text_hash = c.text_hash)",
                (model,),
            ).fetchone()[0]
        )

    def chunk_ids_with_hashes(self, hashes: Iterable[str]) -> list[tuple[int, str]]:
        """(id, text hash) of every chunk holding one of these texts."""
        wanted = list(dict.fromkeys(hashes))
        out: list[tuple[int, str]] = []
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            rows = self.conn.execute(f"SELECT id, text_hash FROM chunks WHERE text_hash IN ({marks})", batch)
            out.extend((int(r[0]), r[1]) for r in rows)
        return out

    # -- embedding cache ---------------------------------------------------------------------
    def cached_vectors(self, model: str, hashes: Iterable[str]) -> dict[str, bytes]:
        if not self.has_cache:
            return {}
        conn = self._cache()
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

    def cache_vectors(self, model: str, items: dict[str, np.ndarray]) -> None:
        """Commit a batch of fresh embeddings at once, so an interrupted run resumes from here
        (even while the index's own transaction is open: the cache has its own connection)."""
        if not self.has_cache or not items:
            return
        conn = self._cache()
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

    def vector_count(self, model: str) -> int:
        """Chunks with a vector in the cache (the rows the vector files hold)."""
        if not self.has_cache:
            return 0
        return int(
            self.conn.execute(
                "SELECT count(*) FROM chunks c JOIN cache.embeddings e ON e.model = ? AND e.text_hash = c.text_hash",
                (model,),
            ).fetchone()[0]
        )

    def iter_vectors(self, model: str, batch: int = 8192) -> Iterator[list[tuple[int, bytes]]]:
        """Every (chunk id, vector) with a cached vector, ids ascending, a batch at a time: a
        million vectors are 1.5 GB, never held at once."""
        if not self.has_cache:
            return
        cursor = self.conn.execute(
            "SELECT c.id, e.vector FROM chunks c JOIN cache.embeddings e "
            "ON e.model = ? AND e.text_hash = c.text_hash ORDER BY c.id",
            (model,),
        )
        while rows := cursor.fetchmany(batch):
            yield [(int(r[0]), bytes(r[1])) for r in rows]

    # -- queries -----------------------------------------------------------------------------
    def bm25(self, match: str, limit: int, only: Filter | None = None) -> list[tuple[int, float]]:
        """The best `limit` chunks for an FTS5 query (restricted to `only`), best first."""
        where, params = where_sql(only, self.stored_paths)
        sql = (
            "SELECT chunks_fts.rowid, bm25(chunks_fts) AS r FROM chunks_fts "
            + ("JOIN chunks c ON c.id = chunks_fts.rowid " if where else "")
            + "WHERE chunks_fts MATCH ? "
            + (f"AND {where} " if where else "")
            + "ORDER BY r LIMIT ?"
        )
        rows = self.conn.execute(sql, [match, *params, limit])
        return [(int(row[0]), -float(row[1])) for row in rows]

    def bm25_phrase(self, match: str) -> tuple[np.ndarray, np.ndarray]:
        """(chunk ids, scores) of every chunk matching one quoted phrase, unordered and unlimited.

        FTS5's bm25() is a sum over the query's phrases of a term that depends only on the
        phrase (its idf over the whole table) and the row (its count there, the row's length):
        the score of a one-phrase query is exactly that phrase's share of any OR query's score,
        so warm searchers can keep these per word and add them up (memgit.recall.bm25_terms).
        """
        import itertools

        import numpy as np

        rows = self.conn.execute("SELECT rowid, -bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH ?", (match,))
        flat = np.fromiter(itertools.chain.from_iterable(rows), dtype=np.float64).reshape(-1, 2)
        return flat[:, 0].astype(np.int64), np.ascontiguousarray(flat[:, 1])

    def fts_row_count(self) -> int:
        """Rows in the FTS table as its bm25() counts them: the first varint of FTS5's
        averages record (read in the caller's transaction; no scan)."""
        row = self.conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
        return _sqlite_varint(bytes(row[0])) if row and row[0] else 0

    def fts_state(self) -> bytes:
        """Bytes that change whenever the FTS5 index does: its averages record (row and token
        totals) and its structure record (segments and write counter), read in the caller's
        transaction. Per-phrase scores cached under one state are valid only while it holds."""
        rows = self.conn.execute("SELECT id, block FROM chunks_fts_data WHERE id IN (1, 10) ORDER BY id")
        return b"".join(bytes(block) for _, block in rows)

    def fts_totals(self) -> tuple[int, int]:
        """(rows, tokens) of the FTS table as bm25() reads them (its average row length is
        tokens / rows): FTS5's averages record, in the caller's transaction."""
        row = self.conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
        if not row or not row[0]:
            return 0, 0
        rows, tokens = _sqlite_varints(bytes(row[0]), 2)
        return rows, tokens

    def fts_last_row(self) -> int:
        """The highest row id in the FTS table (0 when empty)."""
        row = self.conn.execute("SELECT max(id) FROM chunks_fts_docsize").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def fts_row_lengths(self) -> tuple[np.ndarray, np.ndarray]:
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

    def fts_tokens(self, words: Sequence[str]) -> dict[str, str]:
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
        for word, token in self.fts_tokens(terms).items():
            row = self.conn.execute("SELECT doc FROM temp.chunk_terms WHERE term = ?", (token,)).fetchone()
            out[word] = int(row[0]) if row else 0
        return out

    def frequent_tokens(self, limit: int) -> list[tuple[str, int]]:
        """(index token, chunks holding it), the most widespread first: the words whose BM25
        scores cost most to compute."""
        self._ensure_vocab()
        rows = self.conn.execute("SELECT term, doc FROM temp.chunk_terms ORDER BY doc DESC LIMIT ?", (limit,))
        return [(str(term), int(doc)) for term, doc in rows]

    def chunk_total(self) -> int:
        meta = self.meta()
        if "chunk_count" in meta:
            return int(meta["chunk_count"])
        return int(self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0])

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

    def vectors_for(self, ids: Sequence[int] | None, model: str | None = None) -> list[tuple[int, bytes]]:
        """(chunk id, vector) from the embedding cache, for the given chunks or all of them;
        chunks whose vector is still pending are left out."""
        if not self.has_cache:
            return []
        model = model or self.meta().get("model_id", "")
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

    def chunk_rows(self, ids: Sequence[int]) -> dict[int, tuple[str, int, int, str, str | None]]:
        """id -> (stored path, start, end, text, day)."""
        out: dict[int, tuple[str, int, int, str, str | None]] = {}
        for start in range(0, len(ids), 500):
            batch = list(ids[start : start + 500])
            marks = ",".join("?" * len(batch))
            rows = self.conn.execute(
                f"SELECT id, path, start_line, end_line, text, day FROM chunks WHERE id IN ({marks})", batch
            )
            out.update({int(r[0]): (r[1], r[2], r[3], r[4], r[5]) for r in rows})
        return out

    def chunk_chars(self, ids: Sequence[int]) -> dict[int, tuple[int, int]]:
        """id -> (start char, end char) for the chunks among `ids` that are pieces of one line."""
        out: dict[int, tuple[int, int]] = {}
        for start in range(0, len(ids), 500):
            batch = list(ids[start : start + 500])
            marks = ",".join("?" * len(batch))
            rows = self.conn.execute(
                f"SELECT id, start_char, end_char FROM chunks WHERE id IN ({marks}) AND start_char IS NOT NULL", batch
            )
            out.update({int(r[0]): (int(r[1]), int(r[2])) for r in rows})
        return out

    def chunk_ids_where(self, only: Filter) -> list[int]:
        where, params = where_sql(only, self.stored_paths)
        return [int(r[0]) for r in self.conn.execute(f"SELECT c.id FROM chunks c WHERE {where}", params)]

    def counts(self) -> dict[str, int]:
        one = self.conn.execute
        model = self.meta().get("model_id") or None
        chunks = int(one("SELECT count(*) FROM chunks").fetchone()[0])
        pending = self.pending_count(model) if model else 0
        counts = {
            "files": int(one("SELECT count(*) FROM files").fetchone()[0]),
            "chunks": chunks,
            "vectors": chunks - pending if model else 0,
            "pending_vectors": pending,
        }
        if self.has_cache:
            counts["cached_embeddings"] = int(one("SELECT count(*) FROM cache.embeddings").fetchone()[0])
        return counts

    def snapshot(self) -> dict[str, Any]:
        """Everything that must match between an incremental index and a full rebuild."""
        files = sorted(self.conn.execute("SELECT path, blob, mode, source, skipped FROM files"))
        chunks = sorted(
            self.conn.execute(
                "SELECT path, start_line, end_line, text_hash, day, ifnull(start_char, -1), ifnull(end_char, -1) "
                "FROM chunks"
            )
        )
        fts_bad = self.conn.execute(
            "SELECT count(*) FROM chunks c LEFT JOIN chunks_fts f ON f.rowid = c.id WHERE f.rowid IS NULL"
        ).fetchone()[0]
        fts_count = self.conn.execute("SELECT count(*) FROM chunks_fts").fetchone()[0]
        return {"files": files, "chunks": chunks, "fts_missing": fts_bad, "fts_rows": fts_count}

    def chunk_keys(self) -> dict[int, tuple[str, int, int, str]]:
        """id -> (path, start, end, text hash): what a vector file row must stand for."""
        rows = self.conn.execute("SELECT id, path, start_line, end_line, text_hash FROM chunks")
        return {int(r[0]): (r[1], r[2], r[3], r[4]) for r in rows}


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip() and not s.strip().startswith("--")]


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
