"""`./dev`'s test tools: tests/node/node_modules comes from `npm ci` once per lockfile; a later clone
links the kept install in from the user's cache instead of unpacking it again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT

pytestmark = pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")


def _project(root: Path, version: str) -> Path:
    """A clone's tests/node whose one dependency is a local tarball (npm ci runs offline)."""
    package = root / "pkg"
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "memgit-dev-probe", "version": version}))
    (package / "index.js").write_text(f"module.exports = {version!r};\n")
    packed = subprocess.run(["npm", "pack", "--silent"], cwd=package, capture_output=True, text=True, check=True)
    tarball = package / packed.stdout.strip().splitlines()[-1]
    node = root / "clone" / "tests" / "node"
    node.mkdir(parents=True)
    manifest = {"name": "probe", "private": True, "dependencies": {"memgit-dev-probe": f"file:{tarball}"}}
    (node / "package.json").write_text(json.dumps(manifest))
    subprocess.run(
        ["npm", "install", "--package-lock-only", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=node,
        capture_output=True,
        check=True,
    )
    return root / "clone"


def _ensure(clone: Path, cache: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    script = (
        'source <(sed -n "/^ensure_node_tools()/,/^}/p;/^keep_node_tools()/,/^}/p" "$DEV"); '
        'ROOT="$CLONE"; ensure_node_tools'
    )
    env = {**os.environ, "DEV": str(REPO_ROOT / "dev"), "CLONE": str(clone), "MEMGIT_NODE_CACHE": str(cache)}
    if path is not None:
        env["PATH"] = path
    return subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=300)


def test_a_second_clone_links_the_kept_install_and_a_new_lockfile_replaces_it(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    clone = _project(tmp_path / "one", "1.0.0")
    first = _ensure(clone, cache)
    assert first.returncode == 0, first.stderr
    assert "npm ci" in first.stdout
    installed = clone / "tests" / "node" / "node_modules" / "memgit-dev-probe" / "index.js"
    (kept,) = cache.glob("*/node_modules/memgit-dev-probe/index.js")
    assert installed.stat().st_ino == kept.stat().st_ino  # the same file, linked, not copied

    # A new clone of the same lockfile, with an npm that fails if it is run at all.
    again = _project(tmp_path / "two", "1.0.0")
    shutil.copy(clone / "tests" / "node" / "package-lock.json", again / "tests" / "node" / "package-lock.json")
    no_npm = tmp_path / "no-npm"
    no_npm.mkdir()
    (no_npm / "npm").write_text("#!/bin/sh\necho npm was run >&2\nexit 1\n")
    (no_npm / "npm").chmod(0o755)
    second = _ensure(again, cache, path=f"{no_npm}{os.pathsep}{os.environ['PATH']}")
    assert second.returncode == 0, second.stderr
    assert "linked from" in second.stdout and "npm was run" not in second.stderr
    linked = again / "tests" / "node" / "node_modules" / "memgit-dev-probe" / "index.js"
    assert linked.read_text() == "module.exports = '1.0.0';\n"
    assert (again / "tests" / "node" / "node_modules" / ".memgit-lock").is_file()
    assert not (kept.parent.parent / ".memgit-lock").exists()  # the clone's stamp stays in the clone

    # Another lockfile: npm ci again, and only its install is kept.
    newer = _project(tmp_path / "three", "2.0.0")
    third = _ensure(newer, cache)
    assert third.returncode == 0, third.stderr
    assert "npm ci" in third.stdout
    assert [p.read_text() for p in cache.glob("*/node_modules/memgit-dev-probe/index.js")] == [
        "module.exports = '2.0.0';\n"
    ]
    assert linked.read_text() == "module.exports = '1.0.0';\n"  # the second clone keeps its own links
