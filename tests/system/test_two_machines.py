"""Two machines, one memory (issue #11, point 4), played with two clones and a local bare remote.

Both machines append to the same day's log, record recalls in dreaming's ledger and remember a
long-term fact, then pull from each other with memgit's hooks installed. The daily log and the
ledger merge by union without a conflict; MEMORY.md, changed on both sides, is left to git and
reported by `memgit status` and `memgit lint`; once resolved, both indexes equal a full rebuild
and both machines find both machines' memories.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memgit.memory.init import DAILY_LOG_ATTRIBUTES_LINE, GITATTRIBUTES_LINE
from tests.helpers import TODAY as SESSION_TODAY
from tests.helpers import git, memgit, write

TODAY = SESSION_TODAY.isoformat()
DAILY = f"memory/{TODAY}.md"
LEDGER = "memory/.dreams/recall.jsonl"


@pytest.fixture(autouse=True)
def bm25_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.setenv("MEMGIT_NO_PROGRESS", "1")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return proc


def machine(path: Path, remote: Path) -> Path:
    git(path.parent, "clone", "-q", str(remote), path.name)
    git(path, "config", "pull.rebase", "false")
    ok(memgit(path, "hooks", "install"))
    ok(memgit(path, "index"))
    return path


def append_ledger(repo: Path, line: dict[str, object]) -> None:
    with (repo / LEDGER).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    git(repo, "add", LEDGER)
    git(repo, "commit", "-q", "-m", "recall")


def assert_index_is_a_rebuild(repo: Path) -> None:
    report = json.loads(ok(memgit(repo, "index", "--verify", "--json")).stdout)
    assert report["verify"]["ok"], report["verify"]
    assert (repo / ".git" / "memgit" / "indexed_tree").read_text().strip() == git(
        repo, "rev-parse", "HEAD^{tree}"
    ).strip()


def hit_texts(repo: Path, query: str) -> str:
    proc = ok(memgit(repo, "search", query, "--mode", "bm25", "--json"))
    return "\n".join(hit["text"] for hit in json.loads(proc.stdout)["hits"]).lower()


def test_two_clones_append_remember_and_pull_from_each_other(tmp_path: Path) -> None:
    origin = tmp_path / "origin"
    ok(memgit(tmp_path, "init", "origin"))
    attributes = (origin / ".gitattributes").read_text().splitlines()
    assert DAILY_LOG_ATTRIBUTES_LINE in attributes and GITATTRIBUTES_LINE in attributes
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "memgit init")
    remote = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(remote))
    assert git(origin, "check-attr", "merge", DAILY).strip().endswith("merge: union")
    assert git(origin, "check-attr", "merge", LEDGER).strip().endswith("merge: union")
    assert git(origin, "check-attr", "merge", "MEMORY.md").strip().endswith("merge: unspecified")

    laptop = machine(tmp_path / "laptop", remote)
    desktop = machine(tmp_path / "desktop", remote)

    # Both machines write the same day's log, the ledger and MEMORY.md, and commit.
    ok(memgit(laptop, "remember", "Laptop: the kiwi release ships on Friday.", "--commit"))
    ok(memgit(desktop, "remember", "Desktop: the quince migration needs a backup first.", "--commit"))
    (laptop / LEDGER).parent.mkdir(parents=True, exist_ok=True)
    (desktop / LEDGER).parent.mkdir(parents=True, exist_ok=True)
    append_ledger(laptop, {"query": "kiwi release", "machine": "laptop"})
    append_ledger(desktop, {"query": "quince migration", "machine": "desktop"})
    ok(memgit(laptop, "remember", "--long-term", "The team lead is Ana.", "--commit"))
    ok(memgit(desktop, "remember", "--long-term", "The team lead is Bo.", "--commit"))
    ok(memgit(laptop, "remember", "Laptop: a second kiwi note, later.", "--commit"))

    git(laptop, "push", "-q", "origin", "main")
    pulled = subprocess.run(["git", "pull", "-q", "origin", "main"], cwd=desktop, capture_output=True, text=True)
    assert pulled.returncode != 0  # MEMORY.md: both sides appended different facts

    # Only MEMORY.md is left in conflict; the daily log and the ledger merged by union.
    assert git(desktop, "diff", "--name-only", "--diff-filter=U").split() == ["MEMORY.md"]
    daily = (desktop / DAILY).read_text()
    for fact in ("kiwi release ships", "quince migration", "second kiwi note"):
        assert fact in daily
    assert "<<<<<<<" not in daily
    ledger = [json.loads(line) for line in (desktop / LEDGER).read_text().splitlines()]
    assert {entry["machine"] for entry in ledger} == {"laptop", "desktop"}

    # memgit status and the lint report the MEMORY.md conflict, in words and in JSON.
    status = ok(memgit(desktop, "status"))
    assert "conflict:     MEMORY.md has a merge conflict" in status.stdout
    assert json.loads(ok(memgit(desktop, "status", "--json")).stdout)["conflicts"] == ["MEMORY.md"]
    lint = memgit(desktop, "lint")
    assert lint.returncode == 1 and "MEMORY.md" in lint.stdout + lint.stderr
    assert "F401" in lint.stdout + lint.stderr

    # A person resolves it (both facts hold in turn: keep both), commits; the hooks index.
    memory = (desktop / "MEMORY.md").read_text()
    resolved = "\n".join(line for line in memory.splitlines() if not line.startswith(("<<<<<<<", "=======", ">>>>>>>")))
    write(desktop / "MEMORY.md", resolved + "\n")
    git(desktop, "add", "MEMORY.md")
    ok(memgit(desktop, "lint"))
    git(desktop, "commit", "-q", "--no-edit")
    assert json.loads(ok(memgit(desktop, "status", "--json")).stdout)["conflicts"] == []
    git(desktop, "push", "-q", "origin", "main")
    git(laptop, "pull", "-q", "origin", "main")

    for repo in (laptop, desktop):
        assert_index_is_a_rebuild(repo)
        assert "kiwi release" in hit_texts(repo, "kiwi release Friday")
        assert "quince" in hit_texts(repo, "quince migration backup")
        lead = hit_texts(repo, "team lead")
        assert "ana" in lead and "bo" in lead
    assert (laptop / DAILY).read_text() == (desktop / DAILY).read_text()


def test_init_adds_the_daily_log_line_to_an_older_workspace(tmp_path: Path) -> None:
    """A workspace made before the daily-log line existed gets it on `memgit init`, once."""
    repo = tmp_path / "old"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / ".gitattributes", "# dreaming's recall ledger\n" + GITATTRIBUTES_LINE + "\n")
    report = json.loads(ok(memgit(repo, "init", "--json")).stdout)
    assert ".gitattributes" in report["created"]
    lines = (repo / ".gitattributes").read_text().splitlines()
    assert lines.count(GITATTRIBUTES_LINE) == 1 and lines.count(DAILY_LOG_ATTRIBUTES_LINE) == 1
    again = json.loads(ok(memgit(repo, "init", "--json")).stdout)
    assert ".gitattributes" not in again["created"]
