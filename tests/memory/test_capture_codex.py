"""Codex rollouts through `memgit capture`: the compaction summary Codex writes as an assistant
message just before its `compacted` record is the host's, not the assistant's, and is left out;
the commit counts turns as turns, tool calls apart (issue 48)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memgit.core.transcript_formats import codex_summaries, parse_transcript
from tests.helpers import git, memgit, write

SUMMARY = "Summary of the conversation so far: the user asked about the Heron cutover; it moved to Thursday."


def _item(payload: dict[str, Any], at: str) -> dict[str, Any]:
    return {"timestamp": at, "type": "response_item", "payload": payload}


def _message(role: str, text: str, at: str) -> dict[str, Any]:
    kind = "input_text" if role == "user" else "output_text"
    return _item({"type": "message", "role": role, "content": [{"type": kind, "text": text}]}, at)


def rollout() -> list[dict[str, Any]]:
    """A Codex CLI 0.171.0 rollout, as REFERENCE describes it: meta, turns, a tool call, the
    compaction (summary message, event, `compacted`), then the session going on."""
    return [
        {"timestamp": "2026-12-01T09:00:00Z", "type": "session_meta", "payload": {"id": "codex-s1", "cwd": "/m"}},
        _message("user", "When is the Heron cutover?", "2026-12-01T09:00:01Z"),
        _item(
            {"type": "function_call", "name": "shell", "arguments": '{"command": ["git", "log"]}', "call_id": "c1"},
            "2026-12-01T09:00:02Z",
        ),
        _message("assistant", "It moved to Thursday.", "2026-12-01T09:00:03Z"),
        _message("assistant", SUMMARY, "2026-12-01T09:30:00Z"),
        {"timestamp": "2026-12-01T09:30:00Z", "type": "event_msg", "payload": {"type": "context_compacted"}},
        {"timestamp": "2026-12-01T09:30:01Z", "type": "compacted", "payload": {"message": SUMMARY}},
        _message("user", "Who owns the rollback?", "2026-12-01T09:31:00Z"),
        _message("assistant", "Priya owns it.", "2026-12-01T09:31:05Z"),
    ]


def test_the_summary_is_found_before_its_compacted_record() -> None:
    records = rollout()
    assert codex_summaries(records) == {4}
    said = [t.text for t in parse_transcript("\n".join(json.dumps(r) for r in records), "openai").turns]
    assert SUMMARY not in said and "Priya owns it." in said
    # Even where the summary is not right before `compacted`, its text (the record's message) gives it away.
    moved = [*records[:4], *records[5:7], records[4], *records[7:]]
    assert codex_summaries(moved) == {6}
    # A `compacted` record without the text: the assistant message right before it is the summary.
    bare = [*records[:6], {"timestamp": "2026-12-01T09:30:01Z", "type": "compacted", "payload": {}}, *records[7:]]
    assert codex_summaries(bare) == {4}
    # As the real host writes it (tests/hosts): the record's text is a hand-off preamble ending in the
    # summary, with a usage record between; a later answer of the same words is the assistant's.
    wrapped = [
        *records[:5],
        {"timestamp": "2026-12-01T09:30:00Z", "type": "token_usage_record", "payload": {"usage": {}}},
        records[5],
        {
            "timestamp": "2026-12-01T09:30:01Z",
            "type": "compacted",
            "payload": {"message": f"Another model:\n{SUMMARY}"},
        },
        *records[7:],
        _message("assistant", SUMMARY, "2026-12-01T09:32:00Z"),
    ]
    assert codex_summaries(wrapped) == {4}
    # A record whose text does not end with the message before it marks nothing there.
    other = [*wrapped[:7], {"type": "compacted", "payload": {"message": "Another model:\nsomething else"}}]
    assert codex_summaries(other) == set()


def test_capture_leaves_the_summary_out_and_counts_turns(workspace: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "rollout.jsonl", "".join(json.dumps(r) + "\n" for r in rollout()))
    proc = memgit(workspace, "capture", "--transcript", str(transcript), env={"MEMGIT_EMBEDDING": "none"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("captured 4 new turns and 1 tool call of session codex-s1 into sessions/")
    (stored,) = (workspace / "sessions").glob("*.jsonl")
    lines = [json.loads(line) for line in stored.read_text().splitlines()]
    assert [r["role"] for r in lines] == ["user", "tool", "assistant", "user", "assistant"]
    assert SUMMARY not in stored.read_text()
    assert git(workspace, "log", "-1", "--format=%s").strip() == (
        "sessions: capture 4 turns and 1 tool call of session codex-s1"
    )
