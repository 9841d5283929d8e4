"""Build a large synthetic index fast: real workspace, real chunking, real-shaped vectors.

Embedding 100k chunks with MiniLM would take hours on 2 cores. Search latency does not depend on
what the vectors mean, but quantisation error and candidate recall do depend on their shape (real
sentence embeddings share a mean direction and are far from isotropic). So a `ShapedEmbedder`
carrying the real model's id and tokenizer embeds a sample of the workspace's real chunks with
the real model, fits their mean and covariance, and gives every chunk a deterministic draw from
that Gaussian (seeded by its text), normalised like the model's output. `--shape random` keeps
the old isotropic unit vectors. A later `memgit search` with the real model finds an index whose
model id matches and runs the full hybrid path on it.

    .venv/bin/python bench/synthetic_index.py DEST --chunks 100000 [--shape real|random]
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

from memgit.index.open import open_embedder  # noqa: E402
from memgit.index.settings import UpdateSettings  # noqa: E402
from memgit.index.update import update_index  # noqa: E402
from memgit.index.word_cache import keep_word_cache  # noqa: E402
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

    def _normal(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            out[i] = np.random.default_rng(seed).standard_normal(self.dim)
        return out

    def embed(self, texts: list[str]) -> np.ndarray:
        out = self._normal(texts)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


class ShapedEmbedder(RandomEmbedder):
    """Draws from a Gaussian fitted to real embeddings of real chunks (mean + covariance)."""

    def __init__(self, real: object, sample_texts: list[str]) -> None:
        super().__init__(real)
        sample = np.asarray(real.embed(sample_texts), dtype=np.float64)  # type: ignore[attr-defined]
        self.mean = sample.mean(axis=0)
        cov = np.cov(sample, rowvar=False) + np.eye(self.dim) * 1e-6
        self.factor = np.linalg.cholesky(cov)

    def embed(self, texts: list[str]) -> np.ndarray:
        out = self._normal(texts).astype(np.float64) @ self.factor.T + self.mean
        return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float32)


def sample_chunk_texts(ws: Workspace, real: object, count: int, seed: int) -> list[str]:
    """Real chunks of the workspace (as the indexer cuts them), a seeded sample."""
    import random

    from memgit.core.chunking import chunk_lines, split_lines

    files = sorted((ws.root / "memory").rglob("*.md"))
    rng = random.Random(seed)
    texts: list[str] = []
    for path in rng.sample(files, min(len(files), count)):
        lines = list(enumerate(split_lines(path.read_text(encoding="utf-8")), start=1))
        chunks = chunk_lines(
            lines,
            max_tokens=ws.config.chunking.max_tokens,
            overlap_tokens=ws.config.chunking.overlap_tokens,
            count_tokens=real.count_tokens,  # type: ignore[attr-defined]
        )
        texts += [c.text for c in chunks[:2]]
        if len(texts) >= count:
            break
    return texts[:count]


def build(dest: Path, chunks: int, seed: int = 0, shape: str = "real", sample: int = 1500) -> dict[str, object]:
    """Generate the workspace (in a child process, so that this process's peak RSS is the
    index build's alone), then index it; reports the build's seconds and peak RSS."""
    import resource
    import subprocess

    files = max(1, int(chunks / CHUNKS_PER_FILE))
    started = time.perf_counter()
    if not (dest / ".git").exists():
        script = Path(__file__).resolve().parent / "gen_workspace.py"
        subprocess.run(
            [sys.executable, str(script), str(dest), "--files", str(files), "--seed", str(seed)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    generated = time.perf_counter()
    ws = Workspace.discover(dest)
    real, notice = open_embedder(ws)
    if real is None:
        raise SystemExit(f"needs the real model for its id and tokenizer: {notice}")
    embedder = (
        RandomEmbedder(real) if shape == "random" else ShapedEmbedder(real, sample_chunk_texts(ws, real, sample, seed))
    )
    indexing = time.perf_counter()
    report = update_index(ws, UpdateSettings(lock_wait=None), embedder=embedder)
    done = time.perf_counter()
    peak_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # the build's own
    words = keep_word_cache(ws, report.chunks)  # as `memgit index` does after a full build
    return {
        "workspace": str(dest),
        "files": files,
        "chunks": report.chunks,
        "mode": report.mode,
        "shape": shape,
        "seconds": round(done - started, 1),
        "generate_seconds": round(generated - started, 1),
        "index_seconds": round(done - indexing, 1),
        "peak_rss_mb": peak_mb,
        "word_cache_seconds": round(time.perf_counter() - done, 1),
        "word_cache": words,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shape", choices=("real", "random"), default="real")
    parser.add_argument("--sample", type=int, default=1500, help="real chunks embedded to fit the shape")
    args = parser.parse_args()
    print(build(args.dest, args.chunks, args.seed, args.shape, args.sample))


if __name__ == "__main__":
    main()
