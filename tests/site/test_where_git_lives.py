"""git is read in memgit/site/ by one module, reader.py: the gatherer's way into git (`GitReads`)
and the narrow reader it hands on with its inputs (`PageReads`). The planner, the renderer, the
build and the preview are handed what was gathered, so a change of how memgit reads git (issue 49:
one handle per command) is made for the site in reader.py alone, as SQL is made in the store's
modules (tests/index/test_where_sql_lives.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import memgit

GIT_MODULES = {"reader.py"}
#: What reads git: memgit's git layer, pygit2, GitPython, or a process of its own.
GIT_IMPORTS = ("memgit.git", "pygit2", "git", "subprocess")
#: Who may hold a `GitReads` at run time: the gatherer, and the preview (it watches HEAD).
READER_USERS = {"inputs.py", "serve.py"}


def _names(node: ast.AST) -> list[str]:
    """The modules an import statement or an import call names (`from memgit import git` names
    memgit.git; `importlib.import_module("pygit2")` and `__import__("git")` name theirs)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module:
        return [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
            return [node.args[0].value]
    return []


def git_reads(path: Path) -> list[int]:
    """Lines of a module that import a way into git (typing-only imports count too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return sorted(
        {
            node.lineno
            for node in ast.walk(tree)
            for name in _names(node)
            if any(name == m or name.startswith(m + ".") for m in GIT_IMPORTS)
        }
    )


def reader_imports(path: Path) -> list[int]:
    """Lines importing the site's git reader at run time (types under TYPE_CHECKING are free)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
        for stmt in block.body
        for node in ast.walk(stmt)
    }
    return [
        node.lineno
        for node in ast.walk(tree)
        if id(node) not in typing_only and any(n.startswith("memgit.site.reader") for n in _names(node))
    ]


def test_the_finder_sees_every_way_into_git(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import os\n"
        "from memgit.git import history\n"
        "import subprocess as sp\n"
        "from memgit import git\n"
        "import pygit2\n"
        "import git.repo\n"
        "importlib.import_module('pygit2')\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from memgit.git.trees import Entry\n"
        "import gitignore_parser, memgit.gitx\n"
    )
    assert git_reads(module) == [2, 3, 4, 5, 6, 7, 10]


def test_git_is_read_by_the_site_reader_only() -> None:
    site = Path(memgit.__file__).parent / "site"
    modules = {p.name: p for p in sorted(site.glob("*.py"))}
    assert set(modules) >= GIT_MODULES | READER_USERS
    outside = {name: lines for name, path in modules.items() if name not in GIT_MODULES and (lines := git_reads(path))}
    assert not outside, f"git read in memgit/site outside {sorted(GIT_MODULES)}: {outside}"
    assert all(git_reads(modules[name]) for name in GIT_MODULES)
    holders = {
        name: lines for name, path in modules.items() if name not in READER_USERS and (lines := reader_imports(path))
    }
    assert not holders, f"the site's git reader opened outside the gatherer: {holders}"
    assert all(reader_imports(modules[name]) for name in READER_USERS)
