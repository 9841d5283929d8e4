"""`memgit index --verify`: the index must equal a full rebuild of the tree it names.

A scratch database is rebuilt from the indexed tree and compared row by row (files, chunks,
FTS rows). Vectors are checked too: the vector files must hold exactly the cached vector of
every chunk that has one (the files are keyed to this database), and when this process loads
the index's model, every cached vector must match a fresh embedding of its text within float
tolerance.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memgit.embed import Embedder
from memgit.git import plumbing
from memgit.index.layout import cache_path
from memgit.index.lock import index_lock
from memgit.index.store import Store
from memgit.index.update import _UNSET, open_embedder, open_store, run_update
from memgit.workspace import Workspace

#: Lowest cosine between a stored vector and a fresh embedding of the same text.
VECTOR_MIN_COSINE = 0.999


@dataclass
class VerifyReport:
    ok: bool
    differences: list[str]
    tree: str | None
    pending_vectors: int = 0
    vectors_checked: int = 0
    notices: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def verify_index(
    ws: Workspace, *, embedder: Any = _UNSET, progress: Callable[[int, int], None] | None = None
) -> VerifyReport:
    """Rebuild the indexed state from scratch in a scratch database and compare the two.

    `progress(done, total)` follows the slow half: every cached vector embedded again.
    """
    notices: list[str] = []
    if embedder is _UNSET:
        embedder, notice = open_embedder(ws)
        if notice:
            notices.append(notice)
    with index_lock(ws):
        store = open_store(ws)
        scratch_path = ws.data_dir / f"verify-{os.getpid()}.sqlite"
        try:
            meta = store.meta()
            target = (meta.get("commit"), meta.get("tree") or plumbing.EMPTY_TREE)
            worktree = bool(store.worktree_paths())
            scratch = Store(scratch_path, cache_path(ws))
            try:
                run_update(ws, scratch, lambda: None, full=True, worktree=worktree, progress=None, target=target)
                expected = scratch.snapshot()
            finally:
                scratch.close()
            actual = store.snapshot()
            differences = compare_snapshots(actual, expected)
            model = meta.get("model_id") or None
            checked, vector_differences = _check_vectors(ws, store, meta, model, embedder, progress)
            differences.extend(vector_differences)
            pending = store.pending_count(model)
        finally:
            store.close()
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    Path(str(scratch_path) + suffix).unlink()
    if pending:
        notices.append(f"{pending} chunk vectors are pending; `memgit index` with the model fills them")
    return VerifyReport(
        ok=not differences,
        differences=differences,
        tree=meta.get("tree"),
        pending_vectors=pending,
        vectors_checked=checked,
        notices=notices,
    )


def compare_snapshots(actual: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("files", "chunks"):
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


def _check_vectors(
    ws: Workspace,
    store: Store,
    meta: dict[str, str],
    model: str | None,
    embedder: Embedder | None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, list[str]]:
    """(vectors checked, differences): the files against the cache, the cache against the model."""
    if model is None:
        return 0, []
    import numpy as np

    from memgit.index.vectors import VectorSet

    out: list[str] = []
    pairs = store.vectors_for(None, model)
    want_ids = np.asarray([p[0] for p in pairs], dtype="<i8")
    want = (
        np.frombuffer(b"".join(p[1] for p in pairs), dtype="<f4").reshape(len(pairs), -1)
        if pairs
        else np.zeros((0, 0), dtype="<f4")
    )
    vset = VectorSet.open(ws.data_dir, meta["index_id"], int(meta.get("generation", "0")))
    if vset is None:
        if pairs:
            out.append("vectors: the vector files do not match this index (the next `memgit index` rewrites them)")
    else:
        ids, matrix = vset.rows()
        if not np.array_equal(ids, want_ids):
            extra = sorted(set(ids.tolist()) - set(want_ids.tolist()))[:5]
            lost = sorted(set(want_ids.tolist()) - set(ids.tolist()))[:5]
            out.append(f"vectors: the vector files hold other chunks (unexpected ids {extra}, missing ids {lost})")
        elif len(ids) and not np.allclose(matrix, want, atol=1e-6):
            bad = int((~np.isclose(matrix, want, atol=1e-6).all(axis=1)).sum())
            out.append(f"vectors: {bad} rows of the vector files differ from the cached vectors")
    checked = len(pairs)
    if embedder is not None and embedder.model_id == model and pairs:
        rows = store.chunk_rows([p[0] for p in pairs])
        texts: dict[str, str] = {}
        for chunk_id, _vec in pairs:
            texts.setdefault(_hash(rows[chunk_id][3]), rows[chunk_id][3])
        cached = store.cached_vectors(model, texts)
        hashes = list(texts)
        bad = 0
        for start in range(0, len(hashes), 32):
            batch = hashes[start : start + 32]
            fresh = embedder.embed([texts[h] for h in batch])
            for row, h in zip(fresh, batch, strict=True):
                stored_vec = np.frombuffer(cached[h], dtype="<f4")
                if float(np.dot(stored_vec, np.asarray(row, dtype=np.float32))) < VECTOR_MIN_COSINE:
                    bad += 1
            if progress is not None:
                progress(start + len(batch), len(hashes))
        if bad:
            out.append(f"vectors: {bad} cached vectors differ from a fresh embedding of their text")
    return checked, out


def _hash(text: str) -> str:
    from memgit.core.chunking import text_hash

    return text_hash(text)
