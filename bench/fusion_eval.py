"""Is hybrid search ever worse than its parts? Top-1 and top-5 of BM25, vector and hybrid on two
public Markdown corpora, with questions written for this bench (bench/fusion_questions.json).

    .venv/bin/python bench/fusion_eval.py WORKDIR [--json OUT]

The corpora are the package descriptions already installed on the machine, so nothing is
downloaded or vendored: `python` is the long description (PyPI README) of every package in the
virtualenv, `npm` the README.md of every package under tests/node/node_modules (both Markdown,
each under its package's own license). One file per package; a question's answer is the package
it describes, in other words than its README's. A hit counts at rank r when the r-th distinct
file among the hits is the answer.

Fusion variants are scored offline from the two legs' own hits (`--variants`), to choose on the
`python` corpus (tuning) what `search.fusion` does; the report on `npm` is then the shipped
hybrid search, never tuned on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from email.parser import Parser
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = Path(__file__).with_name("fusion_questions.json")
MIN_CHARS = 300
K = 24  # hits asked of each leg: enough distinct files for top-5 after chunks of one file repeat


def python_docs() -> dict[str, str]:
    """Package -> its long description (Markdown), from the virtualenv's METADATA files."""
    import site

    out: dict[str, str] = {}
    for folder in map(Path, site.getsitepackages()):
        for meta in folder.glob("*.dist-info/METADATA"):
            message = Parser().parsestr(meta.read_text(encoding="utf-8", errors="replace"))
            name = str(message.get("Name", "")).lower().replace("-", "_")
            body = message.get_payload()
            text = body if isinstance(body, str) else ""
            if name and len(text) >= MIN_CHARS:
                out[name] = text
    return out


def npm_docs() -> dict[str, str]:
    """Package -> README.md, for the packages under tests/node/node_modules (scoped ones too)."""
    base = ROOT / "tests" / "node" / "node_modules"
    if not base.is_dir():
        base = Path(os.environ.get("MEMGIT_NODE_MODULES", "/nonexistent"))
    out: dict[str, str] = {}
    for readme in sorted(base.glob("*/README.md")) + sorted(base.glob("@*/*/README.md")):
        name = readme.parent.relative_to(base).as_posix().replace("/", "__")
        text = readme.read_text(encoding="utf-8", errors="replace")
        if len(text) >= MIN_CHARS:
            out[name] = text
    return out


def build(workdir: Path, docs: dict[str, str]) -> Path:
    """A git workspace of the documents under pkgs/, indexed with the configured model.

    A work folder from an earlier run is brought in line with the documents installed now (new
    ones written, changed ones rewritten, gone ones removed, and committed) before it is indexed:
    the corpora follow the virtualenv and tests/node/package-lock.json, so a folder built before
    either changed would otherwise be measured as the old corpus under the new questions."""
    ws = workdir
    pkgs = ws / "pkgs"
    if not (ws / ".git").is_dir():
        ws.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(ws)], check=True)
        (ws / "memgit.toml").write_text('[memory]\nextra_paths = ["pkgs/**/*.md"]\n', encoding="utf-8")
    pkgs.mkdir(exist_ok=True)
    wanted = {f"{name}.md": text for name, text in docs.items()}
    for stale in sorted(p for p in pkgs.glob("*.md") if p.name not in wanted):
        stale.unlink()
    for file_name, text in wanted.items():
        path = pkgs / file_name
        if not path.is_file() or path.read_bytes() != text.encode("utf-8"):
            path.write_text(text, encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid"}
    env |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid"}
    subprocess.run(["git", "add", "-A"], cwd=ws, check=True)
    if subprocess.run(["git", "diff", "--cached", "--quiet"], cwd=ws).returncode:
        subprocess.run(["git", "commit", "-qm", "corpus"], cwd=ws, check=True, env=env)
    subprocess.run([sys.executable, "-m", "memgit", "index", "-q"], cwd=ws, check=True)
    return ws


def fingerprint(docs: dict[str, str]) -> str:
    """Which documents were measured, in 12 hex digits: two runs compare only when these agree."""
    digest = hashlib.sha256()
    for name in sorted(docs):
        digest.update(f"{name}\0{hashlib.sha256(docs[name].encode('utf-8')).hexdigest()}\n".encode())
    return digest.hexdigest()[:12]


def rank_of(paths: list[str], target: str) -> int | None:
    seen: list[str] = []
    for path in paths:
        if path not in seen:
            seen.append(path)
    name = f"pkgs/{target}.md"
    return seen.index(name) + 1 if name in seen else None


def score(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    return {
        "top1": round(sum(1 for r in ranks if r == 1) / n, 3),
        "top5": round(sum(1 for r in ranks if r is not None and r <= 5) / n, 3),
        "n": len(ranks),
    }


def against_parts(ranks: dict[str, list[int | None]]) -> dict[str, dict[str, float | str]]:
    """Hybrid minus the better single mode, per cut-off, with its paired bootstrap 95 % interval
    (bench/stats.py): with ~35 questions one question is ~0.03, and an interval that holds 0 says
    the two are not told apart."""
    from bench.stats import paired_bootstrap

    out: dict[str, dict[str, float | str]] = {}
    for name, cut in (("top1", 1), ("top5", 5)):
        hit = {mode: [1.0 if r is not None and r <= cut else 0.0 for r in rs] for mode, rs in ranks.items()}
        best = max(("bm25", "vector"), key=lambda mode: sum(hit[mode]))
        diff, low, high = paired_bootstrap(hit["hybrid"], hit[best])
        out[name] = {"vs": best, "difference": round(diff, 3), "low": round(low, 3), "high": round(high, 3)}
    return out


Fusion = Callable[[dict[str, float], dict[str, float]], dict[str, float]]


def _minmax(scores: dict[str, float]) -> dict[str, float]:
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    return {k: (v - low) / (high - low) if high > low else 1.0 for k, v in scores.items()}


def variants() -> dict[str, Fusion]:
    """Offline fusions of per-file leg scores (best chunk of each file in each leg)."""
    out: dict[str, Fusion] = {}
    for w in (0.3, 0.5, 0.7):
        out[f"weighted v={w}"] = lambda t, v, w=w: {f: w * v.get(f, 0) + (1 - w) * t.get(f, 0) for f in {*t, *v}}
        out[f"minmax v={w}"] = lambda t, v, w=w: {f: w * _minmax(v).get(f, 0) + (1 - w) * t.get(f, 0) for f in {*t, *v}}

    def rrf(t: dict[str, float], v: dict[str, float]) -> dict[str, float]:
        out2: dict[str, float] = {}
        for leg in (t, v):
            for rank, f in enumerate(sorted(leg, key=lambda x: -leg[x]), start=1):
                out2[f] = out2.get(f, 0.0) + 1 / (60 + rank)
        return out2

    out["rrf k=60"] = rrf
    return out


def evaluate(ws: Path, questions: list[dict[str, str]], docs: dict[str, str], offline: bool) -> dict[str, Any]:
    from memgit.recall.request import SearchRequest
    from memgit.recall.search import Searcher
    from memgit.workspace import Workspace

    asked = [q for q in questions if q["target"] in docs]
    searcher = Searcher(Workspace.discover(ws), auto_index=False)
    ranks: dict[str, list[int | None]] = {"bm25": [], "vector": [], "hybrid": []}
    legs: list[tuple[dict[str, float], dict[str, float], str]] = []
    ran: set[str] = set()
    try:
        for q in asked:
            per_leg: dict[str, dict[str, float]] = {}
            for mode in ranks:
                result = searcher.search(q["q"], SearchRequest(k=K, mode=mode))
                ran.add(result.mode)
                ranks[mode].append(rank_of([h.path for h in result.hits], q["target"]))
                best: dict[str, float] = {}
                for h in result.hits:
                    value = h.text_score if mode == "bm25" else (h.vector_score or 0.0)
                    best[h.path] = max(best.get(h.path, 0.0), value)
                per_leg[mode] = best
            legs.append((per_leg["bm25"], per_leg["vector"], q["target"]))
    finally:
        searcher.close()
    report: dict[str, Any] = {"questions": len(asked), "documents": len(docs), "corpus": fingerprint(docs)}
    report["modes_ran"] = sorted(ran)
    report |= {mode: score(r) for mode, r in ranks.items()}
    report["hybrid_minus_best_part"] = against_parts(ranks)
    report["ranks"] = {"targets": [q["target"] for q in asked], **ranks}  # None: not in the hits
    if offline:
        report["variants"] = {
            name: score([rank_of(sorted(f(t, v), key=lambda p: -f(t, v)[p]), target) for t, v, target in legs])
            for name, f in variants().items()
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workdir", type=Path)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--variants", action="store_true", help="also score offline fusion variants")
    args = parser.parse_args(argv)
    questions = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    out = {}
    for corpus, docs in (("python", python_docs()), ("npm", npm_docs())):
        ws = build(args.workdir / corpus, docs)
        out[corpus] = evaluate(ws, questions[corpus], docs, args.variants)
        shown = {key: value for key, value in out[corpus].items() if key != "ranks"}  # ranks: --json
        print(json.dumps({corpus: shown}, indent=1), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
