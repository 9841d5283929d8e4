"""Binary-quantised vector scans with exact re-scoring (issue #11, point 1).

On real-shaped vectors (a shared mean direction, unequal variances, as MiniLM's are) the codes
find nearly all of the exact top rows; returned scores are exact; codes made from another base
are never used; removed rows never come back and delta rows do; and through the CLI and the MCP
server a quantised index answers like the float one.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.index import quantized
from memgit.index.vectors import VectorSet, advance, base_path, write_base
from tests.helpers import commit_all, git, memgit, write
from tests.recall.test_search import tiny_model  # noqa: F401  (fixture)

DIM = 384
INDEX_ID = "0123456789abcdef0123456789abcdef"


def shaped(rows: int, seed: int, topics: int = 200) -> np.ndarray:
    """Unit vectors shaped like sentence embeddings: a shared mean direction, unequal variances,
    and topics (chunks about the same thing sit near each other, as related notes do)."""
    rng = np.random.default_rng(seed)
    mean = np.random.default_rng(0).normal(0, 1, DIM) * 0.6
    scales = np.linspace(0.2, 1.5, DIM)
    centres = np.random.default_rng(1).standard_normal((topics, DIM)) * scales
    matrix = centres[rng.integers(0, topics, rows)] + rng.standard_normal((rows, DIM)) * scales * 0.6 + mean
    return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)


def exact_top(matrix: np.ndarray, ids: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    scores = matrix @ query
    return [int(ids[i]) for i in np.argsort(-scores)[:k]]


@pytest.fixture
def base_dir(tmp_path: Path) -> tuple[Path, np.ndarray, np.ndarray]:
    matrix = shaped(20_000, 1)
    ids = np.arange(100, 100 + len(matrix), dtype="<i8")
    write_base(tmp_path, INDEX_ID, 7, ids, matrix, DIM)
    return tmp_path, ids, matrix


def test_codes_find_the_exact_top_rows(base_dir: tuple[Path, np.ndarray, np.ndarray]) -> None:
    data_dir, ids, matrix = base_dir
    vset = VectorSet.open(data_dir, INDEX_ID, 7)
    assert vset is not None
    qv = quantized.QuantizedVectors.open(data_dir, vset, preload=False)
    assert quantized.codes_path(data_dir).stat().st_size < base_path(data_dir).stat().st_size / 20
    queries = shaped(40, 2)
    recalls = []
    for q in queries:
        got = qv.top(q, 24)
        expected = exact_top(matrix, ids, q, 24)
        recalls.append(len(set(expected) & {i for i, _s in got}) / 24)
        position = {int(i): n for n, i in enumerate(ids)}
        for chunk_id, score in got:  # scores are the exact float products, not estimates
            assert score == pytest.approx(float(matrix[position[chunk_id]] @ q), abs=1e-5)
        assert [s for _i, s in got] == sorted((s for _i, s in got), reverse=True)
    assert np.mean(recalls) >= 0.97, recalls


def test_codes_of_another_base_are_rebuilt(base_dir: tuple[Path, np.ndarray, np.ndarray]) -> None:
    data_dir, ids, matrix = base_dir
    first = quantized.QuantizedVectors.open(data_dir, VectorSet.open(data_dir, INDEX_ID, 7), preload=True)  # type: ignore[arg-type]
    assert quantized.read_codes(data_dir, first.vectors.base, preload=False) is not None
    write_base(data_dir, INDEX_ID, 8, ids[:500], matrix[:500] * -1, DIM)  # a new base (another generation)
    vset = VectorSet.open(data_dir, INDEX_ID, 8)
    assert vset is not None
    assert quantized.read_codes(data_dir, vset.base, preload=False) is None
    second = quantized.QuantizedVectors.open(data_dir, vset, preload=False, previous=first.codes)
    assert second.codes is not first.codes and second.codes.bits.shape[1] == 500
    q = matrix[3]
    assert second.top(q, 1)[0][0] != int(ids[3])  # the old codes (and rows) would have said 3


def test_removed_rows_never_return_and_delta_rows_do(base_dir: tuple[Path, np.ndarray, np.ndarray]) -> None:
    data_dir, ids, matrix = base_dir
    removed = [int(i) for i in ids[:50]]
    added_ids = [10**9 + n for n in range(5)]
    added = shaped(5, 3)
    assert advance(data_dir, INDEX_ID, 7, 9, removed, added_ids, added, DIM)
    vset = VectorSet.open(data_dir, INDEX_ID, 9)
    assert vset is not None and vset.delta is not None
    qv = quantized.QuantizedVectors.open(data_dir, vset, preload=False)
    for row in range(5):
        got = [i for i, _s in qv.top(matrix[row], 24)]
        assert not set(got) & set(removed)
    assert qv.top(added[2], 1)[0][0] == added_ids[2]


def test_cli_and_mcp_answer_like_the_float_scan(workspace: Path, tiny_model: Path) -> None:  # noqa: F811
    for n in range(40):
        write(
            workspace / "memory" / "notes" / f"n{n}.md", f"# Note {n}\n\n- Item {n}: the ferry leaves pier {n % 7}.\n"
        )
    commit_all(workspace, "notes")
    env = {"MEMGIT_MODEL": str(tiny_model)}
    assert memgit(workspace, "index", env=env).returncode == 0

    def vector_hits() -> list[tuple[str, int, float]]:
        proc = memgit(workspace, "search", "ferry pier five", "--mode", "vector", "-k", "8", "--json", env=env)
        assert proc.returncode == 0, proc.stderr
        return [(h["path"], h["start_line"], h["score"]) for h in json.loads(proc.stdout)["hits"]]

    floats = vector_hits()
    assert not quantized.codes_path(workspace / ".git" / "memgit").exists()
    write(workspace / "memgit.toml", "[search]\nquantized_above = 0\n")
    git(workspace, "add", "memgit.toml")
    git(workspace, "commit", "-q", "-m", "quantise")
    assert memgit(workspace, "index", env=env).returncode == 0
    codes = quantized.codes_path(workspace / ".git" / "memgit")
    assert vector_hits() == floats  # every row fits in the re-score: the answer is exact
    assert codes.is_file()


def test_similarities_match_the_float_set(base_dir: tuple[Path, np.ndarray, np.ndarray]) -> None:
    data_dir, ids, matrix = base_dir
    assert advance(data_dir, INDEX_ID, 7, 9, [int(i) for i in ids[:10]], [10**9], shaped(1, 4), DIM)
    vset = VectorSet.open(data_dir, INDEX_ID, 9)
    assert vset is not None
    qv = quantized.QuantizedVectors.open(data_dir, vset, preload=True)
    wanted = [int(i) for i in ids[:20]] + [int(i) for i in ids[-5:]] + [10**9, 42]  # removed, live, delta, unknown
    q = matrix[100]
    got = qv.similarities(q, wanted)
    expected = vset.similarities(q, wanted)
    assert got.keys() == expected.keys() and not set(got) & {int(i) for i in ids[:10]}
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-6)


def test_unwritable_codes_file_still_searches(base_dir: tuple[Path, np.ndarray, np.ndarray]) -> None:
    """Codes that cannot be saved (here: a directory sits where the file goes) are used from
    memory: a search never fails for want of a file."""
    data_dir, ids, matrix = base_dir
    vset = VectorSet.open(data_dir, INDEX_ID, 7)
    assert vset is not None
    quantized.codes_path(data_dir).mkdir()
    qv = quantized.QuantizedVectors.open(data_dir, vset, preload=False)
    assert qv.top(matrix[9], 1)[0][0] == int(ids[9])
    assert quantized.codes_path(data_dir).is_dir()
    assert not [p for p in data_dir.iterdir() if ".tmp" in p.name]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 70), min_size=0, max_size=300).map(lambda v: np.asarray(v, dtype=np.uint16)),
    st.integers(0, 320),
)
def test_closest_rows_are_the_smallest_distances(distance: np.ndarray, count: int) -> None:
    """The histogram cut-off picks exactly `count` rows (or all), none farther than any row left out."""
    chosen = quantized.closest(distance, count)
    assert len(chosen) == min(count, len(distance))
    assert len(set(chosen.tolist())) == len(chosen)
    left = np.setdiff1d(np.arange(len(distance)), chosen)
    if len(chosen) and len(left):
        assert distance[chosen].max() <= distance[left].min()


def test_building_codes_from_the_base_file_keeps_it_out_of_memory(tmp_path: Path) -> None:
    """The MCP server builds the 1-bit codes when it first opens a new base (after a full build or
    a fill's compaction): read by pread a block at a time, the float matrix never becomes the
    process's memory (it made the server's first start peak at +300 MB at 100k chunks)."""
    import subprocess
    import sys

    import numpy as np

    from memgit.index import vectors

    rows = 60_000  # 92 MB of floats
    matrix = np.random.default_rng(3).standard_normal((rows, 384)).astype("<f4")
    vectors.write_base(tmp_path, "1" * 32, 2, np.arange(1, rows + 1), matrix, 384)
    del matrix
    script = (
        "from pathlib import Path\n"
        "from memgit.index.quantized import write_codes\n"
        "from memgit.index.vectors import VectorSet\n"
        "peak = lambda: int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1]) // 1024\n"
        f"base = VectorSet.open(Path({str(tmp_path)!r}), '1' * 32, 2).base\n"
        "before = peak()\n"
        "write_codes(Path(" + repr(str(tmp_path)) + "), base)\n"
        "print(peak() - before)\n"
    )
    grew = int(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)
    assert grew < 40, f"building the codes grew the peak RSS by {grew} MB (the floats are 92 MB)"
    assert (tmp_path / "vectors.bin").is_file()
