"""`memgit index`: bring the index up to HEAD (or rebuild it, or verify it)."""

from __future__ import annotations

import sys

import click

from memgit.cli.output import FiniteRange, Progress, emit, notice, skip_teardown, warn, workspace_from


@click.command()
@click.option("--full", is_flag=True, help="Rebuild from scratch (the embedding cache is kept).")
@click.option("--verify", is_flag=True, help="Check that the index equals a full rebuild; exit 1 if not.")
@click.option("--worktree", is_flag=True, help="Also index uncommitted edits to memory files.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on success.")
@click.option(
    "--wait",
    type=FiniteRange(0, 86_400),
    default=30.0,
    show_default=True,
    help="Seconds to wait for another run holding the index lock (0: fail at once).",
)
@click.pass_context
def index(
    ctx: click.Context, full: bool, verify: bool, worktree: bool, as_json: bool, quiet: bool, wait: float
) -> None:
    """Bring the index up to HEAD by a tree-to-tree diff (cost follows the diff)."""
    from memgit.index.update import update_index

    ws = workspace_from(ctx)
    # Once the index is written and closed, freeing every module at exit is ~10 ms of nothing:
    # a sixth of a one-file update's own cost (docs/PERFORMANCE.md).
    skip_teardown()
    progress = Progress("embedding")
    try:
        report = update_index(ws, full=full, worktree=worktree, progress=progress, lock_timeout=wait)
    except KeyboardInterrupt:
        progress.finish()
        # Embeddings are committed to the cache batch by batch: a new run starts where this stopped.
        kept = f"{progress.done} of {progress.total} new embeddings are kept; " if progress.total else ""
        click.echo(f"memgit: interrupted: {kept}run `memgit index` again to resume", err=True)
        sys.exit(130)
    finally:
        progress.finish()
    if report.mode == "full":
        from memgit.recall.search import keep_word_cache

        report.word_cache = keep_word_cache(ws, report.chunks)
    verification = None
    if verify:
        from memgit.index.verify import verify_index

        checking = Progress("verify: embedding again")  # every cached vector: the slow half
        try:
            verification = verify_index(ws, progress=checking)
        finally:
            checking.finish()
    if as_json:
        data = report.to_dict()
        if verification is not None:
            data["verify"] = verification.to_dict()
        emit(data)
    else:
        for message in report.notices:
            notice(message)
        if report.reason and report.mode == "full" and not full:
            notice(f"full rebuild: {report.reason}")
        for skipped in report.skipped:
            warn(f"skipped {skipped['path']}: {skipped['reason']}")
        if not quiet:
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
            if verification.ok:
                if not quiet:
                    click.echo("verify: the index equals a full rebuild")
                oracle = verification.oracle
                if oracle and not quiet:
                    click.echo(
                        f"verify: the vector search ({oracle['path']} path) returned {oracle['agreement']:.0%} of "
                        f"sqlite-vec's exact top {oracle['k']} over {oracle['queries']} sample queries "
                        f"(worst {oracle['worst']:.0%})"
                    )
            else:
                for line in verification.differences:
                    click.echo(f"verify: {line}", err=True)
    if verification is not None and not verification.ok:
        from memgit.errors import MemgitError

        raise MemgitError("verify failed: the incremental index differs from a full rebuild; run `memgit index --full`")
