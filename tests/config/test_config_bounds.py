"""Every number in memgit.toml is finite and bounded: a value that would overflow a date, a timer or a
buffer later is one warning naming the file, the line and the key, which keeps its default; never
an internal error."""

from __future__ import annotations

import dataclasses
import math
import typing
from pathlib import Path
from typing import Any

import pytest

from memgit.config import SECTIONS, Config, parse_config
from tests.helpers import git, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none"}
NON_FINITE = [math.nan, math.inf, -math.inf]


def _fields(kind: type) -> list[tuple[str, str]]:
    """(section, key) of every setting of one type, read from the schema so new keys are covered."""
    out = []
    for section, section_type in SECTIONS.items():
        hints = typing.get_type_hints(section_type)
        out += [(section, f.name) for f in dataclasses.fields(section_type) if hints[f.name] is kind]
    return out


FLOAT_FIELDS = _fields(float)
NUMBER_FIELDS = _fields(int) + FLOAT_FIELDS


def problems_of(raw: dict[str, Any]) -> list[str]:
    """The warnings of a memgit.toml holding `raw`; each key named keeps its default."""
    config = parse_config(raw, Path("/ws/memgit.toml"))
    for section, keys in raw.items():
        for key in keys:
            assert getattr(getattr(config, section), key) == getattr(getattr(Config(), section), key)
    return list(config.warnings)


# -- the schema ----------------------------------------------------------------------------------
def test_the_schema_has_numbers_of_both_kinds() -> None:
    assert len(FLOAT_FIELDS) >= 10 and len(NUMBER_FIELDS) >= 40
    assert ("search", "min_score") in FLOAT_FIELDS and ("search", "k") in NUMBER_FIELDS


def test_every_default_passes_validation() -> None:
    """The defaults, written out as a memgit.toml, are accepted and read back unchanged."""
    defaults = Config()
    raw = {name: dataclasses.asdict(getattr(defaults, name)) for name in SECTIONS}
    raw = {name: {k: list(v) if isinstance(v, tuple) else v for k, v in keys.items()} for name, keys in raw.items()}
    assert dataclasses.replace(parse_config(raw), source=None) == defaults


@pytest.mark.parametrize(("section", "key"), NUMBER_FIELDS, ids=[f"{s}.{k}" for s, k in NUMBER_FIELDS])
def test_every_number_has_both_bounds_around_its_default(section: str, key: str) -> None:
    spec = {f.name: f for f in dataclasses.fields(SECTIONS[section])}[key]
    minimum = spec.metadata["minimum"]
    upper = spec.metadata["maximum"] if spec.metadata["maximum"] is not None else spec.metadata["cap"]
    assert minimum is not None and upper is not None, f"{section}.{key} needs a minimum and a maximum or cap"
    assert minimum <= spec.default <= upper
    for value in (minimum, upper):  # the bounds themselves are accepted
        typed = float(value) if isinstance(spec.default, float) else int(value)
        assert getattr(getattr(parse_config({section: {key: typed}}), section), key) == typed
    (problem,) = problems_of({section: {key: 10**30}})
    assert problem.startswith(f"/ws/memgit.toml: {section}.{key} must be ")
    assert "at most" in problem or "between" in problem


@pytest.mark.parametrize("value", NON_FINITE, ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize(("section", "key"), FLOAT_FIELDS, ids=[f"{s}.{k}" for s, k in FLOAT_FIELDS])
def test_every_float_refuses_non_finite_values(section: str, key: str, value: float) -> None:
    (problem,) = problems_of({section: {key: value}})
    assert problem.startswith(f"/ws/memgit.toml: {section}.{key} must be a finite number")


@pytest.mark.parametrize(("section", "key"), _fields(int), ids=[f"{s}.{k}" for s, k in _fields(int)])
def test_integers_refuse_non_finite_values(section: str, key: str) -> None:
    for value in NON_FINITE:
        (problem,) = problems_of({section: {key: value}})
        assert f"{section}.{key} must be an integer" in problem


@pytest.mark.parametrize("value", NON_FINITE, ids=["nan", "inf", "-inf"])
def test_score_weights_refuse_non_finite_values(value: float) -> None:
    (problem,) = problems_of({"dream": {"weights": {"recency": value}}})
    assert "dream.weights recency must be a finite number" in problem
    (problem,) = problems_of({"dream": {"weights": {"recency": 10**6}}})
    assert "dream.weights recency must be a number between 0 and" in problem


def test_an_integer_too_large_for_a_float_is_a_problem_not_a_crash() -> None:
    (problem,) = problems_of({"search": {"half_life_days": 10**400}})
    assert "search.half_life_days must be at most 36500" in problem
    (problem,) = problems_of({"search": {"vector_weight": -(10**400)}})
    assert "search.vector_weight must not be negative" in problem


def test_k_has_the_bound_search_enforces() -> None:
    from memgit.recall.request import MAX_K

    assert parse_config({"search": {"k": MAX_K}}).search.k == MAX_K
    (problem,) = problems_of({"search": {"k": MAX_K + 1}})
    assert problem == f"/ws/memgit.toml: search.k must be at most {MAX_K}; the default 6 is used"


# -- through the real CLI ------------------------------------------------------------------------
@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- A grey heron fishes by the pond.\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial memory")
    return root


CASES = [
    ("[search]\nbm25_cache_mb = inf\n", ["search", "--batch", "-"], "search.bm25_cache_mb", "finite"),
    ("[dream]\nmax_age_days = 999999999\n", ["dream", "--dry-run"], "dream.max_age_days", "at most 36500"),
    ("[dream]\nforget_after_days = 9999999999\n", ["dream", "--dry-run"], "dream.forget_after_days", "at most"),
    ("[lint]\ndaily_grace_days = 99999999999\n", ["lint"], "lint.daily_grace_days", "at most 36500"),
    ("[mcp]\nupdate_wait = inf\n", ["mcp"], "mcp.update_wait", "finite"),
    ("[mcp]\nscan_interval = inf\n", ["mcp"], "mcp.scan_interval", "finite"),
    ("[search]\nmin_score = nan\n", ["search", "heron"], "search.min_score", "finite"),
    ("[search]\nhalf_life_days = nan\n", ["search", "heron", "--json"], "search.half_life_days", "finite"),
    ("[dream]\nrecency_half_life_days = nan\n", ["dream", "--dry-run"], "dream.recency_half_life_days", "finite"),
    ("[search]\nk = 100000\n", ["search", "heron"], "search.k", "at most 200"),
    ("[dream]\nweights = {recency = -inf}\n", ["dream", "--dry-run"], "dream.weights", "finite"),
    ("[search]\nk = " + "9" * 5000 + "\n", ["search", "heron"], "invalid TOML", "digits"),
    ("[search]\nk = " + "9" * 5000 + "\n", ["remember", "a note that must not be written"], "invalid TOML", "digits"),
    ("[mcp]\nupdate_wait = inf\n", ["remember", "a note that must not be written"], "mcp.update_wait", "finite"),
]


@pytest.mark.parametrize(("toml", "args", "key", "needle"), CASES, ids=[f"{c[2]}-{c[1][0]}" for c in CASES])
def test_cli_warns_in_one_line_and_goes_on(ws: Path, toml: str, args: list[str], key: str, needle: str) -> None:
    """A value out of range is one warning naming the file, the line and the key; the command runs
    with that key's default (a file Python cannot even parse: a read-only command runs on the
    defaults, one that writes stops, nothing written)."""
    write(ws / "memgit.toml", "# settings\n" + toml)
    proc = memgit(ws, *args, env=BM25, input="heron\n", timeout=120)
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert "NaN" not in proc.stdout
    said = [line for line in proc.stderr.splitlines() if str(ws / "memgit.toml") in line]
    assert len(said) == 1, proc.stderr
    assert f"{ws / 'memgit.toml'}:3: " in said[0] and key in said[0] and needle in said[0], said
    if "invalid TOML" in key:  # nothing to search (no index is built on defaults), nothing to write
        errors = [line for line in proc.stderr.splitlines() if line.startswith("memgit: error:")]
        assert len(errors) == 1 and proc.returncode == 1, proc.stderr
        assert git(ws, "status", "--porcelain", "--untracked-files=all").splitlines() == ["?? memgit.toml"]
        return
    assert said[0].startswith("memgit: warning:"), proc.stderr
    assert proc.returncode == 0, proc.stderr
