"""MCP prompts and resources, end to end through both real SDK clients.

The Python SDK (`ClientSession` over the handshake, `Client` in its default auto mode, which runs
the 2026-07-28 revision) and the TypeScript SDK (tests/node) list and get the prompts and list and
read the resources of a `memgit mcp` subprocess on a real git workspace; `--read-only` and
`--scope group` are held to the tools' rules.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from memgit.core.provenance import strip_markers
from memgit.mcp.options import server_options
from memgit.mcp.prompts import flush_text
from tests.helpers import TESTS_DIR, TODAY, commit_all, git, write
from tests.mcp.test_mcp import TODAY_LOG, _server_env, mcp_session, run

NODE_DIR = TESTS_DIR / "node"
YESTERDAY = (TODAY - timedelta(days=1)).isoformat()
KEY = "AKIAZ7QW3ERTY5UIOP2L"  # shaped like an AWS access key id (not AWS's documented example)
MARKER = "<!-- memgit:entry key=k-tea source=memory/2026-01-05.md:5-5@0123456789abcdef0123456789abcdef01234567 score=0.812 -->"


@pytest.fixture
def memory(workspace: Path) -> Path:
    """MEMORY.md with a promoted entry's marker and a key committed past the lint, USER.md, today's log."""
    write(
        workspace / "MEMORY.md",
        f"# Long-term Memory\n\n- The user prefers tea over coffee.\n{MARKER}\n- Deploy key {KEY} (pasted by mistake)\n",
    )
    write(workspace / "USER.md", "# User\n\n- Name: Robin; works from Lisbon.\n")
    write(workspace / TODAY_LOG, f"# {TODAY.isoformat()}\n\n## 09:00\n- Started the Heron cutover checklist.\n")
    commit_all(workspace, "memory with a marker and a leaked key")
    return workspace


def _texts(result: Any) -> str:
    return "\n".join(m.content.text for m in result.messages)


async def _refusal(call: Any) -> MCPError:
    with pytest.raises(MCPError) as info:
        await call
    return info.value


def test_python_sdk_prompts_and_resources_private_scope(memory: Path) -> None:
    memory_file = (memory / "MEMORY.md").read_text()

    async def scenario() -> None:
        async with mcp_session(memory) as session:
            prompts = {p.name: p for p in (await session.list_prompts()).prompts}
            assert set(prompts) == {"memory_flush", "session_start"}
            assert {a.name for a in prompts["memory_flush"].arguments} == {"date", "focus"}
            assert not any(a.required for p in prompts.values() for a in p.arguments)

            flush = _texts(await session.get_prompt("memory_flush", {"focus": "the Heron cutover"}))
            assert (
                TODAY_LOG in flush
                and "memory_append" in flush
                and "Nothing new to save." in flush
                and "NO_REPLY" not in flush
            )
            assert "append-only" in flush and "Pay particular attention to: the Heron cutover" in flush
            other_day = _texts(await session.get_prompt("memory_flush", {"date": YESTERDAY}))
            assert f"memory/{YESTERDAY}.md" in other_day and f"About {YESTERDAY}:" in other_day

            start = await session.get_prompt("session_start")
            start_text = _texts(start)
            assert start.messages[0].role == "user"
            assert "The user prefers tea over coffee." in start_text and "Robin" in start_text
            assert "Started the Heron cutover checklist." in start_text
            assert "memgit:entry" not in start_text and KEY not in start_text
            assert "[redacted: S102]" in start_text

            listed = {r.uri: r for r in (await session.list_resources()).resources}
            assert set(listed) == {
                "memgit://context",
                "memgit://daily/today",
                "memgit://file/MEMORY.md",
                "memgit://file/USER.md",
            }
            assert listed["memgit://file/MEMORY.md"].size == len(memory_file.encode())
            assert all(r.mime_type == "text/markdown" for r in listed.values())

            long_term = (await session.read_resource("memgit://file/MEMORY.md")).contents[0].text
            expected = strip_markers(memory_file).replace(
                f"- Deploy key {KEY} (pasted by mistake)", "- Deploy key [redacted: S102] (pasted by mistake)"
            )
            assert long_term == expected
            today = (await session.read_resource("memgit://daily/today")).contents[0].text
            assert today == (memory / TODAY_LOG).read_text()
            by_date = (await session.read_resource(f"memgit://daily/{TODAY.isoformat()}")).contents[0].text
            assert by_date == today
            note = (await session.read_resource("memgit://file/memory/2026-01-05.md")).contents[0].text
            assert note == (memory / "memory" / "2026-01-05.md").read_text()
            context = (await session.read_resource("memgit://context")).contents[0].text
            assert context == start_text

            templates = {t.name: t.uri_template for t in (await session.list_resource_templates()).resource_templates}
            assert templates == {"daily-log": "memgit://daily/{date}", "memory-file": "memgit://file/{+path}"}

            for uri in (
                f"memgit://daily/{YESTERDAY}",
                "memgit://file/../x.md",
                "memgit://file/.git/config",
                "file:///etc/passwd",
                "memgit://daily/someday",
            ):
                refused = await _refusal(session.read_resource(uri))
                assert refused.error.code == -32602, uri
            unknown = await _refusal(session.get_prompt("no_such_prompt"))
            assert unknown.error.code == -32602 and "Unknown prompt" in unknown.error.message
            bad_date = await _refusal(session.get_prompt("memory_flush", {"date": "tomorrow"}))
            assert bad_date.error.code == -32602 and "2026-02-06" in bad_date.error.message
            bad_budget = await _refusal(session.get_prompt("session_start", {"budget": "lots"}))
            assert bad_budget.error.code == -32602
            tiny = _texts(await session.get_prompt("session_start", {"budget": "60"}))
            assert "were cut to fit the context budget of 60 tokens" in tiny
            # The session goes on after every refusal.
            assert len((await session.list_prompts()).prompts) == 2

    run(scenario)
    assert git(memory, "status", "--porcelain") == ""  # reading wrote nothing


def test_read_only_session_reads_everything_and_hands_flush_notes_back(memory: Path) -> None:
    async def scenario() -> None:
        async with mcp_session(memory, "--read-only") as session:
            flush = _texts(await session.get_prompt("memory_flush"))
            assert "read-only" in flush and "memory_append will refuse" in flush
            assert f"Notes for {TODAY_LOG}" in flush and "Nothing new to save." in flush and "NO_REPLY" not in flush
            assert "Use the memory_append tool" not in flush
            listed = {r.uri for r in (await session.list_resources()).resources}
            assert "memgit://file/MEMORY.md" in listed
            assert "tea over coffee" in (await session.read_resource("memgit://file/MEMORY.md")).contents[0].text

    run(scenario)
    assert git(memory, "status", "--porcelain") == ""


def test_group_scope_keeps_private_files_out_of_prompts_and_resources(memory: Path) -> None:
    async def scenario() -> None:
        async with mcp_session(memory, "--scope", "group") as session:
            listed = {r.uri: r for r in (await session.list_resources()).resources}
            assert set(listed) == {"memgit://context", "memgit://daily/today"}
            assert "MEMORY.md" not in listed["memgit://context"].description
            for uri in (
                "memgit://file/MEMORY.md",
                "memgit://file/USER.md",
                "memgit://file/./MEMORY.md",
                "memgit://file/memory/../MEMORY.md",
            ):
                refused = await _refusal(session.read_resource(uri))
                assert refused.error.code == -32602, uri
            private = await _refusal(session.read_resource("memgit://file/MEMORY.md"))
            assert "group session" in private.error.message
            context = (await session.read_resource("memgit://context")).contents[0].text
            start = _texts(await session.get_prompt("session_start"))
            for text in (context, start):
                assert "group scope" in text and "Started the Heron cutover checklist." in text
                assert "tea over coffee" not in text and "Robin" not in text and "MEMORY.md" not in text
            flush = _texts(await session.get_prompt("memory_flush"))
            assert "MEMORY.md" not in flush and "group session" in flush

    run(scenario)


def test_the_2026_era_client_gets_prompts_and_resources(memory: Path) -> None:
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memgit", "mcp"], cwd=str(memory), env=_server_env()
    )

    async def scenario() -> None:
        async with Client(params) as client:
            assert client.protocol_version == "2026-07-28"
            assert {p.name for p in (await client.list_prompts()).prompts} == {"memory_flush", "session_start"}
            flush = await client.get_prompt("memory_flush")
            assert "answer with no text at all" in flush.messages[0].content.text
            assert {r.uri for r in (await client.list_resources()).resources} >= {"memgit://context"}
            read = await client.read_resource("memgit://file/USER.md")
            assert "Robin" in read.contents[0].text

    run(scenario)


def test_typescript_sdk_lists_gets_and_reads_in_a_group_read_only_session(memory: Path) -> None:
    node = shutil.which("node")
    if node is None or not (NODE_DIR / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        pytest.skip("node or tests/node/node_modules missing (./dev test runs npm ci there)")
    env = {**_server_env(), "TEST_DAY": TODAY.isoformat()}
    proc = subprocess.run(
        [
            node,
            str(NODE_DIR / "mcp_prompts_resources.mjs"),
            sys.executable,
            str(memory),
            "--read-only",
            "--scope",
            "group",
        ],
        cwd=NODE_DIR,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out["capabilities"]) >= {"prompts", "resources", "tools"}
    assert {p["name"] for p in out["prompts"]} == {"memory_flush", "session_start"}
    flush = out["flush"]["messages"][0]["content"]["text"]
    assert "read-only" in flush and "Pay particular attention to: the cutover" in flush and "MEMORY.md" not in flush
    start = out["start"]["messages"][0]["content"]["text"]
    assert "Started the Heron cutover checklist." in start and "tea over coffee" not in start
    assert {r["uri"] for r in out["resources"]} == {"memgit://context", "memgit://daily/today"}
    assert out["reads"]["memgit://daily/today"][0]["text"] == (memory / TODAY_LOG).read_text()
    assert out["reads"]["memgit://context"][0]["text"] == start
    assert out["byDate"][0]["text"] == (memory / TODAY_LOG).read_text()
    assert {t["name"] for t in out["templates"]} == {"daily-log", "memory-file"}
    assert out["memoryRefused"]["code"] == -32602 and "group session" in out["memoryRefused"]["message"]
    assert out["unknownUri"]["code"] == -32602
    assert out["unknownPrompt"]["code"] == -32602
    assert out["badDate"]["code"] == -32602


# ----------------------------------------------------------------------------- pure parts


def test_flush_text_follows_the_session() -> None:
    from memgit.config import McpConfig

    writable = flush_text(server_options(McpConfig()), day=TODAY, today=TODAY)
    assert writable.rstrip().endswith(
        "only the short acknowledgement `Nothing new to save.` (the user may see it: no code words, no summary)."
    )
    assert "memory_append tool" in writable and "MEMORY.md" in writable
    read_only = flush_text(server_options(McpConfig(), read_only=True), day=TODAY, today=TODAY)
    assert "memory_append will refuse" in read_only and "memory_append tool" not in read_only
    group = flush_text(server_options(McpConfig(), group=True), day=TODAY, today=TODAY)
    assert "MEMORY.md" not in group and "nothing personal" in group


def test_marker_lines_are_emptied_and_nothing_else() -> None:
    text = f"# M\n- a\n{MARKER}\n  <!-- memgit:entry broken\n<!-- a person's comment -->\n- b <!--mg:k3b71873e72-->"
    # line numbers stay (every `get` hint still points at the right line); a person's comment stays
    assert strip_markers(text) == "# M\n- a\n\n\n<!-- a person's comment -->\n- b"
    assert strip_markers("no markers\n") == "no markers\n"


def test_a_file_named_like_a_resource_but_linked_out_is_not_read(memory: Path, tmp_path: Path) -> None:
    outside = write(tmp_path / "secret.md", "outside the workspace\n")
    (memory / "memory" / "linked.md").symlink_to(outside)
    git(memory, "add", "-A")
    git(memory, "commit", "-qm", "a link out")

    async def scenario() -> None:
        async with mcp_session(memory) as session:
            refused = await _refusal(session.read_resource("memgit://file/memory/linked.md"))
            assert refused.error.code == -32602

    run(scenario)


def test_a_refusal_never_echoes_a_secret_in_the_name_asked_for(memory: Path) -> None:
    """A note named with its password is no memory path: the refusal says so without the name."""
    write(memory / "projects" / "nas-root-Tembo7!Kijani.md", "# NAS\n")
    commit_all(memory, "a note named with a password")

    async def scenario() -> None:
        async with mcp_session(memory) as session:
            secret = await _refusal(session.read_resource("memgit://file/projects/nas-root-Tembo7%21Kijani.md"))
            plain = await _refusal(session.read_resource("memgit://file/projects/nothing-here.md"))
            assert secret.error.code == plain.error.code == -32602
            assert "Tembo7" not in json.dumps(secret.error.data) and "[redacted: " in json.dumps(secret.error.data)
            assert plain.error.data == {
                "uri": "memgit://file/projects/nothing-here.md",
                "path": "projects/nothing-here.md",
            }

    run(scenario)
