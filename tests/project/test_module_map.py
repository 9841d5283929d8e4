"""docs/ARCHITECTURE.md's module map names exactly the modules in memgit/: a module added, moved
or removed without the map following fails here, listing what is missing and what is extra.

The map is the first fenced block that starts with `memgit/`. A line indented two spaces that
starts `NAME/` opens a package, one that starts `NAME.py` is a top-level module; within a package
every bare `NAME.py` (not `other/NAME.py`, which points elsewhere) is one of its modules. A line
back at the margin (`hooks/`, `templates/`) ends memgit's part. `__init__.py` files are the
packages themselves and are not listed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
MODULE = re.compile(r"(?<![\w/.])([A-Za-z_][A-Za-z0-9_]*\.py)\b")
PACKAGE_LINE = re.compile(r"^  ([a-z_][a-z0-9_]*)/(?:\s|$)")
MODULE_LINE = re.compile(r"^  ([a-z_][a-z0-9_]*\.py)(?:\s|$)")


def map_block(text: str) -> list[str]:
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.M | re.S)
    for block in blocks:
        if block.startswith("memgit/\n"):
            return block.splitlines()[1:]
    raise AssertionError("docs/ARCHITECTURE.md has no module map (a fenced block starting `memgit/`)")


def mapped_modules(lines: list[str]) -> set[str]:
    """Paths relative to memgit/ of the modules the map names."""
    found: set[str] = set()
    package: str | None = None
    for line in lines:
        if line.strip() and not line.startswith(" "):
            break  # hooks/, templates/: the repository's other folders
        if top := MODULE_LINE.match(line):
            package = None
            found.add(top.group(1))
            continue
        if opened := PACKAGE_LINE.match(line):
            package = opened.group(1)
            line = line[opened.end() :]
        if package is not None:
            found.update(f"{package}/{name}" for name in MODULE.findall(line))
    return found


def actual_modules() -> set[str]:
    memgit = ROOT / "memgit"
    return {p.relative_to(memgit).as_posix() for p in memgit.rglob("*.py") if p.name != "__init__.py"}


def test_the_parser_reads_packages_modules_and_skips_cross_references() -> None:
    lines = [
        "  cli/         main.py (the group), output.py + options.py,",
        "               agent.py (see dream/run.py)",
        "  config.py    memgit.toml: one schema",
        "  git/         plumbing.py",
        "hooks/         git-hook.sh, other.py",
    ]
    assert mapped_modules(lines) == {"cli/main.py", "cli/output.py", "cli/options.py", "cli/agent.py", "config.py"} | {
        "git/plumbing.py"
    }


def test_the_module_map_lists_exactly_the_modules_in_memgit() -> None:
    listed = mapped_modules(map_block(DOC.read_text(encoding="utf-8")))
    actual = actual_modules()
    missing, extra = sorted(actual - listed), sorted(listed - actual)
    assert not missing and not extra, (
        "docs/ARCHITECTURE.md's module map is out of date:\n"
        f"  missing (in memgit/, not in the map): {', '.join(missing) or '-'}\n"
        f"  extra (in the map, not in memgit/): {', '.join(extra) or '-'}"
    )


# -- the prose: every module it names exists ---------------------------------------------------------
# Outside the map, ARCHITECTURE.md names modules three ways: a path (`index/store.py`,
# `tests/project/test_layout.py`), a bare file name (`plumbing.py`) and a dotted name in backticks
# (`memgit.recall.search.Searcher`, `lint.rules`). A path must be a file of the repository (or of
# memgit/), a bare name some module's, a dotted name a module of memgit, with what follows it
# defined in that module.
PATH = re.compile(r"(?<![\w/.-])((?:[a-z_][a-z0-9_]*/)+[A-Za-z_][A-Za-z0-9_]*\.py)\b")
DOTTED = re.compile(r"`((?:memgit\.)?[a-z_][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")
NOT_MODULES = {"sqlean.py"}  # a PyPI distribution's name, not a file


def _definitions(module: Path) -> set[str]:
    import ast

    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def dotted_problem(name: str, memgit: Path) -> str | None:
    """Why `name` (`memgit.pkg.mod.attr` or `pkg.mod.attr`) names nothing in memgit/, or None; a
    first part that is no package of memgit (`store.fts`, a table) is not a module claim."""
    parts = name.split(".")
    if name == "memgit.toml":  # the configuration file
        return None
    if parts[0] == "memgit":
        parts = parts[1:]
    elif not (memgit / parts[0] / "__init__.py").is_file():
        return None
    for i in range(len(parts), 0, -1):
        base = memgit.joinpath(*parts[:i])
        source = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        if source.is_file():
            rest = parts[i:]
            if rest and rest[0] not in _definitions(source):
                return f"`{name}`: {source.relative_to(memgit.parent)} defines no {rest[0]}"
            return None
    return f"`{name}`: no such module in memgit/"


def prose_problems(text: str, root: Path) -> list[str]:
    memgit = root / "memgit"
    problems = [
        f"{path}: no such file"
        for path in PATH.findall(text)
        if not (root / path).is_file() and not (memgit / path).is_file()
    ]
    files = {p.name for p in root.rglob("*.py") if ".venv" not in p.parts}
    problems += [
        f"{bare}: no such module"
        for bare in MODULE.findall(text)
        if bare not in files and bare not in NOT_MODULES and not any(bare in p for p in PATH.findall(text))
    ]
    problems += [p for name in DOTTED.findall(text) if (p := dotted_problem(name, memgit)) is not None]
    return sorted(set(problems))


def test_the_prose_check_catches_moved_files_and_missing_names(tmp_path: Path) -> None:
    text = (
        "`tests/test_layout.py` runs it; `index/store.py` and `recall/gone.py`; see `vanished.py`;\n"
        "`memgit.recall.search.Searcher`, `memgit.recall.search.search`, `lint.rules`, `lint.nothing`, `store.fts`"
    )
    assert prose_problems(text, ROOT) == [
        "`lint.nothing`: memgit/lint/__init__.py defines no nothing",
        "`memgit.recall.search.search`: memgit/recall/search.py defines no search",
        "recall/gone.py: no such file",
        "tests/test_layout.py: no such file",
        "vanished.py: no such module",
    ]


def test_the_architecture_prose_names_only_modules_that_exist() -> None:
    problems = prose_problems(DOC.read_text(encoding="utf-8"), ROOT)
    assert not problems, "docs/ARCHITECTURE.md names modules that are not there:\n  " + "\n  ".join(problems)
