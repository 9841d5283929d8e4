"""A memgit command ends without the interpreter's teardown (10-30 ms of every call), and only
when that is safe: its output is whole, its exit status kept, the `atexit` functions run, and
another live thread or a library call of `main` ends the usual way.

The probe wraps the real entry point in a process that registers an `atexit` function (it runs
either way) and keeps an object in a module global whose finaliser runs only in the teardown.
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

class Teardown:
    def __del__(self):
        print("TEARDOWN", file=sys.__stderr__, flush=True)

held = Teardown()  # freed only when the interpreter's teardown clears this module
atexit.register(lambda: print("ATEXIT", file=sys.stderr, flush=True))
if os.environ.get("PROBE_THREAD"):  # alive until the main thread ends, however long the command takes
    threading.Thread(target=threading.main_thread().join).start()
sys.argv = ["memgit", *sys.argv[1:]]
from memgit.cli import main
if os.environ.get("PROBE_AS_LIBRARY"):
    try:
        main(sys.argv[1:])
    except SystemExit as exc:
        print("EXIT", exc.code, file=sys.stderr, flush=True)
    print("RETURNED", file=sys.stderr, flush=True)
else:
    main()
"""


def probe(root: Path, *args: str, thread: bool = False, library: bool = False) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, **BM25, **({"PROBE_THREAD": "1"} if thread else {})}
    if library:
        env["PROBE_AS_LIBRARY"] = "1"
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


def test_commands_skip_the_teardown_with_whole_output(workspace: Path) -> None:
    _notes(workspace)
    proc = probe(workspace, "search", "--json", "-k", "25", "budget kestrel")
    assert proc.returncode == 0, proc.stderr
    assert "TEARDOWN" not in proc.stderr and "ATEXIT" in proc.stderr
    data = json.loads(proc.stdout)  # the whole document arrived
    assert len(data["hits"]) == 25
    text = probe(workspace, "search", "-k", "3", "budget")
    assert text.returncode == 0 and "TEARDOWN" not in text.stderr and text.stdout.count("memory/") == 3
    status = probe(workspace, "status", "--json")
    assert status.returncode == 0 and "TEARDOWN" not in status.stderr and json.loads(status.stdout)
    bad = probe(workspace, "search", "-k", "0", "budget")  # an error's status and line are kept
    assert bad.returncode != 0 and "memgit: error:" in bad.stderr
    assert "TEARDOWN" not in bad.stderr and "ATEXIT" in bad.stderr


def test_what_a_command_wrote_is_whole_after_it_skipped_the_teardown(workspace: Path) -> None:
    _notes(workspace)
    said = "Kestrel pilot moved to the north field on Thursday."
    remembered = probe(workspace, "remember", said)
    assert remembered.returncode == 0, remembered.stderr
    assert "TEARDOWN" not in remembered.stderr
    assert any(said in log.read_text(encoding="utf-8") for log in (workspace / "memory").glob("*.md"))
    commit_all(workspace, "remembered")
    indexed = probe(workspace, "index", "--json")
    assert indexed.returncode == 0 and "TEARDOWN" not in indexed.stderr, indexed.stderr
    found = memgit(workspace, "search", "--json", "north field kestrel", env=BM25)
    assert said in json.dumps(json.loads(found.stdout)["hits"][0])  # the index the skip left is whole


def test_a_live_thread_or_a_library_call_ends_the_usual_way(workspace: Path) -> None:
    _notes(workspace)
    busy = probe(workspace, "search", "--json", "budget", thread=True)
    assert busy.returncode == 0 and "TEARDOWN" in busy.stderr and json.loads(busy.stdout)["hits"]
    library = probe(workspace, "status", "--json", library=True)
    assert library.returncode == 0 and "RETURNED" in library.stderr and "TEARDOWN" in library.stderr


def test_a_run_under_a_profiler_ends_the_usual_way_and_the_profile_is_written(workspace: Path, tmp_path: Path) -> None:
    import os

    _notes(workspace)
    profile = tmp_path / "status.prof"
    proc = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "memgit", "status", "--json"],
        cwd=workspace,
        env={**os.environ, **BM25},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout), proc.stderr
    assert profile.stat().st_size > 0  # written after the program, which a skipped teardown never reaches
