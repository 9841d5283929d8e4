"""The lint hook decides in the shell whether a commit could touch memory (issue #11, point 2).

The probe: the hook records an interpreter that does not exist and memgit is not on PATH, so the
pre-commit hook blocks the commit ("memgit not found") exactly when it tries to start Python. A
commit that goes through therefore proved that the shell answered alone.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgit.githooks import fastpath
from memgit.githooks import install as hook_install
from memgit.resources import shipped_file
from memgit.workspace import Workspace
from tests.githooks.test_hooks import commit
from tests.helpers import git, memgit, write


@pytest.fixture
def lint_hook_without_python(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    hook_install.install_hooks(Workspace.discover(workspace), ["pre-commit"], python="/nonexistent/bin/python")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return workspace


def tried_python(repo: Path, *args: str) -> bool:
    proc = commit(repo, *args)
    if proc.returncode == 0:
        return False
    assert "memgit not found" in proc.stderr, proc.stderr
    git(repo, "reset", "-q")
    return True


@pytest.mark.parametrize(
    "path",
    [
        "src/app.py",
        "data/report-2026.csv",
        ".github/ISSUE_TEMPLATE/bug.md",  # a hidden folder: not a note the lint reads
        "memory/.dreams/recall/2026-03-01.jsonl",  # published recalls: dreaming's, not memory
        ".github/workflows/memory-2026-03-01.md",
    ],
)
def test_non_memory_commit_never_starts_python(lint_hook_without_python: Path, path: str) -> None:
    write(lint_hook_without_python / path, "plain project file\n")
    git(lint_hook_without_python, "add", "-A")
    assert not tried_python(lint_hook_without_python, "-m", "code")


def test_empty_commit_never_starts_python(lint_hook_without_python: Path) -> None:
    assert not tried_python(lint_hook_without_python, "--allow-empty", "-m", "empty")


@pytest.mark.parametrize(
    "path",
    [
        "MEMORY.md",
        "USER.md",
        "memory/2026-03-01.md",
        "memory/projects/billing.md",
        "sessions/2026-03-01-abc.jsonl",
        "notes/2026-03-01.md",  # looks like a daily log outside the memory paths: F405
        "docs/memories.md",
        "memgit.toml",
        "odd\tname.md",  # git quotes it: the shell does not guess
        "README.md",  # notes outside the memory paths: the lint reads them for secrets
        "docs/guide/setup.md",
        "people.TXT",
        "memory/.dreams/récall.jsonl",  # quoted too, hidden or not
    ],
)
def test_memory_or_memory_looking_paths_run_the_lint(lint_hook_without_python: Path, path: str) -> None:
    write(lint_hook_without_python / path, "- a note\n")
    git(lint_hook_without_python, "add", "-A")
    assert tried_python(lint_hook_without_python, "-m", "memory")


def test_deleting_a_memory_file_runs_the_lint(lint_hook_without_python: Path) -> None:
    git(lint_hook_without_python, "rm", "-q", "memory/2026-01-05.md")
    assert tried_python(lint_hook_without_python, "-m", "delete a past log")


def test_commit_all_reads_the_temporary_index(lint_hook_without_python: Path) -> None:
    """`git commit -a` stages into a temporary index that the shell check must read too."""
    (lint_hook_without_python / "MEMORY.md").write_text("# Long-term Memory\n\n- changed\n")
    assert tried_python(lint_hook_without_python, "-a", "-m", "memory via -a")


def test_renames_into_or_out_of_memory_run_the_lint(lint_hook_without_python: Path) -> None:
    repo = lint_hook_without_python
    write(repo / "drafts" / "facts.md", "- a fact\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "draft")
    git(repo, "mv", "drafts/facts.md", "memory/facts.md")
    assert tried_python(repo, "-m", "into memory")  # (which unstaged it again)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "into memory")
    git(repo, "mv", "memory/facts.md", "drafts/facts.md")
    assert tried_python(repo, "-m", "out of memory")


@pytest.mark.parametrize(
    ("path", "memory"),
    [
        ("docs/meeting notes.txt", True),  # a note: the lint reads it for secrets
        ("src/my app/main.py", False),
        ("memory/team notes.md", True),
        ("memory/projects/q3 plan.md", True),
    ],
)
def test_paths_with_spaces(lint_hook_without_python: Path, path: str, memory: bool) -> None:
    write(lint_hook_without_python / path, "- text\n")
    git(lint_hook_without_python, "add", "-A")
    assert tried_python(lint_hook_without_python, "-m", "spaces") is memory


@pytest.mark.parametrize("quote_path", ["true", "false"])
@pytest.mark.parametrize(
    "path",
    [
        "memory/café.md",
        "notes/٢٠٢٦-٠١-٠٥.md",  # Arabic-Indic digits: the lint's date pattern (\d) calls it memory-like
        "src/東京.py",  # not memory, but a quoted name is never guessed at
    ],
)
def test_unicode_paths_ask_python_whatever_core_quotepath_says(
    lint_hook_without_python: Path, path: str, quote_path: str
) -> None:
    git(lint_hook_without_python, "config", "core.quotePath", quote_path)
    write(lint_hook_without_python / path, "- text\n")
    git(lint_hook_without_python, "add", "-A")
    assert tried_python(lint_hook_without_python, "-m", "unicode")


@pytest.mark.parametrize(
    "config",
    [
        '[memory]\nextra_paths = ["kb/**/*.md"]\n',
        'memory.extra_paths = ["kb/**/*.md"]\n',
        'memory = { extra_paths = ["kb/**/*.md"] }\n',
        '[memory]\n"extra_paths" = [\n  "kb/**/*.md",\n]\n',
        '[memory]\n"extra\\u005fpaths" = ["kb/**/*.md"]\n',
        '  [memory]  # notes\n  extra_paths=["kb/**/*.md"]\n',
    ],
)
def test_every_spelling_of_extra_paths_runs_the_lint(lint_hook_without_python: Path, config: str) -> None:
    """With [memory] extra_paths the shell cannot tell memory from code, so it asks Python: each of
    these is the same TOML, and a staged file the globs cover is memory."""
    from memgit.config import load_config

    repo = lint_hook_without_python
    write(repo / "memgit.toml", config)
    assert load_config(repo).memory.extra_paths == ("kb/**/*.md",)
    (repo / ".git" / "info" / "exclude").write_text("memgit.toml\n")
    write(repo / "kb" / "facts.md", "- fact\n")
    git(repo, "add", "kb")
    assert tried_python(repo, "-m", "extra path")


def test_the_commented_config_init_writes_does_not_widen_memory(lint_hook_without_python: Path) -> None:
    """`memgit init`'s memgit.toml mentions extra_paths only in comments: code commits stay in the shell."""
    from memgit.config import default_config_text

    repo = lint_hook_without_python
    assert "extra_paths" in default_config_text()
    write(repo / "memgit.toml", default_config_text())
    git(repo, "add", "memgit.toml")
    assert tried_python(repo, "-m", "config")  # memgit.toml itself is staged
    git(repo, "add", "memgit.toml")
    git(repo, "commit", "-q", "--no-verify", "-m", "config")
    write(repo / "src" / "app.py", "x = 1\n")
    git(repo, "add", "-A")
    assert not tried_python(repo, "-m", "code")


# -- the shell's notion of memory is never narrower than memgit's ----------------------------------
_COMPONENTS = st.sampled_from(
    [
        "memory",
        "Memory",
        "MEMORY.md",
        "memories",
        "notes",
        "src",
        "sessions",
        "USER.md",
        "user.md",
        "2026-01-05.md",
        "2026-01-05.MD",
        "٢٠٢٦-٠١-٠٥.md",
        "2026-13-45.txt",
        "x.jsonl",
        "a b",
        "café",
        "東京",
        "kb",
        "facts.md",
        "q\tx.md",
        "-",
        "a-b-c.md",
        "README.md",
        "memgit.toml",
        '"q".md',
        "é.markdown",
        "mem",
        "ory",
        ".hidden",
        ".dreams",
        "memo ry.md",
    ]
)
_PATHS = st.lists(_COMPONENTS, min_size=1, max_size=4).map("/".join)


#: Names git quotes (core.quotePath): the shell sees them in quotes.
_QUOTED_NAME = re.compile(r'[^\x20-\x7e]|["\\]')


def test_the_fast_paths_know_the_notes_the_lint_reads() -> None:
    from memgit.lint.rules import NOTE_SUFFIXES

    assert fastpath._NOTE_SUFFIXES == NOTE_SUFFIXES


def _shell_functions() -> str:
    """The hook template's path functions, to call them on their own."""
    template = shipped_file("hooks", hook_install.TEMPLATE).read_text(encoding="utf-8")
    start = template.index("paths_may_be_memory() {")
    end = template.index('if [ "$MEMGIT_BLOCKING" = 1 ]')
    return "nl='\n'\ntab='\t'\n" + template[start:end]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    paths=st.lists(_PATHS, min_size=1, max_size=12, unique=True),
    extra=st.sampled_from([(), ("kb/**/*.md",), ("src/**",)]),
)
def test_shell_never_calls_memory_non_memory(
    tmp_path_factory: pytest.TempPathFactory, paths: list[str], extra: tuple[str, ...]
) -> None:
    """Real git lists the staged names (quoting as it does); each one memgit would lint as memory,
    or as memory-looking (F405), the shell function must call "could be memory"."""
    from memgit.core.paths import is_memory_path
    from memgit.lint.rules import NOTE_SUFFIXES, is_note_text, looks_like_memory

    paths = [p for p in paths if not any(part.lower() == ".git" for part in p.split("/"))]
    # A file cannot also be a folder: keep the paths that are no other path's prefix.
    paths = [p for p in paths if not any(o.startswith(p + "/") for o in paths)]
    repo = tmp_path_factory.mktemp("names")
    git(repo, "init", "-q")
    if extra:
        write(repo / "memgit.toml", "[memory]\nextra_paths = [" + ", ".join(f'"{g}"' for g in extra) + "]\n")
    blob = git(repo, "hash-object", "-w", "--stdin", input="x\n").strip()
    git(repo, "update-index", "--add", "-z", "--index-info", input="".join(f"100644 {blob}\t{p}\0" for p in paths))
    listed = git(repo, "-c", "core.quotePath=false", "diff", "--cached", "--name-only", "-z").split("\0")[:-1]
    assert sorted(listed) == sorted(paths)
    quoted = git(repo, "-c", "core.quotePath=true", "diff", "--cached", "--name-only", "--no-renames")
    driver = (
        'while IFS= read -r line; do if paths_may_be_memory "$line"; then printf Y; else printf N; fi;'
        ' if paths_hold_notes "$line"; then echo Y; else echo N; fi; done'
    )
    proc = subprocess.run(
        ["sh", "-c", _shell_functions() + driver], cwd=repo, input=quoted, capture_output=True, text=True, check=True
    )
    verdicts = dict(zip(listed, proc.stdout.split(), strict=True))  # both in git's (byte) order
    for path in paths:  # the Python entry points' copy of the rule answers exactly as the shell
        assert fastpath.paths_may_be_memory([path], repo) is (verdicts[path][0] == "Y"), (path, extra)
    for path in paths:
        memgit_says = is_memory_path(path, extra) or looks_like_memory(path) or path == "memgit.toml"
        if memgit_says:
            assert verdicts[path][0] == "Y", (path, extra)
        # A note outside the memory paths, which the lint reads for secrets: the shell starts it.
        # (A name git quotes reaches the note check quoted; the memory check starts the lint then.)
        if is_note_text(path) and not _QUOTED_NAME.search(path):
            assert verdicts[path][1] == "Y" and fastpath.paths_hold_notes([path]), (path, extra)
        elif not path.lower().endswith(NOTE_SUFFIXES) or path.rsplit("/", 1)[-1].startswith("."):
            assert verdicts[path][1] == "N" and not fastpath.paths_hold_notes([path]), (path, extra)


def test_lint_still_blocks_a_secret_through_the_installed_hook(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast path only skips; a staged memory file still reaches the real lint."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    hook_install.install_hooks(Workspace.discover(workspace), ["pre-commit"])
    write(workspace / "src" / "app.py", "print('hello')\n")
    git(workspace, "add", "-A")
    assert commit(workspace, "-m", "code").returncode == 0
    write(workspace / "MEMORY.md", "# Long-term Memory\n\n-----BEGIN OPENSSH PRIVATE KEY-----\n")
    git(workspace, "add", "-A")
    proc = commit(workspace, "-m", "key")
    assert proc.returncode == 1 and "S101" in proc.stderr, proc.stderr


# -- the index hooks ------------------------------------------------------------------------------
def index_hook_warnings(repo: Path, *args: str) -> list[str]:
    proc = commit(repo, *args)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stderr.splitlines() if "memgit not found" in line]


def test_code_commits_skip_the_index_hook_in_the_shell(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no Python to run, an index hook that tried would print one warning line."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    assert memgit(workspace, "index").returncode == 0
    hook_install.install_hooks(
        Workspace.discover(workspace), ["post-commit", "post-checkout"], python="/nonexistent/bin/python"
    )
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    write(workspace / "src" / "app.py", "x = 1\n")
    git(workspace, "add", "-A")
    assert index_hook_warnings(workspace, "-m", "code") == []
    git(workspace, "checkout", "-q", "-b", "feature")
    write(workspace / "src" / "app.py", "x = 2\n")
    git(workspace, "add", "-A")
    assert index_hook_warnings(workspace, "-m", "more code") == []
    checkout = subprocess.run(["git", "checkout", "-q", "main"], cwd=workspace, capture_output=True, text=True)
    assert "memgit not found" not in checkout.stderr

    write(workspace / "memory" / ".dreams" / "recall" / "2026-03-02.jsonl", '{"q": "narwhal"}\n')
    git(workspace, "add", "-A")
    assert index_hook_warnings(workspace, "-m", "published recalls") == []  # `memgit recalls publish`

    write(workspace / "memory" / "2026-03-02.md", "- Narwhal tusks are teeth.\n")
    git(workspace, "add", "-A")
    assert len(index_hook_warnings(workspace, "-m", "memory")) == 1


def test_index_after_code_commits_answers_for_head(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The skipped commits leave the index at an older tree with the same memory: status says so,
    search finds everything, and the next reader moves the index to HEAD (equal to a rebuild)."""
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    assert memgit(workspace, "hooks", "install").returncode == 0
    write(workspace / "memory" / "2026-03-03.md", "- The okapi is related to the giraffe.\n")
    git(workspace, "add", "-A")
    assert commit(workspace, "-m", "memory").returncode == 0
    marker = workspace / ".git" / "memgit" / "indexed_tree"
    memory_tree = marker.read_text().strip()
    write(workspace / "src" / "app.py", "x = 1\n")
    git(workspace, "add", "-A")
    assert commit(workspace, "-m", "code").returncode == 0
    assert marker.read_text().strip() == memory_tree  # the shell skipped the update

    status = memgit(workspace, "status", "--json")
    data = json.loads(status.stdout)
    assert data["pending"] == [] and data["indexed_tree"] == memory_tree
    text = memgit(workspace, "status").stdout
    assert "up to date for memory" in text

    found = memgit(workspace, "search", "okapi giraffe", "--json")
    assert found.returncode == 0, found.stderr
    assert any("okapi" in hit["text"] for hit in json.loads(found.stdout)["hits"])
    assert marker.read_text().strip() == git(workspace, "rev-parse", "HEAD^{tree}").strip()
    verify = memgit(workspace, "index", "--verify", "--json")
    assert verify.returncode == 0 and json.loads(verify.stdout)["verify"]["ok"], verify.stdout


# -- what the fast paths fork ----------------------------------------------------------------------
# git runs its hooks with its own exec path first on PATH, so git processes are counted with
# GIT_TRACE (each git process logs its command); every other tool a hook could fork is wrapped.
SHIMMED = ("grep", "sed", "cat", "dirname", "basename", "tr", "head", "tail", "awk")


@pytest.fixture
def logged_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    logs = tmp_path / "logs"
    shims = logs / "shims"
    shims.mkdir(parents=True)
    for tool in SHIMMED:
        real = shutil.which(tool)
        if real is None:
            continue
        shim = shims / tool
        shim.write_text(f'#!/bin/sh\nprintf "%s\\n" "{tool} $*" >> "{logs / "tools.log"}"\nexec "{real}" "$@"\n')
        shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}:/usr/bin:/bin")
    monkeypatch.setenv("GIT_TRACE", str(logs / "git.log"))
    return logs


def forks(logs: Path) -> list[str]:
    """What the hooks ran since the last call: `git SUBCOMMAND` per git process, and other tools."""
    out = []
    git_log, tools_log = logs / "git.log", logs / "tools.log"
    if git_log.exists():
        commands = [
            line.split("trace: built-in: ", 1)[1]
            for line in git_log.read_text().splitlines()
            if "trace: built-in: " in line
        ]
        # the first is the command the test ran; `maintenance run --auto` is git's own, hooks or not
        out += [" ".join(c.split()[:2]) for c in commands[1:] if not c.startswith("git maintenance")]
        git_log.unlink()
    if tools_log.exists():
        out += [line.split()[0] for line in tools_log.read_text().splitlines()]
        tools_log.unlink()
    return out


def run_git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc


def real_commit(repo: Path, *args: str) -> None:
    proc = run_git(repo, "commit", "-q", *args)
    assert "memgit not found" not in proc.stderr, proc.stderr  # no hook tried to start Python


@pytest.fixture
def all_hooks_without_python(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    assert memgit(workspace, "index").returncode == 0
    hook_install.install_hooks(Workspace.discover(workspace), python="/nonexistent/bin/python")
    return workspace


def forks_of_an_empty_and_a_code_commit(repo: Path, logged_tools: Path) -> tuple[list[str], list[str]]:
    """What the hooks forked for an empty commit, then for a commit staging only src/app.py."""
    forks(logged_tools)
    real_commit(repo, "--allow-empty", "-m", "empty")
    empty = forks(logged_tools)
    write(repo / "src" / "app.py", "x = 1\n")
    run_git(repo, "add", "-A")
    forks(logged_tools)
    real_commit(repo, "-m", "code")
    return empty, forks(logged_tools)


def test_empty_and_code_commits_fork_one_git_per_hook(all_hooks_without_python: Path, logged_tools: Path) -> None:
    empty, code = forks_of_an_empty_and_a_code_commit(all_hooks_without_python, logged_tools)
    assert empty == ["git diff", "git diff-tree"]
    assert code == ["git diff", "git diff-tree"]


def test_with_a_config_a_code_commit_adds_one_grep_per_hook(all_hooks_without_python: Path, logged_tools: Path) -> None:
    from memgit.config import default_config_text

    repo = all_hooks_without_python
    write(repo / "memgit.toml", default_config_text())
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "--no-verify", "-m", "config")
    assert memgit(repo, "index").returncode == 0
    empty, code = forks_of_an_empty_and_a_code_commit(repo, logged_tools)
    assert empty == ["git diff", "git diff-tree"]
    assert sorted(code) == ["git diff", "git diff-tree", "grep", "grep"]


def test_squash_merge_file_checkout_and_rebase_picks_stay_in_the_shell(
    all_hooks_without_python: Path, logged_tools: Path
) -> None:
    """Hook arguments and the rebase state say there is nothing to index: not even git is asked."""
    repo = all_hooks_without_python
    run_git(repo, "checkout", "-q", "-b", "side")
    write(repo / "memory" / "2026-03-04.md", "- side note\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "--no-verify", "-m", "side")
    run_git(repo, "checkout", "-q", "main")
    forks(logged_tools)
    run_git(repo, "merge", "-q", "--squash", "side")
    assert forks(logged_tools) == []  # post-merge 1: a squash merge moves no HEAD
    run_git(repo, "reset", "-q", "--hard")
    forks(logged_tools)
    run_git(repo, "checkout", "-q", "side", "--", "memory/2026-03-04.md")
    assert forks(logged_tools) == []  # post-checkout ... 0: a file checkout moves no HEAD
    run_git(repo, "reset", "-q", "--hard")

    write(repo / "src" / "app.py", "x = 1\n")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "--no-verify", "-m", "code on main")
    forks(logged_tools)
    proc = run_git(repo, "rebase", "-q", "side")
    ran = forks(logged_tools)
    # the rebase's checkout and its post-rewrite each diff once; the picked commit's post-commit
    # (rebase state in the git directory) forks nothing
    assert ran.count("git diff-tree") == 2, ran
    assert proc.stderr.count("memgit not found") == 2, proc.stderr  # memory changed: Python is asked


def test_a_linked_worktree_finds_its_own_index_without_rev_parse(
    all_hooks_without_python: Path, logged_tools: Path, tmp_path: Path
) -> None:
    repo = all_hooks_without_python
    other = tmp_path / "wt"
    run_git(repo, "worktree", "add", "-q", str(other))
    assert memgit(other, "index").returncode == 0
    assert (repo / ".git" / "worktrees" / "wt" / "memgit" / "indexed_tree").is_file()
    write(other / "src" / "app.py", "x = 1\n")
    run_git(other, "add", "-A")
    forks(logged_tools)
    real_commit(other, "-m", "code in the worktree")
    assert forks(logged_tools) == ["git diff", "git diff-tree"]


# -- the Python entry points (the pre-commit framework's) -----------------------------------------
@pytest.fixture
def poisoned(tmp_path: Path) -> dict[str, str]:
    """An environment in which importing click, numpy, SQLite or filelock fails: what the fast paths must not need."""
    shadow = tmp_path / "shadow"
    for name in ("click", "numpy", "sqlite3", "sqlean", "filelock"):
        write(shadow / name / "__init__.py", f"raise ImportError('{name} was imported')\n")
    return {**os.environ, "PYTHONPATH": str(shadow), "MEMGIT_EMBEDDING": "none"}


def python_memgit(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memgit", *args], cwd=repo, env=env, capture_output=True, text=True)


def test_framework_lint_of_code_files_answers_before_the_cli(workspace: Path, poisoned: dict[str, str]) -> None:
    write(workspace / "src" / "app.py", "x = 1\n")
    write(workspace / "src" / "data.csv", "a,b\n")
    write(workspace / "docs" / "guide.md", "# Guide\n")
    git(workspace, "add", "-A")
    proc = python_memgit(workspace, poisoned, "lint", "--staged", "src/app.py", "src/data.csv")
    assert proc.returncode == 0 and proc.stdout == proc.stderr == "", proc.stderr
    # anything that could be memory, a note (read for secrets), a folder, an option or a widened
    # config goes to the real lint
    write(workspace / "memory" / "2026-03-06.md", "- note\n")
    git(workspace, "add", "-A")
    for args in (["memory/2026-03-06.md"], ["docs/guide.md"], ["src"], ["--json", "src/app.py"], ["../x.py"]):
        proc = python_memgit(workspace, poisoned, "lint", "--staged", *args)
        assert "click was imported" in proc.stderr, (args, proc.stderr)
    write(workspace / "memgit.toml", '[memory]\nextra_paths = ["src/**"]\n')
    proc = python_memgit(workspace, poisoned, "lint", "--staged", "src/app.py")
    assert "click was imported" in proc.stderr, proc.stderr


def test_python_index_hook_skips_code_commits_like_the_shell(workspace: Path, poisoned: dict[str, str]) -> None:
    assert memgit(workspace, "index", env={"MEMGIT_EMBEDDING": "none"}).returncode == 0
    marker = workspace / ".git" / "memgit" / "indexed_tree"
    indexed = marker.read_text().strip()
    write(workspace / "src" / "app.py", "x = 1\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "--no-verify", "-m", "code")
    proc = python_memgit(workspace, poisoned, "hook", "post-commit")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr  # nothing heavy was imported
    assert marker.read_text().strip() == indexed
    write(workspace / "memory" / "2026-03-07.md", "- The quokka lives on Rottnest Island.\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "--no-verify", "-m", "memory")
    proc = python_memgit(workspace, poisoned, "hook", "post-commit")
    assert proc.returncode == 0 and "was imported" in proc.stderr, proc.stderr  # the update was tried
    proc = python_memgit(workspace, {**os.environ, "MEMGIT_EMBEDDING": "none"}, "hook", "post-commit")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert marker.read_text().strip() == git(workspace, "rev-parse", "HEAD^{tree}").strip()


# -- one decision: the shell's answer is the update's diff --------------------------------------------
def test_a_memory_commit_through_the_shell_hook_diffs_once(workspace: Path, logged_tools: Path) -> None:
    """The shell compares the indexed tree with HEAD's commit and hands its raw diff to Python,
    whose update applies it: one `git diff-tree` in the whole commit, and the index equals a
    rebuild of HEAD."""
    os.environ.pop("MEMGIT_SKIP_HOOKS", None)
    assert memgit(workspace, "index", env={"MEMGIT_EMBEDDING": "none"}).returncode == 0
    hook_install.install_hooks(Workspace.discover(workspace), ["post-commit"])
    write(workspace / "memory" / "2026-03-08.md", "- The axolotl regrows its limbs.\n")
    write(workspace / "memory" / "café.md", "- A name git quotes.\n")
    run_git(workspace, "add", "-A")
    forks(logged_tools)
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "memory"],
        cwd=workspace,
        env={**os.environ, "MEMGIT_EMBEDDING": "none"},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    ran = forks(logged_tools)
    # a quoted name makes the update read the diff again (lossless, -z): the shell's said only "due"
    assert ran.count("git diff-tree") == 2, ran
    write(workspace / "memory" / "2026-03-09.md", "- The okapi has a long tongue.\n")
    run_git(workspace, "add", "-A")
    forks(logged_tools)
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "memory"],
        cwd=workspace,
        env={**os.environ, "MEMGIT_EMBEDDING": "none"},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    ran = forks(logged_tools)
    assert ran.count("git diff-tree") == 1 and "git rev-parse" in ran, ran  # rev-parse: the workspace, once
    marker = workspace / ".git" / "memgit" / "indexed_tree"
    assert marker.read_text().strip() == git(workspace, "rev-parse", "HEAD^{tree}").strip()
    verify = memgit(workspace, "index", "--verify", "--json", env={"MEMGIT_EMBEDDING": "none"})
    assert verify.returncode == 0 and json.loads(verify.stdout)["verify"]["ok"], verify.stdout
    found = memgit(workspace, "search", "axolotl okapi", "--json", "--mode", "bm25", env={"MEMGIT_EMBEDDING": "none"})
    assert {hit["path"] for hit in json.loads(found.stdout)["hits"]} >= {"memory/2026-03-08.md", "memory/2026-03-09.md"}


def test_a_handed_diff_of_another_commit_is_not_applied(workspace: Path) -> None:
    """The shell's diff names the commit it was taken to: when HEAD is elsewhere by the time the
    update runs (another commit landed), the update reads the diff itself, and the index is HEAD's."""
    env = {**os.environ, "MEMGIT_EMBEDDING": "none"}
    assert memgit(workspace, "index", env=env).returncode == 0
    indexed = (workspace / ".git" / "memgit" / "indexed_tree").read_text().strip()
    write(workspace / "memory" / "2026-03-10.md", "- The pangolin is covered in scales.\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "--no-verify", "-m", "first")
    first = git(workspace, "rev-parse", "HEAD").strip()
    stale = git(workspace, "diff-tree", "-r", "--raw", "--no-abbrev", "--no-renames", indexed, first)
    write(workspace / "memory" / "2026-03-11.md", "- The narwhal's tusk is a tooth.\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "--no-verify", "-m", "second")
    handed = f"{indexed} {first}\n{stale}"
    proc = python_memgit(workspace, {**env, "MEMGIT_HOOK_DIFF": handed}, "hook", "post-commit")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    verify = memgit(workspace, "index", "--verify", "--json", env=env)
    data = json.loads(verify.stdout)
    assert data["mode"] == "noop" and data["verify"]["ok"], data
    found = memgit(workspace, "search", "narwhal tusk", "--json", "--mode", "bm25", env=env)
    assert any(hit["path"] == "memory/2026-03-11.md" for hit in json.loads(found.stdout)["hits"])


def test_a_marker_with_work_tree_rows_still_lets_code_commits_pass(
    all_hooks_without_python: Path, logged_tools: Path, poisoned: dict[str, str]
) -> None:
    """`memgit index --worktree` writes `TREE worktree`: the shell and the Python hook read the
    tree off that line alike, so a code commit beside an uncommitted note still stays in the
    shell (and in the Python entry point, imports nothing heavy)."""
    repo = all_hooks_without_python
    write(repo / "memory" / "2026-03-12.md", "- An uncommitted note.\n")
    assert memgit(repo, "index", "--worktree").returncode == 0
    marker = repo / ".git" / "memgit" / "indexed_tree"
    assert marker.read_text().strip().endswith(" worktree")
    write(repo / "src" / "app.py", "x = 1\n")
    run_git(repo, "add", "src/app.py")
    forks(logged_tools)
    real_commit(repo, "-m", "code beside an uncommitted note")
    assert forks(logged_tools) == ["git diff", "git diff-tree"]
    proc = python_memgit(repo, poisoned, "hook", "post-commit")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert marker.read_text().strip().endswith(" worktree")
