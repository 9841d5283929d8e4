"""Build a large synthetic index fast: real workspace, real chunking, random vectors.

Embedding 100k chunks with MiniLM would take hours on 2 cores; search latency does not depend
on what the vectors mean, so a `RandomEmbedder` that carries the real model's id and tokenizer
fills the embedding cache with random unit vectors. A later `memgit search` with the real model
then finds an index whose model id matches and runs the full hybrid path on it.

    .venv/bin/python bench/synthetic_index.py DEST --chunks 100000
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.gen_workspace import generate  # noqa: E402
from memgit.index.update import open_embedder, update_index  # noqa: E402
from memgit.workspace import Workspace  # noqa: E402

CHUNKS_PER_FILE = 7.5  # measured on gen_workspace output with 128-token chunks


class RandomEmbedder:
    """The real model's identity and tokenizer, with deterministic random vectors."""

    def __init__(self, real: object) -> None:
        self.real = real
        self.model_id: str = real.model_id  # type: ignore[attr-defined]
        self.dim: int = real.dim  # type: ignore[attr-defined]
        self.max_tokens: int = real.max_tokens  # type: ignore[attr-defined]

    def count_tokens(self, text: str) -> int:
        return self.real.count_tokens(text)  # type: ignore[attr-defined]

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            vec = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out[i] = vec / np.linalg.norm(vec)
        return out


def build(dest: Path, chunks: int, seed: int = 0) -> dict[str, object]:
    files = max(1, int(chunks / CHUNKS_PER_FILE))
    started = time.perf_counter()
    if not (dest / ".git").exists():
        generate(dest, files, seed)
    ws = Workspace.discover(dest)
    real, notice = open_embedder(ws)
    if real is None:
        raise SystemExit(f"needs the real model for its id and tokenizer: {notice}")
    report = update_index(ws, embedder=RandomEmbedder(real), lock_timeout=None)
    return {
        "workspace": str(dest),
        "files": files,
        "chunks": report.chunks,
        "mode": report.mode,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(build(args.dest, args.chunks, args.seed))


if __name__ == "__main__":
    main()
