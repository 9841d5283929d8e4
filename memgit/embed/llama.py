"""Embeddings from a local GGUF through llama-cpp-python's ctypes layer.

`llama_cpp` is imported only when an embedder is built, and only its ctypes module: hooks and
BM25-only runs never pay for it, and a one-shot search pays ≈10 ms instead of the ≈50 ms of the
whole package (see `low_level`). Input longer than the batch aborts the whole process
inside llama.cpp (no Python exception), so every text is cut to `max_tokens` model tokens here,
before llama.cpp sees it.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import importlib
import importlib.util
import os
import re
import sys
import threading
from collections import deque
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from memgit.core.atomic import atomic_write
from memgit.errors import ModelError

if TYPE_CHECKING:
    import numpy as np

#: Context, batch and micro-batch size. Keeping all three at 512 is what keeps llama.cpp from
#: aborting on long input; MiniLM was trained on 256-token windows anyway.
N_CTX = 512
#: Largest input we embed untruncated (MiniLM's training window), in tokens without CLS/SEP.
MAX_TOKENS_CAP = 256

_LAST_WS = re.compile(r"\s\S*\Z")

# llama.cpp logs to stderr from C; CLI output must stay clean. A model load logs ≈300 lines, and
# a Python callback needs the GIL for each: while another thread imports (a one-shot search loads
# the model on a thread meanwhile), every line waits its turn and the load takes twice as long.
# So lines normally go to a C function that ignores its arguments (libc's `abs`: it reads one
# integer register and returns, under every C calling convention memgit runs on), and only a
# failed load is retried with the Python callback, to keep the lines that explain the failure.
# Callbacks must stay referenced for as long as llama.cpp may call them.
_LOG_TAIL: deque[str] = deque(maxlen=200)
_LOG_SINKS: dict[bool, Any] = {}
_LOG_LOCK = threading.Lock()


def _log_sink(llama_cpp: Any, capture: bool) -> None:
    """Send llama.cpp's log lines to `_LOG_TAIL` (`capture`) or nowhere."""
    with _LOG_LOCK:
        sink = _LOG_SINKS.get(capture)
        if sink is None:
            sink = _capture_callback(llama_cpp) if capture else _ignore_callback(llama_cpp)
            _LOG_SINKS[capture] = sink
        llama_cpp.llama_log_set(sink, ctypes.c_void_p(0))


def _capture_callback(llama_cpp: Any) -> Any:
    # The level numbering changed between ggml versions, so keep every line and pick the
    # failure lines by their wording when a load fails.
    def _keep(level: int, text: bytes, _user_data: ctypes.c_void_p) -> None:
        line = text.decode("utf-8", "replace").strip()
        if line:
            _LOG_TAIL.append(line)

    return llama_cpp.llama_log_callback(_keep)


def _ignore_callback(llama_cpp: Any) -> Any:
    try:
        address = ctypes.cast(ctypes.CDLL(None).abs, ctypes.c_void_p).value
    except (AttributeError, OSError, TypeError):  # no C library to borrow from: ignore lines in Python
        address = None
    if not address:
        return llama_cpp.llama_log_callback(lambda _level, _text, _user_data: None)
    return llama_cpp.llama_log_callback(address)


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
    atomic_write(side, f"{hexdigest}  {path.name}\n".encode(), durable=False)
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


_IMPORT_LOCK = threading.Lock()


def low_level() -> ModuleType:
    """llama-cpp-python's ctypes layer, without running its package `__init__`.

    The package's `__init__` imports the high-level `Llama` class, which pulls in jinja2 (chat
    templates), diskcache and multiprocessing: ≈40 ms of a one-shot search, none of it needed to
    embed. The ctypes module itself only needs the package to exist as a namespace while it loads;
    once it is in `sys.modules`, a later `import llama_cpp` runs the real `__init__`, which finds
    and reuses it, so both views share one loaded library.
    """
    with _IMPORT_LOCK:
        loaded = sys.modules.get("llama_cpp.llama_cpp")
        if loaded is not None:
            return loaded
        if "llama_cpp" in sys.modules:
            return importlib.import_module("llama_cpp.llama_cpp")
        spec = importlib.util.find_spec("llama_cpp")
        if spec is None or spec.submodule_search_locations is None:
            raise ImportError("llama_cpp")
        package = importlib.util.module_from_spec(spec)
        sys.modules["llama_cpp"] = package
        try:
            return importlib.import_module("llama_cpp.llama_cpp")
        finally:
            # Never leave the half-made package behind: `import llama_cpp` must run the real one.
            if sys.modules.get("llama_cpp") is package:
                del sys.modules["llama_cpp"]


_BACKEND_READY = False

#: The C API this module calls; a llama-cpp-python without them is too old (or too new) for us.
REQUIRED_SYMBOLS = (
    "llama_backend_init",
    "llama_model_default_params",
    "llama_model_load_from_file",
    "llama_model_free",
    "llama_model_get_vocab",
    "llama_model_n_embd",
    "llama_model_meta_val_str",
    "llama_context_default_params",
    "llama_init_from_model",
    "llama_free",
    "llama_get_memory",
    "llama_memory_clear",
    "llama_tokenize",
    "llama_batch_init",
    "llama_batch_free",
    "llama_decode",
    "llama_get_embeddings_seq",
    "LLAMA_POOLING_TYPE_MEAN",
)


class LlamaEmbedder:
    """An `Embedder` over a BERT-style GGUF with mean pooling, on llama.cpp's C API.

    It drives the same calls as llama-cpp-python's `Llama.embed` (tokenize with the model's
    special tokens, one sequence per decode, every token an output, mean pooling) so vectors
    are the same; a test checks that against `Llama` itself.
    """

    def __init__(self, path: Path, n_threads: int | None = None) -> None:
        path = Path(path).expanduser()
        if not path.is_file():
            raise ModelError(f"no embedding model at {path}; run `memgit model install`")
        # OpenMP workers that spin while waiting make a 4 ms query embedding take a second when
        # the other core is busy (git, an editor, a second index run); passive waiting costs ~nothing.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            lib = low_level()
        except ImportError as exc:
            raise ModelError("llama-cpp-python is not installed; pip install 'agent-memgit[llama]'") from exc
        missing = [name for name in REQUIRED_SYMBOLS if not hasattr(lib, name)]
        if missing:
            raise ModelError(
                f"llama-cpp-python {_installed_version()} lacks {', '.join(missing[:3])} of llama.cpp's C API; "
                "pip install -U llama-cpp-python"
            )
        self._lib = lib
        self._model: Any = None
        self._ctx: Any = None
        self._batch: Any = None
        threads = n_threads or default_threads()
        try:
            _log_sink(lib, capture=False)
            self._open(lib, path, threads)
        except Exception:  # llama.cpp reports failures as NULL handles and log lines: load again, listening
            self.close()
            self._open_listening(lib, path, threads)
        self.path = path
        self.dim: int = int(lib.llama_model_n_embd(self._model))
        arch = self._meta("general.architecture") or "bert"
        trained = _int_or(self._meta(f"{arch}.context_length"), N_CTX)
        # Room for CLS and SEP inside the 512-token context.
        self.max_tokens: int = max(1, min(trained, MAX_TOKENS_CAP, N_CTX - 2))
        self.model_id: str = f"llama:{path.stem}:{model_sha256(path)[:12]}"
        # llama.cpp contexts are not thread-safe; the MCP server may call from several threads.
        self._lock = threading.RLock()

    def _open_listening(self, lib: Any, path: Path, threads: int) -> None:
        _LOG_TAIL.clear()
        _log_sink(lib, capture=True)
        try:
            self._open(lib, path, threads)
        except Exception as exc:
            self.close()
            detail = _load_failure_detail() or str(exc)
            raise ModelError(
                f"cannot load embedding model {path}: {detail} "
                "(is it a GGUF embedding model? `memgit model install --force` rebuilds the default one)"
            ) from exc
        finally:
            _log_sink(lib, capture=False)

    def _open(self, lib: Any, path: Path, threads: int) -> None:
        global _BACKEND_READY
        with _IMPORT_LOCK:
            if not _BACKEND_READY:
                lib.llama_backend_init()
                _BACKEND_READY = True
        model = lib.llama_model_load_from_file(str(path).encode("utf-8"), lib.llama_model_default_params())
        if not model:
            raise ValueError("llama.cpp could not load the file")
        self._model = model
        params = lib.llama_context_default_params()
        params.n_ctx = N_CTX
        params.n_batch = N_CTX
        params.n_ubatch = N_CTX
        params.n_threads = threads
        params.n_threads_batch = threads
        params.embeddings = True
        params.pooling_type = lib.LLAMA_POOLING_TYPE_MEAN
        if hasattr(params, "flash_attn_type") and hasattr(lib, "LLAMA_FLASH_ATTN_TYPE_DISABLED"):
            # As `Llama(flash_attn=False)` sets it: the same kernels give the same vectors.
            params.flash_attn_type = lib.LLAMA_FLASH_ATTN_TYPE_DISABLED
        ctx = lib.llama_init_from_model(model, params)
        if not ctx:
            raise ValueError("llama.cpp could not create a context")
        self._ctx = ctx
        self._batch = lib.llama_batch_init(N_CTX, 0, 1)
        self._vocab = lib.llama_model_get_vocab(model)
        self._token_buf = (ctypes.c_int32 * (N_CTX * 4))()

    def _meta(self, key: str) -> str | None:
        buf = ctypes.create_string_buffer(256)
        n = self._lib.llama_model_meta_val_str(self._model, key.encode("utf-8"), buf, len(buf))
        return buf.value.decode("utf-8", "replace") if n >= 0 else None

    def _tokenize(self, data: bytes, add_special: bool) -> list[int]:
        lib, buf = self._lib, self._token_buf
        n = lib.llama_tokenize(self._vocab, data, len(data), buf, len(buf), add_special, False)
        if n < 0:  # a negative count is the size the buffer needs
            buf = (ctypes.c_int32 * -n)()
            n = lib.llama_tokenize(self._vocab, data, len(data), buf, len(buf), add_special, False)
            if n < 0:
                raise ModelError("llama.cpp could not tokenize a text")
        return buf[:n]

    def _tokens(self, text: str) -> list[int]:
        return self._tokenize(text.encode("utf-8"), add_special=False)

    def count_tokens(self, text: str) -> int:
        with self._lock:
            return len(self._tokens(_clean(text)))

    def truncate(self, text: str) -> str:
        """Longest prefix of `text` within `max_tokens`, cut at a word boundary when one is near.

        Cutting the text rather than the token list keeps every embedded text one that the
        tokenizer produced from a string, as the snippets shown to users are.
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

    def _embed_one(self, text: str) -> np.ndarray:
        import numpy as np  # lazy: loading the model on a thread must not wait for numpy's import

        lib, batch = self._lib, self._batch
        tokens = self._tokenize(text.encode("utf-8"), add_special=True)[:N_CTX]
        if not tokens:
            return np.zeros(self.dim, dtype=np.float32)
        for i, token in enumerate(tokens):
            batch.token[i] = token
            batch.pos[i] = i
            batch.n_seq_id[i] = 1
            batch.seq_id[i][0] = 0
            batch.logits[i] = 1
        batch.n_tokens = len(tokens)
        memory = lib.llama_get_memory(self._ctx)
        if memory:  # encoder-only models keep no cache
            lib.llama_memory_clear(memory, True)
        if lib.llama_decode(self._ctx, batch) != 0:
            raise ModelError("llama.cpp failed to embed a text")
        pointer = lib.llama_get_embeddings_seq(self._ctx, 0)
        if not pointer:
            raise ModelError("llama.cpp returned no embedding")
        return np.ctypeslib.as_array(pointer, shape=(self.dim,)).astype(np.float32, copy=True)

    def embed(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        with self._lock:
            for i, text in enumerate(texts):
                # One decode per text: batching gave no speed-up and keeps every decode ≤ max_tokens.
                vec = self._embed_one(self._truncate(_clean(text)))
                norm = float(np.linalg.norm(vec))
                if norm > 0:
                    out[i] = vec / norm
        return out

    def close(self) -> None:
        lib = getattr(self, "_lib", None)
        if lib is None:
            return
        if getattr(self, "_batch", None) is not None:
            lib.llama_batch_free(self._batch)
            self._batch = None
        if getattr(self, "_ctx", None):
            lib.llama_free(self._ctx)
        self._ctx = None
        if getattr(self, "_model", None):
            lib.llama_model_free(self._model)
        self._model = None

    def __del__(self) -> None:
        # At interpreter teardown the library may already be gone; nothing is left to free then.
        with contextlib.suppress(Exception):
            self.close()

    def __repr__(self) -> str:
        return f"LlamaEmbedder({str(self.path)!r}, model_id={self.model_id!r}, dim={self.dim})"


def _installed_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("llama-cpp-python")
    except metadata.PackageNotFoundError:
        return "(unknown version)"


def _int_or(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _clean(text: str) -> str:
    """Lone surrogates cannot be UTF-8 encoded; replace them rather than fail a whole batch."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text
