"""`memgit lint`, `memgit hooks install|uninstall|status` and `memgit hook NAME`.

Only click is imported here at module level: `memgit hook` runs on every commit, and its no-op
path must not pay for pygit2, SQLite or numpy. Each command imports its service when it runs.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from memgit.cli.output import cwd_of as _cwd
from memgit.cli.output import emit as _emit
from memgit.cli.output import workspace_from
from memgit.githooks.types import HOOK_TYPES as _HOOK_TYPES


@click.command("lint")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--staged", is_flag=True, help="Lint what is staged for the next commit (the pre-commit hook).")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--json", "as_json", is_flag=True, help="Print findings as JSON.")
@click.pass_context
def lint_command(ctx: click.Context, paths: tuple[str, ...], staged: bool, strict: bool, as_json: bool) -> None:
    """Check memory for secrets, prompt injection, rewritten past daily logs and broken files.

    Findings print as `path:line: CODE message`; exit 1 when any is an error. A line containing
    `memgit: allow` (or `memgit: allow CODE`) is exempt. Rules are configured in memgit.toml [lint].
    """
    from memgit.core.lint import summarize
    from memgit.memory.lint import lint_workspace

    cwd = _cwd(ctx)
    ws = workspace_from(ctx)
    report = lint_workspace(ws, paths, staged=staged, cwd=cwd)
    failed = bool(report.errors) or (strict and bool(report.findings))
    if as_json:
        _emit(report.to_dict() | {"ok": not failed})
    else:
        for finding in report.findings:
            click.echo(finding.format())
        if report.findings:
            hint = " Fix them, or add `memgit: allow CODE` to a line that is fine." if failed else ""
            click.echo(f"memgit lint: {summarize(report.findings)} in {report.files_checked} files.{hint}", err=True)
    if failed:
        ctx.exit(1)


@click.group("hooks")
def hooks_group() -> None:
    """Install, remove or inspect memgit's plain git hooks (without the pre-commit framework)."""


_hook_type_option = click.option(
    "-t",
    "--hook-type",
    "hook_types",
    multiple=True,
    type=click.Choice(_HOOK_TYPES),
    help="Only this hook type (repeatable). Default: all of them.",
)
_hooks_path_option = click.option(
    "--use-hooks-path",
    is_flag=True,
    help="core.hooksPath is set: install into that directory anyway (affects every repo using it).",
)


def _print_report(report: Any, as_json: bool) -> None:
    if as_json:
        _emit(report.to_dict())
        return
    for action in report.actions:
        click.echo(action)
    click.echo(f"hooks directory: {report.hooks_dir}")
    if report.hooks_path:
        click.echo(f"core.hooksPath: {report.hooks_path}")
    for hook in report.hooks:
        click.echo(f"  {hook.name:14} {hook.describe()}")


@hooks_group.command("install")
@_hook_type_option
@_hooks_path_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.pass_context
def hooks_install(ctx: click.Context, hook_types: tuple[str, ...], use_hooks_path: bool, as_json: bool) -> None:
    """Write memgit's hooks; an existing hook is kept as NAME.legacy and still runs first."""
    from memgit.githooks.install import HOOK_TYPES, install_hooks

    ws = workspace_from(ctx)
    report = install_hooks(ws, hook_types or HOOK_TYPES, use_hooks_path=use_hooks_path)
    _print_report(report, as_json)


@hooks_group.command("uninstall")
@_hook_type_option
@_hooks_path_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.pass_context
def hooks_uninstall(ctx: click.Context, hook_types: tuple[str, ...], use_hooks_path: bool, as_json: bool) -> None:
    """Remove memgit's hooks and put back the hooks they had set aside."""
    from memgit.githooks.install import HOOK_TYPES, uninstall_hooks

    ws = workspace_from(ctx)
    report = uninstall_hooks(ws, hook_types or HOOK_TYPES, use_hooks_path=use_hooks_path)
    _print_report(report, as_json)


@hooks_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.pass_context
def hooks_status_command(ctx: click.Context, as_json: bool) -> None:
    """Show which hooks are memgit's, which are someone else's, and which interpreter they run."""
    from memgit.githooks.install import hooks_status

    _print_report(hooks_status(workspace_from(ctx)), as_json)


@click.command(
    "hook",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.argument("name")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def hook_command(ctx: click.Context, name: str, args: tuple[str, ...]) -> None:
    """The entry point git hooks call: `memgit hook post-commit`, `memgit hook index`, ...

    NAME is a git hook type (pre-commit, post-commit, post-merge, post-checkout, post-rewrite) or
    the pre-commit framework's `index` / `lint`; ARGS are what git passed. Index hooks always exit
    0 (at most one warning line); pre-commit exits 1 when lint finds an error.
    """
    from memgit.githooks.run import run_hook

    stdin = None
    if name == "post-rewrite" and not sys.stdin.isatty():
        stdin = sys.stdin.read()
    code = run_hook(name, args, stdin, cwd=_cwd(ctx))
    if code:
        ctx.exit(code)
