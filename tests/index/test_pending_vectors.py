"""Pending vectors are never silent, and whoever has the model fills them.

The scenario of a new user with the pre-commit framework set up as docs/HOOKS.md shows
(`repo:` + `rev:`, `language: python`): the framework builds memgit into its own virtualenv,
without the llama extra, so every commit's hook indexes the text and leaves the new chunks'
vectors pending. A search from the user's own environment, which has the model, must then use
vectors for all chunks, or say exactly how many it lacks. The hook environment is built for real
(offline, from this checkout committed into a scratch repository, through pip's configured
indexes), once per module.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from memgit.index.freshen import POLICIES, Policy
from tests.conftest import shared_cache_dir
from tests.helpers import REPO_ROOT, commit_all, git, memgit, memgit_json, run_async, wait_until, write

ROOT = REPO_ROOT
#: What a wheel of memgit needs (pyproject's build, the shipped hooks and templates).
SOURCE_PARTS = ("memgit", "hooks", "templates", "pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "LICENSE")
LACKING = re.compile(r"vectors pending for (\d+) chunks")
OVER = re.compile(r"hybrid over (\d+) of (\d+) chunks; vectors pending for (\d+) chunks")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from memgit.embed.tiny import write_tiny_bert_gguf

    return write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """(a git repository holding this checkout's memgit as it is now, its commit, PRE_COMMIT_HOME)."""
    src = tmp_path_factory.mktemp("memgit-src")
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *SOURCE_PARTS],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes((ROOT / name).read_bytes())
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "src"]):
        subprocess.run(["git", *args], cwd=src, env=env, check=True, capture_output=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=src, capture_output=True, text=True, check=True).stdout
    return src, sha.strip(), tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def framework_ws(workspace: Path, hook_repo: tuple[Path, str, Path], monkeypatch: pytest.MonkeyPatch) -> Path:
    src, sha, home = hook_repo
    monkeypatch.setenv("PRE_COMMIT_HOME", str(home))
    monkeypatch.setenv("PIP_CACHE_DIR", str(shared_cache_dir() / "pip"))  # reruns reuse the wheels
    monkeypatch.setenv("PRE_COMMIT_COLOR", "never")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    write(
        workspace / ".pre-commit-config.yaml",
        "default_install_hook_types: [pre-commit, post-commit, post-merge, post-checkout, post-rewrite]\n"
        f"repos:\n  - repo: {src}\n    rev: {sha}\n    hooks:\n      - id: memgit-lint\n"
        "      - id: memgit-index\n        verbose: true\n",
    )
    commit_all(workspace, "pre-commit config")
    for args in (["install"], ["install-hooks"]):
        proc = subprocess.run(
            [sys.executable, "-m", "pre_commit", *args], cwd=workspace, capture_output=True, text=True, timeout=900
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
    # The framework's environment is memgit without the llama extra: it cannot embed.
    envs = [p for p in home.iterdir() if p.is_dir() and any(p.glob("py_env-*"))]
    assert envs, list(home.iterdir())
    python = next(envs[0].glob("py_env-*/bin/python"))
    probe = subprocess.run(
        [str(python), "-c", "import importlib.util, memgit; print(importlib.util.find_spec('llama_cpp') is None)"],
        capture_output=True,
        text=True,
    )
    assert probe.stdout.strip() == "True", probe.stdout + probe.stderr
    return workspace


def lacking(notices: list[str]) -> int:
    found = [LACKING.search(n) for n in notices]
    counts = [int(m.group(1)) for m in found if m]
    assert len(counts) <= 1, notices
    return counts[0] if counts else 0


def test_three_framework_commits_then_a_search_with_the_model_uses_vectors_for_all(
    framework_ws: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))  # the hooks see it too, and cannot load it
    first = memgit_json(framework_ws, "index")  # the user indexed once, with the model
    assert first["model_id"] and first["pending_vectors"] == 0
    for day in (6, 7, 8):
        write(framework_ws / "memory" / f"2026-01-0{day}.md", f"# 2026-01-0{day}\n\n- Kestrel fact number {day}.\n")
        git(framework_ws, "add", "-A")
        proc = subprocess.run(["git", "commit", "-qm", f"day {day}"], cwd=framework_ws, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "memgit index" in proc.stdout + proc.stderr  # the framework ran the index hook
    status = memgit_json(framework_ws, "status")
    assert status["up_to_date"] and status["counts"]["pending_vectors"] == 3, status

    # BM25 needs no vectors: nothing to say.
    bm25 = memgit_json(framework_ws, "search", "kestrel fact", "--mode", "bm25")
    assert lacking(bm25["notices"]) == 0

    result = memgit_json(framework_ws, "search", "kestrel fact")
    assert lacking(result["notices"]) == 0, result["notices"]
    assert result["hits"] and all(h["vector_score"] is not None for h in result["hits"]), result["hits"]
    status = memgit_json(framework_ws, "status")
    assert status["counts"]["pending_vectors"] == 0 and status["counts"]["vectors"] == status["counts"]["chunks"]
    assert not status["vec0"]["waiting"]
    assert memgit_json(framework_ws, "index", "--verify")["verify"]["ok"]


def test_a_search_says_exactly_how_many_chunks_lack_vectors(
    framework_ws: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMGIT_MODEL", str(tiny_model))
    memgit_json(framework_ws, "index")
    fill = POLICIES[Policy.SEARCH].fill
    assert fill is not None and fill.limit is not None
    count = fill.limit + 40
    for i in range(count):
        write(framework_ws / "memory" / "bulk" / f"b{i:03d}.md", f"# b{i}\n\n- bulk kestrel note {i}\n")
    git(framework_ws, "add", "-A")
    proc = subprocess.run(["git", "commit", "-qm", "bulk"], cwd=framework_ws, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert memgit_json(framework_ws, "status")["counts"]["pending_vectors"] == count

    # The newest chunks are the ones still pending after one search (the oldest are filled first).
    newest = f"memory/bulk/b{count - 1:03d}.md"
    result = memgit_json(framework_ws, "search", "bulk kestrel note", "--path", newest, "-k", "5")
    status = memgit_json(framework_ws, "status")
    left = status["counts"]["pending_vectors"]
    assert 0 < left <= count - 1  # a bounded share was filled inline, not all
    assert lacking(result["notices"]) == left
    match = next(OVER.search(n) for n in result["notices"] if OVER.search(n))
    assert int(match.group(2)) == status["counts"]["chunks"]
    assert int(match.group(1)) == status["counts"]["chunks"] - left
    assert "`memgit index` embeds them" in next(n for n in result["notices"] if LACKING.search(n))
    # A hit whose chunk has no vector says so (no score), not a similarity of 0.0.
    assert [h["path"] for h in result["hits"]] == [newest] and result["hits"][0]["vector_score"] is None
    oldest = memgit_json(framework_ws, "search", "bulk kestrel note", "--path", "memory/bulk/b000.md")["hits"]
    assert oldest[0]["vector_score"] is not None and oldest[0]["vector_score"] > 0

    # A plain `memgit index` with the model fills everything.
    assert memgit_json(framework_ws, "index")["pending_vectors"] == 0
    result = memgit_json(framework_ws, "search", "bulk kestrel note", "-k", "50")
    assert lacking(result["notices"]) == 0 and all(h["vector_score"] is not None for h in result["hits"])


def test_a_plain_hook_with_the_model_fills_pending_vectors(workspace: Path, tiny_model: Path) -> None:
    """A hook in the user's own environment (plain git hooks) fills what another left pending:
    the fill it starts in the background, detached, after git has returned."""
    model = {"MEMGIT_MODEL": str(tiny_model)}
    memgit_json(workspace, "index", env=model)
    for i in range(5):
        write(workspace / "memory" / "notes" / f"n{i}.md", f"# n{i}\n\n- note {i} about granite\n")
    commit_all(workspace, "notes")
    assert memgit_json(workspace, "index", env={"MEMGIT_EMBEDDING": "none"})["pending_vectors"] == 5
    assert memgit(workspace, "hooks", "install").returncode == 0
    write(workspace / "memory" / "notes" / "n9.md", "# n9\n\n- one more\n")
    git(workspace, "add", "-A")
    # The hook's embedding budget is wall time (half a second): give it room, so a loaded machine
    # (xdist's other worker, other jobs) cannot leave a tiny note pending. The budget itself is not
    # what this test is about.
    hook_env = {**os.environ, **model, "MEMGIT_HOOK_EMBED_SECONDS": "60", "MEMGIT_BACKGROUND_FILL": "1"}
    proc = subprocess.run(["git", "commit", "-qm", "more"], cwd=workspace, capture_output=True, text=True, env=hook_env)
    assert proc.returncode == 0, proc.stderr
    wait_until(
        lambda: memgit_json(workspace, "status", env=model)["counts"]["pending_vectors"] == 0,
        "the background fill published every pending vector",
    )
    wait_until(lambda: "memgit fill:" in (workspace / ".git" / "memgit" / "fill.log").read_text(), "the fill ended")
    assert "5 vectors published" in (workspace / ".git" / "memgit" / "fill.log").read_text()
    status = memgit_json(workspace, "status", env=model)
    assert status["up_to_date"] and status["counts"]["vectors"] == status["counts"]["chunks"], status
    assert memgit_json(workspace, "index", "--verify", env=model)["verify"]["ok"]


def test_a_hook_embeds_its_own_chunks_and_fills_none_while_git_waits(workspace: Path, tiny_model: Path) -> None:
    """After a checkout far back or an adoption, thousands of vectors are pending: the hook's half
    second would fill a handful of them while git waits, so it embeds its own chunk and leaves the
    rest to a fill (here none runs: MEMGIT_BACKGROUND_FILL=0)."""
    model = {"MEMGIT_MODEL": str(tiny_model)}
    memgit_json(workspace, "index", env=model)
    count = 2_010
    sections = "".join(f"## s{i}\n\n- bulk note {i} on basalt\n\n" for i in range(count))
    write(workspace / "memory" / "bulk.md", "# bulk\n\n" + sections)
    commit_all(workspace, "bulk")
    assert memgit_json(workspace, "index", env={"MEMGIT_EMBEDDING": "none"})["pending_vectors"] == count
    assert memgit(workspace, "hooks", "install").returncode == 0
    write(workspace / "memory" / "notes" / "n9.md", "# n9\n\n- one more about granite\n")
    git(workspace, "add", "-A")
    hook_env = {**os.environ, **model, "MEMGIT_HOOK_EMBED_SECONDS": "60"}  # room for its own chunk
    proc = subprocess.run(["git", "commit", "-qm", "more"], cwd=workspace, capture_output=True, text=True, env=hook_env)
    assert proc.returncode == 0, proc.stderr
    status = memgit_json(workspace, "status", env=model)
    assert status["up_to_date"] and status["counts"]["pending_vectors"] == count, status
    hit = memgit_json(workspace, "search", "one more about granite", "--no-record", "-k", "1", env=model)["hits"][0]
    assert hit["path"] == "memory/notes/n9.md" and hit["vector_score"] is not None


def test_the_mcp_server_fills_pending_vectors_in_the_background(workspace: Path, tiny_model: Path) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    model = {"MEMGIT_MODEL": str(tiny_model)}
    memgit_json(workspace, "index", env=model)
    count = 700  # more than two steps of the background fill
    for i in range(count):
        write(workspace / "memory" / "bulk" / f"b{i:03d}.md", f"# b{i}\n\n- bulk note {i} on basalt\n")
    commit_all(workspace, "bulk")
    assert memgit_json(workspace, "index", env={"MEMGIT_EMBEDDING": "none"})["pending_vectors"] == count

    keep = ("HOME", "PATH", "GIT_", "XDG_", "PYTHONPATH", "MEMGIT_CACHE_DIR")
    env = {k: v for k, v in os.environ.items() if k.startswith(keep)} | model
    params = StdioServerParameters(command=sys.executable, args=["-m", "memgit", "mcp"], cwd=str(workspace), env=env)

    async def scenario() -> None:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write_stream),
                ClientSession(read, write_stream) as session,
            ):
                await session.initialize()
                first = (await session.call_tool("memory_search", {"query": "basalt note"})).structured_content
                assert first is not None
                seen = lacking(first["notices"])
                assert 0 < seen <= count, first["notices"]
                fill: dict = {}
                with anyio.fail_after(120):
                    while True:
                        status = (await session.call_tool("memory_status", {})).structured_content
                        fill = status["server"]["vector_fill"]
                        if status["index"]["counts"]["pending_vectors"] == 0 and not fill["running"]:
                            break
                        await anyio.sleep(0.2)
                assert fill["filled"] == count and fill["steps"] >= 3 and fill["pending"] == 0, fill
                last = (await session.call_tool("memory_search", {"query": "basalt note"})).structured_content
                assert last is not None and last["hits"] and lacking(last["notices"]) == 0

    run_async(scenario)
    assert memgit_json(workspace, "index", "--verify", env=model)["verify"]["ok"]
    assert json.loads(memgit(workspace, "status", "--json", env=model).stdout)["vec0"]["waiting"] is False
