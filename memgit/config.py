"""`memgit.toml`: one typed schema, every key optional, every problem reported at once.

A bad file degrades, never disables: a key that is unknown, of the wrong type or out of range is
one warning naming its line, and that key keeps its default; a file that is not TOML at all (or
not UTF-8) is one problem naming its line, every key keeps its default, and `Config.broken` says
so, for the commands that write memory, the index or a site to refuse while read-only ones go on.

Each section is a frozen dataclass; each key is a field declared with `setting()`, which carries its
help text and its limits. Validation, the commented file `memgit init` writes and docs/CONFIG.md are
all derived from these declarations, so a key cannot be documented, defaulted or checked in two
places that drift apart. A later stage adds its section by declaring one more dataclass here and
listing it in `SECTIONS`.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memgit.core.toml_lines import digits_line, key_line, toml_error_line
from memgit.errors import ConfigError

CONFIG_NAME = "memgit.toml"

Check = Callable[[Any], str | None]

# Ceilings (`cap=`) for quantities that have no natural end. Generous, yet small enough that no date,
# timer, buffer size or C integer computed from a setting can overflow: a typo such as
# `max_age_days = 999999999` is a config problem naming the key, never a crash deep inside a command.
#: Day counts: 100 years, so `today - timedelta(days=...)` stays a valid date.
DAYS = 36_500
#: Seconds: a day, within what thread waits take and what SQLite's busy timeout (milliseconds, a C int) holds.
SECONDS = 86_400
#: Sizes in bytes: a gigabyte.
BYTES = 1_000_000_000
#: Memory budgets in MB: a terabyte.
MEGABYTES = 1_000_000
#: Characters, tokens and counts of things.
COUNT = 1_000_000
#: Largest `k` a search accepts, from the config or the command line (`memgit.recall.search`).
MAX_K = 200


def setting(
    default: Any,
    help: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    cap: float | None = None,
    choices: tuple[str, ...] | None = None,
    check: Check | None = None,
) -> Any:
    """Declare one key: its default, what it means, and the limits its value must respect.

    A number needs a `minimum` and an upper limit: `maximum`, the end of the range the value means
    something in (a share between 0 and 1, the model's 256 tokens), or `cap`, a plausibility ceiling
    for a quantity with no natural end (one of DAYS, SECONDS, ... above). Both are enforced alike;
    they differ only in how a float outside them is reported ("between 0 and 1" vs "at most 36500").
    """
    numeric = isinstance(default, int | float) and not isinstance(default, bool)
    if numeric and (minimum is None or (maximum is None) == (cap is None)):  # pragma: no cover - schema authoring error
        raise TypeError("a numeric setting needs a minimum and exactly one of maximum= or cap=")
    metadata = {"help": help, "minimum": minimum, "maximum": maximum, "cap": cap, "choices": choices, "check": check}
    if isinstance(default, dict):
        return field(default_factory=lambda: dict(default), metadata=metadata)
    return field(default=default, metadata=metadata)


def _relative_globs(value: tuple[str, ...]) -> str | None:
    for item in value:
        if not item:
            return "must be a list of non-empty strings"
        if item.startswith("/") or ".." in item.split("/"):
            return f"entry {item!r} must be a relative path inside the repository"
        from memgit.core.paths import glob_to_regex
        from memgit.errors import BadPattern

        try:
            glob_to_regex(item)
        except BadPattern as exc:
            return str(exc)
    return None


# ------------------------------------------------------------------------------------ sections


@dataclass(frozen=True)
class MemoryConfig:
    extra_paths: tuple[str, ...] = setting(
        (), 'extra in-repo globs that count as memory, e.g. "notes/**/*.md"', check=_relative_globs
    )
    sessions: bool = setting(True, "index sessions/*.jsonl transcripts (user and assistant text)")
    max_file_bytes: int = setting(5_000_000, "larger memory files are skipped with a warning", minimum=1, cap=BYTES)


@dataclass(frozen=True)
class EmbeddingConfig:
    provider: str = setting(
        "llama",
        '"llama" (local GGUF through llama-cpp-python) or "none" (BM25 only)',
        choices=("llama", "none"),
    )
    model: str = setting("", "path to a GGUF embedding model; empty = the one `memgit model install` builds")
    threads: int = setting(2, "CPU threads used for embedding", minimum=1, cap=1024)


@dataclass(frozen=True)
class ChunkingConfig:
    max_tokens: int = setting(160, "largest chunk, in model tokens (MiniLM reads at most 256)", minimum=1, maximum=256)
    overlap_tokens: int = setting(32, "tokens of overlap carried from one chunk into the next", minimum=0, maximum=256)
    chars_per_token: int = setting(4, "token estimate used when there is no embedding model", minimum=1, cap=100)


@dataclass(frozen=True)
class SearchConfig:
    k: int = setting(6, "hits returned by default", minimum=1, maximum=MAX_K)
    candidates_factor: int = setting(4, "each leg fetches k x this many candidates", minimum=1, cap=1000)
    vector_weight: float = setting(0.7, "weight of the vector score in the hybrid merge", minimum=0, maximum=1)
    text_weight: float = setting(0.3, "weight of the BM25 score in the hybrid merge", minimum=0, maximum=1)
    half_life_days: float = setting(
        30.0, "temporal decay half-life for dated daily logs; 0 disables", minimum=0, cap=DAYS
    )
    decay_floor: float = setting(0.8, "lowest decay multiplier, so old facts stay findable", minimum=0, maximum=1)
    mmr_lambda: float = setting(0.85, "MMR relevance/diversity trade-off; 1 disables diversity", minimum=0, maximum=1)
    rerank: bool = setting(False, "re-score the merged candidates with the shipped learned re-ranker (hybrid mode)")
    reports_last: bool = setting(
        True,
        "dream reports (memory/dreams/) rank after every note: they quote the questions that recalled a fact "
        "word for word, and the note holds the fact",
    )
    min_score: float = setting(0.0, "hits scoring below this are dropped", minimum=0, maximum=1)
    bm25_max_term_share: float = setting(
        1.0,
        "query words found in more than this share of chunks are left out of BM25 (1 keeps all)",
        minimum=0,
        maximum=1,
    )
    bm25_cache_mb: float = setting(
        48.0,
        "MB per 100,000 chunks a long-running searcher (MCP, --batch) keeps for per-word BM25 scores; 0: none",
        minimum=0,
        cap=MEGABYTES,
    )
    bm25_cache_max_mb: float = setting(
        256.0, "the most MB the per-word BM25 scores take, however large the index", minimum=0, cap=MEGABYTES
    )
    bm25_prewarm: bool = setting(
        True,
        "the MCP server fills the per-word BM25 cache in the background with the index's most widespread words",
    )
    bm25_feedback_terms: int = setting(
        0,
        "pseudo-relevance feedback: words taken from the first BM25 hits and searched again (0: off)",
        minimum=0,
        maximum=50,
    )
    bm25_feedback_docs: int = setting(
        3, "pseudo-relevance feedback: how many of the first BM25 hits the words come from", minimum=1, maximum=50
    )
    bm25_feedback_weight: float = setting(
        0.3, "pseudo-relevance feedback: weight of the feedback query's BM25 scores", minimum=0, maximum=1
    )
    snippet_chars: int = setting(700, "longest hit text returned", minimum=1, cap=COUNT)
    auto_index: bool = setting(True, "bring the index up to HEAD before searching when it is behind")
    worktree: bool = setting(
        True,
        "searches and `memgit index` include uncommitted edits of memory files (their hits: source worktree, "
        "commit null); false: committed notes only",
    )
    quantized_above: int = setting(
        50_000,
        "chunks above which vectors are scanned as 1-bit codes, the best re-scored exactly (0: always)",
        minimum=0,
        cap=1_000_000_000,
    )


_SEVERITY_WORDS = ("error", "warning", "warn", "off")


def _lint_rule_names(value: tuple[str, ...]) -> str | None:
    from memgit.lint.rules import resolve_code

    unknown = [name for name in value if resolve_code(name) is None]
    return f"unknown rule(s) {', '.join(map(repr, unknown))}" if unknown else None


def _lint_severity_table(value: Mapping[str, str]) -> str | None:
    from memgit.lint.rules import resolve_code

    problems = []
    for name, level in value.items():
        if resolve_code(name) is None:
            problems.append(f"unknown rule {name!r}")
        elif str(level).lower() not in _SEVERITY_WORDS:
            problems.append(f"{name}: expected 'error', 'warning' or 'off', got {level!r}")
    return "; ".join(problems) or None


@dataclass(frozen=True)
class LintConfig:
    disable: tuple[str, ...] = setting((), "rule codes or names to turn off", check=_lint_rule_names)
    severity: dict[str, str] = setting({}, "table of CODE = 'error' | 'warning' | 'off'", check=_lint_severity_table)
    injection: str = setting(
        "", "'error' | 'warning' | 'off' for P201-P203 (empty: each rule's default)", choices=("", *_SEVERITY_WORDS)
    )
    past_daily_logs: str = setting(
        "",
        "'error' | 'warn' | 'allow' for D301-D302 (empty: each rule's default)",
        choices=("", "error", "warn", "warning", "allow", "off"),
    )
    outside_paths: str = setting(
        "", "'error' | 'warning' | 'off' for F405 (empty: the rule's default)", choices=("", *_SEVERITY_WORDS)
    )
    max_file_bytes: int = setting(
        0, "largest memory file a commit may hold; 0 = [memory] max_file_bytes", minimum=0, cap=BYTES
    )
    entropy_threshold: float = setting(
        3.5, "bits per character above which a token looks random", minimum=1.0, maximum=6.0
    )
    daily_grace_days: int = setting(1, "days after which a daily log counts as past (append-only)", minimum=0, cap=DAYS)
    allow_outside: tuple[str, ...] = setting((), "path globs F405 (memory-like file outside memory paths) ignores")


@dataclass(frozen=True)
class McpConfig:
    read_only: bool = setting(False, "serve without memory_append (a command-line --read-only always wins)")
    scope: str = setting(
        "private",
        "'group' keeps MEMORY.md and USER.md out of every tool (a command-line --scope group always wins)",
        choices=("private", "group"),
    )
    max_append_chars: int = setting(
        16_000, "longest text one memory_append or `memgit remember` may add", minimum=1, cap=COUNT
    )
    update_wait: float = setting(
        3.0,
        "seconds a tool call waits for an index update before answering from the last good state",
        minimum=0,
        cap=SECONDS,
    )
    scan_interval: float = setting(
        5.0,
        "seconds between background scans for uncommitted edits of older notes; 0 turns it off",
        minimum=0,
        cap=SECONDS,
    )
    context_budget: int = setting(
        8000, "default budget of `memgit context` and the session context, in tokens", minimum=1, cap=COUNT
    )


@dataclass(frozen=True)
class SiteConfig:
    title: str = setting("memgit memory", "title shown on every page of the memory site")
    private_paths: tuple[str, ...] = setting(
        (), "globs of further memory files `memgit site build --scope public` leaves out", check=_relative_globs
    )
    templates: str = setting("", "folder of override templates, relative to the workspace (empty: .memgit/templates)")
    history: int = setting(10, "recent commits listed on each note page", minimum=1, maximum=200)
    snapshots: int = setting(
        10,
        "past versions of each note given a page of their own, newest first (0: none; older commits are "
        "listed without a link)",
        minimum=0,
        maximum=200,
    )
    history_versions: int = setting(
        1000,
        "past versions of notes the whole site gives a page, the newest first (each note at most `snapshots`); "
        "bounds a long history's share of the site",
        minimum=0,
        cap=COUNT,
    )
    search_chars: int = setting(4000, "longest chunk text put into the search index", minimum=100, cap=COUNT)
    show_secrets: bool = setting(
        False,
        "private scope only: show lines the lint flags as secrets instead of [redacted: RULE] "
        "(a public site always redacts them)",
    )


#: Largest weight of one dreaming score component (they are normalised to sum to 1 anyway).
MAX_WEIGHT = 1000
#: The dreaming score's six components and their default weights, in the order reports list them;
#: the one definition: `[dream] weights` defaults to it and dream/scoring.py fills left-out keys from it.
DREAM_WEIGHTS: Mapping[str, float] = types.MappingProxyType(
    {
        "frequency": 0.24,
        "relevance": 0.30,
        "diversity": 0.15,
        "recency": 0.15,
        "consolidation": 0.10,
        "conceptual": 0.06,
    }
)


def _heading_title(value: str) -> str | None:
    """A section title memgit can write as `## TITLE` and find again: one line of plain text."""
    if not value.strip() or value != value.strip() or len(value) > 80:
        return "must be a heading title of 1-80 characters without spaces at either end"
    if any(c in value for c in "\n\r#<>`") or not value.isprintable():
        return "must be plain text on one line (no #, <, >, `)"
    return None


def _weights_table(value: Mapping[str, float]) -> str | None:
    known = tuple(DREAM_WEIGHTS)
    problems = [f"unknown component {name!r} (known: {', '.join(known)})" for name in value if name not in known]
    # Written so that NaN fails too: every comparison with NaN is false.
    problems += [
        f"{name} must be a number between 0 and {MAX_WEIGHT}"
        for name, weight in value.items()
        if name in known
        and (isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight <= MAX_WEIGHT)
    ]
    return "; ".join(problems) or None


@dataclass(frozen=True)
class DreamConfig:
    record: bool = setting(
        True,
        "record the hits of every search in the clone's recall spool, .git/memgit/recall/ (the evidence dreaming reads, once published)",
    )
    keep_queries: bool = setting(True, "keep the query text in the recall ledger (false: only its hash)")
    light_lookback_days: int = setting(
        2, "days of recent logs, transcripts and recalls the light phase reads", minimum=1, cap=DAYS
    )
    rem_lookback_days: int = setting(
        7, "days the REM phase looks back for themes and candidate truths", minimum=1, cap=DAYS
    )
    theme_min_strength: float = setting(
        0.75, "REM theme strength min(1, 2*count/N) needed to report a theme", minimum=0, maximum=1
    )
    dedupe_similarity: float = setting(
        0.9, "light phase: recalled snippets this similar (Jaccard) fold together", minimum=0, maximum=1
    )
    max_promotions: int = setting(10, "most promotions (and supersedes) one run proposes", minimum=0, cap=COUNT)
    min_score: float = setting(0.75, "a candidate needs at least this weighted score", minimum=0, maximum=1)
    min_recall_count: int = setting(3, "a candidate needs at least this many recalls", minimum=1, cap=COUNT)
    min_unique_queries: int = setting(3, "a candidate needs at least this many distinct queries", minimum=1, cap=COUNT)
    max_age_days: int = setting(30, "recalls older than this are not evidence any more", minimum=1, cap=DAYS)
    recall_top_hits: int = setting(
        3, "a search's hit counts as a recall only among its first this many hits", minimum=1, cap=COUNT
    )
    recall_min_relative_score: float = setting(
        0.5, "and only when it scores at least this share of the search's best hit", minimum=0, maximum=1
    )
    recency_half_life_days: float = setting(14.0, "half-life of the recency component", minimum=0.1, cap=DAYS)
    max_entry_tokens: int = setting(
        160, "longest promoted text, in tokens (about 4 characters each)", minimum=8, cap=COUNT
    )
    weights: dict[str, float] = setting(
        dict(DREAM_WEIGHTS),
        "score weights of the six components; keys left out keep their default; normalised to sum to 1",
        check=_weights_table,
    )
    duplicate_similarity: float = setting(
        0.9, "cosine similarity above which a candidate repeats a MEMORY.md entry", minimum=0, maximum=1
    )
    duplicate_overlap: float = setting(
        0.6,
        "term overlap (Jaccard) above which a candidate repeats an entry (with or without a model)",
        minimum=0,
        maximum=1,
    )
    supersede_similarity: float = setting(
        0.4,
        "cosine similarity above which a newer candidate about the same subject updates an entry",
        minimum=0,
        maximum=1,
    )
    supersede_overlap: float = setting(
        0.2,
        "term overlap above which a newer candidate about the same subject updates an entry (no model)",
        minimum=0,
        maximum=1,
    )
    forget_after_days: int = setting(
        90, "entries memgit wrote at least this long ago may be forgotten; 0 never", minimum=0, cap=DAYS
    )
    forget_unrecalled_days: int = setting(
        60,
        "and no search, session-start load or get used them for this many days: then a superseded entry, or a"
        " dated, transient one long past, may be proposed for forgetting",
        minimum=1,
        cap=DAYS,
    )
    max_forgets: int = setting(3, "most forget proposals one run makes", minimum=0, cap=COUNT)
    section: str = setting(
        "From dreaming",
        "the MEMORY.md section (## TITLE) new entries go under, grouped by subject",
        check=_heading_title,
    )
    memory_max_chars: int = setting(
        12_000,
        "load budget of MEMORY.md: a promotion that would pass it is held back (never truncated)",
        minimum=1,
        cap=COUNT,
    )
    branch_prefix: str = setting("memgit/dream/", "dream branches are named <prefix>YYYY-MM-DD")
    user_name: str = setting(
        "",
        'the person\'s name a promoted transcript turn is attributed to ("NAME said: …"); empty: "The user"',
    )


@dataclass(frozen=True)
class IndexConfig:
    busy_timeout: float = setting(
        30.0,
        "seconds to wait for another process's write lock on the index database, then one error line"
        " (the index is kept)",
        minimum=0,
        cap=SECONDS,
    )


#: Sections in the order the docs and the commented file show them.
SECTIONS: dict[str, type] = {
    "memory": MemoryConfig,
    "embedding": EmbeddingConfig,
    "chunking": ChunkingConfig,
    "search": SearchConfig,
    "lint": LintConfig,
    "mcp": McpConfig,
    "site": SiteConfig,
    "dream": DreamConfig,
    "index": IndexConfig,
}


@dataclass(frozen=True)
class Config:
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    embedding: EmbeddingConfig = field(default_factory=EmbeddingConfig)
    chunking: ChunkingConfig = field(default_factory=ChunkingConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    lint: LintConfig = field(default_factory=LintConfig)
    mcp: McpConfig = field(default_factory=McpConfig)
    site: SiteConfig = field(default_factory=SiteConfig)
    dream: DreamConfig = field(default_factory=DreamConfig)
    index: IndexConfig = field(default_factory=IndexConfig)
    source: Path | None = None
    #: Keys of memgit.toml left at their default (unknown, wrong type, out of range), one line each
    #: naming the file's line: shown as warnings, never a reason to stop.
    warnings: tuple[str, ...] = field(default=(), compare=False)
    #: Why memgit.toml could not be read at all (invalid TOML, not UTF-8), naming the line; every
    #: key is then at its default. None when it was read.
    broken: str | None = field(default=None, compare=False)

    def problems(self) -> list[str]:
        """Everything wrong with memgit.toml, the unreadable file first."""
        return ([self.broken] if self.broken else []) + list(self.warnings)

    def require_readable(self, doing: str = "this command") -> None:
        """Refuse, in one line, to go on with settings the person did not choose: a command that
        writes memory, the index or a site stops while memgit.toml cannot be read."""
        if self.broken:
            raise ConfigError(
                [
                    f"{self.broken}; {doing} needs the settings of memgit.toml: fix the file first (`memgit doctor` "
                    "shows what to fix; read-only commands such as search and get go on with the defaults); "
                    "nothing was written"
                ]
            )


# ------------------------------------------------------------------------------------ reading


def load_config(root: Path) -> Config:
    """Read `<root>/memgit.toml` if present: never raises; what is wrong is in `warnings` and `broken`."""
    return load_config_file(root / CONFIG_NAME)


def load_config_file(path: Path) -> Config:
    """Read a memgit.toml at `path` if present (defaults otherwise); never raises: what is wrong is
    in the result's `warnings` (keys left at their default) and `broken` (a file not read at all)."""
    if not path.is_file():
        return Config()
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        return Config(source=path, broken=f"{path}:{line}: not valid UTF-8")
    except OSError as exc:
        return Config(source=path, broken=f"{path}: cannot be read: {exc.strerror or exc}")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return Config(source=path, broken=f"{path}:{toml_error_line(exc)}: invalid TOML: {exc}")
    except ValueError as exc:  # e.g. an integer of more than 4300 digits, which Python refuses to parse
        return Config(source=path, broken=f"{path}:{digits_line(text)}: invalid TOML: {exc}")
    return parse_config(raw, path, text)


def parse_config(raw: Mapping[str, Any], path: Path | None = None, text: str | None = None) -> Config:
    """Validate a parsed TOML document against the schema (pure; used by tests too): every key that
    is wrong keeps its default and gets one warning, which names the line of `text` it is on."""
    where = str(path) if path else CONFIG_NAME
    lines = text.split("\n") if text is not None else []

    def warning(problem: str, section: str, key: str | None = None) -> tuple[int, str]:
        line = key_line(lines, section, key)
        return line or 0, f"{where}{f':{line}' if line else ''}: {problem}"

    problems = [
        warning(f"unknown section [{name}] (known: {', '.join(SECTIONS)}); it is left out", name)
        for name in raw
        if name not in SECTIONS
    ]
    sections: dict[str, Any] = {}
    for name, section_type in SECTIONS.items():
        value = raw.get(name, {})
        if not isinstance(value, dict):
            problems.append(warning(f"[{name}] must be a table; its keys are at their defaults", name))
            value = {}
        sections[name], found = parse_section(name, section_type, value)
        problems += [warning(problem, name, key) for key, problem in found]
    in_order = tuple(
        text for _line, text in sorted(problems, key=lambda item: item[0])
    )  # stable: same line, same order
    return Config(**sections, source=path, warnings=in_order)


def parse_section(name: str, section_type: type, raw: Mapping[str, Any]) -> tuple[Any, list[tuple[str, str]]]:
    """One section: the dataclass built from the valid keys (the others at their defaults), and
    `(key, problem)` for every invalid one."""
    fields = {f.name: f for f in dataclasses.fields(section_type)}
    hints = typing.get_type_hints(section_type)
    defaults = section_type()
    problems: list[tuple[str, str]] = []
    values: dict[str, Any] = {}
    for key, item in raw.items():
        spec = fields.get(key)
        if spec is None:
            problems.append((key, f"unknown key {name}.{key} (known: {', '.join(fields)}); it is left out"))
            continue
        converted, problem = _convert(hints[key], item)
        if problem is None:
            problem = _check_limits(spec.metadata, converted)
        if problem is not None:
            default = toml_value(getattr(defaults, key))
            problems.append((key, f"{name}.{key} {problem}; the default {default} is used"))
            continue
        values[key] = converted
    return section_type(**values), problems


def _convert(hint: Any, value: Any) -> tuple[Any, str | None]:
    """Check a TOML value against a field's type; lists become tuples so sections stay hashable."""
    origin = typing.get_origin(hint)
    if hint is bool:
        return value, None if isinstance(value, bool) else f"must be true or false, got {value!r}"
    if isinstance(value, bool):
        return value, f"must be {_type_name(hint)}, not a boolean"
    if hint is int:
        return value, None if isinstance(value, int) else f"must be an integer, got {value!r}"
    if hint is float:
        if not isinstance(value, int | float):
            return value, f"must be a number, got {value!r}"
        if isinstance(value, float) and not math.isfinite(value):
            return value, f"must be a finite number, got {value!r}"
        try:
            return float(value), None
        except OverflowError:  # an integer too large for a float: left as it is, for the limits to refuse
            return value, None
    if hint is str:
        return value, None if isinstance(value, str) else f"must be a string, got {value!r}"
    if origin is tuple:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return value, f"must be a list of non-empty strings, got {value!r}"
        return tuple(value), None
    if origin is dict:
        if not isinstance(value, dict):
            return value, f"must be a table, got {value!r}"
        item_hint = typing.get_args(hint)[1]
        converted, problems = {}, []
        for name, item in value.items():
            converted[name], problem = _convert(item_hint, item)
            if problem is not None:
                problems.append(f"{name} {problem}")
        return converted, "; ".join(problems) or None
    if origin in (types.UnionType, typing.Union):
        raise TypeError(f"unsupported config type {hint}")  # pragma: no cover - schema authoring error
    raise TypeError(f"unsupported config type {hint}")  # pragma: no cover


def _check_limits(metadata: Mapping[str, Any], value: Any) -> str | None:
    minimum, maximum, choices = metadata.get("minimum"), metadata.get("maximum"), metadata.get("choices")
    upper = maximum if maximum is not None else metadata.get("cap")
    # Comparisons written so that they fail for NaN as well (though _convert already refuses it).
    if isinstance(value, float) and minimum is not None and maximum is not None and not minimum <= value <= maximum:
        return f"must be between {_number(minimum)} and {_number(maximum)}"
    if minimum is not None and not value >= minimum:
        return "must not be negative" if minimum == 0 else f"must be at least {_number(minimum)}"
    if upper is not None and not value <= upper:
        return f"must be at most {_number(upper)}"
    if choices is not None and value not in choices:
        shown = " or ".join(f'"{c}"' for c in choices if c)
        return f"must be {shown}, got {value!r}"
    check = metadata.get("check")
    return check(value) if check is not None else None


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _type_name(hint: Any) -> str:
    if hint is float:
        return "a number"
    return {bool: "true or false", int: "an integer", str: "a string"}.get(hint, "a list")


# ------------------------------------------------------------------------------------ writing


def schema() -> list[tuple[str, list[tuple[str, Any, str]]]]:
    """Every section with its (key, default, help) rows: the one source for the file and the docs."""
    out = []
    for name, section_type in SECTIONS.items():
        defaults = section_type()
        rows = [(f.name, getattr(defaults, f.name), f.metadata["help"]) for f in dataclasses.fields(section_type)]
        out.append((name, rows))
    return out


def default_config_text() -> str:
    """The commented `memgit.toml` that `memgit init` writes: every key, commented out."""
    lines = [
        "# memgit configuration. Every key is optional; the values shown are the defaults.",
        "# Uncomment a line to change it. Docs: docs/CONFIG.md",
        "",
    ]
    for section, rows in schema():
        lines.append(f"[{section}]")
        for key, default, help_text in rows:
            lines.append(f"# {help_text}")
            lines.append(f"# {key} = {toml_value(default)}")
        lines.append("")
    return "\n".join(lines)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def config_reference_markdown() -> str:
    """docs/CONFIG.md, generated from the schema so the docs cannot drift (a test compares them)."""
    out = [
        "# memgit.toml reference",
        "",
        "Every key is optional. `memgit init` writes this file with every key commented out.",
        "A bad file degrades, it never switches memory off. An unknown key, a wrong type or a number",
        "out of range (NaN and infinity included) is one `memgit: warning:` line naming the file, the",
        "line and the key, and that key keeps its default. A file that is not TOML (or not UTF-8) is",
        "one line naming where: read-only commands (`search`, `get`, `context`, `status`, `lint`, the",
        "MCP server's reads, an agent's session start) go on with every default and say so; commands",
        "that write memory, the index or a site stop with that line until it is fixed. `memgit doctor`",
        "lists what to fix.",
        "Environment overrides: `MEMGIT_EMBEDDING=none` forces BM25 only; `MEMGIT_MODEL=PATH` picks",
        "a GGUF model; `MEMGIT_CACHE_DIR` moves the model cache (default `~/.cache/memgit`).",
        "This page is generated from `memgit/config.py` (`python -m memgit.config > docs/CONFIG.md`).",
        "",
    ]
    for section, rows in schema():
        out += [f"## [{section}]", "", "| key | default | meaning |", "|---|---|---|"]
        for key, default, help_text in rows:
            out.append(f"| `{key}` | `{toml_value(default)}` | {help_text} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover - regenerates docs/CONFIG.md
    print(config_reference_markdown(), end="")
