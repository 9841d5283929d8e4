"""`memgit status`: what the index reflects, what is pending, what was skipped, what is due."""

from __future__ import annotations

import json
from typing import Any

from memgit.core.paths import path_key
from memgit.git import trees
from memgit.index.layout import cache_path, index_path
from memgit.index.params import describe_param_change, index_params
from memgit.index.store import CorruptIndex, IndexUnavailable, Store
from memgit.workspace import Workspace


def configured_model(ws: Workspace) -> str | None:
    """The model `memgit.toml` asks for, by name, without loading it (status before any index,
    or of a BM25-only one): "none" when the provider is none."""
    from memgit.embed.providers import chosen_provider

    cfg = ws.config.embedding
    provider = chosen_provider(cfg.provider)
    if provider == "none":
        return "none"
    from memgit.embed.models import resolve_model_path

    return resolve_model_path(cfg.model or None).name


def _has_tree(ws: Workspace) -> bool:
    try:
        store = Store(index_path(ws), None, readonly=True, busy_timeout=0.5)
    except (CorruptIndex, IndexUnavailable):
        return False
    try:
        return "tree" in store.meta()
    finally:
        store.close()


def index_status(ws: Workspace) -> dict[str, Any]:
    commit, tree = ws.git.head_ids()
    head_tree = tree or trees.EMPTY_TREE
    out: dict[str, Any] = {
        "workspace": str(ws.root),
        "index": str(index_path(ws)),
        "head_commit": commit,
        "head_tree": head_tree,
        "indexed_tree": None,
        "indexed_commit": None,
        "model_id": None,
        "pending": [],
        "pending_vectors": 0,
        "up_to_date": False,
        "needs_full_rebuild": None,
        "counts": {},
        "worktree_overlay": [],
        "skipped": [],
        "vec0": {"table": None, "dim": None, "waiting": False},
        # memgit.toml of the work tree, the kept copy of the last committed one (a checkout of a
        # commit without one), or the defaults
        "settings": ws.settings_source,
    }
    from memgit.index.fill import running_fill
    from memgit.index.lock import index_busy

    out["fill"] = running_fill(ws)  # a fill embedding pending vectors now (pid, total, filled, times)
    out["model_configured"] = configured_model(ws)
    if not index_path(ws).exists() or (index_busy(ws) and not _has_tree(ws)):
        building = index_busy(ws)
        out["needs_full_rebuild"] = (
            "the first index is being written by another memgit run (its text first: search works when it is in)"
            if building
            else "no index yet; run `memgit index`"
        )
        out["pending"] = sorted(p for p in ws.git.entries(head_tree) if ws.is_memory_path(p))
        return out
    try:
        store = Store(index_path(ws), cache_path(ws), readonly=True, busy_timeout=ws.config.index.busy_timeout)
    except CorruptIndex as exc:
        out["needs_full_rebuild"] = f"{exc}; run `memgit index`"
        return out
    except IndexUnavailable as exc:
        out["needs_full_rebuild"] = None
        out["error"] = str(exc)
        return out
    try:
        meta = store.meta()
        out["indexed_tree"] = meta.get("tree")
        out["indexed_commit"] = meta.get("commit")
        out["model_id"] = meta.get("model_id") or None
        out["counts"] = store.counts()
        out["pending_vectors"] = out["counts"].get("pending_vectors", 0)
        dim = store.vec.dim()
        out["vec0"] = {"table": "chunks_vec" if dim else None, "dim": dim, "waiting": store.vec.waiting()}
        files = store.files()
        out["worktree_overlay"] = sorted(path_key(p) for p, f in files.items() if f[2] == "worktree")
        out["skipped"] = [{"path": path_key(p), "reason": f[3]} for p, f in sorted(files.items()) if f[3]]
        old_params = json.loads(meta["params"]) if "params" in meta else None
    finally:
        store.close()
    params = index_params(ws)
    indexed = out["indexed_tree"]
    if old_params != params:
        out["needs_full_rebuild"] = f"{describe_param_change(old_params, params)}; run `memgit index`"
    if indexed and not ws.git.tree_exists(indexed):
        out["needs_full_rebuild"] = "the indexed tree is no longer in the repository"
    elif indexed != head_tree:
        changed = ws.git.diff_paths(indexed, head_tree)
        out["pending"] = sorted(path_key(p) for p in changed if ws.is_memory_path(p))
    out["up_to_date"] = indexed == head_tree and not out["worktree_overlay"] and not out["needs_full_rebuild"]
    return out
