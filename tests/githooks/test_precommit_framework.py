"""memgit under the real pre-commit framework (https://pre-commit.com).

The workspace's `.pre-commit-config.yaml` is a `repo: local` copy of this repository's
`.pre-commit-hooks.yaml` (same ids, stages and flags; `language: system` with this interpreter, so
no isolated environment is built), installed with `pre-commit install` for every hook type, then
driven by real git commands.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.githooks.test_hooks import assert_indexed, git_dir, head_tree, run_git_scenario
from tests.helpers import REPO_ROOT, commit_all, git, memgit, write

ROOT = REPO_ROOT
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
HOOK_TYPES = ["pre-commit", "post-commit", "post-merge", "post-checkout", "post-rewrite"]


@pytest.fixture(autouse=True)
def bm25_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.setenv("MEMGIT_NO_PROGRESS", "1")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    monkeypatch.setenv("PRE_COMMIT_COLOR", "never")


def manifest() -> list[dict[str, object]]:
    return yaml.safe_load(MANIFEST.read_text())


def local_config() -> dict[str, object]:
    """The manifest's hooks as a `repo: local` block running this checkout's memgit."""
    hooks = []
    for hook in manifest():
        entry = str(hook["entry"])
        assert entry.startswith("memgit ")
        local = {k: v for k, v in hook.items() if k not in ("language", "minimum_pre_commit_version")}
        local["entry"] = f"{sys.executable} -m {entry}"
        local["language"] = "system"
        hooks.append(local)
    return {"default_install_hook_types": HOOK_TYPES, "repos": [{"repo": "local", "hooks": hooks}]}


def pre_commit(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args], cwd=repo, capture_output=True, text=True, check=False
    )


@pytest.fixture
def framework_ws(workspace: Path) -> Path:
    # JSON is YAML: no dumper quirks in the config under test.
    write(workspace / ".pre-commit-config.yaml", json.dumps(local_config(), indent=2) + "\n")
    commit_all(workspace, "pre-commit config")
    proc = pre_commit(workspace, "install")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    status = json.loads(memgit(workspace, "hooks", "status", "--json").stdout)
    assert [(h["name"], h["state"]) for h in status["hooks"]] == [(t, "framework") for t in HOOK_TYPES]
    return workspace


def test_manifest_is_valid_and_shaped_as_documented() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    hooks = {h["id"]: h for h in manifest()}
    assert hooks["memgit-lint"]["stages"] == ["pre-commit"]
    index = hooks["memgit-index"]
    assert index["stages"] == HOOK_TYPES[1:]
    assert index["always_run"] is True and index["pass_filenames"] is False
    assert all(h["language"] == "python" for h in hooks.values())


def test_framework_hooks_follow_every_git_operation(framework_ws: Path, tmp_path: Path) -> None:
    run_git_scenario(framework_ws, tmp_path)


def test_framework_lint_blocks_and_index_failure_does_not(framework_ws: Path) -> None:
    head = git(framework_ws, "rev-parse", "HEAD")
    write(framework_ws / "memory" / "notes" / "keys.md", "- deploy token ghp_" + "a1B2c3D4e5" * 4 + "\n")
    git(framework_ws, "add", "-A")
    proc = subprocess.run(["git", "commit", "-q", "-m", "leak"], cwd=framework_ws, capture_output=True, text=True)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "memgit lint" in output and "Failed" in output
    assert "memory/notes/keys.md:1: S102 GitHub token (ghp_…); remove it and rotate the credential" in output
    assert git(framework_ws, "rev-parse", "HEAD") == head

    git(framework_ws, "reset", "-q", "--hard")
    data_dir = git_dir(framework_ws) / "memgit"
    shutil.rmtree(data_dir, ignore_errors=True)
    data_dir.write_text("not a directory")
    write(framework_ws / "memory" / "2026-02-20.md", "- Margay cats climb down head first.\n")
    git(framework_ws, "add", "-A")
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "index broken"], cwd=framework_ws, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert git(framework_ws, "log", "-1", "--format=%s").strip() == "index broken"

    data_dir.unlink()
    git(framework_ws, "commit", "-q", "--allow-empty", "-m", "heal")
    assert (data_dir / "indexed_tree").read_text().strip() == head_tree(framework_ws)
    assert_indexed(framework_ws, present="margay")
