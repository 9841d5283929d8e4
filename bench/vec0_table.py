"""The vec0 table's element type, measured: float32 against int8 (sqlite-vec's `vec_quantize_int8`).

    .venv/bin/python bench/vec0_table.py [--rows 100000] [--dim 384] [--queries 20] [--update 10]

For each type, in a fresh database file: the time to insert every row (one transaction, as a
full build does), the bytes it adds to the file, a one-file update (delete `--update` rows and
insert as many, one transaction, as an incremental update does), the median exact KNN (k=24) and
how many of int8's top 24 are float32's (the exact answer). Vectors are unit-length Gaussian draws
around a shared mean direction, the shape of MiniLM's (not isotropic: see bench/synthetic_index.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memgit.index.store import backend  # noqa: E402
from memgit.index.vec0 import load_sqlite_vec  # noqa: E402

K = 24


def vectors(rows: int, dim: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    mean = rng.standard_normal(dim).astype(np.float32)
    out = rng.standard_normal((rows, dim)).astype(np.float32) * 0.6 + mean / np.linalg.norm(mean) * 2
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def measure(kind: str, data: np.ndarray, queries: np.ndarray, update: int, folder: Path) -> dict[str, object]:
    module = backend().module
    path = folder / f"{kind}.sqlite"
    conn = module.connect(str(path), isolation_level=None)
    if not load_sqlite_vec(conn):
        raise SystemExit("sqlite-vec does not load here")
    conn.execute("PRAGMA journal_mode = WAL")
    dim = data.shape[1]
    column = f"float[{dim}]" if kind == "float32" else f"int8[{dim}]"
    value = "?" if kind == "float32" else "vec_quantize_int8(?, 'unit')"
    conn.execute(f"CREATE VIRTUAL TABLE v USING vec0(embedding {column} distance_metric=cosine)")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    empty = path.stat().st_size
    started = time.perf_counter()
    conn.execute("BEGIN")
    conn.executemany(
        f"INSERT INTO v(rowid, embedding) VALUES (?, {value})", ((i + 1, row.tobytes()) for i, row in enumerate(data))
    )
    conn.execute("COMMIT")
    insert_s = time.perf_counter() - started
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = path.stat().st_size - empty
    updates = []
    for round_ in range(5):
        ids = list(range(1 + round_ * update, 1 + (round_ + 1) * update))
        started = time.perf_counter()
        conn.execute("BEGIN")
        conn.executemany("DELETE FROM v WHERE rowid = ?", ((i,) for i in ids))
        conn.executemany(
            f"INSERT INTO v(rowid, embedding) VALUES (?, {value})",
            ((len(data) + 1 + round_ * update + j, data[i - 1].tobytes()) for j, i in enumerate(ids)),
        )
        conn.execute("COMMIT")
        updates.append(time.perf_counter() - started)
    knn, answers = [], []
    for q in queries:
        started = time.perf_counter()
        rows = conn.execute(f"SELECT rowid FROM v WHERE embedding MATCH {value} AND k = ?", (q.tobytes(), K)).fetchall()
        knn.append(time.perf_counter() - started)
        answers.append([r[0] for r in rows])
    conn.close()
    return {
        "type": kind,
        "insert_s": round(insert_s, 2),
        "rows_per_s": round(len(data) / insert_s),
        "bytes": size,
        "bytes_per_row": round(size / len(data)),
        "one_file_update_ms": round(statistics.median(updates) * 1000, 2),
        "knn_ms_p50": round(statistics.median(knn) * 1000, 1),
        "answers": answers,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--update", type=int, default=10, help="rows replaced by the one-file update")
    parser.add_argument("--seed", type=int, default=0)
    opts = parser.parse_args()
    data = vectors(opts.rows, opts.dim, opts.seed)
    queries = vectors(opts.queries, opts.dim, opts.seed + 1)
    with tempfile.TemporaryDirectory() as tmp:
        results = [measure(kind, data, queries, opts.update, Path(tmp)) for kind in ("float32", "int8")]
    exact = results[0].pop("answers")
    approx = results[1].pop("answers")
    agreement = statistics.fmean(len(set(a) & set(b)) / K for a, b in zip(exact, approx, strict=True))
    results[1]["top24_agreement_with_float32"] = round(agreement, 3)
    print(json.dumps({"rows": opts.rows, "dim": opts.dim, "results": results}, indent=1))


if __name__ == "__main__":
    main()
