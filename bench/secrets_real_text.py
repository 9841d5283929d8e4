"""False alarms of the secret rules on real third-party Markdown nobody here wrote.

    .venv/bin/python bench/secrets_real_text.py [--half tune|report|all] [--show N] [--json out.json]
        [--pip] [--npm] [--repo PATH/TO/A/CLONE ...] [--max-lines N]

Sources (nothing is copied into the repository; each file is read where it is installed):

* `--pip`: the Markdown of the packages installed in this checkout's `.venv` (`*.md` files and the
  long descriptions in `*.dist-info/METADATA` whose content type is Markdown);
* `--npm`: the `*.md` files under `tests/node/node_modules` (after `./dev test` or `npm ci` there);
* `--repo DIR`: the `*.md` files of a git repository (a bare mirror is read with `git ls-tree` and
  `git cat-file`, at HEAD), such as public documentation repositories fetched for this purpose.

Files are deduplicated by content and split in two halves by a hash of their content: `tune` (the
half the rules may be tuned on) and `report` (run once, at the end). Each file is linted as a
memory note would be (`rules.lint_file`, every line, default settings), which is what `memgit lint
--all` runs; the figure is secret-rule (S1xx) flagged lines per 10,000 lines. `--show N` prints the
first N flagged lines with their source, to be read.
"""

from __future__ import annotations

import argparse
import email
import hashlib
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from datetime import date
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent


def pip_texts(venv: Path) -> Iterator[tuple[str, str]]:
    site = next(venv.glob("lib/python*/site-packages"), None)
    if site is None:
        return
    for path in sorted(site.rglob("*.md")):
        yield f"pip:{path.relative_to(site)}", path.read_text(encoding="utf-8", errors="replace")
    for meta in sorted(site.glob("*.dist-info/METADATA")):
        message = email.message_from_string(meta.read_text(encoding="utf-8", errors="replace"))
        kind = message.get("Description-Content-Type", "")
        body = message.get_payload()
        if "markdown" in kind.lower() and isinstance(body, str) and body.strip():
            yield f"pip:{meta.parent.name}/README", body


def npm_texts(modules: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(modules.rglob("*.md")) if modules.exists() else []:
        if path.is_file():
            yield f"npm:{path.relative_to(modules)}", path.read_text(encoding="utf-8", errors="replace")


def repo_texts(repo: Path) -> Iterator[tuple[str, str]]:
    name = repo.parent.name if repo.name == "repo" else repo.name
    listing = subprocess.run(
        ["git", "--git-dir" if (repo / "HEAD").exists() else "-C", str(repo), "ls-tree", "-r", "-z", "HEAD"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "replace")
    entries = []
    for row in listing.split("\0"):
        if not row:
            continue
        meta, path = row.split("\t", 1)
        parts = meta.split()
        if parts[1] == "blob" and path.lower().endswith(".md"):
            entries.append((parts[2], path))
    git = ["git", "--git-dir" if (repo / "HEAD").exists() else "-C", str(repo), "cat-file", "--batch"]
    with subprocess.Popen(git, stdin=subprocess.PIPE, stdout=subprocess.PIPE) as batch:
        assert batch.stdin is not None and batch.stdout is not None
        for blob, path in entries:
            batch.stdin.write(blob.encode() + b"\n")
            batch.stdin.flush()
            header = batch.stdout.readline().split()
            size = int(header[2])
            data = batch.stdout.read(size)
            batch.stdout.read(1)
            yield f"{name}:{path}", data.decode("utf-8", "replace")
        batch.stdin.close()


def half_of(text: str) -> str:
    return "tune" if hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[0] % 2 == 0 else "report"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("tune", "report", "all"), default="tune")
    parser.add_argument("--pip", action="store_true")
    parser.add_argument("--npm", action="store_true")
    parser.add_argument("--repo", type=Path, action="append", default=[])
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--max-lines", type=int, default=0, help="stop after this many lines per source")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    from memgit.lint import rules

    sources: list[tuple[str, Iterator[tuple[str, str]]]] = []
    if args.pip:
        sources.append(("pip", pip_texts(ROOT / ".venv")))
    if args.npm:
        sources.append(("npm", npm_texts(ROOT / "tests" / "node" / "node_modules")))
    for repo in args.repo:
        sources.append((repo.parent.name if repo.name == "repo" else repo.name, repo_texts(repo)))
    seen: set[str] = set()
    lines_by_source: Counter[str] = Counter()
    flags_by_source: Counter[str] = Counter()
    flags_by_rule: Counter[str] = Counter()
    flagged: list[dict[str, object]] = []
    started = time.perf_counter()
    for source, texts in sources:
        for name, text in texts:
            digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
            if digest in seen or (args.half != "all" and half_of(text) != args.half):
                continue
            if args.max_lines and lines_by_source[source] >= args.max_lines:
                break
            seen.add(digest)
            lines = text.split("\n")
            lines_by_source[source] += len(lines)
            item = rules.LintInput("notes/page.md", text.encode("utf-8", "surrogatepass"))
            findings = rules.lint_file(item, rules.LintSettings(), date(2026, 6, 1))
            hit_lines = sorted({f.line for f in findings if f.code.startswith("S")})
            for number in hit_lines:
                codes = sorted({f.code for f in findings if f.line == number and f.code.startswith("S")})
                flags_by_source[source] += 1
                flags_by_rule[codes[0]] += 1
                flagged.append({"source": name, "line": number, "codes": codes, "text": lines[number - 1][:300]})
    elapsed = time.perf_counter() - started
    total = sum(lines_by_source.values())
    count = sum(flags_by_source.values())
    print(
        f"half: {args.half}; files: {len(seen)}; lines: {total:,}; flagged lines: {count}; "
        f"per 10,000 lines: {10_000 * count / max(1, total):.2f}; {elapsed:.1f} s"
    )
    for source in lines_by_source:
        print(f"  {source}: {lines_by_source[source]:,} lines, {flags_by_source[source]} flagged")
    print("  by rule:", dict(flags_by_rule.most_common()))
    for row in flagged[: args.show]:
        print(f"{row['source']}:{row['line']}: {','.join(row['codes'])}: {row['text']}")  # type: ignore[arg-type]
    if args.json:
        report = {
            "half": args.half,
            "files": len(seen),
            "lines": total,
            "flagged": count,
            "by_source": dict(lines_by_source),
            "flags_by_source": dict(flags_by_source),
            "by_rule": dict(flags_by_rule),
            "seconds": elapsed,
            "flagged_lines": flagged,
        }
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
