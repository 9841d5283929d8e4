"""The real agent hosts, from npm, against a loopback stand-in for their model APIs.

Claude Code (`@anthropic-ai/claude-code`) and Codex CLI (`@openai/codex`), pinned in
tests/node/package.json, run headless (`claude -p`, `codex exec`) with their API base URL on
127.0.0.1 (`tests/hosts/standin.py`): their hook runners, transcript writers, MCP clients and
context handling are the real ones; only the model's replies are scripted. What is checked:

* the SessionStart context reaches the model whole (not a preview), fitted to the host;
* PreCompact and SessionEnd capture the session into `sessions/`, once, without host text;
* an MCP `memory_search` call from each host reaches `memgit mcp` and its hits reach the model.

Marked `hosts`; skipped only when the npm packages are not installed (`./dev test` installs them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import TESTS_DIR, TODAY, commit_all, git, memgit, wait_until, write
from tests.hosts.standin import Script, StandIn

pytestmark = pytest.mark.hosts

BIN = TESTS_DIR / "node" / "node_modules" / ".bin"
FACT = "- The staging database is Postgres 16 on the host heron-db-7."
QUESTION = "Which host runs the staging database?"


def _need(name: str) -> Path:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} is not installed (npm ci in tests/node installs it)")
    return path


def _memory(root: Path, lines: int = 0) -> Path:
    assert memgit(root.parent, "init", root.name).returncode == 0
    extra = "".join(f"- Fact {i}: the setting number {i} is kept at {i * 7}.\n" for i in range(lines))
    write(root / "MEMORY.md", f"# Long-term Memory\n\n{FACT}\n{extra}")
    today = TODAY.isoformat()
    write(
        root / "memory" / f"{today}.md", f"# {today}\n\n" + "".join(f"- today's step {i} is done\n" for i in range(30))
    )
    commit_all(root, "memory")
    return root


def _env(api: StandIn, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_", "CLAUDE", "CODEX"))}
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY"):
        env.pop(key, None)
    env.update(
        NO_PROXY="127.0.0.1",
        MEMGIT_EMBEDDING="none",
        ANTHROPIC_BASE_URL=api.url,
        ANTHROPIC_API_KEY="sk-ant-loopback",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        ENABLE_TOOL_SEARCH="false",  # MCP tools offered directly, not behind Claude Code's tool search
        STANDIN_API_KEY="loopback",
    )
    env.update(extra)
    return env


def _mcp_server(root: Path) -> dict[str, Any]:
    env = {"MEMGIT_EMBEDDING": "none"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return {"command": sys.executable, "args": ["-m", "memgit", "mcp", "-C", str(root)], "env": env}


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=180, check=False, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc


def _texts(body: Any) -> list[str]:
    """Every string in a request body: what the host showed the model, unescaped."""
    if isinstance(body, str):
        return [body]
    if isinstance(body, dict):
        return [t for value in body.values() for t in _texts(value)]
    if isinstance(body, list):
        return [t for value in body for t in _texts(value)]
    return []


def _captures(root: Path) -> list[str]:
    return [line for line in git(root, "log", "--format=%s").splitlines() if line.startswith("sessions: capture")]


def _session_text(root: Path) -> str:
    return "".join(p.read_text() for p in sorted((root / "sessions").glob("*.jsonl")))


# -- Claude Code -------------------------------------------------------------------------------
def test_claude_code_context_reaches_the_model_whole_and_session_end_captures(tmp_path: Path) -> None:
    claude = _need("claude")
    root = _memory(tmp_path / "mem", lines=600)
    assert memgit(root, "hooks", "install", "--agent", "claude-code").returncode == 0
    expected = memgit(root, "context", "--host", "claude-code").stdout.strip()
    assert 8000 < len(expected) <= 9000 and FACT in expected and "today's step 29 is done" in expected
    with StandIn(Script(text="The cutover plan is noted.")) as api:
        out = _run([str(claude), "-p", "Note the cutover plan.", "--output-format", "json"], root, _env(api))
    assert json.loads(out.stdout)["result"] == "The cutover plan is noted."
    (request,) = [r for r in api.requests if r.path.endswith("/messages")]
    shown = "\n".join(_texts(request.body))
    assert expected in shown  # whole: every line up to the last, which says what was left out
    assert expected.splitlines()[-1].startswith("[memgit: the context budget of")
    (hook,) = [t for t in _texts(request.body) if t.startswith("SessionStart:startup hook success: ")]
    assert hook.removeprefix("SessionStart:startup hook success: ").startswith(expected)

    (capture,) = _captures(root)
    assert capture.endswith("(SessionEnd, other)") or "(SessionEnd" in capture
    stored = _session_text(root)
    assert "Note the cutover plan." in stored and "The cutover plan is noted." in stored
    assert "Memory context" not in stored and "system-reminder" not in stored


def test_claude_code_mcp_search_then_precompact_captures_once(tmp_path: Path) -> None:
    claude = _need("claude")
    root = _memory(tmp_path / "mem")
    config = write(tmp_path / "mcp.json", json.dumps({"mcpServers": {"memory": _mcp_server(root)}}))
    script = Script(tool="memory_search", arguments={"query": "staging database host"})
    with StandIn(script) as api:
        env = _env(api)
        first = _run(
            [
                str(claude),
                "-p",
                QUESTION,
                "--output-format",
                "json",
                "--mcp-config",
                str(config),
                "--strict-mcp-config",
                "--allowedTools",
                "mcp__memory__memory_search",
            ],
            root,
            env,
        )
        session = json.loads(first.stdout)["session_id"]
        # The model's second request carries memgit's answer to the MCP call.
        assert script.called and "heron-db-7" in json.loads(first.stdout)["result"]
        assert any("mcp__memory__memory_search" in "\n".join(_texts(r.body)) for r in api.requests)
        assert _captures(root) == []  # no agent hooks yet

        # memgit's hooks come in mid-project; the next compaction captures what was said so far.
        assert memgit(root, "hooks", "install", "--agent", "claude-code").returncode == 0
        _run([str(claude), "-p", "/compact", "--resume", session, "--output-format", "json"], root, env)
    captures = _captures(root)
    assert len(captures) == 1 and captures[0].endswith("(PreCompact, manual)"), captures
    stored = [json.loads(line) for line in _session_text(root).splitlines()]
    assert [r["role"] for r in stored] == ["user", "tool", "assistant"]
    assert stored[0]["content"] == QUESTION and stored[1]["content"].startswith("mcp__memory__memory_search")
    assert "heron-db-7" in stored[2]["content"]
    assert "compact" not in _session_text(root).lower()  # neither the command nor the summary


# -- Codex CLI ---------------------------------------------------------------------------------
def _codex_home(tmp_path: Path, api: StandIn, root: Path) -> Path:
    home = tmp_path / "codex-home"
    home.mkdir(exist_ok=True)
    server = _mcp_server(root)
    env = ", ".join(f"{k} = {json.dumps(v)}" for k, v in server["env"].items())
    (home / "config.toml").write_text(
        'model = "gpt-5.1-codex"\nmodel_provider = "loopback"\n\n'
        "[model_providers.loopback]\n"
        f'name = "loopback"\nbase_url = "{api.url}/v1"\nwire_api = "responses"\nenv_key = "STANDIN_API_KEY"\n\n'
        "[mcp_servers.memory]\n"
        f"command = {json.dumps(server['command'])}\nargs = {json.dumps(server['args'])}\nenv = {{ {env} }}\n"
        # as docs/AGENTS.md writes it: Codex waits for a required server before the first turn (without it,
        # on a busy machine the first request sometimes went out before memgit's tools were listed)
        "startup_timeout_sec = 20\nrequired = true\n"
    )
    return home


def test_codex_context_mcp_search_and_session_end_capture(tmp_path: Path) -> None:
    codex = _need("codex")
    root = _memory(tmp_path / "mem", lines=600)
    script = Script(tool="memory_search", arguments={"query": "staging database host"})
    with StandIn(script) as api:
        home = _codex_home(tmp_path, api, root)
        env = _env(api, CODEX_HOME=str(home))
        installed = memgit(root, "hooks", "install", "--agent", "codex", "--json", env={"CODEX_HOME": str(home)})
        assert json.loads(installed.stdout)["settings"] == str(home / "hooks.json")
        expected = memgit(root, "context", "--host", "codex").stdout.strip()
        out = _run(
            [
                str(codex),
                "exec",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                "--dangerously-bypass-hook-trust",
                QUESTION,
            ],
            root,
            env,
        )
    assert "heron-db-7" in out.stdout and script.called
    first = api.requests[0]
    assert expected in "\n".join(_texts(first.body))  # SessionStart's context, whole
    # Codex clamps SessionEnd to 3 s: memgit's hook answers at once and captures in a detached
    # process (memgit.githooks.claude_code), so the commit lands after codex has exited.
    wait_until(lambda: _captures(root), "the detached SessionEnd capture is committed")
    (capture,) = _captures(root)
    assert "(SessionEnd" in capture
    stored = [json.loads(line) for line in _session_text(root).splitlines()]
    assert [r["role"] for r in stored] == ["user", "tool", "assistant"]
    assert stored[0]["content"] == QUESTION and stored[1]["content"].startswith("memory_search")
    assert "environment_context" not in _session_text(root) and "Memory context" not in _session_text(root)


def test_codex_auto_compaction_keeps_the_summary_out_of_the_capture(tmp_path: Path) -> None:
    """Codex compacts mid-turn (its token limit set low): PreCompact captures what was said so far,
    and the summary Codex asks its model for (then hands on behind a preamble of its own) is never
    stored as the assistant's words; the answer after the compaction is."""
    codex = _need("codex")
    root = _memory(tmp_path / "mem")
    summary = "Handoff: the user asks which host runs staging; memory_search was called."
    script = Script(text="It is heron-db-7.", tool="memory_search", arguments={"query": "staging database host"})
    script.summary = summary
    with StandIn(script) as api:
        home = _codex_home(tmp_path, api, root)
        config = home / "config.toml"
        config.write_text("model_auto_compact_token_limit = 100\n" + config.read_text())  # a reply counts 60
        env = _env(api, CODEX_HOME=str(home))
        assert memgit(root, "hooks", "install", "--agent", "codex", env={"CODEX_HOME": str(home)}).returncode == 0
        out = _run(
            [
                str(codex),
                "exec",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                "--dangerously-bypass-hook-trust",
                QUESTION,
            ],
            root,
            env,
        )
    assert any(summary in "\n".join(_texts(r.body)) for r in api.requests)  # the host asked, and handed it on
    (rollout,) = (home / "sessions").rglob("rollout-*.jsonl")
    assert '"type":"compacted"' in rollout.read_text().replace(" ", "")  # a real compaction happened
    assert "heron-db-7" in out.stdout
    wait_until(lambda: len(_captures(root)) == 2, "PreCompact's and the detached SessionEnd's captures")
    assert any(c.endswith("(PreCompact, auto)") for c in _captures(root)), _captures(root)
    stored = [json.loads(line) for line in _session_text(root).splitlines()]
    assert [r["role"] for r in stored] == ["user", "tool", "assistant"], stored
    assert stored[2]["content"] == "It is heron-db-7."
    assert "Handoff" not in _session_text(root) and "Another language model" not in _session_text(root)
