"""Habits of the code base that a reader should not have to check by hand: no import cycle inside
memgit/ (a cycle means two modules are one concept split in two, or a re-export shim hides where a
name lives), no private name imported from another module (it is either public or belongs where it
is used), and no function so long that it stops reading like the steps it performs.

The graph is built from the source with `ast`, so function-level (lazy) imports count as much as
module-level ones: a lazy import keeps a hook fast, it does not make a cycle any less a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import REPO_ROOT

ROOT = REPO_ROOT
PACKAGE = ROOT / "memgit"

#: Longest function, in source lines from `def` to its last line (docstring and comments included).
MAX_FUNCTION_LINES = 80


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@dataclass(frozen=True)
class Import:
    module: str  # the memgit module imported from
    name: str | None  # the name taken from it (`from module import name`), None for `import module`
    line: int


def resolve_base(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, *([node.module] if node.module else [])])


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> Iterator[Import]:
    """Every memgit import anywhere in the file (module level, in functions, under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "memgit":
                    yield Import(alias.name, None, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = resolve_base(name, is_package, node)
            if base.split(".")[0] != "memgit":
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in modules:
                    yield Import(submodule, None, node.lineno)
                else:
                    yield Import(base, alias.name, node.lineno)


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for imp in imports_of(name, path, modules):
            if imp.module in modules and imp.module != name:
                graph[name].add(imp.module)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components, iteratively (the graph has a few hundred nodes)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def import_cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    return [c for c in strongly_connected(graph) if len(c) > 1]


def test_the_checkers_see_lazy_imports_private_names_and_long_functions(tmp_path: Path) -> None:
    """The checkers themselves, on a made-up module: a function-level import is an edge, a
    private name taken from another module is reported, an 81-line function is too long."""
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    module = tmp_path / "made_up.py"
    body = "".join(f"    x{i} = {i}\n" for i in range(79))
    module.write_text(
        "def lazy():\n    from memgit.index import update\n    from memgit.index.update import _hidden\n"
        f"def long():\n{body}    return x0\n"
    )
    modules = {"memgit.index.update": module}
    found = list(imports_of("memgit.made_up", module, modules))
    assert Import("memgit.index.update", None, 2) in found and Import("memgit.index.update", "_hidden", 3) in found
    assert is_private("_hidden") and not is_private("__all__")
    assert [(name, length) for name, _, length in long_functions(module)] == [("long", 81)]


def test_no_import_cycle_inside_memgit() -> None:
    cycles = import_cycles(import_graph())
    assert not cycles, "import cycles (module-level and function-level imports count):\n" + "\n".join(
        " <-> ".join(sorted(c)) for c in cycles
    )


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_private_name_is_imported_across_modules() -> None:
    modules = all_modules()
    found = []
    for name, path in modules.items():
        for imp in imports_of(name, path, modules):
            private = [part for part in imp.module.split(".") if is_private(part)]
            if imp.name is not None and is_private(imp.name):
                private.append(imp.name)
            if private and imp.module != name:
                found.append(f"{path.relative_to(ROOT)}:{imp.line}: from {imp.module} import {imp.name}")
    assert not found, "private names imported from another module:\n" + "\n".join(found)


def long_functions(path: Path) -> Iterator[tuple[str, int, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                yield node.name, node.lineno, length


def test_no_function_is_longer_than_80_lines() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        found.extend(f"{relative}:{line}: {name} ({length} lines)" for name, line, length in long_functions(path))
    assert not found, f"functions over {MAX_FUNCTION_LINES} lines (split them into named steps):\n" + "\n".join(found)


#: Longest module and class, in source lines (issue 35: past these, a file or class holds more
#: than one job a newcomer can take in at once).
MAX_MODULE_LINES = 700
MAX_CLASS_LINES = 450


def test_no_module_over_700_lines_and_no_class_over_450() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if (lines := len(text.splitlines())) > MAX_MODULE_LINES:
            found.append(f"{relative}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > MAX_CLASS_LINES:
                    found.append(f"{relative}:{node.lineno}: class {node.name} ({length} lines)")
    assert not found, "split these by what changes together:\n" + "\n".join(found)
