"""Docs that run (issue 48): every shell block of README.md and docs/*.md, in the order a reader
meets them, in one fresh workspace, checked against what the text around it says.

A shell block is a fenced block tagged `sh`, `bash`, `shell` or `console` (an untagged block is
output, a synopsis or a file's contents). Each one is in `PLAN`: a `Run` says what the block must
do (exit 0, and the words and files the text promises), an `Illustration` says why it is not run
(a synopsis, the test suite itself, hours of downloads). A block added to the docs without an
entry fails `test_every_shell_block_is_planned`, so no command is documented untried.

The fresh workspace is a fresh machine as far as memgit can tell: a new HOME (its own model
cache, no git config but an identity), a clone of this work tree's tracked files, a virtualenv
with nothing in it for the README's `pip install`, and only pip's wheel cache shared (so
llama-cpp-python is not compiled again; everything else is installed as a user would).
Placeholders the docs use (`/path/to/agent-memory`, `/path/to/app`, `/tmp/then`) stand for
folders in that HOME.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT

FENCE = re.compile(r"^```(sh|bash|shell|console)\n(.*?)^```", re.MULTILINE | re.DOTALL)
DOCS = ["README.md", *sorted(f"docs/{p.name}" for p in (REPO_ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    text: str

    @property
    def key(self) -> tuple[str, str]:
        return self.doc, self.text.strip().splitlines()[0].strip()


@dataclass(frozen=True)
class Run:
    """Run the block (its lines but `skip`, `why` they are left out) in `cwd` after `setup`; it
    must exit 0, print each of `expect`, none of `refuse`, and leave each of `files`."""

    expect: tuple[str, ...] = ()
    refuse: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    why: str = ""
    setup: str = ""
    cwd: str = "$HOME/my-agent-memory"


@dataclass(frozen=True)
class Illustration:
    why: str


ROLLOUT = (
    '{"timestamp":"2026-12-01T09:00:00Z","type":"session_meta","payload":{"id":"codex-doc-1","cwd":"/x"}}\n'
    '{"timestamp":"2026-12-01T09:00:01Z","type":"response_item","payload":{"type":"message","role":"user",'
    '"content":[{"type":"input_text","text":"Which port does the staging proxy use?"}]}}\n'
    '{"timestamp":"2026-12-01T09:00:02Z","type":"response_item","payload":{"type":"message","role":"assistant",'
    '"content":[{"type":"output_text","text":"Port 8443."}]}}\n'
)

PLAN: dict[tuple[str, str], Run | Illustration] = {
    (
        "README.md",
        "./dev demo    # sets up .venv and the model; indexes, searches, dreams and builds the site of the bundled example",
    ): Run(
        expect=("==> memgit dream", "==> memgit site build", "Demo site:"),
        files=("$CLONE/.demo-site/index.html",),
        skip=("./dev test",),
        why="`./dev test` is the suite this test runs in (.ci/run runs it from a fresh clone)",
        cwd="$CLONE",
    ),
    ("README.md", "pip install '.[llama]'      # from a clone; the PyPI name `memgit` belongs to another project"): Run(
        expect=("We decided to upgrade the database on Thursday", "(uncommitted)"),
        refuse=("no hits",),
        files=("$HOME/.cache/memgit/models/all-minilm-l6-v2.q8_0.gguf", "$HOME/my-agent-memory/.git/hooks/post-commit"),
        cwd="$CLONE",
    ),
    (
        "README.md",
        "memgit dream --dry-run --explain     # what would be proposed, and why the rest was not",
    ): Illustration(
        "the review loop in brief, with an example key and a remote; docs/DREAMING.md has it in full and "
        "tests/dream/test_review_loop.py runs it"
    ),
    ("docs/AGENTS.md", "cd /path/to/agent-memory"): Run(
        expect=("added the SessionStart hook",), files=("$HOME/my-agent-memory/.claude/settings.local.json",)
    ),
    ("docs/AGENTS.md", "memgit -C /path/to/agent-memory hooks install --agent claude-code --project /path/to/app"): Run(
        expect=("added the SessionEnd hook",),
        files=("$HOME/app/.claude/settings.local.json",),
        setup="mkdir -p $HOME/app && git -C $HOME/app init -q",
    ),
    (
        "docs/AGENTS.md",
        "memgit capture --transcript FILE [--format auto|claude-code|openai|generic] [--session ID] [--subagents] [--json] [-C DIR]",
    ): Illustration("a synopsis of the command's options; tests/memory/test_capture.py runs each"),
    ("docs/AGENTS.md", "for f in ~/.codex/sessions/*/*/*/rollout-*.jsonl; do"): Run(
        expect=("captured 2 new turns of session codex-doc-1",),
        setup=f"mkdir -p $HOME/.codex/sessions/2026/12/01 && printf '%s' '{ROLLOUT}' "
        "> $HOME/.codex/sessions/2026/12/01/rollout-2026-12-01T09-00-00-codex-doc-1.jsonl",
    ),
    (
        "docs/COMPARISON.md",
        "bench/peers/run                      # installs what is missing, then everything below",
    ): Illustration(
        "the peer benchmark: it downloads torch, two other tools and their models, and runs for hours; "
        "tests/project/test_bench_peers.py runs memgit's part"
    ),
    (
        "docs/HOOKS.md",
        "pre-commit install --hook-type pre-commit --hook-type post-commit --hook-type post-merge \\",
    ): Run(
        expect=("pre-commit installed at .git/hooks/post-commit", "pre-commit installed at .git/hooks/post-rewrite"),
        setup="cp $HOME/pre-commit-config.yaml .pre-commit-config.yaml",
    ),
    ("docs/HOOKS.md", "memgit hooks install            # or: memgit init --hooks"): Run(
        expect=("post-commit", "removed"),
    ),
    ("docs/SITE.md", "memgit site build                     # -> ../<workspace>-site/index.html"): Run(
        files=(
            "$HOME/my-agent-memory-site/index.html",
            "$HOME/memory-site/index.html",
            "$HOME/tmp/then/index.html",
        ),
        skip=("memgit site serve --port 8765",),
        why="a server that runs until stopped; tests/site/test_site_serve_recovers.py serves and stops one",
        setup="git add -A && git commit -qm 'memory' && git tag v1.0",
    ),
}

#: What the docs' placeholders stand for in the fresh workspace.
PLACES = {"/path/to/agent-memory": "$HOME/my-agent-memory", "/path/to/app": "$HOME/app", "/tmp/then": "$HOME/tmp/then"}


def shell_blocks() -> list[Block]:
    """Every shell block of README.md and docs/*.md, README first, then the docs by name."""
    out = []
    for doc in DOCS:
        text = (REPO_ROOT / doc).read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            out.append(Block(doc, text[: match.start()].count("\n") + 1, match.group(2)))
    return out


def test_every_shell_block_is_planned() -> None:
    blocks = {block.key: block for block in shell_blocks()}
    unplanned = [f"{b.doc}:{b.line}: {key[1]!r}" for key, b in blocks.items() if key not in PLAN]
    assert not unplanned, f"shell blocks with no entry in PLAN (a Run, or an Illustration saying why): {unplanned}"
    stale = [key for key in PLAN if key not in blocks]
    assert not stale, f"PLAN entries whose block is gone or changed: {stale}"
    illustrations = [key for key, entry in PLAN.items() if isinstance(entry, Illustration)]
    assert len(illustrations) * 2 < len(PLAN), "most blocks must run; only a few are illustrations"
    for block in blocks.values():
        entry = PLAN[block.key]
        if isinstance(entry, Run):
            for line in entry.skip:
                assert line in block.text and entry.why, (block.key, line)


def _script(block: Block, run: Run) -> str:
    lines = [line for line in block.text.splitlines() if not any(line.startswith(s) for s in run.skip)]
    text = "\n".join(lines)
    for placeholder, place in PLACES.items():
        text = text.replace(placeholder, place)
    return f"set -e\n{run.setup}\n{text}\n"


def _fresh_machine(tmp_path: Path) -> dict[str, str]:
    """HOME, a clone of the work tree, an empty virtualenv first on PATH; pip's wheel cache shared."""
    home = tmp_path / "home"
    clone = home / "src" / "memgit"
    clone.mkdir(parents=True)
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True).stdout.split(
        b"\0"
    )
    for name in filter(None, tracked):
        source = REPO_ROOT / os.fsdecode(name)
        if source.is_file():
            (clone / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / os.fsdecode(name))
    identity = {"GIT_AUTHOR_NAME": "Doc Reader", "GIT_AUTHOR_EMAIL": "reader@example.invalid"}
    identity |= {"GIT_COMMITTER_NAME": "Doc Reader", "GIT_COMMITTER_EMAIL": "reader@example.invalid"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "clone"]):
        subprocess.run(["git", *args], cwd=clone, check=True, capture_output=True, env={**os.environ, **identity})
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    tools = home / "tools"  # the framework, as a user who follows docs/HOOKS.md has it
    tools.mkdir()
    (tools / "pre-commit").symlink_to(Path(sys.executable).parent / "pre-commit")
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    config = re.search(r"```yaml\n(default_install_hook_types.*?)```", readme, re.DOTALL)
    assert config is not None, "README's .pre-commit-config.yaml block"
    (home / "pre-commit-config.yaml").write_text(config.group(1))
    # The user's pip cache (tests/conftest.py names it before HOME changes): the wheel of
    # llama-cpp-python that ./dev built is used, not compiled again in this HOME.
    pip_cache = os.environ.get("MEMGIT_TEST_PIP_CACHE") or str(tmp_path / "pip-cache")
    drop = ("HOME", "PATH", "VIRTUAL_ENV", "PYTHONPATH", "MEMGIT_CACHE_DIR", "MEMGIT_MODEL", "XDG_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env |= identity | {"HOME": str(home), "CLONE": str(clone), "PIP_CACHE_DIR": pip_cache}
    env["PYTHONFAULTHANDLER"] = "1"  # a command that crashes in C prints every thread's Python stack
    env |= {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "NO_COLOR": "1", "MEMGIT_NO_PROGRESS": "1"}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), str(tools), os.environ.get("PATH", "")])
    return env


@pytest.mark.docs
def test_the_documented_commands_do_what_the_docs_say(tmp_path: Path) -> None:
    env = _fresh_machine(tmp_path)
    for block in shell_blocks():
        run = PLAN[block.key]
        if isinstance(run, Illustration):
            continue
        cwd = Path(os.path.expandvars(run.cwd.replace("$HOME", env["HOME"]).replace("$CLONE", env["CLONE"])))
        cwd.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            ["bash", "-c", _script(block, run)], cwd=cwd, env=env, capture_output=True, text=True, timeout=1200
        )
        said = proc.stdout + proc.stderr
        where = f"{block.doc}:{block.line}"
        assert proc.returncode == 0, f"{where} exited {proc.returncode}:\n{said[-3000:]}"
        for words in run.expect:
            assert words in said, f"{where} did not say {words!r}:\n{said[-3000:]}"
        for words in run.refuse:
            assert words not in said, f"{where} said {words!r}:\n{said[-3000:]}"
        for name in run.files:
            path = Path(name.replace("$HOME", env["HOME"]).replace("$CLONE", env["CLONE"]))
            assert path.exists(), f"{where} left no {path}:\n{said[-3000:]}"
