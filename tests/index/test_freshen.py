"""Freshness policies (memgit/index/freshen.py): one table, documented as it is, its environment
overrides, and a hook that reads the diff once and hands it to its update, on real repositories."""

from __future__ import annotations

import inspect
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from memgit.git import trees
from memgit.git.repo import Repo
from memgit.githooks import run as hooks
from memgit.index.freshen import POLICIES, Policy, Rule, freshen, rule
from memgit.index.layout import read_marker
from memgit.index.plan import KnownDiff
from memgit.index.update import run_update, update_index
from memgit.workspace import Workspace
from tests.helpers import REPO_ROOT, commit_all, git, write


@pytest.fixture(autouse=True)
def bm25_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    monkeypatch.delenv("MEMGIT_HOOK_LOCK_TIMEOUT", raising=False)
    monkeypatch.delenv("MEMGIT_HOOK_EMBED_SECONDS", raising=False)


# -- the table and its documentation ---------------------------------------------------------
def _doc_rows() -> dict[str, list[str]]:
    text = (REPO_ROOT / "docs" / "ARCHITECTURE.md").read_text()
    section = text.split("### Freshness policies", 1)[1]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `"):
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def _first(cell: str) -> str:
    """A cell's leading figure ("2", "0.5", "2000") or word ("all", "none", "yes", "no")."""
    match = re.match(r"[0-9][0-9,.]*|[a-z]+", cell)
    assert match, cell
    return match.group(0).replace(",", "")


def _figure(value: float | int | None, none: str) -> str:
    if value is None:
        return none
    return f"{value:g}"


def _expected(row: Rule) -> list[str]:
    update = row.update
    first_build = row.first_build_wait if row.first_build_wait is not None else update.lock_wait
    embeds = "none" if not update.loads_model else _figure(update.embed_seconds, "all")
    return [
        _figure(update.lock_wait, "none"),
        _figure(first_build, "none"),
        "yes" if update.rebuild else "no",
        "loads" if update.loads_model else "none",
        embeds,
        _figure(update.defer_paths, "none"),
        "none" if row.fill is None else row.fill.where.split()[0],
        "keeps" if row.keeps_words else "nothing",
    ]


def test_the_documented_table_is_the_code_table() -> None:
    rows = _doc_rows()
    assert set(rows) == {p.name for p in Policy}
    for policy, row in POLICIES.items():
        cells = rows[policy.name]
        documented = [_first(c) for c in cells[1:9]]
        expected = _expected(row)
        # the model column reads "loads it" or "the searcher's"/"the session's" (a caller's model)
        if documented[3] == "the":
            documented[3] = "loads"
        assert documented == expected, (policy, cells)
    assert "MEMGIT_HOOK_LOCK_TIMEOUT" in rows["HOOK"][1] and "MEMGIT_HOOK_EMBED_SECONDS" in rows["HOOK"][5]
    assert "MEMGIT_BACKGROUND_FILL" in rows["HOOK"][7]
    for policy, row in POLICIES.items():  # the fill's figures are written out where they apply
        fill = row.fill
        if fill is not None and fill.limit is not None:
            assert f"{fill.limit:,}" in rows[policy.name][7], policy
        if fill is not None and fill.max_pending is not None:
            assert f"only up to {fill.max_pending:,} pending" in rows[policy.name][7], policy


def test_environment_overrides_the_hook_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    assert (rule(Policy.HOOK).update.lock_wait, rule(Policy.HOOK).update.embed_seconds) == (2.0, 0.5)
    monkeypatch.setenv("MEMGIT_HOOK_LOCK_TIMEOUT", "0.1")
    monkeypatch.setenv("MEMGIT_HOOK_EMBED_SECONDS", "0")
    assert (rule(Policy.HOOK).update.lock_wait, rule(Policy.HOOK).update.embed_seconds) == (0.1, 0.0)
    assert POLICIES[Policy.HOOK].update.lock_wait == 2.0  # the table itself is never changed
    monkeypatch.setenv("MEMGIT_HOOK_LOCK_TIMEOUT", "soon")
    monkeypatch.setenv("MEMGIT_HOOK_EMBED_SECONDS", "-3")
    assert (rule(Policy.HOOK).update.lock_wait, rule(Policy.HOOK).update.embed_seconds) == (2.0, 0.0)
    monkeypatch.setenv("MEMGIT_HOOK_LOCK_TIMEOUT", "9")
    assert rule(Policy.SEARCH).update.lock_wait == 0.5  # other policies have no override


def test_run_update_takes_one_settings_value() -> None:
    params = inspect.signature(run_update).parameters
    assert list(params) == ["ws", "store", "get_embedder", "settings"]
    assert list(inspect.signature(update_index).parameters) == ["ws", "settings", "embedder"]


def test_a_damaged_index_is_repaired_under_its_own_policy(workspace: Path) -> None:
    """A search that finds the database damaged rebuilds it as `Policy.REPAIR` says, through the
    CLI on a real repository, and answers from the rebuilt index."""
    from tests.helpers import memgit

    assert memgit(workspace, "index").returncode == 0
    database = workspace / ".git" / "memgit" / "index.sqlite"
    database.write_bytes(b"this is no SQLite database" * 200)
    proc = memgit(workspace, "search", "billing migration", "--json", "--mode", "bm25")
    assert proc.returncode == 0, proc.stderr
    import json

    hits = json.loads(proc.stdout)["hits"]
    assert any(hit["path"] == "memory/2026-01-05.md" for hit in hits)
    assert POLICIES[Policy.REPAIR].update.rebuild and POLICIES[Policy.REPAIR].update.embed_seconds is None


# -- "anything to do?" decided once on a commit ------------------------------------------------
def _count_diffs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Every `git diff-tree` a hook starts (the real git runs; the calls are listed)."""
    calls: list[tuple[str, ...]] = []
    real = Repo.run

    def counted(repo: Repo, *args: str, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        if "diff-tree" in args:
            calls.append(args)
        return real(repo, *args, **kwargs)

    monkeypatch.setattr(Repo, "run", counted)
    return calls


def test_a_commit_hook_reads_the_diff_once(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = Workspace.discover(workspace)
    freshen(ws, Policy.CLI)
    indexed = read_marker(ws)[0]
    write(workspace / "memory" / "2026-01-06.md", "# 2026-01-06\n\n- Kestrels nest on the water tower.\n")
    commit_all(workspace, "a note")
    tree = git(workspace, "rev-parse", "HEAD^{tree}").strip()
    calls = _count_diffs(monkeypatch)
    monkeypatch.chdir(workspace)
    assert hooks.run_hook("post-commit", cwd=workspace) == 0
    assert len(calls) == 1 and calls[0][-2:] == (indexed, tree)  # the hook's diff, not read again by the update
    assert read_marker(ws)[0] == tree
    from memgit.index.verify import verify_index

    assert verify_index(ws).ok


def test_a_code_commit_stops_at_the_hooks_diff(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = Workspace.discover(workspace)
    freshen(ws, Policy.CLI)
    indexed = read_marker(ws)[0]
    write(workspace / "src" / "app.py", "print('hello')\n")
    commit_all(workspace, "code")
    calls = _count_diffs(monkeypatch)
    assert hooks.run_hook("post-commit", cwd=workspace) == 0
    assert len(calls) == 1
    assert read_marker(ws)[0] == indexed  # nothing to do: the index still answers for HEAD's memory


def test_a_diff_of_another_state_is_not_applied(workspace: Path) -> None:
    """A caller's diff counts only while the index and HEAD are the trees it was read between."""
    ws = Workspace.discover(workspace)
    freshen(ws, Policy.CLI)
    write(workspace / "memory" / "2026-01-06.md", "# 2026-01-06\n\n- Kestrels nest on the water tower.\n")
    commit_all(workspace, "a note")
    tree = git(workspace, "rev-parse", "HEAD^{tree}").strip()
    stale = KnownDiff(trees.EMPTY_TREE, tree, {})  # says nothing changed, from another tree
    report = freshen(ws, Policy.HOOK, known=stale)
    assert report.mode == "incremental" and report.files_indexed == 1
    from memgit.index.verify import verify_index

    assert verify_index(ws).ok


def test_capture_never_rebuilds_and_the_cli_does(workspace: Path) -> None:
    ws = Workspace.discover(workspace)
    freshen(ws, Policy.CLI)
    write(workspace / "memgit.toml", "[chunking]\nmax_tokens = 32\noverlap_tokens = 0\n")
    commit_all(workspace, "settings")
    ws = Workspace.discover(workspace)
    due = freshen(ws, Policy.CAPTURE)
    assert due.mode == "due" and "run `memgit index`" in due.notices[-1]
    assert freshen(ws, Policy.CLI).mode == "full"


def test_a_full_build_under_the_cli_policy_keeps_the_word_cache(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update that makes the saved per-word scores stale writes them again; a search's rebuild
    (which must answer now) leaves them to the first warm searcher."""
    import memgit.index.word_cache as word_cache
    from memgit.index.layout import word_cache_path

    monkeypatch.setattr(word_cache, "WORD_CACHE_MIN_CHUNKS", 1)
    for day in range(1, 6):
        write(workspace / "memory" / f"2026-01-0{day}.md", f"# 2026-01-0{day}\n\n- Kestrels and owls, day {day}.\n")
    commit_all(workspace, "notes")
    ws = Workspace.discover(workspace)
    searched = freshen(ws, Policy.SEARCH, full=True)
    assert searched.mode == "full" and searched.word_cache is None and not word_cache_path(ws).exists()
    built = freshen(ws, Policy.CLI, full=True)
    assert built.mode == "full" and built.word_cache and built.word_cache["saved"] > 0
    assert word_cache_path(ws).is_file()
