"""A one-shot search ends without the interpreter's teardown (~30 ms of a 0.3 s call), and only
when that is safe: its output is whole, its exit code kept, and any other command, an error, or
another live thread ends the usual way.

The probe wraps the real entry point in a process that registers an `atexit` handler: it runs at
a normal exit and never after `os._exit`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import commit_all, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "1"}
PROBE = r"""
import atexit, os, sys, threading
atexit.register(lambda: print("TEARDOWN", file=sys.stderr, flush=True))
if os.environ.get("PROBE_THREAD"):  # alive until the main thread ends, however long the command takes
    threading.Thread(target=threading.main_thread().join).start()
sys.argv = ["memgit", *sys.argv[1:]]
from memgit.cli import main
main()
"""


def probe(root: Path, *args: str, thread: bool = False) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, **BM25, **({"PROBE_THREAD": "1"} if thread else {})}
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def _notes(root: Path) -> None:
    for i in range(30):
        write(
            root / "memory" / f"2026-02-{i % 28 + 1:02d}-{i}.md",
            f"# Note {i}\n\n- Budget review {i} for the kestrel pilot.\n",
        )
    commit_all(root)
    assert memgit(root, "index", env=BM25).returncode == 0


def test_search_skips_the_teardown_with_whole_output(workspace: Path) -> None:
    _notes(workspace)
    proc = probe(workspace, "search", "--json", "-k", "25", "budget kestrel")
    assert proc.returncode == 0, proc.stderr
    assert "TEARDOWN" not in proc.stderr
    data = json.loads(proc.stdout)  # the whole document arrived
    assert len(data["hits"]) == 25
    text = probe(workspace, "search", "-k", "3", "budget")
    assert text.returncode == 0 and "TEARDOWN" not in text.stderr and text.stdout.count("memory/") == 3


def test_other_commands_errors_and_live_threads_end_the_usual_way(workspace: Path) -> None:
    _notes(workspace)
    status = probe(workspace, "status", "--json")
    assert status.returncode == 0 and "TEARDOWN" in status.stderr
    bad = probe(workspace, "search", "-k", "0", "budget")
    assert bad.returncode != 0 and "memgit: error:" in bad.stderr and "TEARDOWN" in bad.stderr
    busy = probe(workspace, "search", "--json", "budget", thread=True)
    assert busy.returncode == 0 and "TEARDOWN" in busy.stderr and json.loads(busy.stdout)["hits"]
