"""What the site still reaches through a path, until its gatherer takes the command's handle (issue 49,
item 2): the tree reads it calls, forwarded to `memgit.git.repo.Repo`, and the names of
`memgit.git.trees` it uses. Everything else reads through `Workspace.git`; this module goes when the
site does too.
"""

from __future__ import annotations

from collections.abc import Iterable

from memgit.git.repo import BlobReader as BlobReader
from memgit.git.repo import RepoOrPath, as_repo
from memgit.git.trees import Entry as Entry


def head_ids(git: RepoOrPath) -> tuple[str | None, str | None]:
    """`Repo.head_ids`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).head_ids()


def entries(git: RepoOrPath, tree_id: str | None, paths: Iterable[str] | None = None) -> dict[str, Entry]:
    """`Repo.entries`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).entries(tree_id, paths)


def read_blobs(git: RepoOrPath, blob_ids: Iterable[str]) -> dict[str, bytes]:
    """`Repo.read_blobs`, for the site's calls with a path (see `RepoOrPath`)."""
    return as_repo(git).read_blobs(blob_ids)
