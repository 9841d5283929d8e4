"""The test tiers: every collected test is exactly one of `unit` and `system` (`./dev fast` runs the
unit tier), and tests/tiers.py puts a test that reaches a process into `system` without a marker."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, commit_all, git, memgit, write
from tests.tiers import MODEL_FIXTURES, SLOW_UNIT_TESTS, Classifier


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
