"""Docs that tests enforce: every command is documented and has help; config docs are generated."""

from __future__ import annotations

import re

import click

from memgit.cli import cli
from memgit.config import config_reference_markdown
from tests.helpers import REPO_ROOT

ROOT = REPO_ROOT
README = (ROOT / "README.md").read_text(encoding="utf-8")


def all_commands(group: click.Group, prefix: str = "memgit") -> list[tuple[str, click.Command]]:
    out = []
    for name, command in sorted(group.commands.items()):
        path = f"{prefix} {name}"
        out.append((path, command))
        if isinstance(command, click.Group):
            out.extend(all_commands(command, path))
    return out


def test_every_command_is_in_the_readme_reference() -> None:
    missing = [path for path, _ in all_commands(cli) if f"`{path}" not in README and f"/ `{path}" not in README]
    assert not missing, f"commands missing from README's CLI reference: {missing}"


def test_every_command_has_help() -> None:
    undocumented = [path for path, command in all_commands(cli) if not (command.help or "").strip()]
    assert not undocumented, undocumented


def test_readme_documents_no_command_that_does_not_exist() -> None:
    known = {path for path, _ in all_commands(cli)}
    documented = set(re.findall(r"`(memgit [a-z]+(?: [a-z]+)?)", README))
    stale = set()
    for item in documented:
        if item in known:
            continue
        # "memgit model install" style entries must exist; "memgit index" plus an argument is fine
        if " ".join(item.split()[:2]) not in known:
            stale.add(item)
    assert not stale, f"README mentions commands that do not exist: {sorted(stale)}"


def test_quickstart_is_exactly_two_commands() -> None:
    section = README.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in block.strip().splitlines() if line.strip() and not line.startswith("#")]
    assert [c.split()[0:2] for c in commands] == [["./dev", "demo"], ["./dev", "test"]]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./dev test" in ci


def test_config_reference_is_generated_from_defaults() -> None:
    assert (ROOT / "docs" / "CONFIG.md").read_text(encoding="utf-8") == config_reference_markdown()
