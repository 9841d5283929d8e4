"""The tests' launcher (tests/cli_launcher.py) forks memgit commands from a process that imported
memgit already: what a test sees must be what a new interpreter gives (exit status, both streams,
stdin, working folder, environment), and a command it cannot fork safely gets a new interpreter."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_launcher import Launcher, start_up_env
from tests.helpers import commit_all, git, wait_until, write


@pytest.fixture
def launcher() -> Iterator[Launcher]:
    started = Launcher()
    yield started
    started.close()


def _argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "memgit", *args]


def _new_interpreter(
    cwd: Path, env: dict[str, str], *args: str, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_argv(*args), cwd=cwd, env=env, capture_output=True, text=True, input=input, timeout=120)


def _workspace(root: Path) -> Path:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    write(root / "MEMORY.md", "# Memory\n\n- The staging database is called heron.\n")
    commit_all(root, "memory")
    return root


def test_a_forked_command_answers_as_a_new_interpreter_does(tmp_path: Path, launcher: Launcher) -> None:
    env = dict(os.environ)
    for args in (("--version",), ("no-such-command",), ("search",), ("status", "--bogus")):
        forked = launcher.run(_argv(*args), tmp_path, env, None, 120)
        fresh = _new_interpreter(tmp_path, env, *args)
        assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr), args
        assert forked.args == _argv(*args)
    assert launcher.forks == 4 and launcher.new_interpreters == 0


def test_stdin_folder_and_environment_reach_the_forked_command(tmp_path: Path, launcher: Launcher) -> None:
    results = {}
    for name in ("forked", "fresh"):
        root = _workspace(tmp_path / name)
        env = {**os.environ, "MEMGIT_NOW": "2031-05-06T07:08:09Z"}
        text = "- The heron cluster moved to rack 12.\n"
        if name == "forked":
            proc = launcher.run(_argv("remember", "-"), root, env, text, 120)
        else:
            proc = _new_interpreter(root, env, "remember", "-", input=text)
        assert proc.returncode == 0, proc.stderr
        # MEMGIT_NOW chose the day's file; the folder chose the workspace; stdin gave the line.
        results[name] = (proc.stdout, (root / "memory" / "2031-05-06.md").read_text(encoding="utf-8"))
    assert results["forked"] == results["fresh"]
    assert "rack 12" in results["forked"][1]
    assert launcher.forks == 1


def test_a_command_past_its_time_is_killed_and_says_so(tmp_path: Path, launcher: Launcher) -> None:
    root = _workspace(tmp_path / "ws")
    assert launcher.run(_argv("index", "-q"), root, dict(os.environ), None, 120).returncode == 0
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        launcher.run(_argv("site", "serve", "--port", "0"), root, dict(os.environ), None, 3)
    assert time.monotonic() - started < 60
    # the launcher still serves after a kill
    assert launcher.run(_argv("--version"), root, dict(os.environ), None, 120).returncode == 0
    assert launcher.forks == 3


def test_a_forked_command_that_crashes_shows_its_python_stack(tmp_path: Path, launcher: Launcher) -> None:
    """A C library's crash in a child (SIGSEGV) reaches the test as -11 with every thread's Python
    stack on stderr, not as an empty -11 to guess from."""
    root = _workspace(tmp_path / "ws")
    assert launcher.run(_argv("index", "-q"), root, dict(os.environ), None, 120).returncode == 0
    result: list[subprocess.CompletedProcess[str]] = []
    serving = threading.Thread(
        target=lambda: result.append(
            launcher.run(_argv("site", "serve", "--port", "0"), root, dict(os.environ), None, 120)
        )
    )
    serving.start()
    children = Path(f"/proc/{launcher.pid}/task/{launcher.pid}/children")
    if not children.is_file():
        serving.join()  # the server is killed by its timeout; nothing else can find its pid
        pytest.skip("this kernel does not list a process's children in /proc")
    wait_until(lambda: children.read_text().split(), "the forked server")
    child = int(children.read_text().split()[0])
    wait_until(lambda: _listens(child), "the server listening")
    os.kill(child, signal.SIGSEGV)
    serving.join(60)
    assert result and result[0].returncode == -signal.SIGSEGV
    assert "Fatal Python error: Segmentation fault" in result[0].stderr
    assert "memgit/site/serve.py" in result[0].stderr  # where the main thread was


def _listens(pid: int) -> bool:
    """Whether the process has a listening TCP socket (its HTTP server is up)."""
    inodes = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:  # closed meanwhile: the server is still starting (its git calls)
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
        tables = [Path(f"/proc/{pid}/net/{table}").read_text() for table in ("tcp", "tcp6")]
    except OSError:
        return False
    for text in tables:
        for line in text.splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                return True
    return False


def test_start_up_settings_that_differ_get_a_new_interpreter(tmp_path: Path, launcher: Launcher) -> None:
    env = dict(os.environ)
    assert launcher.run(_argv("--version"), tmp_path, env, None, 120).returncode == 0
    changed = {**env, "PYTHONIOENCODING": "latin-1"}
    proc = launcher.run(_argv("--version"), tmp_path, changed, None, 120)
    assert proc.returncode == 0 and "memgit" in proc.stdout
    with pytest.raises(FileNotFoundError):
        launcher.run(_argv("--version"), tmp_path / "nowhere", env, None, 120)
    assert (launcher.forks, launcher.new_interpreters) == (1, 2)
    # memgit's own defaults (set before the libraries that read them load) are not a difference
    assert start_up_env({"OMP_WAIT_POLICY": "PASSIVE"}) == start_up_env({})
    assert start_up_env({"OPENBLAS_NUM_THREADS": "4"}) != start_up_env({})


def test_memgit_fork_0_starts_every_command_as_a_new_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMGIT_TEST_FORK", "0")
    launcher = Launcher()
    assert launcher.run(_argv("--version"), tmp_path, dict(os.environ), None, 120).returncode == 0
    assert (launcher.forks, launcher.new_interpreters) == (0, 1)
    launcher.close()


def test_a_forked_child_finds_git_config_where_its_own_home_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """libgit2 fixes its config search paths when it loads, in the launcher; the child computes
    them again from its own HOME and XDG_CONFIG_HOME, as a new interpreter would."""
    import pygit2
    from pygit2.enums import ConfigLevel, Option

    from tests.cli_launcher import _reset_libraries

    levels = (ConfigLevel.XDG, ConfigLevel.GLOBAL)
    before = {level: pygit2.option(Option.GET_SEARCH_PATH, level) for level in levels}
    home = tmp_path / "elsewhere"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))
    try:
        _reset_libraries()
        assert pygit2.option(Option.GET_SEARCH_PATH, ConfigLevel.GLOBAL) == str(home)
        assert pygit2.option(Option.GET_SEARCH_PATH, ConfigLevel.XDG) == str(home / "xdg" / "git")
    finally:
        for level, path in before.items():
            pygit2.option(Option.SET_SEARCH_PATH, level, path)


WARMED = r"""
import sys
sys.path.insert(0, sys.argv[1])
from tests import cli_launcher
problem = cli_launcher._preload()
from memgit.lint import labelled, seeds
from memgit.dream import dates_intl
print(repr(problem), labelled._patterns.cache_info().currsize, seeds._vocabulary.cache_info().currsize,
      dates_intl._month_pattern.cache_info().currsize, labelled._after_label.cache_info().currsize,
      "betterleaks" in sys.modules)
"""


def test_the_launcher_builds_the_lints_tables_once_and_never_loads_betterleaks(tmp_path: Path) -> None:
    """The lint's and dreaming's tables (~0.3 s of a forked `remember`) are built before the fork;
    betterleaks' Go runtime, which a fork does not carry, is not loaded there."""
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", WARMED, str(root)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    problem, patterns, vocabulary, months, after_label, betterleaks = proc.stdout.split()
    assert (problem, patterns, vocabulary, months, betterleaks) == ("''", "1", "1", "1", "False")
    assert int(after_label) >= 40  # every language's label pattern
