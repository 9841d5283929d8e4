"""Agent-facing commands: `memgit mcp`, `memgit context`, `memgit remember`, `memgit log`.

Each parses its options, calls one function (`mcp_server.serve`, `context.build_context`,
`writer.append_memory`) and prints the result. Errors are `MemgitError`s; `memgit.cli.main`
turns them into one `memgit: error: ...` line.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from memgit.cli.options import flag, option, options
from memgit.cli.output import workspace_from

_DIR_TYPE = click.Path(file_okay=False, exists=True, path_type=Path)
_DIR_HELP = "The memory workspace (default: the current directory, or memgit's own -C)."
_DIR_OPTION = click.option("-C", "directory", type=_DIR_TYPE, default=None, help=_DIR_HELP)


def _workspace(directory: Path | None, writes: str | None = None) -> Any:
    return workspace_from(directory=directory, writes=writes)


def _text_argument(words: tuple[str, ...]) -> str:
    """Words joined by spaces, as a shell would pass a sentence; `-` reads stdin (as UTF-8).

    Bytes that are not UTF-8 (from argv or stdin) arrive as lone surrogates, which the writer
    refuses before writing anything.
    """
    if words == ("-",):
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        return data.decode("utf-8", errors="surrogateescape")
    return " ".join(words)


def _now() -> datetime:
    """The current local time, or MEMGIT_NOW's (the clock `search` and `dream` use), validated
    the same way: an invalid MEMGIT_NOW is an error here too, never silently ignored."""
    from memgit.core.clock import resolve_now

    return resolve_now().astimezone()


@click.command("mcp")
@click.option(
    "--read-only",
    is_flag=True,
    help="Refuse memory_append (for sandboxed or group sessions); search and get still work.",
)
@click.option(
    "--scope",
    type=click.Choice(["private", "group"]),
    default=None,
    help="group: MEMORY.md and USER.md stay out of every tool (for group chats); default from [mcp] scope.",
)
@_DIR_OPTION
def mcp_command(read_only: bool, scope: str | None, directory: Path | None) -> None:
    """Serve this memory to an agent over MCP (stdio): search, get, append, status.

    Register it with an MCP host as the command `memgit mcp -C /path/to/memory`. The server keeps
    the index and model warm, indexes uncommitted edits and follows new commits while it runs.
    """
    from memgit.mcp.server import serve, server_options

    ws = _workspace(directory)
    options = server_options(ws.config.mcp, read_only=read_only, group=scope == "group")
    serve(ws, options)


@click.command("context")
@click.option(
    "--scope",
    type=click.Choice(["private", "group"]),
    default="private",
    show_default=True,
    help="private adds MEMORY.md and USER.md; group loads only the daily logs.",
)
@click.option("--date", "day", default=None, metavar="YYYY-MM-DD", help="Treat this day as today.")
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=None,
    metavar="TOKENS",
    help="Token budget (≈4 characters a token; default 8000). Cuts are announced in the output.",
)
@click.option(
    "--host",
    type=click.Choice(["claude-code", "codex", "generic"]),
    default="generic",
    show_default=True,
    help="Fit what this agent host passes whole (claude-code, codex: 9,000 characters); the budget is clamped to it.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object (text, sections, cuts).")
@_DIR_OPTION
def context_command(
    scope: str, day: str | None, budget: int | None, host: str, as_json: bool, directory: Path | None
) -> None:
    """Print the memory an agent loads at session start: today's and yesterday's logs, then (in the
    private scope) MEMORY.md's most used entries and USER.md, within a budget that never cuts silently."""
    from memgit.errors import MemgitError
    from memgit.mcp.server import server_options
    from memgit.recall.context import build_context

    try:
        when = date.fromisoformat(day) if day else None
    except ValueError:
        raise MemgitError(f"--date must look like 2026-02-06, got {day!r}") from None
    when = when or _now().date()
    ws = _workspace(directory)
    limit = budget or server_options(ws.config.mcp).context_budget
    result = build_context(ws, scope=scope, day=when, budget=limit, host=host)  # recorded as a use there
    for message in result.warnings:
        click.echo(f"memgit: warning: {message}", err=True)
    for row in result.redacted:
        click.echo(
            f"memgit: warning: {row['path']}:{row['line']}: {row['code']} shown as [redacted: {row['code']}]; "
            "remove the secret from memory (memgit lint names it)",
            err=True,
        )
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    click.echo(result.text, nl=False)
    for section in result.cuts:
        ranges = ", ".join(f"{first}-{last}" for first, last in section.omitted)
        click.echo(f"memgit: notice: cut {section.path} lines {ranges} to fit {result.budget} tokens", err=True)


@dataclass(frozen=True)
class AppendOptions:
    """The options `memgit remember` and `memgit log` share."""

    commit: bool = flag("--commit", help="Commit just that file with git, so the repository's hooks (indexing) run.")
    as_json: bool = flag("--json", help="Print a JSON report.")
    directory: Path | None = option("-C", type=_DIR_TYPE, help=_DIR_HELP)


def _append(text: str, *, long_term: bool, opts: AppendOptions) -> None:
    from memgit.memory.append import append_memory

    now = _now()
    ws = _workspace(opts.directory, writes="appending to memory")
    result = append_memory(ws, text, long_term=long_term, commit=opts.commit, now=now)
    if opts.as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    for message in result.notices:
        click.echo(f"memgit: warning: {message}", err=True)
    where = f"{result.path}:{result.start_line}-{result.end_line}"
    suffix = f" (committed {result.commit[:12]})" if result.commit else ""
    click.echo(f"appended to {where}{suffix}")


_JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")


class _TextCommand(click.Command):
    """A command whose words are a note: only this command's own options are options.

    Notes are usually Markdown bullets (`memgit log "- Call Bob"`); click would read "- Call Bob"
    as a cluster of short options (`-C all Bob`, or `-h` for help). Here any argument that is
    not exactly one of the command's options is text, with no quoting tricks needed.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        flags: set[str] = set()
        valued: set[str] = set()
        for param in self.get_params(ctx):
            if isinstance(param, click.Option):
                names = {*param.opts, *param.secondary_opts}
                (flags if param.is_flag or param.count else valued).update(names)
        options: list[str] = []
        words: list[str] = []
        remaining = iter(args)
        for arg in remaining:
            if arg == "--":
                words.extend(remaining)
                break
            if arg in flags:
                options.append(arg)
            elif arg in valued:
                options += [arg, next(remaining, "")]
            elif arg.startswith("--") and arg.split("=", 1)[0] in valued:
                options.append(arg)
            else:
                words.append(arg)
        return super().parse_args(ctx, [*options, "--", *words])


@click.command("remember", cls=_TextCommand)
@click.argument("text", nargs=-1, required=True)
@click.option("--long-term", is_flag=True, help="Append to MEMORY.md instead of today's daily log.")
@options(AppendOptions)
def remember_command(text: tuple[str, ...], long_term: bool, opts: AppendOptions) -> None:
    """Append TEXT to today's daily log under a ## HH:MM heading (`-` reads stdin).

    The text passes the same lint as the pre-commit hook first (secrets are refused);
    control characters and oversized text are refused; earlier lines are never rewritten.
    """
    _append(_text_argument(text), long_term=long_term, opts=opts)


@click.command("log", cls=_TextCommand)
@click.argument("text", nargs=-1, required=True)
@options(AppendOptions)
def log_command(text: tuple[str, ...], opts: AppendOptions) -> None:
    """Append TEXT to today's daily log (same as `memgit remember` without --long-term)."""
    _append(_text_argument(text), long_term=False, opts=opts)


@click.command("capture")
@click.option(
    "--transcript",
    "transcript",
    required=True,
    type=click.Path(path_type=Path, readable=False),  # the capture says why it cannot read it, in one line
    help="The host's transcript file (JSONL, or a JSON array of messages).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "claude-code", "openai", "generic"]),
    default="auto",
    show_default=True,
    help="The transcript's format; auto looks at its records.",
)
@click.option(
    "--session", default=None, metavar="ID", help="Session id (default: the transcript's own, or its file name)."
)
@click.option(
    "--subagents",
    is_flag=True,
    help="Also keep Claude Code's sub-agent threads (<session>/subagents/*.jsonl beside the transcript); "
    "they are left out otherwise.",
)
@_JSON_OPTION
@_DIR_OPTION
def capture_command(
    transcript: Path, fmt: str, session: str | None, subagents: bool, as_json: bool, directory: Path | None
) -> None:
    """Keep an agent session as memory: its new user and assistant turns (one line per tool call)
    appended to sessions/YYYY-MM-DD-<session>.jsonl, secrets redacted, committed and indexed.

    Run it again as the session goes on: only turns not captured yet are added.
    """
    from memgit.memory.capture import capture_transcript

    if session is not None and not session.strip():
        from memgit.errors import MemgitError

        raise MemgitError("--session is empty: give the session an id, or leave the option out")
    now = _now()
    ws = _workspace(directory, writes="`memgit capture`")
    from memgit.cli.output import Progress

    progress = Progress("capture: turns read for secrets, then stored")
    try:
        result = capture_transcript(
            ws, transcript, fmt=fmt, session=session, now=now, subagents=subagents, progress=progress
        )
    finally:
        progress.finish()
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    for message in result.notices:
        click.echo(f"memgit: warning: {message}", err=True)
    if result.added:
        where = f"{result.path}:{result.start_line}-{result.end_line}"
        suffix = f" (committed {result.commit[:12]})" if result.commit else ""
        said = result.added - result.tool_calls
        tools = (
            f" and {result.tool_calls} tool call{'s' if result.tool_calls != 1 else ''}" if result.tool_calls else ""
        )
        click.echo(
            f"captured {said} new turn{'s' if said != 1 else ''}{tools} of session {result.session} into {where}{suffix}"
        )
    else:
        click.echo(f"nothing new to capture in session {result.session}")
    if result.already:
        click.echo(f"{result.already} turn{'s' if result.already != 1 else ''} already captured")
    if result.copied:
        click.echo(
            f"{result.copied} turn{'s' if result.copied != 1 else ''} copied from another session (a fork) not stored again"
        )
    for code, count in result.redacted.items():
        click.echo(f"redacted {count} line{'s' if count != 1 else ''} ({code})")
