"""Hermetic test setup: every test gets its own HOME, git identity, cache dir and the session's
fixed clock; every test gets its tier (unit or system)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.helpers import NOW, git, write
from tests.tiers import MODEL_FIXTURES, SLOW_UNIT_TESTS, Classifier, heavy_first, tier_neutral, tier_of

# Property tests check behaviour, never speed: no per-example deadline (a loaded machine or a
# busy xdist worker would otherwise fail them at random). Their own @settings still apply.
settings.register_profile("memgit", deadline=None)
settings.load_profile("memgit")


def pytest_configure(config: pytest.Config) -> None:
    # One clock for the whole run, xdist workers included (they inherit the environment).
    os.environ.setdefault("MEMGIT_TEST_NOW", NOW)
    if not hasattr(config, "workerinput"):  # the controller, before any worker starts
        seed_model_cache()
        remember_pip_cache()
    config.pluginmanager.register(HeavyFirst(), "memgit-heavy-first")


class HeavyFirst:
    """On xdist, the longest tests first in each worker's share (tests/tiers.py `heavy_first`),
    ordered after `-m`/`-k` have deselected, so the shares are the ones xdist cuts."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
        if workers > 1:
            order = heavy_first([item.nodeid for item in items], workers)
            items[:] = [items[i] for i in order]


@pytest.fixture(autouse=True)
def hermetic_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    for key, value in {
        "GIT_AUTHOR_NAME": "Test Author",
        "GIT_AUTHOR_EMAIL": "author@example.invalid",
        "GIT_COMMITTER_NAME": "Test Committer",
        "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    }.items():
        monkeypatch.setenv(key, value)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    # The model cache is shared across tests (real models are expensive to build) unless a
    # test overrides MEMGIT_CACHE_DIR itself.
    monkeypatch.setenv("MEMGIT_CACHE_DIR", os.environ.get("MEMGIT_TEST_CACHE_DIR", str(shared_cache_dir())))
    monkeypatch.delenv("MEMGIT_EMBEDDING", raising=False)
    # Searches record their hits, as for a user: they go to the clone's spool under .git/memgit,
    # never the work tree, so no test's checkout or pull is disturbed by them.
    monkeypatch.delenv("MEMGIT_NO_RECALL", raising=False)
    monkeypatch.delenv("MEMGIT_MODEL", raising=False)
    # A hook that leaves vectors pending starts a detached fill; a test that wants one says so
    # (tests/index/test_text_first.py), the rest see the pending state they assert on.
    monkeypatch.setenv("MEMGIT_BACKGROUND_FILL", "0")
    # "Now" is the session's fixed instant for memgit (search records, logs, dreams, context).
    monkeypatch.setenv("MEMGIT_NOW", NOW)
    return home


def shared_cache_dir() -> Path:
    path = Path(
        os.environ.get("MEMGIT_TEST_CACHE_DIR")
        or Path(__file__).resolve().parent.parent / ".venv" / "memgit-test-cache"
    )
    path.mkdir(parents=True, exist_ok=True)
    return path


def seed_model_cache() -> None:
    """Put the real model into the shared test cache once, before xdist workers start, so no two
    workers convert it at the same time (nor one replace it while another reads it). The model
    `./dev setup` installed for the user is copied (the same deterministic conversion); without
    one, tests that need it convert it themselves (tests/embed's `real_model_path`)."""
    from memgit.embed import models
    from memgit.embed.llama import sha256_sidecar

    user_model = models.default_model_path()  # the real HOME: hermetic_env has not run yet
    cached = shared_cache_dir() / "models" / user_model.name
    sidecar = sha256_sidecar(user_model)
    if cached.is_file() or not (user_model.is_file() and sidecar.is_file()):
        return
    cached.parent.mkdir(parents=True, exist_ok=True)
    staging = cached.with_name(f".{cached.name}.{os.getpid()}.staging")
    shutil.copyfile(user_model, staging)
    os.replace(staging, cached)
    shutil.copyfile(sidecar, sha256_sidecar(cached))


def remember_pip_cache() -> None:
    """The user's pip cache, named while HOME is still the user's (hermetic_env gives every test
    a new one): a test that installs memgit as a user would (tests/docs) shares its built wheels,
    so llama-cpp-python, which ships only an sdist, is not compiled again (~5 minutes)."""
    if os.environ.get("MEMGIT_TEST_PIP_CACHE"):
        return
    found = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if found:
        os.environ["MEMGIT_TEST_PIP_CACHE"] = found


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A committed memory workspace with a couple of notes, BM25 only unless a test says otherwise."""
    root = tmp_path / "ws"
    root.mkdir()
    git(root, "init", "-q")
    write(root / "MEMORY.md", "# Long-term Memory\n\n- The user prefers tea over coffee.\n")
    write(
        root / "memory" / "2026-01-05.md",
        "# 2026-01-05\n\n## Morning\n\n- Deployed the billing service to production.\n"
        "- The database migration took twelve minutes.\n",
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial memory")
    return root


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every test its tier (`unit` or `system`) from the code it reaches (tests/tiers.py)."""
    classifier = Classifier()
    for item in items:
        if item.get_closest_marker("unit") is None and item.get_closest_marker("system") is None:
            item.add_marker(tier_of(item, classifier))
        if getattr(item, "originalname", item.name) in SLOW_UNIT_TESTS:
            item.add_marker("slow")
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())) and item.get_closest_marker("model") is None:
            item.add_marker("model")


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (modules, fixtures, items) lives as long as the run: frozen out of
    the collector's sight, the tests' own collections stop walking it (unit tests of four
    packages in one process: 6.7 s of collecting → 3.7 s)."""
    import gc

    gc.freeze()


@pytest.fixture(autouse=True)
@tier_neutral
def unit_starts_no_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A `unit` test that starts a process other than git was put in the wrong tier: say so
    (tests/tiers.py decides; `@pytest.mark.system` on the test settles it)."""
    if request.node.get_closest_marker("unit") is None:
        yield
        return
    started: list[str] = []
    original = subprocess.Popen.__init__

    def watching(self: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
        argv = [args] if isinstance(args, str | bytes | os.PathLike) else list(args)
        if argv and Path(os.fsdecode(argv[0])).name != "git":
            started.append(" ".join(os.fsdecode(a) for a in argv[:3]))
        original(self, args, *rest, **options)

    monkeypatch.setattr(subprocess.Popen, "__init__", watching)
    yield
    assert not started, f"a unit test started {started}: mark it @pytest.mark.system (see tests/tiers.py)"
