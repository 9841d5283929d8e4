"""Secrets in a commit's author, committer and message (pure: the texts in, findings out).

A commit's author name and message are published with the memory: the site lists them beside
every note's history and under "written by", and a dream's pull request quotes them. The hook
that checks files never sees them (a name comes from git's configuration, a message is written
after the pre-commit hook ran), so `memgit lint --history` reads them from the history with the
same secret rules (`memgit.lint.secrets.find_secrets`) and names the commit and the place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memgit.lint.hits import Hit
from memgit.lint.rules import OFF, Finding, LintSettings


@dataclass(frozen=True)
class CommitText:
    """What a commit says of itself: its id, the author's and committer's name and e-mail, and
    its message."""

    id: str
    author: str
    author_email: str
    committer: str
    committer_email: str
    message: str


#: `git log`'s format for `commit_texts`: six fields, each ended by a NUL, which no name, e-mail or
#: message of a commit git writes can hold (a unit or record separator in a hostile message could,
#: and would hide the rest of the history from the lint).
LOG_FORMAT = "--format=%H%x00%an%x00%ae%x00%cn%x00%ce%x00%B%x00"
_COMMIT_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


def commit_texts(output: bytes) -> list[CommitText]:
    """The commits of a `git log LOG_FORMAT` output. A record that does not start with a commit id
    (a commit object crafted with a NUL inside) is skipped up to the next one that does."""
    fields = output.decode("utf-8", "replace").split("\x00")
    out: list[CommitText] = []
    index = 0
    while index + 6 <= len(fields):
        commit_id = fields[index].strip("\n")
        if _COMMIT_ID.fullmatch(commit_id) is None:
            index += 1
            continue
        author, author_email, committer, committer_email, message = fields[index + 1 : index + 6]
        out.append(CommitText(commit_id, author, author_email, committer, committer_email, message.strip("\n")))
        index += 6
    return out


def lint_commit(commit: CommitText, settings: LintSettings) -> list[Finding]:
    """The secret findings in `commit`'s people (name and e-mail of its author and committer, each
    on its own) and message, one a place (the first rule's)."""
    from memgit.lint.secrets import find_secrets

    out: list[Finding] = []
    people = (
        ("author", commit.author),
        ("author-email", commit.author_email),
        ("committer", commit.committer),
        ("committer-email", commit.committer_email),
    )
    seen: set[str] = set()
    for where, text in people:
        if not text or text in seen:  # the committer is most often the author
            continue
        seen.add(text)
        hits = _hits(find_secrets([text], entropy_threshold=settings.entropy_threshold), settings)
        if hits:
            out.append(_finding(commit, where, 1, hits[0].code, hits[0].message, settings))
    lines = commit.message.split("\n")
    done: set[int] = set()
    for hit in _hits(find_secrets(lines, entropy_threshold=settings.entropy_threshold), settings):
        if hit.reported and hit.index not in done:
            done.add(hit.index)
            out.append(_finding(commit, "message", hit.index + 1, hit.code, hit.message, settings))
    return out


def _hits(hits: list[Hit], settings: LintSettings) -> list[Hit]:
    return [hit for hit in hits if settings.severity(hit.code) != OFF]


def _finding(commit: CommitText, where: str, line: int, code: str, message: str, settings: LintSettings) -> Finding:
    advice = (
        "; rewrite the commit or rotate the credential" if where == "message" else "; fix git's user.name / user.email"
    )
    return Finding("", line, code, message.split(";")[0] + advice, settings.severity(code), commit.id, where)
