"""`memgit capture`: host transcripts into sessions/YYYY-MM-DD-<session>.jsonl.

The pure parts (formats, keys, redaction, file parts) on fixtures written from the hosts'
documented formats, then the CLI on real git workspaces: incremental captures that commit once
each, the memory lint and index hooks running on those commits, and every bad input refused in
one line with nothing written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memgit.core.transcript_formats import TranscriptError, Turn, detect_format, parse_transcript, tool_line
from memgit.lint.rules import LintSettings
from memgit.memory.capture import part_name, render_turn, session_files, session_name, split_parts
from tests.helpers import TESTS_DIR, assert_clean_error, commit_all, git, memgit, wait_until, write
from tests.memory.test_append_refusals import one_error, snapshot, unprivileged

FIXTURE = TESTS_DIR / "fixtures" / "claude_code_session.jsonl"
SESSION = "5f0c8a52-3d1e-4c8b-9a57-2b6f1e4d7c90"
KEY = "AKIAZ7QW3ERTY5UIOP2L"
#: The fixture up to the moment the host compacts (the rest comes after the compaction).
BEFORE_COMPACTION = 9
NOW = {"MEMGIT_NOW": "2026-12-01T10:30:00+00:00", "MEMGIT_EMBEDDING": "none"}
SESSION_FILE = f"sessions/2026-12-01-{SESSION}.jsonl"


def fixture_lines(count: int | None = None) -> str:
    lines = FIXTURE.read_text().splitlines(keepends=True)
    return "".join(lines[:count] if count else lines)


# ----------------------------------------------------------------------------- formats


def test_claude_code_keeps_what_was_said_and_one_line_per_tool_call() -> None:
    parsed = parse_transcript(fixture_lines())
    assert parsed.format == "claude-code" and parsed.session == SESSION and parsed.unreadable == 0
    assert [(t.role, t.text[:24]) for t in parsed.turns] == [
        ("user", "We move the Heron stagin"),
        ("assistant", "Noted: the Heron staging"),
        ("tool", "Bash: git log --oneline "),
        ("assistant", "The rollback rehearsal o"),
        ("user", "Good. Priya owns the cut"),
        ("assistant", "Noted: Priya owns the He"),
        ("user", "What did we decide about"),
        ("assistant", "We decided to keep the r"),
    ]
    said = "\n".join(t.text for t in parsed.turns)
    # Hidden reasoning, tool output, host caveats, the compaction summary and a sub-agent: left out.
    for absent in ("should not be repeated", "9c2e1d4", "Caveat:", "being continued", "Subagent scratch"):
        assert absent not in said
    assert parsed.turns[0].at == "2026-12-01T09:14:02.118Z"


def test_keys_are_stable_as_the_transcript_grows() -> None:
    early = parse_transcript(fixture_lines(BEFORE_COMPACTION)).turns
    late = parse_transcript(fixture_lines()).turns
    assert [t.key for t in late[: len(early)]] == [t.key for t in early]
    assert len({t.key for t in late}) == len(late)


def test_openai_chat_completions_array() -> None:
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": [{"type": "text", "text": "What is the weather in Lisbon?"}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Lisbon"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '{"celsius": 18}'},
        {"role": "assistant", "content": "It is 18 degrees in Lisbon."},
    ]
    parsed = parse_transcript(json.dumps(messages))
    assert parsed.format == "openai"
    assert [(t.role, t.text) for t in parsed.turns] == [
        ("user", "What is the weather in Lisbon?"),
        ("tool", 'get_weather: {"city": "Lisbon"}'),
        ("assistant", "It is 18 degrees in Lisbon."),
    ]
    wrapped = parse_transcript(json.dumps({"model": "gpt-5", "messages": messages}), "openai")
    assert [t.key for t in wrapped.turns] == [t.key for t in parsed.turns]


def test_codex_rollout_and_responses_items() -> None:
    records = [
        {
            "timestamp": "2026-12-01T08:00:00.000Z",
            "type": "session_meta",
            "payload": {"id": "0199a3c2-codex-session", "cwd": "/work", "originator": "codex_cli_rs"},
        },
        {
            "timestamp": "2026-12-01T08:00:00.100Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>"}
                ],
            },
        },
        {
            "timestamp": "2026-12-01T08:00:01.000Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "List the migrations."}],
            },
        },
        {
            "timestamp": "2026-12-01T08:00:02.000Z",
            "type": "response_item",
            "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": "thinking"}]},
        },
        {
            "timestamp": "2026-12-01T08:00:03.000Z",
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "call_id": "c1",
                "arguments": '{"command": ["bash", "-lc", "ls migrations"]}',
            },
        },
        {
            "timestamp": "2026-12-01T08:00:04.000Z",
            "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": "c1", "output": "0001_init.sql"},
        },
        {"timestamp": "2026-12-01T08:00:05.000Z", "type": "event_msg", "payload": {"type": "token_count"}},
        {
            "timestamp": "2026-12-01T08:00:06.000Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "One migration: 0001_init.sql."}],
            },
        },
    ]
    parsed = parse_transcript("\n".join(json.dumps(r) for r in records) + "\n")
    assert parsed.format == "openai" and parsed.session == "0199a3c2-codex-session"
    assert [(t.role, t.text) for t in parsed.turns] == [
        ("user", "List the migrations."),
        ("tool", "shell: bash -lc ls migrations"),
        ("assistant", "One migration: 0001_init.sql."),
    ]
    assert parsed.turns[0].at == "2026-12-01T08:00:01.000Z"


def test_generic_records_and_repeated_sentences() -> None:
    text = (
        "\n".join(
            json.dumps(r)
            for r in [
                {"speaker": "Human", "text": "ok"},
                {"speaker": "AI", "text": "Shall I go on?"},
                {"speaker": "human", "text": "ok"},
                {"role": "system", "content": "ignored"},
                {"speaker": "tool", "text": "ignored too"},
            ]
        )
        + "\nnot json at all\n"
    )
    parsed = parse_transcript(text, "generic")
    assert [(t.role, t.text) for t in parsed.turns] == [("user", "ok"), ("assistant", "Shall I go on?"), ("user", "ok")]
    assert parsed.turns[0].key != parsed.turns[2].key  # the same words twice are two turns
    assert parsed.unreadable == 1
    assert detect_format([{"speaker": "Human", "text": "ok"}]) == "generic"
    with pytest.raises(TranscriptError):
        parse_transcript("not json\nnor this\n")
    with pytest.raises(TranscriptError):
        parse_transcript("[]", "markdown")
    assert parse_transcript("").turns == []


def test_tool_lines_are_one_short_line() -> None:
    assert tool_line("Read", {"file_path": "/src/app.py", "offset": 10}) == "Read: /src/app.py"
    assert tool_line("Bash", {"command": "echo a\n  && echo b"}) == "Bash: echo a && echo b"
    assert tool_line(None, None) == "tool"
    long = tool_line("Bash", {"command": "x" * 500})
    assert len(long) == 160 and long.endswith("\u2026") and "\n" not in long


def test_session_names_files_and_parts() -> None:
    assert session_name(SESSION) == SESSION
    odd = session_name("chat/42: Ünïcode")
    assert odd.startswith("chat-42-") and all(c.isalnum() or c in "-_" for c in odd)
    assert session_name("chat/42: Ünïcode") != session_name("chat/42: Unicode")
    assert len(session_name("x" * 300)) == 64 and session_name("") == "session-da39a3ee"
    names = [
        "2026-12-01-abc.3.jsonl",
        "2026-12-01-abc.jsonl",
        "2026-12-01-abc.2.jsonl",
        "2026-12-01-abcd.jsonl",
        "2026-12-01-abc.jsonl.lock",
        "notes.md",
    ]
    assert session_files(names, "abc") == ["2026-12-01-abc.jsonl", "2026-12-01-abc.2.jsonl", "2026-12-01-abc.3.jsonl"]
    assert part_name("2026-12-01-abc.jsonl", 2) == "2026-12-01-abc.2.jsonl"
    assert part_name("2026-12-01-abc.jsonl", 1) == "2026-12-01-abc.jsonl"
    assert split_parts([10, 10, 10], 0, 25) == [2, 1]
    assert split_parts([10, 10], 20, 25) == [0, 2]
    assert split_parts([100], 0, 25) == [1]  # too big for any part: a part of its own
    assert split_parts([], 5, 25) == [0]


def test_redaction_before_writing_line_by_line_then_the_whole_record() -> None:
    settings = LintSettings()
    line, codes = render_turn(Turn("user", f"first line\nthe key is {KEY}\nlast line", "k1"), settings)
    record = json.loads(line)
    assert record["content"] == "first line\nthe key is [redacted: S102]\nlast line" and codes == ["S102"]
    # Each line alone is innocent; the encoded record (one line) is not: its value goes, the words stay.
    line, codes = render_turn(Turn("user", "the wifi password\n is Tr0ub4dor-x9", "k2"), settings)
    assert json.loads(line)["content"] == "the wifi password\n is [redacted: S104]" and codes == ["S104"]
    line, codes = render_turn(Turn("user", 'the wifi password\n is "Tr0ub4dor-x9"', "k5"), settings)
    assert json.loads(line)["content"] == 'the wifi password\n is "[redacted: S104]"' and codes == ["S104"]
    line, codes = render_turn(Turn("user", "half an emoji \ud83d here", "k4"), settings)
    assert json.loads(line)["content"] == "half an emoji \ufffd here" and line.encode("utf-8")
    line, codes = render_turn(Turn("assistant", "Nothing secret\u2028here", "k3", "2026-12-01T09:00:00Z"), settings)
    assert codes == [] and "\\u2028" in line and json.loads(line)["at"] == "2026-12-01T09:00:00Z"


# ----------------------------------------------------------------------------- the CLI


@pytest.fixture
def hooked(tmp_path: Path) -> Path:
    """A memory workspace made by `memgit init`, with memgit's git hooks (lint and index)."""
    root = tmp_path / "mem"
    assert memgit(tmp_path, "init", "mem").returncode == 0
    write(root / "MEMORY.md", "# Long-term Memory\n\n- The Heron project moves to Postgres 16.\n")
    commit_all(root, "init")
    installed = memgit(root, "hooks", "install")
    assert installed.returncode == 0, installed.stderr
    return root


def capture(root: Path, transcript: Path, *args: str) -> dict:
    proc = memgit(root, "capture", "--transcript", str(transcript), *args, "--json", env=NOW)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", proc.stderr
    return json.loads(proc.stdout)


def test_capture_twice_commits_only_new_turns_redacted_and_indexed(hooked: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "t.jsonl", fixture_lines(BEFORE_COMPACTION))
    head = git(hooked, "rev-parse", "HEAD").strip()
    first = capture(hooked, transcript)
    assert (first["path"], first["added"], first["already"]) == (SESSION_FILE, 6, 0)
    assert first["redacted"] == {"S102": 1} and first["indexed"] is True
    assert (first["start_line"], first["end_line"]) == (1, 6)

    write(transcript, fixture_lines())  # the host went on, compacted, went on
    second = capture(hooked, transcript)
    assert (second["added"], second["already"], second["start_line"], second["end_line"]) == (2, 6, 7, 8)
    third = capture(hooked, transcript)
    assert (third["added"], third["commit"]) == (0, None)

    commits = git(hooked, "rev-list", f"{head}..HEAD").split()
    assert commits == [second["commit"], first["commit"]]
    for commit in commits:
        assert git(hooked, "show", "--name-only", "--format=", commit).split() == [SESSION_FILE]
    assert KEY not in git(hooked, "log", "-p", "--all") and KEY not in (hooked / SESSION_FILE).read_text()
    stored = [json.loads(line) for line in (hooked / SESSION_FILE).read_text().splitlines()]
    assert len({r["turn"] for r in stored}) == len(stored) == 8
    assert git(hooked, "status", "--porcelain") == ""
    assert git(hooked, "check-attr", "merge", SESSION_FILE).strip().endswith("merge: union")

    found = json.loads(memgit(hooked, "search", "quillfeather flag", "--json", env=NOW).stdout)
    assert found["hits"] and found["hits"][0]["path"] == SESSION_FILE
    assert found["hits"][0]["commit"] == second["commit"]  # indexed at the capture's commit
    shown = memgit(hooked, "get", f"{SESSION_FILE}:8", env=NOW)
    assert "quillfeather" in shown.stdout


def test_capture_without_git_hooks_indexes_by_itself(workspace: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "t.jsonl", fixture_lines())
    result = capture(workspace, transcript)
    assert result["indexed"] is True and result["added"] == 8
    status = json.loads(memgit(workspace, "status", "--json", env=NOW).stdout)
    assert status["indexed_commit"] == result["commit"] == git(workspace, "rev-parse", "HEAD").strip()
    found = json.loads(memgit(workspace, "search", "quillfeather", "--json", env=NOW).stdout)
    assert found["hits"][0]["path"] == SESSION_FILE


def test_capture_any_host_with_a_session_name(hooked: Path, tmp_path: Path) -> None:
    transcript = write(
        tmp_path / "chat.json",
        json.dumps(
            [
                {"role": "user", "content": "Please note the staging freeze starts 2026-12-10."},
                {"role": "assistant", "content": "Noted: staging freeze from 2026-12-10 (the marmoset window)."},
            ]
        ),
    )
    result = capture(hooked, transcript, "--format", "openai", "--session", "team chat #4")
    assert result["format"] == "openai" and result["added"] == 2
    assert result["path"].startswith("sessions/2026-12-01-team-chat-4-")
    text = memgit(hooked, "capture", "--transcript", str(transcript), "--session", "team chat #4", env=NOW)
    assert (
        text.returncode == 0 and "nothing new to capture" in text.stdout and "2 turns already captured" in text.stdout
    )
    found = json.loads(memgit(hooked, "search", "marmoset window", "--json", env=NOW).stdout)
    assert found["hits"][0]["path"] == result["path"]


def test_a_long_session_continues_in_parts_the_lint_accepts(hooked: Path, tmp_path: Path) -> None:
    write(hooked / "memgit.toml", "[lint]\nmax_file_bytes = 700\n")
    commit_all(hooked, "small files")
    transcript = write(tmp_path / "t.jsonl", fixture_lines())
    result = capture(hooked, transcript)
    assert result["added"] == 8 and len(result["paths"]) >= 3
    parts = session_files([p.name for p in (hooked / "sessions").iterdir()], SESSION)
    assert (
        len(parts) == len(result["paths"])
        and parts[0] == f"2026-12-01-{SESSION}.jsonl"
        and parts[1] == f"2026-12-01-{SESSION}.2.jsonl"
    )
    assert all((hooked / "sessions" / p).stat().st_size <= 700 for p in parts)
    assert git(hooked, "status", "--porcelain") == ""  # the lint hook let the commit through
    again = capture(hooked, transcript)
    assert (again["added"], again["already"]) == (0, 8)


def test_bad_input_is_one_line_and_nothing_is_written(hooked: Path, tmp_path: Path) -> None:
    good = write(tmp_path / "t.jsonl", fixture_lines())
    before = snapshot(hooked)

    def refused(*args: str, needle: str, env: dict | None = None) -> None:
        one_error(memgit(hooked, "capture", *args, env={**NOW, **(env or {})}), needle)
        assert snapshot(hooked) == before, args

    refused("--transcript", str(tmp_path / "missing.jsonl"), needle="does not exist")
    refused("--transcript", str(tmp_path), needle="not a regular file")
    refused(
        "--transcript", str(write(tmp_path / "x.txt", "hello\nworld\n")), needle="no line of the transcript is JSON"
    )
    refused("--transcript", str(good), "--session", " ", needle="--session is empty")
    assert_clean_error(memgit(hooked, "capture", "--transcript", str(good), "--format", "yaml"), "yaml")
    refused("--transcript", str(good), needle="MEMGIT_NOW", env={"MEMGIT_NOW": "soon"})


def test_unreadable_transcript(hooked: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "t.jsonl", fixture_lines())
    transcript.chmod(0)
    before = snapshot(hooked)
    one_error(unprivileged(hooked, "capture", "--transcript", str(transcript)), "cannot read")
    assert snapshot(hooked) == before


def test_merge_in_progress_and_a_sessions_file_refuse_before_writing(hooked: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "t.jsonl", fixture_lines())
    git(hooked, "checkout", "-q", "-b", "other")
    write(hooked / "MEMORY.md", "# Long-term Memory\n\n- Other side.\n")
    commit_all(hooked, "other")
    git(hooked, "checkout", "-q", "main")
    write(hooked / "MEMORY.md", "# Long-term Memory\n\n- This side.\n")
    commit_all(hooked, "this")
    git(hooked, "merge", "other", check=False)
    assert (hooked / ".git" / "MERGE_HEAD").exists()
    before = snapshot(hooked)
    one_error(memgit(hooked, "capture", "--transcript", str(transcript), env=NOW), "during a merge")
    assert snapshot(hooked) == before
    git(hooked, "merge", "--abort")

    write(hooked / "sessions", "a file where the folder belongs\n")
    before = snapshot(hooked)
    one_error(memgit(hooked, "capture", "--transcript", str(transcript), env=NOW), "not a folder")
    assert snapshot(hooked) == before


def test_a_refused_commit_takes_the_capture_back(hooked: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "t.jsonl", fixture_lines(BEFORE_COMPACTION))
    capture(hooked, transcript)
    blocker = hooked / ".git" / "hooks" / "pre-commit.legacy"  # memgit's pre-commit chains it first
    write(blocker, "#!/bin/sh\necho 'policy: no commits today' >&2\nexit 1\n").chmod(0o755)
    write(transcript, fixture_lines())
    before = snapshot(hooked)
    line = one_error(memgit(hooked, "capture", "--transcript", str(transcript), env=NOW), "git commit failed")
    assert "nothing was written" in line
    assert snapshot(hooked) == before  # the file is as committed, nothing staged
    blocker.unlink()
    assert capture(hooked, transcript)["added"] == 2  # the turns were never lost


def test_a_dirty_work_tree_stays_as_it_was(hooked: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "t.jsonl", fixture_lines())
    write(hooked / "MEMORY.md", "# Long-term Memory\n\n- Staged, not committed.\n")
    git(hooked, "add", "MEMORY.md")
    write(hooked / "MEMORY.md", "# Long-term Memory\n\n- Staged, then edited again.\n")
    write(hooked / "memory" / "draft.md", "- untracked draft\n")
    status = git(hooked, "status", "--porcelain")
    staged = git(hooked, "diff", "--cached")
    result = capture(hooked, transcript)
    assert git(hooked, "show", "--name-only", "--format=", result["commit"]).split() == [SESSION_FILE]
    assert git(hooked, "status", "--porcelain") == status and git(hooked, "diff", "--cached") == staged
    assert (hooked / "MEMORY.md").read_text().endswith("Staged, then edited again.\n")


def test_turns_appended_but_not_committed_are_committed_next_time(hooked: Path, tmp_path: Path) -> None:
    transcript = write(tmp_path / "t.jsonl", fixture_lines())
    capture(hooked, transcript)
    # An earlier run was killed between its write and its commit: its lines sit in the work tree.
    path = hooked / SESSION_FILE
    git(hooked, "reset", "-q", "--soft", "HEAD~1")
    git(hooked, "reset", "-q")
    assert git(hooked, "status", "--porcelain", "--untracked-files=all").strip() == f"?? {SESSION_FILE}"
    again = capture(hooked, transcript)
    assert again["added"] == 0 and again["commit"] is not None
    assert git(hooked, "status", "--porcelain") == "" and len(path.read_text().splitlines()) == 8


def test_a_value_found_in_one_turn_is_hidden_in_every_turn_of_the_session(hooked: Path, tmp_path: Path) -> None:
    """What the conversation's rules find once (a code given as the answer to a question, a
    password under its label) is a secret in every turn of that session, however far later it is
    repeated and in whatever words: a window of turns around it is a wording rule by another name."""
    code, wifi = "7-4-0-9", "Lachs-Ufer-2231"
    chat = [
        {"role": "assistant", "content": "Got it. And what's the new code for the back gate?"},
        {"role": "user", "content": code},
        {"role": "user", "content": "Guest Wi-Fi password:"},
        {"role": "user", "content": wifi},
        {"role": "assistant", "content": "Noted. Anything else for the opening checklist?"},
        {"role": "user", "content": "Order more oat milk and check the fridge thermometer."},
        {"role": "assistant", "content": "Added both to the checklist for Monday."},
        {"role": "user", "content": "Remind Jonas about the delivery at 6."},
    ]
    transcript = write(tmp_path / "chat.json", json.dumps(chat))
    first = capture(hooked, transcript, "--format", "openai", "--session", "cafe")
    assert first["added"] == 8
    chat += [
        {"role": "assistant", "content": f"Reminder set. Jonas can get in through the back with {code}."},
        {"role": "user", "content": f"And tell the new barista it's {wifi} for the tablet."},
    ]
    write(transcript, json.dumps(chat))
    second = capture(hooked, transcript, "--format", "openai", "--session", "cafe")
    assert second["added"] == 2
    stored = (hooked / first["path"]).read_text(encoding="utf-8")
    assert code not in stored and wifi not in stored
    assert "Jonas can get in through the back with [redacted" in stored  # the turn itself is kept
    assert code not in git(hooked, "log", "-p", "--all") and wifi not in git(hooked, "log", "-p", "--all")
    # what the session held is kept beside the index, for the owner only, never in the work tree
    kept = list((hooked / ".git" / "memgit" / "session-secrets").glob("*.json"))
    assert len(kept) == 1 and kept[0].stat().st_mode & 0o077 == 0 and code in kept[0].read_text()
    assert code not in "".join(
        p.read_text(errors="replace") for p in hooked.rglob("*") if p.is_file() and ".git" not in p.parts
    )


def test_a_sessions_kept_values_go_after_a_month_untouched_and_a_later_capture_finds_them_again(
    hooked: Path, tmp_path: Path
) -> None:
    """The values a session held are secrets on disk: kept while that session may be captured
    again, gone once no capture touched them for `SESSION_SECRETS_DAYS`. A session captured after
    that is scanned again from its transcript, so its secret stays hidden."""
    from datetime import datetime

    from memgit.memory.capture import SESSION_SECRETS_DAYS

    code = "7-4-0-9"
    chat = [
        {"role": "assistant", "content": "What's the new code for the back gate?"},
        {"role": "user", "content": code},
    ]
    old = write(tmp_path / "old.json", json.dumps(chat))
    capture(hooked, old, "--format", "openai", "--session", "old")
    capture(hooked, write(tmp_path / "recent.json", json.dumps(chat)), "--format", "openai", "--session", "recent")
    folder = hooked / ".git" / "memgit" / "session-secrets"
    before = {p.name: p for p in folder.glob("*.json")}
    assert len(before) == 2
    now = datetime.fromisoformat(NOW["MEMGIT_NOW"]).timestamp()
    day = 86400
    aged = {
        name: now - (SESSION_SECRETS_DAYS + 1 if i == 0 else SESSION_SECRETS_DAYS - 1) * day
        for i, name in enumerate(sorted(before))
    }
    for name, when in aged.items():
        os.utime(before[name], (when, when))
    capture(hooked, write(tmp_path / "new.json", json.dumps(chat[:1])), "--format", "openai", "--session", "new")
    left = {p.name for p in folder.glob("*.json")}
    gone = min(aged, key=aged.__getitem__)
    assert gone not in left and set(before) - {gone} <= left and len(left) == 2
    chat.append({"role": "user", "content": f"tell Jonas it's {code} from Monday"})
    for name in ("old.json", "recent.json"):
        write(tmp_path / name, json.dumps(chat))
        capture(hooked, tmp_path / name, "--format", "openai", "--session", name.removesuffix(".json"))
    stored = "".join(p.read_text(encoding="utf-8") for p in (hooked / "sessions").glob("*"))
    assert "tell Jonas it's [redacted" in stored and code not in stored


def test_a_long_captured_session_is_scanned_for_secrets_in_the_background(hooked: Path, tmp_path: Path) -> None:
    """The next command that prints or copies memory (the host's SessionStart, the session's
    next capture) would scan a captured session's new text while its user waits: the capture's
    commit starts that scan detached instead, so the values cache holds the new file's blob."""
    assert memgit(hooked, "context", env=NOW).returncode == 0  # the clone's first scan, done
    cache = hooked / ".git" / "memgit" / "secret-values.json"
    log = hooked / ".git" / "memgit" / "fill.log"
    before = set(json.loads(cache.read_text())["blobs"])
    chat = []
    for n in range(150):
        chat.append({"role": "user", "content": f"Note {n}: the kestrel shipment {n} moved to bay {n % 7}."})
        chat.append({"role": "assistant", "content": f"Logged shipment {n} for bay {n % 7}."})
    transcript = write(tmp_path / "long.json", json.dumps(chat))
    proc = memgit(
        hooked,
        "capture",
        "--transcript",
        str(transcript),
        "--format",
        "openai",
        "--session",
        "long",
        "--json",
        env={**NOW, "MEMGIT_BACKGROUND_FILL": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    stored = json.loads(proc.stdout)["path"]
    blob = git(hooked, "rev-parse", f"HEAD:{stored}").strip()
    assert blob not in before
    wait_until(lambda: log.is_file() and "memgit scan:" in log.read_text(), "the background scan ended")
    assert blob in json.loads(cache.read_text())["blobs"]


def test_a_turn_no_rule_hit_is_stored_as_its_full_redaction_would_store_it() -> None:
    """A capture reads each new turn's text once, for the conversation's secrets; a turn that
    reading found clean is not redacted a second time. Whatever the turn, the stored line is the
    one the full redaction writes (secrets and look-alikes of the corpus, CRLF, a known value)."""
    from bench.secrets_corpus import corpus
    from memgit.lint.redact import conversation_secrets

    texts = [sample.text for sample in corpus(seed=3, variants=1)]
    texts += ["line one\r\nline two\r\n", "Plain talk about the Heron cutover.", "ok"]
    texts.append("The cabin router still uses Lachs-Ufer-2231, as last week.")
    said = [("user" if n % 2 else "assistant", text) for n, text in enumerate(texts)]
    settings = LintSettings(known={"Lachs-Ufer-2231": "S117"})
    found = conversation_secrets(said)
    assert any(found.clean) and not all(found.clean)
    for at, (role, text) in enumerate(said):
        turn = Turn(role, text, f"k{at}")
        quick = render_turn(turn, settings, found.for_turn(at), clean=found.clean[at])
        assert quick == render_turn(turn, settings, found.for_turn(at)), text
    # a turn the reading found clean still hides a value known from elsewhere in the workspace
    stored = render_turn(Turn("user", texts[-1], "k"), settings, {}, clean=True)[0]
    assert "Lachs-Ufer-2231" not in stored and "[redacted: S117]" in stored


def test_a_capture_shows_its_progress_off_a_terminal_and_keeps_its_json_whole(hooked: Path, tmp_path: Path) -> None:
    chat = [{"role": "user", "content": f"Step {n}: the heron crates go to bay {n % 5}."} for n in range(40)]
    transcript = write(tmp_path / "steps.json", json.dumps(chat))
    env = {**NOW, "MEMGIT_PROGRESS_EVERY": "0"}  # a line at every step, as a pipe reads it
    proc = memgit(
        hooked, "capture", "--transcript", str(transcript), "--format", "openai", "--session", "s", "--json", env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["added"] == 40  # stdout is the document alone
    counts = [
        line.split(":")[-1].split()[0] for line in proc.stderr.splitlines() if line.startswith("memgit: capture:")
    ]
    done = [int(c.split("/")[0]) for c in counts]
    assert done == sorted(done) and counts[-1] == "80/80"  # 40 turns read for secrets, then 40 stored
    quiet = memgit(hooked, "capture", "--transcript", str(transcript), "--session", "s", env=NOW)
    assert quiet.returncode == 0 and quiet.stderr == ""  # nothing new: nothing to show
