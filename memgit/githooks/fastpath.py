"""Could a commit concern memory? The hooks' cheap answer, for the Python entry points.

The installed shell hooks (`hooks/git-hook.sh`) answer this without starting Python; the pre-commit
framework cannot run them, it starts `memgit lint --staged FILES` and `memgit hook index`. Those
ask the same question here, before importing the CLI, memgit's config schema or the lint rules
(which cost more than the answer). The rule is the shell's, kept wider than memgit's own notion
of memory and never narrower (a test holds the two equal, and both wider than memgit's): a path
that could be a memory file or look like one, `memgit.toml`, a name git would quote, or any path
at all when `memgit.toml` sets `extra_paths`, whose globs only the full config can match. A path
in a hidden folder (`memory/.dreams/`, where published recalls go) or a dotfile is never memory,
not even through `extra_paths`, and nothing the lint judges: it is left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from memgit.git.trees import GITLINK_MODE, Entry, is_object_id

CONFIG_NAME = "memgit.toml"
#: The lint's `NOTE_SUFFIXES` (a test holds them equal), not imported: the rules cost more than this answer.
_NOTE_SUFFIXES = (".md", ".markdown", ".txt")
_MAY_BE_MEMORY = re.compile(r"memor[yi]|user\.md$|\.jsonl$|[0-9]{4}-[0-9]{2}-[0-9]{2}\.|^memgit\.toml$", re.IGNORECASE)
#: What `git` quotes with core.quotePath on: control characters, non-ASCII, `"` and `\`.
_QUOTED = re.compile(r'[^\x20-\x7e]|["\\]')
#: A non-comment line naming `extra_paths`, or with a `\u` escape that could spell it.
_WIDENS = re.compile(r"^[ \t\r\f\v]*(?:[^#\s].*)?(?:extra_paths|\\[uU])", re.MULTILINE)


def config_widens_memory(root: Path) -> bool:
    """Does `<root>/memgit.toml` set `extra_paths` (in any TOML spelling)? Unreadable counts as yes."""
    path = root / CONFIG_NAME
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return _WIDENS.search(text) is not None


def paths_may_be_memory(paths: Iterable[str], root: Path) -> bool:
    """True when any of `paths` (repository-relative) could be memory under the rule above."""
    paths = [p for p in paths if p]
    if any(_QUOTED.search(p) for p in paths):
        return True
    visible = [p for p in paths if not any(part.startswith(".") for part in p.split("/"))]
    if any(_MAY_BE_MEMORY.search(p) for p in visible):
        return True
    return bool(visible) and config_widens_memory(root)


def paths_hold_notes(paths: Iterable[str]) -> bool:
    """True when any of `paths` is a Markdown or text note outside a hidden folder: the lint reads
    every such note for secrets, memory or not (the shell hook's `paths_hold_notes`)."""
    return any(
        p.lower().endswith(_NOTE_SUFFIXES) and not any(part.startswith(".") for part in p.split("/")) for p in paths
    )


def is_work_tree_top(cwd: Path) -> bool:
    """Hooks run in the work tree's top folder; elsewhere (a manual run in a subfolder) the
    relative names and `memgit.toml` are not where this module looks, so it does not answer."""
    return (cwd / ".git").exists()


def lint_can_skip(args: list[str], cwd: Path) -> bool:
    """`memgit lint --staged FILE...` as the framework runs it: nothing named could be memory,
    and no staged deletion could be either.

    Only plain file names are judged (no options, no folders, which select everything below).
    """
    if not args or not is_work_tree_top(cwd):
        return False
    for arg in args:
        if arg.startswith("-") or Path(arg).is_absolute() or ".." in Path(arg).parts or (cwd / arg).is_dir():
            return False
    if paths_may_be_memory(args, cwd) or paths_hold_notes(args):
        return False
    # The framework never names a deleted file, but a staged deletion of a past daily log must
    # still be linted (D302): one `git diff` for the staged deletions, judged by the same rule.
    deleted = staged_deletions(cwd)
    return deleted is not None and not paths_may_be_memory(deleted, cwd)


def staged_deletions(cwd: Path) -> list[str] | None:
    """Paths the index (git's GIT_INDEX_FILE, as a hook sees it) deletes from HEAD, the old side of
    renames included, quoted as the shell hook sees them; None when git cannot say."""
    from memgit.errors import MemgitError
    from memgit.git.repo import Repo

    try:
        proc = Repo(cwd).run(
            "-c",
            "core.quotePath=true",
            "diff",
            "--cached",
            "--name-only",
            "--no-renames",
            "--diff-filter=D",
            hook_location=True,
        )
    except MemgitError:
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", "replace").splitlines()


#: What the shell hook decided, for the Python it starts (`hooks/git-hook.sh`, `handover`). Its
#: value `due` says an update is due but the shell compared nothing itself (no index yet, or a diff
#: too long to hand over): the update reads the diff.
SHELL_DECISION_ENV = "MEMGIT_HOOK_DIFF"


def shell_decision(text: str) -> tuple[str, str, dict[str, Entry | None]] | None:
    """The shell hook's `indexed-tree head-commit` line and raw diff (`git diff-tree -r --raw
    --no-abbrev`, paths quoted by core.quotePath) as (old tree, commit, changed entries); None for
    anything else (`due`, or a diff with a quoted path, which the update then reads again in
    git's lossless -z form)."""
    head, _, body = text.partition("\n")
    ids = head.split(" ")
    if len(ids) != 2 or not all(is_object_id(i) for i in ids):
        return None
    changed: dict[str, Entry | None] = {}
    for line in body.split("\n"):
        if not line:
            continue
        meta, tab, path = line.partition("\t")
        fields = meta.split(" ")
        if not tab or path.startswith('"') or len(fields) != 5 or not meta.startswith(":"):
            return None
        try:
            mode = int(fields[1], 8)
        except ValueError:
            return None
        changed[path] = None if mode in (0, GITLINK_MODE) else Entry(fields[3], mode)
    return ids[0], ids[1], changed
