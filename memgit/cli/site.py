"""`memgit site build` and `memgit site serve`: the static memory site."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from memgit.cli.output import FiniteRange, Progress, emit, workspace_from


@click.group("site")
def site_group() -> None:
    """Build or preview the static memory site (every fact links to its source lines)."""


@site_group.command("build")
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder (default: site/ beside the workspace, i.e. ../<name>-site).",
)
@click.option(
    "--scope",
    type=click.Choice(["private", "public"]),
    default="private",
    show_default=True,
    help="public leaves out MEMORY.md, USER.md, sessions, dream reports and [site] private_paths.",
)
@click.option("--base-url", default="", help="Public URL the site is served from (for canonical links).")
@click.option("--at", "at", default="HEAD", show_default=True, help="Build the memory as of this commit or ref.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
def build_command(out: Path | None, scope: str, base_url: str, at: str, as_json: bool) -> None:
    """Write the site as static HTML (works from file://, any static host or `memgit site serve`)."""
    from memgit.site.build import BuildOptions, build_site

    ws = workspace_from(writes="`memgit site build` (which pages are private is a setting)")
    target = out if out is not None else ws.root.parent / f"{ws.root.name}-site"
    progress = Progress("site") if not as_json else None
    report = build_site(ws, BuildOptions(out=target, scope=scope, base_url=base_url, at=at), progress)
    if progress is not None:
        progress.finish()
    if as_json:
        emit(report.to_json())
        return
    kind = "updated" if report.incremental else "built"
    click.echo(
        f"site {kind}: {report.pages} pages, {report.rendered} rendered, {len(report.written)} written, "
        f"{len(report.removed)} removed in {report.seconds:.2f}s"
    )
    click.echo(
        f"size: {_megabytes(report.bytes)}, of which {_megabytes(report.snapshot_bytes)} in "
        f"{report.snapshot_pages} past versions of notes ([site] snapshots)"
    )
    for line in redaction_lines(report.redacted):
        click.echo(line)
    for line in left_out_lines(report.left_out):
        click.echo(line)
    for line in unresolved_lines(report.unresolved):
        click.echo(line)
    click.echo(f"open {Path(report.out) / 'index.html'}")


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"


def redaction_lines(rows: list[dict[str, Any]]) -> list[str]:
    """What the build redacted, one `path:line: RULE` a line (as `memgit lint` prints findings), so
    the person, or the CI job's log, sees what to take out of memory and which credentials to rotate."""
    from memgit.core.paths import display_path

    if not rows:
        return []
    lines = [
        f"redacted {len(rows)} line{'s' if len(rows) != 1 else ''} the lint flags as secrets "
        "(shown as [redacted: RULE]; remove them from memory and rotate the credentials):"
    ]
    for row in rows:
        where = f" (an older version, commit {row['commit'][:10]})" if row["commit"] else ""
        lines.append(f"  {display_path(row['path'])}:{row['line']}: {row['code']} {row['rule']}{where}")
    return lines


def unresolved_lines(rows: list[dict[str, Any]], shown: int = 20) -> list[str]:
    """The `[[wikilinks]]` that lead nowhere (shown as plain text on their pages): the first
    `shown` of them, then how many more (`--json` lists them all)."""
    from memgit.core.paths import display_path

    if not rows:
        return []
    notes = len({r["path"] for r in rows})
    lines = [
        f"{len(rows)} wikilink{'s' if len(rows) != 1 else ''} in {notes} note{'s' if notes != 1 else ''} match no file:"
    ]
    lines += [f"  {display_path(r['path'])}: [[{r['target']}]]" for r in rows[:shown]]
    if len(rows) > shown:
        lines.append(f"  … and {len(rows) - shown} more (--json lists them all)")
    return lines


def left_out_lines(rows: list[dict[str, Any]]) -> list[str]:
    """What a public build left out, grouped by why, so the owner sees what stayed private."""
    from memgit.core.paths import display_path

    if not rows:
        return []
    heads = {
        "file": "private files left out",
        "snapshot": "older versions of public notes left out (only the current version is published)",
        "subject": 'commit subjects shown as "a private change" (the commit also changed private files)',
    }
    lines = []
    for what, head in heads.items():
        mine = [r for r in rows if r["what"] == what]
        if mine:
            lines.append(f"public scope: {len(mine)} {head}:")
            for row in mine:
                at = f" @ {row['commit'][:10]}" if row["commit"] else ""
                lines.append(f"  {display_path(row['path'])}{at}")
    return lines


@site_group.command("serve")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port on 127.0.0.1 (0 picks a free one).",
)
@click.option(
    "--scope",
    type=click.Choice(["private", "public"]),
    default="private",
    show_default=True,
    help="public leaves out MEMORY.md, USER.md, sessions, dream reports and [site] private_paths.",
)
@click.option(
    "--interval",
    type=FiniteRange(0.1, 60),
    default=1.0,
    show_default=True,
    help="Seconds between checks for a new HEAD or changed memory files.",
)
def serve_command(port: int, scope: str, interval: float) -> None:
    """Preview the site on 127.0.0.1; it rebuilds when HEAD or a memory file changes."""
    from memgit.site.serve import serve

    ws = workspace_from(writes="`memgit site serve` (which pages are private is a setting)")
    serve(ws, port=port, scope=scope, interval=interval, announce=lambda text: click.echo(text, err=True))
