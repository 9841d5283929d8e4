"""The I/O half of memory lint: gather what to check from git and the work tree, then run the rules.

`memgit/lint/rules.py` only sees bytes. This module decides which bytes: the staged version of each
changed file (for the pre-commit hook) or the work-tree version (for a person running
`memgit lint`), each paired with the committed version it replaces so the append-only rule for
past daily logs can compare them.

The pre-commit lint judges only the lines a commit adds or changes: a page of documentation with
a look-alike credential on line 16 must not block the person who appends line 90, and a finding
there was not this commit's doing. Rules about the file as a whole (its size and bytes, a
rewritten or deleted past daily log, a memory file outside the memory paths) keep their own
logic. `memgit lint` on the work tree, and `--all` anywhere, judge every line.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from memgit.config import LintConfig
from memgit.core import clock
from memgit.errors import PathRefused
from memgit.git import trees
from memgit.lint.rules import (
    Finding,
    LintInput,
    LintSettings,
    is_note_text,
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


def report_settings(ws: Workspace) -> LintSettings:
    """`settings_for(ws)` with the values found anywhere in the workspace that the lint reports
    wherever they stand (`secrets.workspace_value`): what a check that refuses text judges by."""
    from memgit.lint.known import known_secrets

    settings = settings_for(ws)
    return dataclasses.replace(settings, known=known_secrets(ws, settings))


def output_settings(ws: Workspace) -> LintSettings:
    """`settings_for(ws)` with the secrets found anywhere in the workspace (`memgit.lint.known`):
    what every command that publishes or copies memory text redacts by, and `memgit lint` reports
    by, so a value found once is hidden wherever it stands (a short code of digits too, which
    `memgit lint --all` reports wherever it is repeated, unless masked: "**** 2207")."""
    from memgit.lint.known import known_secrets

    settings = settings_for(ws)
    return dataclasses.replace(settings, known=known_secrets(ws, settings, short_codes=True))


def lint_workspace(
    ws: Workspace,
    paths: Sequence[str] = (),
    *,
    staged: bool = False,
    today: date | None = None,
    cwd: Path | None = None,
    index_file: Path | None = None,
    every_line: bool = False,
) -> LintReport:
    """Lint the staged changes (`staged`) or the work tree, limited to `paths` when given.

    Paths are taken relative to `cwd` (where the user typed them), like git does. In the staged
    mode `paths` limit only the files whose new content is checked: staged deletions of memory
    files are checked whatever `paths` say (the framework passes added and modified files only),
    and line rules judge only the staged lines that differ from HEAD unless `every_line`.
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
    if staged and not every_line:  # the line rules read only the lines the commit adds or changes
        inputs = [_judging_changed_lines(item) for item in inputs]
    if staged:  # the hook judges what a commit adds by its own words
        findings = lint_files(inputs, settings, today or clock.today())
        if not every_line:
            findings = on_changed_lines(findings, inputs)
    else:
        findings = _with_known_values(ws, inputs, settings, today or clock.today())
    return LintReport(findings=findings, files_checked=len(inputs))


def _with_known_values(
    ws: Workspace, inputs: Sequence[LintInput], settings: LintSettings, today: date
) -> list[Finding]:
    """A person's `memgit lint`: every rule on each file, then the lines that hold a value found
    in another memory file of the workspace (`memgit.lint.known`; a short code of digits too, unless
    shown as a masked number's last digits: "I shouted 1397 across the yard"). The
    values these files hold come from this very scan; only the files not linted here and not
    cached are read again."""
    from memgit.git.trees import blob_id_of
    from memgit.lint.known import known_secrets
    from memgit.lint.rules import known_findings

    found: dict[str, dict[str, str]] = {}
    findings = lint_files(inputs, settings, today, found)
    scanned = {blob_id_of(i.data): found[i.path] for i in inputs if i.data is not None and i.path in found}
    # Short codes too: reported wherever they are repeated, unless masked (`rules.known_findings`).
    known = known_secrets(ws, settings, scanned=scanned, short_codes=True)
    if not known:
        return findings
    with_known = dataclasses.replace(settings, known=known)
    flagged: dict[str, set[int]] = {}
    for finding in findings:
        if finding.code.startswith("S"):
            flagged.setdefault(finding.path, set()).add(finding.line)
    for item in inputs:
        findings.extend(known_findings(item, with_known, flagged.setdefault(item.path, set())))
    findings.sort(key=lambda f: (f.path, f.line, f.code))
    return findings


def lint_history(ws: Workspace, revision: str = "HEAD") -> list[Finding]:
    """Secrets in the authors, committers and messages of the commits reachable from `revision`
    (`memgit.lint.history`): what the site and a dream's pull request publish of the history."""
    from memgit.lint.history import LOG_FORMAT, commit_texts, lint_commit

    if ws.git.head_ids()[0] is None:
        return []  # no commit yet: no history to read
    proc = ws.git.run("log", LOG_FORMAT, revision, "--")
    if proc.returncode != 0:
        raise PathRefused(f"cannot read the history of {revision}: {proc.stderr.decode('utf-8', 'replace').strip()}")
    settings = settings_for(ws)
    return [finding for commit in commit_texts(proc.stdout) for finding in lint_commit(commit, settings)]


#: Rules about a file as a whole, judged whichever lines changed (the rest are about one line).
FILE_RULES = frozenset({"D301", "D302", "F402", "F403", "F404", "F405"})
#: Past this many differing lines on both sides, `changed_lines` stops looking for matches inside
#: them (difflib is quadratic there) and counts every new line in between as changed.
_DIFF_LIMIT = 20_000


def on_changed_lines(findings: Sequence[Finding], inputs: Sequence[LintInput]) -> list[Finding]:
    """The findings a commit is answerable for: a file rule's, or a line rule's on a line it
    added or changed."""
    changed = {item.path: changed_lines(item.previous, item.data) for item in inputs}
    kept = []
    for finding in findings:
        lines = changed.get(finding.path)
        if finding.code in FILE_RULES or lines is None or finding.line in lines:
            kept.append(finding)  # line 0 (a secret in the file's name) only for a new name
    return kept


def _judging_changed_lines(item: LintInput) -> LintInput:
    """`item` with its line rules limited to the lines it changes (a new file: every line)."""
    import dataclasses

    if not (item.is_memory or is_note_text(item.path)) or item.data is None:
        return item
    return dataclasses.replace(item, lines=changed_lines(item.previous, item.data))


def changed_lines(previous: bytes | None, data: bytes | None) -> frozenset[int] | None:
    """1-based numbers of the lines of `data` that `previous` did not have at that place (added,
    edited or moved); None when every line is new (no previous version, or a deletion).

    Lines are split on LF as the rules split them. The common head and tail are set aside first,
    so an append or a one-line edit costs one pass, whatever the file's size.
    """
    if previous is None or data is None:
        return None
    old, new = previous.split(b"\n"), data.split(b"\n")
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    if min(len(old_mid), len(new_mid)) > _DIFF_LIMIT or not old_mid:
        return frozenset(range(head + 1, head + len(new_mid) + 1))
    matcher = difflib.SequenceMatcher(None, old_mid, new_mid, autojunk=False)
    changed: set[int] = set()
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.update(range(head + j1 + 1, head + j2 + 1))
    return frozenset(changed)


def _check_named(ws: Workspace, paths: Sequence[str], wanted: Sequence[str], inputs: Sequence[LintInput]) -> None:
    """A path named on the command line that is neither in the work tree nor in HEAD is a typo
    (`memory/Secret.md` for `memory/secret.md`): checking nothing there must not pass as clean.
    (The staged mode stays quiet: a hook is handed the files git lists, changed or not.)"""
    head = None
    for shown, rel in zip(paths, wanted, strict=True):
        if not rel or (ws.root / rel).exists() or any(_selected(i.path, [rel]) for i in inputs):
            continue
        head = ws.git.head_files() if head is None else head
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
    staged = ws.git.index_entries(index_file)
    head = ws.git.head_files()
    chosen: list[tuple[str, trees.Entry | None, trees.Entry | None, bool]] = []
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
        chosen.append((path, new, old, is_memory))
    # Every blob the checks read, from one `git cat-file --batch` (no pygit2 on a commit's path).
    read = {path for path, _, _, memory in chosen if memory or is_note_text(path)}
    wanted_blobs = [e.blob for path, new, old, _ in chosen if path in read for e in (new, old) if e and e.is_regular]
    blobs = ws.git.read_blobs(wanted_blobs)
    inputs = []
    for path, new, old, is_memory in chosen:
        data = (blobs[new.blob] if path in read else b"") if new is not None else None
        previous = blobs[old.blob] if path in read and old and old.is_regular else None
        inputs.append(LintInput(path, data, previous, is_memory))
    return inputs


def _worktree_inputs(ws: Workspace, wanted: Sequence[str]) -> list[LintInput]:
    candidates = set(ws.git.worktree_files())
    for rel in wanted:  # a file named on the command line is checked even when git ignores it
        if rel and (ws.root / rel).is_file():
            candidates.add(rel)
    head = ws.git.head_files()
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
            data = full.read_bytes() if is_memory or is_note_text(path) else b""
        elif path not in head:
            continue
        old = head.get(path)
        previous = ws.git.read_blob(old.blob) if is_memory and old and old.is_regular else None
        inputs.append(LintInput(path, data, previous, is_memory))
    return inputs
