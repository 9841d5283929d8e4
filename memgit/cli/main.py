"""The `memgit` command: parse, call one service, print text or `--json`. No logic lives here.

Imports of services happen inside commands so that `memgit hook` (run by git on every commit)
starts in a few tens of milliseconds.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import click

from memgit import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memgit")
@click.option(
    "-C",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Run as if memgit was started in this directory.",
)
@click.pass_context
def cli(ctx: click.Context, directory: Path | None) -> None:
    """memgit: git-native memory for AI agents (index, search, hooks, MCP)."""
    ctx.ensure_object(dict)
    cwd = directory or Path.cwd()
    if directory is not None and not directory.is_dir():
        raise click.BadParameter(f"{directory} is not a directory", param_hint="-C")
    ctx.obj["cwd"] = cwd
    ctx.obj["cwd_given"] = directory is not None


def _register_optional() -> None:
    """Commands that live in their own modules (one capability each)."""
    import importlib

    for module_name, names in (
        ("memgit.cli.init", ("init",)),
        ("memgit.cli.index", ("index",)),
        ("memgit.cli.search", ("search", "get")),
        ("memgit.cli.status", ("status", "doctor")),
        ("memgit.cli.model", ("model_group",)),
        ("memgit.cli.hooks", ("lint_command", "hooks_group", "hook_command")),
        ("memgit.cli.agent", ("mcp_command", "context_command", "remember_command", "log_command", "capture_command")),
        ("memgit.cli.site", ("site_group",)),
        ("memgit.cli.dream", ("dream_command",)),
        ("memgit.cli.recalls", ("recalls_group",)),
        ("memgit.cli.ci", ("ci_group",)),
    ):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        for name in names:
            command = getattr(module, name, None)
            if command is not None:
                cli.add_command(command)


_register_optional()


def main(argv: list[str] | None = None) -> None:
    """Entry point: every failure becomes one `memgit: error: ...` line and a non-zero exit.

    Called as the program (`argv` None: the console script, `python -m memgit`), it ends the
    process itself (`_end`); called with arguments, it returns or raises SystemExit as a library
    call should."""
    try:
        _main(argv)
    except SystemExit as exc:
        if argv is None:
            _end(exc)
        raise
    if argv is None:
        _end(SystemExit(0))


def _end(ending: SystemExit) -> None:
    """End the process at once, without the interpreter's teardown, when nothing else runs.

    The teardown frees every module, numpy, SQLite, llama.cpp's model: 10-30 ms at the end of
    each command (a tenth of a search, a sixth of a one-file index update) for memory the system
    takes back anyway. Nothing of memgit's waits for it: files are closed by `with` blocks (ruff's
    SIM115 holds every `open` to one) and connections by their owners before a command returns.
    What Python would still run is run: the `atexit` functions (libraries' clean-up: temporary
    folders, logging) and the standard streams' flush. Another live thread, an exit status that
    is not a number, or a stream that cannot flush ends the usual way; so does a run under a
    profiler or a tracer (`python -m cProfile`, which writes its report after the program)."""
    if threading.active_count() > 1 or not isinstance(ending.code, int | None):
        return
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # a closed or broken pipe: the usual exit path reports it
    os._exit(ending.code or 0)


def _main(argv: list[str] | None) -> None:
    from memgit.errors import MemgitError

    # NO_COLOR (no-color.org): present and not empty, no styling even on a terminal.
    color = False if os.environ.get("NO_COLOR") else None
    try:
        result = cli.main(args=argv, prog_name="memgit", standalone_mode=False, color=color)
    except MemgitError as exc:  # a ConfigError's problems, all of them, on its one line
        click.echo(f"memgit: error: {exc}", err=True)
        sys.exit(1)
    except click.exceptions.Abort:
        click.echo("memgit: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("memgit: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:  # one line, usage errors too, with where to read more
        hint = f" (see `{exc.ctx.command_path} -h`)" if isinstance(exc, click.UsageError) and exc.ctx else ""
        message = " ".join(exc.format_message().split())
        click.echo(f"memgit: error: {message}{hint}", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:  # the system refused: a full disk, a read-only folder, a file in the way
        if os.environ.get("MEMGIT_DEBUG"):
            raise
        _say_error(os_error_line(exc))
        sys.exit(1)
    except Exception as exc:
        if os.environ.get("MEMGIT_DEBUG"):
            raise
        click.echo(
            f"memgit: error: internal error: {type(exc).__name__}: {exc} (set MEMGIT_DEBUG=1 for a traceback)",
            err=True,
        )
        sys.exit(1)
    if isinstance(result, int) and result:
        sys.exit(result)


def os_error_line(exc: OSError) -> str:
    """`cannot use PATH: reason`, in git's quoting for a name that is not UTF-8; pure."""
    from memgit.core.paths import path_key

    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is None:
        return f"the system refused: {reason}"
    where = path_key(os.fsdecode(exc.filename))
    if exc.filename2 is not None:
        return f"cannot move {where} to {path_key(os.fsdecode(exc.filename2))}: {reason}"
    return f"cannot use {where}: {reason}"


def _say_error(line: str) -> None:
    import contextlib

    with contextlib.suppress(OSError):  # stderr itself is gone; the exit status still says it failed
        click.echo(f"memgit: error: {line}", err=True)
