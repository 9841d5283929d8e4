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
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memgit.core import paths
from memgit.core.chunking import Chunk
from memgit.embed import Embedder
from memgit.git import plumbing
from memgit.index.embedding import ProgressFn, embed_missing, plan_vectors
from memgit.index.layout import clear_marker, write_marker
from memgit.index.lock import index_lock
from memgit.index.open import UNSET, LazyEmbedder, open_store
from memgit.index.params import describe_param_change, index_params
from memgit.index.plan import FileState, changed_entries, chunk_states, plan_states, tree_states, worktree_overlay
from memgit.index.store import CorruptIndex, IndexUnavailable, Store, describe_sqlite_error, is_corruption
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def update_index(
    ws: Workspace,
    *,
    full: bool = False,
    worktree: bool = False,
    progress: ProgressFn | None = None,
    embedder: Any = UNSET,
    lock_timeout: float | None = 30.0,
    allow_rebuild: bool = True,
    fill_limit: int | None = None,
    fill_seconds: float | None = None,
) -> IndexReport:
    """Bring the index to HEAD (plus uncommitted memory files with `worktree`).

    `allow_rebuild=False` (hooks) never rebuilds an existing index: when one is due the report
    says so (mode "due") and the index is left as it is. `fill_limit` / `fill_seconds` bound how
    many vectors left pending by earlier runs this one embeds (None: all of them); the chunks
    this update adds are always embedded when the model loads.
    """
    started = time.perf_counter()
    notices: list[str] = []
    lazy = LazyEmbedder(ws, embedder)
    with index_lock(ws, lock_timeout):
        store = open_store(ws, notices)
        try:
            with _sqlite_errors(store):
                clear_marker(ws)
                report = run_update(
                    ws, store, lazy.get, full=full, worktree=worktree, progress=progress,
                    allow_rebuild=allow_rebuild, vector_dir=ws.data_dir,
                    fill_limit=fill_limit, fill_seconds=fill_seconds,
                )
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
        write_marker(ws, report.tree or plumbing.EMPTY_TREE, overlay=report.overlay)
    except OSError as exc:
        raise IndexUnavailable(
            f"the index was updated but its marker could not be written ({exc.strerror or exc}); "
            f"check the free space and permissions of {ws.data_dir}"
        ) from None


@contextlib.contextmanager
def _sqlite_errors(store: Store):  # type: ignore[no-untyped-def]
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


class _CumulativeProgress:
    """One progress count across the batches of an update (each batch reports its own)."""

    def __init__(self, progress: ProgressFn | None) -> None:
        self._progress = progress
        self._base = 0
        self._last = 0

    def __call__(self, done: int, total: int) -> None:
        if self._progress is None:
            return
        if done == 0 and self._last:
            self._base += self._last
            self._last = 0
        self._last = done
        self._progress(self._base + done, self._base + total)

    def __bool__(self) -> bool:
        return self._progress is not None


def run_update(
    ws: Workspace,
    store: Store,
    get_embedder: Callable[[], Embedder | None],
    *,
    full: bool,
    worktree: bool,
    progress: ProgressFn | None,
    allow_rebuild: bool = True,
    target: tuple[str | None, str] | None = None,
    vector_dir: Path | None = None,
    fill_limit: int | None = None,
    fill_seconds: float | None = None,
) -> IndexReport:
    """One update of `store` to `target` (default: HEAD); the caller holds the lock."""
    commit, tree = target or plumbing.head_ids(ws.root)
    tree = tree or plumbing.EMPTY_TREE
    meta = store.meta()
    params = index_params(ws)
    old_params = json.loads(meta["params"]) if "params" in meta else None
    old_tree = meta.get("tree")
    report = IndexReport(tree=tree, commit=commit)
    if commit is None and target is None:
        report.notices.append("the repository has no commits yet: nothing to index until the first commit")

    reason = None
    if full:
        reason = "full rebuild requested"
    elif old_params != params:
        reason = describe_param_change(old_params, params)
    entries: dict[str, plumbing.Entry | None] = {}
    if not reason:
        try:
            entries = changed_entries(ws, old_tree, tree, store.worktree_paths())
        except plumbing.MissingTree:
            reason = f"indexed tree {(old_tree or '')[:12]} is no longer in the repository"
    if reason and not allow_rebuild and reason != "new index":
        report.mode, report.reason = "due", reason
        report.notices.append(f"a full rebuild of the index is due ({reason}); run `memgit index`")
        return report
    if reason:
        entries = dict(tree_states(ws, tree))

    overlay = worktree_overlay(ws) if worktree else {}
    stored = {} if reason else store.files_for(set(entries) | set(overlay))
    states = plan_states(ws, entries, overlay, stored, rebuild=bool(reason))

    generation = int(meta.get("generation", "0"))
    index_id = meta["index_id"]
    provider = params["embedding"]["provider"]
    indexed_model = None if reason else (meta.get("model_id") or None)
    pending_before = 0 if reason else int(meta.get("pending_vectors", "0"))

    adoptable = indexed_model is None and provider != "none" and not reason
    # sqlite-vec is loaded only for an index that has (or had) vectors: a BM25-only update never
    # pays for it. Where it cannot load, the vec0 table waits (`Store.sync_vec`), nothing else.
    if indexed_model or "vec_dim" in meta or "vec_state" in meta:
        store.enable_vec()
    vec_due = store.vec and store.vec_waiting()
    if (
        not reason
        and not states
        and old_tree == tree
        and pending_before == 0
        and not vec_due
        and not (adoptable and get_embedder() is not None)
    ):
        report.mode = "noop"
        report.model_id = indexed_model
        report.vec_state = meta.get("vec_state") or "synced"
        report.overlay = bool(store.worktree_paths())
        if vector_dir is not None:
            _repair_vector_files(store, vector_dir, index_id, indexed_model, generation)
        return report

    has_text = any(st.content is not None and not st.skipped for st in states)
    embedder = get_embedder() if provider != "none" and (has_text or pending_before or indexed_model is None) else None
    vplan = plan_vectors(indexed_model, embedder, rebuild=bool(reason), provider=provider)
    if vplan.notice:
        report.notices.append(vplan.notice)
    if vplan.model_id:  # a model adopted or chosen by a rebuild: its vectors go to the vec0 table too
        store.enable_vec()
    can_embed = bool(vplan.model_id and embedder is not None and vplan.can_embed)
    fill: list[tuple[int, str]] = []
    fill_texts: dict[str, str] = {}
    if vplan.can_embed and (pending_before or vplan.adopted) and vplan.model_id:
        # Chunks left pending by earlier runs, oldest first; a bounded run (a search, a hook,
        # a step of the MCP server's background fill) takes at most `fill_limit` of them and
        # stops embedding them after `fill_seconds`: the rest stay pending for the next run.
        for chunk_id, thash, text in store.pending_chunks(vplan.model_id, limit=fill_limit):
            fill_texts.setdefault(thash, text)
            fill.append((chunk_id, thash))
    fill_vectors: dict[str, bytes] = {}
    if can_embed and fill_texts:
        assert embedder is not None and vplan.model_id is not None
        deadline = None if fill_seconds is None else time.monotonic() + fill_seconds
        fill_vectors = embed_missing(
            store, embedder, vplan.model_id, fill_texts, progress, report, deadline=deadline
        )

    # Files are chunked, embedded and written a batch at a time inside the one transaction, so a
    # large build holds one batch of chunks and vectors, never all of them (the embedding cache
    # is committed batch by batch on its own connection: an interrupted build resumes there).
    removed_ids: list[int] = []
    added_ids: list[int] = []
    kept: list[tuple[int, bytes]] | None = []  # vectors for the vector files' delta; None: rewrite
    missing_now = False
    counting = _CumulativeProgress(progress)
    with store.update_transaction():
        if reason:
            store.clear_all()
        for batch in _batches(states, WRITE_BATCH_FILES):
            chunked: dict[str, list[Chunk]] = {}
            chunk_states(ws, batch, report, lambda state, chunks, into=chunked: into.__setitem__(state.path, chunks))
            texts = {c.text_hash: c.text for chunks in chunked.values() for c in chunks}
            vectors: dict[str, bytes] = {}
            if can_embed and texts:
                assert embedder is not None and vplan.model_id is not None
                vectors = embed_missing(store, embedder, vplan.model_id, texts, counting, report)
            elif vplan.model_id and texts:
                vectors = store.cached_vectors(vplan.model_id, texts)
                report.embeddings_cached += len(vectors)
            for state in batch:
                removed_ids.extend(store.delete_path(state.path))
                if state.content is None and state.source == "tree":
                    report.files_removed += 1
                    continue
                store.put_file(state.path, state.blob, state.mode, state.source, state.skipped)
                chunks = chunked.get(state.path, [])
                added = store.add_chunks(
                    state.path,
                    paths.daily_date(state.path),
                    ((c.start_line, c.end_line, c.text, c.text_hash) for c in chunks),
                )
                for chunk_id, thash in added:
                    added_ids.append(chunk_id)
                    vector = vectors.get(thash)
                    if vector is None:
                        missing_now = True
                    elif kept is not None:
                        kept.append((chunk_id, vector))
                if state.content is not None and not state.skipped:
                    report.files_indexed += 1
            if kept is not None and len(kept) > KEEP_VECTORS_MAX:
                kept = None  # too many to carry in memory: the files are rewritten from the cache
        gone = set(removed_ids)
        filled = [(i, h) for i, h in fill if i not in gone and h in fill_vectors]
        if vplan.model_id is None:
            pending = 0
        elif pending_before or missing_now or vplan.adopted:
            pending = store.pending_count(vplan.model_id)
        else:
            pending = 0
        reset = bool(reason) or vplan.adopted
        report.vec_state = store.sync_vec(
            vplan.model_id, [] if reset else [*removed_ids, *added_ids, *(i for i, _ in filled)], reset=reset
        )
        old_count = int(meta.get("chunk_count", "0"))
        store.set_meta(
            {
                "tree": tree,
                "commit": commit,
                "params": json.dumps(params, sort_keys=True),
                "model_id": vplan.model_id,
                "updated_at": str(time.time()),
                "generation": str(generation + 1),
                "pending_vectors": str(pending),
                "chunk_count": str(len(added_ids) + (0 if reason else old_count - len(removed_ids))),
            }
        )
    report.chunks = len(added_ids)
    report.vectors_filled = len(filled)
    report.pending_vectors = pending
    report.model_id = vplan.model_id
    report.overlay = bool(store.worktree_paths())
    if pending:
        report.notices.append(
            f"{pending} chunk vectors are pending (this run could not embed); "
            "the next `memgit index` or search with the model fills them"
        )
    if report.vec_state != "synced":
        report.notices.append(
            "the vec0 table (chunks_vec) waits for a process that loads sqlite-vec; "
            "the next `memgit index` where it loads fills it (see `memgit doctor`)"
        )
    if vector_dir is not None and vplan.model_id is None:
        _repair_vector_files(store, vector_dir, index_id, None, generation + 1)
    elif vector_dir is not None:
        from memgit.index.matrix import sync_vector_files

        sync_vector_files(
            store,
            vector_dir,
            index_id=index_id,
            model_id=vplan.model_id,
            dim=None,
            old_generation=generation,
            generation=generation + 1,
            removed=removed_ids,
            added=[*(kept or []), *((i, fill_vectors[h]) for i, h in filled)],
            rewrite=bool(reason) or vplan.adopted or kept is None,
        )
    report.mode = "full" if reason else "incremental"
    report.reason = reason
    report.changed_paths = len(states)
    return report
