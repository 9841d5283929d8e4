"""What an MCP session accepts: the `[mcp]` options, argument limits and the path filter.

Kept apart from the service so the limits the SDK advertises to agents and the checks the
service applies are the same numbers, read from one place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from memgit.config import McpConfig
from memgit.errors import PathRefused

#: Largest query accepted; longer text is not a query.
MAX_QUERY_CHARS = 2000
#: Largest `k` offered to agents (the library allows more; a context window does not).
MAX_TOOL_K = 50
#: Largest `lines` for one memory_get.
MAX_GET_LINES = 500


ServerOptions = McpConfig


#: What a group session never sees: curated, personal memory (as `memgit context --scope group`).
PRIVATE_FILES = ("MEMORY.md", "USER.md")


def server_options(config: McpConfig, *, read_only: bool = False, group: bool = False) -> McpConfig:
    """`[mcp]` from memgit.toml, already validated by the schema; the flags can only tighten."""
    if read_only:
        config = dataclasses.replace(config, read_only=True)
    if group:
        config = dataclasses.replace(config, scope="group")
    return config


def path_filter(user_filter: str | None, *, is_dir: Callable[[str], bool] = lambda _p: False) -> str | None:
    """An agent's path filter -> a glob for the searcher: a file, a directory, or a glob."""
    if user_filter is None or not user_filter.strip():
        return None
    value = user_filter.strip().replace("\\", "/")
    while value.startswith("./"):
        value = value[2:]
    if value.startswith("/") or ".." in value.split("/") or "\x00" in value:
        raise PathRefused(
            f"refusing path filter {user_filter!r}: use a workspace-relative path or glob, "
            "e.g. memory/ or memory/2026-02-*.md"
        )
    if not any(ch in value for ch in "*?[") and (value.endswith("/") or is_dir(value)):
        value = value.rstrip("/") + "/**"
    return value
