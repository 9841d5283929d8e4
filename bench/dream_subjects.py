"""Is a newer line another version of an older one? The subject judge measured on labelled folder cases, and fitted.

    .venv/bin/python bench/dream_subjects.py tests/dream/folder_cases/T* [--write] [--json out.json]

Pairs as dreaming meets them: for each older line (a durable line of the hand-written MEMORY.md at
the start, or a durable line of the notes that passes the rules), every line written after it that
passes the rules (`bench/dream_durable_train.case_lines`) with a cosine of at least
`timeline.FLOOR`. A pair is positive when both lines carry one labelled subject (labels'
`subject`) and the newer line a later version; two lines of one version (a repeat) are left out;
every other pair is negative: hard negatives by construction (close in meaning, often the same
note or heading).

Scored leave-one-workspace-out (fit on all cases but one, score the one left out), for the cosine
alone, the rules (`versions.judge`) and the fitted model (`dream/version_model.py`):

* AUC per case;
* per older line, the best-scoring newer line: how many older lines that have a newer version get
  it right, and how many with none get one anyway (what an update or a conflict line would do);
* for the model's conflict band: among pairs the rules leave undecided, how right the model's top
  pick per newer line is at each threshold; among the rules' `conflict` pairs, how many the model
  would drop and how many true pairs among them.

``--write`` fits on every case and writes ``memgit/dream/version_weights.py`` with the thresholds
chosen on the held-out figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.dream_durable_train import auc, case_lines, embed, fit  # noqa: E402
from memgit.dream.concepts import plain  # noqa: E402
from memgit.dream.timeline import FLOOR  # noqa: E402
from memgit.dream.version_model import FEATURES, features  # noqa: E402
from tests.dream.cases.folder import FolderCase, load  # noqa: E402

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "memgit" / "dream" / "version_weights.py"
L2 = 1.0
BANDS = (0.2, 0.3, 0.4, 0.5, 0.6)


def _start_lines(case: FolderCase) -> list[dict[str, Any]]:
    out = []
    for n, raw in enumerate((case.start_memory or "").splitlines(), 1):
        label = case.labels.get(("MEMORY.md", n))
        if label is not None and label.label == "D" and plain(raw):
            out.append(
                {"case": case.name, "where": f"MEMORY.md:{n}", "text": plain(raw), "day": "", "y": 1.0}
                | {"subject": label.subject, "version": label.version, "passes": True}
            )
    return out


def case_pairs(case: FolderCase, vectors: dict[str, np.ndarray]) -> list[dict[str, Any]]:
    lines = [r for r in case_lines(case) if r["passes"]]
    olders = _start_lines(case) + [r for r in lines if r["y"] == 1.0]
    out = []
    for older in olders:
        v = vectors[older["text"]]
        for newer in lines:
            if (newer["day"], newer["where"]) <= (older["day"], older["where"]) or newer is older:
                continue
            cos = float(vectors[newer["text"]] @ v)
            same = bool(older["subject"]) and newer["subject"] == older["subject"]
            if cos < FLOOR or (same and newer["version"] <= older["version"]):
                continue
            out.append(
                {
                    "case": case.name,
                    "older": older["where"],
                    "newer": newer["where"],
                    "y": float(same),
                    "signs": features(newer["text"], older["text"], round(cos, 6)),
                    "texts": (newer["text"][:90], older["text"][:90]),
                }
            )
    return out


def held_out(pairs: list[dict[str, Any]], l2: float) -> np.ndarray:
    x = np.array([p["signs"] for p in pairs])
    y = np.array([p["y"] for p in pairs])
    cases = np.array([p["case"] for p in pairs])
    scores = np.zeros(len(pairs))
    for case in sorted(set(cases)):
        train, test = cases != case, cases == case
        w, b = _fit(x[train], y[train], l2)
        scores[test] = 1 / (1 + np.exp(-(x[test] @ w + b)))
    return scores


def _fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    mu, sd = x.mean(0), x.std(0)
    sd = np.where(sd < 1e-9, 1.0, sd)
    w = fit((x - mu) / sd, y, np.full(x.shape[1], l2))
    raw = w[:-1] / sd
    return raw, float(w[-1] - (raw * mu).sum())


def per_older(pairs: list[dict[str, Any]], score: np.ndarray, threshold: float) -> dict[str, int]:
    """Each older line's best newer line (by `score`), firing at `threshold`."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for k, p in enumerate(pairs):
        groups[(p["case"], p["older"])].append(k)
    out = {"with_a_version": 0, "fired_right": 0, "fired_wrong": 0, "without": 0, "fired_without": 0}
    for ks in groups.values():
        top = max(ks, key=lambda k: (score[k], pairs[k]["signs"][0]))
        has = any(pairs[k]["y"] for k in ks)
        fired = score[top] >= threshold
        if has:
            out["with_a_version"] += 1
            out["fired_right"] += int(fired and pairs[top]["y"] == 1.0)
            out["fired_wrong"] += int(fired and pairs[top]["y"] == 0.0)
        else:
            out["without"] += 1
            out["fired_without"] += int(fired)
    return out


def bands(pairs: list[dict[str, Any]], p: np.ndarray) -> dict[str, Any]:
    """The conflict band: where the rules say nothing, the model's best older line per newer line;
    where the rules say `conflict`, what the model would drop."""
    rule_update = FEATURES.index("rule_update")
    rule_conflict = FEATURES.index("rule_conflict")
    undecided: dict[tuple[str, str], int] = {}
    for k, pair in enumerate(pairs):
        if pair["signs"][rule_update] or pair["signs"][rule_conflict]:
            continue
        key = (pair["case"], pair["newer"])
        if key not in undecided or p[k] > p[undecided[key]]:
            undecided[key] = k
    added = []
    for t in BANDS:
        top = [k for k in undecided.values() if p[k] >= t]
        right = sum(pairs[k]["y"] == 1.0 for k in top)
        added.append({"threshold": t, "conflict_lines": len(top), "right": int(right)})
    conflicts = [k for k, pair in enumerate(pairs) if pair["signs"][rule_conflict]]
    dropped = []
    for t in BANDS[:3]:
        below = [k for k in conflicts if p[k] < t]
        dropped.append({"threshold": t, "dropped": len(below), "true_dropped": int(sum(pairs[k]["y"] for k in below))})
    return {
        "rules_conflicts": len(conflicts),
        "rules_conflicts_true": int(sum(pairs[k]["y"] for k in conflicts)),
        "added": added,
        "dropped": dropped,
    }


def separates(drop: dict[str, Any], band: dict[str, Any], ratio: float) -> bool:
    """The rules' conflicts the model would drop are at most `ratio` as often true as those it keeps."""
    kept = band["rules_conflicts"] - drop["dropped"]
    if not drop["dropped"] or not kept:
        return False
    kept_true = (band["rules_conflicts_true"] - drop["true_dropped"]) / kept
    return bool(drop["true_dropped"] / drop["dropped"] <= ratio * kept_true)


def write_weights(w: np.ndarray, b: float, conflict: float, drop: float, n: int, cases: list[str]) -> None:
    weights = "\n".join(f'    "{name}": {w[i]:.5f},' for i, name in enumerate(FEATURES))
    WEIGHTS_FILE.write_text(
        '"""The same-subject model\'s weights (generated by bench/dream_subjects.py --write; do not edit).\n\n'
        f"Logistic regression over memgit.dream.version_model.FEATURES, fitted on {n} labelled pairs of the\n"
        f"tuning folder cases ({', '.join(cases)}), L2 {L2:g}. CONFLICT: where the rules say nothing, a\n"
        "conflict line from this probability on; DROP: a conflict of the rules below it is no conflict.\n"
        '"""\n\n'
        f"CONFLICT = {conflict}\n"
        f"DROP = {drop}\n"
        f"BIAS = {b:.5f}\n\n"
        f"WEIGHTS: dict[str, float] = {{\n{weights}\n}}\n",
        encoding="utf-8",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="+", type=Path)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--conflict-precision", type=float, default=0.5, help="least share right of added conflict lines"
    )
    parser.add_argument(
        "--drop-ratio", type=float, default=0.5, help="the dropped conflicts at most this often true as the kept ones"
    )
    args = parser.parse_args(argv)
    cases = [load(folder) for folder in args.cases]
    texts = [r["text"] for case in cases for r in case_lines(case) + _start_lines(case)]
    vectors = embed(texts)
    pairs = [p for case in cases for p in case_pairs(case, vectors)]
    y = np.array([p["y"] for p in pairs])
    names = sorted({p["case"] for p in pairs})
    model = held_out(pairs, L2)
    cosine = np.array([p["signs"][0] for p in pairs])
    rules = np.array([p["signs"][FEATURES.index("rule_update")] for p in pairs])
    figures: dict[str, Any] = {"pairs": len(pairs), "positives": int(y.sum())}
    for name, score in (("cosine", cosine), ("rules", rules), ("model", model)):
        figures[f"auc_{name}"] = {
            c: round(
                auc(score[np.array([p["case"] == c for p in pairs])], y[np.array([p["case"] == c for p in pairs])]), 3
            )
            for c in names
        }
    figures["per_older_rules_update"] = per_older(pairs, rules, 1.0)
    figures["per_older_model"] = {t: per_older(pairs, model, t) for t in BANDS}
    figures["per_older_cosine"] = {t: per_older(pairs, cosine, t) for t in (0.6, 0.7, 0.8)}
    figures["bands"] = band = bands(pairs, model)
    good = [
        a["threshold"]
        for a in band["added"]
        if a["conflict_lines"] and a["right"] / a["conflict_lines"] >= args.conflict_precision
    ]
    conflict = min(good) if good else 1.0
    safe = [d["threshold"] for d in band["dropped"] if separates(d, band, args.drop_ratio)]
    drop = max(safe) if safe else 0.0
    figures["chosen"] = {"conflict": conflict, "drop": drop}
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if args.write:
        x = np.array([p["signs"] for p in pairs])
        w, b = _fit(x, y, L2)
        write_weights(w, b, conflict, drop, len(pairs), names)
        print(f"bench: wrote {WEIGHTS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
