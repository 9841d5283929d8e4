"""What the site still reaches through a path, until its gatherer takes the command's handle (issue 49,
item 2): the history reads it calls, forwarded to `memgit.git.repo.Repo` (`memgit.git.log` holds
them). Everything else reads through `Workspace.git`; this module goes when the site does too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from memgit.git.log import CommitInfo
from memgit.git.repo import RepoOrPath, as_repo


def resolve_commit(git: RepoOrPath, ref: str) -> tuple[str, str]:
    """`Repo.resolve_commit`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).resolve_commit(ref)


def is_ancestor(git: RepoOrPath, older: str, newer: str) -> bool:
    """`Repo.is_ancestor`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).is_ancestor(older, newer)


def file_logs(
    git: RepoOrPath,
    head: str,
    paths: set[str] | None,
    limit: int,
    since: str | None = None,
    hidden: Callable[[str], bool] | None = None,
) -> dict[str, list[dict[str, str]]]:
    """`Repo.file_logs`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).file_logs(head, paths, limit, since, hidden)


def trailer_commits(git: RepoOrPath, head: str, since: str | None = None, prefix: str = "Memgit-") -> list[CommitInfo]:
    """`Repo.trailer_commits`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).trailer_commits(head, since, prefix)


def dream_commits(
    git: RepoOrPath, head: str, branch_prefix: str, known: Mapping[str, list[str]] | None = None
) -> dict[str, list[str]]:
    """`Repo.dream_commits`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).dream_commits(head, branch_prefix, known)


def commits_info(git: RepoOrPath, ids: Iterable[str]) -> dict[str, CommitInfo]:
    """`Repo.commits_info`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).commits_info(ids)


def full_commit_ids(git: RepoOrPath, names: Iterable[str]) -> dict[str, str]:
    """`Repo.full_commit_ids`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).full_commit_ids(names)


def blobs_at(git: RepoOrPath, items: Iterable[tuple[str, str]]) -> dict[tuple[str, str], bytes | None]:
    """`Repo.blobs_at`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).blobs_at(items)


def worktree_commit(git: RepoOrPath) -> str | None:
    """`Repo.worktree_commit`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).worktree_commit()


def renames(git: RepoOrPath, head: str, since: str | None = None) -> list[tuple[str, str, str]]:
    """`Repo.renames`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).renames(head, since)


def blame_lines(git: RepoOrPath, commit: str, path: str, ignore_whitespace: bool = False) -> list[str]:
    """`Repo.blame_lines`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).blame_lines(commit, path, ignore_whitespace)
