"""The `memgit` command: parse, call one service, print text or `--json`. No logic lives here.

Imports of services happen inside commands so that `memgit hook` (run by git on every commit)
starts in a few tens of milliseconds.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from memgit import __version__


class Progress:
    """A minimal progress bar on stderr when it is a terminal; silent otherwise."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty() and not os.environ.get("MEMGIT_NO_PROGRESS")
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        width = 30
        filled = int(width * done / total)
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(f"\r{self.label} [{bar}] {done}/{total}")
        sys.stderr.flush()
        self._drawn = True
        if done >= total:
            self.finish()

    def finish(self) -> None:
        if self._drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self._drawn = False


def emit(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=None))


def notice(message: str) -> None:
    click.echo(f"memgit: notice: {message}", err=True)


def warn(message: str) -> None:
    click.echo(f"memgit: warning: {message}", err=True)


def workspace_from(ctx: click.Context) -> Any:
    from memgit.workspace import Workspace

    return Workspace.discover(ctx.obj["cwd"])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="memgit")
@click.option(
    "-C",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Run as if memgit was started in this directory.",
)
@click.pass_context
def cli(ctx: click.Context, directory: Path | None) -> None:
    """memgit: git-native memory for AI agents (index, search, hooks, MCP)."""
    ctx.ensure_object(dict)
    cwd = directory or Path.cwd()
    if directory is not None and not directory.is_dir():
        raise click.BadParameter(f"{directory} is not a directory", param_hint="-C")
    ctx.obj["cwd"] = cwd
    ctx.obj["cwd_given"] = directory is not None


@cli.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--hooks", "with_hooks", is_flag=True, help="Also install the plain git hooks.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.pass_context
def init(ctx: click.Context, directory: Path | None, with_hooks: bool, as_json: bool) -> None:
    """Make (or adopt) a git repository as a memory workspace."""
    from memgit.init import init_workspace

    target = directory if directory is not None else ctx.obj["cwd"]
    if not target.is_absolute():
        target = ctx.obj["cwd"] / target
    # Like `git init` and `git -C DIR init`: a named directory gets its own repository.
    explicit = directory is not None or ctx.obj.get("cwd_given", False)
    report = init_workspace(target, hooks=with_hooks, explicit=explicit)
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


@cli.command()
@click.option("--full", is_flag=True, help="Rebuild from scratch (the embedding cache is kept).")
@click.option("--verify", is_flag=True, help="Check that the index equals a full rebuild; exit 1 if not.")
@click.option("--worktree", is_flag=True, help="Also index uncommitted edits to memory files.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on success.")
@click.option(
    "--wait",
    type=click.FloatRange(0),
    default=30.0,
    show_default=True,
    help="Seconds to wait for another run holding the index lock (0: fail at once).",
)
@click.pass_context
def index(
    ctx: click.Context, full: bool, verify: bool, worktree: bool, as_json: bool, quiet: bool, wait: float
) -> None:
    """Bring the index up to HEAD by a tree-to-tree diff (cost follows the diff)."""
    from memgit.indexer import update_index, verify_index

    ws = workspace_from(ctx)
    progress = Progress("embedding")
    try:
        report = update_index(ws, full=full, worktree=worktree, progress=progress, lock_timeout=wait)
    finally:
        progress.finish()
    verification = verify_index(ws) if verify else None
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


@cli.command()
@click.argument("query", required=False)
@_search_options
@click.option(
    "--batch",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help="Read one query a line from FILE ('-' for stdin); print one JSON object a line.",
)
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
) -> None:
    """Search memory: BM25 and vectors merged; every hit names path:lines@commit."""
    from memgit.errors import MemgitError
    from memgit.search import Searcher

    if (query is None) == (batch is None):
        raise MemgitError("give a QUERY or --batch FILE (one of the two)")
    ws = workspace_from(ctx)
    # A batch amortises reading the vectors into memory (in-memory products are ~2x faster than
    # over the memory-mapped file); a single query is faster straight from the map.
    searcher = Searcher(ws, preload_vectors=batch is not None)
    options = {"k": k, "mode": mode, "path_glob": list(path_glob), "since": since, "until": until}
    try:
        if batch is not None:
            for line in batch:
                text = line.rstrip("\n")
                if not text.strip():
                    continue
                emit(searcher.search(text, **options).to_dict())
            return
        assert query is not None
        result = searcher.search(query, **options)
    finally:
        searcher.close()
    if as_json:
        emit(result.to_dict())
        return
    for message in result.notices:
        notice(message)
    if not result.hits:
        click.echo("no hits")
        return
    for hit in result.hits:
        where = f"{hit.path}:{hit.start_line}-{hit.end_line}"
        origin = f"@{hit.commit[:10]}" if hit.commit else "(uncommitted)"
        click.secho(f"{where}  {origin}  score {hit.score:.3f}", bold=True)
        for line in hit.text.splitlines()[:8]:
            click.echo(f"    {line}")


@cli.command()
@click.argument("spec")
@click.option("--lines", "max_lines", type=click.IntRange(1, 100_000), default=120, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def get(ctx: click.Context, spec: str, max_lines: int, as_json: bool) -> None:
    """Print a memory file, or lines of it: PATH[:START[-END]]."""
    from memgit.reader import parse_spec, read_memory

    ws = workspace_from(ctx)
    path, start, end = parse_spec(spec)
    result = read_memory(ws, path, start, end, max_lines=max_lines)
    if as_json:
        emit(result.to_dict())
        return
    click.echo(result.text)
    if result.hint:
        click.echo(f"memgit: {result.hint}", err=True)


@cli.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """How the index compares with HEAD."""
    from memgit.indexer import index_status

    ws = workspace_from(ctx)
    data = index_status(ws)
    if as_json:
        emit(data)
        return
    click.echo(f"workspace:    {data['workspace']}")
    click.echo(f"HEAD tree:    {data['head_tree']}  (commit {data['head_commit'] or 'none yet'})")
    click.echo(f"indexed tree: {data['indexed_tree'] or 'none'}")
    if data["needs_full_rebuild"]:
        click.echo(f"state:        {data['needs_full_rebuild']}")
    elif data["up_to_date"]:
        click.echo("state:        up to date")
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
    for item in data["skipped"]:
        click.echo(f"  skipped {item['path']}: {item['reason']}")


@cli.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check SQLite, FTS5, sqlite-vec, the model and the index; say how to fix what is broken."""
    from memgit.doctor import checks_to_dict, run_checks

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


def _register_optional() -> None:
    """Commands that live in their own modules (one capability each)."""
    import importlib

    for module_name, names in (
        ("memgit.cli_model", ("model_group",)),
        ("memgit.cli_hooks", ("lint_command", "hooks_group", "hook_command")),
        ("memgit.cli_agent", ("mcp_command", "context_command", "remember_command", "log_command")),
    ):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        for name in names:
            command = getattr(module, name, None)
            if command is not None:
                cli.add_command(command)


_register_optional()


def main(argv: list[str] | None = None) -> None:
    """Entry point: every failure becomes one `memgit: error: ...` line and a non-zero exit."""
    from memgit.errors import ConfigError, MemgitError

    try:
        result = cli.main(args=argv, prog_name="memgit", standalone_mode=False)
    except ConfigError as exc:
        for problem in exc.problems:
            click.echo(f"memgit: error: {problem}", err=True)
        sys.exit(1)
    except MemgitError as exc:
        click.echo(f"memgit: error: {exc}", err=True)
        sys.exit(1)
    except click.exceptions.Abort:
        click.echo("memgit: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("memgit: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"memgit: error: {exc.format_message()}", err=True)
        if isinstance(exc, click.UsageError) and exc.ctx is not None:
            click.echo(f"Try '{exc.ctx.command_path} --help' for help.", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:
        if os.environ.get("MEMGIT_DEBUG"):
            raise
        click.echo(
            f"memgit: error: internal error: {type(exc).__name__}: {exc} (set MEMGIT_DEBUG=1 for a traceback)",
            err=True,
        )
        sys.exit(1)
    if isinstance(result, int) and result:
        sys.exit(result)
