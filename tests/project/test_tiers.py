"""The test tiers: every collected test is exactly one of `unit` and `system` (`./dev fast` runs the
unit tier), and tests/tiers.py puts a test that reaches a process into `system` without a marker."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, commit_all, git, memgit, write
from tests.tiers import HEAVY_TESTS, MODEL_FIXTURES, SLOW_UNIT_TESTS, Classifier, heavy_first


class _Tiers:
    """A plugin for a nested collection: each test's id and its tier markers."""

    def __init__(self) -> None:
        self.tiers: dict[str, list[str]] = {}
        self.slow: set[str] = set()
        self.model: dict[str, bool] = {}  # tests handed the real model by a fixture: marked `model`?

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            self.tiers[item.nodeid] = [m.name for m in item.iter_markers() if m.name in ("unit", "system")]
            if item.get_closest_marker("slow") is not None:
                self.slow.add(getattr(item, "originalname", item.name))
            if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
                self.model[item.nodeid] = item.get_closest_marker("model") is not None


@pytest.mark.system  # collecting imports every test module, and some probe the machine (`unshare`)
def test_every_collected_test_has_exactly_one_tier(capsys: pytest.CaptureFixture[str]) -> None:
    tiers = _Tiers()
    args = ["--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "--rootdir", str(REPO_ROOT)]
    code = pytest.main([*args, str(REPO_ROOT / "tests"), str(REPO_ROOT / "bench")], plugins=[tiers])
    capsys.readouterr()
    assert code == pytest.ExitCode.OK
    assert len(tiers.tiers) > 1000, len(tiers.tiers)
    wrong = {nodeid: names for nodeid, names in tiers.tiers.items() if len(names) != 1}
    assert wrong == {}
    counts = {name: sum(names == [name] for names in tiers.tiers.values()) for name in ("unit", "system")}
    assert counts["unit"] > 0 and counts["system"] > 0, counts
    # A test handed the real model through a fixture is marked `model` without saying so.
    assert tiers.model and all(tiers.model.values()), tiers.model
    assert tiers.slow >= SLOW_UNIT_TESTS, SLOW_UNIT_TESTS - tiers.slow  # no stale name in the list
    stale = [prefix for prefix, _ in HEAVY_TESTS if not any(n.startswith(prefix) for n in tiers.tiers)]
    assert stale == [], stale  # every heavy test named is still collected
    here = f"tests/project/{Path(__file__).name}::test_every_collected_test_has_exactly_one_tier"
    assert tiers.tiers[here] == ["system"]  # its own marker wins over what the code reaches


# The functions below are what tests/tiers.py reads: each stands for a test body.


def _runs_the_cli(root: Path) -> None:
    memgit(root, "status")


def _calls_a_helper_that_runs_the_cli(root: Path) -> None:
    _runs_the_cli(root)


def _only_sets_up_a_repository(root: Path) -> None:
    git(root, "init", "-q")
    write(root / "MEMORY.md", "- a note\n")
    commit_all(root)


def _runs_a_shell(root: Path) -> None:
    subprocess.run(["sh", "-c", "true"], cwd=root, check=True)


def _imports_the_cli_helper_inside(root: Path) -> None:
    from tests.helpers import memgit_json

    memgit_json(root, "status")


def _starts_a_browser() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright():
        pass


class _Server:
    def start(self, root: Path) -> None:
        memgit(root, "mcp")


def _uses_a_class_that_runs_the_cli(root: Path) -> None:
    _Server().start(root)


class _InheritedServer(_Server):
    """Starts the CLI through a method it inherits."""


def _uses_a_subclass_that_runs_the_cli(root: Path) -> None:
    _InheritedServer().start(root)


@pytest.mark.parametrize(
    ("function", "starts"),
    [
        (_runs_the_cli, True),
        (_calls_a_helper_that_runs_the_cli, True),
        (_only_sets_up_a_repository, False),
        (_runs_a_shell, True),
        (_imports_the_cli_helper_inside, True),
        (_starts_a_browser, True),
        (_uses_a_class_that_runs_the_cli, True),
        (_uses_a_subclass_that_runs_the_cli, True),
        (_Tiers, False),
    ],
)
def test_the_classifier_follows_helpers_to_the_process(function: object, starts: bool) -> None:
    assert Classifier().starts_process(function) is starts


def test_heavy_tests_head_each_workers_share_and_nothing_is_lost() -> None:
    heavy = [prefix.rstrip(":") + ("::t" if prefix.endswith("::") else "") for prefix, _ in HEAVY_TESTS]
    light = [f"tests/x/test_{i}.py::t" for i in range(101)]
    nodeids = light[:50] + heavy + light[50:]
    for workers in (2, 3):
        order = heavy_first(nodeids, workers)
        assert sorted(order) == list(range(len(nodeids)))  # a permutation
        ordered = [nodeids[i] for i in order]
        assert [n for n in ordered if n in light] == light  # the rest keep collection order
        left, start = len(ordered), 0
        for remaining in range(workers, 0, -1):  # the shares xdist's work-stealing cuts
            share = ordered[start : start + left // remaining]
            start, left = start + len(share), left - len(share)
            count = sum(n in heavy for n in share)
            assert count >= len(heavy) // workers - 1, (workers, count)
            assert all(n in heavy for n in share[:count])  # at its head
    # The tests of one entry (a module's, here) stay side by side: its module fixture is built once.
    mates = ["tests/index/test_pending_vectors.py::a", "tests/index/test_pending_vectors.py::b"]
    split = [*light[:3], mates[0], *light[3:60], mates[1], *light[60:]]
    grouped = [split[i] for i in heavy_first(split, 2)]
    assert grouped.index(mates[1]) == grouped.index(mates[0]) + 1
    one = [nodeids[i] for i in heavy_first(nodeids, 1)]
    assert set(one[: len(heavy)]) == set(heavy) and one[len(heavy) :] == light
