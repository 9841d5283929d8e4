"""Which model the index's vectors belong to, and embedding what the cache lacks.

The model is a property of the index (meta `model_id`), not of the process that happens to run:
a process that loads the same model embeds; one that cannot (no llama-cpp-python in a hook's
environment, `MEMGIT_EMBEDDING=none`, another `MEMGIT_MODEL`) still updates the text and leaves
the new chunks' vectors pending, for the next process that can. The model changes only with
the config (a rebuild) or `memgit index --full`; an index built without any model adopts the
first one that loads, without rebuilding the text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memgit.embed import Embedder
from memgit.index.cache import EmbeddingCache

ProgressFn = Callable[[int, int], None]
EMBED_BATCH = 32
#: Batch size under a deadline (a hook's, a search's): about half a second of real chunks.
TIMED_BATCH = 4


@dataclass(frozen=True)
class VectorPlan:
    """The index's model after this update, whether this process may embed for it, and why not."""

    model_id: str | None
    can_embed: bool
    adopted: bool = False
    notice: str | None = None


def plan_vectors(indexed_model: str | None, embedder: Embedder | None, *, rebuild: bool, provider: str) -> VectorPlan:
    """Pure: decide the model of the index and whether this process embeds for it."""
    if provider == "none":
        return VectorPlan(None, False)
    loaded = embedder.model_id if embedder is not None else None
    if rebuild:
        return VectorPlan(loaded, loaded is not None)
    if indexed_model is None:
        return VectorPlan(loaded, loaded is not None, adopted=loaded is not None)
    if loaded == indexed_model:
        return VectorPlan(indexed_model, True)
    if loaded is None:
        return VectorPlan(indexed_model, False)
    return VectorPlan(
        indexed_model,
        False,
        notice=(
            f"the index uses embedding model {indexed_model}, this run loaded {loaded}: new vectors are "
            "left pending; run `memgit index --full` to switch the index to the loaded model"
        ),
    )


def embed_missing(
    cache: EmbeddingCache,
    embedder: Embedder,
    model_id: str,
    texts: dict[str, str],
    progress: ProgressFn | None,
    report: Any,
    *,
    deadline: float | None = None,
) -> dict[str, bytes]:
    """Vectors for `texts` (hash -> text): from the cache, else embedded and cached in batches
    (committed as they go, so an interrupted run resumes without re-embedding). Past `deadline`
    (`time.monotonic()`) no new batch starts: the texts left out get no vector from this call."""
    import time

    import numpy as np

    vectors = cache.get(model_id, texts)
    report.embeddings_cached += len(vectors)
    missing = [h for h in texts if h not in vectors]
    if progress and missing:
        progress(0, len(missing))
    # Under a deadline, small batches: a batch of real chunks takes seconds, so a deadline
    # checked only between large ones would be overrun by that much.
    size = EMBED_BATCH if deadline is None else TIMED_BATCH
    for start in range(0, len(missing), size):
        if deadline is not None and start and time.monotonic() > deadline:
            break
        batch = missing[start : start + size]
        matrix = embedder.embed([texts[h] for h in batch])
        fresh = {h: np.asarray(matrix[i], dtype=np.float32) for i, h in enumerate(batch)}
        cache.put(model_id, fresh)
        vectors.update({h: v.astype("<f4").tobytes() for h, v in fresh.items()})
        report.embedded += len(batch)
        if progress:
            progress(min(start + size, len(missing)), len(missing))
    return vectors
