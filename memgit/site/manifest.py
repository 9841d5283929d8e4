"""The incremental build manifest, kept per output folder in `.git/memgit/site/`.

It records, for one output folder and one set of build options (the global key: memgit version,
template hash, scope, base URL, settings), each page's input key and the digest of the bytes
written, plus per-blob summaries and per-file history rows so a rebuild reads only what changed.
A manifest whose global key differs is ignored: the next build renders every page again.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

VERSION = 3


@dataclass
class Manifest:
    global_key: str = ""
    commit: str | None = None
    pages: dict[str, tuple[str, str]] = field(default_factory=dict)
    summaries: dict[str, dict] = field(default_factory=dict)  # blob -> Summary.to_json() + digest "d"
    logs: dict[str, list[dict[str, str]]] | None = None
    blame: dict | None = None
    trailers: list[dict] | None = None
    by_path: dict[str, list] = field(default_factory=dict)  # path -> [blob, [urls of its pages]]
    concepts: dict = field(default_factory=dict)  # {"key": ..., "urls": [...]}
    memory_refs: dict = field(default_factory=dict)  # {"blob": MEMORY.md blob, "entries": [...]}
    written: dict = field(default_factory=dict)  # reference -> who wrote its lines (blame at its commit)
    superseded: dict = field(default_factory=dict)  # supersede commit -> the text it replaced
    heat: dict = field(default_factory=dict)  # recall ledger blob -> {path: {line: count}}
    redactions: dict[str, list] = field(default_factory=dict)  # blob -> [[line, rule]] redacted in it


def manifest_path(data_dir: Path, out: str) -> Path:
    name = hashlib.sha256(out.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return data_dir / "site" / f"{name}.json"


def load(data_dir: Path, out: str, global_key: str) -> Manifest:
    path = manifest_path(data_dir, out)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Manifest(global_key=global_key)
    if raw.get("version") != VERSION or raw.get("out") != out:
        return Manifest(global_key=global_key)
    if raw.get("global_key") != global_key:  # summaries depend on settings too: start over
        return Manifest(global_key=global_key)
    summaries = raw.get("summaries", {})
    return Manifest(
        global_key=global_key,
        commit=raw.get("commit"),
        pages={url: (v[0], v[1]) for url, v in raw.get("pages", {}).items()},
        summaries=summaries,
        logs=raw.get("logs"),
        blame=raw.get("blame"),
        trailers=raw.get("trailers"),
        by_path=raw.get("by_path", {}),
        concepts=raw.get("concepts", {}),
        memory_refs=raw.get("memory_refs", {}),
        written=raw.get("written", {}),
        superseded=raw.get("superseded", {}),
        heat=raw.get("heat", {}),
        redactions=raw.get("redactions", {}),
    )


def save(data_dir: Path, out: str, mf: Manifest, site: Any) -> None:
    path = manifest_path(data_dir, out)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "version": VERSION,
        "out": out,
        "global_key": site.global_key,
        "commit": mf.commit,
        "pages": {url: list(v) for url, v in sorted(mf.pages.items())},
        "summaries": site.blob_records,
        "logs": site.logs,
        "blame": site.blame_cache,
        "trailers": site.trailers,
        "by_path": site.by_path,
        "concepts": site.concepts_state,
        "memory_refs": site.memory_refs_state,
        "written": site.written_state,
        "superseded": site.superseded_state,
        "heat": site.heat_state,
        "redactions": site.kept_redactions(),
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    os.replace(tmp, path)
