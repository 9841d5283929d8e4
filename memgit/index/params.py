"""What the stored chunks are a function of, besides the tree: settings and memgit's own rules.

The index records these parameters; when they differ from what this memgit would use, the index
is rebuilt and the reason announced. They come from `memgit.toml` and from memgit itself, never
from the process (which libraries loaded, environment variables): two environments indexing
the same tree with the same config write the same chunks.
"""

from __future__ import annotations

from typing import Any

from memgit.index.store import SCHEMA_VERSION
from memgit.workspace import Workspace

#: Version of the indexing rules: chunking, FTS text, transcript parsing, daily-date rules,
#: default memory paths, path storage. Bump it with any change to them; an index written under
#: another version is rebuilt, with that reason shown.
#: 2: chunk boundaries counted by characters only, headings found by markdown-it, lossless paths.
#: 3: a line longer than a chunk is split into pieces with character ranges (was one huge chunk).
#: 4: YAML front matter is not chunked (hits were raw YAML); headings found by cmark.
ALGORITHM_VERSION = 4


def index_params(ws: Workspace) -> dict[str, Any]:
    """Everything whose change makes the stored chunks stale."""
    chunking = ws.config.chunking
    memory = ws.config.memory
    embedding = ws.config.embedding
    return {
        "schema": SCHEMA_VERSION,
        "algorithm": ALGORITHM_VERSION,
        "chunking": {
            "max_tokens": chunking.max_tokens,
            "overlap_tokens": chunking.overlap_tokens,
            "chars_per_token": chunking.chars_per_token,
        },
        "memory": {
            "extra_paths": list(memory.extra_paths),
            "sessions": memory.sessions,
            "max_file_bytes": memory.max_file_bytes,
        },
        "embedding": {"provider": embedding.provider, "model": embedding.model or ""},
    }


def describe_param_change(old: dict[str, Any] | None, new: dict[str, Any]) -> str:
    """Why a rebuild is due, in words a user recognises."""
    if not old:
        return "new index"
    if old.get("schema") != new["schema"]:
        return f"index schema changed ({old.get('schema')} -> {new['schema']})"
    if old.get("algorithm") != new["algorithm"]:
        return (
            f"memgit's indexing rules changed (version {old.get('algorithm', 1)} -> {new['algorithm']}) "
            "with this upgrade"
        )
    if old.get("embedding") != new["embedding"]:
        return "embedding settings changed in memgit.toml"
    if old.get("chunking") != new["chunking"]:
        return "chunking settings changed"
    if old.get("memory") != new["memory"]:
        return "memory path settings changed"
    return "index settings changed"
