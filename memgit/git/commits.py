"""Commits written straight from trees with pygit2: the work tree, git's index and the checked-out
branch are never touched (this is how dreaming builds its branch while a person keeps working).

A command's one handle (`memgit.git.repo.Repo`) is passed down: pygit2 opens the repository once
per command, not once per call. Every function returns plain values (hex ids, paths, bytes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memgit.errors import MemgitError
from memgit.git.repo import Repo

if TYPE_CHECKING:
    import pygit2


@dataclass(frozen=True)
class Identity:
    name: str
    email: str


def head_branch(repo: Repo) -> str | None:
    """The checked-out branch (None on a detached HEAD or in an empty repository), from one `git`
    process: `ci` asks it alone, and it must not cost pygit2's import."""
    proc = repo.run("rev-parse", "-q", "--symbolic-full-name", "HEAD")
    name = proc.stdout.decode("utf-8", "surrogateescape").strip()
    return name.removeprefix("refs/heads/") if proc.returncode == 0 and name.startswith("refs/heads/") else None


def branch_commit(repo: Repo, name: str) -> str | None:
    branch = repo.lib.branches.local.get(name)
    return str(branch.target) if branch is not None else None


def read_files(repo: Repo, commit: str, paths: Iterable[str]) -> dict[str, bytes | None]:
    """Bytes of each path in the commit's tree; None where the path is not a file there."""
    import pygit2

    tree = repo.lib[commit].peel(pygit2.Commit).tree
    out: dict[str, bytes | None] = {}
    for path in paths:
        try:
            obj = tree[path]
        except KeyError:
            out[path] = None
            continue
        out[path] = obj.data if isinstance(obj, pygit2.Blob) else None
    return out


def list_files(repo: Repo, commit: str, folder: str) -> list[str]:
    """Paths of the files directly inside `folder` in the commit's tree."""
    import pygit2

    tree = repo.lib[commit].peel(pygit2.Commit).tree
    try:
        sub = tree[folder]
    except KeyError:
        return []
    if not isinstance(sub, pygit2.Tree):
        return []
    return sorted(f"{folder}/{entry.name}" for entry in sub if entry.type_str == "blob")


def write_commits(
    repo: Repo,
    parent: str,
    steps: Sequence[tuple[str, Mapping[str, bytes | None]]],
    *,
    when: datetime,
    identity: Identity,
) -> list[str]:
    """A chain of commits on top of `parent`, one a step: (message, {path: new bytes or None to
    delete}). Author and committer dates are `when`, so the same steps give the same ids."""
    import pygit2

    lib = repo.lib
    offset = int(delta.total_seconds() // 60) if (delta := when.utcoffset()) else 0
    signature = pygit2.Signature(identity.name, identity.email, int(when.timestamp()), offset)
    index = pygit2.Index()
    index.read_tree(lib[parent].peel(pygit2.Commit).tree)
    ids: list[str] = []
    current = parent
    for message, changes in steps:
        for path, data in sorted(changes.items()):
            if data is None:
                if path in index:
                    index.remove(path)
                continue
            blob = lib.create_blob(data)
            index.add(pygit2.IndexEntry(path, blob, pygit2.enums.FileMode.BLOB))
        tree = index.write_tree(lib)
        commit = lib.create_commit(None, signature, signature, message, tree, [current])
        current = str(commit)
        ids.append(current)
    return ids


def checked_out_at(repo: Repo, name: str) -> str | None:
    """The work tree (main or linked) where branch `name` is checked out, or None.

    Reads `git worktree list --porcelain -z`, as `git branch -f` does, so a branch checked out in
    any worktree of the repository is seen, not only the one `root` is in."""
    proc = repo.run("worktree", "list", "--porcelain", "-z")
    if proc.returncode != 0:
        if head_branch(repo) == name:
            return str(repo.root)
        raise MemgitError(
            f"cannot list the worktrees of {repo.root}: {proc.stderr.decode(errors='replace').strip() or 'git worktree list failed'}"
        )
    ref = f"refs/heads/{name}"
    path: str | None = None
    for field_ in proc.stdout.decode("utf-8", errors="replace").split("\0"):
        if field_.startswith("worktree "):
            path = field_[len("worktree ") :]
        elif field_ == f"branch {ref}" and path is not None:
            return path
    return None


def refuse_checked_out(repo: Repo, name: str) -> None:
    """A MemgitError when branch `name` is checked out in any worktree: dreaming never moves it."""
    where = checked_out_at(repo, name)
    if where is not None:
        raise MemgitError(
            f"branch {name} is checked out at {where}; dreaming never moves a checked-out branch: "
            "pass --branch NAME, or switch that worktree to another branch first"
        )


def check_branch_name(repo: Repo, name: str) -> None:
    """A MemgitError unless `name` is a plain branch name git accepts. `@` and `HEAD` name the
    current branch in git commands (`git log -p @` would show HEAD, not the dream), and a name that
    starts with `refs/` would become `refs/heads/refs/...`."""
    if name in ("@", "HEAD") or name.startswith(("refs/", "-")):
        raise MemgitError(f"--branch {name!r} is not a plain branch name; give one like memgit/dream/review")
    if repo.run("check-ref-format", f"refs/heads/{name}").returncode != 0:
        raise MemgitError(f"--branch {name!r} is not a valid branch name (see `git check-ref-format`)")


def set_branch(repo: Repo, name: str, commit: str, *, force: bool = False) -> None:
    """Point branch `name` at `commit`; refuses a branch checked out in any worktree, and an
    existing one unless forced."""
    import pygit2

    refuse_checked_out(repo, name)
    try:
        repo.lib.branches.local.create(name, repo.lib[commit].peel(pygit2.Commit), force=force)
    except (ValueError, pygit2.GitError) as exc:
        raise MemgitError(f"cannot write branch {name}: {exc}") from None


def restore_branch(repo: Repo, name: str, written: str, previous: str | None) -> bool:
    """Undo `set_branch`: point `name` back at `previous` (delete it when None), only while it still
    points at `written` (one atomic `git update-ref`). False when the branch moved meanwhile."""
    ref = f"refs/heads/{name}"
    if previous is None:
        proc = repo.run("update-ref", "-d", ref, written)
    else:
        proc = repo.run("update-ref", ref, previous, written)
    return proc.returncode == 0


@dataclass(frozen=True)
class ChainCommit:
    id: str
    message: str
    committer_email: str
    author: str
    when: datetime
    parents: tuple[str, ...]


def first_parent_chain(repo: Repo, tip: str, limit: int = 200) -> list[ChainCommit]:
    """`tip` and its first parents, newest first, at most `limit` (shallow history ends early)."""
    from datetime import timedelta, timezone

    import pygit2

    out: list[ChainCommit] = []
    try:
        commit: pygit2.Commit | None = repo.lib[tip].peel(pygit2.Commit)
    except (KeyError, ValueError):
        return out
    while commit is not None and len(out) < limit:
        tz = timezone(timedelta(minutes=commit.committer.offset))
        out.append(
            ChainCommit(
                str(commit.id),
                commit.message,
                commit.committer.email,
                commit.author.name,
                datetime.fromtimestamp(commit.committer.time, tz),
                tuple(str(p) for p in commit.parent_ids),
            )
        )
        try:
            commit = commit.parents[0] if commit.parent_ids else None
        except (KeyError, IndexError, pygit2.GitError):
            commit = None  # the parent is beyond a shallow clone's history
    return out


def changed_between(repo: Repo, old: str, new: str) -> list[str]:
    """Paths whose content differs between two commits."""
    proc = repo.run("diff", "--name-only", "-z", "--no-renames", old, new)
    if proc.returncode != 0:
        return []
    return [p for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def local_branches(repo: Repo, prefix: str) -> list[str]:
    return sorted(name for name in repo.lib.branches.local if name.startswith(prefix))


# -- commits through the user's own git ---------------------------------------------------------


class CommitFailed(MemgitError):
    """`git commit` of exactly some paths failed; `complaint` is git's (or a hook's) first
    complaint on one line, for the caller to say what was kept and what to do."""

    def __init__(self, complaint: str) -> None:
        super().__init__(complaint)
        self.complaint = complaint

    def advice(self, then: str) -> str:
        """`then`, after how to clear a stale index lock when that is what git complained about."""
        return lock_advice(self.complaint, then)


_GIT_LEADS = ("fatal:", "error:")


def git_complaint(output: str, *, limit: int = 300) -> str:
    """git's (or a hook's) output squeezed to one line: its first `fatal:`/`error:` line, else
    its last line, whitespace collapsed and length capped (memgit errors are one line)."""
    lines = [" ".join(line.split()) for line in output.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return "unknown error"
    line = next((line for line in lines if line.lower().startswith(_GIT_LEADS)), lines[-1])
    return line if len(line) <= limit else line[: limit - 1] + "\u2026"


def lock_advice(complaint: str, advice: str) -> str:
    """`advice`, after how to clear a stale index lock when that is what git complained about."""
    if "index.lock" in complaint:
        return (
            "another git process holds .git/index.lock (or a crashed one left it): when none is running, "
            f"delete that file; {advice}"
        )
    return advice


#: An index lock no git process has touched for this long was left by a crashed one, or is held
#: by an interactive one (an editor open on a commit message): the retries (≈10 s) help neither.
OLD_LOCK_SECONDS = 60.0
_LOCK_PATH = re.compile(r"'([^']*index\.lock)'")


def _lock_is_old(complaint: str) -> bool:
    """Whether the index lock git named in `complaint` is older than `OLD_LOCK_SECONDS`."""
    import time

    found = _LOCK_PATH.search(complaint)
    try:
        return found is not None and time.time() - Path(found.group(1)).stat().st_mtime > OLD_LOCK_SECONDS
    except OSError:
        return False


def commit_paths(
    repo: Repo, paths: list[str], message: str, *, attempts: int = 20, extra_env: dict[str, str] | None = None
) -> str:
    """Commit exactly `paths` with the user's own git (so their hooks, memgit's indexer and the
    lint run as for any commit), retrying while another git process holds the index lock (two
    writers committing at once). Returns the commit id; a failure is `CommitFailed`."""
    import time

    last_error = ""
    for attempt in range(attempts):
        commit, last_error = repo.commit_only(paths, message, extra_env)
        if commit:
            return commit
        if "index.lock" not in last_error or _lock_is_old(last_error):
            break
        time.sleep(0.05 * (attempt + 1))
    raise CommitFailed(git_complaint(last_error))
