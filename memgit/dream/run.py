"""A dreaming run's I/O shell: gather the inputs at the base commit, plan, write the branch, push.

Everything is read from the base commit's tree (plus, when the base is HEAD, the recall spool's lines not
published yet), so a run is a function of (base commit, ledger, --now, config): the same inputs give
byte-identical commits. Nothing here touches the work tree, git's index or the checked-out branch.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from memgit.core.chunking import text_hash
from memgit.core.paths import (
    DECISIONS_DIR,
    DREAM_REPORT_DIR,
    ENTRIES_PATH,
    LEDGER_DIR,
    daily_date,
    daily_log_day,
    daily_log_path,
)
from memgit.core.provenance import (
    TRAILER_ACTION,
    TRAILER_KEY,
    TRAILER_SCORE,
    TRAILER_SOURCE,
    format_trailers,
)
from memgit.core.text import NotText, decode_memory_text
from memgit.core.transcripts import transcript_lines
from memgit.dream import memory_doc
from memgit.dream.branch import TRAILER_BASE, TRAILER_NOW, DreamBranch, read_branch
from memgit.dream.concept_map import concepts_path
from memgit.dream.concepts import jaccard
from memgit.dream.decisions import Decision, decisions_path, parse_decisions
from memgit.dream.entries import EntryRecord, append_lines
from memgit.dream.model import Action, DreamInputs, DreamPlan, Similarity
from memgit.dream.plan import plan_dream
from memgit.errors import MemgitError
from memgit.git import commits
from memgit.git.commits import ChainCommit
from memgit.git.log import NoCommitsYet
from memgit.git.repo import Repo
from memgit.index.cache import EmbeddingCache, open_text_cache
from memgit.index.store import backend
from memgit.ledger.lines import ledger_lines
from memgit.ledger.read import parse_ledger
from memgit.ledger.spool import new_lines, read_spool
from memgit.lint.files import output_settings

if TYPE_CHECKING:
    from memgit.workspace import Workspace

IDENTITY = commits.Identity("memgit dream", "dream@memgit.invalid")
NO_MODEL_NOTICE = "no embedding model: duplicates and updates are judged by term overlap instead of embeddings"


@dataclass
class DreamOutcome:
    plan: DreamPlan | None
    branch: str | None = None
    commits: list[str] = field(default_factory=list)
    pushed: str | None = None
    reason: str | None = None
    base: str | None = None
    notices: list[str] = field(default_factory=list)
    #: --push found commits memgit did not write on the remote branch: nothing written or pushed.
    not_pushed: bool = False
    #: A closed pull request's rejections with nothing new to propose: the branch that records them
    #: (`<branch>-decisions`; never a pull request of its own), and git's push line for it.
    decisions_branch: str | None = None
    decisions_pushed: str | None = None
    #: Texts the comparison embedded and read from the embedding cache ({} without a model).
    vectors: dict[str, int] = field(default_factory=dict)

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        plan = self.plan
        data: dict[str, Any] = {
            "base": self.base,
            "branch": self.branch,
            "commits": self.commits,
            "pushed": self.pushed,
            "reason": self.reason,
            "notices": self.notices,
            "not_pushed": self.not_pushed,
            "decisions_branch": self.decisions_branch,
            "decisions_pushed": self.decisions_pushed,
            "vectors": self.vectors,
        }
        if plan is not None:
            data.update(
                {
                    "day": plan.day,
                    "actions": [_action_dict(a) for a in plan.actions],
                    "gates": plan.gate_counts,
                    "light": plan.light,
                    "themes": [{"tag": t, "strength": round(s, 3)} for t, s in plan.themes],
                    "report": plan.report,
                    "concepts_file": concepts_path(plan.day),
                    "decisions": [json.loads(d.to_json()) for d in plan.decisions],
                }
            )
            if explain:
                data["candidates"] = [c.explain() for c in plan.candidates]
        return data


def _action_dict(action: Action) -> dict[str, Any]:
    return {
        "action": action.kind,
        "key": action.key,
        "text": action.text,
        "source": action.source.format() if action.source else None,
        "score": round(action.score, 3) if action.score is not None else None,
        "components": action.components.as_dict() if action.components else None,
        "target": action.target,
        "subject": action.subject,
        "conflicts": [{"key": key, "text": text} for key, text in action.conflicts],
        "timeline": action.timeline,
        "by_hand": action.previous_by_hand,
    }


def _similarity(ws: Workspace, notices: list[str]) -> Similarity:
    from memgit.index.open import open_embedder

    embedder, problem = (None, None)
    if ws.config.embedding.provider != "none":
        embedder, problem = open_embedder(ws, threads=ws.config.embedding.threads)
    if embedder is None:
        notices.append(NO_MODEL_NOTICE + (f" ({problem})" if problem else ""))
        return Similarity("terms", lambda a, b: [[jaccard(x, y) for y in b] for x in a])
    cache: dict[str, Any] = {}
    kept = _KeptVectors(ws)
    counts = {"embedded": 0, "cached": 0}

    def vectors(texts: list[str]) -> Any:
        import numpy as np

        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            hashes = {t: text_hash(t) for t in missing}
            found = kept.get(embedder.model_id, list(hashes.values()))
            fresh = [t for t in missing if hashes[t] not in found]
            counts["embedded"] += len(fresh)
            counts["cached"] += len(missing) - len(fresh)
            for text in missing:
                if hashes[text] in found:
                    cache[text] = np.frombuffer(found[hashes[text]], dtype="<f4").astype(np.float32)
            if fresh:
                made = embedder.embed(fresh)
                for text, vec in zip(fresh, made, strict=True):
                    cache[text] = vec
                kept.put(embedder.model_id, {hashes[t]: cache[t] for t in fresh})

        return np.stack([cache[t] for t in texts]) if texts else np.zeros((0, embedder.dim), dtype="float32")

    def compare(a: list[str], b: list[str]) -> list[list[float]]:
        if not a or not b:
            return [[] for _ in a]
        rows: list[list[float]] = (vectors(a) @ vectors(b).T).round(6).tolist()
        return rows

    return Similarity("embedding", compare, counts, vectors)


class _KeptVectors:
    """The index's embedding cache, where a dream keeps the vectors of what it compares: the
    next night (and the run after a `--dry-run`) embeds only texts it has not seen. It only
    saves work: a cache that cannot be opened, read or written is left alone for the rest of
    the run, and every text is embedded."""

    def __init__(self, ws: Workspace) -> None:
        from memgit.index.layout import cache_path

        self._error = backend().module.Error
        self._cache: EmbeddingCache | None = None
        with contextlib.suppress(OSError, self._error):
            # A short wait: an index build holds the cache's lock a batch at a time.
            self._cache = open_text_cache(cache_path(ws), backend().module, busy_timeout=2.0)

    def get(self, model: str, hashes: list[str]) -> dict[str, bytes]:
        try:
            return self._cache.get(model, hashes) if self._cache is not None else {}
        except self._error:
            self._cache = None
            return {}

    def put(self, model: str, items: dict[str, Any]) -> None:
        try:
            if self._cache is not None:
                self._cache.put(model, items)
        except self._error:
            self._cache = None


def _text(data: bytes | None) -> str | None:
    if data is None:
        return None
    try:
        return decode_memory_text(data)
    except NotText:
        return None


def _decision_files(repo: Repo, commit: str) -> list[tuple[str, str]]:
    names = [p for p in commits.list_files(repo, commit, DECISIONS_DIR) if p.endswith(".jsonl")]
    return [
        (name, (data or b"").decode("utf-8", errors="replace"))
        for name, data in commits.read_files(repo, commit, names).items()
    ]


def gather(
    ws: Workspace,
    repo: Repo,
    base: str,
    now: datetime,
    notices: list[str],
    *,
    tips: tuple[str, ...] = (),
    new_decisions: tuple[Decision, ...] = (),
    only: frozenset[str] | None = None,
) -> DreamInputs:
    """Everything a run reads, at the base commit. `tips`: dream branches this run replaces, whose
    review decisions it carries; `new_decisions`: decisions taken now (a drop, a closed PR). `repo`:
    the command's one handle on the repository, every read goes through it."""
    cfg = ws.config.dream
    memory = _text(commits.read_files(repo, base, ["MEMORY.md"])["MEMORY.md"]) or ""
    if memory_doc.has_conflict_markers(memory):
        raise MemgitError(
            f"MEMORY.md at {base[:12]} holds merge conflict markers; resolve the conflict and commit before dreaming"
        )
    ledger = parse_ledger(_ledger_texts(ws, repo, base, now))
    wanted = sorted({r.path for r in ledger.recalls})
    files = {path: _text(data) for path, data in commits.read_files(repo, base, wanted).items()}
    store_text = (commits.read_files(repo, base, [ENTRIES_PATH])[ENTRIES_PATH] or b"").decode("utf-8", "replace")
    at_base, carried = _decisions(repo, base, tips, new_decisions, notices)
    similarity = _similarity(ws, notices)
    return DreamInputs(
        now=now,
        base_commit=base,
        recalls=ledger.recalls,
        files=files,
        recent_notes=_recent_notes(ws, repo, base, now),
        window_notes=_window_notes(ws, repo, base, now),
        memory_text=memory,
        config=cfg,
        similarity=similarity,
        lint=output_settings(ws),
        malformed=ledger.malformed,
        malformed_where=tuple(ledger.malformed_where or ()),
        notices=tuple(notices),
        store_text=store_text,
        decisions=tuple(at_base + carried),
        carried=tuple(carried),
        only=only,
    )


def _ledger_texts(ws: Workspace, repo: Repo, base: str, now: datetime) -> list[tuple[str, str]]:
    """Every ledger file of the window, from the base tree; when the base is HEAD, plus this
    clone's spool (lines recorded, not published yet), an exact line already committed counted once."""
    cfg = ws.config.dream
    days = max(cfg.max_age_days, cfg.forget_unrecalled_days)
    first = (now.date() - timedelta(days=days - 1)).isoformat()
    names = [p for p in commits.list_files(repo, base, LEDGER_DIR) if p.endswith(".jsonl")]
    spool = read_spool(ws.data_dir) if repo.head_ids()[0] == base else {}
    names = sorted(set(names) | set(spool))
    names = [p for p in names if (daily_date(p) or "9999") >= first and (daily_date(p) or "") <= now.date().isoformat()]
    committed = commits.read_files(repo, base, names)
    texts: list[tuple[str, str]] = []
    for name in names:
        text = (committed.get(name) or b"").decode("utf-8", errors="replace")
        extra = new_lines(ledger_lines(text), spool.get(name, ()))
        if extra:
            text = text + ("" if not text or text.endswith("\n") else "\n") + "\n".join(extra) + "\n"
        texts.append((name, text))
    return texts


def _recent_notes(ws: Workspace, repo: Repo, base: str, now: datetime) -> dict[str, str]:
    """The daily logs of the light window and, when the workspace keeps them, its transcripts
    (what was said, user and assistant turns, feeds the themes)."""
    cfg = ws.config.dream
    recent_paths = [daily_log_path(now.date() - timedelta(days=d)) for d in range(cfg.light_lookback_days)]
    recent = {p: t for p, d in commits.read_files(repo, base, recent_paths).items() if (t := _text(d)) is not None}
    if ws.config.memory.sessions:
        window = {(now.date() - timedelta(days=d)).isoformat() for d in range(cfg.light_lookback_days)}
        sessions = [
            p for p in commits.list_files(repo, base, "sessions") if p.endswith(".jsonl") and daily_date(p) in window
        ]
        for path, data in commits.read_files(repo, base, sessions).items():
            text = _text(data)
            if text is not None:
                recent[path] = "\n".join(line for _, line in transcript_lines(text))
    return recent


def _window_notes(ws: Workspace, repo: Repo, base: str, now: datetime) -> dict[str, str]:
    """The daily logs and transcripts of the evidence window (`max_age_days` up to `now`), as written
    at the base: the lines of the subject timeline (timeline.py)."""
    first = (now.date() - timedelta(days=ws.config.dream.max_age_days - 1)).isoformat()
    last = now.date().isoformat()
    paths = [p for p in commits.list_files(repo, base, "memory") if daily_log_day(p) is not None]
    if ws.config.memory.sessions:
        paths += [p for p in commits.list_files(repo, base, "sessions") if p.endswith(".jsonl")]
    paths = [p for p in paths if first <= (daily_date(p) or "") <= last]
    return {p: t for p, d in commits.read_files(repo, base, paths).items() if (t := _text(d)) is not None}


def _decisions(
    repo: Repo, base: str, tips: tuple[str, ...], new_decisions: tuple[Decision, ...], notices: list[str]
) -> tuple[list[Decision], list[Decision]]:
    """(the review decisions at the base, those carried from the branches replaced and taken now)."""
    at_base, bad = parse_decisions(_decision_files(repo, base))
    known = {d.to_json() for d in at_base}
    carried: list[Decision] = []
    for tip in dict.fromkeys(tips):
        found, _ = parse_decisions(_decision_files(repo, tip))
        for decision in found:
            if decision.to_json() not in known:
                known.add(decision.to_json())
                carried.append(decision)
    carried += [d for d in new_decisions if d.to_json() not in known]
    if bad:
        notices.append(f"skipped {len(bad)} malformed review decision line(s): {', '.join(bad[:5])}")
    return at_base, carried


def commit_message(action: Action, record: EntryRecord | None = None) -> str:
    """A proposal's commit: the subject a reviewer reads in `git log`, the text quoted, where it
    comes from (heading, date), why (the questions that recalled it); the body (deep.py) says the
    rest, an update's old text beside the new."""
    trailers = {TRAILER_ACTION: action.kind, TRAILER_KEY: action.key}
    if action.source is not None:
        trailers[TRAILER_SOURCE] = action.source.format()
    if action.score is not None and action.components is not None:
        trailers[TRAILER_SCORE] = action.components.trailer(action.score)
    if action.target:
        trailers["Memgit-Supersedes"] = action.target
    if action.previous_source is not None:
        trailers["Memgit-Previous-Source"] = action.previous_source.format()
    quoted = "\n".join("> " + line for line in action.text.splitlines())
    about: list[str] = []
    if record is not None and action.source is not None:
        where = f"Source: {action.source.path}:{action.source.start}-{action.source.end}"
        if record.heading:
            where += f", under {record.heading!r}"
        if record.date:
            where += f" ({record.date})"
        about.append(where)
    if record is not None and record.why:
        about.append("Asked: " + "; ".join(f'"{q}"' for q in record.why))
    extra = ("\n".join(about) + "\n\n") if about else ""
    return f"{action.subject}\n\n{quoted}\n\n{extra}{action.body}\n\n{format_trailers(trailers)}\n"


def branch_steps(repo: Repo, plan: DreamPlan, inputs: DreamInputs) -> list[tuple[str, dict[str, bytes | None]]]:
    """The commits of a dream branch, in order: markers shortened (when an earlier memgit wrote long
    ones), one per proposal, then the report with the provenance store and the decisions."""
    steps: list[tuple[str, dict[str, bytes | None]]] = []
    if plan.migrated is not None:
        steps.append(
            (
                f"dream: shorten {len(plan.migrated_records)} entry marker(s)\n\n"
                "Entries written by an earlier memgit carried their provenance in a long marker line; it moves to\n"
                f"{ENTRIES_PATH} and the entry keeps a short marker on its own line.\n\n{TRAILER_ACTION}: migrate\n",
                {"MEMORY.md": plan.migrated.encode("utf-8")},
            )
        )
    for action, state, record in zip(plan.actions, plan.memory_after, plan.action_records(), strict=True):
        steps.append((commit_message(action, record), {"MEMORY.md": state.encode("utf-8")}))
    report_path = f"{DREAM_REPORT_DIR}/{plan.day}.md"
    files: dict[str, bytes | None] = {
        report_path: plan.report.encode("utf-8"),
        concepts_path(plan.day): plan.concepts.encode("utf-8"),
    }
    new_records = [r.to_json() for r in [*plan.migrated_records, *plan.records]]
    if new_records:
        files[ENTRIES_PATH] = append_lines(inputs.store_text, new_records).encode("utf-8")
    by_file: dict[str, list[str]] = {}
    for decision in plan.decisions:
        by_file.setdefault(decisions_path(decision.day), []).append(decision.to_json())
    if by_file:
        existing = commits.read_files(repo, inputs.base_commit, by_file)
        for path, lines in by_file.items():
            files[path] = append_lines((existing.get(path) or b"").decode("utf-8", "replace"), lines).encode("utf-8")
    decided = f", {len(plan.decisions)} review decision(s)" if plan.decisions else ""
    steps.append(
        (
            f"dream: report for {plan.day}\n\n{len(plan.actions)} proposal(s){decided}; see {report_path}\n"
            f"(where its concepts appear: {concepts_path(plan.day)}).\n\n"
            f"{TRAILER_ACTION}: report\n{TRAILER_BASE}: {inputs.base_commit}\n{TRAILER_NOW}: {inputs.now.isoformat()}\n",
            files,
        )
    )
    return steps


def _merged(repo: Repo, branch: DreamBranch, base_commit: str) -> bool:
    """The branch's work is in the base already: merged, squashed or rebased in."""
    if repo.is_ancestor(branch.tip, base_commit):
        return True
    if branch.base is None:
        return False
    changed = commits.changed_between(repo, branch.base, branch.tip)
    if not changed:
        return True
    return commits.read_files(repo, branch.tip, changed) == commits.read_files(repo, base_commit, changed)


def _foreign_line(remote: str, name: str, foreign: list[ChainCommit]) -> str:
    newest = foreign[0]
    subject = newest.message.splitlines()[0] if newest.message.strip() else ""
    more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
    return (
        f"not pushed: {remote}/{name} has {len(foreign)} commit(s) memgit did not write ({newest.id[:10]} "
        f"{subject[:60]!r} by {newest.author}{more}); merge or close its pull request first, and the next "
        "run proposes again"
    )


def _proposal_decisions(branch: DreamBranch, day: str, by: str, reason: str) -> list[Decision]:
    return [
        Decision(p.key, "kept" if p.action == "forget" else "rejected", day, by, p.action, p.text, reason)
        for p in branch.proposals
    ]


def read_dream_branch(repo: Repo, tip: str) -> DreamBranch:
    return read_branch(commits.first_parent_chain(repo, tip))


def run_dream(
    ws: Workspace,
    *,
    now: datetime,
    base: str = "HEAD",
    branch: str | None = None,
    dry_run: bool = False,
    push: str | None = None,
    force: bool = False,
    reject_previous: bool = False,
) -> DreamOutcome:
    """One run. `reject_previous`: the pull request of the branch this run replaces was closed
    without merging, so its proposals are recorded as rejected (the CI says so)."""
    repo = ws.git  # the command's one handle: every git read and write below goes through it
    repo.what = "dreaming"
    try:
        base_commit, _ = repo.resolve_commit(base)
    except NoCommitsYet:
        return DreamOutcome(plan=None, reason="the repository has no commits yet: nothing to dream about")
    except MemgitError:
        raise MemgitError(f"--base {base!r} is not a commit here; give a branch, tag or commit id") from None
    if branch is not None:
        commits.check_branch_name(repo, branch)
    name = branch or f"{ws.config.dream.branch_prefix}{now.date().isoformat()}"
    from memgit.git.remote import check_remote, fetch_branch

    remote_tip = None
    if push:
        check_remote(repo, push)  # before anything is written: a typo must not leave a branch behind
        remote_tip = fetch_branch(repo, push, name)
    outcome = DreamOutcome(plan=None, base=base_commit)
    previous = read_dream_branch(repo, remote_tip) if remote_tip else None
    if previous is not None and previous.foreign and not reject_previous and not _merged(repo, previous, base_commit):
        outcome.reason = _foreign_line(str(push), name, previous.foreign)
        outcome.not_pushed = True
        return outcome
    local_tip = commits.branch_commit(repo, name)
    side_tip = fetch_branch(repo, push, decisions_name(name)) if push else None
    tips = [t for t in (remote_tip, local_tip, side_tip) if t]
    tips += [
        t
        for b in commits.local_branches(repo, ws.config.dream.branch_prefix)
        if (t := commits.branch_commit(repo, b)) is not None
    ]
    new: list[Decision] = []
    if reject_previous:
        closed = previous or (read_dream_branch(repo, local_tip) if local_tip else None)
        if closed is not None:
            new = _proposal_decisions(closed, now.date().isoformat(), "closed", "pull request closed without merging")
    notices: list[str] = []
    inputs = gather(ws, repo, base_commit, now, notices, tips=tuple(tips), new_decisions=tuple(new))
    plan = plan_dream(inputs)
    outcome.plan = plan
    outcome.vectors = dict(inputs.similarity.counts)
    outcome.notices = plan.notices
    fresh = _unrecorded(new, inputs)
    if plan.empty:
        counts = ", ".join(f"{gate}: {n}" for gate, n in plan.gate_counts.items()) or "no recalls in the ledger"
        outcome.reason = f"nothing to promote, supersede or forget ({counts})"
        if not fresh:
            return outcome
        if dry_run:
            return outcome
        # A closed pull request's "no" must outlive its branch: the decisions ride on a side branch
        # that every later run reads (and carries into its own branch), and that opens no pull request.
        side = DreamOutcome(plan=plan, base=base_commit)
        write_branch(repo, plan, inputs, side, name=decisions_name(name), force=True, push=push)
        outcome.decisions_branch, outcome.decisions_pushed = side.branch, side.pushed
        outcome.reason += f"; {len(fresh)} review decision(s) of the closed pull request recorded on {side.branch}"
        return outcome
    if dry_run:
        outcome.reason = "dry run: no branch written"
        return outcome
    write_branch(repo, plan, inputs, outcome, name=name, force=force, push=push)
    return outcome


def decisions_name(branch: str) -> str:
    """The side branch that keeps a closed pull request's rejections when a run has nothing new."""
    return f"{branch}-decisions"


def _unrecorded(new: list[Decision], inputs: DreamInputs) -> list[Decision]:
    """The decisions taken now that the base does not hold yet (so they must be written somewhere)."""
    known = {(d.key, d.verdict) for d in inputs.decisions if d not in new}
    return [d for d in new if (d.key, d.verdict) not in known]


def write_branch(
    repo: Repo,
    plan: DreamPlan,
    inputs: DreamInputs,
    outcome: DreamOutcome,
    *,
    name: str,
    force: bool,
    push: str | None,
) -> None:
    """Write the plan as branch `name` (all or nothing), and push it when asked."""
    commits.refuse_checked_out(repo, name)  # before anything is written, in every worktree
    existing = commits.branch_commit(repo, name)
    if existing is not None and not force:
        raise MemgitError(
            f"branch {name} already exists; delete it (`git branch -D {name}`), pass --branch NAME, or use --force"
        )
    steps = branch_steps(repo, plan, inputs)
    outcome.commits = commits.write_commits(repo, inputs.base_commit, steps, when=inputs.now, identity=IDENTITY)
    commits.set_branch(repo, name, outcome.commits[-1], force=force)
    outcome.branch = name
    if push:
        from memgit.git.remote import push_branch

        try:
            outcome.pushed = push_branch(repo, push, name, force=force)
        except MemgitError as exc:
            # The run is all or nothing: put the branch back as it was, so the same command can be run again.
            if commits.restore_branch(repo, name, outcome.commits[-1], existing):
                kept = "restored" if existing is not None else "removed"
                raise MemgitError(
                    f"{exc}; branch {name} was {kept} locally, so nothing was written: "
                    "run the same `memgit dream` again once the push can succeed"
                ) from None
            raise MemgitError(
                f"{exc}; branch {name} is left written locally: push it with `git push {push} {name}`"
            ) from None
