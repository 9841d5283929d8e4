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

from memgit.site.models import Summary

VERSION = 1


@dataclass
class Manifest:
    global_key: str = ""
    commit: str | None = None
    pages: dict[str, tuple[str, str]] = field(default_factory=dict)
    summaries: dict[str, Summary] = field(default_factory=dict)
    logs: dict[str, list[dict[str, str]]] | None = None
    blame: dict | None = None
    trailers: list[dict] | None = None


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
    summaries = {blob: Summary.from_json(s) for blob, s in raw.get("summaries", {}).items()}
    return Manifest(global_key=global_key, commit=raw.get("commit"),
                    pages={url: (v[0], v[1]) for url, v in raw.get("pages", {}).items()},
                    summaries=summaries, logs=raw.get("logs"), blame=raw.get("blame"),
                    trailers=raw.get("trailers"))


def save(data_dir: Path, out: str, mf: Manifest, site: Any) -> None:
    path = manifest_path(data_dir, out)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "version": VERSION,
        "out": out,
        "global_key": site.global_key,
        "commit": mf.commit,
        "pages": {url: list(v) for url, v in sorted(mf.pages.items())},
        "summaries": {blob: s.to_json() for blob, s in sorted(site.blob_summaries.items())},
        "logs": site.logs,
        "blame": site.blame_cache,
        "trailers": site.trailers,
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    os.replace(tmp, path)
