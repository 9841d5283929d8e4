"""`memgit init`: make (or adopt) a git repository as a memory workspace."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from memgit.cli.options import flag, options
from memgit.cli.output import emit, notice, say_config_problems


@dataclass(frozen=True)
class InitOptions:
    """The options of `memgit init` (its DIRECTORY stays an argument)."""

    with_hooks: bool = flag("--hooks", help="Also install the plain git hooks.")
    adopt: bool = flag(
        "--adopt",
        help="Index the Markdown already in the repository: write [memory] extra_paths globs for it (leaving out "
        "vendored and generated folders), show what will be indexed and how long embedding takes, then index it.",
    )
    as_json: bool = flag("--json", help="Print a JSON report.")


@click.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@options(InitOptions)
@click.pass_context
def init(ctx: click.Context, directory: Path | None, opts: InitOptions) -> None:
    """Make (or adopt) a git repository as a memory workspace."""
    from memgit.memory.init import init_workspace
    from memgit.workspace import Workspace

    target = directory if directory is not None else ctx.obj["cwd"]
    if not target.is_absolute():
        target = ctx.obj["cwd"] / target
    # Like `git init` and `git -C DIR init`: a named directory gets its own repository.
    explicit = directory is not None or ctx.obj.get("cwd_given", False)
    if opts.adopt:  # it writes [memory] extra_paths into memgit.toml: refused up front when that is not TOML
        from memgit.config import load_config

        load_config(target).require_readable("`memgit init --adopt`")
    report = init_workspace(target, explicit=explicit)
    as_json = opts.as_json
    if opts.with_hooks:
        from memgit.githooks.install import install_hooks

        report["hooks"] = list(install_hooks(Workspace.discover(Path(report["root"]))).installed)
    if not as_json:
        verb = "Adopted" if report["adopted"] else "Created"
        click.echo(f"{verb} memory workspace at {report['root']}")
        for path in report["created"]:
            click.echo(f"  created {path}")
        if report.get("hooks"):
            click.echo(f"  installed hooks: {', '.join(report['hooks'])}")
    if opts.adopt:
        report["adopt"] = _adopt(Workspace.discover(Path(report["root"])), as_json)
    else:
        from memgit.memory.adopt import coverage_notice

        ws = Workspace.discover(Path(report["root"]))
        say_config_problems(ws.config)
        report["notices"] = [n for n in [coverage_notice(ws, fresh=True)] if n]
    if as_json:
        emit(report)
        return
    for message in report.get("notices", []):
        notice(message)
    if not opts.adopt:
        click.echo("Next: add notes under memory/, commit, then `memgit index` and `memgit search QUERY`.")


def _adopt(ws: Any, as_json: bool) -> dict[str, Any]:
    """Write the globs, say what will be indexed and how long embedding takes, then index."""
    from memgit.index.open import open_embedder
    from memgit.memory.adopt import EMBED_CHUNKS_PER_SECOND, markdown_coverage, plan_adoption, write_globs
    from memgit.workspace import Workspace

    embedder, why_not = open_embedder(ws)
    plan = plan_adoption(ws, embedding=embedder is not None)
    out: dict[str, Any] = {"globs": plan.globs, "files": plan.files, "chunks_estimate": plan.chunks}
    out["embed_seconds_estimate"] = None if plan.embed_seconds is None else round(plan.embed_seconds)
    if not plan.files:
        out["index"] = None
        if not as_json:
            click.echo("Nothing to adopt: the memory paths already cover the Markdown in this repository.")
        return out
    write_globs(ws.root, plan.globs)
    ws = Workspace.discover(ws.root)
    if not as_json:
        click.echo(f"memgit.toml: [memory] extra_paths = {plan.globs}")
        cost = (
            f"embedding about {_duration(plan.embed_seconds)} on this machine's model"
            if plan.embed_seconds is not None
            else f"no embedding: {why_not or 'no model loads here'}"
        )
        click.echo(f"Indexing {plan.files} more Markdown files, about {plan.chunks} chunks; {cost}.")
    from memgit.cli.index import build_index

    def searchable(report: Any) -> None:
        if as_json:
            return
        click.echo(f"Text indexed in {report.seconds:.1f}s ({report.chunks} chunks): keyword search works now.")
        if report.pending_vectors and report.model_id:
            left = f"about {_duration(report.pending_vectors / EMBED_CHUNKS_PER_SECOND)}"
            click.echo(
                f"Embedding {report.pending_vectors} chunk vectors, {left}; searches use each batch as it lands "
                "(Ctrl-C keeps what is done; `memgit index` resumes)."
            )

    index, _filled = build_index(ws, embedder=embedder, on_text=searchable)
    cov = markdown_coverage(ws, index.tree)
    out["index"] = {"mode": index.mode, "files_indexed": index.files_indexed, "chunks": index.chunks}
    out["index"] |= {"embedded": index.embedded, "pending_vectors": index.pending_vectors}
    out["markdown"], out["markdown_outside"] = cov.markdown, len(cov.outside)
    if not as_json:
        click.echo(
            f"Indexed {index.files_indexed} files ({index.chunks} chunks, {index.embedded} embedded); "
            f"{cov.markdown - len(cov.outside)} of {cov.markdown} Markdown files are now searchable. "
            "Commit memgit.toml to keep these settings."
        )
    return out


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "nothing"
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
