"""Every CLI command function takes at most 6 parameters and at most 2 booleans (issue 35): a
long option list goes into one typed options object (`memgit.cli.options`), not a parameter each.

The source is parsed, not imported: a command is a function decorated with click's `command` or
`group` (directly or as `some_group.command(...)`)."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "memgit" / "cli"
MAX_PARAMS = 6
MAX_BOOLS = 2


def _is_command(node: ast.FunctionDef) -> bool:
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(target, ast.Attribute) and target.attr in {"command", "group"}:
            return True
    return False


def commands() -> dict[str, tuple[int, int]]:
    """`file:function` -> (parameters, boolean parameters) of every click command in memgit/cli."""
    found: dict[str, tuple[int, int]] = {}
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and _is_command(node):
                args = node.args
                params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
                params += [a for a in (args.vararg, args.kwarg) if a is not None]
                bools = [a for a in params if a.annotation is not None and ast.unparse(a.annotation) == "bool"]
                found[f"{path.name}:{node.name}"] = (len(params), len(bools))
    return found


def test_the_parser_finds_the_commands() -> None:
    found = commands()
    for known in ("dream.py:dream_command", "hooks.py:lint_command", "init.py:init", "search.py:search"):
        assert known in found, f"{known} not recognised as a click command: the check would miss commands"
    assert len(found) >= 30


def test_every_command_takes_at_most_six_parameters_and_two_booleans() -> None:
    over = [
        f"{name}: {params} parameters, {bools} booleans"
        for name, (params, bools) in sorted(commands().items())
        if params > MAX_PARAMS or bools > MAX_BOOLS
    ]
    assert not over, "gather options into a typed options object (memgit.cli.options):\n" + "\n".join(over)
