"""A first index of a repository a user brings (issue 47): keyword search works while the vectors
are still being embedded, and every progress bar's total is counted first and never changes.

On a generated Obsidian-style vault (front matter, wikilinks, callouts, two language folders) and a
generated GitHub-docs-style repository (the same pages under three versions), built in the test.
Progress is read off a pipe, as CI or an agent sees it: `MEMGIT_PROGRESS_EVERY=0` writes a line at
every step, so each step's total is there to compare.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.helpers import memgit, memgit_json, wait_until
from tests.large_repo_gen import build_docs, build_vault
from tests.recall.test_search import real_model  # noqa: F401  (fixture)

STEP = re.compile(r"^memgit: (index: [a-z]+(?: \([a-z]+\))?): (\d+)/(\d+)", re.MULTILINE)
OVER = re.compile(r"hybrid over (\d+) of (\d+) chunks; vectors pending for (\d+) chunks")


def _steps(stderr: str) -> dict[str, list[tuple[int, int]]]:
    """Each phase's (done, total) lines, in order."""
    out: dict[str, list[tuple[int, int]]] = {}
    for match in STEP.finditer(stderr):
        out.setdefault(match.group(1), []).append((int(match.group(2)), int(match.group(3))))
    return out


def _assert_stable(steps: dict[str, list[tuple[int, int]]]) -> None:
    for phase, seen in steps.items():
        totals = {total for _done, total in seen}
        assert len(totals) == 1, (phase, seen)  # counted before the phase started, never changed
        dones = [done for done, _total in seen]
        assert dones == sorted(dones) and dones[-1] <= seen[0][1], (phase, seen)


@pytest.mark.model
def test_search_answers_during_a_first_index_of_a_vault(tmp_path: Path, real_model: Path) -> None:  # noqa: F811
    vault = build_vault(tmp_path / "vault", notes=100)
    env = {**os.environ, "MEMGIT_MODEL": str(real_model), "MEMGIT_PROGRESS_EVERY": "0", "MEMGIT_NO_RECALL": "1"}
    for name in ("MEMGIT_NO_PROGRESS", "MEMGIT_EMBEDDING"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "memgit", "init", "--adopt"],
        cwd=vault.root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        # The text goes in first: status sees chunks, with their vectors pending, while the run goes on.
        deadline = time.monotonic() + 240
        status: dict = {}
        while time.monotonic() < deadline and proc.poll() is None:
            shown = memgit(vault.root, "status", "--json", env=env)
            status = json.loads(shown.stdout) if shown.returncode == 0 else {}
            if status.get("counts", {}).get("chunks") and status.get("pending_vectors"):
                break
            time.sleep(0.1)
        assert proc.poll() is None, "the first index ended before its vectors could be seen pending: grow the vault"
        chunks, pending = status["counts"]["chunks"], status["pending_vectors"]
        assert 0 < pending <= chunks

        for i in (3, 57, 140):  # both language folders
            found = memgit_json(vault.root, "search", vault.codenames[i], "--no-record", env=env)
            assert found["hits"][0]["path"] == vault.paths[i], found["hits"][:2]
            assert found["mode"] == "hybrid" and found["vectors_pending"] > 0
            over = next(OVER.search(n) for n in found["notices"] if OVER.search(n))
            # The total is the index's at that search: what status counted, and what the search
            # itself brought in from the work tree (the memory files `init` made, not committed).
            total = int(over.group(2))
            assert chunks <= total <= chunks + 2 and int(over.group(1)) + int(over.group(3)) == total
        assert proc.poll() is None  # the searches answered while the vectors were being embedded
        hit = found["hits"][0]
        assert not hit["text"].startswith("---") and "aliases:" not in hit["text"]  # front matter is not text
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "the text is indexed" in err and "run `memgit index` again to resume" in err
    steps = _steps(err)
    assert set(steps) == {"index: text (files)", "index: vectors"}, err[-2000:]
    _assert_stable(steps)
    assert steps["index: text (files)"][-1] == (len(vault.paths), len(vault.paths))
    assert steps["index: vectors"][0][1] == pending  # the vectors' total: the pending count the text left


def test_progress_totals_of_a_docs_repository_never_change(tmp_path: Path) -> None:
    docs = build_docs(tmp_path / "docs", pages=80)
    env = {"MEMGIT_EMBEDDING": "none", "MEMGIT_PROGRESS_EVERY": "0", "MEMGIT_NO_RECALL": "1"}
    adopted = memgit(docs.root, "init", "--adopt", env=env)
    assert adopted.returncode == 0, adopted.stderr
    steps = _steps(adopted.stderr)
    assert set(steps) == {"index: text (files)"}  # BM25 only: no vectors phase
    _assert_stable(steps)
    files = sum(len(paths) for paths in docs.copies.values()) + 1  # the pages and README.md (HEAD's)
    assert steps["index: text (files)"][-1] == (files, files)
    again = memgit(docs.root, "index", "--full", env=env)
    assert again.returncode == 0, again.stderr
    _assert_stable(_steps(again.stderr))
    quiet = memgit(docs.root, "index", "--full", env={**env, "MEMGIT_NO_PROGRESS": "1"})
    assert quiet.returncode == 0 and not _steps(quiet.stderr)


OUTSIDE = re.compile(r"(\d+) of (\d+) Markdown files are outside the indexed paths")


def test_the_outside_notice_follows_each_commit_and_a_chosen_glob_silences_it(tmp_path: Path) -> None:
    docs = build_docs(tmp_path / "docs", pages=10)
    env = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1", "MEMGIT_NO_RECALL": "1"}
    assert memgit(docs.root, "init", env=env).returncode == 0
    first = OUTSIDE.search(memgit(docs.root, "search", "items", env=env).stderr)
    assert first and first.group(1) == "31"  # 30 pages and README.md
    for i in range(5):
        (docs.root / "guides" / f"g{i}.md").parent.mkdir(exist_ok=True)
        (docs.root / "guides" / f"g{i}.md").write_text(f"# Guide {i}\n\nMore text.\n")
    subprocess.run(["git", "add", "-A"], cwd=docs.root, check=True)
    subprocess.run(["git", "commit", "-qm", "guides"], cwd=docs.root, check=True, capture_output=True)
    for args in (["search", "items"], ["index"], ["status"]):
        found = OUTSIDE.search(memgit(docs.root, *args, env=env).stderr)
        assert found and found.group(1) == "36", args  # the new commit's figures, not the old ones

    # A memgit.toml that names what to index chose it: no command suggests `--adopt` any more.
    (docs.root / "memgit.toml").write_text('[memory]\nextra_paths = ["reference/7.6/**/*.md"]\n')
    subprocess.run(["git", "add", "-A"], cwd=docs.root, check=True)
    subprocess.run(["git", "commit", "-qm", "only the newest version"], cwd=docs.root, check=True, capture_output=True)
    for args in (["index"], ["status"], ["search", "items"]):
        proc = memgit(docs.root, *args, env=env)
        assert proc.returncode == 0 and "--adopt" not in proc.stderr and not OUTSIDE.search(proc.stderr), args
    assert memgit_json(docs.root, "status", env=env)["counts"]["files"] == 11  # 7.6's 10 pages, MEMORY.md


def test_status_names_the_configured_model_before_any_index(tmp_path: Path) -> None:
    vault = build_vault(tmp_path / "vault", notes=3, languages=("en",))
    shown = memgit(vault.root, "status", env={"MEMGIT_MODEL": str(tmp_path / "my-model.gguf")})
    assert shown.returncode == 0, shown.stderr
    assert "model:        my-model.gguf (configured" in shown.stdout and "model none" not in shown.stdout
    bm25 = memgit(vault.root, "status", env={"MEMGIT_EMBEDDING": "none"})
    assert "model:        none: BM25 only" in bm25.stdout


def test_a_section_in_several_versions_is_one_hit_also_in_the_others(tmp_path: Path) -> None:
    docs = build_docs(tmp_path / "docs", pages=20)
    env = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1", "MEMGIT_NO_RECALL": "1"}
    assert memgit(docs.root, "init", "--adopt", env=env).returncode == 0
    for i in (0, 7, 19):
        codename = docs.codenames[i]
        found = memgit_json(docs.root, "search", f"{codename} items", "-k", "5", env=env)["hits"]
        copies = docs.copies[codename]
        first = found[0]
        assert first["path"] in copies and sorted([first["path"], *first["also_in"]]) == sorted(copies), first
        # No other hit repeats that section from another version.
        assert not [h for h in found[1:] if h["path"] in copies and h["start_line"] == first["start_line"]], found
        shown = memgit(docs.root, "search", f"{codename} items", "-k", "5", env=env).stdout
        assert "also in reference/" in shown
    # A file that is no versioned copy is never folded.
    plain = memgit_json(docs.root, "search", "one folder a version", env=env)["hits"]
    assert plain[0]["path"] == "README.md" and plain[0]["also_in"] == []


def test_a_new_worktree_starts_from_the_main_index_and_keeps_none_of_its_uncommitted_text(tmp_path: Path) -> None:
    vault = build_vault(tmp_path / "vault", notes=40, languages=("en",))
    env = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1", "MEMGIT_NO_RECALL": "1"}
    assert memgit(vault.root, "init", "--adopt", "--hooks", env=env).returncode == 0
    subprocess.run(["git", "add", "-A"], cwd=vault.root, check=True)
    subprocess.run(
        ["git", "commit", "-qm", "adopt"], cwd=vault.root, check=True, capture_output=True, env={**os.environ, **env}
    )
    (vault.root / "en" / "Draft.md").write_text("# Draft\n\nZanzibarquokka is not committed.\n")
    assert memgit(vault.root, "index", "--worktree", env=env).returncode == 0
    other = tmp_path / "other"
    added = subprocess.run(
        ["git", "worktree", "add", "-q", "--detach", str(other), "HEAD~1"],
        cwd=vault.root,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )
    assert added.returncode == 0 and "warning" not in added.stderr, added.stderr
    assert (other / ".git").is_file()
    own = Path(
        subprocess.run(["git", "rev-parse", "--git-dir"], cwd=other, capture_output=True, text=True).stdout.strip()
    )
    assert (own / "memgit" / "index.sqlite").is_file()  # the hook wrote its index (a copy, then the diff)
    status = memgit_json(other, "status", env=env)
    assert status["up_to_date"] and status["worktree_overlay"] == []
    assert memgit_json(other, "search", "Zanzibarquokka", env=env)["hits"] == []  # main's uncommitted text stays there
    found = memgit_json(other, "search", vault.codenames[5], env=env)["hits"]
    assert found[0]["path"] == vault.paths[5]
    assert memgit_json(other, "index", "--verify", env=env)["verify"]["ok"]
    assert memgit_json(vault.root, "status", env=env)["worktree_overlay"] == ["en/Draft.md"]  # still in main's


def test_a_search_waiting_for_a_first_index_says_so_then_answers(tmp_path: Path) -> None:
    import fcntl

    vault = build_vault(tmp_path / "vault", notes=10, languages=("en",))
    env = {**os.environ, "MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "1"}
    (vault.root / "memgit.toml").write_text('[memory]\nextra_paths = ["en/**/*.md"]\n')
    subprocess.run(["git", "add", "-A"], cwd=vault.root, check=True)
    subprocess.run(["git", "commit", "-qm", "config"], cwd=vault.root, check=True, capture_output=True)
    lock = vault.root / ".git" / "memgit" / "lock"
    lock.parent.mkdir(parents=True)
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another run writing the first index
        proc = subprocess.Popen(
            [sys.executable, "-m", "memgit", "search", "Details", "--json"],
            cwd=vault.root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        status = memgit_json(vault.root, "status", env=env)
        assert "being written by another memgit run" in status["needs_full_rebuild"]
        # The search says why it waits (after 2 s of waiting) and keeps waiting: the lock is
        # released only once it said so, however long a loaded machine took to start it.
        said: list[str] = []
        reader = threading.Thread(target=lambda: said.extend(proc.stderr), daemon=True)  # type: ignore[arg-type]
        reader.start()
        wait_until(
            lambda: any("another memgit run is writing" in line for line in said), "the search says why it waits"
        )
        assert proc.poll() is None
        fcntl.flock(held, fcntl.LOCK_UN)
    out = proc.stdout.read() if proc.stdout else ""
    assert proc.wait(timeout=120) == 0, said
    reader.join(timeout=60)
    err = "".join(said)
    assert err.count("another memgit run is writing the index's text") == 1, err
    assert json.loads(out)["hits"]
