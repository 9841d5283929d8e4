"""Calibrate "is this a newer version of that fact?" (memgit/dream/versions.py) on generated pairs.

Pairs come from the domains of tests/dream/cases/domains.py, filled with several seeds' casts:
positives are (a later version, an earlier version) of one changing fact, in every pair of
wordings; negatives are two different durable facts of the same domain. Each pair is embedded with
the shipped MiniLM model, and judged with the thresholds given (default: the shipped ones).

    .venv/bin/python bench/dream_versions.py --domains team,teacher            # tuning
    .venv/bin/python bench/dream_versions.py --domains household,shop,coach    # held out
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memgit.dream.versions import CONFLICT, UPDATE, VersionThresholds, judge  # noqa: E402
from tests.dream.cases.domains import DOMAINS  # noqa: E402
from tests.dream.cases.generator import _cast, _fill  # noqa: E402


def pairs(names: list[str], seeds: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    positives: list[tuple[str, str]] = []
    negatives: list[tuple[str, str]] = []
    for name in names:
        domain = DOMAINS[name]
        start = date.fromisoformat(domain.start)
        for seed in range(seeds):
            fields = _cast(domain, random.Random(f"{name}:{seed}"))
            facts = [
                [[_fill(w, fields, start, start) for w in version] for version in fact.versions]
                for fact in domain.facts
                if fact.kind == "D"
            ]
            for versions in facts:
                for k in range(1, len(versions)):
                    positives += [(new, old) for new in versions[k] for old in versions[k - 1]]
            for a, b in itertools.permutations(range(len(facts)), 2):
                negatives.append((facts[a][-1][0], facts[b][0][0]))
    return sorted(set(positives)), sorted(set(negatives))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domains", default="team,teacher")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--update", type=float, default=VersionThresholds.update)
    parser.add_argument("--update-with-change", type=float, default=VersionThresholds.update_with_change)
    parser.add_argument("--owner-change", type=float, default=VersionThresholds.owner_change)
    parser.add_argument("--conflict", type=float, default=VersionThresholds.conflict)
    parser.add_argument("--show", action="store_true", help="print the pairs judged wrongly")
    args = parser.parse_args()
    from memgit.embed.providers import open_embedder

    embedder, problem = open_embedder("llama", None)
    if embedder is None:
        raise SystemExit(f"bench: {problem}")
    positives, negatives = pairs(args.domains.split(","), args.seeds)
    texts = sorted({t for pair in positives + negatives for t in pair})
    vectors = dict(zip(texts, embedder.embed(texts), strict=True))
    limits = VersionThresholds(
        update=args.update,
        update_with_change=args.update_with_change,
        owner_change=args.owner_change,
        conflict=args.conflict,
    )

    def cos(a: str, b: str) -> float:
        va, vb = vectors[a], vectors[b]
        return float(va @ vb / ((va @ va) ** 0.5 * (vb @ vb) ** 0.5))

    print(f"| pairs ({args.domains}) | n | update | conflict | neither |")
    print("|---|---:|---:|---:|---:|")
    for label, group in (("versions of one fact", positives), ("different facts", negatives)):
        verdicts = [judge(new, old, cos(new, old), limits) for new, old in group]
        n = len(group)
        print(
            f"| {label} | {n} | {verdicts.count(UPDATE) / n:.3f} | {verdicts.count(CONFLICT) / n:.3f} "
            f"| {verdicts.count(None) / n:.3f} |"
        )
        if args.show:
            wrong = UPDATE if label == "different facts" else None
            for (new, old), verdict in zip(group, verdicts, strict=True):
                if verdict in (wrong, CONFLICT):
                    print(f"    {verdict} {cos(new, old):.2f}  {new!r} <- {old!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
