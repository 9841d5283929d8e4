"""Small helpers for tests: real git, the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from tests.cli_launcher import Launcher

#: Starts this test process's memgit commands (one launcher per xdist worker, made on first use).
LAUNCHER = Launcher()

#: The repository's top folder and the tests' own folder (fixtures, snapshots, node tools).
TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent

#: The test session's clock, fixed when it starts (and handed to xdist workers through the
#: environment): every test's memgit process sees it as MEMGIT_NOW (tests/conftest.py), so a test
#: that takes "today" from here and a memgit process that takes it from the clock agree, even when
#: the run crosses midnight.
NOW = os.environ.get("MEMGIT_TEST_NOW") or datetime.now(UTC).replace(microsecond=0).isoformat()
#: Today as memgit sees it under NOW (memgit.core.clock.today: the day NOW names).
TODAY: date = datetime.fromisoformat(NOW).date()


def git(repo: Path, *args: str, check: bool = True, input: str | None = None) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False, input=input)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}{proc.stdout}")
    return proc.stdout


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def commit_all(repo: Path, message: str = "update") -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def memgit(
    cwd: Path, *args: str, env: dict[str, str] | None = None, input: str | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run the real CLI as a separate process, as a user or a hook would (forked from a launcher
    that has imported memgit already, or a new interpreter: tests/cli_launcher.py)."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return LAUNCHER.run([sys.executable, "-m", "memgit", *args], cwd, full_env, input, timeout)


def memgit_json(cwd: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    proc = memgit(cwd, *args, "--json", env=env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return json.loads(proc.stdout)


def assert_clean_error(proc: subprocess.CompletedProcess[str], needle: str = "") -> None:
    """A user-facing failure: non-zero exit, one `memgit: error:` line, no traceback."""
    assert proc.returncode != 0, proc.stdout
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "memgit: error:" in proc.stderr, proc.stderr
    if needle:
        assert needle.lower() in proc.stderr.lower(), proc.stderr


def wait_until(condition: Callable[[], object], what: str, timeout: float = 60) -> None:
    """Wait for `condition` to hold (a state of the world, never an amount of time): polls it until
    true, and fails naming `what` if it has not held after `timeout` seconds (a hang, not a
    slow machine: the bound is far above any loaded run)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.01)


def has_open(pid: int, path: Path) -> bool:
    """Whether process `pid` has `path` open now (Linux /proc): a process waiting for a lock
    file holds it open while it polls."""
    target = os.path.realpath(path)
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for name in names:
        try:
            if os.readlink(f"/proc/{pid}/fd/{name}") == target:
                return True
        except OSError:
            continue
    return False


def child_has_open(path: Path) -> bool:
    """Whether a child process of this one (a server a test started) has `path` open now."""
    me = str(os.getpid())
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[-1].split()[1] == me and has_open(int(entry), path):
            return True
    return False


def run_async(scenario: Callable[[], Any]) -> None:
    """`anyio.run(scenario)` in a thread of its own: the site's browser tests keep one sync
    Playwright per test process, whose asyncio loop stays marked running in the main thread, and
    anyio refuses to start another there ("Already running asyncio in this thread")."""
    from concurrent.futures import ThreadPoolExecutor

    import anyio

    with ThreadPoolExecutor(1) as pool:
        pool.submit(anyio.run, scenario).result()
