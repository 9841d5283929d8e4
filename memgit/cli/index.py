"""`memgit index`: bring the index up to HEAD (or rebuild it, or verify it)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import click

from memgit.cli.options import choice, flag, option, options, switch
from memgit.cli.output import FiniteRange, Progress, emit, notice, warn, workspace_from
from memgit.index.freshen import POLICIES, Policy, freshen


class Work(Enum):
    """What `memgit index` does: bring the index up to HEAD, rebuild it, or only fill pending vectors."""

    UPDATE = "update"
    FULL = "full"
    FILL = "fill"


class Output(Enum):
    TEXT = "text"
    JSON = "json"
    QUIET = "quiet"


@dataclass(frozen=True)
class IndexOptions:
    """`memgit index`'s options, as one typed value (memgit.cli.options)."""

    work: Work = choice(
        Work.UPDATE,
        switch(
            "--fill-in-background",
            Work.FILL,
            help="Only do what indexing leaves to the background, at a low priority: embed the vectors left pending "
            "(giving way to a foreground `memgit index`) and, in a clone never scanned, find the secrets in its "
            "memory files once (what every output redacts). What a hook or `memgit index` starts, detached. "
            "Logs to .git/memgit/fill.log.",
        ),
        switch("--full", Work.FULL, help="Rebuild from scratch (the embedding cache is kept)."),
    )
    verify: bool = flag(
        "--verify",
        help="Check that the index equals a full rebuild (rows rebuilt, vectors compared from the embedding cache, "
        "a sample of 32 embedded again); says what it checked and skipped; exit 1 on a difference.",
    )
    reembed: bool = flag("--reembed", help="With --verify: embed every cached vector again (as slow as a first index).")
    worktree: bool | None = option(
        "--worktree/--committed",
        help="Also index uncommitted edits to memory files, or only HEAD's; default from [search] worktree (on), "
        "so a plain `memgit index` keeps what searches see.",
        default=None,
    )
    output: Output = choice(
        Output.TEXT,
        switch("--json", Output.JSON, help="Print a JSON report."),
        switch("-q", "--quiet", Output.QUIET, help="Print nothing on success."),
    )
    wait: float = option(
        "--wait",
        type=FiniteRange(0, 86_400),
        default=POLICIES[Policy.CLI].update.lock_wait,
        show_default=True,
        help="Seconds to wait for another run holding the index lock (0: fail at once).",
    )


@click.command()
@options(IndexOptions)
@click.pass_context
def index(ctx: click.Context, opts: IndexOptions) -> None:
    """Bring the index up to HEAD by a tree-to-tree diff (cost follows the diff)."""
    if opts.reembed and not opts.verify:
        raise click.UsageError("--reembed goes with --verify (it says how much of the check embeds again)")
    ws = workspace_from(ctx, writes="`memgit index`")
    if opts.work is Work.FILL:
        _background_work(ws)
        return
    say = None if opts.output is not Output.TEXT else _searchable_now
    worktree = ws.config.search.worktree if opts.worktree is None else opts.worktree
    report, filled = build_index(ws, full=opts.work is Work.FULL, worktree=worktree, wait=opts.wait, on_text=say)
    from memgit.githooks.run import start_background_work
    from memgit.memory.adopt import coverage_notice

    start_background_work(ws, fill=False)  # a clone's first scan for secrets, when none was made

    if (outside := coverage_notice(ws, report.tree, fresh=report.mode == "full")) is not None:
        report.notices.append(outside)
    verification = None
    if opts.verify:
        from memgit.index.verify import verify_index

        checking = Progress("verify: embedding again")
        try:
            verification = verify_index(ws, progress=checking, reembed=opts.reembed)
        finally:
            checking.finish()
    if opts.output is Output.JSON:
        data = report.to_dict()
        data["fill"] = None if filled is None else filled.to_dict()
        if verification is not None:
            data["verify"] = verification.to_dict()
        emit(data)
    else:
        for message in report.notices:
            notice(message)
        if report.reason and report.mode == "full" and opts.work is not Work.FULL:
            notice(f"full rebuild: {report.reason}")
        for skipped in report.skipped:
            warn(f"skipped {skipped['path']}: {skipped['reason']}")
        if opts.output is not Output.QUIET:
            tree = (report.tree or "")[:12]
            if report.mode == "noop":
                click.echo(f"index up to date (tree {tree})")
            else:
                click.echo(
                    f"{report.mode} index of tree {tree}: {report.files_indexed} files indexed, "
                    f"{report.files_removed} removed, {report.chunks} chunks, {report.embedded} embedded "
                    f"({report.embeddings_cached} from cache) in {report.seconds:.2f}s"
                )
            if filled is not None and filled.filled:
                click.echo(f"vectors: {filled.filled} filled ({filled.embedded} embedded) in {filled.seconds:.2f}s")
        if verification is not None:
            _print_verification(verification, opts.output is Output.QUIET)
    if verification is not None and not verification.ok:
        from memgit.errors import MemgitError

        raise MemgitError("verify failed: the incremental index differs from a full rebuild; run `memgit index --full`")


def build_index(
    ws: Any,
    *,
    full: bool = False,
    worktree: bool = False,
    wait: float = 30.0,
    embedder: Any = None,
    on_text: Callable[[Any], None] | None = None,
) -> tuple[Any, Any]:
    """`memgit index`'s two phases, each with its own bar and a total counted first: the text
    (files; searchable when it is written: `on_text(report)` then), then the vectors left pending
    (embedded outside the index lock and published a batch at a time). `embedder`: a model the
    caller opened (None: the configured one, loaded when needed). Returns (the update's report,
    the fill's or None); Ctrl-C keeps what was written and embedded and says so (exit 130)."""
    from memgit.index.open import LazyEmbedder
    from memgit.index.settings import LOAD

    lazy = LazyEmbedder(ws, LOAD if embedder is None else embedder)
    text = Progress("index: text (files)")
    try:
        report = freshen(ws, Policy.CLI, full=full, worktree=worktree, progress=text, wait=wait, embedder=lazy)
    except KeyboardInterrupt:
        text.finish()
        click.echo("memgit: interrupted: the text was not written; run `memgit index` again", err=True)
        sys.exit(130)
    finally:
        text.finish()
    if on_text is not None:
        on_text(report)
    filled = _fill_vectors(ws, lazy, report, wait)
    if filled is not None:
        report.pending_vectors = filled.pending
        report.vectors_filled = filled.filled
        report.embedded += filled.embedded
        report.notices = [n for n in report.notices if "chunk vectors are pending" not in n]
        if filled.pending:
            report.notices.append(
                f"{filled.pending} chunk vectors are still pending ({_STOPPED.get(filled.stopped, filled.stopped)}); "
                "searches rank those chunks by BM25 until `memgit index` embeds them"
            )
    return report, filled


def _searchable_now(report: Any) -> None:
    """Between the phases, when vectors are left: the text is in, search works now."""
    if report.pending_vectors and report.model_id:
        click.echo(
            f"text indexed in {report.seconds:.1f}s: search works now (BM25 for the {report.pending_vectors} chunks "
            "whose vectors come next); embedding them, a batch at a time (Ctrl-C keeps what is done)",
            err=True,
        )


_STOPPED = {
    "busy": "another memgit run fills them now; searches use each batch as it is published",
    "model": "this run's model is not the index's",
    "asked": "stopped",
}


def _fill_vectors(ws: Any, lazy: Any, report: Any, wait: float) -> Any:
    """The vectors phase: every pending vector, in the foreground with its bar. A fill a hook
    started in the background gives way at its next batch."""
    if not report.pending_vectors or not report.model_id:
        return None
    embedder = lazy.get()
    if embedder is None or embedder.model_id != report.model_id:
        return None
    from memgit.index.fill import FillBusy, FillReport, ask_background_to_yield, clear_yield
    from memgit.index.freshen import fill

    vectors = Progress("index: vectors")
    ask_background_to_yield(ws)
    try:
        return fill(ws, Policy.CLI, embedder, progress=vectors, fill_wait=wait)
    except FillBusy:
        busy = FillReport()
        busy.stopped, busy.pending = "busy", report.pending_vectors
        return busy
    except KeyboardInterrupt:
        vectors.finish()
        # Embeddings are committed to the cache as they are made, and published a batch at a time.
        kept = f"{vectors.done} of {vectors.total} vectors are kept; " if vectors.total else ""
        click.echo(f"memgit: interrupted: the text is indexed; {kept}run `memgit index` again to resume", err=True)
        sys.exit(130)
    finally:
        vectors.finish()
        clear_yield(ws)


def _background_work(ws: Any) -> None:
    """A detached run after indexing: low priority, one log line a part, never an error exit
    (nobody reads it but the log). First the secrets scan of the memory files not scanned yet (a
    clone never scanned, a large commit's new text: what the next `memgit context` or capture
    would wait for; nothing to read when every file was), then the vectors left pending."""
    import contextlib
    import os
    import time

    started = time.time()
    with contextlib.suppress(OSError):
        os.nice(10)
    _warm_known_secrets(ws)
    _fill_in_background(ws, started)


#: The lock one background scan holds: every memory commit's hook starts one while the clone is
#: not scanned yet, and on a large workspace (a scan of tens of seconds) the commits of that time
#: started a dozen, each scanning the same files at once.
SCAN_LOCK = "secrets-scan.lock"


def _warm_known_secrets(ws: Any) -> None:
    import time

    from memgit.core.locks import LockBusy, exclusive
    from memgit.lint.files import output_settings

    lock = ws.data_dir / "locks" / SCAN_LOCK
    began = time.monotonic()
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        with exclusive(lock, 0, 0.05):
            values = len(output_settings(ws).known)
    except LockBusy:
        return  # another background scan is at it; what it misses, the next command scans
    except Exception as exc:  # a detached process: one line in its log; the next command scans
        _log("scan", f"stopped ({type(exc).__name__}: {exc})")
        return
    _log(
        "scan",
        f"the memory files scanned for secrets in {time.monotonic() - began:.1f}s "
        f"({values} distinct values every output hides)",
    )


def _fill_in_background(ws: Any, started: float) -> None:
    from memgit.index.fill import FillBusy, asked_to_yield, pending_total
    from memgit.index.freshen import fill
    from memgit.index.open import open_embedder

    pending, model = pending_total(ws)
    if not pending or not model:
        return  # started for the scan only
    embedder, why = open_embedder(ws)
    if embedder is None:
        _log("fill", f"no model ({why}); nothing filled")
        return
    try:
        done = fill(ws, Policy.HOOK, embedder, stop=lambda: asked_to_yield(ws, started))
    except FillBusy:
        return
    except Exception as exc:  # a detached process: one line in its log, the index as it was
        _log("fill", f"stopped ({type(exc).__name__}: {exc})")
        return
    _log(
        "fill",
        f"{done.filled} vectors published ({done.embedded} embedded) in {done.seconds:.1f}s, "
        f"{done.pending} pending, stopped: {done.stopped}",
    )


def _log(part: str, text: str) -> None:
    """One line of the background run's log (`fill.log`), stamped: nobody watches it as it runs."""
    import time

    click.echo(f"{time.strftime('%Y-%m-%d %H:%M:%S')} memgit {part}: {text}", err=True)


def _print_verification(verification: Any, quiet: bool) -> None:
    """What `--verify` compared and what it left out (a check that skipped a part says so), then
    its verdict."""
    if not quiet:
        for line in verification.checked:
            click.echo(f"verify: checked {line}")
    for line in verification.skipped:
        notice(f"verify skipped {line}")
    if not verification.ok:
        for line in verification.differences:
            click.echo(f"verify: {line}", err=True)
        return
    if quiet:
        return
    click.echo("verify: the index equals a full rebuild")
    oracle = verification.oracle
    if oracle:
        click.echo(
            f"verify: the vector search ({oracle['path']} path) returned {oracle['agreement']:.0%} of "
            f"sqlite-vec's exact top {oracle['k']} over {oracle['queries']} sample queries "
            f"(worst {oracle['worst']:.0%})"
        )
