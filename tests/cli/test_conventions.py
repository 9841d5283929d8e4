"""The CLI's conventions, checked on every command (issue 48): every option has help and is in the
docs next to its command; a usage error is one line; NO_COLOR turns styling off even on a
terminal; installers run twice change nothing the second time."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import click
import pytest

from memgit.cli import cli
from tests.helpers import REPO_ROOT, git, memgit, memgit_json

BM25 = {"MEMGIT_EMBEDDING": "none"}


def _commands(group: click.Group, prefix: str = "memgit") -> list[tuple[str, click.Command]]:
    out: list[tuple[str, click.Command]] = []
    for name, command in sorted(group.commands.items()):
        out.append((f"{prefix} {name}", command))
        if isinstance(command, click.Group):
            out += _commands(command, f"{prefix} {name}")
    return out


def _options() -> list[tuple[str, click.Option]]:
    return [
        (path, param)
        for path, command in _commands(cli)
        for param in command.params
        if isinstance(param, click.Option) and not param.hidden
    ]


def _doc_passages() -> list[str]:
    """Paragraphs and lines of README.md and docs/*.md: where a command and its option meet."""
    texts = [(REPO_ROOT / "README.md").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in sorted((REPO_ROOT / "docs").glob("*.md"))]
    return [b for t in texts for b in re.split(r"\n\s*\n", t)] + [line for t in texts for line in t.splitlines()]


def test_every_option_has_help() -> None:
    missing = [f"{path} {'/'.join(p.opts)}" for path, p in _options() if not (p.help or "").strip()]
    assert not missing, missing


def test_every_option_is_documented_beside_its_command() -> None:
    passages = _doc_passages()
    missing = []
    for path, param in _options():
        names = [*param.opts, *param.secondary_opts]
        longs = [name for name in names if name.startswith("--")] or names
        if not any(
            path in passage and any(re.search(re.escape(name) + r"(?![\w-])", passage) for name in longs)
            for passage in passages
        ):
            missing.append(f"{path} {'/'.join(names)}")
    assert not missing, f"options no doc mentions beside their command: {missing}"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["search", "-k", "many", "tea"], "Invalid value for '-k'"),
        (["index", "--nope"], "No such option '--nope'"),
        (["nonsense"], "No such command 'nonsense'"),
        (["hooks", "install", "--settings", "project"], "--project and --settings go with --agent"),
        (["get"], "Missing argument 'SPEC'"),
    ],
)
def test_a_usage_error_is_one_line(workspace: Path, args: list[str], needle: str) -> None:
    proc = memgit(workspace, *args, env=BM25)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("memgit: error: ") and needle in lines[0], proc.stderr
    assert re.search(r"\(see `memgit[a-z ]*-h`\)$", lines[0]), lines[0]


def _on_a_terminal(workspace: Path, env: dict[str, str]) -> bytes:
    """`memgit search` with its stdout on a pseudo-terminal (where click styles output)."""
    main, tty = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "memgit", "search", "billing"],
        cwd=workspace,
        stdout=tty,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **BM25, **env},
    )
    os.close(tty)
    out = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(main)
    return out


def test_no_color_turns_styling_off_on_a_terminal(workspace: Path) -> None:
    env = {key: "" for key in ("NO_COLOR",)}
    styled = _on_a_terminal(workspace, env)
    assert b"memory/2026-01-05.md" in styled and b"\x1b[" in styled  # bold hit lines on a terminal
    plain = _on_a_terminal(workspace, {"NO_COLOR": "1"})
    assert b"memory/2026-01-05.md" in plain and b"\x1b[" not in plain


def test_installers_run_twice_change_nothing_the_second_time(workspace: Path, tmp_path: Path) -> None:
    assert memgit(workspace, "init", ".", "--hooks").returncode == 0
    hooks = workspace / ".git" / "hooks"
    before = {p.name: p.read_bytes() for p in hooks.iterdir()}
    again = memgit_json(workspace, "hooks", "install")
    assert all(action.endswith("already installed") for action in again["actions"]), again["actions"]
    assert {p.name: p.read_bytes() for p in hooks.iterdir()} == before

    first = memgit_json(workspace, "hooks", "install", "--agent", "claude-code")
    assert first["changed"] is True
    settings = workspace / ".claude" / "settings.local.json"
    exclude = workspace / ".git" / "info" / "exclude"
    state = (settings.read_bytes(), exclude.read_bytes())
    second = memgit_json(workspace, "hooks", "install", "--agent", "claude-code")
    assert second["changed"] is False and second["actions"] == ["memgit's hooks are already in place"]
    assert (settings.read_bytes(), exclude.read_bytes()) == state
    assert exclude.read_text().splitlines().count("/.claude/settings.local.json") == 1

    home = {"HOME": str(tmp_path / "home")}
    assert memgit_json(workspace, "hooks", "install", "--agent", "codex", env=home)["changed"] is True
    codex = tmp_path / "home" / ".codex" / "hooks.json"
    kept = codex.read_bytes()
    assert memgit_json(workspace, "hooks", "install", "--agent", "codex", env=home)["changed"] is False
    assert codex.read_bytes() == kept

    assert memgit_json(workspace, "ci", "github")["written"]
    assert memgit_json(workspace, "ci", "github")["written"] == []
    assert git(workspace, "status", "--porcelain", "--", ".git") == ""
    assert json.loads(settings.read_text())  # still one valid settings file
