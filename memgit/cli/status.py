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
            f"(model {data['model_id'] or _unindexed_model(data)})"
        )
    else:
        click.echo(f"model:        {_unindexed_model(data)}")
    fill = data.get("fill")
    if data.get("pending_vectors") and fill:
        click.echo(
            f"vectors:      {data['pending_vectors']} pending; memgit (pid {int(fill['pid'])}) is filling them: "
            f"{int(fill['filled'])} of {int(fill['total'])} published{_fill_eta(fill)}; searches use each batch as it lands"
        )
    elif data.get("pending_vectors"):
        click.echo(
            f"vectors:      {data['pending_vectors']} pending (text written first, or where the model could not "
            "load); `memgit index` embeds them with progress (a search, the MCP server or a hook's fill also do)"
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


def _unindexed_model(data: dict[str, object]) -> str:
    """What a status without an indexed model says: the configured one, by name (BM25 only when
    the configuration asks for no model)."""
    configured = data.get("model_configured")
    if not configured or configured == "none":
        return "none: BM25 only"
    return f"{configured} (configured; the index takes it at the next `memgit index` where it loads)"


def _fill_eta(fill: dict[str, float]) -> str:
    import time

    spent = time.time() - fill["started"]
    if fill["filled"] <= 0 or spent <= 0:
        return ""
    left = (fill["total"] - fill["filled"]) / (fill["filled"] / spent)
    return f", about {int(left // 60)} min left" if left >= 60 else f", about {int(left)} s left"


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
