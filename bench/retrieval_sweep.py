"""Sweep retrieval settings in-process on the tune split (c0–c1), each against today's defaults.

    .venv/bin/python bench/retrieval_sweep.py [--grid chunking,bm25,fusion,window,feedback,feedback-edge] [--only NAME,...]
                                              [--split tune|report] [--markdown]

Each variant runs memgit's own ``Searcher`` (k = 10, hybrid) over every question of the split and
is scored with the benchmark's scorer (``bench/scoring_retrieval.py``): micro budget recall at
2,000/4,000/8,000 characters, budget hit at 4,000, micro recall per category at 4,000, and the
difference against today's defaults at 4,000 with a paired bootstrap 95% interval.

The grids (the candidates of issue #13 not measured before):

* ``chunking``: ``[chunking] max_tokens`` / ``overlap_tokens``; each pair gets its own copy of the
  replayed workspace under ``bench/.work/sweep/`` with a ``memgit.toml`` and a full index.
* ``window`` (small-to-big, a prototype): small units are indexed and scored, and each hit is
  returned as a window of ``±w`` lines of its file around the unit.
* ``bm25``: how the BM25 query is built: stop words kept, a phrase bonus for adjacent query words,
  the question's names weighted up or down (a term repeated in FTS5's OR query counts twice),
  ``[search] bm25_max_term_share``.
* ``feedback``: BM25 pseudo-relevance feedback (``[search] bm25_feedback_terms / _docs / _weight``):
  t words picked by tf x idf from the first m BM25 hits, searched as one OR query, beta x its
  scores added to the leg's.
* ``feedback-edge``: the feedback grid's best corner (10 words, 5 chunks) pushed further.
* ``fusion``: candidates per leg, MMR lambda, and the fusion rule (min-max, z-score, reciprocal
  rank with k) over the same two legs.
* ``vector-query``: the text the vector leg embeds: the question without its question words
  (what, when, did, is...), the BM25 words alone, or the question's vector blended with either.
* ``expansion``: BM25 query expansion from the workspace's vocabulary by word vectors
  (``bench/word_neighbours.py``): n neighbours a query word at cosine >= tau, beta x their scores.
* ``lines``: line windows across the first ``depth`` hits by line cosine and chunk score
  (``bench/line_selection.py``) in place of whole chunks.

Settings are chosen on the tune split only; ``--split report`` exists to report a choice made there.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import DEFAULT_CORPUS, WORK_DIR, Conversation, check_corpus, load_conversations, memory_files  # noqa: E402
from bench.line_selection import line_windows  # noqa: E402
from bench.memgit_runner import default_python, run_memgit  # noqa: E402
from bench.report import SPLITS, compare  # noqa: E402
from bench.scoring_retrieval import BUDGETS, CATEGORY_NAMES, Hit, aggregate, score_query  # noqa: E402
from bench.word_neighbours import neighbours, vocabulary  # noqa: E402
from memgit.core.text import WORD_RE, match_expression, query_terms  # noqa: E402
from memgit.recall.feedback import add_feedback  # noqa: E402
from memgit.recall.ranking import Candidate, decay, drop_repeated_lines, fuse, minmax  # noqa: E402
from memgit.recall.request import SearchRequest  # noqa: E402
from memgit.recall.search import Searcher  # noqa: E402
from memgit.workspace import Workspace  # noqa: E402

K = 10
DEFAULT_CHUNKING = (160, 32)


@dataclasses.dataclass(frozen=True)
class Variant:
    """One point of a sweep: index settings, search settings and the bench-only ranking changes."""

    name: str
    chunking: tuple[int, int] = DEFAULT_CHUNKING
    search: tuple[tuple[str, Any], ...] = ()
    query: str = "default"  # how the BM25 MATCH expression is built (see bm25_match)
    fusion: str = "minmax"  # minmax | zscore | rrf:K
    window: int = -1  # small-to-big: grow each hit to about this many characters of its file (-1: as is)
    k: int = K  # hits asked for (smaller units fill the same reading budget with more hits)
    third: float = 0.0  # share of a second embedder's cosine in the vector score (a third leg)
    parent: bool = False  # small-to-big: return the default-size chunk that holds each small unit
    vector_query: str = "question"  # what the vector leg embeds (see vector_query_texts)
    expansion: tuple[int, float, float] = (0, 0.0, 0.0)  # word neighbours: n, tau, beta (n 0: off)
    lines: tuple[float, int, int] = (-1.0, 0, 0)  # line windows: alpha, w, depth (alpha < 0: off)


def grid(name: str) -> list[Variant]:
    if name == "chunking":
        pairs = [(64, 16), (96, 16), (96, 32), (128, 0), (128, 32), (160, 0), (160, 64), (200, 32), (256, 32)]
        out = [Variant(f"chunks {m}/{o}", chunking=(m, o)) for m, o in pairs]
        out += [
            Variant(f"chunks {m}/{o}, k {k}", chunking=(m, o), k=k)
            for m, o, k in ((64, 16, 25), (96, 16, 17), (128, 32, 13))
        ]
        return out
    if name == "window":
        out = []
        for m in (24, 48):
            for chars in (400, 700, 1000):
                for k in (10, 6):
                    out.append(
                        Variant(
                            f"small-to-big: units {m}/0 grown to {chars} chars, k {k}",
                            chunking=(m, 0),
                            window=chars,
                            k=k,
                        )
                    )
            out.append(
                Variant(f"small-to-big: units {m}/0, the 160/32 chunk that holds each", chunking=(m, 0), parent=True)
            )
        return out
    if name == "bm25":
        out = [
            Variant("bm25: stop words kept", query="keep_stop"),
            Variant("bm25: + adjacent-word phrases", query="phrases"),
            Variant("bm25: + NEAR(all words, 10)", query="near"),
            Variant("bm25: names x2", query="names_up"),
            Variant("bm25: names left out", query="names_out"),
        ]
        out += [
            Variant(f"bm25_max_term_share {s}", search=(("bm25_max_term_share", s),)) for s in (0.05, 0.1, 0.2, 0.4)
        ]
        return out
    if name == "fusion":
        out = [Variant(f"candidates per leg {10 * f}", search=(("candidates_factor", f),)) for f in (2, 3, 6, 8)]
        out += [Variant(f"mmr lambda {lam}", search=(("mmr_lambda", lam),)) for lam in (0.6, 0.75, 0.95, 1.0)]
        out += [Variant(f"snippet_chars {n}", search=(("snippet_chars", n),)) for n in (500, 1000)]
        out += [Variant("fusion: z-score", fusion="zscore")]
        out += [Variant(f"fusion: RRF k={k}", fusion=f"rrf:{k}") for k in (10, 30, 60)]
        out += [
            Variant(
                "fusion: RRF k=60, legs equal", fusion="rrf:60", search=(("vector_weight", 0.5), ("text_weight", 0.5))
            )
        ]
        out += [
            Variant(
                f"fusion: z-score, vector weight {w}",
                fusion="zscore",
                search=(("vector_weight", w), ("text_weight", round(1 - w, 2))),
            )
            for w in (0.5, 0.6)
        ]
        return out
    if name == "feedback":
        return [
            Variant(
                f"bm25 feedback: {t} words from the first {m}, beta {b}",
                search=(("bm25_feedback_terms", t), ("bm25_feedback_docs", m), ("bm25_feedback_weight", b)),
            )
            for t in (3, 5, 10)
            for m in (3, 5)
            for b in (0.3, 0.5)
        ]
    if name == "feedback-edge":  # the feedback grid's best corner (10 words, 5 chunks) pushed further
        return [
            Variant(
                f"bm25 feedback: {t} words from the first {m}, beta {b}",
                search=(("bm25_feedback_terms", t), ("bm25_feedback_docs", m), ("bm25_feedback_weight", b)),
            )
            for t, m in ((10, 8), (15, 5), (15, 8), (20, 5), (20, 8), (20, 10))
            for b in (0.3, 0.5, 0.7)
        ]
    if name == "vector-query":
        return [Variant(f"vector query: {how}", vector_query=how) for how in VECTOR_QUERIES[1:]]
    if name == "expansion":
        return [
            Variant(f"word neighbours: n {n}, cosine >= {tau}, beta {beta}", expansion=(n, tau, beta))
            for n in (2, 3, 5, 8)
            for tau in (0.5, 0.6, 0.7)
            for beta in (0.3, 0.6, 1.0)
        ]
    if name == "lines":
        settings = [
            (0.0, 1, 30),
            (0.3, 1, 30),
            (0.5, 1, 30),
            (0.7, 1, 30),
            (1.0, 1, 30),
            (0.5, 2, 30),
            (0.5, 1, 10),
            (0.5, 3, 20),
        ]
        return [
            Variant(f"line windows: alpha {a}, +-{w} lines, first {d} hits", lines=(a, w, d), k=d)
            for a, w, d in settings
        ]
    if name == "third":
        return [Variant(f"third leg: e5-small, share {a}", third=a) for a in (0.25, 0.5, 0.75, 1.0)]
    raise SystemExit(
        f"bench: unknown grid {name!r}; choose from chunking, window, bm25, fusion, third, feedback, feedback-edge, "
        "vector-query, expansion, lines"
    )


# -- the vector leg's query text --------------------------------------------------------------

VECTOR_QUERIES = ("question", "content", "bm25_words", "blend_content", "blend_bm25_words")
QUESTION_WORDS = frozenset(
    "what when where who whom which why how did does do is was were are would could has have had".split()
)


def vector_query_texts(question: str, how: str) -> list[str]:
    """The texts whose normalised vectors are summed into the vector leg's query vector."""
    content = " ".join(w for w in WORD_RE.findall(question) if w.lower() not in QUESTION_WORDS)
    bm25_words = " ".join(query_terms(question))
    return {
        "question": [question],
        "content": [content],
        "bm25_words": [bm25_words],
        "blend_content": [question, content],
        "blend_bm25_words": [question, bm25_words],
    }[how]


class RewrittenQueryEmbedder:
    """The searcher's embedder, embedding a variant's texts in place of the question."""

    def __init__(self, inner: Any, how: str) -> None:
        self.inner = inner
        self.how = how

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed(self, texts: list[str]) -> Any:
        import numpy as np

        out = []
        for text in texts:
            summed = self.inner.embed(vector_query_texts(text, self.how)).sum(axis=0)
            norm = float(np.linalg.norm(summed))
            out.append(summed / norm if norm > 0 else summed)
        return np.asarray(out, dtype=np.float32)


# -- BM25 query construction -------------------------------------------------------------------

NAME_RE = re.compile(r"\b[A-Z][a-z]+\b")


def names_in(question: str) -> set[str]:
    """Capitalised words past the first (the first word of a question is capitalised anyway)."""
    words = question.split()
    return {w.lower() for w in NAME_RE.findall(" ".join(words[1:]))}


def bm25_match(question: str, terms: list[str], how: str) -> str | None:
    """The FTS5 MATCH expression for a variant (``default`` is memgit's own OR of the terms)."""
    if how == "default":
        return match_expression(terms)
    if how == "keep_stop":
        return match_expression(query_terms(question, drop_stop_words=False))
    names = names_in(question)
    if how == "names_up":
        return match_expression(terms + [t for t in terms if t in names])
    if how == "names_out":
        return match_expression([t for t in terms if t not in names] or terms)
    base = match_expression(terms)
    if base is None:
        return None
    words = [w.lower() for w in WORD_RE.findall(question)]
    if how == "phrases":
        kept = set(terms)
        pairs = [f'"{a} {b}"' for a, b in zip(words, words[1:], strict=False) if a in kept and b in kept]
        return " OR ".join([base, *pairs])
    if how == "near":
        if len(terms) < 2:
            return base
        quoted = " ".join('"' + t.replace('"', '""') + '"' for t in terms)
        return f"{base} OR NEAR({quoted}, 10)"
    raise ValueError(how)


# -- fusion rules -------------------------------------------------------------------------------


def zscores(scores: dict[int, float]) -> dict[int, float]:
    if len(scores) < 2:
        return {key: 1.0 for key in scores}
    mean = statistics.fmean(scores.values())
    sd = statistics.pstdev(scores.values()) or 1.0
    return {key: (value - mean) / sd for key, value in scores.items()}


def ranks(scores: dict[int, float]) -> dict[int, int]:
    return {key: i for i, key in enumerate(sorted(scores, key=lambda k: -scores[k]))}


def fused_scores(rule: str, bm25: dict[int, float], vector: dict[int, float], tw: float, vw: float) -> dict[int, float]:
    """Fused score per chunk id under ``rule``; a chunk missing from a leg gets that leg's worst."""
    ids = set(bm25) | set(vector)
    if rule == "zscore":
        zt, zv = zscores(bm25), zscores(vector)
        low_t = min(zt.values(), default=0.0)
        low_v = min(zv.values(), default=0.0)
        return {i: tw * zt.get(i, low_t) + vw * zv.get(i, low_v) for i in ids}
    if rule.startswith("rrf:"):
        k = float(rule.split(":")[1])
        rt, rv = ranks(bm25), ranks(vector)
        return {
            i: (tw * (1 / (k + rt[i] + 1)) if i in rt else 0.0) + (vw * (1 / (k + rv[i] + 1)) if i in rv else 0.0)
            for i in ids
        }
    raise ValueError(rule)


class SweepSearcher(Searcher):
    """memgit's searcher with the bench-only changes of a variant (query, fusion rule)."""

    def __init__(self, ws: Workspace, variant: Variant) -> None:
        super().__init__(ws)
        self.variant = variant
        self.question = ""
        self.raw_bm25: dict[int, float] = {}
        self.second: tuple[dict[int, Any], Any] | None = None  # chunk id -> vector, query vector

    @property
    def embedder(self) -> Any:
        inner = Searcher.embedder.fget(self)  # type: ignore[attr-defined]
        if inner is None or self.variant.vector_query == "question":
            return inner
        return RewrittenQueryEmbedder(inner, self.variant.vector_query)

    def _bm25_leg(self, store: Any, terms: list[str], limit: int, where: Any) -> list[tuple[int, float]]:
        if self.variant.query == "default":
            rows = super()._bm25_leg(store, terms, limit, where)
        else:
            match = bm25_match(self.question, terms, self.variant.query)
            rows = store.bm25(match, limit, where) if match else []
        if self.variant.expansion[0] > 0 and rows:
            rows = self.expanded(store, terms, rows, limit, where)
        self.raw_bm25 = dict(rows)
        return rows

    def expanded(
        self, store: Any, terms: list[str], rows: list[tuple[int, float]], limit: int, where: Any
    ) -> list[tuple[int, float]]:
        """The leg's rows plus beta x the scores of the query words' vocabulary neighbours."""
        n, tau, beta = self.variant.expansion
        words, vectors = workspace_vocabulary(self)
        asked = [t for t in terms if t.isalpha()]
        if not asked:
            return rows
        picked = neighbours(asked, unit_rows(self.inner_embedder().embed(asked)), words, vectors, n, tau)
        stems = set(store.fts.tokens(asked).values())
        tokens = store.fts.tokens(list(picked))
        match = match_expression([w for w in picked if tokens.get(w) not in stems])
        if match is None:
            return rows
        return add_feedback(rows, store.bm25(match, limit, where), beta, limit)

    def inner_embedder(self) -> Any:
        return Searcher.embedder.fget(self)  # type: ignore[attr-defined]

    def run(self, question: str) -> list[Candidate]:
        self.question = question
        self.raw_bm25 = {}
        return [
            hit_candidate(h)
            for h in self.search(question, SearchRequest(k=self.variant.k, mode="hybrid"), today=TODAY).hits
        ]

    def rank(self, query: str, candidates: list[Candidate], k: int, mode: str, today: date) -> list[Candidate]:
        if self.variant.third > 0 and self.second is not None:
            candidates = self.third_leg(query, candidates, today)
        if self.variant.fusion != "minmax":
            cfg = self.ws.config.search
            vector = {c.id: c.vector_score for c in candidates}
            # the vector leg's own ranking: its cosine over every merged candidate
            fused = fused_scores(self.variant.fusion, self.raw_bm25, vector, cfg.text_weight, cfg.vector_weight)
            # scaled to [0, 1] like the default rule, so MMR weighs relevance against redundancy alike
            scaled = minmax(fused)
            candidates = [
                dataclasses.replace(
                    c, score=scaled.get(c.id, 0.0) * decay(c.day, today, cfg.half_life_days, cfg.decay_floor)
                )
                for c in candidates
            ]
        return super().rank(query, candidates, k, mode, today)

    def third_leg(self, query: str, candidates: list[Candidate], today: date) -> list[Candidate]:
        """A second embedder's top candidates joined to the pool, its cosine (mapped onto MiniLM's
        distribution over the pool) mixed into the vector score with share ``variant.third``."""
        import numpy as np

        assert self.second is not None
        vectors, qvec = self.second
        cfg = self.ws.config.search
        ids = list(vectors)
        sims = np.vstack([vectors[i] for i in ids]) @ qvec
        second = {ids[j]: float(sims[j]) for j in np.argsort(-sims)[: max(self.variant.k * cfg.candidates_factor, 20)]}
        have = {c.id for c in candidates}
        new_ids = [i for i in second if i not in have]
        if new_ids:
            store = self.store()
            minilm = dict(self._vectors(store.meta()).similarities(self.embedder.embed([query])[0], new_ids))
            rows = store.chunk_rows(new_ids)
            for i in new_ids:
                path, start, end, text, day = rows[i]
                candidates.append(Candidate(i, path, start, end, text, day, 0.0, max(0.0, minilm.get(i, 0.0)), 0.0))
        pool = {c.id: float(np.dot(vectors[c.id], qvec)) for c in candidates}
        mean_s, sd_s = statistics.fmean(pool.values()), statistics.pstdev(pool.values()) or 1.0
        mean_m = statistics.fmean(c.vector_score for c in candidates)
        sd_m = statistics.pstdev([c.vector_score for c in candidates]) or 1.0
        a = self.variant.third
        out = []
        for c in candidates:
            mapped = (pool[c.id] - mean_s) / sd_s * sd_m + mean_m
            vector = (1 - a) * c.vector_score + a * mapped
            base = fuse(c.text_score, vector, cfg.text_weight, cfg.vector_weight)
            out.append(
                dataclasses.replace(
                    c, vector_score=vector, score=base * decay(c.day, today, cfg.half_life_days, cfg.decay_floor)
                )
            )
        return out


VOCABULARIES: dict[str, tuple[list[str], Any]] = {}
LINE_VECTORS: dict[str, dict[tuple[str, int], Any]] = {}


def unit_rows(vectors: Any) -> Any:
    import numpy as np

    array = np.asarray(vectors, dtype=np.float32)
    return array / np.maximum(np.linalg.norm(array, axis=1, keepdims=True), 1e-12)


def workspace_vocabulary(searcher: SweepSearcher) -> tuple[list[str], Any]:
    """The workspace's vocabulary and its unit word vectors, embedded once per workspace."""
    key = str(searcher.ws.root)
    if key not in VOCABULARIES:
        texts = [row[0] for row in searcher.store().conn.execute("SELECT text FROM chunks")]
        words = vocabulary(texts)
        VOCABULARIES[key] = (words, unit_rows(searcher.inner_embedder().embed(words)))
    return VOCABULARIES[key]


def line_cosines(searcher: SweepSearcher, root: Path, question: str) -> dict[tuple[str, int], float]:
    """Cosine of the question with every non-blank line of the workspace's memory files (the
    lines are embedded once per workspace)."""
    key = str(root)
    if key not in LINE_VECTORS:
        keys, texts = [], []
        for rel, absolute in memory_files(root):
            for n, text in enumerate(absolute.read_text(encoding="utf-8").split("\n"), 1):
                if text.strip():
                    keys.append((rel, n))
                    texts.append(text)
        LINE_VECTORS[key] = dict(zip(keys, unit_rows(searcher.inner_embedder().embed(texts)), strict=True))
    query = unit_rows(searcher.inner_embedder().embed([question]))[0]
    return {line: float(vector @ query) for line, vector in LINE_VECTORS[key].items()}


def second_vectors(work: Path, conv: str) -> tuple[dict[int, Any], dict[str, Any]] | None:
    """Chunk and question vectors of a second embedder, computed offline into ``work/e5/CONV.npz``."""
    import numpy as np

    file = work / "e5" / f"{conv}.npz"
    if not file.exists():
        return None
    data = np.load(file)
    return (
        {int(i): v for i, v in zip(data["ids"], data["vecs"], strict=True)},
        {str(q): v for q, v in zip(data["qids"], data["qvecs"], strict=True)},
    )


TODAY = date(2026, 11, 30)  # fixed, so the decay is the same in every run


def hit_candidate(hit: Any) -> Candidate:
    return Candidate(
        0, hit.path, hit.start_line, hit.end_line, hit.text, hit.day, hit.text_score, hit.vector_score or 0.0, hit.score
    )


# -- small-to-big -------------------------------------------------------------------------------


def widened(hits: Sequence[Candidate], files: Callable[[str], list[str]], chars: int) -> list[Candidate]:
    """Each hit grown by whole lines of its file, one above and one below in turn, while the
    window stays within ``chars`` characters; then lines a higher hit returned are dropped."""
    if chars < 0:
        return list(hits)
    out = []
    for h in hits:
        lines = files(h.path)
        if not lines:
            out.append(h)
            continue
        start, end = h.start_line, min(h.end_line, len(lines))
        size = sum(len(line) + 1 for line in lines[start - 1 : end])
        grown = True
        while grown:
            grown = False
            for above in (True, False):
                n = start - 1 if above else end + 1
                if 1 <= n <= len(lines) and size + len(lines[n - 1]) + 1 <= chars:
                    size += len(lines[n - 1]) + 1
                    start, end = (n, end) if above else (start, n)
                    grown = True
        out.append(dataclasses.replace(h, start_line=start, end_line=end, text="\n".join(lines[start - 1 : end])))
    return drop_repeated_lines(out)


Parents = dict[str, list[tuple[int, int, str]]]


def parent_chunks(hits: Sequence[Candidate], parents: Parents) -> list[Candidate]:
    """Each small unit replaced by the larger chunk that holds it (of several, the one where the
    unit sits most centrally); a chunk already returned by a higher unit is not returned again."""
    out, seen = [], set()
    for h in hits:
        holding = [p for p in parents.get(h.path, []) if p[0] <= h.start_line and h.end_line <= p[1]]
        if not holding:
            out.append(h)
            continue
        middle = (h.start_line + h.end_line) / 2
        start, end, text = min(holding, key=lambda p: (abs((p[0] + p[1]) / 2 - middle), p[0]))
        if (h.path, start) in seen:
            continue
        seen.add((h.path, start))
        out.append(dataclasses.replace(h, start_line=start, end_line=end, text=text))
    return drop_repeated_lines(out)


def default_chunks(root: Path) -> Parents:
    """path -> [(start_line, end_line, text)] of the index built with the default chunking."""
    import sqlite3

    conn = sqlite3.connect(f"file:{root / '.git' / 'memgit' / 'index.sqlite'}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT path, start_line, end_line, text FROM chunks ORDER BY path, start_line").fetchall()
    finally:
        conn.close()
    out: Parents = {}
    for path, start, end, text in rows:
        out.setdefault(path, []).append((int(start), int(end), text))
    return out


# -- workspaces -----------------------------------------------------------------------------------


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def workspace_for(corpus: Path, conv: Conversation, work: Path, chunking: tuple[int, int], python: str) -> Path:
    """The replayed workspace indexed with ``chunking`` (a copy per setting, indexed once)."""
    from bench.retrieval import replayed_workspace

    base = replayed_workspace(corpus, conv, work)
    if chunking == DEFAULT_CHUNKING:
        run_memgit(python, ["index"], base)
        return base
    dest = work / "sweep" / f"chunks-{chunking[0]}-{chunking[1]}" / conv.name
    marker = dest / ".git" / "memgit-sweep-indexed"
    if not marker.exists():
        shutil.rmtree(dest, ignore_errors=True)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(base, dest, symlinks=True)
        (dest / "memgit.toml").write_text(
            f"[chunking]\nmax_tokens = {chunking[0]}\noverlap_tokens = {chunking[1]}\n", encoding="utf-8"
        )
        started = time.perf_counter()
        run_memgit(python, ["index", "--full"], dest)
        log(f"{conv.name}: indexed with chunks {chunking[0]}/{chunking[1]} in {time.perf_counter() - started:.1f} s")
        marker.write_text("ok\n", encoding="utf-8")
    return dest


def file_reader(root: Path) -> Callable[[str], list[str]]:
    cache: dict[str, list[str]] = {}

    def read(path: str) -> list[str]:
        if path not in cache:
            file = root / path
            cache[path] = file.read_text(encoding="utf-8").split("\n") if file.is_file() else []
        return cache[path]

    return read


def run_variant(
    variant: Variant, conversations: Sequence[Conversation], corpus: Path, work: Path, python: str
) -> dict[str, Any]:
    """``{"queries": {qid: scores}, "summary": ..., "ms": median search ms}`` for one variant."""
    per_query: dict[str, dict[str, float]] = {}
    rows = []
    times = []
    for conv in conversations:
        root = workspace_for(corpus, conv, work, variant.chunking, python)
        ws = Workspace.discover(root)
        search_cfg = dataclasses.replace(ws.config.search, rerank=False, **dict(variant.search))
        ws.config = dataclasses.replace(ws.config, search=search_cfg)
        searcher = SweepSearcher(ws, variant)
        files = file_reader(root)
        parents = default_chunks(workspace_for(corpus, conv, work, DEFAULT_CHUNKING, python)) if variant.parent else {}
        second = second_vectors(work, conv.name) if variant.third > 0 else None
        if variant.third > 0 and second is None:
            raise SystemExit(f"bench: no second-embedder vectors for {conv.name} under {work / 'e5'}")
        try:
            for q in conv.queries:
                if second is not None:
                    searcher.second = (second[0], second[1][q.id])
                started = time.perf_counter()
                chosen = searcher.run(q.question)
                times.append((time.perf_counter() - started) * 1000)
                snippet = max(search_cfg.snippet_chars, variant.window)
                if variant.lines[0] >= 0:
                    alpha, w, depth = variant.lines
                    cosine = line_cosines(searcher, root, q.question)
                    windows = line_windows(chosen, cosine, files, alpha, w, depth)
                    hits = [Hit(h.path, h.start_line, h.end_line, h.text[:snippet]) for h in windows]
                else:
                    chosen = (
                        parent_chunks(chosen, parents) if variant.parent else widened(chosen, files, variant.window)
                    )
                    hits = [Hit(c.path, c.start_line, c.end_line, c.text[:snippet]) for c in chosen]
                scores = score_query(hits, q.evidence)
                per_query[q.id] = scores
                rows.append((q.category, scores))
        finally:
            searcher.close()
    return {"queries": per_query, "summary": aggregate(rows), "ms": statistics.median(times)}


def row(name: str, result: dict[str, Any], base: dict[str, Any] | None, queries: list[tuple[str, int]]) -> str:
    s = result["summary"]
    cells = [f"{s['overall'][f'budget_micro@{c}']:.3f}" for c in BUDGETS]
    cells.append(f"{s['overall']['budget_hit@4000']:.3f}")
    cells += [f"{s.get(g, {}).get('budget_micro@4000', math.nan):.3f}" for g in CATEGORY_NAMES.values()]
    if base is not None and result is not base:
        point, low, high = compare(result, base, queries, "budget_micro@4000")
        star = " *" if low > 0 or high < 0 else ""
        cells.append(f"{point * 100:+.1f} [{low * 100:+.1f}, {high * 100:+.1f}]{star}")
        point, low, high = compare(result, base, queries, "budget_hit@4000")
        star = " *" if low > 0 or high < 0 else ""
        cells.append(f"{point * 100:+.1f} [{low * 100:+.1f}, {high * 100:+.1f}]{star}")
    else:
        cells += ["", ""]
    cells.append(f"{result['ms']:.1f}")
    return f"| {name} | " + " | ".join(cells) + " |"


HEADER = (
    "| variant | @2,000 | @4,000 | @8,000 | hit @4,000 | "
    + " | ".join(CATEGORY_NAMES.values())
    + " | Δ @4,000 [95%] | Δ hit [95%] | ms/query |\n|---|"
    + "---:|" * (4 + len(CATEGORY_NAMES) + 3)
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="locomo-dev folder")
    parser.add_argument("--work", type=Path, default=WORK_DIR, help="cache folder (default: %(default)s)")
    parser.add_argument("--grid", default="chunking,window,bm25,fusion", help="comma-separated grids")
    parser.add_argument("--only", help="comma-separated substrings: run only the variants whose name holds one")
    parser.add_argument("--split", choices=("tune", "report"), default="tune")
    parser.add_argument("--python", default=default_python(), help="interpreter that runs `-m memgit` to index")
    args = parser.parse_args(argv)

    corpus = check_corpus(args.corpus)
    split = next(names for label, names in SPLITS.items() if label.startswith(args.split))
    conversations = load_conversations(corpus, list(split))
    queries = [(q.id, q.category) for c in conversations for q in c.queries]
    n_lines = sum(len(q.evidence) for c in conversations for q in c.queries)
    variants = [v for g in args.grid.split(",") if g.strip() for v in grid(g.strip())]
    if args.only:
        wanted = [w.strip() for w in args.only.split(",")]
        variants = [v for v in variants if any(w in v.name for w in wanted)]

    print(f"split {args.split}: {len(queries)} questions, {n_lines} evidence lines; k = {K}; micro budget recall")
    print()
    print(HEADER)
    base = run_variant(Variant("defaults"), conversations, corpus, args.work, args.python)
    print(row("today's defaults", base, None, queries), flush=True)
    for variant in variants:
        result = run_variant(variant, conversations, corpus, args.work, args.python)
        print(row(variant.name, result, base, queries), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
