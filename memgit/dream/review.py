"""Decisions a reviewer takes, as commands: drop a proposal from the dream branch, reject a merged
entry. Both record the decision (decisions.py), so the proposal never comes back.

* `drop_proposals` rewrites the dream branch without the named proposals, regenerated from the
  same inputs as the run that wrote it (its base commit and clock, which the report commit names):
  deterministic, no rebase, no conflict, and the decision rides on the branch (merging the pull
  request records it; the next nightly run carries it when it replaces the branch).
* `reject_entries` takes merged entries out of MEMORY.md by key on the current branch (a person's
  text untouched) and commits that with the decision, with the user's own git.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core.clock import resolve_now
from memgit.core.paths import ENTRIES_PATH
from memgit.dream import memory_doc
from memgit.dream.branch import DreamBranch, Proposal
from memgit.dream.concepts import plain
from memgit.dream.decisions import Decision, decisions_path
from memgit.dream.entries import append_lines, parse_store
from memgit.dream.run import DreamOutcome, gather, read_dream_branch, write_branch
from memgit.errors import MemgitError
from memgit.git import commits
from memgit.git.repo import Repo

if TYPE_CHECKING:
    from memgit.dream.model import DreamPlan
    from memgit.workspace import Workspace

MIN_PREFIX = 5


def match_keys(wanted: list[str], known: list[str], what: str) -> list[str]:
    """Each wanted key, given whole or as a unique prefix of at least five characters (pure)."""
    out: list[str] = []
    for key in wanted:
        found = [k for k in known if k == key] or (
            [k for k in known if k.startswith(key)] if len(key) >= MIN_PREFIX else []
        )
        if len(found) != 1:
            listing = ", ".join(known[:12]) + (" …" if len(known) > 12 else "")
            why = "names several" if len(found) > 1 else "is not one of"
            raise MemgitError(f"{key!r} {why} the {what} ({listing or 'none'})")
        if found[0] not in out:
            out.append(found[0])
    return out


def dream_branch_name(ws: Workspace, repo: Repo, branch: str | None) -> str:
    """`branch`, else the one local dream branch (a clear error when there are none or several)."""
    if branch is not None:
        commits.check_branch_name(repo, branch)
        if commits.branch_commit(repo, branch) is None:
            raise MemgitError(f"no branch {branch} here; fetch it first (`git fetch origin {branch}:{branch}`)")
        return branch
    found = commits.local_branches(repo, ws.config.dream.branch_prefix)
    if len(found) != 1:
        listed = ", ".join(found) if found else "none"
        raise MemgitError(f"name the dream branch with --branch (local dream branches: {listed})")
    return found[0]


@dataclass
class DropOutcome:
    branch: str
    dropped: list[Proposal] = field(default_factory=list)
    dream: DreamOutcome | None = None
    changed: list[str] = field(default_factory=list)  # proposals that did not come back as they were

    def to_dict(self) -> dict[str, Any]:
        dream = self.dream.to_dict() if self.dream is not None else {}
        return {
            "branch": self.branch,
            "dropped": [{"key": p.key, "action": p.action, "text": p.text} for p in self.dropped],
            "commits": dream.get("commits", []),
            "pushed": dream.get("pushed"),
            "actions": dream.get("actions", []),
            "changed": self.changed,
            "notices": dream.get("notices", []),
        }


def _dreamed_branch(ws: Workspace, repo: Repo, branch: str | None) -> tuple[str, str, DreamBranch]:
    """(name, tip, branch) of a dream branch memgit wrote alone, or a clear error."""
    name = dream_branch_name(ws, repo, branch)
    tip = commits.branch_commit(repo, name)
    assert tip is not None
    found: DreamBranch = read_dream_branch(repo, tip)
    if not found.dreamed or found.base is None or found.now is None:
        raise MemgitError(f"{name} is not a branch memgit dreamed (no commits with Memgit-* trailers on it)")
    if found.foreign:
        newest = found.foreign[0]
        raise MemgitError(
            f"{name} has {len(found.foreign)} commit(s) memgit did not write ({newest.id[:10]} by {newest.author}); "
            "memgit does not rewrite a reviewer's work: delete the entry's line from MEMORY.md on the branch "
            "instead (merging that records the rejection too)"
        )
    try:
        repo.resolve_commit(found.base)
    except MemgitError:
        raise MemgitError(f"the base commit {found.base[:12]} of {name} is not here; fetch it first") from None
    return name, tip, found


def _regenerate(
    ws: Workspace,
    repo: Repo,
    name: str,
    tip: str,
    found: DreamBranch,
    new: tuple[Decision, ...],
    keep: frozenset[str],
    push: str | None,
    check: Callable[[DreamPlan], None] | None = None,
) -> tuple[DreamOutcome, list[str]]:
    """Write the dream branch again from the inputs of the run that wrote it, with decisions `new`
    and only the proposals `keep`; (the outcome, the kept proposals that did not come back).
    `check` may refuse the new plan (raise) before anything is written."""
    if push:
        from memgit.git.remote import check_remote

        check_remote(repo, push)
    notices: list[str] = []
    assert found.base is not None and found.now is not None
    inputs = gather(ws, repo, found.base, found.now, notices, tips=(tip,), new_decisions=new, only=keep)
    from memgit.dream.plan import plan_dream

    plan = plan_dream(inputs)
    if check is not None:
        check(plan)
    outcome = DreamOutcome(plan=plan, base=found.base, notices=plan.notices)
    came_back = {a.key for a in plan.actions}
    changed = sorted(keep - came_back)
    if push:
        from memgit.git.remote import fetch_branch

        remote_tip = fetch_branch(repo, push, name)
        if remote_tip is not None and remote_tip != tip:
            remote = read_dream_branch(repo, remote_tip)
            if remote.foreign:
                raise MemgitError(f"{push}/{name} has commits memgit did not write; not pushing over them")
    write_branch(repo, plan, inputs, outcome, name=name, force=True, push=push)
    return outcome, changed


def drop_proposals(
    ws: Workspace,
    keys: list[str],
    *,
    branch: str | None = None,
    push: str | None = None,
    now: datetime | None = None,
) -> DropOutcome:
    """`now`: the decision's date (the CLI's --now); default MEMGIT_NOW, else the clock."""
    repo = ws.git  # the command's one handle on the repository
    repo.what = "dreaming"
    name, tip, found = _dreamed_branch(ws, repo, branch)
    chosen = match_keys(keys, [p.key for p in found.proposals], f"proposals on {name}")
    dropped = [p for p in found.proposals if p.key in chosen]
    day = (now or resolve_now()).date().isoformat()
    new = tuple(
        Decision(
            p.key,
            "kept" if p.action == "forget" else "rejected",
            day,
            "drop",
            p.action,
            p.text,
            "dropped from the dream branch",
        )
        for p in dropped
    )
    keep = frozenset(p.key for p in found.proposals if p.key not in chosen)
    outcome, changed = _regenerate(ws, repo, name, tip, found, new, keep, push)
    return DropOutcome(name, dropped, outcome, changed)


@dataclass
class SupersedeOutcome:
    branch: str
    key: str
    target: str
    dream: DreamOutcome

    def to_dict(self) -> dict[str, Any]:
        dream = self.dream.to_dict()
        return {
            "branch": self.branch,
            "key": self.key,
            "target": self.target,
            "commits": dream.get("commits", []),
            "pushed": dream.get("pushed"),
            "actions": dream.get("actions", []),
            "notices": dream.get("notices", []),
        }


def supersede_proposal(
    ws: Workspace,
    key: str,
    old: str,
    *,
    branch: str | None = None,
    push: str | None = None,
    now: datetime | None = None,
) -> SupersedeOutcome:
    """Make proposal `key` on the dream branch the update of entry `old` (a "may conflict with"
    the reviewer confirms): the branch is written again with it replacing that entry, and the
    decision rides on the branch, so later runs keep it an update."""
    repo = ws.git  # the command's one handle on the repository
    repo.what = "dreaming"
    name, tip, found = _dreamed_branch(ws, repo, branch)
    [chosen] = match_keys([key], [p.key for p in found.proposals if p.action == "promote"], f"new proposals on {name}")
    assert found.base is not None
    memory = (commits.read_files(repo, found.base, ["MEMORY.md"])["MEMORY.md"] or b"").decode("utf-8", "replace")
    store = parse_store((commits.read_files(repo, found.base, [ENTRIES_PATH])[ENTRIES_PATH] or b"").decode())
    entries = {e.key: e for e in memory_doc.parse_entries(memory, store.hashes())}
    [target] = match_keys([old], sorted(entries), f"entries of MEMORY.md at {found.base[:12]}")
    if not entries[target].owned:
        raise MemgitError(f"entry {target} was edited by hand, so it is yours: edit MEMORY.md yourself")
    proposal = next(p for p in found.proposals if p.key == chosen)
    day = (now or resolve_now()).date().isoformat()
    decision = Decision(
        chosen, "updates", day, "supersede", "supersede", proposal.text, "confirmed as an update", target
    )
    keep = frozenset(p.key for p in found.proposals if p.key != target)

    def check(plan: DreamPlan) -> None:
        if not any(a.key == chosen and a.target == target for a in plan.actions):
            raise MemgitError(
                f"{chosen} cannot update {target} (another proposal of the branch updates it); nothing was written"
            )

    outcome, _ = _regenerate(ws, repo, name, tip, found, (decision,), keep, push, check)
    return SupersedeOutcome(name, chosen, target, outcome)


@dataclass
class RejectOutcome:
    rejected: list[tuple[str, str]] = field(default_factory=list)  # key, text
    removed: list[str] = field(default_factory=list)  # keys taken out of MEMORY.md
    commit: str | None = None
    paths: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rejected": [{"key": k, "text": t} for k, t in self.rejected],
            "removed": self.removed,
            "commit": self.commit,
            "paths": self.paths,
        }


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise MemgitError(f"cannot read {path.name}: {exc}") from None


def reject_entries(
    ws: Workspace, keys: list[str], *, reason: str | None = None, now: datetime | None = None
) -> RejectOutcome:
    """Take merged entries out of MEMORY.md by key, record each as rejected (dated `now`), commit both."""
    from memgit.git import commits, trees

    root = ws.root
    operation = trees.operation_in_progress(ws.git_dir)
    if operation:
        raise MemgitError(f"cannot reject during {operation}; finish it (or abort it) first")
    if reason is not None and ("\n" in reason or len(reason) > 300):
        raise MemgitError("--reason must be one line of at most 300 characters")
    dirty = ws.git.worktree_changed_paths()
    if "MEMORY.md" in dirty:
        raise MemgitError("MEMORY.md has uncommitted changes; commit or stash them first, then reject")
    memory = _read(root / "MEMORY.md") or ""
    if memory_doc.has_conflict_markers(memory):
        raise MemgitError("MEMORY.md holds merge conflict markers; resolve the conflict first")
    store = parse_store(_read(root / ENTRIES_PATH) or "")
    hashes = store.hashes()
    entries = {e.key: e for e in memory_doc.parse_entries(memory, hashes)}
    known = list(dict.fromkeys([*entries, *store.written()]))
    chosen = match_keys(keys, known, "entries memgit wrote")
    outcome = RejectOutcome()
    text = memory
    for key in chosen:
        entry = entries.get(key)
        if entry is not None and not entry.owned:
            raise MemgitError(
                f"entry {key} was edited by hand, so it is yours: delete its line from MEMORY.md yourself"
            )
        if entry is not None:
            text = memory_doc.remove_entry(text, key, hashes)
            outcome.removed.append(key)
        record = store.written().get(key)
        outcome.rejected.append((key, plain(entry.body) if entry is not None else (record.text if record else "")))
    day = (now or resolve_now()).date().isoformat()
    decisions_rel = decisions_path(day)
    lines = [
        Decision(key, "rejected", day, "reject", "promote", body, reason or None).to_json()
        for key, body in outcome.rejected
    ]
    decisions_file = root / decisions_rel
    before_decisions = _read(decisions_file)
    paths = ["MEMORY.md", decisions_rel] if outcome.removed else [decisions_rel]
    try:
        decisions_file.parent.mkdir(parents=True, exist_ok=True)
        decisions_file.write_text(append_lines(before_decisions or "", lines), encoding="utf-8")
        if outcome.removed:
            (root / "MEMORY.md").write_text(text, encoding="utf-8", newline="")
    except OSError as exc:
        _restore(root, memory if outcome.removed else None, decisions_file, before_decisions)
        raise MemgitError(f"cannot write the rejection: {exc.strerror or exc}; nothing was changed") from None
    shown = ", ".join(key for key, _ in outcome.rejected)
    message = (
        f"memgit: reject {shown}\n\n"
        + "\n".join(f"> {body}" for _, body in outcome.rejected if body)
        + (f"\n\nReason: {reason}" if reason else "")
        + "\n\nRecorded in "
        + decisions_rel
        + ": never proposed again unless its source text changes.\n"
    )
    try:
        outcome.commit = commits.commit_paths(ws.git, paths, message)
    except commits.CommitFailed as exc:
        _restore(root, memory if outcome.removed else None, decisions_file, before_decisions)
        ws.git.unstage(paths)
        raise MemgitError(
            f"git commit of the rejection failed ({exc.complaint}); "
            + exc.advice("MEMORY.md and the decision were put back; fix the problem and run it again")
        ) from None
    outcome.paths = paths
    return outcome


def _restore(root: Path, memory: str | None, decisions_file: Path, before: str | None) -> None:
    if memory is not None:
        (root / "MEMORY.md").write_text(memory, encoding="utf-8", newline="")
    if before is None:
        decisions_file.unlink(missing_ok=True)
    else:
        decisions_file.write_text(before, encoding="utf-8")
