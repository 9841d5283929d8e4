"""Binary-quantised vectors: a first pass 32 times smaller than the floats, exact re-score after.

At 100k chunks the float matrix is 154 MB and every query reads all of it; at 1M, 1.5 GB. One bit
per dimension (the sign of the vector minus the corpus mean: MiniLM's vectors share a large common
direction, which would otherwise put most bits the same for every chunk) is 48 bytes a chunk. A
query ranks every chunk by Hamming distance over those bits, then re-scores the best 1,600
with the exact float vectors, read row by row from the base file (`pread`, not a memory map, so
the page cache holds them and the process's RSS does not). `bench/vector_candidates.py` (at commit b793ec0) measured
this against the float scan, int8 and sqlite-vec's own quantised columns (docs/PERFORMANCE.md).

The codes are derived from `vectors.f32` (memgit.index.vectors) and written next to it as
`vectors.bin`, tagged with the base file's generation, row count and identity (inode and mtime),
so codes for another base are never used: they are rebuilt instead. Rows added since the base
(`vectors.delta`, at most a tenth of it) are scored exactly, as before.

Layout: header (magic, generation, rows, dim, inode, mtime_ns; little-endian u64) + mean (dim
float32) + words x rows uint64 codes (words = ceil(dim / 64)), word-major: a query XORs each word
of every row as one contiguous run, several times faster than row-major.
"""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.core.atomic import atomic_write
from memgit.index.vectors import BASE_HEADER, Base, VectorSet, base_path, top_k

if TYPE_CHECKING:
    import numpy as np

MAGIC = b"MGBIN002"
HEADER = struct.Struct("<8sQQQQQ")
BLOCK_ROWS = 65_536  # rows encoded at once: bounds the temporary memory of a build
READ_ROWS = 8_192  # rows of a memory-mapped base read at once to encode it (12 MB at 384 floats)
#: Candidates re-scored with floats: this many times the rows asked for, and at least MIN_RESCORE.
#: 1,600 kept 0.986 of the exact top 24 on 30k real MiniLM vectors (400: 0.935) and costs ~8 ms
#: more than 400 at 100k rows (docs/PERFORMANCE.md, "The vector leg: candidates side by side").
RESCORE_FACTOR = 16
MIN_RESCORE = 1_600


def codes_path(data_dir: Path) -> Path:
    return data_dir / "vectors.bin"


def words_for(dim: int) -> int:
    return (dim + 63) // 64


def encode(matrix: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """Sign bits of (row - mean), packed little-endian into uint64 words: (rows, words)."""
    import numpy as np

    rows, dim = matrix.shape
    words = words_for(dim)
    out = np.zeros((rows, words), dtype="<u8")
    padded = words * 64
    for start, rows_block in _row_blocks(matrix):
        block = rows_block > mean
        if padded != dim:
            block = np.pad(block, ((0, 0), (0, padded - dim)))
        out[start : start + len(block)] = np.packbits(block, axis=1, bitorder="little").view("<u8")
    return out


def column_mean(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    total = np.zeros(matrix.shape[1], dtype=np.float64)
    for _start, block in _row_blocks(matrix):
        total += block.sum(axis=0, dtype=np.float64)
    return (total / max(1, len(matrix))).astype(np.float32)


def _row_blocks(matrix: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """(first row, float32 rows) `BLOCK_ROWS` at a time. A memory-mapped base is read by `pread`
    into one buffer instead: touching every page of the map made them all resident, so the MCP
    server that built the codes after a full build peaked at the whole float matrix (+150 MB at
    100k chunks) over the ~200 MB it needs."""
    import numpy as np

    if not isinstance(matrix, np.memmap) or matrix.filename is None:
        for start in range(0, len(matrix), BLOCK_ROWS):
            yield start, np.asarray(matrix[start : start + BLOCK_ROWS], dtype=np.float32)
        return
    rows, dim = matrix.shape
    width = dim * 4
    buffer = np.empty((READ_ROWS, dim), dtype="<f4")
    with open(matrix.filename, "rb", buffering=0) as fh:
        for start in range(0, rows, READ_ROWS):
            count = min(READ_ROWS, rows - start)
            view = buffer[:count].data.cast("B")
            if os.preadv(fh.fileno(), [view], matrix.offset + start * width) != count * width:
                raise OSError(f"{matrix.filename} is shorter than its header says")
            yield start, buffer[:count]


@dataclass
class Codes:
    generation: int
    stamp: tuple[int, int]
    mean: np.ndarray
    bits: np.ndarray  # (words, rows) uint64, word-major

    def nearest(self, query: np.ndarray, count: int, mask: np.ndarray | None = None) -> np.ndarray:
        """Row numbers of the `count` rows closest to `query` in Hamming distance (unordered)."""
        import numpy as np

        q = encode(np.asarray(query, dtype=np.float32).reshape(1, -1), self.mean)[0]
        distance = np.bitwise_count(np.bitwise_xor(self.bits[0], q[0])).astype(np.uint16)
        for word in range(1, len(q)):
            distance += np.bitwise_count(np.bitwise_xor(self.bits[word], q[word]))
        if mask is not None:
            distance = np.where(mask, distance, np.iinfo(np.uint16).max)
        return closest(distance, count)


def closest(distance: np.ndarray, count: int) -> np.ndarray:
    """Row numbers of the `count` smallest distances (unordered; ties at the cut-off go to the
    lower row numbers).

    Distances are small integers (at most the bit count, or the mask's sentinel), so a histogram
    finds the cut-off distance in one pass and two comparisons collect the rows: half the time of
    `argpartition` over 100k rows.
    """
    import numpy as np

    count = min(count, len(distance))
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    if count == len(distance):
        return np.arange(count)
    cut = int(np.searchsorted(np.cumsum(np.bincount(distance)), count))  # count(d <= cut) >= count
    below = np.flatnonzero(distance < cut)
    at = np.flatnonzero(distance == cut)[: count - len(below)]
    return np.concatenate([below, at])


def write_codes(data_dir: Path, base: Base) -> Codes:
    """Encode a base's matrix and write `vectors.bin` atomically (any process may do it)."""
    import numpy as np

    rows, dim = base.matrix.shape if len(base.ids) else (0, base.matrix.shape[1])
    mean = column_mean(base.matrix) if rows else np.zeros(dim, dtype=np.float32)
    bits = np.ascontiguousarray(encode(base.matrix, mean).T) if rows else np.zeros((words_for(dim), 0), dtype="<u8")
    parts = [
        HEADER.pack(MAGIC, base.generation, rows, dim, base.stamp[0], base.stamp[1]),
        np.ascontiguousarray(mean, dtype="<f4").tobytes(),
        np.ascontiguousarray(bits).tobytes(),
    ]
    # A read-only data dir or a full disk: use the codes from memory, rebuild next time.
    with contextlib.suppress(OSError):
        atomic_write(codes_path(data_dir), parts, durable=False)
    return Codes(base.generation, base.stamp, mean, bits)


def read_codes(data_dir: Path, base: Base, *, preload: bool) -> Codes | None:
    """The codes of exactly this base, or None (missing, torn, or made from another base)."""
    import numpy as np

    path = codes_path(data_dir)
    try:
        with path.open("rb") as fh:
            magic, gen, rows, dim, inode, mtime = HEADER.unpack(fh.read(HEADER.size))
        size = path.stat().st_size
    except (OSError, struct.error):
        return None
    words = words_for(dim)
    if (
        magic != MAGIC
        or (gen, (inode, mtime)) != (base.generation, base.stamp)
        or rows != len(base.ids)
        or dim != base.matrix.shape[1]
        or size != HEADER.size + dim * 4 + rows * words * 8
    ):
        return None
    mean = np.fromfile(path, dtype="<f4", count=dim, offset=HEADER.size)
    offset = HEADER.size + dim * 4
    if rows == 0:
        bits = np.zeros((words, 0), dtype="<u8")
    elif preload:
        bits = np.fromfile(path, dtype="<u8", count=rows * words, offset=offset).reshape(words, rows)
    else:
        bits = np.memmap(path, dtype="<u8", mode="r", offset=offset, shape=(words, rows))
    return Codes(gen, (inode, mtime), mean, bits)


def read_rows(path: Path, rows_total: int, dim: int, rows: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
    """(floats, row numbers) of base rows in file order, by `pread`: the page cache keeps them,
    this process's memory does not."""
    import numpy as np

    wanted = np.sort(np.fromiter(rows, dtype=np.int64)).tolist()
    out = np.empty((len(wanted), dim), dtype="<f4")
    start = BASE_HEADER.size + rows_total * 8
    width = dim * 4
    # Each row lands straight in its slot of `out` (preadv into a view): no bytes object and
    # no array per row, ~40 % less time for the 1,600 rows of a re-score.
    view = out.data.cast("B")
    fd = os.open(path, os.O_RDONLY)
    try:
        for i, row in enumerate(wanted):
            if os.preadv(fd, [view[i * width : (i + 1) * width]], start + row * width) != width:
                raise OSError(f"{path} is shorter than its header says (row {row})")
    finally:
        os.close(fd)
    return out, np.asarray(wanted, dtype=np.int64)


class QuantizedVectors:
    """A `VectorSet` whose base is searched through its binary codes, then re-scored exactly.

    Same `top` / `similarities` contract as VectorSet, so the searcher swaps one for the other.
    """

    def __init__(self, vectors: VectorSet, codes: Codes, data_dir: Path) -> None:
        self.vectors = vectors
        self.codes = codes
        self.path = base_path(data_dir)
        self.generation = vectors.generation
        # (order, ids in that order) of the base: made together on the first lookup by id.
        self._by_id: tuple[np.ndarray, np.ndarray] | None = None

    @classmethod
    def open(
        cls, data_dir: Path, vectors: VectorSet, *, preload: bool, previous: Codes | None = None
    ) -> QuantizedVectors:
        """Codes for this base: `previous` when made from it (a long-running process after a
        delta update), else read from `vectors.bin`, else built and written first."""
        base = vectors.base
        if previous is not None and (previous.generation, previous.stamp) == (base.generation, base.stamp):
            return cls(vectors, previous, data_dir)
        codes = read_codes(data_dir, base, preload=preload)
        if codes is None:
            codes = write_codes(data_dir, base)
        return cls(vectors, codes, data_dir)

    @property
    def dim(self) -> int:
        return self.vectors.dim

    def _base_rows(self, query: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(chunk ids, exact scores) of base rows."""
        import numpy as np

        base = self.vectors.base
        if isinstance(base.matrix, np.memmap):
            floats, ordered = read_rows(self.path, len(base.ids), self.dim, rows)
        else:  # preloaded or empty: already in RAM
            ordered = np.sort(rows)
            floats = np.asarray(base.matrix[ordered])
        return np.asarray(base.ids)[ordered], floats @ query

    def top(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        import numpy as np

        q = np.asarray(query, dtype=np.float32)
        ids_parts: list[np.ndarray] = []
        score_parts: list[np.ndarray] = []
        if len(self.vectors.base.ids):
            want = max(k * RESCORE_FACTOR, MIN_RESCORE)
            mask = self.vectors.base_mask
            rows = self.codes.nearest(q, want, mask)
            if mask is not None:
                rows = rows[mask[rows]]  # fewer live rows than asked for: drop the removed ones
            ids, scores = self._base_rows(q, rows)
            ids_parts.append(ids)
            score_parts.append(scores)
        delta = self.vectors.delta
        if delta is not None and len(delta.ids):
            ids_parts.append(np.asarray(delta.ids))
            score_parts.append(delta.matrix @ q)
        if not ids_parts:
            return []
        ids = np.concatenate(ids_parts)
        scores = np.concatenate(score_parts).astype(np.float32)
        return top_k(ids, scores, k)

    def similarities(self, query: np.ndarray, wanted: Iterable[int]) -> dict[int, float]:
        """Exact scores of given chunks (BM25 hits the vector leg did not return), like
        VectorSet.similarities but reading base rows by pread: touching rows of a memory map
        makes the kernel map its read-ahead too (~128 KB a row), and the process's RSS grows by
        the whole matrix within a few dozen searches."""
        import numpy as np

        base, delta = self.vectors.base, self.vectors.delta
        if not isinstance(base.matrix, np.memmap):
            return self.vectors.similarities(query, wanted)
        q = np.asarray(query, dtype=np.float32)
        want = np.fromiter(wanted, dtype="<i8")
        out: dict[int, float] = {}
        if not len(want):
            return out
        if delta is not None and len(delta.ids):
            for i in np.nonzero(np.isin(delta.ids, want))[0]:
                out[int(delta.ids[i])] = float(delta.matrix[i] @ q)
        rest = np.asarray([i for i in want if int(i) not in out], dtype="<i8")
        if len(rest) and len(base.ids):
            if self._by_id is None:
                order = np.argsort(np.asarray(base.ids), kind="stable")
                self._by_id = (order, np.asarray(base.ids)[order])
            order, sorted_ids = self._by_id
            pos = np.minimum(np.searchsorted(sorted_ids, rest), len(sorted_ids) - 1)
            found = sorted_ids[pos] == rest
            rows = order[pos[found]]
            mask = self.vectors.base_mask
            if mask is not None:
                rows = rows[mask[rows]]
            if len(rows):
                ids, scores = self._base_rows(q, rows)
                out.update({int(i): float(v) for i, v in zip(ids, scores, strict=True)})
        return out
