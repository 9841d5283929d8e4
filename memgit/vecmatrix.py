"""A memory-mapped matrix of every chunk vector: the fast path for unfiltered vector search.

vec0's brute-force KNN costs ~65-110 ms at 100k x 384 floats on 2 cores, a numpy product over a
page-cached matrix ~7-30 ms. SQLite (vec0) stays the durable store; this file is derived and
tagged with the index generation it reflects, so a stale or torn file is never used: search
falls back to vec0 and the next index update rewrites it.

Layout: 32-byte header (magic, generation, rows, dim as little-endian u64) + rows x int64 chunk
ids + rows x dim float32 vectors.
"""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Iterable
from pathlib import Path

import numpy as np

MAGIC = b"MGVEC001"
HEADER = struct.Struct("<8sQQQ")


class VectorMatrix:
    def __init__(self, path: Path, generation: int, ids: np.ndarray, matrix: np.ndarray) -> None:
        self.path = path
        self.generation = generation
        self.ids = ids
        self.matrix = matrix

    @classmethod
    def open(cls, path: Path, generation: int | None = None) -> VectorMatrix | None:
        """The matrix if the file is intact (and of `generation`, when given); else None."""
        try:
            with path.open("rb") as fh:
                magic, gen, rows, dim = HEADER.unpack(fh.read(HEADER.size))
            if magic != MAGIC or (generation is not None and gen != generation):
                return None
            expected = HEADER.size + rows * 8 + rows * dim * 4
            if path.stat().st_size != expected:
                return None
            if rows == 0:
                return cls(path, gen, np.zeros(0, dtype="<i8"), np.zeros((0, dim), dtype="<f4"))
            ids = np.memmap(path, dtype="<i8", mode="r", offset=HEADER.size, shape=(rows,))
            matrix = np.memmap(path, dtype="<f4", mode="r", offset=HEADER.size + rows * 8, shape=(rows, dim))
            return cls(path, gen, ids, matrix)
        except (OSError, struct.error, ValueError):
            return None

    def top(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        if len(self.ids) == 0:
            return []
        scores = self.matrix @ np.asarray(query, dtype=np.float32)
        k = min(k, len(scores))
        part = np.argpartition(-scores, k - 1)[:k]
        order = part[np.argsort(-scores[part])]
        return [(int(self.ids[i]), float(scores[i])) for i in order]


def write_matrix(path: Path, generation: int, ids: np.ndarray, matrix: np.ndarray) -> None:
    """Write atomically (temp file + rename): readers see the old file or the new one."""
    rows = len(ids)
    dim = matrix.shape[1] if matrix.ndim == 2 and rows else (matrix.shape[1] if matrix.ndim == 2 else 0)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    try:
        with tmp.open("wb") as fh:
            fh.write(HEADER.pack(MAGIC, generation, rows, dim))
            fh.write(np.ascontiguousarray(ids, dtype="<i8").tobytes())
            fh.write(np.ascontiguousarray(matrix, dtype="<f4").tobytes())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def updated(
    old: VectorMatrix | None,
    removed: Iterable[int],
    added_ids: list[int],
    added: np.ndarray,
    dim: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The previous matrix minus removed chunks plus added ones (cost: one pass over the rows)."""
    new_ids = np.asarray(added_ids, dtype="<i8")
    new_rows = np.asarray(added, dtype="<f4").reshape(len(added_ids), dim)
    if old is None or len(old.ids) == 0:
        return new_ids, new_rows
    removed_arr = np.fromiter(removed, dtype="<i8")
    keep = ~np.isin(old.ids, removed_arr) if len(removed_arr) else np.ones(len(old.ids), dtype=bool)
    return (
        np.concatenate([np.asarray(old.ids)[keep], new_ids]),
        np.concatenate([np.asarray(old.matrix)[keep], new_rows]),
    )
