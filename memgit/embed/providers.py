"""Pick the embedder for a run, or explain why there is none.

A missing or broken model must never stop search or indexing: BM25 still works. So this
module never raises for model trouble; it returns `(None, notice)` and callers show the notice.
"""

from __future__ import annotations

import importlib.util
import os

from memgit.embed import Embedder
from memgit.errors import ModelError


def chosen_provider(provider: str) -> str:
    """The provider that runs: `MEMGIT_EMBEDDING` when set, else the configured one."""
    env = (os.environ.get("MEMGIT_EMBEDDING") or "").strip().lower()
    return (env or provider or "none").strip().lower()


def open_embedder(provider: str, model: str | None, n_threads: int | None = None) -> tuple[Embedder | None, str | None]:
    """Return `(embedder, None)` or `(None, "BM25 only: <why and what to do>")`."""
    env = (os.environ.get("MEMGIT_EMBEDDING") or "").strip().lower()
    if env == "none":
        return None, "BM25 only: MEMGIT_EMBEDDING=none"
    provider = chosen_provider(provider)
    if provider == "none":
        return None, "BM25 only: embedding provider is 'none'"
    if provider != "llama":
        return None, f"BM25 only: unknown embedding provider {provider!r} (use 'llama' or 'none')"

    from memgit.embed.models import missing_model_fix, resolve_model_path

    path = resolve_model_path(model)
    if not path.is_file():
        return None, f"BM25 only: no embedding model at {path}; {missing_model_fix(model)}"
    if importlib.util.find_spec("llama_cpp") is None:
        return None, "BM25 only: llama-cpp-python is not installed; pip install 'agent-memgit[llama]'"

    from memgit.embed.llama import LlamaEmbedder

    try:
        return LlamaEmbedder(path, n_threads=n_threads), None
    except ModelError as exc:
        return None, f"BM25 only: {exc}"
    except Exception as exc:  # degrade on anything: search must keep working
        return None, f"BM25 only: cannot load embedding model {path}: {type(exc).__name__}: {exc}"
