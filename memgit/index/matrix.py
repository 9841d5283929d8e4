"""Keeping the memory-mapped vector files equal to the index's vectors, after each update.

Runs after the SQLite commit. If it dies half-way the files keep an older (index id,
generation) key, search ignores them (numpy over the cache instead), and the next update
rebuilds them from the embedding cache: no sqlite-vec is needed at any step.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.index import vectors as vector_files
from memgit.index.store import Store

if TYPE_CHECKING:
    import numpy as np


def sync_vector_files(
    store: Store,
    data_dir: Path,
    *,
    index_id: str,
    model_id: str | None,
    dim: int | None,
    old_generation: int,
    generation: int,
    removed: list[int],
    added: list[tuple[int, bytes]],
    rewrite: bool,
) -> None:
    """Carry the files from `old_generation` to `generation` at the cost of the diff; rewrite
    them from the cache when asked, when they were not at `old_generation`, or when unknown."""
    if model_id is None:
        vector_files.remove_files(data_dir)
        return
    import numpy as np

    if dim is None:
        dim = _dim_of(added) or _stored_dim(data_dir)
    if rewrite or dim is None:
        repair_vector_files(store, data_dir, index_id=index_id, model_id=model_id, generation=generation)
        return
    ids = [i for i, _ in added]
    rows = np.frombuffer(b"".join(v for _, v in added), dtype="<f4").reshape(len(added), dim)
    if not vector_files.advance(data_dir, index_id, old_generation, generation, removed, ids, rows, dim):
        repair_vector_files(store, data_dir, index_id=index_id, model_id=model_id, generation=generation)


def repair_vector_files(
    store: Store, data_dir: Path, *, index_id: str, model_id: str | None, generation: int, force: bool = False
) -> bool:
    """Rewrite missing or stale vector files from the embedding cache; True when it wrote them."""
    if model_id is None:
        vector_files.remove_files(data_dir)
        return False
    if not force and vector_files.VectorSet.open(data_dir, index_id, generation) is not None:
        return False
    import itertools

    import numpy as np

    rows = store.cache.vector_count(model_id)
    batches = store.cache.iter_vectors(model_id)
    first = next(batches, None)
    if not rows or not first:
        vector_files.remove_files(data_dir)
        return False
    dim = len(first[0][1]) // 4

    def arrays() -> Iterator[tuple[np.ndarray, np.ndarray]]:
        for batch in itertools.chain([first], batches):
            ids = np.fromiter((p[0] for p in batch), dtype="<i8", count=len(batch))
            yield ids, np.frombuffer(b"".join(p[1] for p in batch), dtype="<f4").reshape(len(batch), dim)

    vector_files.write_base_stream(data_dir, index_id, generation, rows, dim, arrays())
    return True


def _dim_of(added: list[tuple[int, bytes]]) -> int | None:
    return len(added[0][1]) // 4 if added else None


def _stored_dim(data_dir: Path) -> int | None:
    base = vector_files.peek_dim(data_dir)
    return base
