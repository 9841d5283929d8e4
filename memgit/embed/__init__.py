"""Embedding providers behind one small interface.

Only `embed` is essential; `count_tokens` lets chunking size text by the model's own
tokenizer. Providers are imported lazily so that hooks and BM25-only runs never pay for
`llama_cpp`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np


class Embedder(Protocol):
    #: Stable identity of the model: changes when the vectors would change
    #: (e.g. "llama:all-minilm-l6-v2-q8_0:<sha256 prefix of the gguf>").
    model_id: str
    #: Vector dimension.
    dim: int
    #: Largest input in model tokens that is embedded without truncation.
    max_tokens: int

    def embed(self, texts: list[str]) -> np.ndarray:
        """Return an (n, dim) float32 array of L2-normalised vectors."""
        ...

    def count_tokens(self, text: str) -> int:
        """Number of model tokens in `text` (without special tokens)."""
        ...
