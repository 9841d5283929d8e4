"""A long first index can be stopped with Ctrl-C and resumed (issue #11, point 1).

The real model embeds a generated workspace; SIGINT arrives once some batches are in the
embedding cache. The command says what is kept and exits 130; the next run embeds only the rest
and the index equals a full rebuild. The progress line (rate, ETA) is a pure function.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.gen_workspace import generate
from memgit.cli.output import progress_line
from tests.helpers import memgit
from tests.recall.test_search import real_model  # noqa: F401  (fixture)


def cached_embeddings(cache: Path) -> int:
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True, timeout=1) as db:
            return int(db.execute("SELECT count(*) FROM embeddings").fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.mark.model
def test_interrupted_full_index_resumes(tmp_path: Path, real_model: Path) -> None:  # noqa: F811
    ws = generate(tmp_path / "ws", 24, seed=3)  # ~170 chunks: 64 cached, SIGINT, the rest resumed
    cache = ws / ".git" / "memgit" / "embed-cache.sqlite"
    env = {**os.environ, "MEMGIT_NO_PROGRESS": "1", "MEMGIT_MODEL": str(real_model)}
    env.pop("MEMGIT_EMBEDDING", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "memgit", "index"],
        cwd=ws,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A test runner's worker may ignore SIGINT, and children inherit that: give the index
        # the disposition a terminal would.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 240
    while cached_embeddings(cache) < 64 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the index finished before it could be interrupted: grow the workspace"
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "memgit: interrupted:" in err and "run `memgit index` again to resume" in err
    kept = cached_embeddings(cache)
    assert kept >= 64

    resumed = memgit(
        ws, "index", "--verify", "--json", env={"MEMGIT_NO_PROGRESS": "1", "MEMGIT_MODEL": str(real_model)}
    )
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(resumed.stdout)
    # The text was written first (the interrupted run's first phase); this run fills the vectors
    # left, embedding none of those the cache kept.
    assert report["mode"] == "noop" and report["pending_vectors"] == 0
    chunks = json.loads(memgit(ws, "status", "--json").stdout)["counts"]["chunks"]
    assert report["fill"]["filled"] > 0 and 0 < report["embedded"] <= chunks - kept
    assert report["verify"]["ok"], report["verify"]


def test_progress_line_has_rate_and_eta() -> None:
    line = progress_line("embedding", 250, 1000, elapsed=10.0, progressed=250)
    assert line.startswith("embedding [#######-----------------------] 250/1000")
    assert "25.0/s" in line and "ETA 30s" in line
    assert "ETA 1h00m" in progress_line("embedding", 0, 3600, elapsed=10.0, progressed=10)
    assert "ETA" not in progress_line("embedding", 0, 10, elapsed=0.0, progressed=0)
