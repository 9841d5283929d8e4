"""Running the memgit CLI as a subprocess (``<python> -m memgit ...``) for the benchmarks."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent


def default_python() -> str:
    venv = REPO_ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


class MemgitFailed(SystemExit):
    """A memgit subprocess exited non-zero (the message holds the command and its stderr)."""


def memgit_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The caller's environment (MEMGIT_CACHE_DIR etc. pass through) plus ``extra``."""
    env = dict(os.environ)
    # Benchmarks measure search, not the recall ledger: recording is off unless a bench turns it on.
    env.setdefault("MEMGIT_NO_RECALL", "1")
    env.update(extra or {})
    return env


def show_command(cmd: Sequence[str], cwd: Path, extra_env: Mapping[str, str] | None = None) -> str:
    prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in (extra_env or {}).items())
    line = shlex.join(list(cmd))
    return f"(cd {shlex.quote(str(cwd))} && {prefix + ' ' if prefix else ''}{line})"


def run_memgit(
    python: str,
    args: Sequence[str],
    cwd: Path,
    extra_env: Mapping[str, str] | None = None,
    capture: bool = True,
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``python -m memgit ARGS`` in ``cwd``; returns the process and its wall time in seconds."""
    cmd = [python, "-m", "memgit", *args]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=memgit_env(extra_env), text=True, capture_output=capture, check=False)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise MemgitFailed(
            f"bench: memgit failed (exit {proc.returncode}): {show_command(cmd, cwd, extra_env)}\n"
            f"{(proc.stderr or '').strip()}"
        )
    return proc, elapsed


def parse_json_lines(stdout: str) -> list[dict[str, Any]]:
    """One JSON object per non-empty line (what ``memgit search --batch --json`` prints)."""
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]
