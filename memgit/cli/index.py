"""`memgit index`: bring the index up to HEAD (or rebuild it, or verify it)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import click

from memgit.cli.options import flag, option, options
from memgit.cli.output import FiniteRange, Progress, emit, notice, skip_teardown, warn, workspace_from
from memgit.index.freshen import POLICIES, Policy, freshen


@dataclass(frozen=True)
class IndexOptions:
    """`memgit index`'s options, as one typed value (memgit.cli.options)."""

    full: bool = flag("--full", help="Rebuild from scratch (the embedding cache is kept).")
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
    as_json: bool = flag("--json", help="Print a JSON report.")
    quiet: bool = flag("-q", "--quiet", help="Print nothing on success.")
    wait: float = option(
        "--wait",
        type=FiniteRange(0, 86_400),
        default=POLICIES[Policy.CLI].lock_wait,
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
    # Once the index is written and closed, freeing every module at exit is ~10 ms of nothing:
    # a sixth of a one-file update's own cost (docs/PERFORMANCE.md).
    skip_teardown()
    progress = Progress("embedding")
    try:
        worktree = ws.config.search.worktree if opts.worktree is None else opts.worktree
        report = freshen(ws, Policy.CLI, full=opts.full, worktree=worktree, progress=progress, wait=opts.wait)
    except KeyboardInterrupt:
        progress.finish()
        # Embeddings are committed to the cache batch by batch: a new run starts where this stopped.
        kept = f"{progress.done} of {progress.total} new embeddings are kept; " if progress.total else ""
        click.echo(f"memgit: interrupted: {kept}run `memgit index` again to resume", err=True)
        sys.exit(130)
    finally:
        progress.finish()
    from memgit.memory.adopt import coverage_notice

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
    if opts.as_json:
        data = report.to_dict()
        if verification is not None:
            data["verify"] = verification.to_dict()
        emit(data)
    else:
        for message in report.notices:
            notice(message)
        if report.reason and report.mode == "full" and not opts.full:
            notice(f"full rebuild: {report.reason}")
        for skipped in report.skipped:
            warn(f"skipped {skipped['path']}: {skipped['reason']}")
        if not opts.quiet:
            tree = (report.tree or "")[:12]
            if report.mode == "noop":
                click.echo(f"index up to date (tree {tree})")
            else:
                click.echo(
                    f"{report.mode} index of tree {tree}: {report.files_indexed} files indexed, "
                    f"{report.files_removed} removed, {report.chunks} chunks, {report.embedded} embedded "
                    f"({report.embeddings_cached} from cache) in {report.seconds:.2f}s"
                )
        if verification is not None:
            _print_verification(verification, opts.quiet)
    if verification is not None and not verification.ok:
        from memgit.errors import MemgitError

        raise MemgitError("verify failed: the incremental index differs from a full rebuild; run `memgit index --full`")


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
