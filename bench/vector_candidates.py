"""The vector leg's candidates side by side: latency, recall against the exact scan, memory.

    .venv/bin/python bench/vector_candidates.py WORKSPACE [--rows 1000000] [--queries 200] [--k 24]
    .venv/bin/python bench/vector_candidates.py WORKSPACE --real-cache   # recall on real embeddings

WORKSPACE is an indexed workspace (e.g. from `bench/synthetic_index.py`); its `vectors.f32` gives
the vectors. `--rows N` instead draws N real-shaped rows from a Gaussian fitted to them (mean and
covariance), for sizes nobody wants to index just to time a matrix product. Queries are the real
model's embeddings of queries made from the workspace's own notes (as `bench/mcp_latency.py`
makes them), or Gaussian draws with `--synthetic-queries`. `--real-cache` takes the matrix from
the workspace's embedding cache instead: real MiniLM vectors of real chunks (however many a real
`memgit index` has embedded so far), the honest ground for recall, since Gaussian draws have no
near neighbours and make every approximate scan look worse than it is on text.

Candidates, each on one thread (the project pins BLAS to one):

* `float32 scan`: the whole matrix in RAM times the query (today's MCP path);
* `float32 mmap`: the same over the memory-mapped file (today's one-shot CLI path; page cache warm);
* `int8 + re-score`: per-dimension int8 codes, scanned in blocks, top R re-scored with floats;
* `binary + re-score`: `memgit.index.quantized` (sign bits against the mean, Hamming distance,
  top R re-scored exactly from the file by pread);
* `sqlite-vec bit + re-score`, `sqlite-vec int8`: vec0 tables with `bit[dim]` / `int8[dim]`
  columns and sqlite-vec's own KNN (`vec_quantize_binary`, `vec_quantize_int8`).

Recall@k is the share of the exact float top-k that a candidate returns. Figures: medians over
the queries, after two warm-up queries.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.corpus import WORK_DIR  # noqa: E402
from memgit.index import quantized  # noqa: E402
from memgit.index.vectors import Base, VectorSet, _read_base, base_path, write_base  # noqa: E402

Search = Callable[[np.ndarray, int], np.ndarray]
BENCH_INDEX_ID = "00000000000000000000000000000b3c"  # vector files written by this bench


def load_base(ws: Path) -> Base:
    base = _read_base(base_path(ws / ".git" / "memgit"))
    if base is None:
        raise SystemExit(f"no vectors.f32 in {ws}/.git/memgit: index it with the real model first")
    return base


def real_cache_base(ws: Path) -> Path:
    """A base file of every real vector in the workspace's embedding cache."""
    import sqlite3

    cache = ws / ".git" / "memgit" / "embed-cache.sqlite"
    with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as db:
        blobs = [row[0] for row in db.execute("SELECT vector FROM embeddings")]
    matrix = np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), -1)
    out_dir = WORK_DIR / f"vectors-real-{ws.name}"
    out_dir.mkdir(parents=True, exist_ok=True)
    write_base(out_dir, BENCH_INDEX_ID, 1, np.arange(1, len(matrix) + 1, dtype="<i8"), matrix, matrix.shape[1])
    return out_dir


def synthetic_base(source: Base, rows: int, seed: int) -> Path:
    """A base file of `rows` real-shaped rows, cached under bench/.work."""
    dim = source.matrix.shape[1]
    out_dir = WORK_DIR / f"vectors-{rows}-s{seed}"
    if base_path(out_dir).exists():
        return out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    sample = np.asarray(source.matrix[: min(len(source.ids), 50_000)], dtype=np.float64)
    mean = sample.mean(axis=0)
    factor = np.linalg.cholesky(np.cov(sample, rowvar=False) + np.eye(dim) * 1e-6)
    rng = np.random.default_rng(seed)
    matrix = np.empty((rows, dim), dtype=np.float32)
    for start in range(0, rows, 100_000):
        n = min(100_000, rows - start)
        block = rng.standard_normal((n, dim)) @ factor.T + mean
        matrix[start : start + n] = block / np.linalg.norm(block, axis=1, keepdims=True)
    write_base(out_dir, BENCH_INDEX_ID, 1, np.arange(1, rows + 1, dtype="<i8"), matrix, dim)
    return out_dir


def real_queries(ws: Path, count: int) -> np.ndarray:
    from bench.mcp_latency import make_queries
    from memgit.index.open import open_embedder
    from memgit.workspace import Workspace

    embedder, notice = open_embedder(Workspace.discover(ws), threads=1)
    if embedder is None:
        raise SystemExit(f"needs the real model for query vectors: {notice}")
    return np.asarray(embedder.embed(make_queries(ws, count)), dtype=np.float32)


def gaussian_queries(base: Base, count: int, seed: int) -> np.ndarray:
    sample = np.asarray(base.matrix[:20_000], dtype=np.float64)
    rng = np.random.default_rng(seed + 1)
    draws = rng.multivariate_normal(sample.mean(axis=0), np.cov(sample, rowvar=False), size=count)
    return (draws / np.linalg.norm(draws, axis=1, keepdims=True)).astype(np.float32)


def top_rows(scores: np.ndarray, k: int) -> np.ndarray:
    part = np.argpartition(-scores, k - 1)[:k]
    return part[np.argsort(-scores[part])]


# -- candidates ----------------------------------------------------------------------------------
def float_scan(matrix: np.ndarray) -> Search:
    return lambda q, k: top_rows(matrix @ q, k)


def int8_rescore(matrix: np.ndarray, rescore: int) -> tuple[Search, int]:
    scale = np.abs(np.asarray(matrix[:50_000])).max(axis=0) / 127.0
    codes = np.empty(matrix.shape, dtype=np.int8)
    for start in range(0, len(matrix), 65_536):
        codes[start : start + 65_536] = np.round(np.asarray(matrix[start : start + 65_536]) / scale).astype(np.int8)

    def search(q: np.ndarray, k: int) -> np.ndarray:
        qs = (q * scale).astype(np.float32)
        scores = np.empty(len(codes), dtype=np.float32)
        for start in range(0, len(codes), 16_384):
            scores[start : start + 16_384] = codes[start : start + 16_384].astype(np.float32) @ qs
        cand = np.argpartition(-scores, rescore - 1)[:rescore]
        exact = np.asarray(matrix[np.sort(cand)]) @ q
        return np.sort(cand)[top_rows(exact, k)]

    return search, codes.nbytes


def binary_rescore(data_dir: Path, vset: VectorSet, rescore: int) -> tuple[Search, int]:
    qv = quantized.QuantizedVectors.open(data_dir, vset, preload=True)
    ids = np.asarray(vset.base.ids)
    position = {int(i): n for n, i in enumerate(ids)}

    def search(q: np.ndarray, k: int) -> np.ndarray:
        quantized.MIN_RESCORE, quantized.RESCORE_FACTOR = rescore, 1  # the candidate under test
        return np.asarray([position[i] for i, _s in qv.top(q, k)])

    return search, qv.codes.bits.nbytes


def sqlite_vec_tables(matrix: np.ndarray, workdir: Path) -> tuple[Any, dict[str, float]]:
    from memgit.index.store import backend
    from memgit.index.vec0 import load_sqlite_vec

    db = backend().module.connect(str(workdir / "vec.sqlite"))  # the SQLite memgit itself uses
    if not load_sqlite_vec(db):
        raise SystemExit("sqlite-vec does not load here")
    dim = matrix.shape[1]
    built: dict[str, float] = {}
    for name, column, convert in (
        ("bits", f"bit[{dim}]", "vec_quantize_binary(?)"),
        ("bytes", f"int8[{dim}]", "vec_quantize_int8(?, 'unit')"),
    ):
        started = time.perf_counter()
        db.execute(f"CREATE VIRTUAL TABLE {name} USING vec0(embedding {column})")
        for start in range(0, len(matrix), 20_000):
            block = np.asarray(matrix[start : start + 20_000], dtype="<f4")
            db.executemany(
                f"INSERT INTO {name}(rowid, embedding) VALUES (?, {convert})",
                [(start + i, row.tobytes()) for i, row in enumerate(block)],
            )
        db.commit()
        built[name] = round(time.perf_counter() - started, 1)
    return db, built


def sqlite_vec_search(db: Any, table: str, convert: str, matrix: np.ndarray, rescore: int | None) -> Search:
    def search(q: np.ndarray, k: int) -> np.ndarray:
        want = rescore or k
        rows = db.execute(
            f"SELECT rowid FROM {table} WHERE embedding MATCH {convert} AND k = ?", (q.astype("<f4").tobytes(), want)
        ).fetchall()
        cand = np.sort(np.asarray([r[0] for r in rows], dtype=np.int64))
        if rescore is None:
            return cand[:k]
        exact = np.asarray(matrix[cand]) @ q
        return cand[top_rows(exact, k)]

    return search


# -- measuring -----------------------------------------------------------------------------------
def measure(
    name: str, search: Search, queries: np.ndarray, truth: list[set[int]], k: int, **extra: Any
) -> dict[str, Any]:
    for q in queries[:2]:
        search(q, k)
    times, recalls = [], []
    for q, expected in zip(queries, truth, strict=True):
        started = time.perf_counter()
        got = search(q, k)
        times.append((time.perf_counter() - started) * 1000)
        recalls.append(len(expected & {int(r) for r in got}) / k)
    row = {
        "candidate": name,
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(sorted(times)[int(0.95 * (len(times) - 1))], 2),
        f"recall@{k}": round(statistics.fmean(recalls), 4),
        **extra,
    }
    print(" | ".join(f"{v}" for v in row.values()), flush=True)
    return row


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--rows", type=int, default=0, help="synthetic real-shaped rows instead of the index's")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=24, help="rows the vector leg returns (k x candidates_factor)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--synthetic-queries", action="store_true")
    parser.add_argument("--real-cache", action="store_true", help="real vectors from the embedding cache")
    parser.add_argument("--skip", default="", help="comma-separated candidates to leave out (e.g. sqlite-vec)")
    parser.add_argument("--json", type=Path)
    opts = parser.parse_args(argv)
    skip = set(filter(None, opts.skip.split(",")))

    if opts.real_cache:
        data_dir = real_cache_base(opts.workspace)
        source = _read_base(base_path(data_dir))
        assert source is not None
    else:
        source = load_base(opts.workspace)
        data_dir = synthetic_base(source, opts.rows, opts.seed) if opts.rows else opts.workspace / ".git" / "memgit"
    base = _read_base(base_path(data_dir))
    assert base is not None
    vset = VectorSet(base, None)
    queries = (
        gaussian_queries(source, opts.queries, opts.seed)
        if opts.synthetic_queries
        else real_queries(opts.workspace, opts.queries)
    )
    rows, dim = base.matrix.shape
    print(
        f"command: python bench/vector_candidates.py {opts.workspace} --rows {opts.rows} --queries {opts.queries} --k {opts.k}"
    )
    print(
        f"{rows} rows x {dim} dims, {len(queries)} queries ({'gaussian' if opts.synthetic_queries else 'real model'}), k={opts.k}"
    )
    in_ram = np.array(base.matrix)
    truth = [set(map(int, top_rows(in_ram @ q, opts.k))) for q in queries]
    print("candidate | median ms | p95 ms | recall | ...")
    results = [
        measure("float32 scan (in RAM)", float_scan(in_ram), queries, truth, opts.k, bytes_in_ram=in_ram.nbytes),
        measure("float32 mmap (page cache)", float_scan(base.matrix), queries, truth, opts.k, bytes_in_ram=0),
    ]
    if "int8" not in skip:
        for rescore in (100, 400):
            search, size = int8_rescore(in_ram, rescore)
            results.append(measure(f"int8 + re-score {rescore}", search, queries, truth, opts.k, bytes_in_ram=size))
    for rescore in (200, 400, 800, 1600):
        started = time.perf_counter()
        search, size = binary_rescore(data_dir, vset, rescore)
        built = round(time.perf_counter() - started, 2)
        results.append(
            measure(
                f"binary + re-score {rescore}", search, queries, truth, opts.k, bytes_in_ram=size, open_or_build_s=built
            )
        )
    if "sqlite-vec" not in skip:
        with tempfile.TemporaryDirectory(dir=WORK_DIR) as tmp:
            db, built_s = sqlite_vec_tables(in_ram, Path(tmp))
            for rescore in (400, 1600):
                results.append(
                    measure(
                        f"sqlite-vec bit + re-score {rescore}",
                        sqlite_vec_search(db, "bits", "vec_quantize_binary(?)", in_ram, rescore),
                        queries,
                        truth,
                        opts.k,
                        build_s=built_s["bits"],
                    )
                )
            results.append(
                measure(
                    "sqlite-vec int8 (no re-score)",
                    sqlite_vec_search(db, "bytes", "vec_quantize_int8(?, 'unit')", in_ram, None),
                    queries,
                    truth,
                    opts.k,
                    build_s=built_s["bytes"],
                )
            )
            db.close()
    if opts.json:
        opts.json.write_text(json.dumps({"rows": rows, "dim": dim, "k": opts.k, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
