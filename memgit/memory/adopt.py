"""`memgit init --adopt` and the one-line notice without it: a repository whose Markdown lies mostly
outside the memory paths is said to be so by `init`, `index`, `status` and `search`, with the fix;
`--adopt` writes globs for that Markdown into memgit.toml and says what will be indexed and about
how long embedding it takes (the pure part is `memgit.core.adoption`).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from memgit.config import CONFIG_NAME
from memgit.core.adoption import Coverage, adopt_globs, coverage, is_markdown, is_vendored
from memgit.core.atomic import temp_path
from memgit.errors import MemgitError
from memgit.workspace import Workspace

#: Chunks MiniLM (q8, 2 threads) embeds a second here, for the estimate (docs/PERFORMANCE.md).
EMBED_CHUNKS_PER_SECOND = 9.0
_CACHE_NAME = "markdown-coverage.json"


@dataclass(frozen=True)
class AdoptPlan:
    globs: list[str]
    files: int  # Markdown files the globs add to the index
    chars: int
    chunks: int  # estimated
    embed_seconds: float | None  # estimated; None without an embedding model


def tree_paths(ws: Workspace, tree: str | None = None) -> list[str]:
    """The files of `tree` (HEAD's by default), or of the work tree before a first commit."""
    tree = tree or ws.git.head_ids()[1]
    if tree:
        return list(ws.git.entries(tree))
    return ws.git.worktree_files()


def markdown_coverage(ws: Workspace, tree: str | None = None) -> Coverage:
    return coverage(tree_paths(ws, tree), ws.is_memory_path)


def notice_for(cov: Coverage) -> str | None:
    if not cov.mostly_outside:
        return None
    return (
        f"{len(cov.outside)} of {cov.markdown} Markdown files are outside the indexed paths (MEMORY.md, "
        "memory/**, [memory] extra_paths), so search cannot find them; `memgit init --adopt` adds globs "
        "for them to memgit.toml and indexes them"
    )


def coverage_notice(ws: Workspace, tree: str | None = None, *, fresh: bool = False) -> str | None:
    """The notice for `tree` (HEAD's by default), remembered beside the index per memory
    settings: a search or an incremental `memgit index` pays one small read, not a listing of
    the tree. A notice that was shown is counted again for each new tree (its figures follow the
    commits); a repository with nothing to say is listed again only by `fresh` callers (init,
    status, a full build), so a one-file commit's update pays nothing (a listing is ~17 ms at
    2,000 files). A memgit.toml that sets `[memory] extra_paths` chose what to index: nothing is
    suggested then."""
    memory = ws.config.memory
    if memory.extra_paths:
        return None
    tree = tree or ws.git.head_ids()[1]
    key = [list(memory.extra_paths), memory.sessions]
    cache = ws.data_dir / _CACHE_NAME
    if not fresh:
        try:
            saved = json.loads(cache.read_text(encoding="utf-8"))
            kept = saved.get("notice")
            if saved.get("key") == key and (kept is None or saved.get("tree") == tree):
                return kept if isinstance(kept, str) else None
        except (OSError, ValueError, AttributeError):
            pass
    notice = notice_for(markdown_coverage(ws, tree))
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"key": key, "tree": tree, "notice": notice}), encoding="utf-8")
    except OSError:
        pass  # only a cache
    return notice


def plan_adoption(ws: Workspace, *, embedding: bool) -> AdoptPlan:
    """Globs for the Markdown that is there, and what indexing it will cost."""
    paths = tree_paths(ws)
    globs = adopt_globs(paths)
    added = [p for p in paths if is_markdown(p) and not is_vendored(p) and not ws.is_memory_path(p)]
    chunking = ws.config.chunking
    step = max(1, (chunking.max_tokens - chunking.overlap_tokens) * chunking.chars_per_token)
    chars = chunks = 0
    for path in added:
        try:
            data = (ws.root / path).read_bytes()
        except OSError:
            continue
        # A section starts a chunk: a file makes about as many as it has headings, or as its
        # size makes at the chunk step, whichever is more.
        headings = data.count(b"\n#") + data.startswith(b"#")
        chars += len(data)
        chunks += max(1, headings, math.ceil(len(data) / step))
    seconds = chunks / EMBED_CHUNKS_PER_SECOND if embedding else None
    return AdoptPlan(globs=globs, files=len(added), chars=chars, chunks=chunks, embed_seconds=seconds)


_ACTIVE_EXTRA = re.compile(r"^\s*extra_paths\s*=", re.MULTILINE)
_MEMORY_TABLE = re.compile(r"^\s*\[memory\]\s*(?:#.*)?$", re.MULTILINE)


def write_globs(root: Path, globs: list[str]) -> None:
    """Set `[memory] extra_paths` in memgit.toml (created with every key commented when absent);
    a file that already sets it is left alone with the globs to add in the error."""
    from memgit.config import default_config_text, load_config_file

    path = root / CONFIG_NAME
    text = path.read_text(encoding="utf-8") if path.is_file() else default_config_text()
    line = "extra_paths = [" + ", ".join(json.dumps(g) for g in globs) + "]\n"
    if _ACTIVE_EXTRA.search(text):
        raise MemgitError(
            f"{CONFIG_NAME} already sets [memory] extra_paths; add the globs there yourself: {line.strip()}"
        )
    table = _MEMORY_TABLE.search(text)
    if table is not None:
        at = table.end() + 1
        text = text[:at] + "# written by `memgit init --adopt`: the Markdown in this repository\n" + line + text[at:]
    else:
        text = text.rstrip("\n") + "\n\n[memory]\n" + line
    tmp = temp_path(path)  # checked before it replaces the file
    tmp.write_text(text, encoding="utf-8")
    written = load_config_file(tmp)  # never leave a memgit.toml that does not load, or without the globs
    if written.broken or written.memory.extra_paths != tuple(globs):
        tmp.unlink()
        raise MemgitError(
            f"{CONFIG_NAME} could not take [memory] extra_paths ({written.broken or 'the globs did not read back'}); "
            f"add them yourself: {line.strip()}"
        )
    tmp.replace(path)
