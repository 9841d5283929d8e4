"""Dreaming quality on the LoCoMo dev corpus: are the promoted lines the facts people asked about?

For each conversation ``locomo-cN``: replay it as a git workspace (the corpus's replay.py) into
``bench/.work/dream/locomo-cN``, index it, then simulate ``--days`` days of use: every gold question
is asked on a seeded random number of those days (1 to ``--max-asks``), through
``memgit search --batch --now DAY`` (which records the recall spool), and each day's spool is published
(``memgit recalls publish``). Then ``memgit dream --now LAST_DAY`` with the reference defaults (and each extra
``--variant``), and the promotions are scored:

* precision: share of promoted entries whose source lines hold an evidence line of a gold question;
* recall: share of the questions asked on >= 3 days that got one of their evidence lines promoted;
* random baseline: the same number of lines drawn at random from the daily logs' non-blank,
  non-heading lines (mean over ``--draws`` seeded draws), scored the same way;
* junk: promoted headings, markers, ledger or metadata lines (must be 0);
* standalone: share of promotions with no unresolved relative time ("yesterday", "on Saturday"
  without its date) and no bare pronoun subject ("She …", "Jon said: It …").

The scores of the promotions and of every candidate that passed the evidence gates are kept too
(`--json`), so the docs can show whether the score separates candidates or the cap picks the first.
With `--case`, the labelled cases of tests/dream/cases are lived through instead (four nights,
each branch merged) and scored by their labels.

Then a run's branch is merged and dreaming runs again at the same time: the second table shows how
many of the merged facts it proposed again (must be 0) and how many new ones it proposed: with the
defaults, those the per-run cap held back; with no cap and no budget, none.

Usage (from the repository root):

    .venv/bin/python bench/dream_quality.py [--corpus PATH] [--convs c0,c1] [--markdown]
    .venv/bin/python bench/dream_quality.py --case team_month --case support_desk
    .venv/bin/python bench/dream_quality.py --domain household --domain shop --domain coach --seeds 0,1
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import DEFAULT_CORPUS, WORK_DIR, Conversation, load_conversations  # noqa: E402
from bench.memgit_runner import default_python, run_memgit  # noqa: E402
from memgit.dream.reltime import unresolved  # noqa: E402
from tests.dream.cases.runner import BARE_PRONOUN  # noqa: E402

Line = tuple[str, int]
_SOURCE = re.compile(r"^(?P<path>[^:]+):(?P<start>\d+)-(?P<end>\d+)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")

UNCAPPED = "[dream]\nmax_promotions = 100000\nmemory_max_chars = 1000000\n"  # the config's bounds
VARIANTS: dict[str, str] = {
    "defaults": "",
    "cap 40": "[dream]\nmax_promotions = 40\n",
    "cap 40, 1 query": "[dream]\nmax_promotions = 40\nmin_unique_queries = 1\n",
}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"bench: git {' '.join(args)} failed in {cwd}: {proc.stderr}")
    return proc.stdout


# ------------------------------------------------------------------------------------ pure scoring


def source_lines(source: str) -> set[Line]:
    match = _SOURCE.match(source)
    if not match:
        return set()
    return {(match["path"], n) for n in range(int(match["start"]), int(match["end"]) + 1)}


def score_promotions(
    promoted: list[set[Line]], evidence: dict[str, frozenset[Line]], asked_days: dict[str, int]
) -> tuple[float, float, int]:
    """(precision, recall over questions asked on >= 3 days, number of such questions)."""
    all_evidence = set().union(*evidence.values()) if evidence else set()
    hits = sum(1 for lines in promoted if lines & all_evidence)
    precision = hits / len(promoted) if promoted else 0.0
    covered = set().union(*promoted) if promoted else set()
    frequent = [q for q, days in asked_days.items() if days >= 3]
    found = sum(1 for q in frequent if evidence[q] & covered)
    recall = found / len(frequent) if frequent else 0.0
    return precision, recall, len(frequent)


def candidate_lines(root: Path) -> list[Line]:
    out = []
    for path in sorted((root / "memory").glob("*.md")):
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() and not _HEADING.match(line):
                out.append((rel, n))
    return out


def random_baseline(
    lines: list[Line], n: int, evidence: dict[str, frozenset[Line]], asked: dict[str, int], draws: int, seed: int
) -> tuple[float, float]:
    rng = random.Random(seed)
    precisions, recalls = [], []
    for _ in range(draws):
        picked = [{line} for line in rng.sample(lines, min(n, len(lines)))]
        p, r, _ = score_promotions(picked, evidence, asked)
        precisions.append(p)
        recalls.append(r)
    return sum(precisions) / draws, sum(recalls) / draws


def standalone(text: str) -> bool:
    """No relative time left unresolved and no bare pronoun subject."""
    return unresolved(text) is None and BARE_PRONOUN.search(text) is None


def mangled_copy(root: Path, action: dict[str, Any]) -> str | None:
    """Why a promotion's copy is not faithful to its source lines and their heading (see
    tests/dream/cases/measure.py), or None."""
    from tests.dream.cases.measure import mangled

    match = _SOURCE.match(action.get("source") or "")
    if not match:
        return None
    lines = (root / match["path"]).read_text(encoding="utf-8").splitlines()
    start, end = int(match["start"]), int(match["end"])
    source = " ".join(lines[start - 1 : end])
    heading = next((line for line in reversed(lines[: start - 1]) if _HEADING.match(line)), "")
    day = re.search(r"\d{4}-\d{2}-\d{2}", match["path"])
    return mangled(action["text"], source, heading, day.group(0) if day else "1970-01-01", False)


def is_junk(text: str) -> bool:
    stripped = text.strip()
    return (
        not stripped
        or bool(_HEADING.match(stripped))
        or stripped.startswith("<!--")
        or stripped.startswith("{")
        or bool(re.fullmatch(r"[-*+]|\d+[.)]", stripped))
    )


# ------------------------------------------------------------------------------------ simulation


@dataclass
class ConvResult:
    name: str
    rows: dict[str, dict[str, Any]]
    rerun: dict[str, Any]  # settings -> (merged by run 1, proposed again by run 2, new in run 2)
    seconds: float


def replay(corpus: Path, conv: Conversation, dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(corpus / "replay.py"), str(conv.workspace), str(conv.commits), str(dest)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"bench: replay failed for {conv.name}:\n{proc.stdout}{proc.stderr}")


def last_day(root: Path) -> date:
    days = sorted(p.stem for p in (root / "memory").glob("*.md"))
    return date.fromisoformat(days[-1])


def dream(python: str, root: Path, now: str, *extra: str) -> dict[str, Any]:
    proc, _ = run_memgit(python, ["dream", "--now", now, "--json", *extra], root)
    return json.loads(proc.stdout)


def run_conversation(
    python: str, corpus: Path, conv: Conversation, work: Path, *, days: int, max_asks: int, seed: int, draws: int
) -> ConvResult:
    started = time.perf_counter()
    root = work / conv.name
    replay(corpus, conv, root)
    run_memgit(python, ["index", "-q"], root)
    rng = random.Random(f"{seed}:{conv.name}")
    start = last_day(root) + timedelta(days=1)
    calendar = [(start + timedelta(days=i)).isoformat() for i in range(days)]
    asked: dict[str, int] = {}
    per_day: dict[str, list[str]] = {day: [] for day in calendar}
    for query in conv.queries:
        chosen = rng.sample(calendar, rng.randint(1, min(max_asks, days)))
        asked[query.id] = len(chosen)
        for day in chosen:
            per_day[day].append(query.question)
    for day in calendar:
        batch = root.parent / f"{conv.name}.{day}.txt"
        batch.write_text("\n".join(per_day[day]) + "\n", encoding="utf-8")
        run_memgit(
            python,
            ["search", "--batch", str(batch), "--now", f"{day}T12:00:00+00:00", "-k", "6"],
            root,
            {"MEMGIT_NO_RECALL": "0"},
        )
        batch.unlink()
        run_memgit(
            python,
            ["recalls", "publish"],
            root,
            {
                "GIT_AUTHOR_NAME": "bench",
                "GIT_AUTHOR_EMAIL": "bench@example.invalid",
                "GIT_COMMITTER_NAME": "bench",
                "GIT_COMMITTER_EMAIL": "bench@example.invalid",
            },
        )
    now = f"{calendar[-1]}T23:00:00+00:00"
    evidence = {q.id: q.evidence for q in conv.queries}
    lines = candidate_lines(root)
    rows: dict[str, dict[str, Any]] = {}
    for variant, toml in VARIANTS.items():
        (root / "memgit.toml").write_text(toml, encoding="utf-8")  # read from the work tree, left uncommitted
        out = dream(python, root, now, "--dry-run", "--explain")
        promoted = [a for a in out.get("actions", []) if a["action"] in ("promote", "supersede")]
        passed = [c["score"] for c in out.get("candidates", []) if c["gate"] in (None, "cap", "budget")]
        sets = [source_lines(a["source"]) for a in promoted]
        p, r, frequent = score_promotions(sets, evidence, asked)
        rp, rr = random_baseline(lines, len(sets), evidence, asked, draws, seed)
        rows[variant] = {
            "promotions": len(sets),
            "supersedes": sum(1 for a in promoted if a["action"] == "supersede"),
            "precision": p,
            "recall": r,
            "frequent_questions": frequent,
            "random_precision": rp,
            "random_recall": rr,
            "junk": sum(1 for a in promoted if is_junk(a["text"])),
            "conflicts": sum(1 for a in promoted if a.get("conflicts")),
            "mangled": sum(1 for a in promoted if mangled_copy(root, a)),
            "standalone": sum(1 for a in promoted if standalone(a["text"])) / len(promoted) if promoted else 1.0,
            "gates": out.get("gates", {}),
            "scores": sorted((round(a["score"], 3) for a in promoted), reverse=True),
            "passed_scores": sorted(passed, reverse=True),
            "texts": [a["text"] for a in promoted],
        }
    # The review loop: write the branch, merge it, dream again at the same time. With the defaults
    # the second run proposes what the cap held back; with no cap and no budget it must propose nothing.
    pre_merge = git(root, "rev-parse", "HEAD").strip()
    rerun: dict[str, tuple[int, int]] = {}
    for label, toml in (("defaults", ""), ("no cap, no budget", UNCAPPED)):
        (root / "memgit.toml").write_text(toml, encoding="utf-8")
        git(root, "reset", "-q", "--hard", pre_merge)
        branch = "memgit/dream/bench-" + label.replace(" ", "-").replace(",", "")
        first = dream(python, root, now, "--branch", branch, "--force")
        if label == "defaults" and first.get("branch"):
            concepts = json.loads(git(root, "show", f"{branch}:{first['concepts_file']}"))
            rows["defaults"]["concepts"] = [c["tag"] for c in concepts["concepts"]][:20]
        git(root, "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "merge", "-q", "--no-edit", branch)
        merged = {a["key"] for a in first.get("actions", [])}
        merged_sources = {a["source"].split("@")[0] for a in first.get("actions", []) if a.get("source")}
        again = dream(python, root, now, "--dry-run")
        proposals = [a for a in again.get("actions", []) if a["action"] in ("promote", "supersede")]
        repeated = sum(1 for a in proposals if a["key"] in merged or a["source"].split("@")[0] in merged_sources)
        rerun[label] = (len(merged), repeated, len(proposals) - repeated)
    (root / "memgit.toml").unlink()
    git(root, "reset", "-q", "--hard", pre_merge)
    return ConvResult(conv.name, rows, rerun, time.perf_counter() - started)


def markdown(results: list[ConvResult], days: int, max_asks: int) -> str:
    out = [
        f"Simulation: {days} days; each gold question asked on 1..{max_asks} random days (seeded); "
        "`memgit dream` at the end of the last day.",
        "",
        "| workspace | settings | promotions (updates) | precision | recall (asked ≥3 days) | random precision "
        "| random recall | junk | standalone | may conflict | mangled |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for res in results:
        for variant, row in res.rows.items():
            out.append(
                f"| {res.name} | {variant} | {row['promotions']} ({row['supersedes']}) | {row['precision']:.2f} | {row['recall']:.2f} "
                f"(of {row['frequent_questions']}) | {row['random_precision']:.2f} | {row['random_recall']:.2f} "
                f"| {row['junk']} | {row.get('standalone', 1.0):.2f} | {row.get('conflicts', 0)} | {row.get('mangled', 0)} |"
            )
    for variant in VARIANTS:
        rows = [r.rows[variant] for r in results]
        n = sum(r["promotions"] for r in rows)
        if not n:
            continue
        precision = sum(r["precision"] * r["promotions"] for r in rows) / n
        rand = sum(r["random_precision"] * r["promotions"] for r in rows) / n
        freq = sum(r["frequent_questions"] for r in rows)
        recall = sum(r["recall"] * r["frequent_questions"] for r in rows) / freq if freq else 0.0
        rrecall = sum(r["random_recall"] * r["frequent_questions"] for r in rows) / freq if freq else 0.0
        updates = sum(r["supersedes"] for r in rows)
        alone = sum(r.get("standalone", 1.0) * r["promotions"] for r in rows) / n
        out.append(
            f"| **all** | {variant} | {n} ({updates}) | {precision:.2f} | {recall:.2f} (of {freq}) | {rand:.2f} | "
            f"{rrecall:.2f} | {sum(r['junk'] for r in rows)} | {alone:.2f} | {sum(r.get('conflicts', 0) for r in rows)} "
            f"| {sum(r.get('mangled', 0) for r in rows)} |"
        )
    out += [
        "",
        "| workspace | settings | merged from run 1 | proposed again by run 2 | new in run 2 |",
        "|---|---|---:|---:|---:|",
    ]
    for res in results:
        for label, (merged, repeated, new) in res.rerun.items():
            out.append(f"| {res.name} | {label} | {merged} | {repeated} | {new} |")
    out += [
        "",
        "| workspace | scores of the 10 promotions (defaults) | candidates past the evidence gates | their scores: "
        "max / median / 10th / min |",
        "|---|---|---:|---|",
    ]
    for res in results:
        row = res.rows["defaults"]
        passed = row.get("passed_scores", [])
        if not passed:
            continue
        tenth = passed[min(9, len(passed) - 1)]
        out.append(
            f"| {res.name} | {', '.join(f'{x:.3f}' for x in row.get('scores', []))} | {len(passed)} | "
            f"{passed[0]:.3f} / {passed[len(passed) // 2]:.3f} / {tenth:.3f} / {passed[-1]:.3f} |"
        )
    for res in results:
        tags = res.rows["defaults"].get("concepts")
        if tags:
            out += ["", f"{res.name} concept tags (top 20 of the concepts file): {', '.join(tags)}"]
    return "\n".join(out)


def run_cases(names: list[str], work: Path) -> str:
    """Live through the labelled cases (tests/dream/cases) with the real model; one row each."""
    import importlib

    from memgit.embed.models import default_model_path
    from tests.dream.cases import runner

    rows = [
        "| case | nights | proposals (updates) | precision by labels | not standalone | changing facts at their "
        "latest value | secret on a dream branch |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in names:
        case = runner.load(importlib.import_module(f"tests.dream.cases.{name}"))
        root = work / "cases" / name
        if root.exists():
            shutil.rmtree(root)
        log(f"{name}: {len(case.days)} days, {len(case.nights)} nights")
        outcome = runner.run_case(case, root, {"MEMGIT_MODEL": str(default_model_path())})
        sc = runner.score(case, outcome)
        updates = sum(1 for p in outcome.proposals if p["action"] == "supersede")
        latest = sum(sc.latest_ok.values())
        rows.append(
            f"| {name} | {len(case.nights)} | {sc.proposals} ({updates}) | {sc.precision:.2f} ({sc.kept}/{sc.proposals}) "
            f"| {len(sc.not_standalone)} | {latest} of {len(sc.latest_ok)} | {sc.secret_leaks} |"
        )
        for (label, text), proposal in zip(sc.labels, outcome.proposals, strict=True):
            log(f"  {proposal['night']} {proposal['action']:9} {label:9} {text}")
    return "\n".join(rows)


def run_domains(names: list[str], seeds: list[int], work: Path) -> str:
    """Live through generated months (tests/dream/cases/generator.py) with the real model; one row
    each: precision, updates made or flagged of those due, stale versions, mangled copies."""
    from memgit.embed.models import default_model_path
    from tests.dream.cases import generator, measure, runner

    rows = [
        "| domain (seed) | proposals | precision | updates made + flagged / due | stale entries | older version held "
        "| mangled copies | not standalone |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in names:
        for seed in seeds:
            gen = generator.build(name, seed)
            root = work / "generated" / f"{name}-{seed}"
            if root.exists():
                shutil.rmtree(root)
            log(f"{name} seed {seed}: {len(gen.case.days)} logs, {len(gen.case.nights)} nights")
            outcome = runner.run_case(gen.case, root, {"MEMGIT_MODEL": str(default_model_path())})
            saved = root.parent / f"{name}-{seed}.outcome.json"  # to measure again without living it again
            saved.write_text(json.dumps(outcome.__dict__, ensure_ascii=False), encoding="utf-8")
            m = measure.measure(gen, outcome)
            rows.append(
                f"| {name} ({seed}) | {m.proposals} | {m.precision:.2f} | {m.updates_made} + {m.flagged} / "
                f"{m.updates_due} | {len(m.stale)} | {len(m.older)} | {len(m.mangled)} | {len(m.not_standalone)} |"
            )
            for proposal in outcome.proposals:
                log(f"  {proposal['night']} {proposal['action']:9} {proposal['text']}")
            for what, found in (("wrong", m.wrong), ("stale", m.stale), ("older", m.older), ("mangled", m.mangled)):
                for item in found:
                    log(f"  {what}: {item}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--convs", default="", help="comma-separated subset, e.g. c0,c1")
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--max-asks", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--python", default=default_python())
    parser.add_argument("--markdown", action="store_true", help="print only the tables")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument("--from-json", type=Path, default=None, help="only print the tables of a --json file")
    parser.add_argument("--case", action="append", default=[], help="run a labelled case of tests/dream/cases instead")
    parser.add_argument(
        "--domain", action="append", default=[], help="run generated months of this domain (tests/dream/cases)"
    )
    parser.add_argument("--seeds", default="0", help="with --domain: comma-separated seeds")
    args = parser.parse_args(argv)
    if args.domain:
        print(run_domains(args.domain, [int(s) for s in args.seeds.split(",")], WORK_DIR / "dream"))
        return 0
    if args.case:
        print(run_cases(args.case, WORK_DIR / "dream"))
        return 0
    if args.from_json:
        saved = [ConvResult(**item) for item in json.loads(args.from_json.read_text(encoding="utf-8"))]
        print(markdown(saved, args.days, args.max_asks))
        return 0
    convs = load_conversations(args.corpus, [c.strip() for c in args.convs.split(",") if c.strip()] or None)
    work = WORK_DIR / "dream"
    results = []
    for conv in convs:
        log(f"{conv.name}: replay, index, {args.days} simulated days, dream")
        res = run_conversation(
            args.python,
            args.corpus.resolve(),
            conv,
            work,
            days=args.days,
            max_asks=args.max_asks,
            seed=args.seed,
            draws=args.draws,
        )
        log(f"{conv.name}: done in {res.seconds:.0f} s")
        results.append(res)
    table = markdown(results, args.days, args.max_asks)
    print(table)
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in results], indent=2, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
