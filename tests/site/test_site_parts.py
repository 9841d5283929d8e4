"""The site build stays three parts (docs/SITE.md, Incremental builds): the gatherer (`inputs`, and
`concept_inputs` for what the Concepts pages read lazily) is the only part that reads git; the
planner (`pages`, `concept_pages`) and the renderer (`renderer`) are handed the gathered inputs
instead of being a kind of them. (Issue 35's size bounds hold for every module of memgit:
tests/project/test_structure.py.)
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from memgit.site.concept_pages import ConceptPlanner
from memgit.site.inputs import Inputs
from memgit.site.pages import Planner
from memgit.site.renderer import PageRenderer
from tests.helpers import REPO_ROOT

SITE = REPO_ROOT / "memgit" / "site"
#: The parts that decide or draw pages: everything they show was gathered before them.
NOT_GATHERERS = ("pages.py", "concept_pages.py", "renderer.py", "page_plan.py", "report_rows.py", "build.py")


def _runtime_imports(path: Path) -> list[str]:
    """Modules a file imports when it runs: every import except those under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
        for stmt in block.body
        for node in ast.walk(stmt)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return found


def test_only_the_gatherer_reads_git() -> None:
    readers = {
        name: [m for m in _runtime_imports(SITE / name) if m == "memgit.git" or m.startswith("memgit.git.")]
        for name in NOT_GATHERERS
    }
    # build.py resolves `--at` and reads the blobs the pages to render name: the build's own reads.
    assert readers.pop("build.py"), "the check must see a runtime import of memgit.git where there is one"
    assert readers == {name: [] for name in readers}
    for name in ("inputs.py", "concept_inputs.py"):
        assert any(m.startswith("memgit.git") for m in _runtime_imports(SITE / name)), name


def test_planner_and_renderer_are_handed_the_inputs() -> None:
    for part in (Planner, ConceptPlanner, PageRenderer):
        assert not issubclass(part, Inputs), part
        assert "inputs" in inspect.signature(part.__init__).parameters, part
