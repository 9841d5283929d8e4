"""Health checks, each with the fix when something is wrong."""

from __future__ import annotations

import platform
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from memgit import __version__


@dataclass
class Check:
    name: str
    status: str  # ok | warn | error
    detail: str
    fix: str | None = None


def run_checks(start: Path) -> list[Check]:
    checks: list[Check] = [Check("memgit", "ok", f"memgit {__version__}, Python {platform.python_version()}")]
    checks.extend(_sqlite_checks())
    from memgit.errors import MemgitError
    from memgit.workspace import Workspace

    try:
        ws = Workspace.discover(start)
    except MemgitError as exc:
        checks.append(Check("workspace", "error", str(exc), "run `memgit init` in your memory repository"))
        checks.append(_model_check(None))
        return checks
    checks.append(Check("workspace", "ok", f"{ws.root} (config: {ws.config.source or 'defaults'})"))
    checks.extend(config_checks(ws.config))
    checks.append(_model_check(ws))
    checks.append(_index_check(ws))
    return checks


def config_checks(config: Any) -> list[Check]:
    """memgit.toml: one check per problem, each with its fix (the file and line are in the detail)."""
    if config.broken:
        return [
            Check(
                "memgit.toml",
                "error",
                f"{config.broken}: every setting is at its default; search, get and context go on, "
                "commands that write memory, the index or a site wait",
                "correct the TOML at that line (docs/CONFIG.md shows each key's form), then run `memgit doctor` again",
            )
        ]
    if not config.warnings:
        return [
            Check("memgit.toml", "ok", "every key is known and valid" if config.source else "no memgit.toml: defaults")
        ]
    fix = "edit or remove that key at that line (docs/CONFIG.md lists every key, its type and its range)"
    return [Check("memgit.toml", "warn", warning, fix) for warning in config.warnings]


def _sqlite_checks() -> list[Check]:
    from memgit.index.store import backend, fts5_problem, vec_status

    b = backend()
    version = b.module.sqlite_version
    out = [Check("sqlite", "ok", f"module {b.name}, SQLite {version}")]
    fts5 = fts5_problem()
    if fts5 is None:
        out.append(Check("fts5", "ok", "FTS5 available"))
    else:
        out.append(Check("fts5", "error", f"FTS5 unavailable: {fts5}", "pip install sqlean.py"))
    version, problem = vec_status()
    if version:
        out.append(
            Check("sqlite-vec", "ok", f"sqlite-vec {version} loads: the index keeps its vec0 table (docs/SQL.md)")
        )
    else:
        out.append(
            Check(
                "sqlite-vec",
                "warn",
                f"sqlite-vec does not load ({problem}); search does not need it, but the vec0 table "
                "(chunks_vec) waits until a memgit that loads it runs `memgit index`",
                "pip install sqlean.py sqlite-vec",
            )
        )
    return out


def _model_check(ws: Any) -> Check:
    from memgit.embed.providers import open_embedder

    provider = ws.config.embedding.provider if ws else "llama"
    model = (ws.config.embedding.model or None) if ws else None
    embedder, notice = open_embedder(provider, model)
    if embedder is None:
        fix = "run `memgit model install`" if "memgit model install" in (notice or "") else None
        return Check("embedding", "warn", notice or "no embedding model", fix)
    return Check("embedding", "ok", f"{embedder.model_id} (dim {embedder.dim}, max {embedder.max_tokens} tokens)")


def _index_check(ws: Any) -> Check:
    from memgit.index.status import index_status

    try:
        status = index_status(ws)
    except Exception as exc:
        return Check("index", "error", f"cannot read the index: {exc}", "run `memgit index --full`")
    if status["needs_full_rebuild"]:
        return Check("index", "warn", status["needs_full_rebuild"], "run `memgit index`")
    counts = status["counts"]
    detail = (
        f"{counts.get('files', 0)} files, {counts.get('chunks', 0)} chunks, "
        f"{counts.get('vectors', 0)} vectors, model {status['model_id'] or 'none (BM25 only)'}"
    )
    if status.get("vec0", {}).get("waiting"):
        return Check(
            "index",
            "warn",
            f"{detail}; the vec0 table (chunks_vec) is behind the chunks",
            "run `memgit index` where sqlite-vec loads",
        )
    if status.get("pending_vectors"):
        return Check(
            "index",
            "warn",
            f"{detail}; {status['pending_vectors']} vectors pending",
            "run `memgit index` with the model",
        )
    if status["pending"]:
        return Check(
            "index", "warn", f"{detail}; {len(status['pending'])} changed files not indexed", "run `memgit index`"
        )
    if status["skipped"]:
        skipped = ", ".join(f"{s['path']} ({s['reason']})" for s in status["skipped"][:3])
        return Check("index", "warn", f"{detail}; skipped: {skipped}", "fix or remove those files")
    return Check("index", "ok", f"{detail}; up to date with HEAD")


def checks_to_dict(checks: list[Check]) -> dict[str, Any]:
    return {"ok": all(c.status != "error" for c in checks), "checks": [asdict(c) for c in checks]}
