"""The work tree is searchable: `memgit remember` then `memgit search` finds the note before any
commit, in the CLI and in the MCP server; a plain `memgit index` keeps it (`--committed` indexes
HEAD only); `[search] worktree = false` leaves uncommitted edits to `memgit index --worktree`."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import TODAY, memgit, memgit_json, write
from tests.mcp.test_mcp import call, mcp_session, ok, run

BM25 = {"MEMGIT_EMBEDDING": "none"}
NOTE = "The zanzibar release train leaves on Fridays at noon."
TODAY_LOG = f"memory/{TODAY.isoformat()}.md"


def test_remember_then_search_finds_the_uncommitted_note(workspace: Path) -> None:
    assert memgit(workspace, "index", env=BM25).returncode == 0
    assert memgit(workspace, "remember", NOTE, env=BM25).returncode == 0
    shown = memgit(workspace, "search", "zanzibar release train", env=BM25)
    assert shown.returncode == 0, shown.stderr
    assert f"{TODAY_LOG}:" in shown.stdout and "(uncommitted)" in shown.stdout and NOTE in shown.stdout
    (hit,) = memgit_json(workspace, "search", "zanzibar release train", "-k", "1", env=BM25)["hits"]
    assert hit["path"] == TODAY_LOG and hit["source"] == "worktree" and hit["commit"] is None

    # A plain `memgit index` keeps it (it used to drop what --worktree or the MCP server had indexed).
    assert memgit(workspace, "index", env=BM25).returncode == 0
    assert TODAY_LOG in memgit_json(workspace, "status", env=BM25)["worktree_overlay"]
    assert memgit(workspace, "index", "--committed", env=BM25).returncode == 0
    assert memgit_json(workspace, "status", env=BM25)["worktree_overlay"] == []

    # Discarded, it is gone from the next search (no hook runs for a `git restore` or an rm).
    (workspace / TODAY_LOG).unlink()
    after = memgit_json(workspace, "search", "zanzibar release train", env=BM25)
    assert all(h["path"] != TODAY_LOG for h in after["hits"])


def test_the_setting_turns_it_off(workspace: Path) -> None:
    write(workspace / "memgit.toml", "[search]\nworktree = false\n")
    assert memgit(workspace, "remember", NOTE, env=BM25).returncode == 0
    assert all(h["path"] != TODAY_LOG for h in memgit_json(workspace, "search", "zanzibar", env=BM25)["hits"])
    assert memgit(workspace, "index", env=BM25).returncode == 0  # HEAD only, as the setting says
    assert memgit_json(workspace, "status", env=BM25)["worktree_overlay"] == []
    assert memgit(workspace, "index", "--worktree", env=BM25).returncode == 0
    found = memgit_json(workspace, "search", "zanzibar release train", env=BM25)
    assert found["hits"][0]["path"] == TODAY_LOG  # indexed from the work tree: served while it matches


def test_the_mcp_server_finds_a_note_remembered_beside_it(workspace: Path) -> None:
    async def scenario() -> None:
        async with mcp_session(workspace) as session:
            ok(await call(session, "memory_search", {"query": "tea"}))
            assert memgit(workspace, "remember", NOTE, env=BM25).returncode == 0
            found = ok(await call(session, "memory_search", {"query": "zanzibar release train"}))
            assert found["hits"][0]["path"] == TODAY_LOG and found["hits"][0]["commit"] is None

    run(scenario)
