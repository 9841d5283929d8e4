"""What every command shares: JSON and notice output, progress bars, finding the workspace."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click


class Progress:
    """A minimal progress bar on stderr when it is a terminal; silent otherwise."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty() and not os.environ.get("MEMGIT_NO_PROGRESS")
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        width = 30
        filled = int(width * done / total)
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(f"\r{self.label} [{bar}] {done}/{total}")
        sys.stderr.flush()
        self._drawn = True
        if done >= total:
            self.finish()

    def finish(self) -> None:
        if self._drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self._drawn = False


def emit(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=None))


def notice(message: str) -> None:
    click.echo(f"memgit: notice: {message}", err=True)


def warn(message: str) -> None:
    click.echo(f"memgit: warning: {message}", err=True)


def cwd_of(ctx: click.Context | None = None) -> Path:
    """The directory memgit runs in: `-C DIR` when given, else the process's own."""
    ctx = ctx or click.get_current_context()
    obj = ctx.find_root().obj
    return Path(obj["cwd"]) if isinstance(obj, dict) and obj.get("cwd") else Path.cwd()


def workspace_from(ctx: click.Context | None = None, directory: Path | None = None) -> Any:
    """The workspace at `directory` (a command's own --directory) or at memgit's -C / the cwd."""
    from memgit.workspace import Workspace

    return Workspace.discover(directory or cwd_of(ctx))
