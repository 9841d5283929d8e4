"""A dream branch read back (pure): what memgit wrote on it, on which base, and what it did not.

memgit's commits carry `Memgit-*` trailers and its own committer (`dream@memgit.invalid`); the
report commit, the last, also names the run's base commit and clock (`Memgit-Base`, `Memgit-Now`),
so the branch can be regenerated from the same inputs (`memgit dream drop`). Any other commit
between the tip and that base is a reviewer's (a fix pushed to the pull request, a rebase): the
nightly run must not push over it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memgit.core.provenance import TRAILER_ACTION, TRAILER_KEY, parse_trailers
from memgit.git.commits import ChainCommit

DREAM_EMAIL = "dream@memgit.invalid"
TRAILER_BASE = "Memgit-Base"
TRAILER_NOW = "Memgit-Now"


@dataclass(frozen=True)
class Proposal:
    key: str
    action: str  # promote | supersede | forget
    text: str
    commit: str


@dataclass
class DreamBranch:
    tip: str
    base: str | None = None
    now: datetime | None = None
    proposals: list[Proposal] = field(default_factory=list)  # in commit order
    #: Commits memgit did not write, above the base (newest first).
    foreign: list[ChainCommit] = field(default_factory=list)
    #: memgit wrote at least one commit on it.
    dreamed: bool = False


def written_by_memgit(commit: ChainCommit) -> bool:
    return commit.committer_email == DREAM_EMAIL and TRAILER_ACTION in parse_trailers(commit.message)


def quoted_text(message: str) -> str:
    """The proposal's text as the commit body quotes it (`> ` lines)."""
    return " ".join(line[2:].strip() for line in message.splitlines() if line.startswith("> "))


def read_branch(chain: Sequence[ChainCommit]) -> DreamBranch:
    """A branch from its first-parent chain, newest first (git/commits.first_parent_chain)."""
    if not chain:
        return DreamBranch(tip="")
    found = DreamBranch(tip=chain[0].id)
    proposals: list[Proposal] = []
    for commit in chain:
        if found.base is not None and commit.id == found.base:
            break
        if written_by_memgit(commit):
            found.dreamed = True
            trailers = parse_trailers(commit.message)
            action = trailers[TRAILER_ACTION]
            if action == "report":
                found.base = found.base or trailers.get(TRAILER_BASE)
                if trailers.get(TRAILER_NOW) and found.now is None:
                    try:
                        found.now = datetime.fromisoformat(trailers[TRAILER_NOW])
                    except ValueError:
                        found.now = None
                if found.now is None:
                    found.now = commit.when
            elif action in ("promote", "supersede", "forget") and trailers.get(TRAILER_KEY):
                proposals.append(Proposal(trailers[TRAILER_KEY], action, quoted_text(commit.message), commit.id))
            continue
        if found.dreamed and found.base is None:
            found.base = commit.id  # an earlier memgit's report names no base: the first other commit is it
            break
        found.foreign.append(commit)
    found.proposals = list(reversed(proposals))
    return found
