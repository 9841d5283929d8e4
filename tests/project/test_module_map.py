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
