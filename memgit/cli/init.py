"""`memgit init`: make (or adopt) a git repository as a memory workspace."""

from __future__ import annotations

from pathlib import Path

import click

from memgit.cli.output import emit


@click.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--hooks", "with_hooks", is_flag=True, help="Also install the plain git hooks.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.pass_context
def init(ctx: click.Context, directory: Path | None, with_hooks: bool, as_json: bool) -> None:
    """Make (or adopt) a git repository as a memory workspace."""
    from memgit.memory.init import init_workspace

    target = directory if directory is not None else ctx.obj["cwd"]
    if not target.is_absolute():
        target = ctx.obj["cwd"] / target
    # Like `git init` and `git -C DIR init`: a named directory gets its own repository.
    explicit = directory is not None or ctx.obj.get("cwd_given", False)
    report = init_workspace(target, explicit=explicit)
    if with_hooks:
        from memgit.githooks.install import install_hooks
        from memgit.workspace import Workspace

        report["hooks"] = list(install_hooks(Workspace.discover(Path(report["root"]))).installed)
    if as_json:
        emit(report)
        return
    verb = "Adopted" if report["adopted"] else "Created"
    click.echo(f"{verb} memory workspace at {report['root']}")
    for path in report["created"]:
        click.echo(f"  created {path}")
    if report.get("hooks"):
        click.echo(f"  installed hooks: {', '.join(report['hooks'])}")
    click.echo("Next: add notes under memory/, commit, then `memgit index` and `memgit search QUERY`.")
