"""`memgit.toml`: every key optional, defaults declared once, every problem reported at once.

The file is read with `tomllib`; unknown keys and wrong types are collected and raised together
as one `ConfigError` naming the file and each key, so a user fixes everything in one pass.
Sections owned by later stages (`lint`, `dream`, `site`) pass through as plain dicts and are
validated by their own modules.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memgit.errors import ConfigError

CONFIG_NAME = "memgit.toml"

# section -> key -> (default, allowed python types, help text)
DEFAULTS: dict[str, dict[str, tuple[Any, tuple[type, ...], str]]] = {
    "memory": {
        "extra_paths": ([], (list,), "extra in-repo globs that count as memory, e.g. \"notes/**/*.md\""),
        "sessions": (True, (bool,), "index sessions/*.jsonl transcripts (user and assistant text)"),
        "max_file_bytes": (5_000_000, (int,), "larger memory files are skipped with a warning"),
    },
    "embedding": {
        "provider": ("llama", (str,), "\"llama\" (local GGUF through llama-cpp-python) or \"none\" (BM25 only)"),
        "model": ("", (str,), "path to a GGUF embedding model; empty = the one `memgit model install` builds"),
        "threads": (2, (int,), "CPU threads used for embedding"),
    },
    "chunking": {
        "max_tokens": (160, (int,), "largest chunk, in model tokens (MiniLM reads at most 256)"),
        "overlap_tokens": (32, (int,), "tokens of overlap carried from one chunk into the next"),
        "chars_per_token": (4, (int,), "token estimate used when there is no embedding model"),
    },
    "search": {
        "k": (6, (int,), "hits returned by default"),
        "candidates_factor": (4, (int,), "each leg fetches k x this many candidates"),
        "vector_weight": (0.7, (float, int), "weight of the vector score in the hybrid merge"),
        "text_weight": (0.3, (float, int), "weight of the BM25 score in the hybrid merge"),
        "half_life_days": (30.0, (float, int), "temporal decay half-life for dated daily logs; 0 disables"),
        "decay_floor": (0.8, (float, int), "lowest decay multiplier, so old facts stay findable"),
        "mmr_lambda": (0.85, (float, int), "MMR relevance/diversity trade-off; 1 disables diversity"),
        "min_score": (0.0, (float, int), "hits scoring below this are dropped"),
        "bm25_max_term_share": (
            1.0,
            (float, int),
            "query words found in more than this share of chunks are left out of BM25 (1 keeps all)",
        ),
        "snippet_chars": (700, (int,), "longest hit text returned"),
        "auto_index": (True, (bool,), "bring the index up to HEAD before searching when it is behind"),
    },
}
PASS_THROUGH_SECTIONS = ("lint", "dream", "site", "hooks", "mcp")


@dataclass(frozen=True)
class MemoryConfig:
    extra_paths: tuple[str, ...] = ()
    sessions: bool = True
    max_file_bytes: int = 5_000_000


@dataclass(frozen=True)
class EmbeddingConfig:
    provider: str = "llama"
    model: str = ""
    threads: int = 2


@dataclass(frozen=True)
class ChunkingConfig:
    max_tokens: int = 160
    overlap_tokens: int = 32
    chars_per_token: int = 4


@dataclass(frozen=True)
class SearchConfig:
    k: int = 6
    candidates_factor: int = 4
    vector_weight: float = 0.7
    text_weight: float = 0.3
    half_life_days: float = 30.0
    decay_floor: float = 0.8
    mmr_lambda: float = 0.85
    min_score: float = 0.0
    bm25_max_term_share: float = 1.0
    snippet_chars: int = 700
    auto_index: bool = True


@dataclass(frozen=True)
class Config:
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    embedding: EmbeddingConfig = field(default_factory=EmbeddingConfig)
    chunking: ChunkingConfig = field(default_factory=ChunkingConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    lint: dict[str, Any] = field(default_factory=dict)
    dream: dict[str, Any] = field(default_factory=dict)
    site: dict[str, Any] = field(default_factory=dict)
    hooks: dict[str, Any] = field(default_factory=dict)
    mcp: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None


_SECTION_TYPES = {
    "memory": MemoryConfig,
    "embedding": EmbeddingConfig,
    "chunking": ChunkingConfig,
    "search": SearchConfig,
}


def load_config(root: Path) -> Config:
    """Read `<root>/memgit.toml` if present; raise one ConfigError listing every problem."""
    path = root / CONFIG_NAME
    if not path.is_file():
        return Config()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ConfigError([f"{path}: not valid UTF-8"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{path}: invalid TOML: {exc}"]) from None
    return parse_config(raw, path)


def parse_config(raw: dict[str, Any], path: Path | None = None) -> Config:
    """Validate a parsed TOML document against DEFAULTS (pure; used by tests too)."""
    where = str(path) if path else CONFIG_NAME
    problems: list[str] = []
    sections: dict[str, Any] = {}
    for name, value in raw.items():
        if name in PASS_THROUGH_SECTIONS:
            if not isinstance(value, dict):
                problems.append(f"{where}: [{name}] must be a table")
            else:
                sections[name] = dict(value)
            continue
        if name not in DEFAULTS:
            known = ", ".join(sorted([*DEFAULTS, *PASS_THROUGH_SECTIONS]))
            problems.append(f"{where}: unknown section [{name}] (known: {known})")
            continue
        if not isinstance(value, dict):
            problems.append(f"{where}: [{name}] must be a table")
            continue
        values: dict[str, Any] = {}
        for key, item in value.items():
            spec = DEFAULTS[name].get(key)
            if spec is None:
                known = ", ".join(sorted(DEFAULTS[name]))
                problems.append(f"{where}: unknown key {name}.{key} (known: {known})")
                continue
            default, types, _help = spec
            if isinstance(item, bool) and bool not in types:
                problems.append(f"{where}: {name}.{key} must be {_type_name(types)}, not a boolean")
                continue
            if not isinstance(item, types):
                problems.append(f"{where}: {name}.{key} must be {_type_name(types)}, got {item!r}")
                continue
            problem = _check_value(name, key, item)
            if problem:
                problems.append(f"{where}: {name}.{key} {problem}")
                continue
            values[key] = tuple(item) if isinstance(default, list) else item
        sections[name] = _SECTION_TYPES[name](**values)
    if problems:
        raise ConfigError(problems)
    return Config(**sections, source=path)


def _type_name(types: tuple[type, ...]) -> str:
    if float in types:
        return "a number"
    names = {bool: "true or false", int: "an integer", str: "a string", list: "a list"}
    return " or ".join(dict.fromkeys(names[t] for t in types if t in names))


def _check_value(section: str, key: str, value: Any) -> str | None:
    if section == "embedding" and key == "provider" and value not in ("llama", "none"):
        return f"must be \"llama\" or \"none\", got {value!r}"
    if key == "extra_paths":
        for item in value:
            if not isinstance(item, str) or not item:
                return "must be a list of non-empty strings"
            if item.startswith("/") or ".." in item.split("/"):
                return f"entry {item!r} must be a relative path inside the repository"
    if key in ("max_tokens", "k", "candidates_factor", "snippet_chars", "chars_per_token", "threads") and value < 1:
        return "must be at least 1"
    if key == "max_tokens" and value > 256:
        return "must be at most 256 (the embedding model reads at most 256 tokens)"
    if key == "overlap_tokens" and value < 0:
        return "must not be negative"
    if key in ("vector_weight", "text_weight", "decay_floor", "mmr_lambda", "bm25_max_term_share") and not 0 <= value <= 1:
        return "must be between 0 and 1"
    if key == "half_life_days" and value < 0:
        return "must not be negative"
    return None


def default_config_text() -> str:
    """The commented `memgit.toml` that `memgit init` writes: every key, commented out."""
    lines = [
        "# memgit configuration. Every key is optional; the values shown are the defaults.",
        "# Uncomment a line to change it. Docs: docs/CONFIG.md",
        "",
    ]
    for section, keys in DEFAULTS.items():
        lines.append(f"[{section}]")
        for key, (default, _types, help_text) in keys.items():
            lines.append(f"# {help_text}")
            lines.append(f"# {key} = {_toml_value(default)}")
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


def config_reference_markdown() -> str:
    """docs/CONFIG.md, generated from DEFAULTS so the docs cannot drift (a test compares them)."""
    out = [
        "# memgit.toml reference",
        "",
        "Every key is optional. `memgit init` writes this file with every key commented out.",
        "Unknown keys and wrong types are errors, all reported at once with the file and key.",
        "Environment overrides: `MEMGIT_EMBEDDING=none` forces BM25 only; `MEMGIT_MODEL=PATH` picks",
        "a GGUF model; `MEMGIT_CACHE_DIR` moves the model cache (default `~/.cache/memgit`).",
        "",
    ]
    for section, keys in DEFAULTS.items():
        out += [f"## [{section}]", "", "| key | default | meaning |", "|---|---|---|"]
        for key, (default, _types, help_text) in keys.items():
            out.append(f"| `{key}` | `{_toml_value(default)}` | {help_text} |")
        out.append("")
    out += [
        "## Other sections",
        "",
        "`[lint]` is read by `memgit lint` (see docs/HOOKS.md). `[dream]`, `[site]`, `[hooks]` and",
        "`[mcp]` are reserved for their commands and passed to them as written.",
        "",
    ]
    return "\n".join(out)
