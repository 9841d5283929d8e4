"""Who keeps the index fresh, and how hard each may try: named policies in one table.

Six kinds of caller bring the index to HEAD, each with its own stake in the wait: a git hook
must not hold up git, a search must answer now (and a searcher that finds the database damaged
must rebuild it first), the MCP server has time on a thread of its own, a capture commits text an
agent waits on, and `memgit index` is asked to finish. Each names its `Policy`; its row in
`POLICIES` says how long it waits for another run's lock, whether it may rebuild, whether it
loads the model, how many pending vectors it fills and how long it embeds: its `UpdateSettings`
(`settings.py`) carry the update's part of these numbers down to the update, which takes no
other. docs/ARCHITECTURE.md's invariants show the same table; a test holds the two equal.

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
from memgit.index.settings import LOAD, UpdateSettings

if TYPE_CHECKING:
    from memgit.embed import Embedder
    from memgit.index.embedding import ProgressFn
    from memgit.index.fill import FillReport
    from memgit.index.plan import KnownDiff
    from memgit.index.store import Store
    from memgit.index.update import IndexReport
    from memgit.workspace import Workspace


class Policy(enum.Enum):
    HOOK = "hook"  # git's post-commit/merge/checkout/rewrite hooks
    SEARCH = "search"  # a search before it answers (CLI, batch, agent front ends)
    REPAIR = "repair"  # a searcher that found the index damaged, before it answers
    SERVER = "server"  # the MCP server's index thread
    CAPTURE = "capture"  # a transcript capture, after committing the session file
    CLI = "cli"  # `memgit index`


class Fill:
    """A policy's fill pass: how it embeds vectors left pending (`fill.py`: outside the index
    lock, published a batch at a time)."""

    __slots__ = ("where", "limit", "seconds", "lock_wait", "max_pending")

    def __init__(
        self, *, where: str, limit: int | None, seconds: float | None, lock_wait: float, max_pending: int | None
    ) -> None:
        self.where = where  # foreground | background | before answering | server steps
        self.limit = limit  # vectors published per pass (None: all)
        self.seconds = seconds  # no new batch starts after this long (None: no bound)
        self.lock_wait = lock_wait  # each publication's wait for the index lock
        self.max_pending = max_pending  # past this many pending, none is filled here (None: no bound)


class Rule:
    """One policy's row: how its updates run (`update`, the one carrier of the numbers), how long
    it waits when there is no index yet, its fill pass, and what it keeps after a full build.
    Plain classes, not dataclasses: a dataclass costs every hook ~0.3 ms."""

    __slots__ = ("update", "first_build_wait", "fill", "keeps_words", "lock_env", "embed_env")

    def __init__(
        self,
        update: UpdateSettings,
        *,
        first_build_wait: float | None = None,
        fill: Fill | None = None,
        keeps_words: bool = False,
        lock_env: str | None = None,
        embed_env: str | None = None,
    ) -> None:
        self.update = update
        self.first_build_wait = first_build_wait  # the lock wait when there is no index yet (None: the same)
        self.fill = fill
        self.keeps_words = keeps_words  # a full build keeps the per-word BM25 scores beside the index
        self.lock_env = lock_env  # environment variables that override lock_wait / embed_seconds
        self.embed_env = embed_env


#: The table (docs/ARCHITECTURE.md, "Freshness policies", shows it and a test compares them).
POLICIES: dict[Policy, Rule] = {
    # A hook never rebuilds (it may run in another environment, and a rebuild is minutes inside
    # `git commit`); a one-note commit's few chunks fit its embedding time; a checkout far back
    # (thousands of paths) writes its text without even loading the model, and a detached
    # process started after it fills the vectors, a batch at a time, while git has returned.
    Policy.HOOK: Rule(
        UpdateSettings(lock_wait=2.0, rebuild=False, embed_seconds=0.5, defer_paths=256),
        fill=Fill(where="background", limit=None, seconds=None, lock_wait=60.0, max_pending=None),
        lock_env="MEMGIT_HOOK_LOCK_TIMEOUT",
        embed_env="MEMGIT_HOOK_EMBED_SECONDS",
    ),
    # With a complete index a busy lock is no reason to wait (answer from that state); with none
    # (another process writes the first one's text) there is nothing to answer from yet.
    Policy.SEARCH: Rule(
        UpdateSettings(lock_wait=0.5, embed_seconds=1.0),
        first_build_wait=120.0,
        fill=Fill(where="before answering", limit=256, seconds=1.0, lock_wait=0.5, max_pending=2_000),
    ),
    # A damaged index found by a searcher: rebuilt before it answers, all of it embedded.
    Policy.REPAIR: Rule(UpdateSettings(lock_wait=5.0)),
    # The server's updates embed new text for two seconds; what is left pending is filled by
    # background steps on a model instance of their own, one after the other until none is left.
    Policy.SERVER: Rule(
        UpdateSettings(lock_wait=600.0, embed_seconds=2.0),
        first_build_wait=30.0,
        fill=Fill(where="server steps", limit=256, seconds=None, lock_wait=600.0, max_pending=None),
    ),
    # Text first: the new chunks' vectors wait for the next search, server step or hook.
    Policy.CAPTURE: Rule(UpdateSettings(lock_wait=30.0, rebuild=False, loads_model=False)),
    # Asked to finish: the text first (searchable when it is written), then every pending vector in
    # the foreground with a bar. A full build of a large index also keeps its per-word BM25
    # scores, so the first warm searcher after it (the MCP server) starts warm.
    Policy.CLI: Rule(
        UpdateSettings(lock_wait=30.0, embed_seconds=2.0),
        fill=Fill(where="foreground", limit=None, seconds=None, lock_wait=30.0, max_pending=None),
        keeps_words=True,
    ),
}


def rule(policy: Policy) -> Rule:
    """`policy`'s row, with its environment overrides applied."""
    row = POLICIES[policy]
    if row.lock_env is None and row.embed_env is None:
        return row
    update = row.update
    changes: dict[str, float] = {}
    if row.lock_env is not None and update.lock_wait is not None:
        changes["lock_wait"] = _seconds_from_env(row.lock_env, update.lock_wait)
    if row.embed_env is not None and update.embed_seconds is not None:
        changes["embed_seconds"] = _seconds_from_env(row.embed_env, update.embed_seconds)
    return Rule(
        update.but(**changes), first_build_wait=row.first_build_wait, fill=row.fill, keeps_words=row.keeps_words
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
    on_wait: Callable[[], None] | None = None,
) -> IndexReport:
    """Bring the index to HEAD (plus uncommitted memory files with `worktree`) as `policy` may.

    `wait` replaces the policy's lock wait (`memgit index --wait`); `embedder` is the caller's
    model (LOAD: loaded when there is text to embed; None: none); `known` is the diff the caller already
    read to decide an update is due (a hook), so the update does not read it again.
    """
    from memgit.index.update import update_index  # heavy: SQLite, the planner

    row = rule(policy)
    if wait is None:
        wait = row.update.lock_wait
        if row.first_build_wait is not None and not _has_index(ws):
            wait = row.first_build_wait
    settings = row.update.but(
        full=full, worktree=worktree, progress=progress, known=known, lock_wait=wait, on_wait=on_wait
    )
    report = update_index(ws, settings, embedder=embedder)
    if row.keeps_words and report.mode == "full":
        from memgit.index.word_cache import keep_word_cache

        report.word_cache = keep_word_cache(ws, report.chunks)
    return report


def fill(
    ws: Workspace,
    policy: Policy,
    embedder: Embedder,
    *,
    progress: ProgressFn | None = None,
    stop: Callable[[], bool] | None = None,
    fill_wait: float | None = 0.0,
) -> FillReport:
    """Fill vectors left pending as `policy`'s fill pass may, with `embedder` (the index's
    model): embedded outside the index lock, published a batch at a time (`fill.py`). Another
    fill running now: `FillBusy` after `fill_wait` seconds."""
    from memgit.index.fill import fill_vectors

    row = rule(policy)
    assert row.fill is not None, f"the {policy.value} policy has no fill pass"
    return fill_vectors(
        ws,
        embedder,
        limit=row.fill.limit,
        seconds=row.fill.seconds,
        lock_wait=row.fill.lock_wait,
        fill_wait=fill_wait,
        progress=progress,
        stop=stop,
    )


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

    def __init__(
        self, ws: Workspace, embedder: Callable[[], Embedder | None], on_wait: Callable[[], None] | None = None
    ) -> None:
        self.ws = ws
        self._embedder = embedder
        self._checked_at = -1e9
        self._on_wait = on_wait or say_waiting

    def catch_up(self, notices: list[str], *, worktree: bool = False) -> None:
        """Bring the index up to HEAD first when it is behind (cheap: a tree-to-tree diff)."""
        now = time.monotonic()
        if not worktree and now - self._checked_at < self.HEAD_RECHECK_SECONDS:
            return
        self._checked_at = now
        from memgit.index.layout import read_marker
        from memgit.index.store import IndexUnavailable
        from memgit.index.worktree import overlay_matches_worktree

        probed = self.ws.git.probe_head()
        tree = probed[1] if probed else None
        current, overlay = read_marker(self.ws)
        if not worktree and tree and current == tree:
            # Rows indexed from the work tree are served only while the files still hold that
            # text: `git restore` and `git stash` run no hook.
            if not overlay or overlay_matches_worktree(self.ws):
                return
            worktree = True
        try:
            report = freshen(
                self.ws, Policy.SEARCH, worktree=worktree, embedder=self._embedder(), on_wait=self._on_wait
            )
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
        """The index database is damaged: rebuild it before answering (`Policy.REPAIR`)."""
        report = freshen(self.ws, Policy.REPAIR, worktree=worktree, embedder=self._embedder())
        notices.extend(report.notices)

    def fill_pending(self, store: Store, notices: list[str]) -> int:
        """Embed vectors an earlier run left pending (a hook without the model, a checkout far
        back), a bounded number, before a search that uses vectors answers; returns how many were
        filled. Only with the index's own model (an index built with none adopts this one first);
        a busy lock, or a fill already running elsewhere, is no reason to wait."""
        fill_row = rule(Policy.SEARCH).fill
        assert fill_row is not None and fill_row.max_pending is not None
        meta = store.meta()
        indexed = meta.get("model_id") or None
        if indexed is None:
            # Built where no model loaded (hooks under the pre-commit framework's environment):
            # this process adopts its model for the index, then fills a first bounded share.
            provider = json.loads(meta.get("params") or "{}").get("embedding", {}).get("provider", "none")
            chunks = int(meta.get("chunk_count", "0") or 0)
            if provider == "none" or "tree" not in meta or not chunks or chunks > fill_row.max_pending:
                return 0
        elif not 0 < int(meta.get("pending_vectors", "0") or 0) <= fill_row.max_pending:
            return 0
        embedder = self._embedder()
        if embedder is None or (indexed is not None and embedder.model_id != indexed):
            return 0
        from memgit.index.fill import FillBusy
        from memgit.index.layout import read_marker
        from memgit.index.store import IndexUnavailable

        try:
            if indexed is None:
                _tree, overlay = read_marker(self.ws)
                report = freshen(self.ws, Policy.SEARCH, worktree=overlay, embedder=embedder)
                notices.extend(n for n in report.notices if "chunk vectors are pending" not in n)
            return fill(self.ws, Policy.SEARCH, embedder).filled
        except (IndexLocked, IndexUnavailable, FillBusy):
            return 0


def say_waiting() -> None:
    """A search waiting for another run's index update (a first index's text): said once on
    stderr, where a user or a log sees it, so it never waits in silence."""
    import sys

    print(
        "memgit: notice: another memgit run is writing the index's text (a first index, or a rebuild); "
        "this search answers as soon as it is written",
        file=sys.stderr,
        flush=True,
    )


def pending_notice(lacking: int, total: int) -> str:
    """What every search that uses vectors says while chunks have none."""
    over = f"hybrid over {total - lacking} of {total} chunks; vectors pending" if total >= lacking else ""
    return (
        f"{over or 'vectors pending'} for {lacking} chunks (indexed where the model was not available, or "
        "text written first: a first index, a checkout far back), which rank by BM25 alone until embedded; "
        "`memgit index` embeds them with progress (a fill after a hook, searches and the MCP server also do)"
    )
