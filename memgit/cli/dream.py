"""`memgit dream`: propose promotions, updates and forgetting as commits on a review branch;
`memgit dream drop` / `memgit dream reject`: the reviewer's no, recorded so it sticks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from memgit.cli.options import flag, option, options
from memgit.cli.output import emit, notice, workspace_from


@dataclass(frozen=True)
class DreamOptions:
    """The options of `memgit dream` itself (its subcommands take their own)."""

    now_text: str | None = option("--now", help="Run as of this ISO time (default: MEMGIT_NOW or now).")
    base: str = option("--base", default="HEAD", show_default=True, help="Build the dream branch on this commit.")
    branch: str | None = option("--branch", help="Branch to write (default: memgit/dream/YYYY-MM-DD).")
    dry_run: bool = flag("--dry-run", help="Plan and report; write no branch.")
    explain: bool = flag("--explain", help="List every candidate with its score components and failed gate.")
    push: str | None = option("--push", metavar="REMOTE", help="Push the branch to this remote.")
    force: bool = flag("--force", help="Replace an existing dream branch (here and on --push).")
    reject_previous: bool = flag(
        "--reject-previous",
        help="The pull request of the branch this run replaces was closed unmerged: record its proposals as rejected.",
    )
    as_json: bool = flag("--json", help="Print one JSON object.")
    directory: Path | None = option(
        "--directory",
        "-d",
        type=click.Path(file_okay=False, path_type=Path),
        hidden=True,
        help="The workspace (hidden: memgit's own -C is the documented way).",
    )


@click.group("dream", invoke_without_command=True)
@options(DreamOptions)
@click.pass_context
def dream_command(ctx: click.Context, opts: DreamOptions) -> None:
    """Dream: read the recall ledger, and propose durable facts for MEMORY.md on a branch.

    Each promotion, update (supersede) or forgetting is one commit with `Memgit-*` trailers, plus
    one commit for the dream report (memory/dreams/YYYY-MM-DD.md). The checked-out branch, git's
    index and the work tree are never touched. Nothing to propose: no branch, exit 0. With
    --push, commits on the remote branch that memgit did not write (a reviewer's) are never
    overwritten: the run says so and exits 0. `memgit dream drop KEY` and `memgit dream reject KEY`
    record a reviewer's no.
    """
    if ctx.invoked_subcommand is not None:
        return
    from memgit.core.clock import resolve_now
    from memgit.dream.run import run_dream

    now = resolve_now(opts.now_text)
    ws = workspace_from(ctx, opts.directory, writes="`memgit dream`")
    outcome = run_dream(
        ws,
        now=now,
        base=opts.base,
        branch=opts.branch,
        dry_run=opts.dry_run,
        push=opts.push,
        force=opts.force,
        reject_previous=opts.reject_previous,
    )
    if opts.as_json:
        emit(outcome.to_dict(explain=opts.explain))
        return
    for message in outcome.notices:
        notice(message)
    plan = outcome.plan
    if opts.explain and plan is not None:
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
            click.echo(f"{action.kind:9} {action.key}  {action.text}")
    if outcome.branch:
        click.echo(f"wrote {len(outcome.commits)} commit(s) on branch {outcome.branch}")
        if outcome.pushed:
            click.echo(f"pushed: {outcome.pushed}")
        else:
            click.echo(
                f"review: git log -p {outcome.branch}  (merge it to accept; `memgit dream drop KEY` takes a "
                "proposal you disagree with off the branch, by the key shown above)"
            )
    elif outcome.reason:
        click.echo(outcome.reason)


@dataclass(frozen=True)
class RewriteOptions:
    """The options of every command that writes a dream branch again (drop, supersede)."""

    branch: str | None = option("--branch", help="The dream branch (default: the one local memgit/dream/ branch).")
    push: str | None = option("--push", metavar="REMOTE", help="Push the rewritten branch to this remote.")
    now_text: str | None = option("--now", help="Date the decision as of this ISO time (default: MEMGIT_NOW or now).")
    as_json: bool = flag("--json", help="Print one JSON object.")


@dream_command.command("drop")
@click.argument("keys", nargs=-1, required=True)
@options(RewriteOptions)
@click.pass_context
def drop_command(ctx: click.Context, keys: tuple[str, ...], opts: RewriteOptions) -> None:
    """Drop proposals (by key, or a unique prefix) from a dream branch, and record each as rejected.

    The branch is written again from the same inputs without them (deterministic: no rebase, no
    conflict); the decision rides on the branch, so merging its pull request records it. Dropping
    a forget proposal keeps that entry for good.
    """
    from memgit.core.clock import resolve_now
    from memgit.dream.review import drop_proposals

    now = resolve_now(opts.now_text)
    ws = workspace_from(ctx, writes="`memgit dream drop`")
    out = drop_proposals(ws, list(keys), branch=opts.branch, push=opts.push, now=now)
    if opts.as_json:
        emit(out.to_dict())
        return
    if out.dream is not None:
        for message in out.dream.notices:
            notice(message)
    for proposal in out.dropped:
        verb = "kept (no forget)" if proposal.action == "forget" else "rejected"
        click.echo(f"{verb:16} {proposal.key}  {proposal.text[:80]}")
    if out.changed:
        notice(f"{len(out.changed)} other proposal(s) did not come back as they were: {', '.join(out.changed)}")
    commits = out.dream.commits if out.dream is not None else []
    click.echo(f"rewrote {out.branch}: {len(commits)} commit(s)")
    if out.dream is not None and out.dream.pushed:
        click.echo(f"pushed: {out.dream.pushed}")
    elif opts.push is None:
        click.echo(f"push it: git push --force-with-lease origin {out.branch}")


@dream_command.command("reject")
@click.argument("keys", nargs=-1, required=True)
@click.option("--reason", default=None, help="Why, recorded with the decision.")
@click.option(
    "--now", "now_text", default=None, help="Date the decision as of this ISO time (default: MEMGIT_NOW or now)."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def reject_command(
    ctx: click.Context, keys: tuple[str, ...], reason: str | None, now_text: str | None, as_json: bool
) -> None:
    """Take merged entries out of MEMORY.md by key and record each as rejected, in one commit.

    A person's text is never touched (an entry edited by hand is theirs: delete it yourself). A
    rejected entry is never proposed again unless its source text changes.
    """
    from memgit.core.clock import resolve_now
    from memgit.dream.review import reject_entries

    now = resolve_now(now_text)
    ws = workspace_from(ctx, writes="`memgit dream reject`")
    out = reject_entries(ws, list(keys), reason=reason, now=now)
    if as_json:
        emit(out.to_dict())
        return
    for key, text in out.rejected:
        where = "removed from MEMORY.md" if key in out.removed else "recorded"
        click.echo(f"rejected {key} ({where})  {text[:80]}")
    click.echo(f"committed {out.commit[:12] if out.commit else '?'}: {', '.join(out.paths)}")


@dream_command.command("supersede")
@click.argument("key")
@click.argument("old_key")
@options(RewriteOptions)
@click.pass_context
def supersede_command(ctx: click.Context, key: str, old_key: str, opts: RewriteOptions) -> None:
    """Make proposal KEY the update of MEMORY.md entry OLD_KEY (a "may conflict with" you confirm).

    The dream branch is written again from the same inputs with KEY replacing OLD_KEY (old -> new
    in its commit), and the decision rides on the branch, so later runs keep it an update.
    """
    from memgit.core.clock import resolve_now
    from memgit.dream.review import supersede_proposal

    now = resolve_now(opts.now_text)
    ws = workspace_from(ctx, writes="`memgit dream supersede`")
    out = supersede_proposal(ws, key, old_key, branch=opts.branch, push=opts.push, now=now)
    if opts.as_json:
        emit(out.to_dict())
        return
    for message in out.dream.notices:
        notice(message)
    click.echo(f"update   {out.key} replaces {out.target}")
    click.echo(f"rewrote {out.branch}: {len(out.dream.commits)} commit(s)")
    if out.dream.pushed:
        click.echo(f"pushed: {out.dream.pushed}")
    elif opts.push is None:
        click.echo(f"push it: git push --force-with-lease origin {out.branch}")
