"""`workspace_status`: the one answer to "what state is this memory in?", for `memgit status` and
the MCP server's `memory_status` alike: the index against HEAD (pending files, pending vectors,
what was skipped, a rebuild that is due), memory files left in a merge conflict, and recall lines
recorded here but not yet published for dreaming."""

from __future__ import annotations

from typing import Any

from memgit.index.status import index_status
from memgit.ledger.spool import pending_count
from memgit.memory.conflicts import memory_conflicts
from memgit.workspace import Workspace


def workspace_status(ws: Workspace) -> dict[str, Any]:
    """`index_status` plus `conflicts` (memory paths git holds unmerged) and `recall_pending`."""
    data = index_status(ws)
    data["recall_pending"] = pending_count(ws.data_dir)
    data["conflicts"] = memory_conflicts(ws)
    from memgit.memory.adopt import coverage_notice

    data["notices"] = [n for n in [coverage_notice(ws, fresh=True)] if n]  # most Markdown outside the memory paths
    # memgit.toml's problems, each naming its line (`memgit doctor` says how to fix them).
    data["config_problems"] = ws.config.problems()
    return data
