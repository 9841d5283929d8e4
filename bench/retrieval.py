"""Retrieval quality of memgit on the LoCoMo dev corpus, next to the BM25 floor.

    .venv/bin/python bench/retrieval.py [--corpus PATH] [--modes bm25,hybrid,previous[,vector]] [--markdown]

For each conversation ``locomo-cN``: replay it as a git workspace into ``bench/.work/locomo-cN``
(cached; rebuilt if missing), run ``memgit index`` there, then ``memgit search --batch QUERIES.txt
--json --mode MODE -k 10`` per mode, and score the hits (``bench/scoring_retrieval.py``): hit@k,
evidence-line recall@k (k = 1, 5, 10) and recall within a 1,000-token (4,000-char) reading budget,
per category and overall. The floor (``bench/floor_bm25.py``) is scored the same way. Mode
``previous`` is hybrid search with the search defaults before issue #13 (``PREVIOUS_DEFAULTS``), mode
``rerank`` hybrid search with the learned re-ranker on; each is written to the workspace's
``memgit.toml`` for that run only.

Then, per split (settings are tuned on c0–c1 only and reported on c2–c3), budget recall per
evidence line (micro) and per question, budget hit, per category, at 2,000/4,000/8,000 characters,
and every difference against the floor and against the previous defaults with a paired bootstrap
95% interval. Writes ``bench/.work/retrieval-<timestamp>.json``; ``--markdown`` prints only the
tables (for docs).
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import floor_bm25  # noqa: E402
from bench.corpus import DEFAULT_CORPUS, WORK_DIR, Conversation, check_corpus, load_conversations  # noqa: E402
from bench.memgit_runner import default_python, parse_json_lines, run_memgit, show_command  # noqa: E402
from bench.report import evaluate, markdown_tables, split_tables, write_json  # noqa: E402
from bench.scoring_retrieval import Hit  # noqa: E402

MODES = ("bm25", "hybrid", "vector", "previous", "rerank")
# The search settings before this round of retrieval work (issue #13): mode ``previous`` runs hybrid
# search with them, so every change is measured against what users had.
PREVIOUS_DEFAULTS = """[search]
candidates_factor = 4
vector_weight = 0.7
text_weight = 0.3
mmr_lambda = 0.85
rerank = false
"""
PREVIOUS_LABEL = "memgit hybrid, previous defaults"
# Hybrid modes run with a memgit.toml written into the workspace for that run only.
MODE_CONFIGS: dict[str, tuple[str, str]] = {
    "previous": (PREVIOUS_DEFAULTS, PREVIOUS_LABEL),
    "rerank": ("[search]\nrerank = true\n", "memgit hybrid + learned re-ranker"),
}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def replayed_workspace(corpus: Path, conv: Conversation, work: Path, rebuild: bool = False) -> Path:
    """The git workspace for ``conv`` under ``work`` (replayed with the corpus's replay.py if missing)."""
    dest = work / conv.name
    if rebuild or not (dest / ".git").is_dir() or not (dest / "MEMORY.md").exists():
        shutil.rmtree(dest, ignore_errors=True)
        dest.parent.mkdir(parents=True, exist_ok=True)
        log(f"replaying {conv.name} -> {dest}")
        cmd = [sys.executable, str(corpus / "replay.py"), str(conv.workspace), str(conv.commits), str(dest)]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            shutil.rmtree(dest, ignore_errors=True)
            raise SystemExit(f"bench: replay failed for {conv.name}:\n{proc.stdout}{proc.stderr}")
    return dest


def write_batch(conv: Conversation, work: Path) -> Path:
    path = work / f"{conv.name}.queries.txt"
    path.write_text("".join(q.question + "\n" for q in conv.queries), encoding="utf-8")
    return path


def hits_by_query(conv: Conversation, answers: list[dict[str, Any]], mode: str) -> dict[str, list[Hit]]:
    """Pair ``memgit search --batch`` answers with the queries, in order (checked by query text)."""
    if len(answers) != len(conv.queries):
        raise SystemExit(
            f"bench: memgit search --mode {mode} answered {len(answers)} queries for {conv.name}, "
            f"expected {len(conv.queries)}"
        )
    out: dict[str, list[Hit]] = {}
    for query, answer in zip(conv.queries, answers, strict=True):
        if answer.get("query") is not None and " ".join(str(answer["query"]).split()) != query.question:
            raise SystemExit(f"bench: answer order mismatch in {conv.name}: {answer['query']!r} vs {query.question!r}")
        out[query.id] = [Hit.from_dict(h) for h in answer.get("hits", [])]
    return out


def hit_ranges(results: dict[str, list[Hit]]) -> dict[str, list[list[object]]]:
    """Query id -> ``[[path, start_line, end_line], ...]`` (for error analysis in the JSON file)."""
    return {qid: [[h.path, h.start_line, h.end_line] for h in hits] for qid, hits in results.items()}


def run_memgit_modes(
    conversations: Sequence[Conversation],
    corpus: Path,
    work: Path,
    modes: Sequence[str],
    python: str,
    k: int,
    full: bool,
    rebuild: bool,
) -> tuple[dict[str, dict[str, list[Hit]]], dict[str, Any]]:
    """Mode -> query id -> hits; plus run details (commands, timings, notices)."""
    results: dict[str, dict[str, list[Hit]]] = {mode: {} for mode in modes}
    details: dict[str, Any] = {"commands": [], "timings": {}, "notices": {}}
    for conv in conversations:
        ws = replayed_workspace(corpus, conv, work, rebuild)
        batch = write_batch(conv, work)
        index_args = ["index", "--full"] if full else ["index"]
        _, seconds = run_memgit(python, index_args, ws)
        details["commands"].append(show_command([python, "-m", "memgit", *index_args], ws))
        details["timings"][f"{conv.name} index"] = round(seconds, 3)
        log(f"{conv.name}: indexed in {seconds:.1f} s")
        for mode in modes:
            args = ["search", "--batch", str(batch), "--json", "--mode", search_mode(mode), "-k", str(k)]
            config = ws / "memgit.toml"
            if mode in MODE_CONFIGS:
                config.write_text(MODE_CONFIGS[mode][0], encoding="utf-8")
            try:
                proc, seconds = run_memgit(python, args, ws)
            finally:
                config.unlink(missing_ok=True)
            details["commands"].append(show_command([python, "-m", "memgit", *args], ws))
            details["timings"][f"{conv.name} search {mode}"] = round(seconds, 3)
            answers = parse_json_lines(proc.stdout)
            notices = sorted({n for a in answers for n in a.get("notices", []) or []})
            if notices:
                details["notices"][f"{conv.name} {mode}"] = notices
                log(f"{conv.name} {mode}: notices: {'; '.join(notices)}")
            results[mode].update(hits_by_query(conv, answers, mode))
            # search work per query inside the process (no start-up): what a warm server pays
            elapsed = statistics.median(float(a.get("elapsed_ms") or 0.0) for a in answers) if answers else 0.0
            details["timings"][f"{conv.name} search {mode} median elapsed_ms"] = round(elapsed, 2)
            log(f"{conv.name}: {len(answers)} queries, mode {mode}, {seconds:.1f} s, median {elapsed:.1f} ms a query")
    return results, details


def search_mode(mode: str) -> str:
    return "hybrid" if mode in MODE_CONFIGS else mode


def system_label(mode: str) -> str:
    return MODE_CONFIGS[mode][1] if mode in MODE_CONFIGS else f"memgit {mode}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="locomo-dev folder")
    parser.add_argument(
        "--modes",
        default="bm25,hybrid,previous,rerank",
        help="comma-separated: bm25, hybrid, vector, previous (hybrid, previous defaults), rerank",
    )
    parser.add_argument("--convs", help="comma-separated subset, e.g. c0,c2 (default: all)")
    parser.add_argument("-k", type=int, default=10, help="hits per query (default: %(default)s)")
    parser.add_argument("--python", default=default_python(), help="interpreter that runs `-m memgit`")
    parser.add_argument("--work", type=Path, default=WORK_DIR, help="cache folder (default: %(default)s)")
    parser.add_argument("--full", action="store_true", help="run `memgit index --full` (rebuild the index)")
    parser.add_argument("--rebuild", action="store_true", help="replay the git workspaces again")
    parser.add_argument("--floor-only", action="store_true", help="score only the BM25 floor (no memgit)")
    parser.add_argument("--markdown", action="store_true", help="print only the Markdown tables")
    args = parser.parse_args(argv)

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = sorted(set(modes) - set(MODES))
    if unknown:
        parser.error(f"unknown mode(s) {', '.join(unknown)}; choose from {', '.join(MODES)}")
    corpus = check_corpus(args.corpus)
    only = [c.strip() for c in args.convs.split(",")] if args.convs else None
    conversations = load_conversations(corpus, only)
    if not conversations:
        parser.error(f"no conversation matches --convs {args.convs}")

    systems: dict[str, dict[str, Any]] = {}
    floor_hits = floor_bm25.run_floor(conversations, args.k)
    systems[floor_bm25.LABEL] = evaluate(conversations, floor_hits) | {"hits": hit_ranges(floor_hits)}
    details: dict[str, Any] = {}
    if not args.floor_only:
        results, details = run_memgit_modes(
            conversations, corpus, args.work, modes, args.python, args.k, args.full, args.rebuild
        )
        for mode in modes:
            scored = evaluate(conversations, results[mode])
            systems[system_label(mode)] = scored | {"hits": hit_ranges(results[mode])}

    comparisons = [(label, floor_bm25.LABEL) for label in systems if label != floor_bm25.LABEL]
    comparisons += [
        (label, PREVIOUS_LABEL) for label in systems if label.startswith("memgit ") and label != PREVIOUS_LABEL
    ]
    tables = markdown_tables(systems) + "\n" + split_tables(conversations, systems, comparisons)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    out = args.work / f"retrieval-{stamp}.json"
    write_json(
        out,
        {
            "created": stamp,
            "corpus": str(corpus),
            "conversations": [c.name for c in conversations],
            "k": args.k,
            "budget_chars": 4000,
            "run": details,
            "systems": systems,
        },
    )
    print(tables)
    if not args.markdown:
        print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
