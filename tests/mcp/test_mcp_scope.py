"""`memgit mcp --scope group`: curated, personal memory never reaches a group session.

The same rule as `memgit context --scope group`: MEMORY.md and USER.md stay out. Through the real
server: searches never return them (even for words only they contain, even with a glob that
matches them), `memory_get` refuses them (also through a link), long-term appends are refused,
and the daily logs and notes still work. `[mcp] scope = "group"` does the same, and a flag
cannot loosen it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from memgit.ledger.spool import read_spool
from tests.helpers import commit_all, write
from tests.mcp.test_mcp import TODAY_LOG, call, mcp_session, ok, refused, run


def private_workspace(workspace: Path) -> Path:
    write(workspace / "USER.md", "# User\n\n- The user's home address is 12 Quince Lane.\n")
    write(workspace / "MEMORY.md", "# Long-term Memory\n\n- The user's salary is private: walrus budget.\n")
    write(workspace / "memory" / "2026-01-06.md", "# 2026-01-06\n\n- The team walrus sync moved to Friday.\n")
    os.symlink("../MEMORY.md", workspace / "memory" / "alias.md")
    commit_all(workspace, "private and shared notes")
    return workspace


def test_group_scope_keeps_private_memory_out(workspace: Path) -> None:
    root = private_workspace(workspace)

    async def scenario() -> None:
        async with mcp_session(root, "--scope", "group") as session:
            for query in ("walrus", "Quince Lane home address", "salary private"):
                hits = ok(await call(session, "memory_search", {"query": query, "k": 10}))["hits"]
                assert all(h["path"] not in ("MEMORY.md", "USER.md") for h in hits), hits
            shared = ok(await call(session, "memory_search", {"query": "walrus sync Friday"}))["hits"]
            assert shared and shared[0]["path"] == "memory/2026-01-06.md"
            globbed = ok(await call(session, "memory_search", {"query": "walrus", "path": "*.md"}))["hits"]
            assert all(h["path"] not in ("MEMORY.md", "USER.md") for h in globbed)
            refused(await call(session, "memory_search", {"query": "walrus", "path": "MEMORY.md"}), "group session")
            refused(await call(session, "memory_get", {"path": "MEMORY.md"}), "private memory")
            refused(await call(session, "memory_get", {"path": "USER.md"}), "private memory")
            got = await call(session, "memory_get", {"path": "memory/alias.md"})
            assert got.is_error and "salary" not in str(got.content)
            assert ok(await call(session, "memory_get", {"path": "memory/2026-01-06.md"}))["text"]
            refused(await call(session, "memory_append", {"text": "- secret plan", "long_term": True}), "group session")
            ok(await call(session, "memory_append", {"text": "- group note about the walrus sync"}))
            assert ok(await call(session, "memory_status", {}))["scope"] == "group"

    memory_before = (root / "MEMORY.md").read_text()
    run(scenario)
    assert (root / "MEMORY.md").read_text() == memory_before
    assert "group note" in (root / TODAY_LOG).read_text()
    # The session records only what it shows: the private hits it left out are not evidence.
    recorded = {json.loads(line)["path"] for lines in read_spool(root / ".git" / "memgit").values() for line in lines}
    assert "memory/2026-01-06.md" in recorded and not recorded & {"MEMORY.md", "USER.md"}, recorded


def test_group_scope_from_config_cannot_be_loosened(workspace: Path) -> None:
    root = private_workspace(workspace)
    write(root / "memgit.toml", '[mcp]\nscope = "group"\n')

    async def scenario() -> None:
        async with mcp_session(root, "--scope", "private") as session:
            refused(await call(session, "memory_get", {"path": "MEMORY.md"}), "private memory")
            assert ok(await call(session, "memory_status", {}))["scope"] == "group"

    run(scenario)


def test_private_scope_is_unchanged(workspace: Path) -> None:
    root = private_workspace(workspace)

    async def scenario() -> None:
        async with mcp_session(root) as session:
            assert "salary" in ok(await call(session, "memory_get", {"path": "MEMORY.md"}))["text"]
            assert ok(await call(session, "memory_status", {}))["scope"] == "private"

    run(scenario)
