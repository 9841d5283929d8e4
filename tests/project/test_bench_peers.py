"""The peer comparison harness (bench/peers/): verdicts, budgets, index sizes, one-shot calls, --merge.

The verdicts must never call a difference a win when its paired bootstrap interval contains zero;
the budget figures must be the micro ones `bench/scoring_retrieval.py` defines; and memgit's rows
must be re-runnable alone (`--tools memgit --merge`) without losing the peers' rows. The last test
drives `bench/peers/orchestrate.py` end to end on a small generated git workspace with the real
memgit CLI (BM25 and hybrid with the real MiniLM).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.helpers import REPO_ROOT

REPO = REPO_ROOT
PEERS = REPO / "bench" / "peers"
sys.path.insert(0, str(PEERS))

import analysis  # noqa: E402
import orchestrate  # noqa: E402
import report_md  # noqa: E402
import verdicts  # noqa: E402

from bench.scoring_retrieval import Hit  # noqa: E402
from tests.recall.test_search import real_model  # noqa: E402, F401  (fixture)

A = "memory/2023-01-01.md"


def row(label: str, tool: str, lines4k: list[float], evidence: list[float], hit5: list[float]) -> SimpleNamespace:
    n = len(lines4k)
    per_query = {
        "ids": [f"q{i}" for i in range(n)],
        "hit@5": hit5,
        "recall@10": hit5,
        "budget_lines@2000": [min(x, 1.0) for x in lines4k],
        "budget_lines@4000": lines4k,
        "budget_lines@8000": lines4k,
        "evidence_n": evidence,
    }
    micro = sum(lines4k) / sum(evidence)
    return SimpleNamespace(
        label=label,
        tool=tool,
        driver=tool,
        corpus="locomo",
        status="ok",
        quality_only=False,
        quality={"overall": {"budget_micro@4000": micro, "hit@5": sum(hit5) / n, "n": n}},
        per_query=per_query,
        index={},
        search={},
        index_size=None,
        oneshot=None,
        notes=[],
    )


def test_a_difference_inside_the_interval_is_no_difference() -> None:
    # 60 questions of 2 evidence lines each; memgit is one line better on 2 questions only: a positive
    # point estimate whose interval contains zero
    base = [1.0] * 30 + [0.0] * 30
    slightly = [2.0, 2.0] + base[2:]
    peer = row("peer", "memsearch", base, [2.0] * 60, [1.0] * 30 + [0.0] * 30)
    tie = row("memgit hybrid (BM25 + MiniLM vectors)", "memgit", slightly, [2.0] * 60, [1.0] * 30 + [0.0] * 30)
    diff = verdicts.paired(tie, peer, "budget_lines@4000", micro=True)
    assert diff is not None and diff[0] > 0 and diff[1] <= 0 <= diff[2]
    assert verdicts.verdict(diff) == "no difference"
    # clearly better: every question gains a line
    better = row("memgit hybrid (BM25 + MiniLM vectors)", "memgit", [x + 1 for x in base], [2.0] * 60, [1.0] * 60)
    diff = verdicts.paired(better, peer, "budget_lines@4000", micro=True)
    assert diff is not None and diff[1] > 0 and verdicts.verdict(diff) == "a win"
    worse = verdicts.paired(peer, better, "hit@5", micro=False)
    assert worse is not None and verdicts.verdict(worse) == "a loss"
    # micro: the difference is lines covered over evidence lines, not a per-question mean
    assert diff[0] == pytest.approx((sum(better.per_query["budget_lines@4000"]) - sum(base)) / 120)

    corpus = SimpleNamespace(name="locomo", label="locomo-dev")
    [line] = [x for x in analysis.verdict_table([peer, tie], corpus) if x.startswith("| memgit hybrid")]
    assert "no difference" in line and "a win" not in line
    [line] = [x for x in analysis.verdict_table([peer, better], corpus) if x.startswith("| memgit hybrid")]
    assert "a win" in line


def test_pairs_by_question_id() -> None:
    peer = row("peer", "qmd", [1.0, 0.0, 0.0], [1.0, 1.0, 1.0], [1.0, 0.0, 0.0])
    mine = row("memgit bm25 (BM25-only install)", "memgit", [0.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 0.0, 1.0])
    mine.per_query["ids"] = ["q2", "q1", "q0"]  # same questions, another order: q2 answered, q0 not
    diff = verdicts.paired(mine, peer, "budget_lines@4000", micro=True)
    assert diff is not None and diff[0] == pytest.approx(0.0)


def test_score_has_micro_budgets_at_three_sizes(tmp_path: Path) -> None:
    line = "x" * 99  # 100 characters with its newline
    text = "\n".join([line] * 60)
    hits = [Hit(A, 1, 60, text)]
    evidence = frozenset({(A, 5), (A, 30), (A, 55)})
    s = orchestrate.score(orchestrate.Scored(hits, hits), evidence)
    assert s["budget_lines@2000"] == 1.0  # lines 1-20 fit in 2,000 characters
    assert s["budget_lines@4000"] == 2.0
    assert s["budget_lines@8000"] == 3.0
    assert s["budget_hit@2000"] == 1.0 and s["evidence_n"] == 3.0
    corpus = orchestrate.Corpus(
        "locomo",
        "l",
        [orchestrate.Workspace("w", tmp_path, [{"id": "q0", "category": 1, "evidence": evidence}], A)],
        "w",
    )
    agg, per_query = orchestrate.quality(corpus, {"w": [orchestrate.Scored(hits, hits)]})
    assert agg["overall"]["budget_micro@4000"] == pytest.approx(2 / 3)
    assert per_query["ids"] == ["q0"] and per_query["budget_lines@8000"] == [3.0]


def test_disk_usage_and_one_shot_questions(tmp_path: Path) -> None:
    (tmp_path / "idx").mkdir()
    (tmp_path / "idx" / "index.sqlite").write_bytes(b"a" * 1000)
    (tmp_path / "idx" / "sub").mkdir()
    (tmp_path / "idx" / "sub" / "vectors.f32").write_bytes(b"b" * 24)
    (tmp_path / "other.db").write_bytes(b"c" * 7)
    size = orchestrate.disk_usage([tmp_path / "idx", tmp_path / "other.db", tmp_path / "missing"], tmp_path)
    assert size["bytes"] == 1031
    assert size["files"] == {"idx/index.sqlite": 1000, "idx/sub/vectors.f32": 24, "other.db": 7}
    ws = orchestrate.Workspace(
        "w", tmp_path, [{"question": f"q{i}"} for i in range(20)] + [{"question": 'with a " quote'}], A
    )
    picked = orchestrate.oneshot_queries(ws, 5)
    assert picked == ["q0", "q5", "q10", "q14", "q19"]
    assert all('"' not in q for q in picked)


def test_cost_table_shows_disk_and_one_shot() -> None:
    r = row("memgit hybrid (BM25 + MiniLM vectors)", "memgit", [1.0], [1.0], [1.0])
    r.index_size = {"bytes": 2_500_000}
    r.oneshot = {"median_s": 0.4321}
    r.search = {"p50_ms": 10.0, "p95_ms": 12.0, "peak_rss_mb": 100.0}
    table = "\n".join(report_md.cost_table([r], SimpleNamespace(name="locomo")))
    assert "| 2.5 |" in table and "| 432 |" in table and "10.0 / 12.0" in table


def run_harness(args: list[str], run_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PEERS_WORK_RUN": str(run_dir), "MEMGIT_NO_PROGRESS": "1"}
    return subprocess.run(
        [sys.executable, str(PEERS / "orchestrate.py"), *args], cwd=REPO, env=env, text=True, capture_output=True
    )


@pytest.mark.model
@pytest.mark.slow
def test_memgit_rows_rerun_alone_and_merge(tmp_path: Path, real_model: Path) -> None:  # noqa: F811
    if not (REPO / ".venv" / "bin" / "memgit").exists():
        pytest.skip("the project venv's memgit CLI is not installed")
    out_json, out_md = tmp_path / "peers.json", tmp_path / "COMPARISON.md"
    common = ["--corpora", "synth", "--synth-files", "12", "--synth-queries", "4", "--json", str(out_json)]
    proc = run_harness(["--tools", "memgit", *common, "--out", str(out_md)], tmp_path / "run")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    data = json.loads(out_json.read_text())
    rows = {r["label"]: r for r in data["results"]}
    hybrid = rows["memgit hybrid (BM25 + MiniLM vectors)"]
    assert hybrid["status"] == "ok", hybrid["status"]
    assert hybrid["index_size"]["bytes"] > 0
    assert any(f.endswith("index.sqlite") for f in hybrid["index_size"]["example_files"])
    assert hybrid["oneshot"]["n"] >= 3 and hybrid["oneshot"]["median_s"] > 0
    assert len(hybrid["per_query"]["ids"]) == 4
    assert "budget_micro@8000" in hybrid["quality"]["overall"]
    assert data["meta"]["memgit_settings"]["chunking"]["max_tokens"] > 0

    # a peer's row from an earlier run (here: memgit's BM25 row relabelled) must survive a memgit re-run
    peer = dict(rows["memgit bm25 (BM25-only install)"], tool="memsearch", driver="memsearch", label="peer row")
    peer["measured"] = "2000-01-01 00:00 UTC"
    data["results"].append(peer)
    data["meta"]["tool_dates"]["memsearch"] = "2000-01-01 00:00 UTC"
    out_json.write_text(json.dumps(data))
    proc = run_harness(["--tools", "memgit", "--merge", *common, "--out", str(out_md)], tmp_path / "run")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    merged = json.loads(out_json.read_text())
    labels = [r["label"] for r in merged["results"]]
    assert labels.count("peer row") == 1 and labels.count("memgit hybrid (BM25 + MiniLM vectors)") == 1
    assert merged["meta"]["tool_dates"]["memsearch"] == "2000-01-01 00:00 UTC"
    doc = out_md.read_text()
    assert "memgit hybrid (BM25 + MiniLM vectors) vs peer row" in doc
    assert "measured by more than one run" in doc

    # rows measured on another workspace are never mixed in: a --merge onto them refuses and keeps them
    before = out_json.read_text()
    other = ["--corpora", "synth", "--synth-files", "13", "--synth-queries", "4", "--json", str(out_json)]
    proc = run_harness(["--tools", "memgit", "--merge", *other, "--out", str(tmp_path / "x.md")], tmp_path / "run")
    assert proc.returncode == 2 and "other workspaces or questions" in proc.stdout
    assert out_json.read_text() == before

    # re-rendering from the JSON alone gives the same document
    rendered = tmp_path / "again.md"
    proc = run_harness(["--render-only", "--json", str(out_json), "--out", str(rendered)], tmp_path / "run")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert rendered.read_text() == doc
