"""A word's BM25 scores carried from one state of the FTS index to the next, without FTS5.

A one-phrase bm25() score is `idf(rows, hits) * tf*(k1+1) / (tf + k1*(1 - b + b*len/avglen))`:
it moves with the table's totals (rows, tokens) and the word's hits even for chunks that did not
change. Chunk rows never change in place (ids are never reused, a changed file gets new rows), so
after a commit the rows a word is in are the old ones minus the deleted plus the new, and every
old row's term frequency can be read back out of its old score. Recomputing with the new totals
is a few numpy operations a word, where FTS5 would score every row again: a server that starts
after a commit loads the last saved cache carried to the new state and answers warm at once.

The arithmetic follows FTS5's `fts5Bm25Function` (k1 = 1.2, b = 0.75, one column, weight 1)
operation for operation, so a carried score equals the one FTS5 computes up to float32 rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

K1 = 1.2
B = 0.75
#: A term frequency read back from a float32 score must be this close to a whole number, or the
#: word is not carried (computed again when a search needs it).
TF_TOLERANCE = 0.05


@dataclass(frozen=True)
class Totals:
    """What bm25() reads from the whole table: its rows and their tokens."""

    rows: int
    tokens: int

    @property
    def average(self) -> float:
        return self.tokens / self.rows if self.rows else 0.0


def fts5_idf(rows: int, hits: int) -> float:
    """FTS5's idf: never zero or below, so a word in most rows still counts a little."""
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else 1e-6


def phrase_scores(tf: np.ndarray, lengths: np.ndarray, idf: float, average: float) -> np.ndarray:
    import numpy as np

    tf = tf.astype(np.float64)
    norm = (1 - B) + (B * lengths.astype(np.float64)) / average
    return idf * ((tf * (K1 + 1.0)) / (tf + K1 * norm))


def term_frequencies(scores: np.ndarray, lengths: np.ndarray, idf: float, average: float) -> np.ndarray | None:
    """The whole-number term frequencies behind these scores, or None when they do not read
    back as whole numbers (the scores were not computed under `idf` and `average`)."""
    import numpy as np

    part = scores.astype(np.float64) / idf
    norm = (1 - B) + (B * lengths.astype(np.float64)) / average
    room = (K1 + 1.0) - part
    if len(part) and float(room.min()) <= 0.0:
        return None
    tf = part * K1 * norm / room
    whole = np.rint(tf)
    if len(tf) and (float(np.abs(tf - whole).max()) > TF_TOLERANCE or float(whole.min()) < 1.0):
        return None
    return whole


def carry_word(
    ids: np.ndarray,
    scores: np.ndarray,
    *,
    lengths_by_id: np.ndarray,
    old: Totals,
    new: Totals,
    added_ids: np.ndarray,
    added_tf: np.ndarray,
) -> tuple[np.ndarray, np.ndarray] | None:
    """One word's (ids, float32 scores) under the new totals: rows gone from the table dropped,
    new rows (`added_ids` holding the word `added_tf` times) appended. `lengths_by_id[i]` is row
    i's token count now, -1 where row i is gone. None when the old scores do not read back."""
    import numpy as np

    if not old.rows or not new.rows:
        return None
    inside = ids < len(lengths_by_id)
    lengths = np.where(inside, lengths_by_id[np.minimum(ids, len(lengths_by_id) - 1)], -1)
    kept = lengths >= 0
    tf = term_frequencies(scores[kept], lengths[kept], fts5_idf(old.rows, len(ids)), old.average)
    if tf is None:
        return None
    all_ids = np.concatenate([ids[kept].astype(np.int64), added_ids.astype(np.int64)])
    all_tf = np.concatenate([tf, added_tf.astype(np.float64)])
    all_lengths = np.concatenate([lengths[kept], lengths_by_id[added_ids]]) if len(added_ids) else lengths[kept]
    carried = phrase_scores(all_tf, all_lengths, fts5_idf(new.rows, len(all_ids)), new.average)
    out_ids = all_ids.astype(np.int32) if len(all_ids) and int(all_ids.max()) < 2**31 else all_ids
    return out_ids, carried.astype(np.float32)
