"""`memgit dream`: propose promotions, updates and forgetting as commits on a review branch."""

from __future__ import annotations

from pathlib import Path

import click

from memgit.cli.output import emit, notice, workspace_from


@click.command("dream")
@click.option("--now", "now_text", default=None, help="Run as of this ISO time (default: MEMGIT_NOW or now).")
@click.option("--base", default="HEAD", show_default=True, help="Build the dream branch on this commit.")
@click.option("--branch", default=None, help="Branch to write (default: memgit/dream/YYYY-MM-DD).")
@click.option("--dry-run", is_flag=True, help="Plan and report; write no branch.")
@click.option("--explain", is_flag=True, help="List every candidate with its score components and failed gate.")
@click.option("--push", "push", default=None, metavar="REMOTE", help="Push the branch to this remote.")
@click.option("--force", is_flag=True, help="Replace an existing dream branch (here and on --push).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--directory", "-d", type=click.Path(file_okay=False, path_type=Path), default=None, hidden=True)
@click.pass_context
def dream_command(
    ctx: click.Context,
    now_text: str | None,
    base: str,
    branch: str | None,
    dry_run: bool,
    explain: bool,
    push: str | None,
    force: bool,
    as_json: bool,
    directory: Path | None,
) -> None:
    """Dream: read the recall ledger, and propose durable facts for MEMORY.md on a branch.

    Each promotion, update (supersede) or forgetting is one commit with `Memgit-*` trailers, plus
    one commit for the dream report (memory/dreams/YYYY-MM-DD.md). The checked-out branch, git's
    index and the work tree are never touched. Nothing to propose: no branch, exit 0.
    """
    from memgit.dream.clock import resolve_now
    from memgit.dream.run import run_dream

    now = resolve_now(now_text)
    ws = workspace_from(ctx, directory)
    outcome = run_dream(ws, now=now, base=base, branch=branch, dry_run=dry_run, push=push, force=force)
    if as_json:
        emit(outcome.to_dict(explain=explain))
        return
    for message in outcome.notices:
        notice(message)
    plan = outcome.plan
    if explain and plan is not None:
        for c in plan.candidates:
            row = c.explain()
            parts = " ".join(f"{k[:4]}={v:.2f}" for k, v in row["components"].items())
            verdict = f"failed gate: {row['gate']}" if row["gate"] else f"proposed ({row['action']})"
            click.echo(f"{row['score']:.3f}  {row['source']}  {verdict}")
            click.echo(f"       {parts}  recalls={row['recalls']} queries={row['queries']} days={row['days']}")
            click.echo(f"       {row['text'][:100]}")
            if row["entry"] and row["entry"] != row["text"]:
                click.echo(f"    -> {row['entry'][:100]}")
    if plan is not None:
        for action in plan.actions:
            click.echo(f"{action.kind:9} {action.text[:90]}")
    if outcome.branch:
        click.echo(f"wrote {len(outcome.commits)} commit(s) on branch {outcome.branch}")
        if outcome.pushed:
            click.echo(f"pushed: {outcome.pushed}")
        else:
            click.echo(f"review: git log -p {outcome.branch}  (merge it to accept, or drop commits you disagree with)")
    elif outcome.reason:
        click.echo(outcome.reason)
