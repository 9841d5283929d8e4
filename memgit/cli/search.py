"""`memgit search` and `memgit get`: reading memory back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from memgit.cli.options import flag, option, options
from memgit.cli.output import emit, notice, utf8_argument, warn, workspace_from

if TYPE_CHECKING:
    from memgit.recall.request import SearchRequest
    from memgit.recall.session import Recording


@dataclass(frozen=True)
class SearchOptions:
    """What to search for, given once: the session and every search of it ask the same."""

    k: int | None = option("-k", help="Number of hits (default from config: 6).", type=int)
    mode: str = option(
        "--mode",
        help="hybrid: BM25 and vectors merged; bm25: keywords only; vector: meaning only.",
        default="hybrid",
        type=click.Choice(["hybrid", "bm25", "vector"]),
        show_default=True,
    )
    path_glob: tuple[str, ...] = option("--path", help="Only files matching this glob (repeatable).", multiple=True)
    since: str | None = option("--since", help="Only daily logs dated on or after YYYY-MM-DD.")
    until: str | None = option("--until", help="Only daily logs dated on or before YYYY-MM-DD.")
    as_json: bool = flag("--json", help="Print one JSON object.")

    def request(self) -> SearchRequest:
        from memgit.index.filter_sql import Filter
        from memgit.recall.request import SearchRequest

        return SearchRequest(self.k, self.mode, Filter.of(self.path_glob, self.since, self.until))


@dataclass(frozen=True)
class RecordOptions:
    """Whether and as of when the hits are recorded (dreaming's evidence)."""

    no_record: bool = flag("--no-record", help="Do not add the hits to the recall ledger (dreaming's evidence).")
    now_text: str | None = option("--now", help="Record the hits as of this ISO time (default: MEMGIT_NOW or now).")

    def recording(self) -> Recording:
        from memgit.recall.session import Recording

        return Recording(no_record=self.no_record, now=self.now_text)


@click.command()
@click.argument("query", required=False)
@options(SearchOptions, name="asked")
@click.option(
    "--batch",
    type=click.File("rb"),
    default=None,
    help="Read one query a line from FILE ('-' for stdin); print one JSON object a line.",
)
@options(RecordOptions, name="record")
@click.pass_context
def search(ctx: click.Context, query: str | None, asked: SearchOptions, batch: Any, record: RecordOptions) -> None:
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
    from memgit.recall.session import SearchSession

    session = SearchSession(
        ws,
        asked.request(),
        first_query=query,
        use="once" if batch is None else "batch",
        recording=record.recording(),
    )
    try:
        if batch is not None:
            for text in batch_queries(batch):
                emit(session.search(text).to_dict())
            return
        assert query is not None
        result = session.search(query)
    finally:
        session.close()
        if session.problem:
            warn(session.problem)
    from memgit.index.layout import read_marker
    from memgit.memory.adopt import coverage_notice

    indexed, _overlay = read_marker(ws)
    if indexed and (outside := coverage_notice(ws, indexed)) is not None:
        result.notices.append(outside)
    if asked.as_json:
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
        if hit.also_in:
            click.echo(f"    also in {', '.join(display_path(path_from_key(p)) for p in hit.also_in)}")
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
@click.option(
    "--lines",
    "max_lines",
    type=click.IntRange(1, 100_000),
    default=120,
    show_default=True,
    help="Most lines printed; a longer range ends with a hint to read on.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def get(ctx: click.Context, spec: str, max_lines: int, as_json: bool) -> None:
    """Print a memory file, or lines of it: PATH[:START[-END]]."""
    from memgit.recall.get import parse_spec, read_memory

    ws = workspace_from(ctx)
    path, start, end = parse_spec(spec)
    result = read_memory(ws, path, start, end, max_lines=max_lines)  # recorded as a use of MEMORY.md there
    if as_json:
        emit(result.to_dict())
        return
    click.echo(result.text)
    if result.hint:
        click.echo(f"memgit: {result.hint}", err=True)
