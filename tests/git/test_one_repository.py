"""One pygit2 repository per command: the real CLI entry run in this process on a real repository,
with `pygit2.Repository` replaced by a subclass that counts its constructions (git itself runs
for real: the commits, the branch and the push are checked in the repository and the remote)."""

from __future__ import annotations

import json
from pathlib import Path

import pygit2
import pytest

from memgit.cli.main import main
from tests.dream.test_dream import BM25, BRANCH, NOW, recall, seed
from tests.helpers import git


class Opens:
    """How many times pygit2 opened a repository since the last `take`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        opens = self

        class Counting(pygit2.Repository):
            def __init__(self, *args: object, **kwargs: object) -> None:
                opens.count += 1
                super().__init__(*args, **kwargs)

        monkeypatch.setattr(pygit2, "Repository", Counting)

    def take(self) -> int:
        count, self.count = self.count, 0
        return count


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """`memgit ARGS` through the CLI's own entry point; its standard output."""
    try:
        main(list(args))
    except SystemExit as exc:
        assert exc.code in (0, None), capsys.readouterr().err
    return capsys.readouterr().out


@pytest.fixture
def opens(workspace: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Opens:
    seed(workspace)
    recall(workspace)
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(workspace, "remote", "add", "origin", str(bare))
    git(workspace, "push", "-q", "origin", "main")
    for key, value in BM25.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(workspace)
    return Opens(monkeypatch)


def test_a_dream_run_and_a_drop_open_the_repository_once(
    opens: Opens, workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = json.loads(run(capsys, "dream", "--now", NOW, "--push", "origin", "--json"))
    assert opens.take() == 1
    assert out["branch"] == BRANCH and out["pushed"] and len(out["actions"]) == 1
    assert git(tmp_path / "remote.git", "rev-parse", BRANCH).strip() == out["commits"][-1]
    key = out["actions"][0]["key"]

    # A drop reads the branch back, fetches the remote one, writes and pushes: still one open.
    dropped = json.loads(run(capsys, "dream", "drop", key, "--push", "origin", "--json"))
    assert opens.take() == 1
    assert [d["key"] for d in dropped["dropped"]] == [key] and dropped["actions"] == []
    assert git(workspace, "rev-parse", BRANCH).strip() == dropped["commits"][-1]
    assert git(tmp_path / "remote.git", "rev-parse", BRANCH).strip() == dropped["commits"][-1]


def test_search_and_a_site_build_open_no_pygit2_repository(
    opens: Opens, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hits = json.loads(run(capsys, "search", "staging database password", "--no-record", "--json"))["hits"]
    assert hits and hits[0]["path"] == "memory/2026-02-02.md"
    assert opens.take() == 0  # search reads git through `git` processes only
    run(capsys, "site", "build", "-o", str(tmp_path / "site"))
    assert (tmp_path / "site" / "index.html").is_file()
    assert opens.take() == 0  # blame too is one `git blame` process through the handle
