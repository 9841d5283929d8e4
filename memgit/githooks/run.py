"""`run_hook`, the code every git hook runs (plain hooks and the pre-commit framework alike).

Two ways in, one behaviour. Plain git hooks (`memgit hooks install`) and the pre-commit framework
(`.pre-commit-hooks.yaml`) both end in `run_hook(name, args)`:

* `pre-commit` (framework id `memgit-lint`) lints the staged memory files and is the only hook
  that may stop a git operation.
* `post-commit`, `post-merge`, `post-checkout`, `post-rewrite` (framework id `memgit-index`, name
  `index`) bring the index from whatever tree it last indexed to HEAD's tree. They never fail:
  any problem becomes one warning line and exit 0, and because the update always starts from the
  tree actually indexed, a hook that was missed (a merge stopped on conflicts, a rebase) heals on
  the next one.

Hooks run on every commit, so this module imports nothing heavy at import time. "Anything to do?"
is answered once. The installed shell hook answers it without Python and hands its answer over
(`fastpath.shell_decision`: the indexed tree, HEAD's commit and git's raw diff between them), which
the update applies as it is. Under the pre-commit framework this module answers it the same way:
one `git rev-parse`, the marker (`index.layout.read_marker_in`, the one reader), and when the trees
differ one `git diff-tree`, which stops a code commit here and is otherwise handed to the update.

Installing, uninstalling and reporting on the scripts is `memgit.githooks.install`.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from memgit.git import repo, trees
from memgit.githooks.fastpath import SHELL_DECISION_ENV, is_work_tree_top, paths_may_be_memory, shell_decision
from memgit.githooks.types import HOOK_TYPES, LINT_HOOK
from memgit.index.layout import read_marker_in

#: A diff as the update applies it: path -> what the new tree holds there (None: nothing).
Diff = dict[str, trees.Entry | None]

# `index` and `lint` are the names the pre-commit framework's entries use (it does not tell a
# hook which stage it runs in, so the index entry works out the rest from PRE_COMMIT_* variables).
HOOK_NAMES = (*HOOK_TYPES, "index", "lint")
SKIP_ENV = "MEMGIT_SKIP_HOOKS"
# How long a hook waits for the index lock and embeds: `Policy.HOOK` (memgit/index/freshen.py), with
# MEMGIT_HOOK_LOCK_TIMEOUT and MEMGIT_HOOK_EMBED_SECONDS overriding.
EMPTY_TREE = trees.EMPTY_TREE


# -- running a hook ------------------------------------------------------------------------------
def run_hook(
    name: str,
    args: Sequence[str] = (),
    *,
    cwd: Path | None = None,
    err: TextIO | None = None,
) -> int:
    """What every memgit hook does. Returns the exit code: non-zero only for lint findings."""
    err = err or sys.stderr
    if os.environ.get(SKIP_ENV) == "1":
        return 0
    if name in (LINT_HOOK, "lint"):
        return _run_lint_hook(args, cwd=cwd, err=err)
    try:
        if name not in HOOK_NAMES:
            raise ValueError(f"unknown hook {name!r} (known: {', '.join(HOOK_NAMES)})")
        message = _run_index_hook(name, args, cwd=cwd or Path.cwd())
    except KeyboardInterrupt:
        message = _not_updated("interrupted")
    except Exception as exc:  # a hook must never fail a git operation; the next one heals
        message = _not_updated(_describe(exc))
    if message:
        print(f"memgit: warning: {name} hook: {message}", file=err)
    return 0


def _not_updated(why: str) -> str:
    return f"the index was not updated ({why}); the next hook or `memgit index` catches up"


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:299] + "…"


def _run_index_hook(name: str, args: Sequence[str], *, cwd: Path) -> str | None:
    """Bring the index to HEAD; returns a warning to print, or None when all went well.

    "Anything to do?" is decided once: by the shell hook, which hands its decision over (and its
    diff, which the update applies as it is), or here, for the pre-commit framework's entry."""
    handed = os.environ.pop(SHELL_DECISION_ENV, None)
    if handed:
        diff = shell_decision(handed)
    else:
        due, diff = _decide(name, args, cwd)
        if not due:
            return None

    repo.leave_hook_location()
    from memgit.index.freshen import Policy, freshen
    from memgit.index.plan import KnownDiff  # the update's modules: pygit2, SQLite, numpy
    from memgit.workspace import Workspace

    ws = Workspace.discover(cwd)
    if ws.config.broken:
        return f"{ws.config.broken}; the index was not updated: fix memgit.toml, then run `memgit index`"
    # A hook never rebuilds an existing index (it may run in another environment, and a
    # rebuild is minutes of work inside `git commit`): it says in one line that one is due.
    # Vectors an earlier hook left pending (run where the model is not installed, as under the
    # pre-commit framework's own environment) are filled here when this one has the model, a
    # bounded number per commit; searches and the MCP server fill the rest.
    known = None if diff is None else KnownDiff(*diff)
    started = time.monotonic()
    report = freshen(ws, Policy.HOOK, known=known)
    took = time.monotonic() - started
    fill = bool(report.pending_vectors and report.model_id)
    started_pid = start_background_work(ws, fill=fill, scan=report.chunks >= SCAN_AFTER_CHUNKS)
    filler = started_pid if fill else None
    # A few vectors of a small commit left to the background fill are not worth a line in git's
    # output; many paths (a checkout far back, a large merge) are, when slow or deferred.
    if report.changed_paths >= SAY_PATHS and (report.deferred or took > SAY_AFTER_SECONDS):
        return _deferred_line(report, took, filler)
    return _notice_worth_a_line(report.mode, report.notices)


def _decide(name: str, args: Sequence[str], cwd: Path) -> tuple[bool, tuple[str, str, Diff] | None]:
    """The shell hook's decision, made in Python (the pre-commit framework's `memgit hook index`):
    whether the index must move, and the diff that says so (None: the update reads it). Hook
    arguments first, then one `git rev-parse`, the marker and, when the trees differ, one
    `git diff-tree`, whose entries the update applies."""
    if name == "index":
        name = framework_stage(os.environ)
    if not _needs_update(name, args):
        return False, None
    probe = repo.probe_head(cwd)
    if probe is None:
        return False, None  # not a git work tree (e.g. a bare repository): nothing memgit can index
    git_dir, head_tree = probe
    if name == "post-commit" and _rebase_in_progress(git_dir):
        return False, None  # each picked commit would re-index; post-rewrite runs when the rebase ends
    indexed = read_marker_in(git_dir / "memgit")[0]
    if indexed == head_tree:
        return False, None
    diff = None if indexed is None else _memory_diff(cwd, indexed, head_tree)
    if diff == {}:
        return False, None
    return True, None if diff is None else (indexed or "", head_tree, diff)


#: A hook that takes longer than this over many paths (a checkout far back, a large merge) says
#: what it did, in one line (git is waiting on it); a one-note commit slowed by a busy machine
#: says nothing.
SAY_AFTER_SECONDS = 2.0
SAY_PATHS = 64
BACKGROUND_ENV = "MEMGIT_BACKGROUND_FILL"


def _deferred_line(report: Any, took: float, filler: int | None) -> str:
    """The one line of a hook that wrote text for many paths or left vectors for later."""
    text = f"indexed the text of {report.changed_paths} changed paths in {took:.1f}s"
    if not report.pending_vectors:
        return text
    later = (
        f"a background fill (pid {filler}) embeds them now, a batch at a time; searches use each batch as it lands"
        if filler is not None
        else "searches rank those chunks by BM25 until `memgit index` embeds them"
    )
    return f"{text}; {report.pending_vectors} chunk vectors are pending (embedding them would hold up git): {later}"


#: A commit that adds this many chunks (a captured session, an import of notes) has its new text
#: scanned for secrets in the background: else the next command that prints or copies memory (the
#: agent host's SessionStart, the session's next capture) scans it while its user waits. 30 chunks
#: of a captured session are ~300 short turns, 30 KB, ~0.5 s of scanning; 1,500 long turns ~5 s.
SCAN_AFTER_CHUNKS = 30


def start_background_work(ws: Any, *, fill: bool, scan: bool = False) -> int | None:
    """Start `memgit index --fill-in-background` detached (its own session, no terminal), at a
    lower priority, when there is work for it; returns its pid, or None when none was started.
    Its work: the vectors left pending (`fill`), when this environment can load the model (the
    pre-commit framework's own virtualenv cannot: no llama extra), and a first scan of the memory
    files for secrets when this clone has none under this version (`memgit.lint.known.warmed`),
    which the first command that prints memory would otherwise make its user wait for, or when
    `scan` asks for the new text of a large commit to be scanned.
    `MEMGIT_BACKGROUND_FILL=0` turns it off. Its scan and its fill each take a lock and are
    skipped at once when another background run holds it."""
    import importlib.util
    import subprocess

    from memgit.lint.known import warmed

    if os.environ.get(BACKGROUND_ENV, "1") == "0":
        return None
    embedding_off = os.environ.get("MEMGIT_EMBEDDING", "").strip().lower() == "none"
    can_fill = fill and not embedding_off and importlib.util.find_spec("llama_cpp") is not None
    if not can_fill and not scan and warmed(ws):
        return None
    log = ws.data_dir / "fill.log"
    try:
        with open(log, "ab") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "memgit", "-C", str(ws.root), "index", "--fill-in-background"],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                start_new_session=True,
                close_fds=True,
            )
    except OSError:
        return None
    return proc.pid


def _memory_diff(cwd: Path, indexed: str, head_tree: str) -> Diff | None:
    """The diff from the indexed tree to HEAD's, emptied when only files that cannot be memory
    differ (a code commit, a checkout of a branch that differs in code: the index still answers
    for HEAD's memory, as the shell hook decides). One `git diff-tree`; any doubt (a git failure,
    not the work tree's top) gives None and the update reads the diff itself."""
    if not is_work_tree_top(cwd):
        return None
    try:
        changed = repo.Repo(cwd).diff_entries(indexed, head_tree)
    except Exception:
        return None
    return changed if paths_may_be_memory(changed, cwd) else {}


def _notice_worth_a_line(mode: str, notices: Sequence[str]) -> str | None:
    """A degraded index (no model) is said once, when the index is (re)built, not on every commit.

    BM25-only by choice (`MEMGIT_EMBEDDING=none`, provider "none") is not worth a line at all;
    `memgit doctor` tells the rest.
    """
    if mode == "due":
        return next((n for n in notices if "rebuild of the index is due" in n), None)
    if mode != "full":
        return None
    for notice in notices:
        if notice and "MEMGIT_EMBEDDING=none" not in notice and "provider is 'none'" not in notice:
            return f"{notice} (the index was built without vectors)"
    return None


def framework_stage(env: Mapping[str, str]) -> str:
    """Which git hook the pre-commit framework is running, from the variables it exports.

    The framework does not name the stage, but each stage it runs `memgit-index` in exports a
    different variable; post-commit exports none of them.
    """
    if "PRE_COMMIT_CHECKOUT_TYPE" in env:
        return "post-checkout"
    if "PRE_COMMIT_REWRITE_COMMAND" in env:
        return "post-rewrite"
    if "PRE_COMMIT_IS_SQUASH_MERGE" in env:
        return "post-merge"
    return "post-commit"


def _needs_update(name: str, args: Sequence[str]) -> bool:
    """Hook arguments that say HEAD did not move: a file checkout, a squash merge.

    The tree comparison would say so as well; these flags let the hook skip even the git call.
    """
    if name == "post-checkout":
        flag = args[2] if len(args) >= 3 else os.environ.get("PRE_COMMIT_CHECKOUT_TYPE")
        return flag != "0"
    if name == "post-merge":
        flag = args[0] if args else os.environ.get("PRE_COMMIT_IS_SQUASH_MERGE")
        return flag != "1"
    return True


def _rebase_in_progress(git_dir: Path) -> bool:
    return (git_dir / "rebase-merge").is_dir() or (git_dir / "rebase-apply").is_dir()


def _run_lint_hook(args: Sequence[str], *, cwd: Path | None, err: TextIO) -> int:
    """Lint what is staged; findings block the commit with a message saying how to proceed."""
    from memgit.errors import MemgitError
    from memgit.lint.files import lint_workspace
    from memgit.lint.rules import summarize
    from memgit.workspace import Workspace

    here = cwd or Path.cwd()
    try:
        ws = Workspace.discover(here)
        report = lint_workspace(ws, list(args), staged=True, cwd=here)
    except MemgitError as exc:
        print(f"memgit: error: lint could not run: {exc}", file=err)
        print(f"memgit: fix the problem above, or skip the check once with {SKIP_ENV}=1 git commit ...", file=err)
        return 1
    for finding in report.findings:
        print(finding.format(), file=err)
    if report.errors:
        print(
            f"memgit lint: {summarize(report.findings)}: commit blocked. Fix the lines above, or add "
            "`memgit: allow CODE` to a line that is fine (see docs/HOOKS.md).",
            file=err,
        )
        return 1
    return 0


def end_process(code: int) -> None:
    """End a hook process with `code`, skipping the interpreter's teardown when nothing else
    runs: after an index update, freeing every module cost ~10 ms of each commit's hook."""
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m memgit hook NAME [ARGS]` without click: the hook's whole startup budget is ~100 ms.

    `memgit/__main__.py` may route `hook` here before importing the CLI; `memgit hook` through click
    (`cli_hooks.hook_command`) does the same thing, with `--help`.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print("usage: memgit hook NAME [ARGS]...  (NAME: " + ", ".join(HOOK_NAMES) + ")", file=sys.stderr)
        return 0 if args else 2
    name, rest = args[0], args[1:]
    return run_hook(name, rest)
