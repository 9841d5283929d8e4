"""What every command shares: JSON and notice output, progress bars, finding the workspace."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click


class Progress:
    """One phase's progress on stderr: a bar with rate and ETA on a terminal; off one (CI, a pipe,
    an agent) a line after 2 s and then every ~10 s (`MEMGIT_PROGRESS_EVERY` seconds; 0: at every
    step), and one when the phase ends, so nothing a user starts runs silently.
    `MEMGIT_NO_PROGRESS=1` silences both.

    Callers count their total before they start, and it never changes during the phase: the
    rate and the ETA come from the throughput measured since the first call. It remembers how
    far the work got (`done`), so an interrupted command can say what is kept.
    """

    #: Off a terminal: the first line after this long, then one every `LINE_EVERY` seconds.
    FIRST_LINE_AFTER = 2.0
    LINE_EVERY = 10.0

    def __init__(self, label: str) -> None:
        self.label = label
        quiet = bool(os.environ.get("MEMGIT_NO_PROGRESS"))
        self.tty = sys.stderr.isatty()
        self.enabled = not quiet and self.tty
        self.lines = not quiet and not self.tty
        self._drawn = False
        self.done = 0
        self.total = 0
        self._started: float | None = None
        self._first = 0
        self._last_line: float | None = None
        self._last_done = -1
        try:
            self._every = max(0.0, float(os.environ.get("MEMGIT_PROGRESS_EVERY", self.LINE_EVERY)))
        except ValueError:
            self._every = self.LINE_EVERY
        self._first_after = min(self.FIRST_LINE_AFTER, self._every)

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        now = time.monotonic()
        if self._started is None:
            self._started, self._first = now, done
        if total <= 0:
            return
        elapsed = now - self._started
        if self.enabled:
            sys.stderr.write("\r" + progress_line(self.label, done, total, elapsed, done - self._first))
            sys.stderr.flush()
            self._drawn = True
            if done >= total:
                self.finish()
        elif (
            self.lines
            and elapsed >= self._first_after
            and (self._last_line is None or now - self._last_line >= self._every)
        ):
            self._write_line(elapsed)
            self._last_line = now

    def _write_line(self, elapsed: float) -> None:
        line = progress_line(self.label, self.done, self.total, elapsed, self.done - self._first, width=0)
        sys.stderr.write(f"memgit: {line.rstrip()}\n")
        sys.stderr.flush()
        self._last_done = self.done

    def finish(self) -> None:
        if self._drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self._drawn = False
        elif self._last_line is not None and self._started is not None and self.done != self._last_done:
            self._write_line(time.monotonic() - self._started)  # where a logged phase ended
            self._last_line = None


def progress_line(label: str, done: int, total: int, elapsed: float, progressed: int, width: int = 30) -> str:
    """`label [#####-----] done/total  rate/s  ETA 3m05s` (`width=0`: no bar, for a log line):
    pure, so it is tested without a TTY."""
    filled = int(width * done / total) if total else width
    bar = f" [{'#' * filled}{'-' * (width - filled)}]" if width else ":"
    line = f"{label}{bar} {done}/{total}"
    if progressed > 0 and elapsed > 0:
        rate = progressed / elapsed
        left = (total - done) / rate
        line += f"  {rate:.1f}/s  ETA {_duration(left)}"
    return line + " " * 4  # wipes the tail of a longer earlier line


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


class FiniteRange(click.FloatRange):
    """click's FloatRange, which lets NaN through (every comparison with NaN is false): a NaN
    `--interval` made `site serve` spin and a NaN `--wait` reached the lock as an internal error."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number != number:  # NaN
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


def emit(data: Any) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=None)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (bytes that are not UTF-8): escaped, still JSON
        text = json.dumps(data, ensure_ascii=True, indent=None)
    click.echo(text)


def utf8_argument(value: str, what: str) -> str:
    """`value` when it is valid UTF-8. A command-line word that is not arrives with its bytes as
    surrogate escapes, which no index, ledger or JSON line can hold: refused here, up front."""
    from memgit.core.text import invalid_utf8_at

    if invalid_utf8_at(value) is not None:
        from memgit.errors import MemgitError

        raise MemgitError(f"{what} is not valid UTF-8; memgit reads and writes UTF-8 text only")
    return value


def notice(message: str) -> None:
    click.echo(f"memgit: notice: {message}", err=True)


def warn(message: str) -> None:
    click.echo(f"memgit: warning: {message}", err=True)


def cwd_of(ctx: click.Context | None = None) -> Path:
    """The directory memgit runs in: `-C DIR` when given, else the process's own."""
    ctx = ctx or click.get_current_context()
    obj = ctx.find_root().obj
    return Path(obj["cwd"]) if isinstance(obj, dict) and obj.get("cwd") else Path.cwd()


def workspace_from(
    ctx: click.Context | None = None, directory: Path | None = None, *, writes: str | None = None
) -> Any:
    """The workspace at `directory` (a command's own --directory) or at memgit's -C / the cwd, its
    memgit.toml's problems said once on stderr. A command that `writes` (what, for the message)
    stops while memgit.toml cannot be read at all; the others go on with the defaults."""
    from memgit.workspace import Workspace

    ws = Workspace.discover(directory or cwd_of(ctx))
    if writes is not None:
        ws.config.require_readable(writes)
    say_config_problems(ws.config)
    return ws


_SAID: set[str] = set()


def say_config_problems(config: Any) -> None:
    """Each problem of memgit.toml once per process, as a `memgit: warning:` line."""
    for problem in config.problems():
        if problem not in _SAID:
            _SAID.add(problem)
            suffix = f"; {BROKEN_CONFIG_NOTE}" if problem == config.broken else ""
            warn(problem + suffix)


#: What a read-only command says when memgit.toml cannot be read.
BROKEN_CONFIG_NOTE = (
    "every setting is at its default until it is fixed: read-only commands go on, commands that write "
    "wait (`memgit doctor` shows what to fix)"
)
