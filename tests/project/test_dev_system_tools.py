"""`./dev` checks the system tools a command needs before any work: a missing one is named in one
line with how to install it, and nothing is set up. The Node.js it asks for is the oldest the
pinned npm tools run on."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT

#: Packages whose declared `engines.node` is above tests/node's minimum, measured to run on it
#: anyway (REFERENCE: Claude Code 2.1.332 warns that it wants Node 22 and runs on Node 20; the
#: tests/hosts tier drives it there).
RUNS_BELOW_ITS_ENGINES = {"node_modules/@anthropic-ai/claude-code"}


def _clone(tmp_path: Path) -> Path:
    """The files `./dev` reads before any work, in a folder of their own (no .venv)."""
    clone = tmp_path / "clone"
    (clone / "tests" / "node").mkdir(parents=True)
    shutil.copy(REPO_ROOT / "dev", clone / "dev")
    shutil.copy(REPO_ROOT / "pyproject.toml", clone / "pyproject.toml")
    shutil.copy(REPO_ROOT / "tests" / "node" / "package.json", clone / "tests" / "node" / "package.json")
    return clone


def _path_without(tmp_path: Path, missing: set[str], fakes: dict[str, str]) -> str:
    """A PATH of one folder linking every program on this PATH but `missing`, plus `fakes`
    (name -> shell script): tools this machine may lack stand in by name, for a check of presence."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not directory or not os.path.isdir(directory):
            continue
        for name in os.listdir(directory):
            target = folder / name
            if name in missing or name in fakes or target.exists() or target.is_symlink():
                continue
            source = Path(directory) / name
            if os.access(source, os.X_OK) and source.is_file():
                target.symlink_to(source)
    for name, script in fakes.items():
        (folder / name).write_text(f"#!/bin/sh\n{script}\n")
        (folder / name).chmod(0o755)
    return str(folder)


def _dev(clone: Path, path: str, command: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "MEMGIT_CHROMIUM"}
    env["PATH"] = path
    return subprocess.run(
        ["/bin/bash", str(clone / "dev"), command], env=env, capture_output=True, text=True, timeout=120
    )


#: Stand-ins for the tests' tools, enough for `command -v` and the version check.
PRESENT = {"rsync": "exit 0", "chromium": "exit 0", "npm": "exit 0"}


@pytest.mark.parametrize(
    ("command", "missing", "named", "how"),
    [
        ("test", {"rsync"}, "rsync", "apt-get install rsync"),
        ("test", {"chromium"}, "chromium", "apt-get install chromium"),
        ("test", {"npm"}, "Node.js >= 20 with npm", "nodejs.org"),
        ("demo", {"git"}, "git", "apt-get install git"),
        ("setup", {"cmake"}, "cmake", "apt-get install cmake"),
        ("check", {"cc", "gcc", "clang"}, "a C/C++ compiler", "apt-get install build-essential"),
    ],
)
def test_a_missing_tool_stops_dev_before_any_work_in_one_line(
    tmp_path: Path, command: str, missing: set[str], named: str, how: str
) -> None:
    clone = _clone(tmp_path)
    fakes = {name: script for name, script in PRESENT.items() if name not in missing}
    proc = _dev(clone, _path_without(tmp_path, missing, fakes), command)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"memgit: error: missing for ./dev {command}: {named}")
    assert how in lines[0]
    assert proc.stdout == ""
    assert not (clone / ".venv").exists()  # stopped before any work


def test_an_old_node_is_named_with_the_version_found(tmp_path: Path) -> None:
    clone = _clone(tmp_path)
    fakes = {**PRESENT, "node": 'case "$1" in --version) echo v18.19.0 ;; *) exit 1 ;; esac'}
    proc = _dev(clone, _path_without(tmp_path, set(), fakes), "test")
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "memgit: error: missing for ./dev test: Node.js >= 20 (found v18.19.0); "
        "install: Node.js >= 20 from nodejs.org or NodeSource"
    ]


def test_the_fast_inner_loop_needs_none_of_the_test_tools(tmp_path: Path) -> None:
    """`./dev fast` runs no browser, node or runner: their absence does not stop it; `./dev test`
    on the same machine is stopped."""
    clone = _clone(tmp_path)
    path = _path_without(tmp_path, {"rsync", "chromium", "node", "npm"}, {})
    script = (
        'source <(sed -n "/^check_system_tools()/,/^}/p;/^node_minimum()/,/^}/p;/^venv_is_current()/,/^}/p;'
        '/^have_browser()/,/^}/p" dev); ROOT="$PWD"; VENV="$ROOT/.venv"; PY="$VENV/bin/python"; '
        'check_system_tools "$1" && echo passed'
    )
    env = {key: value for key, value in os.environ.items() if key != "MEMGIT_CHROMIUM"}
    env["PATH"] = path
    for command, passes in (("fast", True), ("test", False)):
        proc = subprocess.run(
            ["/bin/bash", "-c", script, "dev", command], cwd=clone, env=env, capture_output=True, text=True, timeout=60
        )
        assert (proc.stdout.strip() == "passed") is passes, (command, proc.stdout, proc.stderr)


def _satisfied_by(version: tuple[int, int, int], spec: str) -> bool:
    """Whether `version` meets an npm `engines` range of the shapes the lockfile holds
    (`>=X`, `>= X.Y.Z`, `^X.Y`, `X.*`, `>= X.x`, joined by `||`)."""
    for alternative in spec.split("||"):
        text = alternative.strip().replace(".x", "").replace(".*", "")
        match = re.fullmatch(r"(>=|\^)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
        assert match, f"an engines range this test does not read: {spec!r}"
        operator, parts = match.group(1), tuple(int(p or 0) for p in match.group(2, 3, 4))
        if operator == ">=" and version >= parts:
            return True
        if operator == "^" and version[0] == parts[0] and version >= parts:
            return True
        if operator is None and version[0] == parts[0]:
            return True
    return False


def test_the_node_minimum_is_what_the_pinned_tools_need() -> None:
    """Every package in the lock runs on tests/node's `engines.node` minimum (the one `./dev` checks),
    the one measured exception aside; the tools are pinned exactly (gitlab-ci-local 4.75.1 crashes on
    Node 20: `kW.union is not a function`; 4.65.1 works)."""
    manifest = json.loads((REPO_ROOT / "tests" / "node" / "package.json").read_text())
    minimum = int(re.fullmatch(r">=\s*(\d+)", manifest["engines"]["node"]).group(1))  # type: ignore[union-attr]
    lock = json.loads((REPO_ROOT / "tests" / "node" / "package-lock.json").read_text())
    too_new = [
        f"{name} wants node {entry['engines']['node']}"
        for name, entry in lock["packages"].items()
        if name
        and isinstance(entry.get("engines"), dict)
        and "node" in entry["engines"]
        and name not in RUNS_BELOW_ITS_ENGINES
        and not _satisfied_by((minimum, 0, 0), entry["engines"]["node"])
    ]
    assert not too_new, too_new
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in manifest["dependencies"].values()), manifest
    assert manifest["dependencies"]["gitlab-ci-local"] == "4.65.1"


def test_the_readme_lists_every_tool_dev_checks() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quickstart", 1)[1].split("```", 1)[0]
    for tool in ("git", "cmake", "C/C++ compiler", "rsync", "chromium", "Node.js ≥ 20", "npm"):
        assert tool in section, tool


@pytest.mark.parametrize(
    ("stamp", "demo_current", "test_current"),
    [
        ("{hash} llama", True, False),  # after a first `./dev demo`: the tests add the developer tools
        ("{hash} llama,dev", True, True),
        ("{hash}", True, True),  # a stamp written before extras were recorded: a full install
        ("0000000000000000 llama,dev", False, False),  # pyproject.toml changed since
    ],
)
def test_the_demo_installs_without_the_developer_tools_and_the_tests_add_them(
    tmp_path: Path, stamp: str, demo_current: bool, test_current: bool
) -> None:
    clone = _clone(tmp_path)
    venv = clone / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(shutil.which("python3") or "/usr/bin/python3")
    digest = subprocess.run(
        ["bash", "-c", "sha256sum < pyproject.toml | cut -c1-16"], cwd=clone, capture_output=True, text=True
    ).stdout.strip()
    (venv / ".memgit-installed").write_text(stamp.format(hash=digest) + "\n")
    script = (
        'source <(sed -n "/^venv_is_current()/,/^}/p" dev); ROOT="$PWD"; VENV="$ROOT/.venv"; PY="$VENV/bin/python"; '
        'EXTRAS="$1"; venv_is_current && echo current || echo stale'
    )
    said = {}
    for extras in ("llama", "llama,dev"):
        proc = subprocess.run(["bash", "-c", script, "dev", extras], cwd=clone, capture_output=True, text=True)
        said[extras] = proc.stdout.strip()
    assert said == {
        "llama": "current" if demo_current else "stale",
        "llama,dev": "current" if test_current else "stale",
    }
    dev = (REPO_ROOT / "dev").read_text()
    assert "demo) EXTRAS=llama;" in dev and '-e ".[$EXTRAS]"' in dev and 'echo "$want $EXTRAS" > "$stamp"' in dev
