"""History reads for the memory site: commits, per-file logs, blame, blobs at a commit.

Every call is one batched `git` process (or one pygit2 call for blame), so a site build costs a
handful of processes however many notes the workspace holds. Values returned are plain (hex ids,
strings, ints): callers never hold git objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memgit.errors import MemgitError
from memgit.git import plumbing

_SEP = "\x1f"
_RECORD = "\x1e"


@dataclass(frozen=True)
class CommitInfo:
    """What a page shows about a commit: id, author, ISO date, subject, full message."""

    id: str
    author: str
    date: str
    subject: str
    message: str = ""

    def to_json(self) -> list[str]:
        return [self.id, self.author, self.date, self.subject, self.message]

    @classmethod
    def from_json(cls, data: list[str]) -> CommitInfo:
        return cls(*data)


def resolve_commit(root: Path, ref: str) -> tuple[str, str]:
    """(commit id, tree id) of `ref` from one `git rev-parse`; a clear error when it names no commit."""
    if not ref or ref.startswith("-"):
        raise MemgitError(f"--at {ref!r} is not a branch, tag or commit id")
    proc = plumbing.run_git(root, "rev-parse", "-q", f"{ref}^{{commit}}", f"{ref}^{{tree}}")
    ids = proc.stdout.decode().split()
    if proc.returncode == 0 and len(ids) == 2 and all(plumbing.is_object_id(x) for x in ids):
        return ids[0], ids[1]
    if ref == "HEAD" and plumbing.head_ids(root)[0] is None:
        raise MemgitError("the workspace has no commits yet; commit your memory first (git add -A && git commit)")
    raise MemgitError(f"--at {ref!r} names no commit in this repository; give a branch, tag or commit id")


def is_ancestor(root: Path, older: str, newer: str) -> bool:
    return plumbing.run_git(root, "merge-base", "--is-ancestor", older, newer).returncode == 0


def file_logs(
    root: Path, head: str, paths: set[str] | None, limit: int, since: str | None = None
) -> dict[str, list[dict[str, str]]]:
    """The `limit` newest commits that touched each path, newest first, from one `git log --raw`.

    Each row holds the commit's id, author, date and subject and the file's blob id after it (all
    zeros when the commit deleted the file), so a page can link to the note as it was. `since`
    restricts the walk to `since..head` (an incremental build merges the rows into those it kept).
    Merge commits are left out, as `git log -- path` does by default.
    """
    fmt = _RECORD + _SEP.join(["%H", "%an", "%aI", "%s"]) + _SEP
    rev = f"{since}..{head}" if since else head
    proc = plumbing.run_git(
        root, "log", "--no-merges", "--no-renames", "--raw", "--no-abbrev", "-z", f"--format={fmt}", rev
    )
    if proc.returncode != 0:
        raise MemgitError(f"git log failed: {proc.stderr.decode(errors='replace').strip()}")
    out: dict[str, list[dict[str, str]]] = {}
    for record in proc.stdout.decode("utf-8", "surrogateescape").split(_RECORD):
        fields = record.split(_SEP)
        if len(fields) < 5:
            continue
        commit = {"id": fields[0], "author": fields[1], "date": fields[2], "subject": fields[3]}
        tokens = fields[4].split("\0")
        i = 0
        while i < len(tokens) - 1:
            meta = tokens[i].lstrip("\n")
            if not meta.startswith(":"):
                i += 1
                continue
            name = tokens[i + 1]
            i += 2
            if paths is not None and name not in paths:
                continue
            seen = out.setdefault(name, [])
            if len(seen) < limit:
                seen.append({**commit, "blob": meta.split(" ")[3]})
    return out


def trailer_commits(root: Path, head: str, since: str | None = None, prefix: str = "Memgit-") -> list[CommitInfo]:
    """Commits reachable from `head` (and not from `since`) whose message holds a `<prefix>…:`
    trailer, newest first. Dreaming's promotion branches are found this way once merged, whatever
    their branch name.
    """
    fmt = _RECORD + _SEP.join(["%H", "%an", "%aI", "%s", "%B"])
    rev = f"{since}..{head}" if since else head
    proc = plumbing.run_git(root, "log", f"--format={fmt}", "-E", f"--grep=^{prefix}[A-Za-z]+:", rev)
    if proc.returncode != 0:
        raise MemgitError(f"git log failed: {proc.stderr.decode(errors='replace').strip()}")
    out = []
    for record in proc.stdout.decode("utf-8", "replace").split(_RECORD):
        fields = record.split(_SEP)
        if len(fields) == 5:
            out.append(CommitInfo(fields[0], fields[1], fields[2], fields[3], fields[4].strip()))
    return out


def commits_info(root: Path, ids: Iterable[str]) -> dict[str, CommitInfo]:
    """Author, date and subject of the given commits (unknown ids are left out)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    fmt = _RECORD + _SEP.join(["%H", "%an", "%aI", "%s"])
    proc = plumbing.run_git(root, "log", "--no-walk=unsorted", f"--format={fmt}", "--ignore-missing", *wanted)
    out: dict[str, CommitInfo] = {}
    for record in proc.stdout.decode("utf-8", "replace").split(_RECORD):
        fields = record.strip("\n").split(_SEP)
        if len(fields) == 4:
            out[fields[0]] = CommitInfo(*fields)
    return out


def expand_commit(root: Path, short: str) -> str | None:
    """The full id of an abbreviated commit id, or None when it names no commit here."""
    proc = plumbing.run_git(root, "rev-parse", "-q", "--verify", f"{short}^{{commit}}")
    text = proc.stdout.decode().strip()
    return text if proc.returncode == 0 and text else None


def blobs_at(root: Path, items: Iterable[tuple[str, str]]) -> dict[tuple[str, str], bytes | None]:
    """Contents of `path` at `commit` for each (commit, path), from one `cat-file --batch`.

    A pair whose path did not exist at that commit maps to None.
    """
    pairs = sorted(set(items))
    if not pairs:
        return {}
    request = "".join(f"{commit}:{path}\n" for commit, path in pairs).encode("utf-8", "surrogateescape")
    proc = plumbing.run_git(root, "cat-file", "--batch", data=request)
    data = proc.stdout
    out: dict[tuple[str, str], bytes | None] = {}
    pos = 0
    for pair in pairs:
        end = data.index(b"\n", pos)
        header = data[pos:end].split(b" ")
        pos = end + 1
        if len(header) != 3 or header[1] != b"blob":
            out[pair] = None
            continue
        size = int(header[2])
        out[pair] = data[pos : pos + size]
        pos += size + 1
    return out


def blame_lines(root: Path, commit: str, path: str, ignore_whitespace: bool = False) -> list[str]:
    """For each line of `path` at `commit`, the id of the commit that last changed it (pygit2 blame;
    `git blame` in a repository pygit2 cannot open, such as a SHA-256 one). `ignore_whitespace`
    credits a line to who wrote its words, not to a commit that only added the newline after it."""
    if not plumbing.pygit2_can_read(root):
        return _blame_lines_git(root, commit, path, ignore_whitespace)
    import pygit2  # ~70 ms: only paths that read objects pay for it

    repo = plumbing.open_repo(root)
    flags = pygit2.enums.BlameFlag.IGNORE_WHITESPACE if ignore_whitespace else pygit2.enums.BlameFlag.NORMAL
    try:
        blame = repo.blame(path, newest_commit=repo[commit].id, flags=flags)
    except (KeyError, ValueError, pygit2.GitError):
        return []
    out: list[str] = []
    for hunk in blame:
        out.extend([str(hunk.final_commit_id)] * hunk.lines_in_hunk)
    return out


def _blame_lines_git(root: Path, commit: str, path: str, ignore_whitespace: bool = False) -> list[str]:
    """`blame_lines` from `git blame --porcelain`: each final line is a header naming its commit,
    some metadata lines, then the line's text after a tab."""
    proc = plumbing.run_git(root, "blame", "--porcelain", *(["-w"] if ignore_whitespace else []), commit, "--", path)
    if proc.returncode != 0:
        return []
    out: list[str] = []
    current = ""
    for line in proc.stdout.split(b"\n"):
        if line.startswith(b"\t"):
            out.append(current)
            continue
        fields = line.split(b" ")
        if len(fields) in (3, 4) and plumbing.is_object_id(fields[0].decode("ascii", "replace")):
            current = fields[0].decode()
    return out


def worktree_commit(root: Path) -> str | None:
    """A commit of the work tree's uncommitted edits to tracked files (`git stash create`), or None.

    No branch, ref or file changes: the commit is a dangling object git collects in time. The site
    preview builds from it so edits show before they are committed.
    """
    proc = plumbing.run_git(root, "stash", "create", "memgit site preview: uncommitted changes")
    text = proc.stdout.decode().strip()
    return text if proc.returncode == 0 and text else None


def renames(root: Path, head: str, since: str | None = None) -> list[tuple[str, str, str]]:
    """Every rename in the history of `head` (not of `since`), newest first: (commit, old path,
    new path), from one `git log -M --diff-filter=R`. Kept apart from `file_logs` so that a
    file's log can follow its past names (`memgit.site.renames`) whatever parses the log itself."""
    rev = f"{since}..{head}" if since else head
    proc = plumbing.run_git(
        root, "log", "--no-merges", "-M", "--diff-filter=R", "--name-status", "-z", f"--format={_RECORD}%H", rev
    )
    if proc.returncode != 0:
        raise MemgitError(f"git log failed: {proc.stderr.decode(errors='replace').strip()}")
    out: list[tuple[str, str, str]] = []
    for record in proc.stdout.decode("utf-8", "surrogateescape").split(_RECORD):
        tokens = record.split("\0")
        commit = tokens[0].strip()
        if not plumbing.is_object_id(commit):
            continue
        i = 1
        while i + 2 < len(tokens):
            status = tokens[i].strip("\n")
            if status.startswith("R"):
                out.append((commit, tokens[i + 1], tokens[i + 2]))
                i += 3
            else:
                i += 1
    return out
