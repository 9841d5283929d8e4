"""Fit dreaming's durable/one-off model on labelled folder cases, score it leave-one-workspace-out, write its weights.

    .venv/bin/python bench/dream_durable_train.py tests/dream/folder_cases/T* [--write] [--json out.json]

Each case's lines (daily logs, other notes, the person's transcript turns) are judged as dreaming
judges a recalled line (`dream.light.judge`, on the first dream night after the note's day); the
lines labelled D (durable) are the positives, T/C/Q/N (transient, chatter, a question, needs its
log) the negatives. Training reads the lines that pass the rules and those the softer rules stop
(transient, needs context, a table row, a lead-in): more examples of what a one-off looks like;
scores are reported on the lines that pass the rules only, which are what the model gates.

Features: the line's MiniLM embedding and `memgit.dream.durable.FEATURES`; a logistic regression
with an L2 penalty (standardised inputs) fitted by Newton's method. Leave-one-workspace-out: fit on
all cases but one, score the one left out; the AUC per case, and for each threshold the share of
the lines it would stop and how many of them were durable. ``--write`` fits on every case and
writes ``memgit/dream/durable_weights.py`` with two thresholds chosen on the held-out scores, each
the highest at which at most a given share of what the gate stops is durable: ``THRESHOLD`` for a
line people searched for (``--max-durable-share``, 0.15: stop only the clearest one-offs) and
``SILENT_THRESHOLD`` for a line nobody searched that would be proposed as a newer version
(``--max-durable-share-silent``, 0.2: no search says it matters, so the model says more).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from memgit.dream.blocks import fenced_lines  # noqa: E402
from memgit.dream.concepts import plain, speakers  # noqa: E402
from memgit.dream.durable import FEATURES, Line, features, heading_above  # noqa: E402
from memgit.dream.light import judge  # noqa: E402
from memgit.dream.model import ShortTerm  # noqa: E402
from memgit.dream.safety import flagged_lines  # noqa: E402
from memgit.dream.turns import is_transcript, turn_view  # noqa: E402
from memgit.ledger.lines import text_hash  # noqa: E402
from memgit.lint.rules import LintSettings  # noqa: E402
from tests.dream.cases.folder import FolderCase, load  # noqa: E402

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "memgit" / "dream" / "durable_weights.py"
CACHE = Path(__file__).resolve().parent / ".work" / "durable-vectors.pkl"
#: Rules whose lines still teach the model what a one-off looks like.
SOFT = ("transient", "needs context", "table row", "continues below")
POSITIVE = "D"
NEGATIVE = ("T", "C", "Q", "N")
#: The penalty on the embedding's weights (many, each weak, prone to learn a workspace's topics)
#: and on the signs' (few, read the same in every workspace): chosen leave-one-workspace-out.
L2 = 1000.0
L2_SIGNS = 1.0
THRESHOLDS = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


def case_lines(case: FolderCase) -> list[dict[str, Any]]:
    """Every labelled line of the case's notes, judged as dreaming would judge it on the night after."""
    lint = LintSettings()
    nights = case.nights()
    voices = speakers([t for files in case.days.values() for t in files.values()])
    out = []
    for day, files in sorted(case.days.items()):
        today = date.fromisoformat(next(n for n in nights if n >= day))
        for path, text in sorted(files.items()):
            view = turn_view(text) if is_transcript(path) else text
            lines = view.splitlines()
            fenced = frozenset() if is_transcript(path) else fenced_lines(lines)
            flags = flagged_lines(lines, lint)
            for n, raw in enumerate(lines, 1):
                label = case.labels.get((path, n))
                if label is None or not raw.strip() or label.label not in (POSITIVE, *NEGATIVE):
                    continue
                entry = ShortTerm(path, n, n, raw, text_hash(raw), {}, [], sources=[(path, n, n)])
                judge(entry, lines, today, lint, voices, flags.get(n), "", fenced)
                if entry.rejected is not None and entry.rejected not in SOFT:
                    continue
                line = Line(entry.fact, raw, path, heading_above(lines, n), tuple(entry.changes))
                out.append(
                    {
                        "case": case.name,
                        "where": f"{path}:{n}",
                        "y": float(label.label == POSITIVE),
                        "passes": entry.rejected is None,
                        "text": plain(entry.fact),
                        "signs": features(line, today),
                        "day": day,
                        "subject": label.subject,
                        "version": label.version,
                    }
                )
    return out


def embed(texts: list[str]) -> dict[str, np.ndarray]:
    from memgit.embed.providers import open_embedder

    embedder, problem = open_embedder("llama", None)
    if embedder is None:
        raise SystemExit(f"bench: no model: {problem}")
    cache: dict[str, dict[str, np.ndarray]] = {}
    if CACHE.is_file():
        cache = pickle.loads(CACHE.read_bytes())
    known = cache.setdefault(embedder.model_id, {})
    fresh = sorted({t for t in texts if t not in known})
    if fresh:
        for text, vec in zip(fresh, embedder.embed(fresh), strict=True):
            known[text] = np.asarray(vec, dtype=np.float64)
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        CACHE.write_bytes(pickle.dumps(cache))
    return known


def fit(x: np.ndarray, y: np.ndarray, l2: np.ndarray) -> np.ndarray:
    """Logistic regression by Newton's method, an L2 penalty per input; the last weight is the
    bias (not penalised)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = np.diag(np.r_[l2, 0.0])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(xb @ w)))
        grad = xb.T @ (p - y) + penalty @ w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def penalties(x: np.ndarray, l2: float, l2_signs: float) -> np.ndarray:
    """The embedding's inputs get `l2`, the signs (the last len(FEATURES) inputs) `l2_signs`."""
    return np.r_[np.full(x.shape[1] - len(FEATURES), l2), np.full(len(FEATURES), l2_signs)]


def standardised_fit(x: np.ndarray, y: np.ndarray, l2: np.ndarray) -> tuple[np.ndarray, float]:
    """Fit on standardised inputs, return the weights and bias for the raw inputs."""
    mu, sd = x.mean(0), x.std(0)
    flat = sd < 1e-6  # a value that never changes (one of MiniLM's dimensions) teaches nothing
    sd = np.where(flat, 1.0, sd)
    w = fit(np.where(flat, 0.0, (x - mu) / sd), y, l2)
    raw = np.where(flat, 0.0, w[:-1] / sd)
    return raw, float(w[-1] - (raw * mu).sum())


def predict(x: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    return 1 / (1 + np.exp(-(x @ w + b)))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    pos, neg = p[y == 1], p[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    return float(
        ((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()) / (len(pos) * len(neg))
    )


def design(rows: Sequence[dict[str, Any]], vectors: dict[str, np.ndarray]) -> np.ndarray:
    return np.array([np.concatenate([vectors[r["text"]], np.array(r["signs"])]) for r in rows])


def held_out(rows: list[dict[str, Any]], x: np.ndarray, l2: np.ndarray) -> tuple[np.ndarray, dict[str, float]]:
    """Leave-one-workspace-out scores of every line, and the AUC per case on the lines that pass the rules."""
    y = np.array([r["y"] for r in rows])
    cases = np.array([r["case"] for r in rows])
    passes = np.array([r["passes"] for r in rows])
    scores = np.zeros(len(rows))
    per_case = {}
    for case in sorted(set(cases)):
        train, test = cases != case, cases == case
        w, b = standardised_fit(x[train], y[train], l2)
        scores[test] = predict(x[test], w, b)
        keep = test & passes
        per_case[case] = round(auc(scores[keep], y[keep]), 3)
    return scores, per_case


def gate_table(rows: list[dict[str, Any]], scores: np.ndarray) -> list[dict[str, Any]]:
    """For each threshold, on the lines that pass the rules (held-out scores): what the gate stops."""
    y = np.array([r["y"] for r in rows])
    passes = np.array([r["passes"] for r in rows])
    out = []
    for t in THRESHOLDS:
        stop = passes & (scores < t)
        out.append(
            {
                "threshold": t,
                "stopped": int(stop.sum()),
                "of": int(passes.sum()),
                "durable_stopped": int(y[stop].sum()),
                "durable_of": int(y[passes].sum()),
                "durable_share_of_stopped": round(float(y[stop].mean()), 3) if stop.any() else None,
                "precision_of_the_rest": round(float(y[passes & ~stop].mean()), 3),
            }
        )
    return out


def chosen(table: list[dict[str, Any]], share: float) -> float:
    """The highest threshold whose stopped lines are at most `share` durable (held out)."""
    allowed = [g["threshold"] for g in table if (g["durable_share_of_stopped"] or 0) <= share]
    return max(allowed) if allowed else min(THRESHOLDS)


def write_weights(
    w: np.ndarray, b: float, thresholds: tuple[float, float], n_rows: int, cases: list[str], l2: str
) -> None:
    dim = len(w) - len(FEATURES)
    embedding = ", ".join(f"{v:.5f}" for v in w[:dim])
    signs = "\n".join(f'    "{name}": {w[dim + i]:.5f},' for i, name in enumerate(FEATURES))
    WEIGHTS_FILE.write_text(
        '"""Dreaming\'s durable/one-off model (generated by bench/dream_durable_train.py --write; do not edit).\n\n'
        f"Logistic regression over the MiniLM embedding ({dim} values) and memgit.dream.durable.FEATURES,\n"
        f"fitted on {n_rows} labelled lines of the tuning folder cases ({', '.join(cases)}), L2 {l2}.\n"
        "Below THRESHOLD a searched line is a one-off; below SILENT_THRESHOLD a line nobody searched is\n"
        "no newer version to propose (both chosen on leave-one-workspace-out scores).\n"
        '"""\n\n'
        f"THRESHOLD = {thresholds[0]}\n"
        f"SILENT_THRESHOLD = {thresholds[1]}\n"
        f"BIAS = {b:.5f}\n\n"
        f"EMBEDDING: tuple[float, ...] = ({embedding},)\n\n"
        f"SIGNS: dict[str, float] = {{\n{signs}\n}}\n",
        encoding="utf-8",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="+", type=Path)
    parser.add_argument("--l2", type=float, default=L2, help="penalty on the embedding's weights")
    parser.add_argument("--l2-signs", type=float, default=L2_SIGNS, help="penalty on the signs' weights")
    parser.add_argument("--max-durable-share", type=float, default=0.15)
    parser.add_argument("--max-durable-share-silent", type=float, default=0.2)
    parser.add_argument("--write", action="store_true", help="fit on every case and write the weights")
    parser.add_argument("--json", type=Path, help="write the held-out figures here")
    args = parser.parse_args(argv)
    rows = [r for folder in args.cases for r in case_lines(load(folder))]
    vectors = embed([r["text"] for r in rows])
    x = design(rows, vectors)
    l2 = penalties(x, args.l2, args.l2_signs)
    scores, per_case = held_out(rows, x, l2)
    table = gate_table(rows, scores)
    threshold = chosen(table, args.max_durable_share)
    silent = chosen(table, args.max_durable_share_silent)
    passes = np.array([r["passes"] for r in rows])
    y = np.array([r["y"] for r in rows])
    figures = {
        "lines": len(rows),
        "passing_rules": int(passes.sum()),
        "auc_held_out": per_case,
        "auc_held_out_pooled": round(auc(scores[passes], y[passes]), 3),
        "auc_held_out_mean": round(float(np.mean(list(per_case.values()))), 3),
        "gate": table,
        "threshold": threshold,
        "silent_threshold": silent,
    }
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if args.write:
        w, b = standardised_fit(x, y, l2)
        penalty = f"{args.l2:g} on the embedding, {args.l2_signs:g} on the signs"
        write_weights(w, b, (threshold, silent), len(rows), sorted({r["case"] for r in rows}), penalty)
        print(f"bench: wrote {WEIGHTS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
