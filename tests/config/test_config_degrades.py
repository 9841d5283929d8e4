"""A bad memgit.toml degrades memgit, it never switches memory off (issue 48).

Through the real CLI, hooks and MCP server on a workspace that was in use before its memgit.toml
went bad: a typo in a key or a wrong type is one warning naming the line, and everything goes on
with that key's default; a file that is not TOML at all is one line naming where, the read-only
commands (get, context, search, status, lint, an agent's session start, the MCP server's reads)
go on with the defaults and say so, the commands that write stop in one line with nothing
written, git commits go on, and `memgit doctor` says what to fix.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.helpers import TODAY, commit_all, git, memgit, memgit_json, write
from tests.mcp.test_mcp import call, mcp_session, ok, refused, run

BM25 = {"MEMGIT_EMBEDDING": "none"}
TYPO = "# my settings\n[search]\nk = 4\nkk = 3\n"
BROKEN = "# my settings\n[search]\nk = 4\n[memory\nsessions = true\n"


def _in_use(workspace: Path) -> Path:
    """A workspace indexed with memgit's hooks, as it is before its memgit.toml goes bad."""
    assert memgit(workspace, "init", ".", "--hooks").returncode == 0
    commit_all(workspace, "memgit")
    assert memgit(workspace, "index", env=BM25).returncode == 0
    return workspace


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("memgit: warning:")]


def test_a_typo_is_one_warning_naming_its_line_and_everything_goes_on(workspace: Path) -> None:
    root = _in_use(workspace)
    write(root / "memgit.toml", TYPO)
    where = f"{root / 'memgit.toml'}:4: unknown key search.kk"
    for args in (
        ["get", "MEMORY.md"],
        ["context"],
        ["search", "billing"],
        ["remember", "The billing service moved to the new cluster."],
        ["status"],
        ["index"],
    ):
        proc = memgit(root, *args, env=BM25)
        assert proc.returncode == 0, (args, proc.stderr)
        assert [w for w in _warnings(proc.stderr) if "memgit.toml" in w] == [
            f"memgit: warning: {where} (known: " + proc.stderr.split("(known: ", 1)[1].split("\n", 1)[0]
        ], (args, proc.stderr)
    found = memgit_json(root, "search", "billing", "-k", "1", env=BM25)
    assert len(found["hits"]) == 1  # k = 4 still holds; only the unknown key is left out
    doctor = memgit(root, "doctor", env=BM25)
    assert f"[warn] memgit.toml: {where}" in doctor.stdout
    assert "fix: edit or remove that key at that line" in doctor.stdout


def test_invalid_toml_reads_on_defaults_and_stops_writes(workspace: Path) -> None:
    root = _in_use(workspace)
    write(root / "memgit.toml", BROKEN)
    where = f"{root / 'memgit.toml'}:4: invalid TOML"
    for args in (["get", "MEMORY.md"], ["context"], ["search", "billing"], ["status"], ["lint"]):
        proc = memgit(root, *args, env=BM25)
        assert proc.returncode == 0, (args, proc.stderr)
        assert _warnings(proc.stderr)[0].startswith(f"memgit: warning: {where}"), (args, proc.stderr)
        assert "every setting is at its default" in proc.stderr
    assert "billing service" in memgit(root, "search", "billing", env=BM25).stdout
    found = memgit_json(root, "search", "billing", env=BM25)
    assert found["hits"] and found["notices"][0].startswith(where)
    assert "searched with the default settings" in found["notices"][0]
    assert memgit_json(root, "status", env=BM25)["config_problems"][0].startswith(where)

    before = git(root, "status", "--porcelain", "--untracked-files=all")
    for args in (
        ["remember", "this must not be written"],
        ["index"],
        ["recalls", "publish"],
        ["dream", "--dry-run"],
        ["site", "build", "-o", str(root.parent / "site")],
        ["init", ".", "--adopt"],
    ):
        proc = memgit(root, *args, env=BM25)
        errors = [line for line in proc.stderr.splitlines() if line.startswith("memgit: error:")]
        assert proc.returncode == 1 and len(errors) == 1, (args, proc.stderr)
        assert errors[0].startswith(f"memgit: error: {where}") and "nothing was written" in errors[0], errors
    assert git(root, "status", "--porcelain", "--untracked-files=all") == before
    assert not (root.parent / "site").exists()

    # `init` on it adopts and says what is wrong (it no longer prints "Adopted" and then fails).
    again = memgit(root, "init", ".", env=BM25)
    assert again.returncode == 0 and "Adopted memory workspace" in again.stdout
    assert _warnings(again.stderr)[0].startswith(f"memgit: warning: {where}")

    # A commit goes on: the lint runs on the defaults, the index hook says it did not update.
    write(root / "memory" / f"{TODAY.isoformat()}.md", "# today\n\n- Wrote by hand while the config was broken.\n")
    git(root, "add", "-A")
    commit = subprocess.run(["git", "commit", "-q", "-m", "by hand"], cwd=root, capture_output=True, text=True)
    assert commit.returncode == 0, commit.stderr
    assert git(root, "log", "-1", "--format=%s").strip() == "by hand"
    assert f"{where}" in commit.stderr and "the index was not updated: fix memgit.toml" in commit.stderr

    doctor = memgit(root, "doctor", env=BM25)
    assert doctor.returncode == 1
    assert f"[FAIL] memgit.toml: {where}" in doctor.stdout
    assert "fix: correct the TOML at that line" in doctor.stdout
    assert "memgit init" not in doctor.stdout

    # Fixed: writes go on, and the next index catches up with the commit made meanwhile.
    write(root / "memgit.toml", TYPO.replace("kk = 3\n", ""))
    assert memgit(root, "index", env=BM25).returncode == 0
    assert "Wrote by hand" in memgit(root, "search", "by hand while the config", env=BM25).stdout


def test_session_start_loads_the_context_on_defaults_and_says_so(workspace: Path) -> None:
    root = _in_use(workspace)
    write(root / "memgit.toml", BROKEN)
    event = {"hook_event_name": "SessionStart", "source": "startup", "session_id": "s1", "cwd": str(root)}
    proc = memgit(root, "hook", "claude-code", input=json.dumps(event), env=BM25)
    assert proc.returncode == 0
    shown = json.loads(proc.stdout)
    assert "memgit.toml:4: invalid TOML" in shown["systemMessage"]
    assert "this context uses the default settings" in shown["systemMessage"]
    assert "The user prefers tea over coffee." in shown["hookSpecificOutput"]["additionalContext"]


def test_the_mcp_server_reads_on_defaults_and_refuses_appends(workspace: Path) -> None:
    root = _in_use(workspace)
    write(root / "memgit.toml", BROKEN)

    async def scenario() -> None:
        async with mcp_session(root) as session:
            found = ok(await call(session, "memory_search", {"query": "billing"}))
            assert found["hits"] and "memgit.toml:4: invalid TOML" in found["notices"][0]
            assert "tea over coffee" in ok(await call(session, "memory_get", {"path": "MEMORY.md"}))["text"]
            status = ok(await call(session, "memory_status", {}))
            assert status["config_problems"][0].startswith(f"{root / 'memgit.toml'}:4: invalid TOML")
            refused(await call(session, "memory_append", {"text": "must not be written"}), "invalid TOML")

    run(scenario)
    assert not (root / "memory" / f"{TODAY.isoformat()}.md").exists()
