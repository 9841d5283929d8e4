"""bench/ keeps what the docs cite (issue 49): every module in it is named by a doc (README.md,
docs/*.md) or a test, or imported or run by one that is; every script has a command in
bench/README.md; a bench/ file a doc names is there, or the doc says at which commit it lived; and
bench/ has no import cycle.

A one-off experiment whose conclusion is written in the docs leaves bench/ (its code stays in git
history, the doc names the commit); without these checks, scripts nobody runs pile up beside the
benchmarks whose figures the docs quote, and a doc's command silently names a file that is gone.

Benchmarks run as scripts (`python bench/x.py`, the script's folder on sys.path) and import each
other as `bench.x` or, inside bench/peers/, by bare name; both count as edges here, at module level
or inside a function (as in tests/project/test_structure.py), and so does a script named in a
string (`BENCH / "gen_workspace.py"`) or in a shell script's text.
"""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT
from tests.project.test_structure import import_cycles

ROOT = REPO_ROOT
BENCH = ROOT / "bench"
#: A path under bench/ as docs write it: a file with one of these suffixes (`bench/test_` is a
#: pattern, `bench/.work/…` scratch output, neither a file of the repository).
BENCH_PATH = re.compile(r"\bbench/[A-Za-z0-9_/.-]*?\.(?:py|json|sh|mjs|md)\b")
AT_COMMIT = re.compile(r"\bat\s+commit\s+`?([0-9a-f]{7,40})\b")


def tracked(folder: Path) -> list[Path]:
    """The files of `folder` a commit would hold: no scratch output (`.work/`), no bytecode."""
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file()
        and not any(part.startswith(".") or part == "__pycache__" for part in p.relative_to(folder).parts)
        and p.suffix != ".pyc"
    )


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def is_bench_test(path: Path) -> bool:
    return path.name.startswith("test_") and path.suffix == ".py"


def dotted(path: Path) -> str:
    """`bench.peers.analysis` for .../bench/peers/analysis.py (wherever the bench folder is)."""
    parts = path.with_suffix("").parts
    start = len(parts) - 1 - parts[::-1].index("bench")
    return ".".join(parts[start:])


def docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the constant nodes that are docstrings (prose may name any file)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            found.add(id(first.value))
    return found


def python_edges(path: Path, modules: dict[str, Path]) -> set[str]:
    """The bench modules `path` imports (`bench.x`, `from bench import x`, a bare name of its own
    folder) or names in a string that is not a docstring (a script it runs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    by_dotted = {dotted(p): name for name, p in modules.items()}
    own_folder = {p.stem: name for name, p in modules.items() if p.parent == path.parent}
    by_file = {p.name: name for name, p in modules.items()}
    edges: set[str] = set()

    def add(dotted: str) -> None:
        if dotted in by_dotted:
            edges.add(by_dotted[dotted])
        elif "." not in dotted and dotted in own_folder:
            edges.add(own_folder[dotted])

    skip = docstring_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            add(node.module)
            for alias in node.names:
                add(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            edges.update(name for file, name in by_file.items() if file in node.value)
    return edges


def text_edges(text: str, modules: dict[str, Path]) -> set[str]:
    """Modules a shell script or other text names by file name (`exec python orchestrate.py`)."""
    return {name for name, p in modules.items() if re.search(rf"(?<![\w.]){re.escape(p.name)}\b", text)}


def named_in(text: str, modules: dict[str, Path]) -> set[str]:
    """Modules a doc or a test names by path (`bench/perf.py`) or dotted name (`bench.stats`)."""
    found = set()
    for name, p in modules.items():
        module = dotted(p)
        if rel(p) in text or re.search(rf"\b{re.escape(module)}\b", text):
            found.add(name)
        folder, _, stem = module.rpartition(".")
        if re.search(rf"\bfrom {re.escape(folder)} import [^\n]*\b{stem}\b", text):
            found.add(name)
    return found


def bare_imports_of_named_folders(text: str, modules: dict[str, Path]) -> set[str]:
    """A test that puts a bench folder on sys.path (`REPO / "bench" / "peers"`) and imports its
    modules by bare name (`import orchestrate`)."""
    found = set()
    for name, p in modules.items():
        folder = p.parent.relative_to(BENCH).as_posix()
        if folder == "." or f'"bench" / "{folder}"' not in text and f"bench/{folder}" not in text:
            continue
        if re.search(rf"^\s*(?:import {p.stem}\b|from {p.stem} import)", text, re.MULTILINE):
            found.add(name)
    return found


def bench_graph() -> tuple[dict[str, Path], dict[str, set[str]], dict[str, set[str]]]:
    """(modules, import graph among them, every bench file's edges to modules, scripts included)."""
    files = tracked(BENCH)
    modules = {rel(p): p for p in files if p.suffix == ".py" and p.name != "__init__.py"}
    imports = {name: python_edges(p, modules) - {name} for name, p in modules.items()}
    edges = dict(imports)
    for p in files:
        if p.suffix in (".sh", ".mjs", "") and rel(p) not in edges:
            edges[rel(p)] = text_edges(p.read_text(encoding="utf-8", errors="replace"), modules)
    return modules, imports, edges


def docs() -> dict[str, str]:
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return {rel(p): p.read_text(encoding="utf-8") for p in paths}


def roots(modules: dict[str, Path]) -> dict[str, str]:
    """Each bench file a doc or a test names, with who names it."""
    files = {rel(p) for p in tracked(BENCH)}
    found: dict[str, str] = {}
    for doc, text in docs().items():
        for path in BENCH_PATH.findall(text) + re.findall(r"\bbench/peers/run\b", text):
            if path in files:
                found.setdefault(path, doc)
        for name in named_in(text, modules):
            found.setdefault(name, doc)
    tests = [p for p in tracked(ROOT / "tests") if p.suffix == ".py"] + [p for p in tracked(BENCH) if is_bench_test(p)]
    for test in tests:
        if test == Path(__file__):  # this file names bench paths as examples
            continue
        text = test.read_text(encoding="utf-8")
        for name in named_in(text, modules) | bare_imports_of_named_folders(text, modules):
            if name != rel(test):
                found.setdefault(name, rel(test))
    return found


def reachable(start: Iterable[str], edges: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), list(start)
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(edges.get(node, ()))
    return seen


def test_every_bench_module_is_cited_or_used_by_what_is() -> None:
    modules, _, edges = bench_graph()
    alive = reachable(roots(modules), edges)
    orphans = sorted(name for name in modules if name not in alive and not is_bench_test(modules[name]))
    assert not orphans, (
        "bench/ modules no doc (README.md, docs/*.md) or test names, and no such module imports or runs:\n  "
        + "\n  ".join(orphans)
        + "\nCite it where its figures are, or delete it and name `<path> at commit <hash>` in the doc."
    )


def test_bench_has_no_import_cycle() -> None:
    _, imports, _ = bench_graph()
    cycles = import_cycles(imports)
    assert not cycles, "import cycles in bench/ (function-level imports count):\n" + "\n".join(
        " <-> ".join(sorted(c)) for c in cycles
    )


def test_every_script_has_a_command_in_its_readme() -> None:
    modules, _, _ = bench_graph()
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    peers_readme = (BENCH / "peers" / "README.md").read_text(encoding="utf-8")
    missing = []
    for name, p in sorted(modules.items()):
        if is_bench_test(p) or '__name__ == "__main__"' not in p.read_text(encoding="utf-8"):
            continue
        if p.parent == BENCH:
            if f"bench/{p.name}" not in readme:
                missing.append(f"{name}: no `.venv/bin/python {name} …` in bench/README.md")
        elif f"`{p.name}`" not in peers_readme:
            missing.append(f"{name}: not in bench/peers/README.md")
    assert not missing, "scripts without a command:\n  " + "\n  ".join(missing)


def is_shallow() -> bool:
    out = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip() == "true"


def lived_at(commit: str, path: str) -> bool:
    return subprocess.run(["git", "cat-file", "-e", f"{commit}:{path}"], cwd=ROOT, capture_output=True).returncode == 0


def test_a_bench_file_a_doc_names_is_there_or_the_doc_names_its_commit() -> None:
    """A doc may keep the command of a script that left bench/ (the record of how its figures were
    made) when it names a commit at which the file existed: `bench/x.py at commit abc1234`."""
    texts = {**docs(), "bench/README.md": "", "bench/peers/README.md": ""}
    for readme in ("bench/README.md", "bench/peers/README.md"):
        texts[readme] = (ROOT / readme).read_text(encoding="utf-8")
    gone = []
    for doc, text in texts.items():
        commits = set(AT_COMMIT.findall(text))
        for path in sorted(set(BENCH_PATH.findall(text))):
            if (ROOT / path).exists() or "/.work/" in path:
                continue
            if not commits:
                gone.append(f"{doc}: {path} is gone and the doc names no `at commit <hash>`")
            elif not is_shallow() and not any(lived_at(c, path) for c in commits):
                gone.append(f"{doc}: {path} is in none of the commits it names ({', '.join(sorted(commits))})")
    assert not gone, "\n".join(gone)


def test_the_checks_see_lazy_imports_scripts_by_name_and_commits(tmp_path: Path) -> None:
    """The checkers on made-up files: a function-level bare import of a sibling and a script named
    in a string are edges, a docstring naming a file is not; a commit check tells a file that lived
    at a commit from one that never did."""
    folder = tmp_path / "bench" / "peers"
    folder.mkdir(parents=True)
    a, b, c = folder / "a.py", folder / "b.py", folder / "c.py"
    a.write_text('"""Mentions c.py in prose only."""\n\ndef f():\n    import b\n')
    b.write_text('RUN = ["python", "c.py"]\n')
    c.write_text("from bench.peers import a\n")
    modules = {"a": a, "b": b, "c": c}
    assert python_edges(a, modules) == {"b"}
    assert python_edges(b, modules) == {"c"}
    assert python_edges(c, modules) == {"a"}
    assert text_edges("exec python c.py\n", modules) == {"c"}
    assert reachable(["a"], {"a": {"b"}, "b": {"c"}}) == {"a", "b", "c"}
    main = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    if is_shallow():
        pytest.skip("a shallow clone holds no history to check commits against")
    assert lived_at(main, "bench/perf.py") and not lived_at(main, "bench/never_was.py")
