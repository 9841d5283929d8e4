"""BM25 from per-word scores kept warm: the same ranking as one FTS5 OR query, without rescoring
every matching chunk on every search.

FTS5 computes `bm25()` for every chunk holding any query word. At 100k chunks a word like
"budget" sits in a third of them, and scoring those rows is most of a warm search (≈1 µs a row).
But bm25() is a sum over the query's phrases of a part that depends only on the phrase and the
row, so one phrase's scores (`FtsStats.bm25_phrase`) are exactly its share of any query's score.
A long-running searcher (the MCP server, `memgit search --batch`) keeps them per word, within
`[search] bm25_cache_mb` per 100,000 chunks (a word's rows grow with the index), least recently
used out first, and adds them up per query. The same
words come back in an agent's searches, and the common words, the expensive ones, most of all.

Words are kept under the index token FTS5 makes of them (porter stemming: "deploys" and
"deployed" are one entry), and a long-running process may `prewarm` the cache in the background
with the index's most widespread tokens, the ones a first search would pay most for.

Everything cached belongs to one state of the FTS index (`FtsStats.state`, plus the index id);
any other state empties the cache first, so a score is never from another index. A cache saved
beside the index for an earlier state of it is carried to the current one on load
(memgit.index.bm25_rebase), so a server started after a commit is warm at once.
"""

from __future__ import annotations

import contextlib
import json
import math
import struct
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core.atomic import atomic_write
from memgit.core.text import STOP_WORDS, match_expression
from memgit.index.bm25_rebase import Totals

if TYPE_CHECKING:
    import numpy as np

    from memgit.index.store import Store

#: Bytes a cached row takes: its chunk id (int32 while ids fit, else int64) and its score (float32).
ROW_BYTES = 8
#: Share of the budget a prewarm fills, leaving room for the words searches bring.
PREWARM_FILL = 0.75
#: Words whose index token is remembered (a word -> token lookup is one SQL round trip).
MAX_TOKEN_MEMO = 50_000
#: After a search ends, a prewarm waits this long before its next word, for the next search.
QUIET_GAP_S = 0.02
#: ... and waits at most this long a word for searches to stop.
MAX_YIELD_S = 0.25
WORDS_MAGIC = b"MGWRD002"
#: A saved cache of another state is carried to this one (memgit.index.bm25_rebase) only while
#: at most this many rows were added since; past it, computing the words again is as cheap.
MAX_CARRIED_NEW_ROWS = 20_000


def _state_key(state: tuple[object, ...]) -> str:
    """A stable text for an index state (its index id and FTS records): what a saved cache
    must match, byte for byte."""
    import hashlib

    digest = hashlib.sha256()
    for part in state:
        data = part if isinstance(part, bytes) else repr(part).encode()
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def surface_forms(token: str) -> list[str]:
    """Words that may stem to `token` (porter): a prewarm only knows the index's tokens, but a
    phrase query needs a word; each candidate is checked through FTS5's tokenizer before use."""
    forms = [token, token + "e", token + "s", token + "ed", token + "ing"]
    if token.endswith("i"):
        forms += [token[:-1] + "y", token[:-1] + "ies"]
    return [f for f in dict.fromkeys(forms) if f not in STOP_WORDS]


class TermScores:
    """Per-token BM25 scores of one index state, least recently used dropped past `max_rows`.

    A search thread and one prewarm thread may share it: the lock guards the table, never a
    computation.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_rows = max_bytes // ROW_BYTES
        self._state: tuple[object, ...] | None = None
        self._words: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._tokens: dict[str, str] = {}
        # Keys that are exactly one index token (a phrase or a word of several tokens is not):
        # only their scores can be carried to another state of the index.
        self._token_keys: set[str] = set()
        self._rows = 0
        self._sums: np.ndarray | None = None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        # Searches in progress: a prewarm computes no word while one runs (`searching`), so a
        # first search after start competes with it for neither the GIL nor the second core.
        self._active = 0
        self._last_search = -math.inf  # monotonic time the last search ended
        self._idle = threading.Condition(self._lock)
        self._loaded: tuple[tuple[object, ...], int] | None = None
        self.carried = False  # the last `load` carried a saved cache of another state to this one

    @property
    def rows(self) -> int:
        return self._rows

    def resize(self, max_bytes: int) -> None:
        """A new budget (the index grew or shrank); the least recently used words go first."""
        with self._lock:
            self.max_rows = max_bytes // ROW_BYTES
            self._evict()

    def _evict(self) -> None:
        while self._rows > self.max_rows and self._words:
            _, (old_ids, _) = self._words.popitem(last=False)
            self._rows -= len(old_ids)

    def _adopt(self, state: tuple[object, ...]) -> None:
        """Called with the lock held: scores of any other state are dropped."""
        if state != self._state:
            self._words.clear()
            self._tokens.clear()
            self._token_keys.clear()
            self._rows = 0
            self._state = state

    def _keys(self, store: Store, terms: list[str]) -> dict[str, str]:
        """term -> cache key: its index token, or the term itself (a phrase, an unknown word)."""
        with self._lock:
            unknown = [t for t in terms if t not in self._tokens and " " not in t]
        if unknown:
            found = store.fts.tokens(unknown)
            with self._lock:
                if len(self._tokens) > MAX_TOKEN_MEMO:
                    self._tokens.clear()
                # A word that makes no token or several keeps its own spelling as its key.
                self._tokens.update({word: found.get(word, word) for word in unknown})
                self._token_keys.update(found.values())
        with self._lock:
            return {t: self._tokens.get(t, t) for t in terms}

    @staticmethod
    def _compute(store: Store, word: str) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        match = match_expression([word])
        assert match is not None
        ids, scores = store.fts.bm25_phrase(match)
        # float32 keeps the cache small: a sum of a few of them differs from FTS5's float64
        # score by ~1e-6 of its size, which can only swap two chunks FTS5 scores within that.
        ids = ids.astype(np.int32) if len(ids) and int(ids[-1]) < 2**31 else ids
        return ids, scores.astype(np.float32)

    def _store(self, key: str, entry: tuple[np.ndarray, np.ndarray], state: tuple[object, ...]) -> bool:
        with self._lock:
            if state != self._state or key in self._words or len(entry[0]) > self.max_rows:
                return False
            self._words[key] = entry
            self._rows += len(entry[0])
            self._evict()
            return True

    def _phrase(self, store: Store, term: str, key: str, state: tuple[object, ...]) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            found = self._words.get(key)
            if found is not None:
                self._words.move_to_end(key)
                self.hits += 1
                return found
            self.misses += 1
        entry = self._compute(store, term)
        self._store(key, entry, state)
        return entry

    def top(self, store: Store, terms: list[str], limit: int, state: tuple[object, ...]) -> list[tuple[int, float]]:
        """The `limit` best chunks for the OR of `terms`, as `Store.bm25` ranks them, with the
        same scores (up to the order of a floating-point sum). Call inside the read
        transaction that `state` was read in."""
        import numpy as np

        with self._lock:
            self._adopt(state)
        keys = self._keys(store, list(dict.fromkeys(terms)))
        # Two words with one token (`deploys deployed`) are one phrase: FTS5 sums both, so do we.
        parts = [self._phrase(store, term, key, state) for term, key in keys.items()]
        parts = [p for p in parts if len(p[0])]
        if not parts or limit <= 0:
            return []
        if len(parts) == 1:
            ids, scores = parts[0]
            best = np.argpartition(-scores, limit - 1)[:limit] if len(ids) > limit else np.arange(len(ids))
            chosen = [(int(ids[i]), float(scores[i])) for i in best]
        else:
            # Add the words' scores in a dense array indexed by chunk id (a word's ids are
            # unique, so `+=` on a fancy index is exact, and every score is above 0), pick the
            # best ids straight from it, then zero it again for the next query.
            top_id = max(int(p[0].max()) for p in parts) + 1
            if self._sums is None or len(self._sums) < top_id:
                self._sums = np.zeros(max(top_id, 2 * len(self._sums) if self._sums is not None else 0))
            window = self._sums[:top_id]
            for part_ids, part_scores in parts:
                window[part_ids] += part_scores
            best = np.argpartition(-window, limit - 1)[:limit] if top_id > limit else np.arange(top_id)
            chosen = [(int(i), float(window[i])) for i in best if window[i] > 0]
            for part_ids, _ in parts:
                window[part_ids] = 0.0
        return sorted(chosen, key=lambda pair: (-pair[1], pair[0]))

    @contextlib.contextmanager
    def searching(self) -> Iterator[None]:
        """Mark a search in progress (the whole search, not only its BM25 leg)."""
        with self._lock:
            self._active += 1
        try:
            yield
        finally:
            with self._lock:
                self._active -= 1
                self._last_search = time.monotonic()
                if not self._active:
                    self._idle.notify_all()

    def _wait_for_quiet(self, stop: Callable[[], bool]) -> None:
        """Let searches go first: wait while one runs, and for the rest of `QUIET_GAP_S` after
        the last one ended (the next of a burst), but never more than `MAX_YIELD_S` a word, so
        that searches arriving without pause cannot starve the prewarm. A process where no
        search ran (`memgit index` keeping the words) never waits: nothing would go first."""
        deadline = time.monotonic() + MAX_YIELD_S
        while not stop():
            with self._lock:
                while self._active and not stop() and (left := deadline - time.monotonic()) > 0:
                    self._idle.wait(min(0.1, left))
                quiet_for = time.monotonic() - self._last_search
            gap = min(QUIET_GAP_S - quiet_for, deadline - time.monotonic())
            if gap <= 0:
                return
            time.sleep(gap)

    # -- kept beside the index ------------------------------------------------------------------
    def save(self, path: Path, state: tuple[object, ...], basis: Basis | None = None) -> int:
        """Write every kept word's scores to `path` (atomically), tagged with `state` and, when
        given, the table's totals and last row (`basis_of`): a server that starts on the same
        state loads them as they are, one that starts after a commit carries them over."""
        import numpy as np

        with self._lock:
            if state != self._state:
                return 0
            words = list(self._words.items())
            tokens = set(self._token_keys)
        header = {
            "state": _state_key(state),
            "index_id": repr(state[0]) if state else None,
            "basis": [basis.totals.rows, basis.totals.tokens, basis.last_row] if basis else None,
            "words": [[key, len(ids), ids.dtype.str, key in tokens] for key, (ids, _scores) in words],
        }
        blob = json.dumps(header).encode()
        parts = [WORDS_MAGIC, struct.pack("<Q", len(blob)), blob]
        for _key, (ids, scores) in words:
            parts.append(np.ascontiguousarray(ids).tobytes())
            parts.append(np.ascontiguousarray(scores, dtype="<f4").tobytes())
        try:
            atomic_write(path, parts, durable=False)
        except OSError:
            return 0
        return len(words)

    def load(self, path: Path, state: tuple[object, ...], store: Store | None = None) -> int:
        """Adopt the words `save` wrote for exactly this state, or, given the store, the words
        saved for an earlier state of the same index carried to this one (`carried` says which);
        0 when there is no usable file."""
        saved = _read_saved(path)
        if saved is None:
            return 0
        header, loaded = saved
        self.carried = False
        if header.get("state") != _state_key(state):
            carried = self._carry(header, loaded, state, store) if store is not None else None
            if not carried:
                return 0
            loaded, self.carried = carried, True
        with self._lock:
            self._adopt(state)
            for key, _entry, is_token in loaded:
                if is_token:
                    self._token_keys.add(key)
        for key, entry, _is_token in loaded:
            self._store(key, entry, state)
        with self._lock:
            self._loaded = (state, len(loaded))
        return len(loaded)

    @staticmethod
    def _carry(
        header: dict[str, Any], loaded: list[SavedWord], state: tuple[object, ...], store: Store
    ) -> list[SavedWord]:
        """The saved words of an earlier state of this index, scored for `state` (call inside
        the read transaction `state` was read in); empty when they cannot be carried."""
        import numpy as np

        from memgit.index.bm25_rebase import Totals, carry_word

        basis = header.get("basis")
        if not basis or not state or header.get("index_id") != repr(state[0]):
            return []
        old, last_row = Totals(int(basis[0]), int(basis[1])), int(basis[2])
        now = basis_of(store)
        ids_now, lengths_now = store.fts.row_lengths()
        added = ids_now[ids_now > last_row]
        if len(added) > MAX_CARRIED_NEW_ROWS or not len(ids_now):
            return []
        lengths_by_id = np.full(int(ids_now[-1]) + 1, -1, dtype=np.int64)
        lengths_by_id[ids_now] = lengths_now
        in_new: dict[str, tuple[list[int], list[int]]] = {}
        for row, in_row in store.fts.chunk_token_counts(added.tolist()).items():
            for token, count in in_row.items():
                pair = in_new.setdefault(token, ([], []))
                pair[0].append(row)
                pair[1].append(count)
        carried: list[SavedWord] = []
        for key, (ids, scores), is_token in loaded:
            if not is_token:
                continue
            rows, counts = in_new.get(key, ([], []))
            order = np.argsort(np.asarray(rows, dtype=np.int64), kind="stable")
            entry = carry_word(
                ids,
                scores,
                lengths_by_id=lengths_by_id,
                old=old,
                new=now.totals,
                added_ids=np.asarray(rows, dtype=np.int64)[order],
                added_tf=np.asarray(counts, dtype=np.int64)[order],
            )
            if entry is not None and len(entry[0]):
                carried.append((key, entry, True))
        return carried

    def loaded_for(self, state: tuple[object, ...]) -> int:
        """How many words `load` adopted for this very state (0: none, or another state)."""
        with self._lock:
            return self._loaded[1] if self._loaded and self._loaded[0] == state == self._state else 0

    def prewarm(
        self, store: Store, state: tuple[object, ...], *, stop: Callable[[], bool] = lambda: False
    ) -> dict[str, float]:
        """Fill the cache with the index's most widespread tokens, up to `PREWARM_FILL` of the
        budget, costliest first. Call inside the read transaction `state` was read in; stops
        early when `stop()` says so or a search moved the cache to another state."""
        started = time.perf_counter()
        with self._lock:
            self._adopt(state)
            room = int(self.max_rows * PREWARM_FILL) - self._rows
        words = rows = 0
        # The costliest tokens that fit: ask for a few times more than could fit, largest first.
        for token, count in store.fts.frequent_tokens(2_000):
            if stop() or room <= 0 or self._state != state:
                break
            if count > room:
                continue
            self._wait_for_quiet(stop)
            with self._lock:
                if token in self._words:
                    continue
            spelled = {w for w, t in store.fts.tokens(surface_forms(token)).items() if t == token}
            if not spelled:
                continue
            entry = self._compute(store, min(spelled))
            with self._lock:
                self._token_keys.add(token)
            if self._store(token, entry, state):
                words += 1
                rows += len(entry[0])
                room -= len(entry[0])
        return {"words": words, "rows": rows, "seconds": round(time.perf_counter() - started, 3)}


@dataclass(frozen=True)
class Basis:
    """What a saved cache must know of its table to be carried to a later state: the totals
    bm25() read and the last row id then (rows after it are new; ids are never reused)."""

    totals: Totals
    last_row: int


def basis_of(store: Store) -> Basis:
    """The table's basis, read in the caller's transaction."""
    rows, tokens = store.fts.totals()
    return Basis(Totals(rows, tokens), store.fts.last_row())


#: A saved word: its key, (chunk ids, float32 scores), whether the key is one index token.
SavedWord = tuple[str, tuple["np.ndarray", "np.ndarray"], bool]


def _read_saved(path: Path) -> tuple[dict[str, Any], list[SavedWord]] | None:
    """The header and words of a file `TermScores.save` wrote; None when missing or damaged."""
    import numpy as np

    try:
        data = path.read_bytes()
        if not data.startswith(WORDS_MAGIC):
            return None
        (size,) = struct.unpack_from("<Q", data, len(WORDS_MAGIC))
        start = len(WORDS_MAGIC) + 8
        header = json.loads(data[start : start + size])
        offset = start + size
        words: list[SavedWord] = []
        for key, count, dtype, is_token in header["words"]:
            ids = np.frombuffer(data, dtype=np.dtype(dtype), count=count, offset=offset)
            offset += ids.nbytes
            scores = np.frombuffer(data, dtype="<f4", count=count, offset=offset)
            offset += scores.nbytes
            words.append((str(key), (ids, scores), bool(is_token)))
    except (OSError, ValueError, TypeError, KeyError, struct.error):
        return None
    if offset != len(data) or not isinstance(header, dict):
        return None
    return header, words
