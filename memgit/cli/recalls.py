"""`memgit recalls publish`: move this clone's recall spool into the tracked ledger and commit it."""

from __future__ import annotations

from pathlib import Path

import click

from memgit.cli.output import emit, warn, workspace_from


@click.group("recalls")
def recalls_group() -> None:
    """The recall spool: the hits searches recorded in this clone, before they are published."""


@recalls_group.command("publish")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--directory", "-d", type=click.Path(file_okay=False, path_type=Path), default=None, hidden=True)
@click.pass_context
def publish_recalls_command(ctx: click.Context, as_json: bool, directory: Path | None) -> None:
    """Publish the recall spool: dreaming's evidence, for CI and other clones.

    Searches record their hits in .git/memgit/recall/ (never the work tree). This appends those
    lines to memory/.dreams/recall/YYYY-MM-DD.jsonl and commits only those files, with your git
    and its hooks; then it drops them from the spool. A failed commit keeps the spool; running
    it again never duplicates a line. `memgit remember/log --commit` publishes too.
    """
    from memgit.ledger.spool import publish

    ws = workspace_from(ctx, directory, writes="`memgit recalls publish`")
    result = publish(ws.git, ws.git_dir, ws.data_dir)
    if result.dropped:
        warn(
            f"dropped {result.dropped} malformed recall line(s) from the spool "
            "(not valid UTF-8 or not a ledger record); they were not published"
        )
    if as_json:
        emit(result.to_dict())
        return
    if result.commit:
        click.echo(
            f"published {result.lines} recall line(s) in {len(result.paths)} file(s): commit {result.commit[:12]}"
        )
    elif result.paths:
        click.echo("the recall lines were already committed; dropped them from the spool")
    elif not result.dropped:
        click.echo("nothing to publish: the recall spool is empty")
    if result.pending:
        click.echo(f"{result.pending} line(s) recorded meanwhile stay in the spool")
