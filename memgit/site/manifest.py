"""The incremental build manifest, kept per output folder in `.git/memgit/site/`.

It records, for one output folder and one set of build options (the global key: memgit version,
template hash, scope, base URL, settings), each page's input key and the digest of the bytes
written, plus per-blob summaries and per-file history rows so a rebuild reads only what changed.
A manifest whose global key differs is ignored: the next build renders every page again.

It is stored with `marshal`, not JSON: at 2,000 notes it is ~1.7 MB, and reading and writing it
as JSON was a sixth of a one-file rebuild (~25 ms of ~160); marshal does both in a third of the
time. It is a cache of plain dicts, lists and strings tagged with the Python version and the
marshal format; a file written by another Python, or damaged, is ignored like a stale one.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memgit.core.atomic import atomic_write
from memgit.errors import MemgitError
from memgit.site.output import is_safe_relative

VERSION = 5
#: What a stored manifest must have been written by: marshal's format follows the Python version.
FORMAT = (VERSION, sys.version_info[:2], marshal.version)


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
    sizes: dict[str, int] = field(default_factory=dict)  # url -> bytes written (the report's site size)
    dreams: dict[str, list[str]] = field(default_factory=dict)  # merged dream tip -> memgit's commits on it
    images: dict[str, str] = field(default_factory=dict)  # picture blob -> its type by its bytes ("" none)
    refused: list[list[str]] = field(default_factory=list)  # [template and line, why] the sandbox refused


def manifest_path(data_dir: Path, out: str) -> Path:
    name = hashlib.sha256(out.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return data_dir / "site" / f"{name}.manifest"


def load(data_dir: Path, out: str, global_key: str) -> Manifest:
    path = manifest_path(data_dir, out)
    try:
        stored = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return Manifest(global_key=global_key)
    if not isinstance(stored, tuple) or len(stored) != 2 or stored[0] != FORMAT or not isinstance(stored[1], dict):
        return Manifest(global_key=global_key)
    raw: dict[str, Any] = stored[1]
    if raw.get("version") != VERSION or raw.get("out") != out:
        return Manifest(global_key=global_key)
    if raw.get("global_key") != global_key:  # summaries depend on settings too: start over
        return Manifest(global_key=global_key)
    summaries = raw.get("summaries", {})
    pages = raw.get("pages", {})
    unsafe = _unsafe_url(raw)
    if unsafe is not None:
        raise MemgitError(
            f"the site manifest {path} names {str(unsafe)[:120]!r}, a path outside the output folder; "
            "nothing was written: delete that file and build again"
        )
    return Manifest(
        global_key=global_key,
        commit=raw.get("commit"),
        pages={url: (v[0], v[1]) for url, v in pages.items()},
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
        sizes=raw.get("sizes", {}),
        dreams=raw.get("dreams", {}),
        images=raw.get("images", {}),
        refused=raw.get("refused", []),
    )


def _unsafe_url(raw: dict[str, Any]) -> str | None:
    """The first page path the manifest names that is not a plain path inside the output folder
    (a damaged or planted manifest must not make a build write or remove anything elsewhere)."""
    named: list[Any] = list(raw.get("pages") or {})
    for value in (raw.get("by_path") or {}).values():
        named += value[1] if isinstance(value, list) and len(value) > 1 and isinstance(value[1], list) else []
    concepts = raw.get("concepts") or {}
    named += (concepts.get("urls") or []) if isinstance(concepts, dict) else []
    return next((str(u) for u in named if not isinstance(u, str) or not is_safe_relative(u)), None)


def save(data_dir: Path, out: str, mf: Manifest, state: dict[str, Any]) -> None:
    """Keep the manifest; `state` is what the build's inputs and planner keep for the next build
    (summaries, logs, blame, trailers, by_path, concepts, memory_refs, written, superseded, heat,
    redactions, dreams, images: see `pages.Planner.manifest_state`)."""
    path = manifest_path(data_dir, out)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "version": VERSION,
        "out": out,
        "global_key": mf.global_key,  # the key it was loaded under (the site's may add its template headings)
        "commit": mf.commit,
        "pages": {url: list(v) for url, v in sorted(mf.pages.items())},
        **state,
        "sizes": mf.sizes,
        "refused": mf.refused,
    }
    atomic_write(path, marshal.dumps((FORMAT, data)), durable=False)
    path.with_suffix(".json").unlink(missing_ok=True)  # what versions before 4 wrote
