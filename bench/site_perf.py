"""Memory-site benchmarks: full build, rebuild after a one-file commit, client-side search.

    .venv/bin/python bench/site_perf.py build  [-n 5] [--files 2000] [--seed 0] [--dream]
    .venv/bin/python bench/site_perf.py search [--files 2000] [--seed 0] [--queries 50]

`build` times `python -m memgit site build -o DIR` subprocesses on a generated workspace: a full
build (output folder and manifest deleted before each run), then a rebuild after each of n
one-file commits, and `python -m memgit --version` as the process-start baseline; it prints
medians and the ratio rebuild/full net of process start. With `--dream` the workspace first gets
a real dream merged (searches recorded on its last three days, `memgit dream`, merge), so the
Concepts pages have themes and places, and the one-file commits touch the newest daily log, which
the dream's concepts name: the worst case for the concept pages' incremental key. `search` builds the site once and, under
Node, loads its search shards, builds the in-browser index with the vendored MiniSearch and with
Lunr 2.3.9 (fetched with `npm pack` into bench/.work, never vendored), and times queries.
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

from bench.corpus import WORK_DIR  # noqa: E402
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
    subprocess.run(["git", "-C", str(ws), "merge", "-q", "--no-edit", branch], env=genv, check=True,
                   stdout=subprocess.DEVNULL)
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
    report(f"site build after a one-file commit ({opts.files} files)", cmd, rebuild, "ms",
           files_written=statistics.median(r["written"] for r in reports))
    report("process start (python -m memgit --version)", show_command([opts.python, "-m", "memgit", "--version"], ws),
           start, "ms")
    ratio = (statistics.median(rebuild) - base) / (statistics.median(full) - base)
    inner_full = statistics.median(full_inner)
    inner_rebuild = statistics.median(r["seconds"] for r in reports)
    print(f"rebuild / full, wall time net of process start (`--version`): {ratio * 100:.1f} % (target < 5 %)")
    print(f"rebuild / full, the build's own timer (report 'seconds': after imports and workspace discovery): "
          f"{inner_rebuild * 1000:.0f} ms / {inner_full:.2f} s = {inner_rebuild / inner_full * 100:.1f} %")


NODE_BENCH = r"""
const fs = require('fs'), path = require('path'), vm = require('vm');
const [site, lunrPath, queryFile] = process.argv.slice(2);
const ctx = { window: {} };
vm.createContext(ctx);
const shardDir = path.join(site, 'assets', 'search');
let bytes = 0;
for (const f of fs.readdirSync(shardDir).sort()) {
  const text = fs.readFileSync(path.join(shardDir, f), 'utf8'); bytes += Buffer.byteLength(text);
  vm.runInContext(text, ctx);
}
const docs = [];
for (const shard of ctx.window.memgitSearch) for (const r of shard)
  docs.push({ id: docs.length, url: r[0], path: r[1], start: r[2], end: r[3], text: r[4] });
const queries = JSON.parse(fs.readFileSync(queryFile, 'utf8'));
const median = xs => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
function time(fn) { const t = process.hrtime.bigint(); const r = fn(); return [Number(process.hrtime.bigint() - t) / 1e6, r]; }
const out = { docs: docs.length, shard_bytes: bytes };
const MiniSearch = require(path.join(site, 'assets', 'minisearch.js'));
const [msBuild, ms] = time(() => { const m = new MiniSearch({ fields: ['text', 'path'], storeFields: ['url'] }); m.addAll(docs); return m; });
const msQ = queries.map(q => time(() => ms.search(q, { prefix: true, fuzzy: 0.1, combineWith: 'AND' }))[0]);
out.minisearch = { build_ms: msBuild, query_median_ms: median(msQ), serialized_bytes: JSON.stringify(ms).length,
                   heap_mb: process.memoryUsage().heapUsed / 1e6 };
const lunr = require(lunrPath);
const [luBuild, lu] = time(() => lunr(function () { this.ref('id'); this.field('text'); this.field('path');
  docs.forEach(d => this.add(d)); }));
const luQ = queries.map(q => time(() => lu.search(q.split(/\s+/).map(w => '+' + w.replace(/[:~^*+-]/g, '') + '*').join(' ')))[0]);
out.lunr = { build_ms: luBuild, query_median_ms: median(luQ), serialized_bytes: JSON.stringify(lu).length };
console.log(JSON.stringify(out));
"""


def lunr_module() -> Path:
    dest = WORK_DIR / "npm" / "lunr-2.3.9"
    if not (dest / "package" / "lunr.js").is_file():
        dest.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "pack", "lunr@2.3.9", "--silent"], cwd=dest, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["tar", "xzf", "lunr-2.3.9.tgz"], cwd=dest, check=True)
    return dest / "package" / "lunr.js"


def cmd_search(opts: argparse.Namespace) -> None:
    ws = fresh_workspace("site-search", opts.files, opts.seed)
    wipe(ws)
    run_memgit(opts.python, ["site", "build", "-o", str(site_dir(ws))], ws, ENV)
    from bench import vocab as V

    words = sorted({w.lower() for w in " ".join(V.PROJECTS + V.SERVICES + V.TECH + V.TOPICS).split() if len(w) > 3})
    queries = [f"{words[i % len(words)]} {words[(i * 7 + 3) % len(words)]}" for i in range(opts.queries)]
    queries += words[: opts.queries]
    qfile = WORK_DIR / "site-queries.json"
    qfile.write_text(json.dumps(queries))
    script = WORK_DIR / "site-search-bench.js"
    script.write_text(NODE_BENCH)
    proc = subprocess.run(["node", str(script), str(site_dir(ws)), str(lunr_module()), str(qfile)],
                          capture_output=True, text=True, check=True)
    data = json.loads(proc.stdout)
    print(f"client-side search over the site of {opts.files} files: command: .venv/bin/python bench/site_perf.py search "
          f"--files {opts.files}")
    print(f"  {data['docs']} chunks, search shards {data['shard_bytes'] / 1e6:.2f} MB on disk")
    for name in ("minisearch", "lunr"):
        item = data[name]
        print(f"  {name}: index build {item['build_ms']:.0f} ms, query median {item['query_median_ms']:.2f} ms "
              f"({len(queries)} queries), serialized index {item['serialized_bytes'] / 1e6:.2f} MB")


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
    search.add_argument("--files", type=int, default=2000)
    search.add_argument("--seed", type=int, default=0)
    search.add_argument("--queries", type=int, default=50)
    opts = parser.parse_args()
    {"build": cmd_build, "search": cmd_search}[opts.command](opts)


if __name__ == "__main__":
    main()
