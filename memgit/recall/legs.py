"""A search's two legs: the BM25 one on its own thread, the vector one over the index's vector files
(or, for a filtered search or without intact files, the embedding cache in SQL).

`VectorFiles` keeps the memory-mapped vectors of the index generation a searcher last read, so a
warm searcher opens (and preloads) them once per generation.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from memgit.index.filter_sql import Filter
    from memgit.index.quantized import Codes, QuantizedVectors
    from memgit.index.store import Store
    from memgit.index.vectors import VectorSet
    from memgit.recall.hits import Scores


class Leg(threading.Thread):
    """One search leg on its own thread, started at once; `result` waits and re-raises.

    A thread a search costs ≈0.1 ms; a `concurrent.futures` pool would add ≈5 ms of imports
    (logging among them) to every one-shot search.
    """

    def __init__(self, work: Callable[[], list[tuple[int, float]]]) -> None:
        super().__init__(name="memgit-bm25", daemon=True)
        self._work = work
        self._value: list[tuple[int, float]] = []
        self._error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self._value = self._work()
        except BaseException as exc:  # raised again on the searching thread
            self._error = exc

    def result(self) -> list[tuple[int, float]]:
        self.join()
        if self._error is not None:
            raise self._error
        return self._value


class VectorFiles:
    """The memory-mapped vectors of the index generation last asked for, if the files are intact.

    Past `quantized_above` chunks the base is scanned through its 1-bit codes and only the best
    rows are re-scored from the floats (memgit.index.quantized); a long-running process then
    keeps the codes in RAM, not the float matrix.
    """

    def __init__(self, data_dir: Path, *, preload: bool) -> None:
        self.data_dir = data_dir
        self.preload = preload
        self._vector_cache: VectorSet | None = None
        self._vector_index_id: str | None = None
        self._quantized: QuantizedVectors | None = None
        self._codes: Codes | None = None

    def current(self, meta: dict[str, str], quantized_above: int) -> VectorSet | QuantizedVectors | None:
        from memgit.index.quantized import QuantizedVectors
        from memgit.index.vectors import VectorSet

        generation = int(meta.get("generation", "0"))
        index_id = meta.get("index_id", "")
        if (
            self._vector_cache is None
            or self._vector_cache.generation != generation
            or self._vector_index_id != index_id
        ):
            previous = self._vector_cache
            self._vector_cache = VectorSet.open(self.data_dir, index_id, generation, previous)
            self._vector_index_id = index_id
            reused = (
                previous is not None and self._vector_cache is not None and (self._vector_cache.base is previous.base)
            )
            vset = self._vector_cache
            quantize = vset is not None and len(vset.base.ids) > quantized_above
            if vset is not None and self.preload and not reused and not quantize:
                vset.preload()
            self._quantized = None
            if vset is not None and quantize:
                self._quantized = QuantizedVectors.open(self.data_dir, vset, preload=self.preload, previous=self._codes)
                self._codes = self._quantized.codes
        return self._quantized or self._vector_cache


def vector_scores_in_sql(
    store: Store,
    meta: dict[str, str],
    qvec: Any,
    limit: int,
    where: Filter,
    vset: VectorSet | QuantizedVectors | None,
    scores: Scores,
) -> None:
    """A filtered search, or one without intact vector files, scores in SQL (the cache)."""
    if where:
        ids = store.chunk_ids_where(where)
        scores.vector = dict(store.cache.similarities(qvec, ids, limit, meta.get("model_id")))
    elif vset is None:
        scores.vector = dict(store.cache.knn(qvec, limit, meta.get("model_id")))


def score_text_hits(
    store: Store,
    meta: dict[str, str],
    qvec: Any,
    text_raw: dict[int, float],
    vset: VectorSet | QuantizedVectors | None,
    scores: Scores,
) -> None:
    """Hits found only by BM25 get their exact cosine; those whose vector is still pending
    get none (not 0.0)."""
    missing = [i for i in text_raw if i not in scores.vector]
    if missing and vset is not None:
        scores.vector.update(vset.similarities(qvec, missing))
        missing = [i for i in missing if i not in scores.vector]
    if missing:
        scores.vector.update(store.cache.similarities(qvec, missing, None, meta.get("model_id")))
        scores.no_vector.update(i for i in missing if i not in scores.vector)
