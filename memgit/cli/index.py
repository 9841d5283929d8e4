"""The index commands: init, index, search, get, status, doctor."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memgit.cli.output import (
    FiniteRange,
    Progress,
    emit,
    notice,
    skip_teardown,
    utf8_argument,
    warn,
    workspace_from,
)


@click.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--hooks", "with_hooks", is_flag=True, help="Also install the plain git hooks.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.pass_context
def init(ctx: click.Context, directory: Path | None, with_hooks: bool, as_json: bool) -> None:
    """Make (or adopt) a git repository as a memory workspace."""
    from memgit.memory.init import init_workspace

    target = directory if directory is not None else ctx.obj["cwd"]
    if not target.is_absolute():
        target = ctx.obj["cwd"] / target
    # Like `git init` and `git -C DIR init`: a named directory gets its own repository.
    explicit = directory is not None or ctx.obj.get("cwd_given", False)
    report = init_workspace(target, explicit=explicit)
    if with_hooks:
        from memgit.githooks.install import install_hooks
        from memgit.workspace import Workspace

        report["hooks"] = list(install_hooks(Workspace.discover(Path(report["root"]))).installed)
    if as_json:
        emit(report)
        return
    verb = "Adopted" if report["adopted"] else "Created"
    click.echo(f"{verb} memory workspace at {report['root']}")
    for path in report["created"]:
        click.echo(f"  created {path}")
    if report.get("hooks"):
        click.echo(f"  installed hooks: {', '.join(report['hooks'])}")
    click.echo("Next: add notes under memory/, commit, then `memgit index` and `memgit search QUERY`.")


@click.command()
@click.option("--full", is_flag=True, help="Rebuild from scratch (the embedding cache is kept).")
@click.option("--verify", is_flag=True, help="Check that the index equals a full rebuild; exit 1 if not.")
@click.option("--worktree", is_flag=True, help="Also index uncommitted edits to memory files.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on success.")
@click.option(
    "--wait",
    type=FiniteRange(0, 86_400),
    default=30.0,
    show_default=True,
    help="Seconds to wait for another run holding the index lock (0: fail at once).",
)
@click.pass_context
def index(
    ctx: click.Context, full: bool, verify: bool, worktree: bool, as_json: bool, quiet: bool, wait: float
) -> None:
    """Bring the index up to HEAD by a tree-to-tree diff (cost follows the diff)."""
    from memgit.index.update import update_index

    ws = workspace_from(ctx)
    # Once the index is written and closed, freeing every module at exit is ~10 ms of nothing:
    # a sixth of a one-file update's own cost (docs/PERFORMANCE.md).
    skip_teardown()
    progress = Progress("embedding")
    try:
        report = update_index(ws, full=full, worktree=worktree, progress=progress, lock_timeout=wait)
    except KeyboardInterrupt:
        progress.finish()
        # Embeddings are committed to the cache batch by batch: a new run starts where this stopped.
        kept = f"{progress.done} of {progress.total} new embeddings are kept; " if progress.total else ""
        click.echo(f"memgit: interrupted: {kept}run `memgit index` again to resume", err=True)
        sys.exit(130)
    finally:
        progress.finish()
    if report.mode == "full":
        from memgit.recall.search import keep_word_cache

        report.word_cache = keep_word_cache(ws, report.chunks)
    verification = None
    if verify:
        from memgit.index.verify import verify_index

        checking = Progress("verify: embedding again")  # every cached vector: the slow half
        try:
            verification = verify_index(ws, progress=checking)
        finally:
            checking.finish()
    if as_json:
        data = report.to_dict()
        if verification is not None:
            data["verify"] = verification.to_dict()
        emit(data)
    else:
        for message in report.notices:
            notice(message)
        if report.reason and report.mode == "full" and not full:
            notice(f"full rebuild: {report.reason}")
        for skipped in report.skipped:
            warn(f"skipped {skipped['path']}: {skipped['reason']}")
        if not quiet:
            tree = (report.tree or "")[:12]
            if report.mode == "noop":
                click.echo(f"index up to date (tree {tree})")
            else:
                click.echo(
                    f"{report.mode} index of tree {tree}: {report.files_indexed} files indexed, "
                    f"{report.files_removed} removed, {report.chunks} chunks, {report.embedded} embedded "
                    f"({report.embeddings_cached} from cache) in {report.seconds:.2f}s"
                )
        if verification is not None:
            if verification.ok:
                if not quiet:
                    click.echo("verify: the index equals a full rebuild")
                oracle = verification.oracle
                if oracle and not quiet:
                    click.echo(
                        f"verify: the vector search ({oracle['path']} path) returned {oracle['agreement']:.0%} of "
                        f"sqlite-vec's exact top {oracle['k']} over {oracle['queries']} sample queries "
                        f"(worst {oracle['worst']:.0%})"
                    )
            else:
                for line in verification.differences:
                    click.echo(f"verify: {line}", err=True)
    if verification is not None and not verification.ok:
        from memgit.errors import MemgitError

        raise MemgitError("verify failed: the incremental index differs from a full rebuild; run `memgit index --full`")


def _search_options(func: Any) -> Any:
    for decorator in reversed(
        [
            click.option("-k", "k", type=int, default=None, help="Number of hits (default from config: 6)."),
            click.option(
                "--mode", type=click.Choice(["hybrid", "bm25", "vector"]), default="hybrid", show_default=True
            ),
            click.option("--path", "path_glob", multiple=True, help="Only files matching this glob (repeatable)."),
            click.option("--since", default=None, help="Only daily logs dated on or after YYYY-MM-DD."),
            click.option("--until", default=None, help="Only daily logs dated on or before YYYY-MM-DD."),
            click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
        ]
    ):
        func = decorator(func)
    return func


@click.command()
@click.argument("query", required=False)
@_search_options
@click.option(
    "--batch",
    type=click.File("rb"),
    default=None,
    help="Read one query a line from FILE ('-' for stdin); print one JSON object a line.",
)
@click.option("--no-record", is_flag=True, help="Do not add the hits to the recall ledger (dreaming's evidence).")
@click.option("--now", "now_text", default=None, help="Record the hits as of this ISO time (default: MEMGIT_NOW or now).")
@click.pass_context
def search(
    ctx: click.Context,
    query: str | None,
    k: int | None,
    mode: str,
    path_glob: tuple[str, ...],
    since: str | None,
    until: str | None,
    as_json: bool,
    batch: Any,
    no_record: bool,
    now_text: str | None,
) -> None:
    """Search memory: BM25 and vectors merged; every hit names path:lines@commit.

    The hits are recorded in this clone's recall spool (.git/memgit/recall/; never the work tree),
    the evidence dreaming promotes from, unless --no-record, `[dream] record = false` or
    MEMGIT_NO_RECALL=1. `memgit recalls publish` commits them to memory/.dreams/recall/.
    """
    from memgit.errors import MemgitError

    if (query is None) == (batch is None):
        raise MemgitError("give a QUERY or --batch FILE (one of the two)")
    if query is not None:
        query = utf8_argument(query, "the query")
    ws = workspace_from(ctx)
    early: dict[str, Any] = {}
    if mode != "bm25":
        from memgit.index.embedding import EmbedderLoad

        early["embedder"] = EmbedderLoad(ws, threads=1)  # first: the model loads while the rest imports
    if query is not None and mode != "vector" and not (path_glob or since or until):
        from memgit.recall.bm25_query import BM25Prefetch

        early["bm25_prefetch"] = BM25Prefetch(ws, query, k)  # and a large index's BM25 query starts
    from memgit.ledger.recording import Recorder
    from memgit.recall.search import Searcher

    # A batch amortises reading the vectors into memory (in-memory products are ~2x faster than
    # over the memory-mapped file); a single query is faster straight from the map.
    try:
        recorder = Recorder(ws, no_record=no_record, now=now_text)
        searcher = Searcher(ws, preload_vectors=batch is not None, keep_term_scores=batch is not None, **early)
    except BaseException:
        for started in early.values():  # never leave llama.cpp or SQLite working while Python exits
            started.close()
        raise
    options = {"k": k, "mode": mode, "path_glob": list(path_glob), "since": since, "until": until}
    try:
        if batch is not None:
            for text in batch_queries(batch):
                emit(recorder.record(searcher.search(text, **options)).to_dict())
            return
        assert query is not None
        result = recorder.record(searcher.search(query, **options))
    finally:
        searcher.close()
        if recorder.problem:
            warn(recorder.problem)
    skip_teardown()  # everything is closed; what is left to print needs no model
    if as_json:
        emit(result.to_dict())
        return
    for message in result.notices:
        notice(message)
    if not result.hits:
        click.echo("no hits")
        return
    from memgit.core.paths import display_path, path_from_key

    for hit in result.hits:
        where = f"{display_path(path_from_key(hit.path))}:{hit.start_line}-{hit.end_line}"
        origin = f"@{hit.commit[:10]}" if hit.commit else "(uncommitted)"
        click.secho(f"{where}  {origin}  score {hit.score:.3f}", bold=True)
        for line in hit.text.splitlines()[:8]:
            click.echo(f"    {line}")


def batch_queries(lines: Any) -> Any:
    """The non-blank lines of a --batch file (bytes), one query each; a line that is not UTF-8
    stops the batch there, naming it (the queries before it are answered)."""
    from memgit.errors import MemgitError

    for number, raw in enumerate(lines, 1):
        try:
            text = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            raise MemgitError(f"--batch: line {number} is not valid UTF-8; memgit reads UTF-8 text only") from None
        if text.strip():
            yield text


@click.command()
@click.argument("spec")
@click.option("--lines", "max_lines", type=click.IntRange(1, 100_000), default=120, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def get(ctx: click.Context, spec: str, max_lines: int, as_json: bool) -> None:
    """Print a memory file, or lines of it: PATH[:START[-END]]."""
    from memgit.recall.get import parse_spec, read_memory

    ws = workspace_from(ctx)
    path, start, end = parse_spec(spec)
    result = read_memory(ws, path, start, end, max_lines=max_lines)
    if result.path == "MEMORY.md":
        from memgit.ledger.uses import read_text, record_use

        # forgetting counts a read as a use of the entries it showed
        record_use(ws, "get", result.path, result.start_line, result.end_line, text=read_text(ws, result.path))
    if as_json:
        emit(result.to_dict())
        return
    click.echo(result.text)
    if result.hint:
        click.echo(f"memgit: {result.hint}", err=True)


@click.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """How the index compares with HEAD."""
    from memgit.index.status import index_status
    from memgit.ledger.spool import pending_count
    from memgit.memory.conflicts import conflict_advice, memory_conflicts

    ws = workspace_from(ctx)
    data = index_status(ws)
    data["recall_pending"] = pending_count(ws.data_dir)
    data["conflicts"] = memory_conflicts(ws)
    if as_json:
        emit(data)
        return
    for path in data["conflicts"]:
        click.echo(f"conflict:     {conflict_advice(path)}")
    click.echo(f"workspace:    {data['workspace']}")
    click.echo(f"HEAD tree:    {data['head_tree']}  (commit {data['head_commit'] or 'none yet'})")
    click.echo(f"indexed tree: {data['indexed_tree'] or 'none'}")
    if data["needs_full_rebuild"]:
        click.echo(f"state:        {data['needs_full_rebuild']}")
    elif data["up_to_date"]:
        click.echo("state:        up to date")
    elif data["indexed_tree"] and not data["pending"] and not data["worktree_overlay"]:
        # The hooks skip commits that touch no memory file; the index answers for HEAD's memory.
        click.echo("state:        up to date for memory (later commits changed no memory file)")
    else:
        click.echo(f"state:        {len(data['pending'])} memory files changed since indexing; run `memgit index`")
    for path in data["pending"][:20]:
        click.echo(f"  pending {path}")
    counts = data["counts"]
    if counts:
        click.echo(
            f"contents:     {counts['files']} files, {counts['chunks']} chunks, {counts['vectors']} vectors "
            f"(model {data['model_id'] or 'none: BM25 only'})"
        )
    if data.get("pending_vectors"):
        click.echo(
            f"vectors:      {data['pending_vectors']} pending (indexed where the model could not load); "
            "`memgit index` with the model fills them"
        )
    if data["recall_pending"]:
        click.echo(
            f"recalls:      {data['recall_pending']} recall line(s) not published; "
            "`memgit recalls publish` (or `remember --commit`) commits them for dreaming in CI"
        )
    if data.get("error"):
        click.echo(f"error:        {data['error']}")
    for item in data["skipped"]:
        click.echo(f"  skipped {item['path']}: {item['reason']}")


@click.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check SQLite, FTS5, sqlite-vec, the model and the index; say how to fix what is broken."""
    from memgit.index.doctor import checks_to_dict, run_checks

    checks = run_checks(ctx.obj["cwd"])
    data = checks_to_dict(checks)
    if as_json:
        emit(data)
    else:
        for check in checks:
            mark = {"ok": "ok  ", "warn": "warn", "error": "FAIL"}[check.status]
            click.echo(f"[{mark}] {check.name}: {check.detail}")
            if check.fix and check.status != "ok":
                click.echo(f"       fix: {check.fix}")
    if not data["ok"]:
        ctx.exit(1)
