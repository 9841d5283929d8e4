"""Fit memgit's learned re-ranker on the tune split (locomo-c0, c1) and write its weights table.

    .venv/bin/python bench/rerank_train.py [--depth 80] [--write]

For every tune question, memgit's own hybrid search runs in-process with a deep candidate list
(``--depth`` per leg); the merged candidates, before any re-ordering, are kept with their
features (``memgit/recall/rerank.py``) and a label (1 if the chunk holds an evidence line). A
logistic regression with an L2 penalty is fitted by Newton's method.

``--experiments`` also scores, on the same candidates, the other candidates the issue lists that
need no fitting: a perfect re-order (the headroom), other vector weights, spreading hits over days
in MMR, a boost for the date a question names, and shorter chunks first.

Choices are made on the tune split only: each setting is scored by leave-one-conversation-out
(fit on c0, score c1; fit on c1, score c0) with the benchmark's scorer (micro budget recall at
2,000/4,000/8,000 characters and budget hit at 4,000). The report split (c2, c3) is never read
here; ``bench/retrieval.py`` reports on it. ``--write`` fits on c0+c1 and writes
``memgit/recall/rerank_weights.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.corpus import DEFAULT_CORPUS, WORK_DIR, Conversation, check_corpus, load_conversations  # noqa: E402
from bench.memgit_runner import default_python, run_memgit  # noqa: E402
from bench.report import SPLITS  # noqa: E402
from bench.retrieval import replayed_workspace  # noqa: E402
from bench.scoring_retrieval import BUDGETS, Hit, aggregate, score_query  # noqa: E402
from memgit.core.text import token_set  # noqa: E402
from memgit.recall import rerank  # noqa: E402
from memgit.recall.ranking import Candidate, drop_repeated_lines, jaccard, mmr  # noqa: E402
from memgit.recall.request import SearchRequest  # noqa: E402
from memgit.recall.rerank_weights import WEIGHTS  # noqa: E402
from memgit.recall.search import Searcher  # noqa: E402
from memgit.workspace import Workspace  # noqa: E402

TUNE = SPLITS["tune (c0–c1)"]
WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "memgit" / "recall" / "rerank_weights.py"
K = 10
SNIPPET = 700


@dataclasses.dataclass
class Sample:
    conv: str
    qid: str
    question: str
    category: int
    evidence: frozenset[tuple[str, int]]
    candidates: list[Candidate]


class CapturingSearcher(Searcher):
    """memgit's searcher, keeping the merged candidates the ranking step receives."""

    captured: list[Candidate]

    def rank(self, query: str, candidates: list[Candidate], k: int, mode: str, today: date) -> list[Candidate]:
        self.captured = list(candidates)
        return super().rank(query, candidates, k, mode, today)


def collect(conv: Conversation, ws_root: Path, depth: int) -> list[Sample]:
    ws = Workspace.discover(ws_root)
    search_cfg = dataclasses.replace(ws.config.search, candidates_factor=max(1, depth // K), rerank=False)
    ws.config = dataclasses.replace(ws.config, search=search_cfg)
    searcher = CapturingSearcher(ws)
    samples = []
    try:
        for q in conv.queries:
            searcher.search(q.question, SearchRequest(k=K, mode="hybrid"))
            samples.append(Sample(conv.name, q.id, q.question, q.category, q.evidence, searcher.captured))
    finally:
        searcher.close()
    return samples


def label(cand: Candidate, evidence: frozenset[tuple[str, int]]) -> float:
    return 1.0 if any(p == cand.path and cand.start_line <= n <= cand.end_line for p, n in evidence) else 0.0


def design(samples: Sequence[Sample]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for s in samples:
        xs.extend(rerank.features(rerank.query_cues(s.question), s.candidates))
        ys.extend(label(c, s.evidence) for c in s.candidates)
    return np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)


def pairwise_design(samples: Sequence[Sample], top: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """Pairs within a question: each evidence chunk against the non-evidence chunks in the first
    ``top`` of the fused order (the ones it has to overtake); both orientations, so no bias."""
    xs, ys = [], []
    for s in samples:
        rows = rerank.features(rerank.query_cues(s.question), s.candidates)
        labels = [label(c, s.evidence) for c in s.candidates]
        order = sorted(range(len(rows)), key=lambda i: -s.candidates[i].score)
        negatives = [i for i in order[:top] if not labels[i]]
        for i in (i for i in range(len(rows)) if labels[i]):
            for j in negatives:
                diff = np.subtract(rows[i], rows[j])
                xs += [diff, -diff]
                ys += [1.0, 0.0]
    return np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Logistic regression by Newton's method (the bias is not penalised)."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def select(ordered: list[Candidate], lam: float, k: int = K) -> list[Hit]:
    """The steps after ordering, as memgit runs them: MMR over the pool, repeated lines dropped."""
    pool = ordered[: max(3 * k, 20)]
    chosen = drop_repeated_lines(mmr(pool, [token_set(c.text) for c in pool], k * 2, lam))[:k]
    return [Hit(c.path, c.start_line, c.end_line, c.text[:SNIPPET]) for c in chosen]


Orderer = Callable[[Sample], list[Candidate]]


def score(samples: Sequence[Sample], order: Orderer, lam: float) -> dict[str, float]:
    rows = [(s.category, score_query(select(order(s), lam), s.evidence)) for s in samples]
    return summarize(aggregate(rows))


def baseline_order(s: Sample) -> list[Candidate]:
    return sorted(s.candidates, key=lambda c: (-c.score, c.path, c.start_line))


def model_order(weights: dict[str, float]) -> Orderer:
    return lambda s: rerank.rerank(s.question, s.candidates, weights)


def as_weights(w: np.ndarray) -> dict[str, float]:
    return {name: round(float(v), 4) for name, v in zip(rerank.FEATURES, w, strict=True)}


def cross_validated(samples: Sequence[Sample], l2: float, lam: float, pairwise: bool = False) -> dict[str, float]:
    """Leave one tune conversation out: fit on the other, score on it; pooled over both."""
    convs = sorted({s.conv for s in samples})
    rows: list[Sample] = []
    orders: dict[str, list[Candidate]] = {}
    for held in convs:
        train = [s for s in samples if s.conv != held]
        test = [s for s in samples if s.conv == held]
        weights = as_weights(fit(*(pairwise_design(train) if pairwise else design(train)), l2))
        order = model_order(weights)
        for s in test:
            orders[s.qid] = order(s)
        rows.extend(test)
    return score(rows, lambda s: orders[s.qid], lam)


def oracle_order(depth: int) -> Orderer:
    """A perfect re-order of the first ``depth`` fused candidates (evidence first): the headroom."""

    def order(s: Sample) -> list[Candidate]:
        base = baseline_order(s)
        return [
            dataclasses.replace(c, score=c.score + (1.0 if i < depth and label(c, s.evidence) else 0.0))
            for i, c in enumerate(base)
        ]

    return order


def rescored(adjust: Callable[[Sample, Candidate], float]) -> Orderer:
    """Candidates re-scored by ``adjust(sample, candidate)`` (a new fused score), best first."""

    def order(s: Sample) -> list[Candidate]:
        out = [dataclasses.replace(c, score=adjust(s, c)) for c in s.candidates]
        return sorted(out, key=lambda c: (-c.score, c.path, c.start_line))

    return order


def day_spread_score(samples: Sequence[Sample], lam: float, same_day: float) -> dict[str, float]:
    """MMR whose redundancy also counts a chunk of an already chosen day as ``same_day`` similar."""

    def select_by_day(ordered: list[Candidate], k: int = K) -> list[Hit]:
        pool = ordered[: max(3 * k, 20)]
        tokens = [token_set(c.text) for c in pool]
        redundancy = [0.0] * len(pool)
        remaining, chosen = list(range(len(pool))), []
        while remaining and len(chosen) < 2 * k:
            best = max(remaining, key=lambda i: (lam * pool[i].score - (1 - lam) * redundancy[i], -i))
            chosen.append(best)
            remaining.remove(best)
            for i in remaining:
                sim = jaccard(tokens[i], tokens[best])
                if pool[i].day is not None and pool[i].day == pool[best].day:
                    sim = max(sim, same_day)
                redundancy[i] = max(redundancy[i], sim)
        picked = drop_repeated_lines([pool[i] for i in chosen])[:k]
        return [Hit(c.path, c.start_line, c.end_line, c.text[:SNIPPET]) for c in picked]

    rows = [(s.category, score_query(select_by_day(baseline_order(s)), s.evidence)) for s in samples]
    return summarize(aggregate(rows))


def experiments(samples: Sequence[Sample], lam: float) -> None:
    """The other candidates measured for issue #13, all on the tune split (no fitting involved)."""
    for depth in (10, 30):
        show(f"oracle: perfect re-order of top {depth}", score(samples, oracle_order(depth), lam))
    for w in (0.5, 0.6, 0.8):
        fused = rescored(lambda s, c, w=w: 0.8 * ((1 - w) * c.text_score + w * max(0.0, c.vector_score)))
        show(f"vector weight {w} (default 0.7)", score(samples, fused, lam))
    for same_day in (0.2, 0.4, 0.6):
        show(f"day spread: same day = {same_day} similar", day_spread_score(samples, lam, same_day))
    for boost in (0.2, 0.5):
        dated = rescored(
            lambda s, c, b=boost: c.score * (1 + b * rerank.day_match(rerank.query_cues(s.question), c.day))
        )
        show(f"date named in the query: x(1 + {boost})", score(samples, dated, lam))
    for alpha in (0.25, 0.5):
        short = rescored(lambda s, c, a=alpha: c.score / (max(len(c.text), 100) / 500) ** a)
        show(f"shorter chunks first: / (chars/500)^{alpha}", score(samples, short, lam))


def summarize(summary: dict[str, dict[str, float]]) -> dict[str, float]:
    out = {f"micro@{c}": summary["overall"][f"budget_micro@{c}"] for c in BUDGETS}
    out["hit@4000"] = summary["overall"]["budget_hit@4000"]
    for group in ("multi-hop", "temporal", "open-domain", "single-hop"):
        if group in summary:
            out[group] = summary[group]["budget_micro@4000"]
    return out


def show(label_: str, scores: dict[str, float]) -> None:
    print(f"{label_:<34} " + "  ".join(f"{k} {v:.3f}" for k, v in scores.items()), flush=True)


def write_weights(weights: dict[str, float], depth: int, l2: float, n_questions: int, n_rows: int) -> None:
    body = "\n".join(f'    "{name}": {value!r},' for name, value in weights.items())
    WEIGHTS_FILE.write_text(
        '"""The learned re-ranker\'s weights (generated by bench/rerank_train.py --write; do not edit).\n\n'
        f"Logistic regression over ``memgit.recall.rerank.FEATURES``, fitted on the tune split (locomo-c0,\n"
        f"c1: {n_questions} questions, {n_rows} candidates at depth {depth} per leg, L2 {l2}).\n"
        '"""\n\n'
        f"VERSION = 1\nTRAINED_DEPTH = {depth}\n\n"
        f"WEIGHTS: dict[str, float] = {{\n{body}\n}}\n",
        encoding="utf-8",
    )
    print(f"wrote {WEIGHTS_FILE}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="locomo-dev folder")
    parser.add_argument("--work", type=Path, default=WORK_DIR, help="cache folder (default: %(default)s)")
    parser.add_argument("--depth", type=int, default=40, help="candidates per leg (default: %(default)s)")
    parser.add_argument("--l2", type=float, default=10.0, help="L2 penalty (default: %(default)s)")
    parser.add_argument("--lam", type=float, default=0.85, help="MMR lambda (default: %(default)s)")
    parser.add_argument("--sweep", action="store_true", help="also score other L2, MMR lambda and depths")
    parser.add_argument("--write", action="store_true", help="fit on c0+c1 and write the weights table")
    parser.add_argument("--pairwise", action="store_true", help="fit on pairs within a question")
    parser.add_argument("--experiments", action="store_true", help="also score the other ranking candidates")
    parser.add_argument("--dump", type=Path, help="also pickle the collected candidates here")
    args = parser.parse_args(argv)

    corpus = check_corpus(args.corpus)
    conversations = load_conversations(corpus, list(TUNE))
    python = default_python()
    samples: list[Sample] = []
    for conv in conversations:
        ws = replayed_workspace(corpus, conv, args.work)
        run_memgit(python, ["index"], ws)
        samples.extend(collect(conv, ws, args.depth))
    if args.dump:
        with args.dump.open("wb") as fh:
            pickle.dump(samples, fh)
    x, y = design(samples)
    print(f"{len(samples)} tune questions, {len(y)} candidates, {int(y.sum())} with evidence")

    show("previous order (fused score)", score(samples, baseline_order, args.lam))
    cost = []
    for s in samples:
        started = time.perf_counter()
        rerank.rerank(s.question, s.candidates, WEIGHTS)
        cost.append((time.perf_counter() - started) * 1000)
    print(
        f"re-ranking cost in-process: median {statistics.median(cost):.1f} ms a question "
        f"({statistics.median(len(s.candidates) for s in samples):.0f} candidates)"
    )
    show("re-ranked, leave-one-conv-out", cross_validated(samples, args.l2, args.lam, args.pairwise))
    if args.sweep:
        for l2 in (0.1, 10.0, 100.0):
            show(f"  l2 {l2}", cross_validated(samples, l2, args.lam, args.pairwise))
        for lam in (0.7, 0.95, 1.0):
            show(f"  mmr lambda {lam}", cross_validated(samples, args.l2, lam, args.pairwise))
    if args.experiments:
        experiments(samples, args.lam)
    if args.pairwise:
        x, y = pairwise_design(samples)
    weights = as_weights(fit(x, y, args.l2))
    print("weights (all tune questions):", weights)
    if args.write:
        write_weights(weights, args.depth, args.l2, len(samples), len(y))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
