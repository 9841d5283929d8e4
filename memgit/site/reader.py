"""The site's one way into git: every git read of a build (and the preview's look at HEAD) goes
through here, so a change of how memgit reads git is made for the site in this one module
(tests/site/test_where_git_lives.py holds it).

`GitReads` is the gatherer's (`inputs`): the tree, the history, the blobs, blame. What a page
reads only when it is made (the blobs of the pages a build renders, the lazy Concepts inputs, the
blame of MEMORY.md for the home page) goes through `PageReads`, the narrow reader the gatherer
hands on with its inputs: the planner and the renderer never hold a repository path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from memgit.git.repo import BlobReader, Repo
from memgit.git.trees import Entry

__all__ = ["BlobReader", "Entry", "GitReads", "PageReads", "head_commit", "resolve_commit", "worktree_commit"]


def resolve_commit(git: Repo, at: str) -> tuple[str, str]:
    """The commit a build of `--at` shows, and its tree."""
    return git.resolve_commit(at)


def head_commit(git: Repo) -> str | None:
    """The commit HEAD names, None before the first commit (the preview's rebuild signal)."""
    return git.head_ids()[0]


def worktree_commit(git: Repo) -> str | None:
    """A commit of the work tree's memory files as they are (the preview shows unsaved edits)."""
    return git.worktree_commit()


class GitReads:
    """What the gatherer reads of one repository, in batched git processes, through the command's
    handle (`Workspace.git`): the site opens no repository of its own."""

    def __init__(self, git: Repo) -> None:
        self._git = git

    def entries(self, tree: str) -> dict[str, Entry]:
        return self._git.entries(tree)

    def blobs(self, ids: Iterable[str]) -> dict[str, bytes]:
        return self._git.read_blobs(ids)

    def blob_reader(self) -> BlobReader:
        """Sizes first, then contents one blob at a time (the pictures: a big file is never read)."""
        return self._git.blob_reader()

    def blobs_at(self, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], bytes | None]:
        return self._git.blobs_at(pairs)

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self._git.is_ancestor(older, newer)

    def renames(self, head: str, since: str | None = None) -> list[tuple[str, str, str]]:
        return self._git.renames(head, since=since)

    def file_logs(
        self, head: str, names: set[str], limit: int, since: str | None, hidden: Callable[[str], bool] | None
    ) -> dict[str, list[dict[str, str]]]:
        return self._git.file_logs(head, names, limit, since=since, hidden=hidden)

    def trailer_commits(self, head: str, since: str | None) -> list[dict[str, Any]]:
        return [dataclasses.asdict(c) for c in self._git.trailer_commits(head, since=since)]

    def dream_commits(self, head: str, prefix: str, known: Mapping[str, list[str]] | None) -> dict[str, list[str]]:
        return self._git.dream_commits(head, prefix, known)

    def full_commit_ids(self, names: Iterable[str]) -> dict[str, str]:
        return self._git.full_commit_ids(names)

    def commits_info(self, ids: Iterable[str]) -> list[dict[str, Any]]:
        return [dataclasses.asdict(c) for c in self._git.commits_info(ids).values()]

    def blame_lines(self, commit: str, path: str) -> list[str]:
        """The commit of each line of `path` at `commit`, whitespace changes ignored."""
        return self._git.blame_lines(commit, path, ignore_whitespace=True)


class PageReads:
    """The narrow reader the gatherer hands on: the blobs of the pages a build makes, and
    MEMORY.md's blame, read when the home page renders (kept in the manifest: a build that keeps
    the home page, or whose MEMORY.md did not change, runs no blame)."""

    def __init__(self, git: GitReads, commit: str, blame: dict, subjects: Callable[[list[dict]], list[dict]]) -> None:
        self._git = git
        self._commit = commit
        self._subjects = subjects
        #: What the manifest keeps of MEMORY.md's blame: {"key": [blob, newest commit], "lines"}.
        self.blame_state = blame

    def blobs(self, ids: Iterable[str]) -> dict[str, bytes]:
        return self._git.blobs(ids)

    def memory_blame(self, blob: str, log: list[dict]) -> tuple[list[str], dict[str, dict]]:
        """Blame of MEMORY.md and the commits it names, their subjects as the site shows them."""
        key = [blob, log[0]["id"] if log else ""]
        if self.blame_state.get("key") == key:
            lines = list(self.blame_state["lines"])
        else:
            lines = self._git.blame_lines(self._commit, "MEMORY.md")
            self.blame_state = {"key": key, "lines": lines}
        commits = self._git.commits_info(set(lines))
        return lines, {c["id"]: c for c in self._subjects(commits)}
