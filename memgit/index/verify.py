"""`memgit index --verify`: the index must equal a full rebuild of the tree it names.

A scratch database is rebuilt from the indexed tree and compared row by row (files, chunks,
FTS rows). Vectors are checked too, from the embedding cache: the vector files and the vec0
table must hold exactly the cached vector of every chunk that has one. Embedding again is what
a first index costs, so by default only a seeded sample of the cached vectors is compared with
a fresh embedding of its text (`reembed=True`: all of them), when this process loads the
index's model. The report says what was checked and what was skipped, and why.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memgit.embed import Embedder
from memgit.git import trees
from memgit.index.cache import CachedVectors
from memgit.index.layout import cache_path
from memgit.index.lock import index_lock
from memgit.index.open import open_embedder, open_store
from memgit.index.settings import LOAD, UpdateSettings
from memgit.index.store import Store
from memgit.index.update import run_update
from memgit.workspace import Workspace

#: Lowest cosine between a stored vector and a fresh embedding of the same text.
VECTOR_MIN_COSINE = 0.999
#: Cached vectors embedded again by default (seeded sample): a model drift or a corrupted cache
#: shows in any of them, and 32 cost a few seconds where all cost as much as the first index.
REEMBED_SAMPLE = 32
#: Sample queries the fast vector path answers next to sqlite-vec's exact KNN.
ORACLE_QUERIES = 20
#: Below this share of sqlite-vec's exact top-k, the fast path is reported as a difference: far
#: under what quantisation loses (docs/PERFORMANCE.md), so it means the files serve other vectors.
ORACLE_MIN_AGREEMENT = 0.5
#: Scores this close to the exact k-th are ties (float32 sums in another order).
TIE_TOLERANCE = 1e-5


@dataclass
class VerifyReport:
    ok: bool
    differences: list[str]
    tree: str | None
    pending_vectors: int = 0
    vectors_checked: int = 0
    reembedded: int = 0
    notices: list[str] = field(default_factory=list)
    #: What was compared, and what was not (with why), one line each, as the CLI prints them.
    checked: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    #: The fast path against sqlite-vec's exact KNN: {"queries", "k", "path", "agreement", "worst"}
    #: (None without vectors, the vec0 table or sqlite-vec).
    oracle: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def verify_index(
    ws: Workspace,
    *,
    embedder: Any = LOAD,
    progress: Callable[[int, int], None] | None = None,
    reembed: bool = False,
) -> VerifyReport:
    """Rebuild the indexed state from scratch in a scratch database and compare the two.

    `progress(done, total)` follows the cached vectors embedded again (a sample, or all of them
    with `reembed`).
    """
    notices: list[str] = []
    if embedder is LOAD:
        embedder, notice = open_embedder(ws)
        if notice:
            notices.append(notice)
    with index_lock(ws):
        store = open_store(ws)
        store.map_for_bulk_reads()
        scratch_path = ws.data_dir / f"verify-{os.getpid()}.sqlite"
        sample: _Sample | None = None
        try:
            meta = store.meta()
            target = (meta.get("commit"), meta.get("tree") or trees.EMPTY_TREE)
            worktree = bool(store.worktree_paths())
            model = meta.get("model_id") or None
            # Every cached vector, read once for the files' check and the vec0 table's.
            cached = store.cache.vector_table(model or "")
            if model and len(cached) and embedder is not None and embedder.model_id == model:
                # The sample is embedded again on a thread while this one rebuilds the text:
                # llama.cpp leaves the interpreter free, and the two took as long each.
                sample = _Sample(store, embedder, cached, progress, reembed)
            scratch = Store(scratch_path, cache_path(ws))
            try:
                run_update(ws, scratch, lambda: None, UpdateSettings(full=True, worktree=worktree, target=target))
                expected = scratch.snapshot()
            finally:
                scratch.close()
            actual = store.snapshot()
            differences = compare_snapshots(actual, expected)
            lines = _Lines([f"rows: {len(actual['files'])} files and {len(actual['chunks'])} chunks against a rebuild"])
            checked, vector_differences = _check_vectors(ws, meta, model, embedder, cached, sample, lines)
            differences.extend(vector_differences)
            vec_differences, oracle = _check_vec0(ws, store, meta, model, cached, lines)
            differences.extend(vec_differences)
            # Chunks whose vector is not published: the ones `cached` left out (no second pass over
            # the cache); each must be on the pending list, and every listed one a chunk.
            pending = len(actual["chunks"]) - len(cached) if model else 0
            listed = store.pending_total() if model else 0
            if pending != listed:
                differences.append(
                    f"pending list: {listed} chunks listed, {pending} without a published vector "
                    "(a chunk neither pending nor with a cached vector)"
                )
        finally:
            if sample is not None:
                sample.wait()
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
        reembedded=lines.reembedded,
        notices=notices,
        oracle=oracle,
        checked=lines.checked,
        skipped=lines.skipped,
    )


class _Lines:
    """What a verification compared and what it left out, as it goes."""

    def __init__(self, checked: list[str]) -> None:
        self.checked = checked
        self.skipped: list[str] = []
        self.reembedded = 0


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
    meta: dict[str, str],
    model: str | None,
    embedder: Embedder | None,
    cached: CachedVectors,
    sample: _Sample | None,
    lines: _Lines,
) -> tuple[int, list[str]]:
    """(vectors checked, differences): the files against the cache, the cache against the model."""
    if model is None:
        lines.skipped.append("vectors: the index has none (BM25 only): nothing to compare")
        return 0, []
    import numpy as np

    from memgit.index.vectors import VectorSet

    out: list[str] = []
    want_ids, want = cached.ids, cached.matrix
    vset = VectorSet.open(ws.data_dir, meta["index_id"], int(meta.get("generation", "0")))
    if vset is None:
        if len(cached):
            out.append("vectors: the vector files do not match this index (the next `memgit index` rewrites them)")
    else:
        ids, matrix = vset.rows()
        if not np.array_equal(ids, want_ids):
            extra = sorted(set(ids.tolist()) - set(want_ids.tolist()))[:5]
            lost = sorted(set(want_ids.tolist()) - set(ids.tolist()))[:5]
            out.append(f"vectors: the vector files hold other chunks (unexpected ids {extra}, missing ids {lost})")
        elif bad := _rows_not_close(matrix, want):
            out.append(f"vectors: {bad} rows of the vector files differ from the cached vectors")
    lines.checked.append(f"vectors: {len(cached)} vector-file rows against the embedding cache ({model})")
    if not len(cached):
        return 0, out
    if sample is None:
        why = "no embedding model loads here" if embedder is None else f"this process loads {embedder.model_id}"
        lines.skipped.append(f"re-embedding: {why}; the cached vectors were not compared with fresh ones")
        return len(cached), out
    bad, total = sample.result(lines)
    if bad:
        out.append(f"vectors: {bad} of {total} cached vectors differ from a fresh embedding of their text")
    return len(cached), out


class _Sample:
    """Cached vectors against a fresh embedding of their text, a seeded sample of
    `REEMBED_SAMPLE` distinct texts unless `everything`. Only the sampled texts are read, here,
    on the caller's thread (the store's connection stays on it); only the embedding and the
    comparison run on the worker thread, started at once."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        cached: CachedVectors,
        progress: Callable[[int, int], None] | None,
        everything: bool,
    ) -> None:
        import random
        from concurrent.futures import ThreadPoolExecutor

        first: dict[str, int] = {}  # text hash -> its first row in `cached`
        for row, text_hash in enumerate(cached.hashes):
            first.setdefault(text_hash, row)
        hashes = sorted(first)
        if not everything and len(hashes) > REEMBED_SAMPLE:
            hashes = sorted(random.Random(0).sample(hashes, REEMBED_SAMPLE))
        rows = store.chunk_rows([int(cached.ids[first[h]]) for h in hashes])
        texts = {h: rows[int(cached.ids[first[h]])][3] for h in hashes}
        vectors = {h: cached.matrix[first[h]] for h in hashes}
        self.distinct, self.hashes = len(first), hashes
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memgit-verify")
        self._future = self._pool.submit(_compare, embedder, hashes, texts, vectors, progress)

    def result(self, lines: _Lines) -> tuple[int, int]:
        """(differing, compared), once the thread is done; its error, if it failed."""
        bad = self._future.result()
        lines.reembedded = len(self.hashes)
        lines.checked.append(
            f"re-embedding: {len(self.hashes)} of {self.distinct} cached texts embedded again and compared"
        )
        if len(self.hashes) < self.distinct:
            lines.skipped.append(
                f"re-embedding: {self.distinct - len(self.hashes)} cached texts not embedded again (--reembed: all)"
            )
        return bad, len(self.hashes)

    def wait(self) -> None:
        """Let the thread finish before the store closes (an error is `result`'s to raise)."""
        self._pool.shutdown(wait=True)


def _compare(
    embedder: Embedder,
    hashes: list[str],
    texts: dict[str, str],
    cached: dict[str, Any],
    progress: Callable[[int, int], None] | None,
) -> int:
    """How many of `hashes` have a cached vector below `VECTOR_MIN_COSINE` of a fresh one."""
    import numpy as np

    bad = 0
    for start in range(0, len(hashes), 32):
        batch = hashes[start : start + 32]
        fresh = embedder.embed([texts[h] for h in batch])
        for row, h in zip(fresh, batch, strict=True):
            if float(np.dot(cached[h], np.asarray(row, dtype=np.float32))) < VECTOR_MIN_COSINE:
                bad += 1
        if progress is not None:
            progress(start + len(batch), len(hashes))
    return bad


def _check_vec0(
    ws: Workspace,
    store: Store,
    meta: dict[str, str],
    model: str | None,
    cached: CachedVectors,
    lines: _Lines,
) -> tuple[list[str], dict[str, Any] | None]:
    """The vec0 table against the cache (row for row, bit for bit), then sqlite-vec as the exact
    oracle of the fast path: sample queries, the fast path's top k against vec0's exact KNN."""
    if model is None:
        return [], None
    if not store.vec.enable():
        lines.skipped.append("vec0: sqlite-vec does not load here: the vec0 table was not checked")
        return [], None
    if store.vec.waiting():
        lines.skipped.append("vec0: the table waits for `memgit index` where sqlite-vec loads; it was not checked")
        return [], None
    import numpy as np

    out: list[str] = []
    have_ids, have = store.vec.matrix()
    if not np.array_equal(have_ids, cached.ids):
        have_set, want_set = set(have_ids.tolist()), set(cached.ids.tolist())
        extra, lost = sorted(have_set - want_set)[:5], sorted(want_set - have_set)[:5]
        out.append(f"vec0: chunks_vec holds other chunks (unexpected ids {extra}, missing ids {lost})")
    else:
        bad = _rows_differing(have, cached.matrix)
        if bad:
            out.append(f"vec0: {bad} rows of chunks_vec differ from the cached vectors")
        lines.checked.append(f"vec0: {len(cached)} rows of chunks_vec against the embedding cache")
    if out or not len(cached):
        return out, None
    oracle = vector_oracle(ws, store, meta, cached)
    if oracle is not None and oracle["agreement"] < ORACLE_MIN_AGREEMENT:
        out.append(
            f"vectors: the fast path found {oracle['agreement']:.2f} of sqlite-vec's exact top {oracle['k']} "
            "(the vector files serve other vectors; `memgit index --full` rewrites them)"
        )
    return out, oracle


def _rows_not_close(have: Any, want: Any, block: int = 4096) -> int:
    """Rows of two matrices of one shape that differ past float32 noise, a block of rows at a
    time (`np.isclose` over a whole 23k-row matrix makes several temporaries of its size)."""
    import numpy as np

    if have.shape != want.shape:
        return max(len(have), len(want))
    return sum(
        int((~np.isclose(have[at : at + block], want[at : at + block], atol=1e-6).all(axis=1)).sum())
        for at in range(0, len(have), block)
    )


def _rows_differing(have: Any, want: Any) -> int:
    """Rows of two float32 matrices that are not the same bits (a stored row is a blob: -0.0 and
    0.0, or two NaNs, are not the same blob)."""
    import numpy as np

    if have.shape != want.shape:
        return max(len(have), len(want))
    if not have.size:
        return 0
    return int((have.view(np.uint32) != want.view(np.uint32)).any(axis=1).sum())


def vector_oracle(
    ws: Workspace, store: Store, meta: dict[str, str], cached: CachedVectors, queries: int = ORACLE_QUERIES
) -> dict[str, Any] | None:
    """Share of sqlite-vec's exact top k (k = the candidates a search asks the vector leg for)
    that the fast path (memory-mapped floats, or 1-bit codes with exact re-scoring past
    `[search] quantized_above`) also returns, over sample queries: each the normalised sum of two
    chunk vectors (seeded), so neither chunk is trivially its own answer."""
    import numpy as np

    from memgit.index.quantized import QuantizedVectors
    from memgit.index.vectors import VectorSet

    vset = VectorSet.open(ws.data_dir, meta["index_id"], int(meta.get("generation", "0")))
    if vset is None or not len(cached):
        return None
    cfg = ws.config.search
    quantized = len(vset.base.ids) > cfg.quantized_above
    fast = QuantizedVectors.open(ws.data_dir, vset, preload=False) if quantized else vset
    k = min(max(cfg.k * cfg.candidates_factor, 20), len(cached))
    rng = np.random.default_rng(0)
    shares = []
    for _ in range(queries):
        a, b = rng.choice(len(cached), size=2, replace=len(cached) < 2)
        q = cached.matrix[a] + cached.matrix[b]
        q = (q / (np.linalg.norm(q) or 1.0)).astype(np.float32)
        exact = store.vec.knn(q, k)
        # A row the fast path returns agrees when it is in the exact top k, or ties its last
        # score (float32 sums in another order differ in the last bits: near-duplicate chunks
        # would otherwise swap places at random).
        cut = exact[-1][1] - TIE_TOLERANCE
        wanted = {i for i, _ in exact}
        found = [i for i, _ in fast.top(q, k)]
        shares.append(sum(1 for i in found if i in wanted or _cosine(q, cached.row(i)) >= cut) / k)
    return {
        "queries": queries,
        "k": k,
        "path": "quantized" if quantized else "float",
        "agreement": round(float(np.mean(shares)), 4),
        "worst": round(float(min(shares)), 4),
    }


def _cosine(query: Any, vector: Any) -> float:
    """Cosine of the query and a chunk's vector; a chunk without a cached vector never agrees."""
    import numpy as np

    if vector is None:
        return -1.0
    vector = np.asarray(vector, dtype=np.float64)
    return float(vector @ query / (np.linalg.norm(vector) * np.linalg.norm(query) or 1.0))
