"""Is a newer line another version of an older one? The subject judge measured on labelled folder cases.

Positives: every pair of lines of one changing subject (labels' `subject`), an older version and a
newer one (labels D or T). Negatives: pairs of durable lines of different subjects, or one of a
subject and one of none, the same number drawn per case (seeded). Each line is the copy dreaming
would make of it (a transcript's turn without its role). Printed: the cosine's AUC, and the
judge's verdicts (update / conflict / none) on both, per case.

    .venv/bin/python bench/dream_subjects.py CASE_FOLDER...
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memgit.dream.concepts import plain  # noqa: E402
from memgit.dream.versions import UPDATE, VersionThresholds, judge  # noqa: E402
from tests.dream.cases.folder import FolderCase, load  # noqa: E402


def _text(case: FolderCase, path: str, line: int) -> str:
    lines = (case.text_of(path) or "").splitlines()
    raw = lines[line - 1] if line <= len(lines) else ""
    if path.endswith(".jsonl"):
        with contextlib.suppress(ValueError):
            raw = str(json.loads(raw).get("content", ""))
    return plain(raw)


def _day(case: FolderCase, path: str) -> str:
    return case.day_of(path) or ""


def pairs(case: FolderCase, seed: int = 0) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    subjects: dict[str, list[tuple[int, str, str]]] = {}
    plain_d: list[tuple[str, str]] = []
    for (path, line), label in case.labels.items():
        text = _text(case, path, line)
        if not text or label.label not in ("D", "T"):
            continue
        if label.subject and label.version:
            subjects.setdefault(label.subject, []).append((label.version, _day(case, path), text))
        if label.label == "D":
            plain_d.append((label.subject or f"-{path}:{line}", text))
    positives = []
    for versions in subjects.values():
        for v_old, _, old in versions:
            for v_new, _, new in versions:
                if v_new > v_old:
                    positives.append((new, old))
    rng = random.Random(seed)
    negatives: list[tuple[str, str]] = []
    tries = 0
    while len(negatives) < len(positives) and tries < 100 * (len(positives) + 1) and len(plain_d) > 1:
        tries += 1
        (sa, a), (sb, b) = rng.sample(plain_d, 2)
        if sa != sb:
            negatives.append((a, b))
    return positives, negatives


def auc(pos: list[float], neg: list[float]) -> float:
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def main() -> int:
    from memgit.embed.providers import open_embedder

    embedder, problem = open_embedder("llama", None)
    if embedder is None:
        print(f"bench: no model: {problem}", file=sys.stderr)
        return 2
    limits = VersionThresholds()
    for folder in sys.argv[1:]:
        case = load(Path(folder))
        pos, neg = pairs(case)
        texts = sorted({t for pair in pos + neg for t in pair})
        vectors = dict(zip(texts, embedder.embed(texts), strict=True))

        def cos(a: str, b: str, vectors: dict[str, Any] = vectors) -> float:
            return float(vectors[a] @ vectors[b])

        cp = [cos(a, b) for a, b in pos]
        cn = [cos(a, b) for a, b in neg]
        vp = [judge(a, b, cos(a, b), limits) for a, b in pos]
        vn = [judge(a, b, cos(a, b), limits) for a, b in neg]
        print(
            json.dumps(
                {
                    "case": case.name,
                    "positives": len(pos),
                    "negatives": len(neg),
                    "auc_cosine": round(auc(cp, cn), 3),
                    "update_on_positives": round(sum(v == UPDATE for v in vp) / max(1, len(vp)), 3),
                    "conflict_on_positives": round(sum(v == "conflict" for v in vp) / max(1, len(vp)), 3),
                    "update_on_negatives": round(sum(v == UPDATE for v in vn) / max(1, len(vn)), 3),
                    "conflict_on_negatives": round(sum(v == "conflict" for v in vn) / max(1, len(vn)), 3),
                }
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
