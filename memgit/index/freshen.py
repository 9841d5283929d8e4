"""Who keeps the index fresh, and how hard each may try: named policies in one table.

Five kinds of caller bring the index to HEAD, each with its own stake in the wait: a git hook
must not hold up git, a search must answer now, the MCP server has time on a thread of its own, a
capture commits text an agent waits on, and `memgit index` is asked to finish. Each names its
`Policy`; its row in `POLICIES` says how long it waits for another run's lock, whether it may
rebuild, whether it loads the model, how many pending vectors it fills and how long it embeds.
docs/ARCHITECTURE.md's invariants show the same table; a test holds the two equal.

Front ends call `freshen` (or `ReadPath` for a searcher), never `update_index` with numbers of
their own. This module is imported by every hook before any real work, so it imports nothing
heavy: the update module is loaded only when an update runs.
"""

from __future__ import annotations

import enum
import json
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memgit.errors import IndexLocked

if TYPE_CHECKING:
    from memgit.embed import Embedder
    from memgit.index.embedding import ProgressFn
    from memgit.index.plan import KnownDiff
    from memgit.index.store import Store
    from memgit.index.update import IndexReport
    from memgit.workspace import Workspace


class Policy(enum.Enum):
    HOOK = "hook"  # git's post-commit/merge/checkout/rewrite hooks
    SEARCH = "search"  # a search before it answers (CLI, batch, agent front ends)
    SERVER = "server"  # the MCP server's index thread
    CAPTURE = "capture"  # a transcript capture, after committing the session file
    CLI = "cli"  # `memgit index`


class TopUp:
    """A pass that only fills vectors left pending by earlier runs (no new text)."""

    __slots__ = ("limit", "seconds", "lock_wait", "max_pending")

    def __init__(self, *, limit: int, seconds: float | None, lock_wait: float, max_pending: int | None) -> None:
        self.limit = limit  # vectors embedded per pass
        self.seconds = seconds  # no new batch starts after this long (None: no bound)
        self.lock_wait = lock_wait
        self.max_pending = max_pending  # past this many pending, none is filled here (None: no bound)


class Rule:
    """One policy's row. Plain classes, not dataclasses: a dataclass costs every hook ~0.3 ms."""

    __slots__ = (
        "lock_wait",
        "first_build_wait",
        "repair_wait",
        "rebuild",
        "loads_model",
        "fill_limit",
        "fill_seconds",
        "fill_max_pending",
        "embed_seconds",
        "top_up",
        "keeps_words",
        "lock_env",
        "embed_env",
    )

    def __init__(
        self,
        *,
        lock_wait: float,
        rebuild: bool,
        loads_model: bool,
        first_build_wait: float | None = None,
        repair_wait: float | None = None,
        fill_limit: int | None = None,
        fill_seconds: float | None = None,
        fill_max_pending: int | None = None,
        embed_seconds: float | None = None,
        top_up: TopUp | None = None,
        keeps_words: bool = False,
        lock_env: str | None = None,
        embed_env: str | None = None,
    ) -> None:
        self.lock_wait = lock_wait  # seconds to wait for another run's index lock
        self.first_build_wait = first_build_wait  # ... when there is no index yet (None: lock_wait)
        self.repair_wait = repair_wait  # ... to rebuild a damaged index before answering
        self.rebuild = rebuild  # may rebuild an existing index (else says one is due)
        self.loads_model = loads_model  # False: never loads the model (vectors left pending)
        self.fill_limit = fill_limit  # pending vectors an update fills (None: all)
        self.fill_seconds = fill_seconds  # no pending batch starts after this long (None: no bound)
        self.fill_max_pending = fill_max_pending  # past this many pending, none is filled (None: no bound)
        self.embed_seconds = embed_seconds  # no new chunk's batch starts after this long (None: all)
        self.top_up = top_up
        self.keeps_words = keeps_words  # a full build keeps the per-word BM25 scores beside the index
        self.lock_env = lock_env  # environment variables that override lock_wait / embed_seconds
        self.embed_env = embed_env


#: The table (docs/ARCHITECTURE.md, "Freshness policies", shows it and a test compares them).
POLICIES: dict[Policy, Rule] = {
    # A hook never rebuilds (it may run in another environment, and a rebuild is minutes inside
    # `git commit`); a one-note commit's few chunks fit its embedding time, a checkout far back
    # updates BM25 at once and leaves the rest pending; it fills a bounded share of what earlier
    # hooks without the model left pending, but not past 2,000 pending (after a checkout far back,
    # an adoption): half a second fills ~15 of those, and git waits for it.
    Policy.HOOK: Rule(
        lock_wait=2.0,
        rebuild=False,
        loads_model=True,
        fill_limit=256,
        fill_seconds=0.5,
        fill_max_pending=2_000,
        embed_seconds=0.5,
        lock_env="MEMGIT_HOOK_LOCK_TIMEOUT",
        embed_env="MEMGIT_HOOK_EMBED_SECONDS",
    ),
    # With a complete index a busy lock is no reason to wait (answer from that state); with none
    # (another process builds the first) there is nothing to answer from yet.
    Policy.SEARCH: Rule(
        lock_wait=0.5,
        first_build_wait=120.0,
        repair_wait=5.0,
        rebuild=True,
        loads_model=True,
        embed_seconds=1.0,
        top_up=TopUp(limit=256, seconds=1.0, lock_wait=0.5, max_pending=2_000),
    ),
    # The server's updates embed only new text; vectors left pending are filled by background
    # steps on a model instance of their own, one after the other until none is left.
    Policy.SERVER: Rule(
        lock_wait=600.0,
        first_build_wait=30.0,
        rebuild=True,
        loads_model=True,
        fill_limit=0,
        top_up=TopUp(limit=256, seconds=None, lock_wait=600.0, max_pending=None),
    ),
    # Text first: the new chunks' vectors wait for the next search, server step or hook.
    Policy.CAPTURE: Rule(lock_wait=30.0, rebuild=False, loads_model=False),
    # Asked to finish: a full build of a large index also keeps its per-word BM25 scores, so the
    # first warm searcher after it (the MCP server) starts warm.
    Policy.CLI: Rule(lock_wait=30.0, rebuild=True, loads_model=True, keeps_words=True),
}


#: "No model given: load the configured one when there is text to embed" (`open.UNSET`, which
#: this module does not import: opening the store and the model is the update's business).
LOAD: Any = object()


def rule(policy: Policy) -> Rule:
    """`policy`'s row, with its environment overrides applied."""
    row = POLICIES[policy]
    if row.lock_env is None and row.embed_env is None:
        return row
    lock_wait, embed_seconds = row.lock_wait, row.embed_seconds
    if row.lock_env is not None:
        lock_wait = _seconds_from_env(row.lock_env, lock_wait)
    if row.embed_env is not None and embed_seconds is not None:
        embed_seconds = _seconds_from_env(row.embed_env, embed_seconds)
    return Rule(
        lock_wait=lock_wait,
        first_build_wait=row.first_build_wait,
        repair_wait=row.repair_wait,
        rebuild=row.rebuild,
        loads_model=row.loads_model,
        fill_limit=row.fill_limit,
        fill_seconds=row.fill_seconds,
        fill_max_pending=row.fill_max_pending,
        embed_seconds=embed_seconds,
        top_up=row.top_up,
        keeps_words=row.keeps_words,
    )


def _seconds_from_env(name: str, default: float) -> float:
    try:
        return max(0.0, float(os.environ.get(name, default)))
    except ValueError:
        return default


def freshen(
    ws: Workspace,
    policy: Policy,
    *,
    worktree: bool = False,
    embedder: Any = LOAD,
    progress: ProgressFn | None = None,
    wait: float | None = None,
    full: bool = False,
    known: KnownDiff | None = None,
) -> IndexReport:
    """Bring the index to HEAD (plus uncommitted memory files with `worktree`) as `policy` may.

    `wait` replaces the policy's lock wait (`memgit index --wait`); `embedder` is the caller's
    model (LOAD: loaded when there is text to embed; None: none); `known` is the diff the caller already
    read to decide an update is due (a hook), so the update does not read it again.
    """
    from memgit.index.open import UNSET
    from memgit.index.update import UpdateSettings, update_with  # heavy: SQLite, the planner

    row = rule(policy)
    settings = UpdateSettings(
        full=full,
        worktree=worktree,
        progress=progress,
        rebuild=row.rebuild,
        fill_limit=row.fill_limit,
        fill_seconds=row.fill_seconds,
        fill_max_pending=row.fill_max_pending,
        embed_seconds=row.embed_seconds,
        known=known,
    )
    if wait is None:
        wait = row.lock_wait
        if row.first_build_wait is not None and not _has_index(ws):
            wait = row.first_build_wait
    if not row.loads_model:
        embedder = None
    elif embedder is LOAD:
        embedder = UNSET
    report = update_with(ws, settings, embedder=embedder, lock_timeout=wait)
    if row.keeps_words and report.mode == "full":
        from memgit.index.word_cache import keep_word_cache

        report.word_cache = keep_word_cache(ws, report.chunks)
    return report


def top_up(ws: Workspace, policy: Policy, embedder: Embedder, *, worktree: bool) -> IndexReport:
    """Fill a bounded number of vectors left pending, as `policy`'s fill pass may, with `embedder`
    (the index's model); new text, if HEAD moved meanwhile, is indexed on the way."""
    from memgit.index.update import UpdateSettings, update_with

    row = rule(policy)
    assert row.top_up is not None, f"the {policy.value} policy has no fill pass"
    settings = UpdateSettings(
        worktree=worktree, rebuild=row.rebuild, fill_limit=row.top_up.limit, fill_seconds=row.top_up.seconds
    )
    return update_with(ws, settings, embedder=embedder, lock_timeout=row.top_up.lock_wait)


def _has_index(ws: Workspace) -> bool:
    from memgit.index.layout import read_marker

    return read_marker(ws)[0] is not None


class ReadPath:
    """What a searcher does before it answers (`Policy.SEARCH`): bring the index to HEAD when it
    is behind, rebuild a damaged one, and fill a bounded share of pending vectors.

    `embedder` is the searcher's model, asked for only when an update or fill needs it.
    """

    #: A batch of queries asks git once, not once per query.
    HEAD_RECHECK_SECONDS = 1.0

    def __init__(self, ws: Workspace, embedder: Callable[[], Embedder | None]) -> None:
        self.ws = ws
        self._embedder = embedder
        self._checked_at = -1e9

    def catch_up(self, notices: list[str], *, worktree: bool = False) -> None:
        """Bring the index up to HEAD first when it is behind (cheap: a tree-to-tree diff)."""
        now = time.monotonic()
        if not worktree and now - self._checked_at < self.HEAD_RECHECK_SECONDS:
            return
        self._checked_at = now
        from memgit.git import plumbing
        from memgit.index.layout import index_path, read_marker
        from memgit.index.store import IndexUnavailable
        from memgit.index.worktree import overlay_matches_worktree

        probed = plumbing.probe_head(self.ws.root)
        tree = probed[1] if probed else None
        current, overlay = read_marker(self.ws)
        if not worktree and tree and current == tree and index_path(self.ws).exists():
            # Rows indexed from the work tree are served only while the files still hold that
            # text: `git restore` and `git stash` run no hook.
            if not overlay or overlay_matches_worktree(self.ws):
                return
            worktree = True
        row = rule(Policy.SEARCH)
        wait = row.lock_wait if current is not None else row.first_build_wait
        try:
            report = freshen(self.ws, Policy.SEARCH, worktree=worktree, embedder=self._embedder(), wait=wait)
        except IndexLocked:
            notices.append("the index is being updated by another run; answering from its last complete state")
            return
        except IndexUnavailable as exc:
            notices.append(f"the index could not be updated ({exc}); answering from its last complete state")
            return
        notices.extend(report.notices)
        if report.mode == "full":
            notices.append(f"index rebuilt: {report.reason}")

    def repair(self, notices: list[str], *, worktree: bool = False) -> None:
        """The index database is damaged: rebuild it (waiting a little for the lock) before
        answering, embedding all of it (the update is a rebuild: no bound on its time)."""
        from memgit.index.update import UpdateSettings, update_with

        wait = rule(Policy.SEARCH).repair_wait
        settings = UpdateSettings(worktree=worktree)
        report = update_with(self.ws, settings, embedder=self._embedder(), lock_timeout=wait)
        notices.extend(report.notices)

    def fill_pending(self, store: Store, notices: list[str]) -> int:
        """Embed vectors an earlier run left pending (a hook without the model), a bounded
        number, before a search that uses vectors answers; returns how many were filled. Only
        with the index's own model; a busy index lock is no reason to wait."""
        fill = rule(Policy.SEARCH).top_up
        assert fill is not None and fill.max_pending is not None
        meta = store.meta()
        indexed = meta.get("model_id") or None
        if indexed is None:
            # Built where no model loaded (hooks under the pre-commit framework's environment):
            # this process adopts its model for the index, embedding a first bounded share.
            provider = json.loads(meta.get("params") or "{}").get("embedding", {}).get("provider", "none")
            chunks = int(meta.get("chunk_count", "0") or 0)
            if provider == "none" or "tree" not in meta or not chunks or chunks > fill.max_pending:
                return 0
        elif not 0 < int(meta.get("pending_vectors", "0") or 0) <= fill.max_pending:
            return 0
        embedder = self._embedder()
        if embedder is None or (indexed is not None and embedder.model_id != indexed):
            return 0
        from memgit.index.layout import read_marker
        from memgit.index.store import IndexUnavailable

        _tree, overlay = read_marker(self.ws)
        try:
            report = top_up(self.ws, Policy.SEARCH, embedder, worktree=overlay)
        except (IndexLocked, IndexUnavailable):
            return 0
        notices.extend(n for n in report.notices if "chunk vectors are pending" not in n)
        return report.vectors_filled


def pending_notice(lacking: int, total: int) -> str:
    """What every search that uses vectors says while chunks have none."""
    of = f" of {total}" if total >= lacking else ""
    return (
        f"{lacking}{of} chunks have no vector yet (indexed where the model was not available, or after "
        "a checkout that left embedding for later), so they rank by BM25 alone; `memgit index` embeds "
        "them with progress (searches and the MCP server also do, a few hundred at a time)"
    )
