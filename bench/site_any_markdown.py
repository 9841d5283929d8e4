"""The memory site of a repository memgit did not write: titles, history across renames, size.

    .venv/bin/python bench/site_any_markdown.py [--files 600] [--rounds 60] [--seed 7] [--keep DIR]

Generates an RFC-style repository (`bench/gen_rfc_repo.py`: one template's headings in every
file, front matter, renames, a revert), builds its site with `python -m memgit site build --json`
under `[site] snapshots` = 10 (the default), 2 and 0, and prints: pages, seconds, the share of
note pages whose title another page has too, the renamed files' history against
`git log --follow`, and the site's size with the part that is snapshots.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.gen_rfc_repo import git, make_rfc_repo  # noqa: E402


def _build(root: Path, out: Path) -> dict:
    env = {**os.environ, "MEMGIT_EMBEDDING": "none"}
    proc = subprocess.run(
        [sys.executable, "-m", "memgit", "site", "build", "-o", str(out), "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return dict(json.loads(proc.stdout))


def _titles(out: Path) -> list[str]:
    found = []
    for page in sorted((out / "notes").rglob("*.html")):
        match = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"), re.S)
        found.append(match[1] if match else "")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="build here and keep it (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = args.keep or Path(scratch)
        repo = make_rfc_repo(base / "ws", args.seed, args.files, args.rounds)
        commits = git(repo.root, "rev-list", "--count", "HEAD").strip()
        print(f"{len(repo.kinds)} documents, {commits} commits")
        toml = repo.root / "memgit.toml"
        settings = toml.read_text()
        for keep in (10, 2, 0):
            toml.write_text(settings + f"snapshots = {keep}\n")
            out = base / f"site-{keep}"
            report = _build(repo.root, out)
            titles = _titles(out)
            counts = Counter(titles)
            shared = sum(n for n in counts.values() if n > 1) / max(1, len(titles))
            print(
                f"snapshots = {keep:>2}: {report['pages']} pages in {report['seconds']:.2f} s; "
                f"{report['bytes'] / 1e6:.2f} MB, of which {report['snapshot_bytes'] / 1e6:.2f} MB in "
                f"{report['snapshot_pages']} snapshots; titles shared with another page: {shared:.1%} "
                f"(most common: {counts.most_common(1)[0][1]}x)"
            )
        for new in repo.renamed:
            followed = git(repo.root, "log", "--follow", "--format=%H", "--", new).split()
            page = (out / "notes" / (new[:-3] + ".html")).read_text(encoding="utf-8")
            listed = re.findall(r'<code title="([0-9a-f]{40})">', page[page.find('<section class="history"') :])
            same = listed == followed[:50]  # [site] history = 50 in the generated memgit.toml
            print(f"{new}: {len(listed)} commits listed, git log --follow: {len(followed)}, newest 50 the same: {same}")


if __name__ == "__main__":
    main()
