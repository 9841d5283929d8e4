"""Embeddings from a local GGUF through llama-cpp-python.

`llama_cpp` is imported only when an embedder is built: the import alone costs ~130 ms, which
hooks and BM25-only runs should never pay. Input longer than the batch aborts the whole process
inside llama.cpp (no Python exception), so every text is cut to `max_tokens` model tokens here,
before llama.cpp sees it.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import threading
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from memgit.errors import ModelError

#: Context, batch and micro-batch size. Keeping all three at 512 is what keeps llama.cpp from
#: aborting on long input; MiniLM was trained on 256-token windows anyway.
N_CTX = 512
#: Largest input we embed untruncated (MiniLM's training window), in tokens without CLS/SEP.
MAX_TOKENS_CAP = 256

_LAST_WS = re.compile(r"\s\S*\Z")

# llama.cpp logs to stderr from C; CLI output must stay clean, but load errors are worth keeping
# for the message we raise. The callback must stay referenced for as long as llama.cpp may call it.
_LOG_TAIL: deque[str] = deque(maxlen=200)
_LOG_CALLBACK: Any = None
_LOG_LOCK = threading.Lock()


def _silence_llama_logs(llama_cpp: Any) -> None:
    global _LOG_CALLBACK
    with _LOG_LOCK:
        if _LOG_CALLBACK is not None:
            return

        # The level numbering changed between ggml versions, so keep every line and pick the
        # failure lines by their wording when a load fails.
        @llama_cpp.llama_log_callback
        def _keep_errors(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
            line = text.decode("utf-8", "replace").strip()
            if line:
                _LOG_TAIL.append(line)

        _LOG_CALLBACK = _keep_errors
        llama_cpp.llama_log_set(_keep_errors, ctypes.c_void_p(0))


def _load_failure_detail() -> str:
    """The first lines llama.cpp logged about the failure, without their function prefixes."""
    found = [ln for ln in _LOG_TAIL if re.search(r"error|failed|invalid|missing|unknown", ln, re.I)]
    return "; ".join(re.sub(r"^\w+: ", "", ln) for ln in found[:2])


def sha256_sidecar(path: Path) -> Path:
    """Where `memgit model install` records the model's hash, so startup need not rehash."""
    return path.with_name(path.name + ".sha256")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_sha256_sidecar(path: Path, hexdigest: str) -> Path:
    """Write `<gguf>.sha256` in sha256sum format, atomically."""
    side = sha256_sidecar(path)
    tmp = side.with_name(f".{side.name}.{os.getpid()}.tmp")
    tmp.write_text(f"{hexdigest}  {path.name}\n", encoding="utf-8")
    os.replace(tmp, side)
    return side


def model_sha256(path: Path) -> str:
    """The model file's sha256, from the side file when it is newer than the model, else computed."""
    side = sha256_sidecar(path)
    try:
        if side.stat().st_mtime_ns >= path.stat().st_mtime_ns:
            text = side.read_text(encoding="utf-8").split()
            if text and re.fullmatch(r"[0-9a-f]{64}", text[0]):
                return text[0]
    except OSError:
        pass
    return file_sha256(path)


def default_threads() -> int:
    """Two threads is where a small BERT stops scaling on laptops; more only contends."""
    return max(1, min(2, os.cpu_count() or 1))


class LlamaEmbedder:
    """An `Embedder` over a BERT-style GGUF with mean pooling."""

    def __init__(self, path: Path, n_threads: int | None = None) -> None:
        path = Path(path).expanduser()
        if not path.is_file():
            raise ModelError(f"no embedding model at {path}; run `memgit model install`")
        # OpenMP workers that spin while waiting make a 4 ms query embedding take a second when
        # the other core is busy (git, an editor, a second index run); passive waiting costs ~nothing.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import llama_cpp
        except ImportError as exc:
            raise ModelError("llama-cpp-python is not installed; pip install 'agent-memgit[llama]'") from exc
        _silence_llama_logs(llama_cpp)
        threads = n_threads or default_threads()
        _LOG_TAIL.clear()
        try:
            self._llm = llama_cpp.Llama(
                model_path=str(path),
                embedding=True,
                n_ctx=N_CTX,
                n_batch=N_CTX,
                n_ubatch=N_CTX,
                n_threads=threads,
                n_threads_batch=threads,
                pooling_type=llama_cpp.LLAMA_POOLING_TYPE_MEAN,
                verbose=False,
            )
        except Exception as exc:  # llama_cpp raises ValueError/RuntimeError with little detail
            detail = _load_failure_detail() or str(exc)
            raise ModelError(
                f"cannot load embedding model {path}: {detail} "
                "(is it a GGUF embedding model? `memgit model install --force` rebuilds the default one)"
            ) from exc
        self.path = path
        self.dim: int = int(self._llm.n_embd())
        arch = self._llm.metadata.get("general.architecture", "bert")
        trained = int(self._llm.metadata.get(f"{arch}.context_length", N_CTX))
        # Room for CLS and SEP inside the 512-token context.
        self.max_tokens: int = max(1, min(trained, MAX_TOKENS_CAP, N_CTX - 2))
        self.model_id: str = f"llama:{path.stem}:{model_sha256(path)[:12]}"
        # llama.cpp contexts are not thread-safe; the MCP server may call from several threads.
        self._lock = threading.RLock()

    def _tokens(self, text: str) -> list[int]:
        return self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)

    def count_tokens(self, text: str) -> int:
        with self._lock:
            return len(self._tokens(_clean(text)))

    def truncate(self, text: str) -> str:
        """Longest prefix of `text` within `max_tokens`, cut at a word boundary when one is near.

        Cutting the text rather than the token list keeps to llama-cpp-python's public `embed`.
        """
        text = _clean(text)
        with self._lock:
            return self._truncate(text)

    def _truncate(self, text: str) -> str:
        if len(self._tokens(text)) <= self.max_tokens:
            return text
        # Invariant: text[:lo] fits (the empty prefix does). Token counts are not strictly
        # monotonic in prefix length (a half word can need more pieces), but every accepted
        # prefix was measured, so the result always fits.
        lo, hi = 0, len(text)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if len(self._tokens(text[:mid])) <= self.max_tokens:
                lo = mid
            else:
                hi = mid
        cut = text[:lo]
        if (m := _LAST_WS.search(cut)) and m.start() > len(cut) // 2:
            cut = cut[: m.start()]
        return cut

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        with self._lock:
            for i, text in enumerate(texts):
                # One call per text: batching gave no speed-up and keeps every decode ≤ max_tokens.
                vec = np.asarray(self._llm.embed(self.truncate(text)), dtype=np.float32)
                norm = float(np.linalg.norm(vec))
                if norm > 0:
                    out[i] = vec / norm
        return out

    def close(self) -> None:
        llm = getattr(self, "_llm", None)
        if llm is not None:
            llm.close()
            self._llm = None

    def __repr__(self) -> str:
        return f"LlamaEmbedder({str(self.path)!r}, model_id={self.model_id!r}, dim={self.dim})"


def _clean(text: str) -> str:
    """Lone surrogates cannot be UTF-8 encoded; replace them rather than fail a whole batch."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text
