"""`memgit status` and `memgit doctor`: the state of a workspace, and what is broken in it."""

from __future__ import annotations

import click

from memgit.cli.output import emit, notice, workspace_from

_SETTINGS = {
    "memgit.toml": "memgit.toml of the work tree",
    "kept": "the last committed memgit.toml, kept (this checkout has none)",
    "defaults": "defaults (no memgit.toml)",
}


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """How the index compares with HEAD."""
    from memgit.memory.conflicts import conflict_advice
    from memgit.memory.status import workspace_status

    data = workspace_status(workspace_from(ctx))
    if as_json:
        emit(data)
        return
    for path in data["conflicts"]:
        click.echo(f"conflict:     {conflict_advice(path)}")
    click.echo(f"workspace:    {data['workspace']}")
    click.echo(f"HEAD tree:    {data['head_tree']}  (commit {data['head_commit'] or 'none yet'})")
    click.echo(f"indexed tree: {data['indexed_tree'] or 'none'}")
    click.echo(f"settings:     {_SETTINGS.get(data.get('settings', ''), data.get('settings'))}")
    if data["needs_full_rebuild"]:
        click.echo(f"state:        {data['needs_full_rebuild']}")
    elif data["up_to_date"]:
        click.echo("state:        up to date")
    elif data["indexed_tree"] and not data["pending"] and not data["worktree_overlay"]:
        # The hooks skip commits that touch no memory file; the index answers for HEAD's memory.
        click.echo("state:        up to date for memory (later commits changed no memory file)")
    else:
        click.echo(f"state:        {len(data['pending'])} memory files changed since indexing; run `memgit index`")
    for path in data["pending"][:20]:
        click.echo(f"  pending {path}")
    counts = data["counts"]
    if counts:
        click.echo(
            f"contents:     {counts['files']} files, {counts['chunks']} chunks, {counts['vectors']} vectors "
            f"(model {data['model_id'] or 'none: BM25 only'})"
        )
    if data.get("pending_vectors"):
        click.echo(
            f"vectors:      {data['pending_vectors']} pending (text indexed by a capture, or where the model "
            "could not load); the next search, MCP call or hook fills them, `memgit index` all at once"
        )
    if data["recall_pending"]:
        click.echo(
            f"recalls:      {data['recall_pending']} recall line(s) not published; "
            "`memgit recalls publish` (or `remember --commit`) commits them for dreaming in CI"
        )
    if data.get("error"):
        click.echo(f"error:        {data['error']}")
    for item in data["skipped"]:
        click.echo(f"  skipped {item['path']}: {item['reason']}")
    for message in data.get("notices", []):
        notice(message)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check SQLite, FTS5, sqlite-vec, the model and the index; say how to fix what is broken."""
    from memgit.index.doctor import checks_to_dict, run_checks

    checks = run_checks(ctx.obj["cwd"])
    data = checks_to_dict(checks)
    if as_json:
        emit(data)
    else:
        for check in checks:
            mark = {"ok": "ok  ", "warn": "warn", "error": "FAIL"}[check.status]
            click.echo(f"[{mark}] {check.name}: {check.detail}")
            if check.fix and check.status != "ok":
                click.echo(f"       fix: {check.fix}")
    if not data["ok"]:
        ctx.exit(1)
