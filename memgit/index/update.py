"""Keeps the index equal to a function of a git tree, updating it by tree-to-tree diffs.

One update = plan (which paths changed, what they hold now: `plan.py`) -> chunk (one blob at
a time) -> vectors from the cache, embedding what it lacks when this process can (`embedding.py`)
-> one write transaction -> vector files (`matrix.py`) -> the marker (`layout.py`). A full
rebuild runs the same path with "every memory file" as the change set, so incremental and full
results are the same by construction, and `verify.py` checks it.

What the index holds is a function of the tree, `memgit.toml` and memgit's version
(`params.py`); the process's libraries and environment decide only whether vectors are filled
now or left pending.
"""

from __future__ import annotations

import contextlib
import functools
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memgit.core import paths
from memgit.core.chunking import Chunk
from memgit.embed import Embedder
from memgit.git import trees
from memgit.index.embedding import ProgressFn, VectorPlan, embed_missing, plan_vectors
from memgit.index.layout import clear_marker, write_marker
from memgit.index.lock import index_lock
from memgit.index.open import LazyEmbedder, open_store
from memgit.index.params import describe_param_change, index_params
from memgit.index.plan import (
    FileState,
    changed_entries,
    chunk_states,
    plan_states,
    tree_states,
    worktree_overlay,
)
from memgit.index.settings import LOAD, UpdateSettings
from memgit.index.store import CorruptIndex, IndexUnavailable, Store, describe_sqlite_error, is_corruption
from memgit.index.worktree import seed_from_main
from memgit.workspace import Workspace


@dataclass
class IndexReport:
    mode: str = "noop"  # noop | incremental | full | due (a rebuild is due but was not allowed)
    reason: str | None = None  # why a full rebuild happened (or is due)
    tree: str | None = None
    commit: str | None = None
    changed_paths: int = 0
    files_indexed: int = 0
    files_removed: int = 0
    chunks: int = 0
    embedded: int = 0
    embeddings_cached: int = 0
    vectors_filled: int = 0
    pending_vectors: int = 0
    model_id: str | None = None
    skipped: list[dict[str, str]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    seconds: float = 0.0
    overlay: bool = False  # rows indexed from the work tree are in the index
    vec_state: str = "synced"  # the vec0 table: synced | pending (ids wait) | rebuild (all wait)
    word_cache: dict[str, Any] | None = None  # BM25 word scores kept for warm starts (large full builds)
    deferred: int = 0  # new chunks this run could have embedded but left pending (its time was up)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def update_index(ws: Workspace, settings: UpdateSettings | None = None, *, embedder: Any = LOAD) -> IndexReport:
    """One update under the index lock, as `settings` say (default: a plain `memgit index`'s
    update without its fill), with `embedder` (LOAD: loaded when there is text to embed; None: no
    model). Front ends do not call this with settings of their own: they name a policy
    (`freshen.freshen`), whose row is the settings."""
    settings = (settings or UpdateSettings()).but(vector_dir=ws.data_dir)
    if not settings.loads_model:
        embedder = None
    started = time.perf_counter()
    notices: list[str] = []
    lazy = embedder if isinstance(embedder, LazyEmbedder) else LazyEmbedder(ws, embedder)
    with index_lock(ws, settings.lock_wait, settings.on_wait):
        if not settings.full and seed_from_main(ws):
            notices.append("a new worktree: its index starts from a copy of the main worktree's")
        store = open_store(ws, notices)
        try:
            with sqlite_errors(store):
                clear_marker(ws)
                report = run_update(ws, store, lazy.get, settings)
        finally:
            store.close()
        if report.mode != "due":
            _write_marker(ws, report)
    if lazy.notice:
        notices.append(lazy.notice)
    report.notices[:0] = notices
    report.seconds = round(time.perf_counter() - started, 4)
    return report


def _write_marker(ws: Workspace, report: IndexReport) -> None:
    try:
        write_marker(ws, report.tree or trees.EMPTY_TREE, overlay=report.overlay)
    except OSError as exc:
        raise IndexUnavailable(
            f"the index was updated but its marker could not be written ({exc.strerror or exc}); "
            f"check the free space and permissions of {ws.data_dir}"
        ) from None


@contextlib.contextmanager
def sqlite_errors(store: Store) -> Iterator[None]:
    """SQLite and file-system failures during an update: one clear line, the index kept."""
    try:
        yield
    except store.backend.module.Error as exc:
        if is_corruption(exc):
            raise CorruptIndex(
                f"index database {store.path} is damaged ({exc}); run `memgit index --full` to rebuild it"
            ) from None
        raise IndexUnavailable(describe_sqlite_error(store.path, exc)) from None
    except OSError as exc:
        if exc.errno is None:
            raise
        raise IndexUnavailable(
            f"writing the index files in {store.path.parent} failed ({exc.strerror or exc}); the database was kept; "
            "free some space or fix the permissions, then run `memgit index`"
        ) from None


#: Files chunked, embedded and written at a time (a large build holds one batch, not all).
WRITE_BATCH_FILES = 512
#: Vectors an update carries in memory for the vector files' delta; past this many the files
#: are rewritten from the cache instead (a delta that large is compacted into a new base anyway).
KEEP_VECTORS_MAX = 20_000


def _repair_vector_files(store: Store, data_dir: Path, index_id: str, model: str | None, generation: int) -> None:
    """`matrix.repair_vector_files`, without importing the vector modules for a BM25-only index
    (whose only vector files are stale ones to delete): a one-file update's imports are a third
    of its cost."""
    if model is None:
        for name in ("vectors.f32", "vectors.delta"):
            with contextlib.suppress(FileNotFoundError):
                (data_dir / name).unlink()
        return
    from memgit.index.matrix import repair_vector_files

    repair_vector_files(store, data_dir, index_id=index_id, model_id=model, generation=generation)


def _batches(items: list[FileState], size: int) -> Iterator[list[FileState]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def run_update(
    ws: Workspace, store: Store, get_embedder: Callable[[], Embedder | None], settings: UpdateSettings
) -> IndexReport:
    """One update of `store` to `settings.target` (default: HEAD); the caller holds the lock."""
    commit, tree = settings.target or ws.git.head_ids()
    tree = tree or trees.EMPTY_TREE
    report = IndexReport(tree=tree, commit=commit)
    if commit is None and settings.target is None:
        report.notices.append("the repository has no commits yet: nothing to index until the first commit")
    meta, params = store.meta(), index_params(ws)
    reason, entries = _changes(ws, store, meta, params, (commit, tree), settings)
    if reason and not settings.rebuild and reason != "new index" and not reason.endswith(CHEAPER):
        return _rebuild_due(report, reason)
    plan = _plan(ws, store, meta, params, report, reason, entries, worktree=settings.worktree)
    if _nothing_to_do(store, plan, get_embedder):
        return _noop(store, plan, report, settings.vector_dir)
    vectors = _prepare_vectors(store, plan, get_embedder, settings, report)
    # Files are chunked, embedded and written a batch at a time inside the one transaction, so a
    # large build holds one batch of chunks and vectors, never all of them (the embedding cache
    # is committed batch by batch on its own connection: an interrupted build resumes there).
    with store.update_transaction():
        if plan.reason:
            store.clear_all()
        written = _write_files(ws, store, plan, vectors, settings.progress, report)
        _finish_transaction(store, plan, vectors, written, report)
    _announce(report, plan, vectors, written)
    report.overlay = bool(store.worktree_paths())
    if settings.vector_dir is not None:
        _carry_vector_files(store, settings.vector_dir, plan, vectors, written)
    return report


# Plain classes, not dataclasses: building a dataclass costs ~0.3 ms at import, and this module
# is imported by every hook that updates the index.
class _Plan:
    """What the index holds now and what this update changes."""

    __slots__ = ("meta", "params", "tree", "commit", "reason", "states")

    def __init__(
        self,
        meta: dict[str, str],
        params: dict[str, Any],
        tree: str,
        commit: str | None,
        reason: str | None,
        states: list[FileState],
    ) -> None:
        self.meta, self.params, self.tree, self.commit = meta, params, tree, commit
        self.reason = reason  # why this update rebuilds everything (None: it follows the diff)
        self.states = states  # the paths that change, with what they hold now

    @property
    def generation(self) -> int:
        return int(self.meta.get("generation", "0"))

    @property
    def provider(self) -> str:
        return str(self.params["embedding"]["provider"])

    @property
    def keeps_model(self) -> bool:
        """The index's model stays: a diff, or a rebuild only because it is cheaper than the diff
        (which must give what the diff would, vectors pending included)."""
        return self.reason is None or self.reason.endswith(CHEAPER)

    @property
    def indexed_model(self) -> str | None:
        return (self.meta.get("model_id") or None) if self.keeps_model else None


class _Vectors:
    """How this update gets its vectors: the model it embeds for, and until when (the settings'
    `embed_seconds` from now: the model is loaded by then)."""

    __slots__ = ("plan", "embedder", "can_embed", "deadline", "began", "deferred")

    def __init__(
        self, plan: VectorPlan, embedder: Embedder | None, can_embed: bool, *, deferred: bool, seconds: float | None
    ) -> None:
        self.plan, self.embedder, self.can_embed = plan, embedder, can_embed
        # no new chunk is embedded after this (time.monotonic())
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.began = False  # new chunks were embedded (under a deadline the first batch always is)
        self.deferred = deferred  # nothing is embedded: the update's text only (`defer_paths`)


class _Written:
    """What the write transaction changed."""

    __slots__ = ("removed_ids", "added_ids", "kept", "pending")

    def __init__(self) -> None:
        self.removed_ids: list[int] = []
        self.added_ids: list[int] = []
        self.kept: list[tuple[int, bytes]] | None = []  # vectors for the delta; None: rewrite the files
        self.pending = 0


def _changes(
    ws: Workspace,
    store: Store,
    meta: dict[str, str],
    params: dict[str, Any],
    head: tuple[str | None, str],
    settings: UpdateSettings,
) -> tuple[str | None, dict[str, trees.Entry | None]]:
    """Why a full rebuild is needed (None: it is not), else the entries the diff changed (the
    caller's, when it took that very diff to decide this update was due)."""
    commit, tree = head
    old_params = json.loads(meta["params"]) if "params" in meta else None
    if settings.full:
        return "full rebuild requested", {}
    if old_params != params:
        return describe_param_change(old_params, params), {}
    old_tree, known = meta.get("tree"), settings.known
    diff = known.entries if known and known.applies(old_tree, commit, tree) else None
    try:
        entries = changed_entries(ws, old_tree, tree, store.worktree_paths(), diff)
    except trees.MissingTree:
        return f"indexed tree {(old_tree or '')[:12]} is no longer in the repository", {}
    if len(entries) >= REBUILD_MIN_PATHS and len(entries) > REBUILD_SHARE * (indexed := store.file_count()):
        return f"{len(entries)} paths changed of {indexed} indexed{CHEAPER}", {}
    return None, entries


#: A diff touching more than this share of the indexed files (and at least `REBUILD_MIN_PATHS`)
#: is applied as a rebuild: deleting and re-adding most rows one path at a time cost more than
#: clearing the tables (measured: 643 of 654 files, 7.1 s by the diff, 6.2 s rebuilt). The
#: result is the same either way, and vectors come from the embedding cache in both.
#: Since a changed file keeps the rows of the chunks whose text it still holds (most of them, across a
#: checkout: 83 % of the new chunks of 200 sampled files of a docs repository 200 commits apart),
#: the diff is cheaper up to most of the files: 1,673 of 3,097 files, 6.9 s rebuilt.
REBUILD_SHARE = 0.9
REBUILD_MIN_PATHS = 64
#: The end of a rebuild reason that only says a rebuild is the cheaper way to the same index
#: (a hook, which never starts a costly rebuild, takes this one).
CHEAPER = ": a rebuild is cheaper than the diff"


def _rebuild_due(report: IndexReport, reason: str) -> IndexReport:
    """A hook never rebuilds: it says a rebuild is due and leaves the index as it is."""
    report.mode, report.reason = "due", reason
    report.notices.append(f"a full rebuild of the index is due ({reason}); run `memgit index`")
    return report


def _plan(
    ws: Workspace,
    store: Store,
    meta: dict[str, str],
    params: dict[str, Any],
    report: IndexReport,
    reason: str | None,
    entries: dict[str, trees.Entry | None],
    *,
    worktree: bool,
) -> _Plan:
    """The changed paths' states (every memory file of the tree for a rebuild, plus work-tree
    overlays), and the vec0 table opened for an index that has (or had) vectors: a BM25-only
    update never pays for sqlite-vec. Where it cannot load, the table waits (`Vec0.sync`)."""
    assert report.tree is not None
    if reason:
        entries = dict(tree_states(ws, report.tree))
    overlay = worktree_overlay(ws) if worktree else {}
    stored = {} if reason else store.files_for(set(entries) | set(overlay))
    states = plan_states(ws, entries, overlay, stored, rebuild=bool(reason))
    plan = _Plan(meta, params, report.tree, report.commit, reason, states)
    if plan.indexed_model or "vec_dim" in meta or "vec_state" in meta:
        store.vec.enable()
    return plan


def _nothing_to_do(store: Store, plan: _Plan, get_embedder: Callable[[], Embedder | None]) -> bool:
    """No path changed, the tree is the indexed one, no vector waits for the vec0 table, and no
    model this process loads could be adopted by an index built without one (vectors left
    pending are the fill's: `fill.py`)."""
    if plan.reason or plan.states or plan.meta.get("tree") != plan.tree:
        return False
    if store.vec.loaded and store.vec.waiting():
        return False
    adoptable = plan.indexed_model is None and plan.provider != "none"
    return not (adoptable and get_embedder() is not None)


def _noop(store: Store, plan: _Plan, report: IndexReport, vector_dir: Path | None) -> IndexReport:
    report.mode = "noop"
    report.model_id = plan.indexed_model
    report.pending_vectors = int(plan.meta.get("pending_vectors", "0") or 0) if plan.indexed_model else 0
    report.vec_state = plan.meta.get("vec_state") or "synced"
    report.overlay = bool(store.worktree_paths())
    if vector_dir is not None:
        _repair_vector_files(store, vector_dir, plan.meta["index_id"], plan.indexed_model, plan.generation)
    return report


def _prepare_vectors(
    store: Store,
    plan: _Plan,
    get_embedder: Callable[[], Embedder | None],
    settings: UpdateSettings,
    report: IndexReport,
) -> _Vectors:
    """Open the model when there is text to embed (or a model to adopt) and decide which model
    the index's vectors belong to, before the write transaction. A deferred update (too many
    paths) opens it only to adopt one: the text must not wait for llama.cpp to load."""
    has_text = any(st.content is not None and not st.skipped for st in plan.states)
    deferred = settings.defer_paths is not None and len(plan.states) > settings.defer_paths
    wanted = plan.provider != "none" and (
        (has_text and not deferred) or plan.indexed_model is None or not plan.keeps_model
    )
    embedder = get_embedder() if wanted else None
    vplan = plan_vectors(plan.indexed_model, embedder, rebuild=not plan.keeps_model, provider=plan.provider)
    if vplan.notice:
        report.notices.append(vplan.notice)
    if vplan.model_id:  # a model adopted or chosen by a rebuild: its vectors go to the vec0 table too
        store.vec.enable()
    can_embed = bool(vplan.model_id and embedder is not None and vplan.can_embed)
    return _Vectors(vplan, embedder, can_embed, deferred=deferred, seconds=settings.embed_seconds)


def _keep_chunks(into: dict[str, list[Chunk]], state: FileState, chunks: list[Chunk]) -> None:
    into[state.path] = chunks


def _write_files(
    ws: Workspace, store: Store, plan: _Plan, vectors: _Vectors, progress: ProgressFn | None, report: IndexReport
) -> _Written:
    """Chunk, embed and write the changed files a batch at a time (inside the transaction);
    `progress` counts the files written, of all the update's (a total that never changes)."""
    written = _Written()
    total = len(plan.states)
    done = 0
    if progress is not None:
        progress(0, total)
    for batch in _batches(plan.states, WRITE_BATCH_FILES):
        chunked: dict[str, list[Chunk]] = {}
        chunk_states(ws, batch, report, functools.partial(_keep_chunks, chunked))
        # A changed file keeps the rows of the chunks whose text it still holds (moved, if their
        # lines moved): only the new texts are written, indexed by FTS5 and embedded.
        reuse = {st.path: _reuse(store, st, chunked.get(st.path, []), bool(plan.reason)) for st in batch}
        batch_vectors = _batch_vectors(store, vectors, {p: r.new for p, r in reuse.items()}, report)
        for state in batch:
            _write_file(store, state, reuse[state.path], batch_vectors, written, report, vectors.plan.model_id)
            done += 1
            if progress is not None and (done % 64 == 0 or done == total):
                progress(done, total)
        if written.kept is not None and len(written.kept) > KEEP_VECTORS_MAX:
            written.kept = None  # too many to carry in memory: the files are rewritten from the cache
    return written


def _batch_vectors(
    store: Store,
    vectors: _Vectors,
    chunked: dict[str, list[Chunk]],
    report: IndexReport,
) -> dict[str, bytes]:
    """One batch's vectors by text hash: embedded where the cache lacks them (when this process
    can), else whatever the cache holds for the index's model."""
    texts = {c.text_hash: c.text for chunks in chunked.values() for c in chunks}
    model_id = vectors.plan.model_id
    if not texts or model_id is None:
        return {}
    # Under a deadline the first small batch is always embedded (a one-note commit's chunks get
    # their vectors however busy the machine is); after it, only while there is time.
    timely = vectors.deadline is None or not vectors.began or time.monotonic() < vectors.deadline
    if vectors.can_embed and timely and not vectors.deferred:
        assert vectors.embedder is not None
        vectors.began = True
        found = embed_missing(store.cache, vectors.embedder, model_id, texts, None, report, deadline=vectors.deadline)
    else:
        found = store.cache.get(model_id, texts)
        report.embeddings_cached += len(found)
    if vectors.can_embed or vectors.deferred:
        report.deferred += len(texts) - len(found)
    return found


class _Reuse:
    """One changed file against its rows: chunks to add, kept rows to move, rows to delete."""

    __slots__ = ("new", "moves", "gone")

    def __init__(self, new: list[Chunk], moves: list[tuple[int, int, int | None, int | None, int]], gone: list[int]):
        self.new, self.moves, self.gone = new, moves, gone


def _reuse(store: Store, state: FileState, chunks: list[Chunk], rebuild: bool) -> _Reuse:
    """Match the file's new chunks to its stored ones by text (a rebuild has none stored)."""
    if rebuild:
        return _Reuse(chunks, [], [])
    old = store.path_chunks(state.path)
    if state.content is None and state.source == "tree":
        return _Reuse([], [], [row[0] for row in old])
    return match_chunks(old, chunks)


def match_chunks(old: list[tuple[int, str, int, int, int | None, int | None]], chunks: list[Chunk]) -> _Reuse:
    """Pure: each new chunk takes a stored row of the same text (first unused, in id order), which
    is moved when its place differs; the other new chunks are added, the other rows deleted. The
    rows that result are the ones a rebuild would write, ids aside."""
    by_text: dict[str, list[tuple[int, str, int, int, int | None, int | None]]] = {}
    for row in old:
        by_text.setdefault(row[1], []).append(row)
    new: list[Chunk] = []
    moves: list[tuple[int, int, int | None, int | None, int]] = []
    for chunk in chunks:
        same = by_text.get(chunk.text_hash)
        if not same:
            new.append(chunk)
            continue
        row = same.pop(0)
        place = (chunk.start_line, chunk.end_line, chunk.start_char, chunk.end_char)
        if place != row[2:]:
            moves.append((*place, row[0]))
    return _Reuse(new, moves, [row[0] for rows in by_text.values() for row in rows])


def _write_file(
    store: Store,
    state: FileState,
    reuse: _Reuse,
    vectors: dict[str, bytes],
    written: _Written,
    report: IndexReport,
    model_id: str | None,
) -> None:
    """One path's rows brought to its new content: its file row, the chunks it no longer holds
    deleted, the ones it still holds moved, the new ones added with their FTS rows (or the file
    removed); a new chunk that got no vector goes on the pending list (with a model: without one
    nothing is pending)."""
    store.delete_chunks(reuse.gone)
    written.removed_ids.extend(reuse.gone)
    if state.content is None and state.source == "tree":
        store.delete_path(state.path)
        report.files_removed += 1
        return
    store.move_chunks(reuse.moves)
    store.put_file(state.path, state.blob, state.mode, state.source, state.skipped)
    chunks = reuse.new
    added = store.add_chunks(
        state.path,
        paths.daily_date(state.path),
        ((c.start_line, c.end_line, c.text, c.text_hash, c.start_char, c.end_char) for c in chunks),
    )
    waiting: list[int] = []
    for chunk_id, thash in added:
        written.added_ids.append(chunk_id)
        vector = vectors.get(thash)
        if vector is None:
            waiting.append(chunk_id)
        elif written.kept is not None:
            written.kept.append((chunk_id, vector))
    if waiting and model_id is not None:
        store.mark_pending(waiting)
    if state.content is not None and not state.skipped:
        report.files_indexed += 1


def _finish_transaction(store: Store, plan: _Plan, vectors: _Vectors, written: _Written, report: IndexReport) -> None:
    """The pending list, vec0 rows and meta (a new generation), in the same transaction as the chunks."""
    vplan = vectors.plan
    if vplan.model_id is None:
        store.clear_pending()  # no model, nothing to wait for
    elif vplan.adopted:
        store.pend_uncached(vplan.model_id)  # the index's chunks wait for the model it adopts now
    written.pending = store.pending_total() if vplan.model_id is not None else 0
    reset = bool(plan.reason) or vplan.adopted
    changed = [*written.removed_ids, *written.added_ids]
    report.vec_state = store.vec.sync(vplan.model_id, [] if reset else changed, reset=reset)
    old_count = int(plan.meta.get("chunk_count", "0"))
    added, removed = len(written.added_ids), len(written.removed_ids)
    store.set_meta(
        {
            "tree": plan.tree,
            "commit": plan.commit,
            "params": json.dumps(plan.params, sort_keys=True),
            "model_id": vplan.model_id,
            "updated_at": str(time.time()),
            "generation": str(plan.generation + 1),
            "pending_vectors": str(written.pending),
            "chunk_count": str(added + (0 if plan.reason else old_count - removed)),
        }
    )


def _announce(report: IndexReport, plan: _Plan, vectors: _Vectors, written: _Written) -> None:
    """The report's counts, and the notices for what this run left for another."""
    report.chunks = len(written.added_ids)
    report.pending_vectors = written.pending
    report.model_id = vectors.plan.model_id
    report.mode = "full" if plan.reason else "incremental"
    report.reason = plan.reason
    report.changed_paths = len(plan.states)
    if written.pending:
        why = "this run embedded what fitted its time" if report.deferred else "this run could not embed"
        report.notices.append(
            f"{written.pending} chunk vectors are pending ({why}); searches rank those chunks by BM25 "
            "until `memgit index` embeds them (with progress; searches and the MCP server also fill them)"
        )
    if report.vec_state != "synced":
        report.notices.append(
            "the vec0 table (chunks_vec) waits for a process that loads sqlite-vec; "
            "the next `memgit index` where it loads fills it (see `memgit doctor`)"
        )


def _carry_vector_files(store: Store, vector_dir: Path, plan: _Plan, vectors: _Vectors, written: _Written) -> None:
    """Bring the memory-mapped vector files to the new generation (a delta, or a rewrite)."""
    index_id, model_id, generation = plan.meta["index_id"], vectors.plan.model_id, plan.generation
    if model_id is None:
        _repair_vector_files(store, vector_dir, index_id, None, generation + 1)
        return
    from memgit.index.matrix import sync_vector_files

    sync_vector_files(
        store,
        vector_dir,
        index_id=index_id,
        model_id=model_id,
        dim=None,
        old_generation=generation,
        generation=generation + 1,
        removed=written.removed_ids,
        added=list(written.kept or []),
        rewrite=bool(plan.reason) or vectors.plan.adopted or written.kept is None,
    )
