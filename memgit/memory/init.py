"""`memgit init`: make or adopt a git repository as a memory workspace (never overwrites)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memgit.config import CONFIG_NAME, default_config_text

GITATTRIBUTES_LINE = "memory/.dreams/**/*.jsonl merge=union"
DAILY_LOG_ATTRIBUTES_LINE = "memory/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].md merge=union"

#: Append-only files: when two machines append to the same one, git keeps both sides' lines
#: (ours, then theirs) instead of stopping on a conflict. MEMORY.md is not here: its facts get
#: edited, and an edit on both sides is a real conflict for a person to resolve.
UNION_MERGE_LINES: tuple[tuple[str, str], ...] = (
    ("dreaming's recall ledger is append-only: merge both sides", GITATTRIBUTES_LINE),
    ("daily logs are append-only: two machines' entries for one day merge", DAILY_LOG_ATTRIBUTES_LINE),
)


def init_workspace(target: Path, *, explicit: bool = True) -> dict[str, Any]:
    """Adopt the repository at `target` or create one there.

    Without an explicit directory the enclosing repository is adopted (as every other command
    finds it); an explicit directory that is not a repository's top level gets its own
    repository, as `git init DIR` would, never the one it happens to sit inside.
    """
    from memgit.errors import MemgitError, NotAWorkspace
    from memgit.git import plumbing

    if target.exists() and not target.is_dir():
        raise MemgitError(f"{target} exists and is not a directory")
    target.mkdir(parents=True, exist_ok=True)
    try:
        found = plumbing.discover(target)
    except NotAWorkspace:
        if not explicit:
            raise  # the enclosing repository is bare: nothing to adopt
        found = None  # an explicit directory inside a bare repository gets its own repository
    if found is not None and explicit and found[0] != target.resolve():
        found = None
    adopted = found is not None
    if not adopted:
        plumbing.init_repository(target)
        found = plumbing.discover(target)
    if found is None:
        raise MemgitError(f"{target} could not be made a git repository")
    root = found[0]
    created: list[str] = []

    def create(rel: str, text: str) -> None:
        path = root / rel
        if path.exists():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        created.append(rel)

    create("MEMORY.md", "# Long-term Memory\n\n")
    create("memory/.gitkeep", "")
    create(CONFIG_NAME, default_config_text())
    attributes = root / ".gitattributes"
    existing = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    missing = [(why, line) for why, line in UNION_MERGE_LINES if line not in existing.splitlines()]
    if missing:
        prefix = "" if not existing or existing.endswith("\n") else "\n"
        added = "".join(f"# {why}\n{line}\n" for why, line in missing)
        attributes.write_text(existing + prefix + added, encoding="utf-8")
        created.append(".gitattributes")
    return {"root": str(root), "adopted": adopted, "created": created, "hooks": []}
