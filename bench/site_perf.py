"""Memory-site benchmarks: full build, rebuild after a one-file commit, client-side search.

    .venv/bin/python bench/site_perf.py build  [-n 5] [--files 2000] [--seed 0] [--dream]
    .venv/bin/python bench/site_perf.py search [--files 3000] [--seed 0] [--queries 9]

`build` times `python -m memgit site build -o DIR` subprocesses on a generated workspace: a full
build (output folder and manifest deleted before each run), then a rebuild after each of n
one-file commits, and `python -m memgit --version` as the process-start baseline; it prints
medians and the ratio rebuild/full net of process start. With `--dream` the workspace first gets
a real dream merged (searches recorded on its last three days, `memgit dream`, merge), so the
Concepts pages have themes and places, and the one-file commits touch the newest daily log, which
the dream's concepts name: the worst case for the concept pages' incremental key. `build` also prints what a note page
weighs (HTML + CSS + JS, the search index left out). `search` builds a 3,000-file site and, in
Debian's chromium, opens a note page and types a query into the header at once, timing navigation
start to the first results (the build-time index loaded lazily and searched).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.memgit_runner import default_python, run_memgit, show_command  # noqa: E402
from bench.perf import commit_one_file, fresh_workspace, log, report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENV = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_PROGRESS": "1"}


def site_dir(ws: Path) -> Path:
    return ws.parent / f"{ws.name}-site"


def wipe(ws: Path) -> None:
    shutil.rmtree(site_dir(ws), ignore_errors=True)
    shutil.rmtree(ws / ".git" / "memgit" / "site", ignore_errors=True)


def add_dream(ws: Path, python: str) -> None:
    """Record searches on the last three days of the workspace, dream, merge the branch."""
    from bench import vocab as V
    from bench.gen_workspace import git_env

    newest = sorted((ws / "memory").glob("????-??-??.md"))[-1].stem
    last = dt.date.fromisoformat(newest)
    (ws / "memgit.toml").write_text("[dream]\nmin_score = 0.0\nmin_recall_count = 2\nmin_unique_queries = 2\n")
    env = {**ENV, "MEMGIT_NO_RECALL": "0"}
    for offset, service in enumerate(V.SERVICES[:6]):
        day = last - dt.timedelta(days=offset % 3)
        for hour, query in ((10, f"deployed {service} rollback plan"), (11, f"{service} rollback snapshot")):
            run_memgit(python, ["search", query, "--now", f"{day.isoformat()}T{hour}:00:00+00:00"], ws, env)
    proc, _ = run_memgit(python, ["dream", "--now", f"{last.isoformat()}T20:00:00+00:00", "--force", "--json"], ws, ENV)
    branch = json.loads(proc.stdout)["branch"]
    if branch is None:
        raise SystemExit("bench: the dream proposed nothing; no concepts to measure")
    genv = git_env(dt.datetime(2026, 7, 1, 11, tzinfo=dt.UTC))
    subprocess.run(
        ["git", "-C", str(ws), "merge", "-q", "--no-edit", branch], env=genv, check=True, stdout=subprocess.DEVNULL
    )
    log(f"  merged {branch}")


def cmd_build(opts: argparse.Namespace) -> None:
    ws = fresh_workspace("site", opts.files, opts.seed)
    if opts.dream:
        add_dream(ws, opts.python)
    args = ["site", "build", "-o", str(site_dir(ws)), "--json"]
    cmd = show_command([opts.python, "-m", "memgit", *args], ws, ENV)
    full, reports, full_inner = [], [], []
    for i in range(opts.runs):
        wipe(ws)
        proc, seconds = run_memgit(opts.python, args, ws, ENV)
        full.append(seconds)
        full_inner.append(json.loads(proc.stdout)["seconds"])
        log(f"  full {i + 1}/{opts.runs}: {seconds:.2f} s ({json.loads(proc.stdout)['pages']} pages)")
    rebuild = []
    for i in range(opts.runs):
        commit_one_file(ws, i)
        proc, seconds = run_memgit(opts.python, args, ws, ENV)
        rebuild.append(seconds)
        reports.append(json.loads(proc.stdout))
        log(f"  one-file rebuild {i + 1}/{opts.runs}: {seconds * 1000:.0f} ms, {reports[-1]['written']} files written")
    start = []
    for _ in range(opts.runs):
        start.append(run_memgit(opts.python, ["--version"], ws, ENV)[1])
    base = statistics.median(start)
    report(f"site build, full ({opts.files} files)", cmd + "  # output and manifest deleted first", full, "s")
    report(
        f"site build after a one-file commit ({opts.files} files)",
        cmd,
        rebuild,
        "ms",
        files_written=statistics.median(r["written"] for r in reports),
    )
    report(
        "process start (python -m memgit --version)",
        show_command([opts.python, "-m", "memgit", "--version"], ws),
        start,
        "ms",
    )
    ratio = (statistics.median(rebuild) - base) / (statistics.median(full) - base)
    inner_full = statistics.median(full_inner)
    inner_rebuild = statistics.median(r["seconds"] for r in reports)
    print(f"rebuild / full, wall time net of process start (`--version`): {ratio * 100:.1f} % (target < 5 %)")
    weight = page_weight(site_dir(ws))
    print(
        f"note page, HTML + CSS + JS without the search index ({weight['pages']} note pages): median "
        f"{weight['median'] / 1024:.1f} KB, p95 {weight['p95'] / 1024:.1f} KB, max {weight['max'] / 1024:.1f} KB "
        f"(CSS + JS {weight['assets'] / 1024:.1f} KB; target 40 KB)"
    )
    print(
        f"rebuild / full, the build's own timer (report 'seconds': after imports and workspace discovery): "
        f"{inner_rebuild * 1000:.0f} ms / {inner_full:.2f} s = {inner_rebuild / inner_full * 100:.1f} %"
    )


def page_weight(site: Path) -> dict:
    """Bytes a note page costs a reader before any search: its HTML, the CSS and the script."""
    assets = (site / "assets" / "site.css").stat().st_size + (site / "assets" / "site.js").stat().st_size
    sizes = sorted(p.stat().st_size for p in (site / "notes").rglob("*.html"))
    return {
        "assets": assets,
        "median": sizes[len(sizes) // 2] + assets,
        "p95": sizes[int(len(sizes) * 0.95)] + assets,
        "max": sizes[-1] + assets,
        "pages": len(sizes),
    }


FIRST_QUERY = """async q => {
  const input = document.getElementById('hq');
  input.focus(); input.value = q; input.dispatchEvent(new Event('input'));
  while (!document.querySelector('#hresults li')) await new Promise(r => setTimeout(r, 5));
  return performance.now();
}"""


def cmd_search(opts: argparse.Namespace) -> None:
    """Open a note page of a generated site in chromium and type a query into the header at once:
    the time from navigation start to the first results (the index loaded and searched)."""
    from playwright.sync_api import sync_playwright

    ws = fresh_workspace("site-search", opts.files, opts.seed)
    wipe(ws)
    run_memgit(opts.python, ["site", "build", "-o", str(site_dir(ws))], ws, ENV)
    site = site_dir(ws)
    shards = sum(p.stat().st_size for p in (site / "assets" / "search").glob("*.js"))
    note = sorted((site / "notes" / "memory").glob("*.html"))[
        len(list((site / "notes" / "memory").glob("*.html"))) // 2
    ]
    from bench import vocab as V

    words = sorted({w.lower() for w in " ".join(V.PROJECTS + V.SERVICES + V.TECH).split() if len(w) > 3})
    times = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for i in range(opts.queries):
            context = browser.new_context(bypass_csp=True)  # bypass: Playwright's evaluate needs eval
            page = context.new_page()
            page.goto(note.as_uri())
            times.append(page.evaluate(FIRST_QUERY, words[(i * 7) % len(words)]))
            context.close()
        browser.close()
    times.sort()
    print(
        f"first query from a note page's header, {opts.files}-file site: command: .venv/bin/python "
        f"bench/site_perf.py search --files {opts.files} --queries {opts.queries}"
    )
    print(
        f"  search shards {shards / 1e6:.2f} MB on disk; ms from navigation start to the first results: "
        f"median {statistics.median(times):.0f}, max {times[-1]:.0f} ({len(times)} page loads, target 500)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", default=default_python())
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build")
    build.add_argument("-n", "--runs", type=int, default=5)
    build.add_argument("--files", type=int, default=2000)
    build.add_argument("--seed", type=int, default=0)
    build.add_argument("--dream", action="store_true", help="merge a real dream first (concept pages)")
    search = sub.add_parser("search")
    search.add_argument("--files", type=int, default=3000)
    search.add_argument("--seed", type=int, default=0)
    search.add_argument("--queries", type=int, default=9)
    opts = parser.parse_args()
    {"build": cmd_build, "search": cmd_search}[opts.command](opts)


if __name__ == "__main__":
    main()
