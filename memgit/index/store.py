"""The index database: its schema, meta, files, chunks and their FTS5 rows, and its transactions.

`Store` opens it and holds its parts, each on the same connection and in the same transactions:
`store.fts` (FTS5's statistics and tokenizer, fts.py), `store.vec` (the vec0 table, vec0.py) and
`store.cache` (the embedding cache, a database of its own attached as `cache`, cache.py). SQL is
spoken in these four modules and nowhere else in memgit. A chunk's vector lives in the embedding
cache, keyed by (model, text hash), and the memory-mapped vector files (`vectors.py`) are derived
from it. Nothing in the database depends on an optional extension, so every process reads and writes
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
from typing import Any

from memgit.core.paths import path_from_key, path_key
from memgit.core.text import fts_text
from memgit.errors import MemgitError
from memgit.index.cache import EmbeddingCache, attach_cache
from memgit.index.filter_sql import Filter, where_sql
from memgit.index.fts import FtsStats
from memgit.index.vec0 import Vec0, load_sqlite_vec, sqlite_vec_path

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
    (
        # The chunks whose vector is not published yet (not in the vector files nor the vec0
        # table): the fill's work list. A chunk is published exactly when its id leaves this
        # table, in the transaction that writes its vec0 row; a vector the cache gained meanwhile
        # (another worktree, a fill that was stopped) is never half-published. Filled here from
        # the cache for an index that has a model.
        "005_pending",
        """
        CREATE TABLE pending (id INTEGER PRIMARY KEY);
        """,
    ),
]
#: An index migrated to `005_pending` lists the chunks the cache has no vector for (a store
#: opened without the cache lists none: it has no model's vectors to serve).
_PENDING_FROM_CACHE = """
INSERT INTO pending SELECT c.id FROM chunks c, meta m WHERE m.key = 'model_id' AND m.value != ''
    AND NOT EXISTS (SELECT 1 FROM cache.embeddings e WHERE e.model = m.value AND e.text_hash = c.text_hash)
"""
SCHEMA_VERSION = 2
#: The most of one database file `map_for_bulk_reads` maps (address space, not memory).
MMAP_BYTES = 1 << 30
RETIRED_MIGRATIONS = frozenset({"001_initial"})


class CorruptIndex(MemgitError):
    """The file is not a usable SQLite database: rebuilding is the fix."""


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
        found = SqliteBackend(module, name.split(".")[0])
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


def fts5_problem() -> str | None:
    """None when this process's SQLite makes a porter-stemmed FTS5 table, else why not (`memgit doctor`)."""
    try:
        conn = backend().module.connect(":memory:")
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
        conn.close()
    except Exception as exc:
        return str(exc)
    return None


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


class Store:
    """An open index database with the embedding cache attached, and its parts: `fts`, `vec`,
    `cache` (see the module's docstring).

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
                attach_cache(self.conn, cache_target, readonly=readonly)
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
                raise IndexUnavailable(
                    f"there is no index yet at {path} (a first build is running, or one stopped: "
                    "`memgit index` builds it)"
                ) from None
            if is_corruption(exc):
                raise CorruptIndex(f"index database {path} is unreadable ({exc})") from None
            raise IndexUnavailable(describe_sqlite_error(path, exc)) from None
        except RetiredSchema:
            with contextlib.suppress(Exception):
                self.conn.close()
            raise
        self.fts = FtsStats(self.conn)
        self.cache = EmbeddingCache(
            self.conn, cache_path, module, self.meta, readonly=readonly, busy_timeout=busy_timeout
        )
        self.vec = Vec0(self.conn, self.cache, self.set_meta)

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
                if name == "005_pending" and self._has_cache():
                    self.conn.execute(_PENDING_FROM_CACHE)
                self.conn.execute("INSERT INTO migrations VALUES (?, ?)", (name, time.time()))
                self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('index_id', ?)", (os.urandom(16).hex(),))
                self.conn.execute("COMMIT")
            except Exception:
                self.conn.execute("ROLLBACK")
                raise

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()
        self.cache.close()

    def _has_cache(self) -> bool:
        return any(row[1] == "cache" for row in self.conn.execute("PRAGMA database_list"))

    def map_for_bulk_reads(self) -> None:
        """Read the index and the cache through a memory map from now on. A process that reads
        every vector (`index --verify`: the cache joined at random, the vec0 table scanned 21
        times) otherwise asks the kernel for each 4 KiB page, again whenever SQLite's 2 MB page
        cache has let it go: ~600,000 `pread` calls at 23k chunks, a second of system time."""
        self.conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        if self.cache.attached:
            self.conn.execute(f"PRAGMA cache.mmap_size = {MMAP_BYTES}")

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
        while embeddings are committed to the cache as they are made (`EmbeddingCache.put`, on the
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

    def file_count(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM files").fetchone()[0])

    def clear_all(self) -> None:
        self.conn.execute("DELETE FROM files")
        self.conn.execute("DELETE FROM chunks")
        self.conn.execute("DELETE FROM chunks_fts")
        self.conn.execute("DELETE FROM pending")

    # -- vectors not published yet (`pending`) -------------------------------------------------
    def mark_pending(self, ids: Iterable[int]) -> None:
        self.conn.executemany("INSERT OR IGNORE INTO pending VALUES (?)", ((i,) for i in ids))

    def unmark_pending(self, ids: Sequence[int]) -> list[int]:
        """Take `ids` off the pending list; returns those that were on it (the rest are gone or
        were published by another run), ascending."""
        found: list[int] = []
        for start in range(0, len(ids), 500):
            batch = json.dumps(list(ids[start : start + 500]))
            found.extend(
                int(r[0])
                for r in self.conn.execute(
                    "SELECT id FROM pending WHERE id IN (SELECT value FROM json_each(?))", (batch,)
                )
            )
            self.conn.execute("DELETE FROM pending WHERE id IN (SELECT value FROM json_each(?))", (batch,))
        return sorted(found)

    def pend_uncached(self, model: str) -> None:
        """Every chunk whose text has no vector under `model` in the cache goes on the list (an
        index adopting a model)."""
        self.conn.execute(
            "INSERT OR IGNORE INTO pending SELECT c.id FROM chunks c WHERE NOT EXISTS "
            "(SELECT 1 FROM cache.embeddings e WHERE e.model = ? AND e.text_hash = c.text_hash)",
            (model,),
        )

    def clear_pending(self) -> None:
        self.conn.execute("DELETE FROM pending")

    def pending_total(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM pending").fetchone()[0])

    def delete_path(self, path: str) -> list[int]:
        """Remove a file and its chunks; returns the chunk ids removed."""
        key = path_key(path)
        ids = [row[0] for row in self.conn.execute("SELECT id FROM chunks WHERE path = ?", (key,))]
        self.delete_chunks(ids)
        self.conn.execute("DELETE FROM files WHERE path = ?", (key,))
        return ids

    def path_chunks(self, path: str) -> list[tuple[int, str, int, int, int | None, int | None]]:
        """(id, text hash, start line, end line, start char, end char) of one path's chunks."""
        rows = self.conn.execute(
            "SELECT id, text_hash, start_line, end_line, start_char, end_char FROM chunks WHERE path = ? ORDER BY id",
            (path_key(path),),
        )
        return [(int(r[0]), r[1], int(r[2]), int(r[3]), r[4], r[5]) for r in rows]

    def delete_chunks(self, ids: Sequence[int]) -> None:
        for start in range(0, len(ids), 500):
            batch = list(ids[start : start + 500])
            marks = ",".join("?" * len(batch))
            self.conn.execute(f"DELETE FROM chunks WHERE id IN ({marks})", batch)
            self.conn.execute(f"DELETE FROM chunks_fts WHERE rowid IN ({marks})", batch)
            self.conn.execute(f"DELETE FROM pending WHERE id IN ({marks})", batch)

    def move_chunks(self, rows: Iterable[tuple[int, int, int | None, int | None, int]]) -> None:
        """Give kept chunks (same text) their new place: (start line, end line, start char, end
        char, id). Their FTS rows and vectors stay: they are of the text, which did not change."""
        self.conn.executemany(
            "UPDATE chunks SET start_line = ?, end_line = ?, start_char = ?, end_char = ? WHERE id = ?", rows
        )

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

    def chunk_total(self) -> int:
        meta = self.meta()
        if "chunk_count" in meta:
            return int(meta["chunk_count"])
        return int(self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0])

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
        pending = self.cache.pending_count(model) if model else 0
        counts = {
            "files": int(one("SELECT count(*) FROM files").fetchone()[0]),
            "chunks": chunks,
            "vectors": chunks - pending if model else 0,
            "pending_vectors": pending,
        }
        if self.cache.attached:
            counts["cached_embeddings"] = self.cache.size()
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


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip() and not s.strip().startswith("--")]
