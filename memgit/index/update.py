"""Keeps the index equal to a function of a git tree, updating it by tree-to-tree diffs.

One update = plan (which paths changed, what they hold now) -> embed what the cache lacks
(committed in small batches, so an interrupted run resumes without re-embedding) -> one write
transaction. A full rebuild runs the same path with "every memory file" as the change set, so
incremental and full results are the same by construction, and `verify_index` checks it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memgit.core import paths
from memgit.core.chunking import Chunk, char_token_counter, chunk_lines, split_lines
from memgit.core.text import NotText, decode_memory_text
from memgit.core.transcripts import transcript_lines
from memgit.embed import Embedder
from memgit.errors import IndexLocked
from memgit.git import plumbing
from memgit.index.store import SCHEMA_VERSION, CorruptIndex, Store, backend
from memgit.workspace import Workspace

ProgressFn = Callable[[int, int], None]
EMBED_BATCH = 32
_UNSET: Any = object()


@dataclass
class IndexReport:
    mode: str = "noop"  # noop | incremental | full
    reason: str | None = None  # why a full rebuild happened
    tree: str | None = None
    commit: str | None = None
    changed_paths: int = 0
    files_indexed: int = 0
    files_removed: int = 0
    chunks: int = 0
    embedded: int = 0
    embeddings_cached: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class VerifyReport:
    ok: bool
    differences: list[str]
    tree: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class FileState:
    """What one path should hold in the index after this update (None content = remove)."""

    path: str
    blob: str
    mode: int
    source: str
    content: bytes | None
    skipped: str | None = None


# -- paths of the per-clone data ------------------------------------------------------------
def index_path(ws: Workspace) -> Path:
    return ws.data_dir / "index.sqlite"


def cache_path(ws: Workspace) -> Path:
    return ws.data_dir / "embed-cache.sqlite"


def _update_matrix(
    store: Store,
    data_dir: Path,
    embedder: Embedder | None,
    vectors: dict[str, bytes] | None,
    old_generation: int,
    generation: int,
    removed: list[int],
    added: list[tuple[int, str]],
    *,
    rebuilt: bool,
) -> None:
    """Carry the search vectors to the new generation at the cost of the diff.

    Runs after the SQLite commit; if it dies half-way the files keep an older generation and
    search uses vec0 until the next update rewrites them from SQLite.
    """
    from memgit.index import vectors as vector_files

    if embedder is None or vectors is None:
        vector_files.remove_files(data_dir)
        return
    import numpy as np

    dim = embedder.dim
    present = [(i, h) for i, h in added if h in vectors]
    rows = np.frombuffer(b"".join(vectors[h] for _, h in present), dtype="<f4").reshape(len(present), dim)
    ids = [i for i, _ in present]
    if rebuilt:
        vector_files.write_base(data_dir, generation, np.asarray(ids, dtype="<i8"), rows, dim)
        return
    if not vector_files.advance(data_dir, old_generation, generation, removed, ids, rows, dim):
        _repair_matrix(store, data_dir, embedder, generation)


def _repair_matrix(store: Store, data_dir: Path, embedder: Embedder, generation: int) -> None:
    """A no-op update still rewrites missing or stale vector files (e.g. after a crash)."""
    from memgit.index import vectors as vector_files

    if not store.has_vec_table() or vector_files.VectorSet.open(data_dir, generation) is not None:
        return
    import numpy as np

    pairs = store.vectors_for(None)
    ids = np.asarray([p[0] for p in pairs], dtype="<i8")
    matrix = np.frombuffer(b"".join(p[1] for p in pairs), dtype="<f4").reshape(len(pairs), embedder.dim)
    vector_files.write_base(data_dir, generation, ids, matrix, embedder.dim)


def tree_marker_path(ws: Workspace) -> Path:
    """A tiny file holding the indexed tree id: lets hooks decide "nothing to do" without SQLite."""
    return ws.data_dir / "indexed_tree"


@contextlib.contextmanager
def index_lock(ws: Workspace, timeout: float | None = 30.0) -> Iterator[None]:
    """Keep two updates from interleaving; readers never need it (SQLite WAL)."""
    ws.data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(ws.data_dir / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + (timeout or 0)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if timeout is not None and time.monotonic() >= deadline:
                    raise IndexLocked(
                        f"another memgit run is updating the index ({ws.data_dir / 'lock'}); "
                        "try again when it finishes"
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)


def open_store(ws: Workspace, notices: list[str] | None = None) -> Store:
    """Open (creating) the index; a corrupt file is moved aside and rebuilt, with a notice."""
    ws.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        return Store(index_path(ws), cache_path(ws))
    except CorruptIndex as exc:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                index_path(ws).with_name(index_path(ws).name + suffix).unlink()
        if notices is not None:
            notices.append(f"{exc}; rebuilding it from scratch")
        try:
            return Store(index_path(ws), cache_path(ws))
        except CorruptIndex:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    cache_path(ws).with_name(cache_path(ws).name + suffix).unlink()
            if notices is not None:
                notices.append("the embedding cache was unreadable too; it was reset")
            return Store(index_path(ws), cache_path(ws))


def open_embedder(ws: Workspace, threads: int | None = None) -> tuple[Embedder | None, str | None]:
    """The configured embedder; `threads` overrides the config (queries are fastest on one)."""
    from memgit.embed.providers import open_embedder as open_provider

    cfg = ws.config.embedding
    return open_provider(cfg.provider, cfg.model or None, n_threads=threads or cfg.threads)


def index_params(ws: Workspace, embedder: Embedder | None) -> dict[str, Any]:
    """Everything whose change makes the stored chunks or vectors stale."""
    chunking = ws.config.chunking
    memory = ws.config.memory
    return {
        "schema": SCHEMA_VERSION,
        "model_id": embedder.model_id if embedder else None,
        "dim": embedder.dim if embedder else None,
        "chunking": {
            "max_tokens": min(chunking.max_tokens, embedder.max_tokens) if embedder else chunking.max_tokens,
            "overlap_tokens": chunking.overlap_tokens,
            "counter": "model" if embedder else f"chars/{chunking.chars_per_token}",
        },
        "memory": {
            "extra_paths": list(memory.extra_paths),
            "sessions": memory.sessions,
            "max_file_bytes": memory.max_file_bytes,
        },
        "vec0": bool(backend().vec_version),
    }


def _describe_param_change(old: dict[str, Any] | None, new: dict[str, Any]) -> str:
    if not old:
        return "new index"
    if old.get("schema") != new["schema"]:
        return f"index schema changed ({old.get('schema')} -> {new['schema']})"
    if old.get("model_id") != new["model_id"]:
        return f"embedding model changed ({old.get('model_id') or 'none'} -> {new['model_id'] or 'none'})"
    if old.get("chunking") != new["chunking"]:
        return "chunking settings changed"
    if old.get("memory") != new["memory"]:
        return "memory path settings changed"
    return "vector storage changed"


# -- the update -----------------------------------------------------------------------------
def update_index(
    ws: Workspace,
    *,
    full: bool = False,
    worktree: bool = False,
    progress: ProgressFn | None = None,
    embedder: Any = _UNSET,
    lock_timeout: float | None = 30.0,
) -> IndexReport:
    started = time.perf_counter()
    notices: list[str] = []
    with index_lock(ws, lock_timeout):
        if embedder is _UNSET:
            embedder, notice = open_embedder(ws)
            if notice:
                notices.append(notice)
        store = open_store(ws, notices)
        try:
            report = _update(
                ws, store, embedder, full=full, worktree=worktree, progress=progress,
                matrix_path=ws.data_dir,
            )
        finally:
            store.close()
        _write_marker(ws, report)
    report.notices[:0] = notices
    report.seconds = round(time.perf_counter() - started, 4)
    return report


def _write_marker(ws: Workspace, report: IndexReport) -> None:
    tmp = tree_marker_path(ws).with_suffix(".tmp")
    tmp.write_text(f"{report.tree or plumbing.EMPTY_TREE}\n")
    os.replace(tmp, tree_marker_path(ws))


def _update(
    ws: Workspace,
    store: Store,
    embedder: Embedder | None,
    *,
    full: bool,
    worktree: bool,
    progress: ProgressFn | None,
    target: tuple[str | None, str] | None = None,
    matrix_path: Path | None = None,
) -> IndexReport:
    commit, tree = target or plumbing.head_ids(ws.root)
    tree = tree or plumbing.EMPTY_TREE
    meta = store.meta()
    params = index_params(ws, embedder)
    old_params = json.loads(meta["params"]) if "params" in meta else None
    old_tree = meta.get("tree")
    report = IndexReport(tree=tree, commit=commit)
    if commit is None and target is None:
        report.notices.append("the repository has no commits yet: nothing to index until the first commit")

    reason = None
    if full:
        reason = "full rebuild requested"
    elif old_params != params:
        reason = _describe_param_change(old_params, params)
    elif old_tree and not plumbing.tree_exists(ws.root, old_tree):
        reason = f"indexed tree {old_tree[:12]} is no longer in the repository"

    tree_entries: dict[str, plumbing.Entry]
    if reason:
        tree_entries = {p: e for p, e in plumbing.entries(ws.root, tree).items() if ws.is_memory_path(p)}
        changed = set(tree_entries)
    else:
        changed = set()
        if old_tree != tree:
            changed = plumbing.diff_paths(ws.root, old_tree, tree)
        changed |= set(store.worktree_paths())
        tree_entries = plumbing.entries(ws.root, tree, [p for p in changed if ws.is_memory_path(p)])

    overlay: dict[str, bytes | None] = {}
    if worktree:
        for path in plumbing.worktree_changed_paths(ws.root):
            if ws.is_memory_path(path):
                full_path = ws.root / path
                if full_path.is_symlink():
                    overlay[path] = b""
                else:
                    overlay[path] = full_path.read_bytes() if full_path.is_file() else None
        changed |= set(overlay)

    stored = {} if reason else store.files()
    states: list[FileState] = []
    for path in sorted(changed):
        if not ws.is_memory_path(path):
            if path in stored:
                states.append(FileState(path, "", 0, "tree", None))
            continue
        state = _desired_state(ws, tree_entries.get(path), path, overlay)
        if state is None:
            if path in stored:
                states.append(FileState(path, "", 0, "tree", None))
            continue
        previous = stored.get(path)
        if previous and previous[:3] == (state.blob, state.mode, state.source) and not reason:
            continue
        states.append(state)

    unread = [st for st in states if st.source == "tree" and st.content == b"" and not st.skipped]
    if unread:
        blobs = plumbing.read_blobs(ws.root, [st.blob for st in unread])
        for st in unread:
            st.content = blobs[st.blob]

    if not reason and not states and old_tree == tree:
        report.mode = "noop"
        if matrix_path is not None and embedder is not None:
            _repair_matrix(store, matrix_path, embedder, int(meta.get("generation", "0")))
        return report

    chunked: dict[str, list[Chunk]] = {}
    counter = _token_counter(ws, embedder)
    chunk_params = params["chunking"]
    for state in states:
        if state.content is None:
            continue
        lines, problem = _decode(ws, state)
        if problem:
            state.skipped = problem
            report.skipped.append({"path": state.path, "reason": problem})
            continue
        chunked[state.path] = chunk_lines(
            lines,
            max_tokens=chunk_params["max_tokens"],
            overlap_tokens=chunk_params["overlap_tokens"],
            count_tokens=counter,
        )

    vectors = _embed_missing(store, embedder, chunked, progress, report) if embedder else None

    old_generation = int(meta.get("generation", "0"))
    removed_ids: list[int] = []
    added: list[tuple[int, str]] = []
    with store.transaction():
        if reason:
            store.clear_all()
            store.reset_vectors(embedder.dim if embedder else None)
        elif embedder and not store.has_vec_table():
            store.reset_vectors(embedder.dim)
        for state in states:
            removed_ids.extend(store.delete_path(state.path))
            if state.content is None and state.source == "tree":
                report.files_removed += 1
                continue
            store.put_file(state.path, state.blob, state.mode, state.source, state.skipped)
            chunks = chunked.get(state.path, [])
            added.extend(
                store.add_chunks(
                    state.path,
                    paths.daily_date(state.path),
                    ((c.start_line, c.end_line, c.text, c.text_hash) for c in chunks),
                    vectors,
                )
            )
            if state.content is not None and not state.skipped:
                report.files_indexed += 1
        store.set_meta(
            {
                "tree": tree,
                "commit": commit,
                "params": json.dumps(params, sort_keys=True),
                "model_id": params["model_id"],
                "updated_at": str(time.time()),
                "generation": str(old_generation + 1),
                "chunk_count": str(
                    len(added) + (0 if reason else int(meta.get("chunk_count", "0")) - len(removed_ids))
                )
                if reason or "chunk_count" in meta
                else None,
            }
        )
    report.chunks = len(added)
    if matrix_path is not None:
        _update_matrix(
            store, matrix_path, embedder, vectors, old_generation, old_generation + 1,
            removed_ids, added, rebuilt=bool(reason),
        )
    report.mode = "full" if reason else "incremental"
    report.reason = reason
    report.changed_paths = len(states)
    return report


def _desired_state(
    ws: Workspace, entry: plumbing.Entry | None, path: str, overlay: dict[str, bytes | None]
) -> FileState | None:
    """What `path` should hold; tree contents are filled in afterwards, in one batch read."""
    if path in overlay:
        data = overlay[path]
        if data is None:
            # Deleted in the work tree: recorded so the next HEAD-only update restores it.
            return FileState(path, "", 0, "worktree", None, "deleted in the work tree")
        if (ws.root / path).is_symlink():
            return FileState(path, "", 0o120000, "worktree", b"", "not a regular file (symlink)")
        return FileState(path, plumbing.blob_id_of(data), 0o100644, "worktree", data)
    if entry is None:
        return None
    if not entry.is_regular:
        return FileState(path, entry.blob, entry.mode, "tree", b"", "not a regular file (symlink)")
    return FileState(path, entry.blob, entry.mode, "tree", b"")


def _decode(ws: Workspace, state: FileState) -> tuple[list[tuple[int, str]], str | None]:
    """Numbered lines of a memory file, or why it cannot be indexed (never an exception)."""
    if state.skipped:
        return [], state.skipped
    data = state.content or b""
    limit = ws.config.memory.max_file_bytes
    if len(data) > limit:
        return [], f"larger than {limit} bytes ({len(data)}); raise [memory] max_file_bytes to index it"
    try:
        text = decode_memory_text(data)
    except NotText as exc:
        return [], exc.reason
    if state.path.endswith(".jsonl"):
        return transcript_lines(text), None
    return list(enumerate(split_lines(text), start=1)), None


def _token_counter(ws: Workspace, embedder: Embedder | None) -> Callable[[str], int]:
    if embedder is None:
        return char_token_counter(ws.config.chunking.chars_per_token)
    return embedder.count_tokens


def _embed_missing(
    store: Store,
    embedder: Embedder,
    chunked: dict[str, list[Chunk]],
    progress: ProgressFn | None,
    report: IndexReport,
) -> dict[str, bytes]:
    import numpy as np

    texts: dict[str, str] = {}
    for chunks in chunked.values():
        for chunk in chunks:
            texts.setdefault(chunk.text_hash, chunk.text)
    vectors = store.cached_vectors(embedder.model_id, texts)
    report.embeddings_cached = len(vectors)
    missing = [h for h in texts if h not in vectors]
    if progress:
        progress(0, len(missing))
    for start in range(0, len(missing), EMBED_BATCH):
        batch = missing[start : start + EMBED_BATCH]
        matrix = embedder.embed([texts[h] for h in batch])
        fresh = {h: np.asarray(matrix[i], dtype=np.float32) for i, h in enumerate(batch)}
        store.cache_vectors(embedder.model_id, fresh)
        vectors.update({h: v.astype("<f4").tobytes() for h, v in fresh.items()})
        report.embedded += len(batch)
        if progress:
            progress(min(start + EMBED_BATCH, len(missing)), len(missing))
    return vectors


# -- verification and status ----------------------------------------------------------------
def verify_index(ws: Workspace, *, embedder: Any = _UNSET) -> VerifyReport:
    """Rebuild the indexed state from scratch in a scratch database and compare the two."""
    if embedder is _UNSET:
        embedder, _notice = open_embedder(ws)
    with index_lock(ws):
        store = open_store(ws)
        scratch_path = ws.data_dir / f"verify-{os.getpid()}.sqlite"
        try:
            meta = store.meta()
            target = (meta.get("commit"), meta.get("tree") or plumbing.EMPTY_TREE)
            worktree = bool(store.worktree_paths())
            scratch = Store(scratch_path, cache_path(ws))
            try:
                _update(ws, scratch, embedder, full=True, worktree=worktree, progress=None, target=target)
                expected = scratch.snapshot()
            finally:
                scratch.close()
            actual = store.snapshot()
        finally:
            store.close()
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    Path(str(scratch_path) + suffix).unlink()
    differences = _compare(actual, expected)
    return VerifyReport(ok=not differences, differences=differences, tree=meta.get("tree"))


def _compare(actual: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("files", "chunks", "vectors"):
        have, want = set(actual[key]), set(expected[key])
        for row in sorted(have - want)[:5]:
            out.append(f"{key}: unexpected {row[:3]}")
        for row in sorted(want - have)[:5]:
            out.append(f"{key}: missing {row[:3]}")
        if len(actual[key]) != len(expected[key]) and not (have ^ want):
            out.append(f"{key}: {len(actual[key])} rows, a rebuild has {len(expected[key])}")
    if actual["fts_missing"] or actual["fts_rows"] != len(actual["chunks"]):
        out.append(f"fts: {actual['fts_rows']} rows for {len(actual['chunks'])} chunks")
    return out


def index_status(ws: Workspace) -> dict[str, Any]:
    commit, tree = plumbing.head_ids(ws.root)
    head_tree = tree or plumbing.EMPTY_TREE
    out: dict[str, Any] = {
        "workspace": str(ws.root),
        "index": str(index_path(ws)),
        "head_commit": commit,
        "head_tree": head_tree,
        "indexed_tree": None,
        "indexed_commit": None,
        "model_id": None,
        "pending": [],
        "up_to_date": False,
        "needs_full_rebuild": None,
        "counts": {},
        "worktree_overlay": [],
        "skipped": [],
    }
    if not index_path(ws).exists():
        out["needs_full_rebuild"] = "no index yet; run `memgit index`"
        out["pending"] = sorted(p for p in plumbing.entries(ws.root, head_tree) if ws.is_memory_path(p))
        return out
    try:
        store = Store(index_path(ws), cache_path(ws), readonly=True)
    except CorruptIndex as exc:
        out["needs_full_rebuild"] = f"{exc}; run `memgit index`"
        return out
    try:
        meta = store.meta()
        out["indexed_tree"] = meta.get("tree")
        out["indexed_commit"] = meta.get("commit")
        out["model_id"] = meta.get("model_id") or None
        out["counts"] = store.counts()
        files = store.files()
        out["worktree_overlay"] = sorted(p for p, f in files.items() if f[2] == "worktree")
        out["skipped"] = [{"path": p, "reason": f[3]} for p, f in sorted(files.items()) if f[3]]
    finally:
        store.close()
    indexed = out["indexed_tree"]
    if indexed and not plumbing.tree_exists(ws.root, indexed):
        out["needs_full_rebuild"] = "the indexed tree is no longer in the repository"
    elif indexed != head_tree:
        changed = plumbing.diff_paths(ws.root, indexed, head_tree)
        out["pending"] = sorted(p for p in changed if ws.is_memory_path(p))
    out["up_to_date"] = indexed == head_tree and not out["worktree_overlay"]
    return out
