"""History reads (commits, per-file logs, trailer commits, blobs at a commit): `HistoryReads` is the
part of `memgit.git.repo.Repo` that does them, for the memory site and dreaming.

Every call is one batched `git` process through the command's handle, so a site build costs a
handful of processes however many notes the workspace holds. Values returned are plain (hex ids,
strings, ints, `CommitInfo`): callers never hold git objects.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from memgit.errors import MemgitError
from memgit.git.trees import TreeReads, is_object_id

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}")


#: What a trailer commit's message must hold to be read at all (memgit's own trailer names).
_TRAILER_GREP = "^{prefix}[A-Za-z]+:"


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


def is_iso_date(text: str) -> bool:
    return bool(_ISO.fullmatch(text))


class NoCommitsYet(MemgitError):
    """HEAD names no commit: the repository has none yet (dreaming has nothing to do, a site nothing to show)."""


def _ids(proc_stdout: bytes) -> list[str]:
    return [line for line in proc_stdout.decode("ascii", "replace").split("\n") if is_object_id(line)]


def _trailer(message: str, name: str) -> str:
    """The value of the last `name: value` line of a message's last paragraph (git's trailer block)."""
    block = message.strip().rsplit("\n\n", 1)[-1]
    values = [line.split(":", 1)[1].strip() for line in block.split("\n") if line.startswith(name + ":")]
    return values[-1] if values else ""


def parse_commit_object(commit: str, body: bytes, with_message: bool = False) -> CommitInfo | None:
    """A raw commit object as a CommitInfo; None when its author line is not one git writes."""
    from datetime import datetime, timedelta, timezone  # not on a hook's path: read commits only

    head, _, message = body.partition(b"\n\n")
    author = None
    for line in head.split(b"\n"):
        if line.startswith(b"author "):
            author = line[len(b"author ") :].decode("utf-8", "replace")
            break
    if author is None:
        return None
    match = re.fullmatch(r"(.*?) ?<[^<>]*> (\d{1,12}) ([+-])(\d{2})(\d{2})", author)
    if match is None:
        return None
    sign = 1 if match[3] == "+" else -1
    zone = timezone(sign * timedelta(hours=int(match[4]), minutes=int(match[5])))
    try:
        date = datetime.fromtimestamp(int(match[2]), zone).isoformat()
    except (OverflowError, OSError, ValueError):
        return None
    if not is_iso_date(date):
        return None
    text = message.decode("utf-8", "replace")
    paragraph = text.lstrip("\n").split("\n\n", 1)[0]
    subject = " ".join(line.strip() for line in paragraph.split("\n") if line.strip())
    return CommitInfo(commit, match[1], date, subject, text.strip() if with_message else "")


class HistoryReads(TreeReads):
    """Reads of a repository's history: a part of `Repo` (through `TreeReads`, the runner)."""

    def resolve_commit(self, ref: str) -> tuple[str, str]:
        """(commit id, tree id) of `ref` from one `git rev-parse`: the one way memgit resolves a commit
        a user or a branch names. A clear error otherwise (worded for `site build --at`; a caller with
        another option catches it and says its own), `NoCommitsYet` for HEAD without commits."""
        if not ref or ref.startswith("-"):
            raise MemgitError(f"--at {ref!r} is not a branch, tag or commit id")
        proc = self.run("rev-parse", "-q", f"{ref}^{{commit}}", f"{ref}^{{tree}}")
        ids = proc.stdout.decode().split()
        if proc.returncode == 0 and len(ids) == 2 and all(is_object_id(x) for x in ids):
            return ids[0], ids[1]
        if ref == "HEAD" and self.head_ids()[0] is None:
            raise NoCommitsYet("the workspace has no commits yet; commit your memory first (git add -A && git commit)")
        raise MemgitError(f"--at {ref!r} names no commit in this repository; give a branch, tag or commit id")

    def is_ancestor(self, older: str, newer: str) -> bool:
        """`older` is `newer` or one of its ancestors (as far as the local history reaches)."""
        return self.run("merge-base", "--is-ancestor", older, newer).returncode == 0

    def _raw_records(self, rev: str, *options: str) -> Iterator[tuple[str, list[str], list[str]]]:
        """(commit id, `:mode mode blob blob status` fields, paths) for every file entry of a
        `git log -z --format=%H --raw` walk, newest first.

        The walk prints nothing a commit's author controls except paths, and those only NUL-terminated
        after the `:meta` token that announces them: `id NUL [NL]:meta NUL path NUL ... id NUL ...`
        (a rename or copy names two paths). A message cannot reach this output, so it cannot forge a
        row (messages are read afterwards, per commit, by `read_commits`)."""
        proc = self.run("log", "--no-merges", *options, "--raw", "--no-abbrev", "-z", "--format=%H", rev)
        if proc.returncode != 0:
            raise MemgitError(f"git log failed: {proc.stderr.decode(errors='replace').strip()}")
        tokens = proc.stdout.decode("utf-8", "surrogateescape").split("\0")
        commit = ""
        i = 0
        while i < len(tokens):
            token = tokens[i].lstrip("\n")
            i += 1
            if token.startswith(":"):
                fields = token.split(" ")
                count = 2 if len(fields) == 5 and fields[4][:1] in "RC" else 1
                paths = tokens[i : i + count]
                i += count
                if commit and len(fields) == 5 and len(paths) == count:
                    yield commit, fields, paths
            elif is_object_id(token):
                commit = token

    def _raw_walk(self, rev: str) -> Iterator[tuple[str, str, str]]:
        """(commit id, path, blob id after the commit) for every file every commit changed, newest first."""
        for commit, fields, paths in self._raw_records(rev, "--no-renames"):
            if is_object_id(fields[3]):
                yield commit, paths[0], fields[3]

    def file_logs(
        self,
        head: str,
        paths: set[str] | None,
        limit: int,
        since: str | None = None,
        hidden: Callable[[str], bool] | None = None,
    ) -> dict[str, list[dict[str, str]]]:
        """The `limit` newest commits that touched each path, newest first.

        Each row holds the commit's id, author, date and subject and the file's blob id after it (all
        zeros when the commit deleted the file), so a page can link to the note as it was. `since`
        restricts the walk to `since..head` (an incremental build merges the rows into those it kept).
        Merge commits are left out, as `git log -- path` does by default. `hidden` names paths a
        reader may not learn about: a row of a commit that also touched one says so (`private` "1").
        """
        rev = f"{since}..{head}" if since else head
        wanted: dict[str, list[tuple[str, str]]] = {}
        touched_hidden: set[str] = set()
        for commit, name, blob in self._raw_walk(rev):
            if hidden is not None and commit not in touched_hidden and hidden(name):
                touched_hidden.add(commit)
            if paths is not None and name not in paths:
                continue
            seen = wanted.setdefault(name, [])
            if len(seen) < limit:
                seen.append((commit, blob))
        infos = self.read_commits({commit for rows in wanted.values() for commit, _ in rows})
        out: dict[str, list[dict[str, str]]] = {}
        for name, rows in wanted.items():
            kept = []
            for commit, blob in rows:
                info = infos.get(commit)
                if info is None:
                    continue
                row = {"id": info.id, "author": info.author, "date": info.date, "subject": info.subject, "blob": blob}
                if hidden is not None:
                    row["private"] = "1" if commit in touched_hidden else ""
                kept.append(row)
            out[name] = kept
        return out

    def trailer_commits(self, head: str, since: str | None = None, prefix: str = "Memgit-") -> list[CommitInfo]:
        """Commits reachable from `head` (and not from `since`) whose message holds a `<prefix>…:`
        trailer, newest first. The walk prints ids only; each message is then read whole from its
        commit object (`read_commits`), so no message can pass itself off as another commit's fields.
        """
        rev = f"{since}..{head}" if since else head
        proc = self.run("log", "--format=%H", "-E", f"--grep={_TRAILER_GREP.format(prefix=prefix)}", rev)
        if proc.returncode != 0:
            raise MemgitError(f"git log failed: {proc.stderr.decode(errors='replace').strip()}")
        ids = _ids(proc.stdout)
        infos = self.read_commits(ids, with_message=True)
        return [infos[c] for c in ids if c in infos]

    def dream_commits(
        self, head: str, branch_prefix: str, known: Mapping[str, list[str]] | None = None
    ) -> dict[str, list[str]]:
        """The commits memgit wrote on each dream branch `head` has merged: merged tip -> the trailer
        commits between the run's base and the tip. The report commit memgit writes last on a dream
        branch names the base (`Memgit-Base`); a hand-written commit below that base, or on the
        working branch, is none of them, whatever its trailers say. A branch with no such report
        counts for nothing. Local and remote-tracking branches under `branch_prefix` are read; what
        `known` holds for a tip (tips do not change once merged) is not read again."""
        clean = branch_prefix.strip("/")
        if not clean or clean.startswith("-") or not is_object_id(head):
            return {}
        proc = self.run(
            "for-each-ref",
            f"--merged={head}",
            "--format=%(objectname)",
            f"refs/heads/{clean}/",
            f"refs/remotes/*/{clean}/",
        )
        grep = _TRAILER_GREP.format(prefix="Memgit-")
        out: dict[str, list[str]] = {}
        for tip in sorted(set(_ids(proc.stdout))):
            if known is not None and tip in known:
                out[tip] = list(known[tip])
                continue
            report = _ids(
                self.run(
                    "log", "--first-parent", "-1", "--format=%H", "-E", "--grep=^Memgit-Action: report$", tip
                ).stdout
            )
            info = self.read_commits(report, with_message=True).get(report[0]) if report else None
            base = _trailer(info.message, "Memgit-Base") if info is not None else ""
            if not is_object_id(base):
                out[tip] = []
                continue
            found = self.run("log", "--format=%H", "-E", f"--grep={grep}", tip, f"^{base}")
            out[tip] = _ids(found.stdout) if found.returncode == 0 else []
        return out

    def read_commits(self, ids: Iterable[str], with_message: bool = False) -> dict[str, CommitInfo]:
        """Author, ISO date and subject (and the whole message) of each commit, read from the commit
        objects through one `cat-file --batch`: each object comes length-prefixed, its author line is
        parsed from the right (`name <email> seconds zone`), so no byte of a message or a name can
        shift another field. Ids that are not full object ids, or name no commit, are left out."""
        wanted = sorted({c for c in ids if is_object_id(c)})
        if not wanted:
            return {}
        proc = self.run("cat-file", "--batch", data="".join(f"{c}\n" for c in wanted).encode())
        data, pos = proc.stdout, 0
        out: dict[str, CommitInfo] = {}
        for commit in wanted:
            end = data.find(b"\n", pos)
            if end < 0:
                break
            header = data[pos:end].split(b" ")
            pos = end + 1
            if len(header) != 3 or header[1] != b"commit" or not header[2].isdigit():
                continue
            size = int(header[2])
            body = data[pos : pos + size]
            pos += size + 1
            if header[0].decode("ascii", "replace") != commit:
                continue
            info = parse_commit_object(commit, body, with_message)
            if info is not None:
                out[commit] = info
        return out

    def commits_info(self, ids: Iterable[str]) -> dict[str, CommitInfo]:
        """Author, date and subject of the given commits (unknown ids are left out)."""
        return self.read_commits(ids)

    def full_commit_ids(self, names: Iterable[str]) -> dict[str, str]:
        """The full id of each abbreviated commit id that names exactly one commit here (one
        `cat-file --batch-check`); ids that are not hex, missing or ambiguous are left out."""
        wanted = sorted({n for n in names if 4 <= len(n) <= 64 and all(c in "0123456789abcdef" for c in n)})
        if not wanted:
            return {}
        proc = self.run("cat-file", "--batch-check", data="".join(f"{n}^{{commit}}\n" for n in wanted).encode())
        out: dict[str, str] = {}
        for name, line in zip(wanted, proc.stdout.decode("ascii", "replace").split("\n"), strict=False):
            fields = line.split(" ")
            if len(fields) == 3 and fields[1] == "commit" and is_object_id(fields[0]) and fields[0].startswith(name):
                out[name] = fields[0]
        return out

    def blobs_at(self, items: Iterable[tuple[str, str]]) -> dict[tuple[str, str], bytes | None]:
        """Contents of `path` at `commit` for each (commit, path), from one `cat-file --batch`.

        A pair whose path did not exist at that commit maps to None.
        """
        pairs = sorted(set(items))
        if not pairs:
            return {}
        request = "".join(f"{commit}:{path}\n" for commit, path in pairs).encode("utf-8", "surrogateescape")
        proc = self.run("cat-file", "--batch", data=request)
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

    def worktree_commit(self) -> str | None:
        """A commit of the work tree's uncommitted edits to tracked files (`git stash create`), or None.

        No branch, ref or file changes: the commit is a dangling object git collects in time. The site
        preview builds from it so edits show before they are committed. `git stash create` refreshes
        the index it reads and takes `index.lock` to do so, which makes a person's `git commit` beside
        the preview fail; so it works on a copy of the index, and the real one is never locked.
        """
        import shutil
        import tempfile

        located = self.run("rev-parse", "--git-path", "index")
        index = Path(self.root, located.stdout.decode().strip()) if located.returncode == 0 else None
        with tempfile.TemporaryDirectory(prefix="memgit-preview-") as scratch:
            extra = None
            if index is not None and index.is_file():
                copy = Path(scratch) / "index"
                try:
                    shutil.copyfile(index, copy)
                    extra = {"GIT_INDEX_FILE": str(copy)}
                except OSError:
                    return None  # the index is being replaced: the next rebuild tries again
            proc = self.run("stash", "create", "memgit site preview: uncommitted changes", extra_env=extra)
        text = proc.stdout.decode().strip()
        return text if proc.returncode == 0 and text else None

    def renames(self, head: str, since: str | None = None) -> list[tuple[str, str, str]]:
        """Every rename in the history of `head` (not of `since`), newest first: (commit, old path,
        new path). Kept apart from `file_logs` so that a file's log can follow its past names
        (`memgit.site.renames`); read by the same message-proof walk."""
        rev = f"{since}..{head}" if since else head
        return [
            (commit, paths[0], paths[1])
            for commit, fields, paths in self._raw_records(rev, "-M", "--diff-filter=R")
            if fields[4].startswith("R")
        ]
