"""`memgit ci github|gitlab`: write the CI workflow that dreams on a schedule and proposes the result."""

from __future__ import annotations

from typing import Any

import click

from memgit.cli.output import emit, workspace_from


def _ci_options(func: Any) -> Any:
    for decorator in reversed(
        [
            click.option("--pages", is_flag=True, help="Also build the memory site (public scope) and publish it."),
            click.option("--cron", default=None, help="Schedule, five cron fields (default: '17 3 * * *')."),
            click.option(
                "--install",
                default=None,
                help="pip requirement CI installs memgit with (default: this version, pinned; kept in a "
                "requirements file beside the workflow that you may edit).",
            ),
            click.option("--python", "python_version", default="3.12", show_default=True, help="Python in CI."),
            click.option("--dream-branch", default=None, help="Branch the proposals are pushed to (one PR/MR)."),
            click.option("--default-branch", default=None, help="Branch dreaming reads (default: the current one)."),
            click.option("--force", is_flag=True, help="Replace a workflow file that differs."),
            click.option("--json", "as_json", is_flag=True, help="Print a JSON report."),
        ]
    ):
        func = decorator(func)
    return func


@click.group("ci")
def ci_group() -> None:
    """Write CI workflows: scheduled dreaming proposed as a pull/merge request (and the site)."""


def _run(kind: str, ctx: click.Context, as_json: bool, force: bool, **values: Any) -> None:
    from memgit.dream import ci
    from memgit.git.commits import head_branch

    ws = workspace_from(ctx)
    options = ci.CiOptions(
        pages=values["pages"],
        cron=values["cron"] or ci.DEFAULT_CRON,
        install=values["install"],
        python=values["python_version"],
        dream_branch=values["dream_branch"] or ci.DEFAULT_BRANCH,
        default_branch=values["default_branch"] or head_branch(ws.git) or "main",
    )
    writer = ci.write_github if kind == "github" else ci.write_gitlab
    result = writer(ws.root, options, force=force)
    if as_json:
        emit(result.to_dict())
        return
    for rel in result.written:
        click.echo(f"wrote {rel}")
    for rel in result.unchanged:
        click.echo(f"unchanged {rel}")
    for hint in result.hints:
        click.echo(f"next: {hint}")


@ci_group.command("github")
@_ci_options
@click.pass_context
def ci_github(ctx: click.Context, /, as_json: bool, force: bool, **values: Any) -> None:
    """Write .github/workflows/memgit-dream.yml (schedule + manual run, one pull request)."""
    _run("github", ctx, as_json, force, **values)


@ci_group.command("gitlab")
@_ci_options
@click.pass_context
def ci_gitlab(ctx: click.Context, /, as_json: bool, force: bool, **values: Any) -> None:
    """Write .gitlab/memgit-dream.gitlab-ci.yml (scheduled pipeline, one merge request)."""
    _run("gitlab", ctx, as_json, force, **values)


__all__ = ["ci_group"]
