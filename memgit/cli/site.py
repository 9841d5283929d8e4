"""`memgit site build` and `memgit site serve`: the static memory site."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import click

from memgit.cli.output import FiniteRange, emit, workspace_from


class StepProgress:
    """What a build is doing from its first second, on stderr (stdout stays the report).

    On a terminal, one line redrawn: the step, its counts when it has some, the seconds so far.
    Elsewhere (CI, a pipe, an agent), one line every few seconds, so a log never goes silent for
    minutes; a build quicker than the first tick prints nothing. A timer signal draws, not a
    thread: the build forks its render workers, and a thread would stop it from forking (timers
    are not inherited by a forked worker). `MEMGIT_NO_PROGRESS` turns it off;
    `MEMGIT_PROGRESS_SECONDS` sets the seconds between draws (default 0.25 on a terminal, 5 off it).
    """

    def __init__(self, label: str, every: float = 5.0) -> None:
        self.label = label
        self.tty = sys.stderr.isatty()
        self.enabled = not os.environ.get("MEMGIT_NO_PROGRESS") and hasattr(signal, "setitimer")
        self.every = 0.25 if self.tty else every
        with contextlib.suppress(ValueError):
            self.every = max(0.01, float(os.environ.get("MEMGIT_PROGRESS_SECONDS", self.every)))
        self.step, self.done, self.total = "starting", 0, 0
        self.started = time.monotonic()
        self._drawn = False
        self._previous: Any = None

    def __call__(self, step: str, done: int, total: int) -> None:
        self.step, self.done, self.total = step, done, total

    def line(self) -> str:
        counts = f" {self.done}/{self.total}" if self.total else ""
        return f"{self.label}: {self.step}{counts} ({time.monotonic() - self.started:.0f} s)"

    def _tick(self, _signum: int, _frame: Any) -> None:
        text = self.line()
        if self.tty:
            os.write(2, ("\r" + text + " " * 8).encode("utf-8", "replace"))
            self._drawn = True
        else:
            os.write(2, (text + "\n").encode("utf-8", "replace"))

    def __enter__(self) -> StepProgress:
        if self.enabled:
            try:
                self._previous = signal.signal(signal.SIGALRM, self._tick)
            except ValueError:  # not the main thread
                self.enabled = False
                return self
            signal.setitimer(signal.ITIMER_REAL, min(1.0, self.every), self.every)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if not self.enabled:
            return
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, self._previous if self._previous is not None else signal.SIG_DFL)
        if self._drawn:
            os.write(2, b"\r\x1b[K")


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
@click.option(
    "--trust-templates",
    is_flag=True,
    help="Render the workspace's own templates outside Jinja's sandbox (only for templates you wrote or reviewed).",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
def build_command(out: Path | None, scope: str, base_url: str, at: str, trust_templates: bool, as_json: bool) -> None:
    """Write the site as static HTML (works from file://, any static host or `memgit site serve`)."""
    from memgit.site.build import BuildOptions, build_site

    ws = workspace_from(writes="`memgit site build` (which pages are private is a setting)")
    target = out if out is not None else ws.root.parent / f"{ws.root.name}-site"
    options = BuildOptions(out=target, scope=scope, base_url=base_url, at=at, trust_templates=trust_templates)
    with StepProgress("site") as progress:
        report = build_site(ws, options, progress)
    if as_json:
        emit(report.to_json())
        return
    kind = "updated" if report.incremental else "built"
    click.echo(
        f"site {kind}: {report.pages} pages, {report.rendered} rendered, {len(report.written)} written, "
        f"{len(report.removed)} removed in {report.seconds:.2f}s"
    )
    budget = ws.config.site.history_versions
    capped = f", the newest {budget} of {report.versions_found}" if report.versions_found > budget else ""
    click.echo(
        f"size: {_megabytes(report.bytes)}, of which {_megabytes(report.snapshot_bytes)} in "
        f"{report.snapshot_pages} past versions of notes ([site] snapshots, history_versions{capped})"
    )
    click.echo(_templates_line(report.templates, ws.config.site.templates))
    for line in [*problem_lines(report.problems), *redaction_lines(report.redacted), *left_out_lines(report.left_out)]:
        click.echo(line)
    for line in unresolved_lines(report.unresolved):
        click.echo(line)
    click.echo(f"open {Path(report.out) / 'index.html'}")


def _templates_line(mode: str, folder: str) -> str:
    where = folder or ".memgit/templates"
    return {
        "shipped": "templates: memgit's own",
        "sandboxed": f"templates: the workspace's ({where}), rendered in Jinja's sandbox",
        "trusted": f"templates: the workspace's ({where}), trusted (--trust-templates): not sandboxed",
    }[mode]


def problem_lines(rows: list[dict[str, Any]]) -> list[str]:
    """What the repository made the build leave out or change, one line a thing, its path shown
    with git's quoting and every hidden character visible (a terminal or a CI log is a reader too)."""
    from memgit.site.visible import visible

    if not rows:
        return []
    lines = [f"{len(rows)} thing{'s' if len(rows) != 1 else ''} in the repository left out or renamed:"]
    for row in rows:
        lines.append(f"  {row['kind']}: {visible(row['path'])}: {visible(row['why'])}")
    return lines


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
        where = " (in the file's name: the file is left out)" if row["line"] == 0 else where
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
    help="Port to listen on (0 picks a free one).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; anything but loopback lets other machines read the site.",
)
@click.option(
    "--scope",
    type=click.Choice(["private", "public"]),
    default="private",
    show_default=True,
    help="public leaves out MEMORY.md, USER.md, sessions, dream reports and [site] private_paths.",
)
@click.option(
    "--expose-private",
    is_flag=True,
    help="Allow the private scope on an address other machines reach (everyone there reads all of this memory).",
)
@click.option(
    "--interval",
    type=FiniteRange(0.1, 60),
    default=1.0,
    show_default=True,
    help="Seconds between checks for a new HEAD or changed memory files.",
)
def serve_command(port: int, host: str, scope: str, expose_private: bool, interval: float) -> None:
    """Preview the site on 127.0.0.1; it rebuilds when HEAD or a memory file changes."""
    from memgit.site.serve import serve

    ws = workspace_from(writes="`memgit site serve` (which pages are private is a setting)")
    serve(
        ws,
        port=port,
        scope=scope,
        interval=interval,
        host=host,
        expose_private=expose_private,
        announce=lambda text: click.echo(text, err=True),
    )
