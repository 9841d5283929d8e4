"""Which tier a test belongs to, decided from the code it runs, so a test added today gets one
without a marker: `system` when the test or any fixture or test helper it reaches starts a
process (a `memgit` CLI, a hook through git, a server, node, a browser), else `unit`.

The decision reads the compiled code: every name a function loads, followed through the functions
and classes of the tests' own modules (tests/, bench/) it calls. Setting up a repository with the
`git` helper is not "a process" for this purpose (it is how most unit tests get a real repository,
and costs milliseconds); running memgit's hooks through it is, so installing hooks counts.
A test may still say `@pytest.mark.system` or `@pytest.mark.unit` itself; that wins.
"""

from __future__ import annotations

import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

#: Attribute or global names that start a process or a browser wherever they are loaded.
STARTERS = frozenset(
    {
        "subprocess",
        "Popen",
        "check_call",
        "check_output",
        "create_subprocess_exec",
        "create_subprocess_shell",
        "fork",
        "forkserver",
        "spawn",
        "execv",
        "execvp",
        "system",
        "sync_playwright",
        "async_playwright",
        "stdio_client",
        "ProcessPoolExecutor",
        "multiprocessing",
        "StdioServerParameters",
        "install_hooks",
        "hook_install",
    }
)

#: Tests that cost several CPU seconds each and start no memgit process (measured with `--durations`, serial): marked
#: `slow` here by function name, which survives a move to another file. `./dev fast` leaves them
#: out (`-m 'unit and not slow'`); `./dev test` runs them.
SLOW_UNIT_TESTS = frozenset(
    {
        "test_fast_heading_path_agrees_with_commonmark_on_generated_markdown",  # 1,500 examples, ~8 s
        "test_cmark_agrees_with_markdown_it_on_generated_markdown",  # 1,500 examples, ~6 s
        "test_commit_only_leaves_the_index_equal_to_head_while_another_process_appends",  # a busy writer, ~16 s
        "test_index_with_vectors_follows_random_git_histories",  # ~18 s
        "test_the_token_shapes_hint_lets_every_shape_through",  # ~24 s
        "test_detect_secrets_gate_lets_every_detector_pattern_through",  # ~16 s
        "test_a_long_token_line_is_scanned_in_linear_time",  # three 1 MB lines, ~5 s
        "test_every_escaping_of_a_corpus_secret_is_flagged_and_redacted",  # ~10 s
        "test_install_force_rebuilds_identically",  # converts the real model, ~4 s
        "test_install_human_output_progress_on_stderr",  # converts the real model, ~4 s
    }
)

#: The longest tests (seconds of CPU on the 2-core machine, measured per test), longest first. On
#: xdist they start first on each worker (`heavy_first`): one left to the end of a worker's share
#: would run alone while the other worker has nothing left to take.
HEAVY_TESTS: tuple[tuple[str, float], ...] = (
    # ~360 s of CPU (two installs and the demo), listed at 60 so the others still spread over both shares
    ("tests/docs/test_shell_blocks.py::test_the_documented_commands_do_what_the_docs_say", 60),
    ("tests/system/test_soak.py::", 51),
    ("tests/dream/test_dream_generated.py::test_a_generated_month_lived_through_the_cli", 39),
    ("tests/dream/test_dream_quality_case.py::test_a_reviewer_keeps_what_dreaming_proposes[team_month]", 38),
    ("tests/project/test_bench_peers.py::test_memgit_rows_rerun_alone_and_merge", 24),
    ("tests/dream/test_marker_share.py::test_locomo_markers_stay_small_after_three_dreams", 20),
    ("tests/memory/test_append_faults.py::", 30),  # a forked CLI at every byte of three appends
    ("tests/hosts/test_gitlab_runner.py::", 18),
    ("tests/dream/test_dream_quality_case.py::test_a_reviewer_keeps_what_dreaming_proposes[support_desk]", 17),
    ("tests/githooks/test_precommit_framework.py::test_framework_hooks_follow_every_git_operation", 15),
    ("tests/index/test_pending_vectors.py::", 17),  # one pre-commit environment for the module
    ("tests/index/test_index_resume.py::test_interrupted_full_index_resumes", 14),
    ("tests/index/test_index_state_machine.py::test_index_follows_random_git_histories", 13),
    ("tests/index/test_indexer_git.py::test_killed_update_leaves_a_consistent_index", 12),
    ("tests/lint/test_redact_scan.py::test_the_token_shapes_hint_lets_every_shape_through", 11),
    ("tests/git/test_commit_race.py::", 8),
    ("tests/lint/test_redact_scan.py::test_detect_secrets_gate_lets_every_detector_pattern_through", 8),
    ("tests/core/test_chunking.py::test_fast_heading_path_agrees_with_commonmark_on_generated_markdown", 8),
)


def heavy_first(nodeids: list[str], workers: int) -> list[int]:
    """An order of the tests (indices into `nodeids`) in which each worker's share starts with
    its part of the heavy tests. xdist's work-stealing scheduler hands worker i the i-th of
    `workers` contiguous shares (`len // remaining` each) and steals from a share's end, so each
    share gets heavy tests at its head (longest first, each to the least loaded share) and keeps
    the rest in collection order. The tests one `HEAVY_TESTS` entry names stay together, in
    collection order: a module's expensive module-scoped fixture is then built once."""
    groups: dict[str, list[int]] = {}
    light: list[int] = []
    for i, nodeid in enumerate(nodeids):
        prefix = next((prefix for prefix, _ in HEAVY_TESTS if nodeid.startswith(prefix)), None)
        if prefix is None:
            light.append(i)
        else:
            groups.setdefault(prefix, []).append(i)
    cost = dict(HEAVY_TESTS)
    heavy = sorted(groups, key=lambda prefix: (-cost[prefix], groups[prefix][0]))
    if workers < 2 or not heavy:
        return [i for prefix in heavy for i in groups[prefix]] + light
    sizes, left = [], len(nodeids)
    for remaining in range(workers, 0, -1):
        sizes.append(left // remaining)
        left -= sizes[-1]
    shares: list[list[int]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for prefix in heavy:
        room = [w for w in range(workers) if len(shares[w]) + len(groups[prefix]) <= sizes[w]] or list(range(workers))
        target = min(room, key=lambda w: (load[w], w))
        shares[target].extend(groups[prefix])
        load[target] += cost[prefix]
    order: list[int] = []
    for w in range(workers):
        take = max(0, sizes[w] - len(shares[w]))
        order += shares[w] + light[:take]
        light = light[take:]
    return order + light


#: Fixtures that hand a test the real MiniLM GGUF: a test using one (directly or through another
#: fixture) gets the `model` marker.
MODEL_FIXTURES = frozenset({"real_model", "real_model_path"})

#: Test helpers that run only `git` for setup: followed no further.
GIT_ONLY = frozenset({"git", "commit_all", "write"})

#: Top-level packages whose functions are followed (the tests' own helpers).
OWN_PACKAGES = ("tests", "bench")


F = TypeVar("F", bound=Callable[..., Any])


def tier_neutral(function: F) -> F:
    """Mark a fixture that watches processes without starting any (the tier guard itself)."""
    function.tier_neutral = True  # type: ignore[attr-defined]
    return function


def _own(obj: Any) -> bool:
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in OWN_PACKAGES


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _functions(obj: Any) -> Iterator[Callable[..., Any]]:
    """The plain functions inside `obj`: itself, a fixture's wrapped function, a class's methods."""
    obj = getattr(obj, "__wrapped__", obj)
    obj = getattr(obj, "__func__", obj)
    hypothesis = getattr(obj, "hypothesis", None)  # a @given test runs its inner function
    obj = getattr(hypothesis, "inner_test", obj)
    if isinstance(obj, types.FunctionType):
        yield obj
    elif isinstance(obj, type) and _own(obj):
        for klass in obj.__mro__:  # inherited methods run too
            if _own(klass):
                for value in vars(klass).values():
                    yield from _functions(value)
    elif _own(type(obj)):  # an instance of the tests' own class (tests/helpers.py's LAUNCHER)
        yield from _functions(type(obj))


def _imported(code: types.CodeType, name: str) -> Any:
    """`name` as a function-level `from tests.x import name` in `code` would bind it."""
    for module_name in code.co_names:
        module = sys.modules.get(module_name)
        if module is not None and module_name.split(".")[0] in OWN_PACKAGES and hasattr(module, name):
            return getattr(module, name)
    return None


class Classifier:
    """Memoised walk over the code a test reaches."""

    def __init__(self) -> None:
        self._seen: dict[types.CodeType, bool] = {}

    def starts_process(self, obj: Any) -> bool:
        if getattr(obj, "tier_neutral", False):
            return False
        return any(self._function(function) for function in _functions(obj))

    def _function(self, function: Callable[..., Any]) -> bool:
        code = function.__code__
        if code in self._seen:
            return self._seen[code]
        self._seen[code] = False  # a cycle answers "no" until the walk finishes
        found = self._walk(function, code)
        self._seen[code] = found
        return found

    def _walk(self, function: Callable[..., Any], code: types.CodeType) -> bool:
        namespace: dict[str, Any] = getattr(function, "__globals__", {})
        for inner in _codes(code):
            for name in inner.co_names:
                if name in STARTERS:
                    return True
                value = namespace.get(name, _imported(inner, name))
                if value is None or name in GIT_ONLY:
                    continue
                if value is subprocess or getattr(value, "__module__", None) == "subprocess":
                    return True
                if _own(value) and self.starts_process(value):
                    return True
        return False


def tier_of(item: pytest.Item, classifier: Classifier) -> str:
    """`system` or `unit` for one collected test (its own marker first)."""
    for name in ("system", "unit"):
        if item.get_closest_marker(name) is not None:
            return name
    if item.get_closest_marker("hosts") is not None:
        return "system"
    function = getattr(item, "function", None)
    if function is not None and classifier.starts_process(function):
        return "system"
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        if any(_own(definition.func) and classifier.starts_process(definition.func) for definition in defs):
            return "system"
    return "unit"
