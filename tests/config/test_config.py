"""`memgit.toml`: defaults, validation (every problem at once), and what `memgit init` writes."""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from pathlib import Path

import pytest

from memgit.config import (
    SECTIONS,
    ChunkingConfig,
    Config,
    EmbeddingConfig,
    LintConfig,
    McpConfig,
    MemoryConfig,
    config_reference_markdown,
    default_config_text,
    load_config,
    parse_config,
    schema,
)
from memgit.errors import ConfigError
from memgit.memory.init import GITATTRIBUTES_LINE
from tests.helpers import REPO_ROOT, assert_clean_error, commit_all, git, memgit, write


def without_source(config: Config) -> Config:
    return dataclasses.replace(config, source=None)


# -- defaults ----------------------------------------------------------------------------------
def test_defaults_without_a_file(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config == Config()
    assert config.source is None
    assert config.memory.extra_paths == ()
    assert config.memory.sessions is True
    assert config.memory.max_file_bytes == 5_000_000
    assert config.embedding.provider == "llama"
    assert config.chunking.max_tokens == 160
    assert config.search.k == 6
    assert config.search.auto_index is True


def test_schema_is_the_dataclasses() -> None:
    """One description: the schema rows are the dataclass fields, each with a default and help text."""
    assert list(SECTIONS) == [name for name, _rows in schema()]
    assert {f.name for f in dataclasses.fields(Config)} == {*SECTIONS, "source", "warnings", "broken"}
    for section, rows in schema():
        fields = {f.name: f for f in dataclasses.fields(SECTIONS[section])}
        assert [key for key, _d, _h in rows] == list(fields)
        for _key, _default, help_text in rows:
            assert help_text


def test_config_docs_are_generated_from_the_schema() -> None:
    docs = REPO_ROOT / "docs" / "CONFIG.md"
    assert docs.read_text(encoding="utf-8") == config_reference_markdown(), (
        "docs/CONFIG.md is stale: run `python -m memgit.config > docs/CONFIG.md`"
    )


def test_empty_file_and_empty_sections_are_defaults(tmp_path: Path) -> None:
    write(tmp_path / "memgit.toml", "")
    assert without_source(load_config(tmp_path)) == Config()
    write(tmp_path / "memgit.toml", "[memory]\n[search]\n[embedding]\n[chunking]\n")
    config = load_config(tmp_path)
    assert without_source(config) == Config()
    assert config.source == tmp_path / "memgit.toml"


def test_values_are_read() -> None:
    config = parse_config(
        {
            "memory": {"extra_paths": ["notes/**/*.md"], "sessions": False, "max_file_bytes": 100},
            "embedding": {"provider": "none", "model": "~/m.gguf", "threads": 4},
            "chunking": {"max_tokens": 64, "overlap_tokens": 0, "chars_per_token": 3},
            "search": {"k": 10, "vector_weight": 1, "text_weight": 0.25, "half_life_days": 0, "auto_index": False},
            "lint": {"disable": ["S103"], "entropy_threshold": 4},
            "mcp": {"read_only": True, "update_wait": 1},
        }
    )
    assert config.memory == MemoryConfig(("notes/**/*.md",), False, 100)
    assert config.embedding == EmbeddingConfig("none", "~/m.gguf", 4)
    assert config.chunking == ChunkingConfig(64, 0, 3)
    assert config.search.k == 10 and config.search.vector_weight == 1 and config.search.text_weight == 0.25
    assert config.search.auto_index is False
    assert config.search.candidates_factor == 4  # untouched keys keep their defaults
    assert config.lint == LintConfig(disable=("S103",), entropy_threshold=4.0)
    assert config.mcp == McpConfig(read_only=True, update_wait=1.0)


# -- validation --------------------------------------------------------------------------------
def problems_of(raw: dict) -> list[str]:
    """The warnings of a memgit.toml holding `raw`: every section it names is still a valid one."""
    config = parse_config(raw, Path("/ws/memgit.toml"))
    assert all(
        isinstance(getattr(config, name), type(getattr(Config(), name))) for name in raw if hasattr(config, name)
    )
    return list(config.warnings)


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ({"memroy": {}}, "unknown section [memroy]"),
        ({"memory": {"extra_path": []}}, "unknown key memory.extra_path"),
        ({"memory": 3}, "[memory] must be a table"),
        ({"lint": "strict"}, "[lint] must be a table"),
        ({"memory": {"extra_paths": "notes/*.md"}}, "memory.extra_paths must be a list"),
        ({"memory": {"extra_paths": [1]}}, "memory.extra_paths must be a list of non-empty strings"),
        ({"memory": {"extra_paths": [""]}}, "memory.extra_paths must be a list of non-empty strings"),
        ({"memory": {"extra_paths": ["/etc/*.md"]}}, "relative path inside the repository"),
        ({"memory": {"extra_paths": ["../x/*.md"]}}, "relative path inside the repository"),
        ({"memory": {"sessions": 1}}, "memory.sessions must be true or false"),
        ({"memory": {"sessions": "yes"}}, "memory.sessions must be true or false"),
        ({"memory": {"max_file_bytes": True}}, "memory.max_file_bytes must be an integer, not a boolean"),
        ({"embedding": {"provider": "openai"}}, 'embedding.provider must be "llama" or "none"'),
        ({"embedding": {"threads": 0}}, "embedding.threads must be at least 1"),
        ({"chunking": {"max_tokens": 0}}, "chunking.max_tokens must be at least 1"),
        ({"chunking": {"max_tokens": 512}}, "chunking.max_tokens must be at most 256"),
        ({"chunking": {"max_tokens": 64.0}}, "chunking.max_tokens must be an integer"),
        ({"chunking": {"overlap_tokens": -1}}, "chunking.overlap_tokens must not be negative"),
        ({"search": {"k": "six"}}, "search.k must be an integer, got 'six'"),
        ({"search": {"k": 2.5}}, "search.k must be an integer"),
        ({"search": {"vector_weight": 1.5}}, "search.vector_weight must be between 0 and 1"),
        ({"search": {"decay_floor": -0.1}}, "search.decay_floor must be between 0 and 1"),
        ({"search": {"half_life_days": -1}}, "search.half_life_days must not be negative"),
        ({"search": {"auto_index": "false"}}, "search.auto_index must be true or false"),
        ({"search": {"mmr_lambda": True}}, "search.mmr_lambda must be a number, not a boolean"),
        ({"lint": {"disable": ["S999"]}}, "lint.disable unknown rule(s) 'S999'"),
        ({"lint": {"severity": {"S102": "loud"}}}, "lint.severity S102: expected 'error', 'warning' or 'off'"),
        ({"lint": {"injection": "maybe"}}, 'lint.injection must be "error" or "warning" or "warn" or "off"'),
        ({"lint": {"entropy_threshold": 9}}, "lint.entropy_threshold must be between 1 and 6"),
        ({"lint": {"anything": 1}}, "unknown key lint.anything"),
        ({"mcp": {"update_wait": -1}}, "mcp.update_wait must not be negative"),
        ({"mcp": {"max_append_chars": 0}}, "mcp.max_append_chars must be at least 1"),
        ({"mcp": {"read_only": "yes"}}, "mcp.read_only must be true or false"),
    ],
)
def test_each_problem(raw: dict, needle: str) -> None:
    problems = problems_of(raw)
    assert len(problems) == 1, problems
    assert problems[0].startswith("/ws/memgit.toml: ")
    assert needle in problems[0]


def test_every_problem_reported_at_once() -> None:
    problems = problems_of(
        {
            "memory": {"extra_paths": "notes", "bogus": 1},
            "search": {"k": 0, "text_weight": "half"},
            "chunking": {"overlap_tokens": -5},
            "nope": {},
        }
    )
    assert len(problems) == 6
    for needle in (
        "memory.extra_paths",
        "memory.bogus",
        "search.k",
        "search.text_weight",
        "chunking.overlap_tokens",
        "[nope]",
    ):
        assert sum(needle in p for p in problems) == 1, (needle, problems)
    assert all(p.startswith("/ws/memgit.toml: ") for p in problems)


def test_invalid_toml_and_bad_encoding(tmp_path: Path) -> None:
    write(tmp_path / "memgit.toml", "[search]\nk = 3\n[memory\nsessions = true\n")
    config = load_config(tmp_path)
    assert config.broken is not None and config.warnings == ()
    assert config.broken.startswith(f"{tmp_path / 'memgit.toml'}:3: invalid TOML")
    assert without_source(config) == Config()  # every key at its default, the readable k = 3 too
    with pytest.raises(ConfigError, match=r"memgit.toml:3: invalid TOML.*nothing was written"):
        config.require_readable("`memgit index`")
    (tmp_path / "memgit.toml").write_bytes(b'[memory]\n\nextra_paths = ["\xff"]\n')
    assert load_config(tmp_path).broken == f"{tmp_path / 'memgit.toml'}:3: not valid UTF-8"


def test_each_warning_names_its_line(tmp_path: Path) -> None:
    text = (
        "# my settings\n"
        "[memory]\n"
        'extra_paths = "notes"   # a string, not a list\n'
        "\n"
        "[search]\n"
        "k = 12\n"
        '"mmr_lambda" = 3\n'
        "kk = 4\n"
        "[chunkin]\n"
        "max_tokens = 9\n"
    )
    write(tmp_path / "memgit.toml", text)
    config = load_config(tmp_path)
    where = str(tmp_path / "memgit.toml")
    assert [w.split(": ", 1)[0] for w in config.warnings] == [f"{where}:{n}" for n in (3, 7, 8, 9)]
    assert "memory.extra_paths must be a list" in config.warnings[0] and "the default [] is used" in config.warnings[0]
    assert config.search.k == 12 and config.search.mmr_lambda == Config().search.mmr_lambda
    assert "unknown key search.kk" in config.warnings[2] and "unknown section [chunkin]" in config.warnings[3]
    assert config.broken is None


# -- memgit init -------------------------------------------------------------------------------
def uncomment_settings(text: str) -> str:
    """Turn `# key = value` lines back into settings (help lines stay comments)."""
    return "\n".join(line[2:] if re.match(r"^# [a-z0-9_]+ = ", line) else line for line in text.splitlines())


def test_default_config_text_is_complete_and_parses_to_defaults() -> None:
    text = default_config_text()
    assert tomllib.loads(text) == {section: {} for section in SECTIONS}  # everything commented out
    settings = tomllib.loads(uncomment_settings(text))
    assert parse_config(settings) == Config()
    for section, rows in schema():
        assert set(settings[section]) == {key for key, _d, _h in rows}


def test_init_creates_a_workspace(tmp_path: Path) -> None:
    target = tmp_path / "mem"
    proc = memgit(tmp_path, "init", "mem", "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["adopted"] is False
    assert Path(report["root"]) == target.resolve()
    assert set(report["created"]) == {"MEMORY.md", "memory/.gitkeep", "memgit.toml", ".gitattributes"}
    assert (target / ".git").is_dir()
    config_text = (target / "memgit.toml").read_text()
    assert config_text.startswith("#")
    assert without_source(load_config(target)) == Config()
    assert parse_config(tomllib.loads(uncomment_settings(config_text))) == Config()
    attributes = (target / ".gitattributes").read_text().splitlines()
    assert GITATTRIBUTES_LINE in attributes
    assert "memory/.dreams/**/*.jsonl merge=union" in attributes
    assert git(target, "check-attr", "merge", "memory/.dreams/x/recall.jsonl").strip().endswith("merge: union")
    # The new workspace works end to end.
    commit_all(target, "init")
    assert memgit(target, "index", "--verify", env={"MEMGIT_EMBEDDING": "none"}).returncode == 0


def test_init_adopts_without_overwriting_and_is_idempotent(workspace: Path) -> None:
    memory_before = (workspace / "MEMORY.md").read_text()
    write(workspace / "memgit.toml", "[search]\nk = 3\n")
    write(workspace / ".gitattributes", "*.png binary")  # no trailing newline
    proc = memgit(workspace / "memory", "init", "--json")  # from a subfolder: adopts the repository
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["adopted"] is True
    assert Path(report["root"]) == workspace.resolve()
    assert set(report["created"]) == {"memory/.gitkeep", ".gitattributes"}
    assert (workspace / "MEMORY.md").read_text() == memory_before
    assert (workspace / "memgit.toml").read_text() == "[search]\nk = 3\n"
    attributes = (workspace / ".gitattributes").read_text()
    assert attributes.startswith("*.png binary\n")
    assert attributes.count(GITATTRIBUTES_LINE) == 1
    assert load_config(workspace).search.k == 3

    snapshot = {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file() and ".git" not in p.parts}
    again = memgit(workspace, "init", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["created"] == []
    after = {p: p.read_bytes() for p in workspace.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == snapshot
    text = memgit(workspace, "init")
    assert text.returncode == 0 and "Adopted memory workspace" in text.stdout


def test_init_refuses_a_file_target(tmp_path: Path) -> None:
    write(tmp_path / "afile", "x")
    assert_clean_error(memgit(tmp_path, "init", "afile"), "is a file")


def test_init_of_a_folder_inside_another_repository_makes_its_own(workspace: Path) -> None:
    """`memgit init DIR` never adopts (and commits into) a repository DIR merely sits inside."""
    outer_head = git(workspace, "rev-parse", "HEAD").strip()
    proc = memgit(workspace, "init", "nested", "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["adopted"] is False
    assert Path(report["root"]) == (workspace / "nested").resolve()
    assert (workspace / "nested" / ".git").is_dir()
    assert git(workspace, "rev-parse", "HEAD").strip() == outer_head
    assert not (workspace / "memory" / ".gitkeep").exists()


def test_init_through_dash_c_also_makes_its_own_repository(workspace: Path) -> None:
    (workspace / "inner").mkdir()
    proc = memgit(workspace, "-C", str(workspace / "inner"), "init", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["adopted"] is False
    assert (workspace / "inner" / ".git").is_dir()
