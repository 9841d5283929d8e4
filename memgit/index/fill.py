"""Filling pending vectors behind the text: embed outside the index lock, publish a batch at a time.

An index build writes its text and BM25 rows first (searchable at once) and leaves the vectors it
could not embed in its time on the pending list (`store.pending`). Filling them is this module's,
for every caller (`memgit index` in the foreground with a bar, a detached process after a hook,
the MCP server a step at a time, a search a few before it answers): the next batch of pending
chunks is read from a committed state, embedded into the shared embedding cache on its own
connection (no index lock held: hooks, captures and searches go on), then published under the
index lock in one short transaction (`publish_vectors`). A killed fill loses at most the
batch it was embedding, and that is in the cache: the next fill publishes it without embedding.

One fill runs per index at a time (`fill.lock`, beside the index lock); a background fill gives
way at its next batch to a foreground one that asks (`fill.yield`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.core import locks
from memgit.index.layout import cache_path, clear_marker, index_path, read_marker, write_marker
from memgit.index.lock import index_lock
from memgit.index.open import open_store
from memgit.index.store import CorruptIndex, IndexUnavailable, Store
from memgit.workspace import Workspace

if TYPE_CHECKING:
    from memgit.embed import Embedder
    from memgit.index.embedding import ProgressFn

#: Chunks embedded between two publications: about half a minute of MiniLM on two threads here,
#: so the index lock is taken for a moment every half minute, and a stopped fill loses nothing
#: (the cache keeps what was embedded) and a search sees vectors arrive as they are made.
FILL_BATCH = 256


class FillBusy(Exception):
    """Another process fills this index's vectors now."""


class FillReport:
    """What one fill did: vectors published, batches, what is still pending, why it stopped."""

    __slots__ = ("filled", "embedded", "batches", "pending", "total", "stopped", "seconds", "model_id")

    def __init__(self) -> None:
        self.filled = 0
        self.embedded = 0  # of those, embedded now (the rest were in the cache: another worktree's)
        self.batches = 0
        self.pending = 0
        self.total = 0  # pending when it started (its progress total)
        self.stopped = "done"  # done | limit | time | asked | model | changed | no index | busy
        self.seconds = 0.0
        self.model_id: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}


def fill_lock_path(ws: Workspace) -> Path:
    return ws.data_dir / "fill.lock"


def yield_path(ws: Workspace) -> Path:
    """A foreground fill writes this to ask a background one to stop at its next batch."""
    return ws.data_dir / "fill.yield"


@contextlib.contextmanager
def fill_lock(ws: Workspace, wait: float | None) -> Iterator[None]:
    """Hold this index's fill lock, waiting `wait` seconds (None: as long as it takes)."""
    ws.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        with locks.exclusive(fill_lock_path(ws), wait, 0.05):
            yield
    except locks.LockBusy:
        raise FillBusy(f"another memgit run fills the vectors of {ws.data_dir}") from None


def pending_total(ws: Workspace) -> tuple[int, str | None]:
    """(chunks whose vector is pending, the index's model) as last committed; (0, None) with no index."""
    store = _reader(ws)
    if store is None:
        return 0, None
    try:
        meta = store.meta()
        return int(meta.get("pending_vectors", "0") or 0), meta.get("model_id") or None
    finally:
        store.close()


def fill_vectors(
    ws: Workspace,
    embedder: Embedder,
    *,
    limit: int | None = None,
    seconds: float | None = None,
    lock_wait: float | None = 30.0,
    fill_wait: float | None = 0.0,
    progress: ProgressFn | None = None,
    stop: Callable[[], bool] | None = None,
    batch: int = FILL_BATCH,
) -> FillReport:
    """Embed and publish pending vectors with `embedder` (the index's model), a batch at a time,
    until none is left, `limit` are published, `seconds` have passed (no batch starts after) or
    `stop()` says so. `lock_wait` is each publication's wait for the index lock, `fill_wait` the
    wait for another fill (0: `FillBusy` at once). `progress(done, total)` counts vectors
    published and being embedded, of the pending count at the start (a total that never changes:
    chunks that become pending meanwhile are the next fill's)."""
    report = FillReport()
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    since = time.time()
    with fill_lock(ws, fill_wait), _state_file(ws):
        pending, model = pending_total(ws)
        report.model_id, report.pending = model, pending
        if model is None:
            report.stopped = "no index" if not index_path(ws).exists() else "model"
            return report
        if model != embedder.model_id:
            report.stopped = "model"
            return report
        report.total = pending if limit is None else min(pending, limit)
        _write_state(ws, report, since)
        after = empty = 0
        while report.filled < report.total:
            if stop is not None and stop():
                report.stopped = "asked"
                break
            if deadline is not None and report.batches and time.monotonic() > deadline:
                report.stopped = "time"
                break
            chunks = _next_batch(ws, min(batch, report.total - report.filled), after)
            if not chunks:
                break
            after = chunks[-1][0]
            done_before = report.filled

            def shown(done: int, _total: int, base: int = done_before) -> None:
                if progress is not None:
                    progress(min(base + done, report.total), report.total)

            report.embedded += _embed(ws, embedder, model, chunks, shown, stop)
            published, report.pending = publish_vectors(ws, [(i, h) for i, h, _ in chunks], model, lock_wait)
            report.filled += published
            report.batches += 1
            _write_state(ws, report, since)
            if progress is not None:
                progress(min(report.filled, report.total), report.total)
            if not published:
                # The batch's chunks are gone (a checkout or rebuild replaced them meanwhile) or
                # the index changed models: start over from the first pending chunk, once.
                if stop is not None and stop():
                    report.stopped = "asked"
                    break
                empty += 1
                if empty > 1 or pending_total(ws)[1] != model:
                    report.stopped = "model" if pending_total(ws)[1] != model else "changed"
                    break
                after = 0
                continue
            empty = 0
        else:
            report.stopped = "done" if limit is None or report.pending == 0 else "limit"
    report.seconds = round(time.monotonic() - started, 3)
    return report


def state_path(ws: Workspace) -> Path:
    """What a running fill has done, for `memgit status`: pid, total, filled, times."""
    return ws.data_dir / "fill.json"


@contextlib.contextmanager
def _state_file(ws: Workspace) -> Iterator[None]:
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            state_path(ws).unlink()


def _write_state(ws: Workspace, report: FillReport, since: float) -> None:
    import json

    data = {"pid": os.getpid(), "total": report.total, "filled": report.filled, "started": since}
    with contextlib.suppress(OSError):
        state_path(ws).write_text(json.dumps({**data, "updated": time.time()}))


def running_fill(ws: Workspace) -> dict[str, float] | None:
    """The fill running now for this index (its state file, its process alive), or None."""
    import json

    try:
        data = json.loads(state_path(ws).read_text())
        os.kill(int(data["pid"]), 0)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return {k: float(v) for k, v in data.items()} if isinstance(data, dict) else None


def _reader(ws: Workspace) -> Store | None:
    if not index_path(ws).exists():
        return None
    try:
        return Store(index_path(ws), cache_path(ws), readonly=True, busy_timeout=ws.config.index.busy_timeout)
    except (CorruptIndex, IndexUnavailable):
        return None


def _next_batch(ws: Workspace, size: int, after: int) -> list[tuple[int, str, str]]:
    """The next pending chunks (id, text hash, text), ids above `after`, from one committed state."""
    store = _reader(ws)
    if store is None:
        return []
    try:
        with store.snapshot_read():
            return store.cache.pending_chunks(limit=size, after=after)
    finally:
        store.close()


def _embed(
    ws: Workspace,
    embedder: Embedder,
    model: str,
    chunks: list[tuple[int, str, str]],
    progress: ProgressFn,
    stop: Callable[[], bool] | None,
) -> int:
    """Embed what the cache lacks of `chunks` into the cache, on a connection of its own (no
    index lock): a sub-batch at a time, committed as it goes. Returns how many were embedded."""
    from memgit.index.cache import open_text_cache
    from memgit.index.embedding import EMBED_BATCH, embed_missing
    from memgit.index.store import backend

    texts = {h: text for _i, h, text in chunks}
    cache = open_text_cache(cache_path(ws), backend().module, ws.config.index.busy_timeout)
    try:
        cached = cache.get(model, texts)
        missing = {h: t for h, t in texts.items() if h not in cached}
        done = len(texts) - len(missing)
        progress(done, len(texts))
        hashes = list(missing)
        embedded = 0
        for start in range(0, len(hashes), EMBED_BATCH):
            if stop is not None and stop():
                break
            part = {h: missing[h] for h in hashes[start : start + EMBED_BATCH]}
            embed_missing(cache, embedder, model, part, None, _Counts())
            done += len(part)
            embedded += len(part)
            progress(done, len(texts))
        return embedded
    finally:
        cache.close()


class _Counts:
    """What `embed_missing` counts for a report; a fill reports what it published instead."""

    embedded = 0
    embeddings_cached = 0


def ask_background_to_yield(ws: Workspace) -> None:
    """A foreground fill's request: a background one stops at its next sub-batch."""
    with contextlib.suppress(OSError):
        yield_path(ws).write_text(str(os.getpid()))


def clear_yield(ws: Workspace) -> None:
    with contextlib.suppress(OSError):
        yield_path(ws).unlink()


def asked_to_yield(ws: Workspace, since: float) -> bool:
    """A foreground fill asked (after `since`, a `time.time()`: a request left by a run that died
    before it cleared it is older than the fill that reads it)."""
    try:
        return yield_path(ws).stat().st_mtime >= since
    except OSError:
        return False


def publish_vectors(
    ws: Workspace, filled: list[tuple[int, str]], model_id: str, lock_timeout: float | None
) -> tuple[int, int]:
    """Publish vectors a fill embedded outside the lock (`fill.py`): under the index lock, the
    chunks of `filled` (id, text hash) still pending whose vector the cache holds leave the
    pending list and get their vec0 rows in one transaction, then join the vector files as its
    generation; the marker is cleared around it like any update's. Only under the index's own
    model. Returns (published, pending after)."""
    from memgit.index.update import sqlite_errors

    with index_lock(ws, lock_timeout):
        store = open_store(ws)
        try:
            with sqlite_errors(store):
                return _publish(ws, store, filled, model_id)
        finally:
            store.close()


def _publish(ws: Workspace, store: Store, filled: list[tuple[int, str]], model_id: str) -> tuple[int, int]:
    meta = store.meta()
    pending = int(meta.get("pending_vectors", "0") or 0)
    if (meta.get("model_id") or None) != model_id or "tree" not in meta:
        return 0, pending
    vectors = store.cache.get(model_id, {h for _, h in filled})
    wanted = [i for i, h in filled if h in vectors]
    if not wanted:
        return 0, pending
    marker, overlay = read_marker(ws)
    clear_marker(ws)
    store.vec.enable()
    generation = int(meta.get("generation", "0"))
    with store.update_transaction():
        ids = store.unmark_pending(wanted)
        pending = store.pending_total()
        store.vec.sync(model_id, ids, reset=False)
        store.set_meta(
            {"generation": str(generation + 1), "pending_vectors": str(pending), "updated_at": str(time.time())}
        )
    hashes = dict(filled)
    from memgit.index.matrix import sync_vector_files

    sync_vector_files(
        store,
        ws.data_dir,
        index_id=meta["index_id"],
        model_id=model_id,
        dim=None,
        old_generation=generation,
        generation=generation + 1,
        removed=[],
        added=[(i, vectors[hashes[i]]) for i in ids],
        rewrite=False,
    )
    if marker is not None:
        write_marker(ws, marker, overlay=overlay)
    return len(ids), pending
