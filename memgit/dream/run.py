"""A dreaming run's I/O shell: gather the inputs at the base commit, plan, write the branch, push.

Everything is read from the base commit's tree (plus, when the base is HEAD, the recall spool's lines not
published yet), so a run is a function of (base commit, ledger, --now, config): the same inputs give
byte-identical commits. Nothing here touches the work tree, git's index or the checked-out branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core.paths import DREAM_REPORT_DIR, LEDGER_DIR, daily_date, daily_log_path
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
from memgit.dream.concept_map import concepts_path
from memgit.dream.concepts import jaccard
from memgit.dream.ledger import parse_ledger
from memgit.dream.model import Action, DreamInputs, DreamPlan, Similarity
from memgit.dream.plan import plan_dream
from memgit.errors import MemgitError
from memgit.git import commits
from memgit.memory.lint import settings_for
from memgit.memory.recall_spool import ledger_lines, new_lines, read_spool

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

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        plan = self.plan
        data: dict[str, Any] = {
            "base": self.base,
            "branch": self.branch,
            "commits": self.commits,
            "pushed": self.pushed,
            "reason": self.reason,
            "notices": self.notices,
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
    }


def _similarity(ws: Workspace, notices: list[str]) -> Similarity:
    from memgit.index.embedding import open_embedder

    embedder, problem = (None, None)
    if ws.config.embedding.provider != "none":
        embedder, problem = open_embedder(ws, threads=ws.config.embedding.threads)
    if embedder is None:
        notices.append(NO_MODEL_NOTICE + (f" ({problem})" if problem else ""))
        return Similarity("terms", lambda a, b: [[jaccard(x, y) for y in b] for x in a])
    cache: dict[str, Any] = {}

    def vectors(texts: list[str]) -> Any:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            for text, vec in zip(missing, embedder.embed(missing), strict=True):
                cache[text] = vec
        import numpy as np

        return np.stack([cache[t] for t in texts]) if texts else np.zeros((0, embedder.dim), dtype="float32")

    def compare(a: list[str], b: list[str]) -> list[list[float]]:
        if not a or not b:
            return [[] for _ in a]
        return (vectors(a) @ vectors(b).T).round(6).tolist()

    return Similarity("embedding", compare)


def _text(data: bytes | None) -> str | None:
    if data is None:
        return None
    try:
        return decode_memory_text(data)
    except NotText:
        return None


def gather(ws: Workspace, base: str, now: datetime, notices: list[str]) -> DreamInputs:
    root = ws.root
    cfg = ws.config.dream
    memory = _text(commits.read_files(root, base, ["MEMORY.md"])["MEMORY.md"]) or ""
    if memory_doc.has_conflict_markers(memory):
        raise MemgitError(
            f"MEMORY.md at {base[:12]} holds merge conflict markers; resolve the conflict and commit before dreaming"
        )
    # Ledger: every file of the window, from the base tree; when the base is HEAD, plus this clone's
    # spool (lines recorded, not published yet), an exact line already committed counted once.
    days = max(cfg.max_age_days, cfg.forget_unrecalled_days)
    first = (now.date() - timedelta(days=days - 1)).isoformat()
    names = [p for p in commits.list_files(root, base, LEDGER_DIR) if p.endswith(".jsonl")]
    spool = read_spool(ws.data_dir) if commits.resolve_commit(root, "HEAD") == base else {}
    names = sorted(set(names) | set(spool))
    names = [p for p in names if (daily_date(p) or "9999") >= first and (daily_date(p) or "") <= now.date().isoformat()]
    committed = commits.read_files(root, base, names)
    texts: list[tuple[str, str]] = []
    for name in names:
        text = (committed.get(name) or b"").decode("utf-8", errors="replace")
        extra = new_lines(ledger_lines(text), spool.get(name, ()))
        if extra:
            text = text + ("" if not text or text.endswith("\n") else "\n") + "\n".join(extra) + "\n"
        texts.append((name, text))
    ledger = parse_ledger(texts)
    wanted = sorted({r.path for r in ledger.recalls})
    files = {path: _text(data) for path, data in commits.read_files(root, base, wanted).items()}
    recent_paths = [daily_log_path(now.date() - timedelta(days=d)) for d in range(cfg.light_lookback_days)]
    recent = {p: t for p, d in commits.read_files(root, base, recent_paths).items() if (t := _text(d)) is not None}
    if ws.config.memory.sessions:
        # Transcripts of the light window: what was said (user and assistant turns) feeds the themes.
        window = {(now.date() - timedelta(days=d)).isoformat() for d in range(cfg.light_lookback_days)}
        sessions = [p for p in commits.list_files(root, base, "sessions")
                    if p.endswith(".jsonl") and daily_date(p) in window]
        for path, data in commits.read_files(root, base, sessions).items():
            text = _text(data)
            if text is not None:
                recent[path] = "\n".join(line for _, line in transcript_lines(text))
    similarity = _similarity(ws, notices)
    return DreamInputs(
        now=now,
        base_commit=base,
        recalls=ledger.recalls,
        files=files,
        recent_notes=recent,
        memory_text=memory,
        config=cfg,
        similarity=similarity,
        lint=settings_for(ws),
        malformed=ledger.malformed,
        malformed_where=tuple(ledger.malformed_where or ()),
        notices=tuple(notices),
    )


def commit_message(action: Action) -> str:
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
    return f"{action.subject}\n\n{quoted}\n\n{action.body}\n\n{format_trailers(trailers)}\n"


def run_dream(
    ws: Workspace,
    *,
    now: datetime,
    base: str = "HEAD",
    branch: str | None = None,
    dry_run: bool = False,
    push: str | None = None,
    force: bool = False,
) -> DreamOutcome:
    root: Path = ws.root
    base_commit = commits.resolve_commit(root, base)
    if base_commit is None:
        if base == "HEAD" and commits.resolve_commit(root, "HEAD") is None:
            return DreamOutcome(plan=None, reason="the repository has no commits yet: nothing to dream about")
        raise MemgitError(f"--base {base!r} is not a commit here; give a branch, tag or commit id")
    if branch is not None:
        commits.check_branch_name(root, branch)
    if push:
        from memgit.git.remote import check_remote

        check_remote(root, push)  # before anything is written: a typo must not leave a branch behind
    notices: list[str] = []
    inputs = gather(ws, base_commit, now, notices)
    plan = plan_dream(inputs)
    outcome = DreamOutcome(plan=plan, base=base_commit, notices=plan.notices)
    name = branch or f"{ws.config.dream.branch_prefix}{plan.day}"
    if plan.empty:
        counts = ", ".join(f"{gate}: {n}" for gate, n in plan.gate_counts.items()) or "no recalls in the ledger"
        outcome.reason = f"nothing to promote, supersede or forget ({counts})"
        return outcome
    if dry_run:
        outcome.reason = "dry run: no branch written"
        return outcome
    commits.refuse_checked_out(root, name)  # before anything is written, in every worktree
    existing = commits.branch_commit(root, name)
    if existing is not None and not force:
        raise MemgitError(
            f"branch {name} already exists; delete it (`git branch -D {name}`), pass --branch NAME, or use --force"
        )
    steps: list[tuple[str, dict[str, bytes | None]]] = [
        (commit_message(action), {"MEMORY.md": state.encode("utf-8")})
        for action, state in zip(plan.actions, plan.memory_after, strict=True)
    ]
    report_path = f"{DREAM_REPORT_DIR}/{plan.day}.md"
    steps.append(
        (
            f"dream: report for {plan.day}\n\n{len(plan.actions)} proposal(s); see {report_path}\n"
            f"(where its concepts appear: {concepts_path(plan.day)}).\n\n"
            f"{TRAILER_ACTION}: report\n",
            {report_path: plan.report.encode("utf-8"), concepts_path(plan.day): plan.concepts.encode("utf-8")},
        )
    )
    outcome.commits = commits.write_commits(root, base_commit, steps, when=now, identity=IDENTITY)
    commits.set_branch(root, name, outcome.commits[-1], force=force)
    outcome.branch = name
    if push:
        from memgit.git.remote import push_branch

        try:
            outcome.pushed = push_branch(root, push, name, force=force)
        except MemgitError as exc:
            # The run is all or nothing: put the branch back as it was, so the same command can be run again.
            if commits.restore_branch(root, name, outcome.commits[-1], existing):
                kept = "restored" if existing is not None else "removed"
                raise MemgitError(
                    f"{exc}; branch {name} was {kept} locally, so nothing was written: "
                    "run the same `memgit dream` again once the push can succeed"
                ) from None
            raise MemgitError(
                f"{exc}; branch {name} is left written locally: push it with `git push {push} {name}`"
            ) from None
    return outcome
