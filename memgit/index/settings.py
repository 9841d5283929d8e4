"""How one update runs: `UpdateSettings`, the one value that carries a freshness policy's numbers
(`freshen.POLICIES` holds one a policy) down to the update (`update.run_update`), and `LOAD`, the
one way to say "the configured model, loaded only when there is text to embed".

Every hook imports this module before it does any work, so it imports nothing, and its class is a
plain one (a dataclass costs every hook ~0.3 ms at import).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memgit.index.embedding import ProgressFn
    from memgit.index.plan import KnownDiff

#: "No model given: load the configured one when there is text to embed" (None: no model).
LOAD: Any = object()


class UpdateSettings:
    """How one update runs: what it may change, how long it waits and how long it embeds.

    A policy's row (`freshen.POLICIES`) is one of these, with the numbers; a caller's own part of
    a run (the work tree, progress, a diff it already read) is added with `but`.

    `lock_wait` is how long it waits for another run's index lock (None: for ever; `on_wait()` once
    past 2 s of waiting). `rebuild=False` (hooks) never rebuilds an existing index: when one is due
    the report says so (mode "due") and the index is left as it is. `loads_model=False` never
    opens the model: new chunks' vectors are left pending. The chunks an update adds take their
    vectors from the embedding cache, and are embedded when the model loads, all of them unless
    `embed_seconds` bounds it: then no embedding starts after that long and the rest are left
    pending (`report.deferred`). With more than `defer_paths` changed paths nothing is embedded
    and the model is not even loaded (a checkout far back: its text is what git waits for). An
    update never fills vectors left pending by earlier runs: that is `fill.py`'s.

    `full` rebuilds; `worktree` adds uncommitted memory files; `progress(done, total)` follows the
    files written (the total is known first); `known` is the diff a caller already took from the
    indexed tree to HEAD (a hook's "anything to do?"), used instead of taking it again while both
    still match; `target` (commit, tree) replaces HEAD; `vector_dir` is where the vector files are
    carried (None: nowhere, for `--verify`'s scratch database).
    """

    __slots__ = (
        "lock_wait",
        "rebuild",
        "loads_model",
        "embed_seconds",
        "defer_paths",
        "full",
        "worktree",
        "progress",
        "known",
        "target",
        "vector_dir",
        "on_wait",
    )

    def __init__(
        self,
        *,
        lock_wait: float | None = 30.0,
        rebuild: bool = True,
        loads_model: bool = True,
        embed_seconds: float | None = None,
        defer_paths: int | None = None,
        full: bool = False,
        worktree: bool = False,
        progress: ProgressFn | None = None,
        known: KnownDiff | None = None,
        target: tuple[str | None, str] | None = None,
        vector_dir: Path | None = None,
        on_wait: Callable[[], None] | None = None,
    ) -> None:
        self.lock_wait, self.rebuild, self.loads_model = lock_wait, rebuild, loads_model
        self.embed_seconds, self.defer_paths = embed_seconds, defer_paths
        self.full, self.worktree, self.progress, self.known = full, worktree, progress, known
        self.target, self.vector_dir, self.on_wait = target, vector_dir, on_wait

    def but(self, **changes: Any) -> UpdateSettings:
        """A copy with `changes` (a policy's row is never changed itself)."""
        values = {name: getattr(self, name) for name in self.__slots__}
        unknown = changes.keys() - values.keys()
        if unknown:
            raise TypeError(f"UpdateSettings has no {', '.join(sorted(unknown))}")
        return UpdateSettings(**{**values, **changes})
