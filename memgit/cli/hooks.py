"""`memgit lint`, `memgit hooks install|uninstall|status` and `memgit hook NAME`.

Only click is imported here at module level: `memgit hook` runs on every commit, and its no-op
path must not pay for pygit2, SQLite or numpy. Each command imports its service when it runs.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import click

from memgit.cli.options import choice, flag, option, options, switch
from memgit.cli.output import cwd_of as _cwd
from memgit.cli.output import emit as _emit
from memgit.cli.output import workspace_from
from memgit.githooks.types import HOOK_TYPES as _HOOK_TYPES


class Judged(Enum):
    """What `memgit lint` judges: the work tree, the next commit, or the work tree and every
    commit made already (its authors, committers and messages)."""

    TREE = "tree"
    STAGED = "staged"
    HISTORY = "history"


@dataclass(frozen=True)
class LintOptions:
    """The options of `memgit lint` (its PATHS stay an argument)."""

    judged: Judged = choice(
        Judged.TREE,
        switch("--staged", Judged.STAGED, help="Lint what is staged for the next commit (the pre-commit hook)."),
        switch(
            "--history",
            Judged.HISTORY,
            help="Also check the authors, committers and messages of every commit in HEAD's history for secrets "
            "(with --staged: the staged files only).",
        ),
    )
    every_line: bool = flag(
        "--all",
        help="Judge every line of the files; --staged alone judges only the lines the commit adds or changes.",
    )
    strict: bool = flag("--strict", help="Exit 1 on warnings too.")
    as_json: bool = flag("--json", help="Print findings as JSON.")


@click.command("lint")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@options(LintOptions)
@click.pass_context
def lint_command(ctx: click.Context, paths: tuple[str, ...], opts: LintOptions) -> None:
    """Check memory for secrets, prompt injection, rewritten past daily logs and broken files.

    Findings print as `path:line: CODE message`; exit 1 when any is an error. A line containing
    `memgit: allow` (or `memgit: allow CODE`) is exempt. Rules are configured in memgit.toml [lint].
    With --staged (the pre-commit hook) a line rule judges only added and changed lines; without
    it, or with --all, every line is checked. --history also reads every commit's author,
    committer and message (printed as `COMMIT where: CODE message`). Documentation placeholders (`<token>`, `passwort`,
    `user:pass@host`) are look-alikes, not secrets.
    """
    from memgit.lint.files import lint_history, lint_workspace
    from memgit.lint.rules import summarize

    cwd = _cwd(ctx)
    ws = workspace_from(ctx)
    staged = opts.judged is Judged.STAGED
    report = lint_workspace(ws, paths, staged=staged, cwd=cwd, every_line=opts.every_line)
    if opts.judged is Judged.HISTORY:
        report.findings.extend(lint_history(ws))
    failed = bool(report.errors) or (opts.strict and bool(report.findings))
    if opts.as_json:
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


@dataclass(frozen=True)
class HooksOptions:
    """The options of `memgit hooks install` and `memgit hooks uninstall`."""

    hook_types: tuple[str, ...] = option(
        "-t",
        "--hook-type",
        default=(),
        multiple=True,
        type=click.Choice(_HOOK_TYPES),
        help="Only this hook type (repeatable). Default: all of them.",
    )
    use_hooks_path: bool = flag(
        "--use-hooks-path",
        help="core.hooksPath is set: work in that directory anyway (affects every repo using it).",
    )
    agent: str | None = option(
        "--agent",
        type=click.Choice(["claude-code", "codex"]),
        help="Instead of git hooks: the agent host's SessionStart, PreCompact and SessionEnd hooks "
        "(claude-code: .claude/settings.local.json by default; codex: ~/.codex/hooks.json).",
    )
    project: Path | None = option(
        "--project",
        type=click.Path(file_okay=False, path_type=Path),
        help="With --agent: the project folder the agent runs in (default: the memory workspace itself).",
    )
    settings: str | None = option(
        "--settings",
        type=click.Choice(["local", "project", "user"]),
        help="With --agent: which settings file. local (claude-code's default): personal and git-ignored; "
        "project: committed, a portable command (memgit on PATH); user: ~/.claude or ~/.codex (codex's default).",
    )
    as_json: bool = flag("--json", help="Print a JSON report.")


def _agent_hooks(ctx: click.Context, agent: str, opts: HooksOptions, *, install: bool) -> None:
    from memgit.githooks.claude_settings import install_agent_hooks, uninstall_agent_hooks

    ws = workspace_from(ctx)
    project, settings = opts.project, opts.settings
    if project is not None and not project.is_absolute():
        project = _cwd(ctx) / project
    if install:
        report = install_agent_hooks(ws, agent, project=project, settings=settings)
    else:
        report = uninstall_agent_hooks(ws, agent, project=project, settings=settings)
    if opts.as_json:
        _emit(report.to_dict())
        return
    for action in report.actions:
        click.echo(action)
    click.echo(f"settings: {report.settings}")
    if report.command:
        click.echo(f"command: {report.command}")


@hooks_group.command("install")
@options(HooksOptions)
@click.pass_context
def hooks_install(ctx: click.Context, opts: HooksOptions) -> None:
    """Write memgit's hooks; an existing hook is kept as NAME.legacy and still runs first.

    With --agent claude-code (or codex), merge memgit's SessionStart, PreCompact and SessionEnd hooks
    into the host's settings instead: --settings local (Claude Code's default,
    .claude/settings.local.json), project (.claude/settings.json or .codex/hooks.json, a portable
    command) or user (~/.claude/settings.json, ~/.codex/hooks.json). Other settings and hooks are
    kept; run it again safely.
    """
    if opts.agent is not None:
        _agent_hooks(ctx, opts.agent, opts, install=True)
        return
    if opts.project is not None or opts.settings is not None:
        raise click.UsageError("--project and --settings go with --agent")
    from memgit.githooks.install import install_hooks

    ws = workspace_from(ctx)
    report = install_hooks(ws, opts.hook_types or _HOOK_TYPES, use_hooks_path=opts.use_hooks_path)
    _print_report(report, opts.as_json)


@hooks_group.command("uninstall")
@options(HooksOptions)
@click.pass_context
def hooks_uninstall(ctx: click.Context, opts: HooksOptions) -> None:
    """Remove memgit's hooks and put back the hooks they had set aside (--agent: the agent's hooks)."""
    if opts.agent is not None:
        _agent_hooks(ctx, opts.agent, opts, install=False)
        return
    if opts.project is not None or opts.settings is not None:
        raise click.UsageError("--project and --settings go with --agent")
    from memgit.githooks.install import uninstall_hooks

    ws = workspace_from(ctx)
    report = uninstall_hooks(ws, opts.hook_types or _HOOK_TYPES, use_hooks_path=opts.use_hooks_path)
    _print_report(report, opts.as_json)


@hooks_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.pass_context
def hooks_status_command(ctx: click.Context, as_json: bool) -> None:
    """Show which hooks are memgit's, which are someone else's, and which interpreter they run
    (and memgit's Claude Code hooks in the workspace's .claude/settings.json, if any)."""
    from memgit.githooks.claude_settings import installed_events
    from memgit.githooks.install import hooks_status

    ws = workspace_from(ctx)
    report = hooks_status(ws)
    claude = installed_events(ws.root)
    if as_json:
        _emit(report.to_dict() | {"agents": {"claude-code": claude}})
        return
    _print_report(report, as_json)
    if claude:
        click.echo(f"claude-code: memgit's {', '.join(claude)} hooks in .claude/settings(.local).json")


@click.command(
    "hook",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.argument("name")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option(
    "--workspace",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="With claude-code or codex: the memory workspace (default: the session's folder); it may also "
    "follow NAME, as `memgit hooks install --agent` writes it.",
)
@click.pass_context
def hook_command(ctx: click.Context, name: str, args: tuple[str, ...], workspace: Path | None) -> None:
    """The entry point git hooks call: `memgit hook post-commit`, `memgit hook index`, ...

    NAME is a git hook type (pre-commit, post-commit, post-merge, post-checkout, post-rewrite),
    the pre-commit framework's `index` / `lint`, or `claude-code` / `codex` (the agent host's
    SessionStart, PreCompact and SessionEnd hooks: its hook JSON on stdin; `--workspace DIR` names
    the memory);
    ARGS are what git passed. Index and agent hooks always exit 0 (at most one warning line);
    pre-commit exits 1 when lint finds an error.
    """
    if name in ("claude-code", "codex"):
        ctx.exit(_agent_hook(ctx, name, args, workspace))
    from memgit.githooks.run import run_hook

    code = run_hook(name, args, cwd=_cwd(ctx))
    if code:
        ctx.exit(code)


def _agent_hook(ctx: click.Context, host: str, args: tuple[str, ...], workspace: Path | None = None) -> int:
    """`memgit hook claude-code|codex [--workspace DIR]`: always 0, whatever goes wrong (one warning,
    on stderr and in the host's visible `systemMessage`)."""
    from memgit.githooks.claude_code import hook_output, prefix, run

    def refuse(message: str) -> int:
        click.echo(f"{prefix(host)}{message}; nothing was done", err=True)
        click.echo(hook_output(None, [f"{message}; nothing was done"]), nl=False)
        return 0

    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in ("--workspace", "-C") and rest:
            workspace = Path(rest.pop(0))
        elif arg.startswith("--workspace="):
            workspace = Path(arg.partition("=")[2])
        else:
            return refuse(f"unknown argument {arg!r} (it takes --workspace DIR)")
    obj = ctx.find_root().obj
    if workspace is None and isinstance(obj, dict) and obj.get("cwd_given"):
        workspace = _cwd(ctx)
    if sys.stdin is None or sys.stdin.isatty():
        return refuse("expects the agent host's hook JSON on stdin")
    raw = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    from memgit.errors import MemgitError

    try:
        from memgit.core.clock import resolve_now

        now = resolve_now().astimezone()
    except MemgitError as exc:
        return refuse(str(exc))
    return run(raw, out=sys.stdout, err=sys.stderr, workspace=workspace, now=now, host=host)
