"""Memory files a merge left in conflict, and what to do about them.

Daily logs and the recall ledger merge by union (see `memgit.memory.init`), so two machines'
appends never conflict. MEMORY.md is edited as well as appended to; when both machines changed
the same lines git stops, and that is right: which fact holds is for a person to decide. This
module names those files so `memgit status` can say so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memgit.workspace import Workspace


def memory_conflicts(ws: Workspace) -> list[str]:
    """The memory files git holds unmerged, sorted."""
    return [path for path in ws.git.unmerged_paths() if ws.is_memory_path(path)]


def conflict_advice(path: str) -> str:
    return (
        f"{path} has a merge conflict (both sides changed the same lines): edit it to keep the facts "
        f"that hold, remove the <<<<<<< ======= >>>>>>> lines, then `git add {path}` and commit"
    )
