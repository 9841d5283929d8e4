"""The memory-mapped vector files must always equal the vectors SQLite holds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.index import vectors as vector_files

DIM = 8
INDEX = "0123456789abcdef0123456789abcdef"
OTHER = "fedcba9876543210fedcba9876543210"


def unit(rng: np.random.Generator, n: int) -> np.ndarray:
    x = rng.standard_normal((n, DIM)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@settings(max_examples=40, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 40)),  # (how many to remove, how many to add)
        min_size=1,
        max_size=12,
    ),
    seed=st.integers(0, 1000),
)
def test_advancing_equals_the_expected_rows(tmp_path_factory, steps: list[tuple[int, int]], seed: int) -> None:
    data_dir: Path = tmp_path_factory.mktemp("vec")
    rng = np.random.default_rng(seed)
    expected: dict[int, np.ndarray] = {}
    next_id = 1
    initial = unit(rng, 30)
    ids = list(range(next_id, next_id + 30))
    next_id += 30
    expected.update(zip(ids, initial, strict=True))
    vector_files.write_base(data_dir, INDEX, 1, np.asarray(ids), initial, DIM)
    generation = 1
    old_compact = vector_files.COMPACT_MIN_ROWS
    vector_files.COMPACT_MIN_ROWS = 25  # exercise compaction too
    try:
        for n_remove, n_add in steps:
            removed = sorted(expected)[:n_remove]
            for chunk_id in removed:
                del expected[chunk_id]
            added_ids = list(range(next_id, next_id + n_add))
            next_id += n_add
            rows = unit(rng, n_add)
            assert vector_files.advance(data_dir, INDEX, generation, generation + 1, removed, added_ids, rows, DIM)
            generation += 1
            expected.update(zip(added_ids, rows, strict=True))
            vset = vector_files.VectorSet.open(data_dir, INDEX, generation)
            assert vset is not None
            query = unit(rng, 1)[0]
            got = vset.top(query, 1000)
            assert sorted(i for i, _ in got) == sorted(expected)
            for chunk_id, score in got:
                assert abs(score - float(expected[chunk_id] @ query)) < 1e-5
            sample = list(expected)[:5]
            sims = vset.similarities(query, sample)
            assert set(sims) == set(sample)
            ids, matrix = vset.rows()
            assert ids.tolist() == sorted(expected)
            assert np.allclose(matrix, np.stack([expected[i] for i in sorted(expected)]) if expected else matrix)
    finally:
        vector_files.COMPACT_MIN_ROWS = old_compact


def test_torn_or_foreign_files_are_never_used(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    vector_files.write_base(tmp_path, INDEX, 3, np.arange(1, 11), unit(rng, 10), DIM)
    assert vector_files.VectorSet.open(tmp_path, INDEX, 3) is not None
    # Files of another database (recreated: same generation, another index id) never match.
    assert vector_files.VectorSet.open(tmp_path, OTHER, 3) is None
    assert not vector_files.advance(tmp_path, OTHER, 3, 4, [], [], np.zeros((0, DIM), np.float32), DIM)
    assert vector_files.advance(tmp_path, INDEX, 3, 4, [2], [11], unit(rng, 1), DIM)
    assert vector_files.VectorSet.open(tmp_path, INDEX, 4) is not None
    assert vector_files.VectorSet.open(tmp_path, OTHER, 4) is None
    delta = vector_files.delta_path(tmp_path)
    delta.write_bytes(delta.read_bytes()[:-3])  # a torn delta
    assert vector_files.VectorSet.open(tmp_path, INDEX, 4) is None
    path = vector_files.base_path(tmp_path)
    path.write_bytes(path.read_bytes()[:-7])
    assert vector_files.VectorSet.open(tmp_path, INDEX, 3) is None
    path.write_bytes(b"garbage")
    assert vector_files.VectorSet.open(tmp_path, INDEX, 3) is None
    assert not vector_files.advance(tmp_path, INDEX, 3, 4, [], [], np.zeros((0, DIM), np.float32), DIM)


def test_a_long_running_reader_keeps_its_base_across_deltas_only(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    rows = unit(rng, 10)
    vector_files.write_base(tmp_path, INDEX, 1, np.arange(1, 11), rows, DIM)
    first = vector_files.VectorSet.open(tmp_path, INDEX, 1)
    assert first is not None
    first.preload()
    new_row = unit(rng, 1)
    assert vector_files.advance(tmp_path, INDEX, 1, 2, [3], [11], new_row, DIM)
    second = vector_files.VectorSet.open(tmp_path, INDEX, 2, first)
    assert second is not None and second.base is first.base  # only the delta was read
    assert sorted(i for i, _ in second.top(new_row[0], 100)) == [1, 2, *range(4, 12)]
    # A rebuilt base that reuses the generation number is never mistaken for it.
    vector_files.write_base(tmp_path, INDEX, 1, np.arange(1, 4), unit(rng, 3), DIM)
    third = vector_files.VectorSet.open(tmp_path, INDEX, 1, first)
    assert third is not None and third.base is not first.base
    assert sorted(i for i, _ in third.top(new_row[0], 100)) == [1, 2, 3]
