"""The I/O half of memory lint: gather what to check from git and the work tree, then run the rules.

`memgit/lint/rules.py` only sees bytes. This module decides which bytes: the staged version of each
changed file (for the pre-commit hook) or the work-tree version (for a person running
`memgit lint`), each paired with the committed version it replaces so the append-only rule for
past daily logs can compare them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from memgit.config import LintConfig
from memgit.errors import PathRefused
from memgit.git import plumbing
from memgit.lint.rules import (
    Finding,
    LintInput,
    LintSettings,
    lint_files,
    resolve_settings,
)
from memgit.workspace import Workspace


@dataclass
class LintReport:
    findings: list[Finding] = field(default_factory=list)
    files_checked: int = 0

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    def to_dict(self) -> dict[str, object]:
        return {
            "files_checked": self.files_checked,
            "errors": len(self.errors),
            "warnings": len(self.findings) - len(self.errors),
            "findings": [f.to_dict() for f in self.findings],
        }


def lint_settings(config: LintConfig | None = None, *, default_max_bytes: int | None = None) -> LintSettings:
    """Resolve the validated `[lint]` section into one severity per rule plus the limits
    (`memgit.lint.rules.resolve_settings`, where every service that redacts finds it too)."""
    return resolve_settings(config or LintConfig(), default_max_bytes=default_max_bytes)


def settings_for(ws: Workspace) -> LintSettings:
    settings = lint_settings(ws.config.lint, default_max_bytes=ws.config.memory.max_file_bytes)
    return settings


def lint_workspace(
    ws: Workspace,
    paths: Sequence[str] = (),
    *,
    staged: bool = False,
    today: date | None = None,
    cwd: Path | None = None,
    index_file: Path | None = None,
) -> LintReport:
    """Lint the staged changes (`staged`) or the work tree, limited to `paths` when given.

    Paths are taken relative to `cwd` (where the user typed them), like git does. In the staged
    mode `paths` limit only the files whose new content is checked: staged deletions of memory
    files are checked whatever `paths` say (the framework passes added and modified files only).
    """
    settings = settings_for(ws)
    if any(not p for p in paths):
        raise PathRefused("an empty path names nothing; give a file or folder, or none to lint everything")
    wanted = [_repo_relative(ws, p, cwd or Path.cwd()) for p in paths]
    if staged:
        inputs = _staged_inputs(ws, wanted, index_file if index_file is not None else _env_index_file(ws))
    else:
        inputs = _worktree_inputs(ws, wanted)
        _check_named(ws, paths, wanted, inputs)
    findings = lint_files(inputs, settings, today or date.today())
    return LintReport(findings=findings, files_checked=len(inputs))


def _check_named(ws: Workspace, paths: Sequence[str], wanted: Sequence[str], inputs: Sequence[LintInput]) -> None:
    """A path named on the command line that is neither in the work tree nor in HEAD is a typo
    (`memory/Secret.md` for `memory/secret.md`): checking nothing there must not pass as clean.
    (The staged mode stays quiet: a hook is handed the files git lists, changed or not.)"""
    head = None
    for shown, rel in zip(paths, wanted, strict=True):
        if not rel or (ws.root / rel).exists() or any(_selected(i.path, [rel]) for i in inputs):
            continue
        head = plumbing.head_files(ws.root) if head is None else head
        if not any(_selected(path, [rel]) for path in head):
            raise PathRefused(f"no file or folder {shown!r} in the work tree or in HEAD; nothing to lint there")


def _env_index_file(ws: Workspace) -> Path | None:
    """The index git told a pre-commit hook to use; relative values are relative to the work tree."""
    value = os.environ.get("GIT_INDEX_FILE")
    if not value:
        return None
    path = Path(value)
    return path if path.is_absolute() else ws.root / path


def _repo_relative(ws: Workspace, user_path: str, cwd: Path) -> str:
    full = (cwd / user_path).resolve() if not Path(user_path).is_absolute() else Path(user_path).resolve()
    try:
        rel = full.relative_to(ws.root)
    except ValueError:
        raise PathRefused(f"{user_path} is outside the workspace {ws.root}; lint files inside it") from None
    return "" if str(rel) == "." else rel.as_posix()


def _selected(path: str, wanted: Sequence[str]) -> bool:
    if not wanted:
        return True
    return any(not w or path == w or path.startswith(w.rstrip("/") + "/") for w in wanted)


def _staged_inputs(ws: Workspace, wanted: Sequence[str], index_file: Path | None) -> list[LintInput]:
    staged = plumbing.index_entries(ws.root, index_file)
    head = plumbing.head_files(ws.root)
    inputs = []
    for path in sorted(set(staged) | set(head)):
        new, old = staged.get(path), head.get(path)
        if new == old:
            continue
        is_memory = ws.is_memory_path(path)
        # Named files narrow the content checks only: a staged deletion of a memory file (or the
        # old side of a rename) is always checked, since the pre-commit framework, which names
        # the files, never names a deleted one (D302 would slip through beside any other file).
        if not _selected(path, wanted) and not (new is None and is_memory):
            continue
        if new is not None and not new.is_regular:
            continue  # symlinks and submodules carry no text of their own
        data = None
        if new is not None:
            data = plumbing.read_blob(ws.root, new.blob) if is_memory else b""
        previous = plumbing.read_blob(ws.root, old.blob) if is_memory and old and old.is_regular else None
        inputs.append(LintInput(path, data, previous, is_memory))
    return inputs


def _worktree_inputs(ws: Workspace, wanted: Sequence[str]) -> list[LintInput]:
    candidates = set(plumbing.worktree_files(ws.root))
    for rel in wanted:  # a file named on the command line is checked even when git ignores it
        if rel and (ws.root / rel).is_file():
            candidates.add(rel)
    head = plumbing.head_files(ws.root)
    inputs = []
    for path in sorted(candidates):
        if not _selected(path, wanted):
            continue
        is_memory = ws.is_memory_path(path)
        full = ws.root / path
        if full.is_symlink():
            continue
        data: bytes | None = None
        if full.is_file():
            data = full.read_bytes() if is_memory else b""
        elif path not in head:
            continue
        old = head.get(path)
        previous = plumbing.read_blob(ws.root, old.blob) if is_memory and old and old.is_regular else None
        inputs.append(LintInput(path, data, previous, is_memory))
    return inputs
