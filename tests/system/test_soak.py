"""Soak (issue #11, point 3): one `memgit mcp` client searches and appends while git works.

For `MEMGIT_SOAK_SECONDS` (default 45) a real server, driven by the SDK's stdio client, answers
`memory_search` and `memory_append` in a loop while another thread commits, branches, merges and
checks out with memgit's hooks installed (their index updates contend for the same lock). Then:

* no tool call failed;
* no append was lost: every note is in the daily log, and the last searches find each one;
* every hit is true to its source: for a committed hit, the lines of the blob at that commit; for an
  uncommitted one, the lines of the file (the workspace only grows by appends and new files);
* the server's RSS stays within 10% of its level after warm-up, and its open file descriptors do
  not grow.

BM25 only (`MEMGIT_EMBEDDING=none`) so the test stays minutes on two shared cores.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.helpers import TODAY, git, memgit, run_async, write

SECONDS = float(os.environ.get("MEMGIT_SOAK_SECONDS", "45"))
WORDS = ["heron", "basalt", "lantern", "quartz", "meadow", "cobalt", "falcon", "juniper", "saffron", "tundra"]
TODAY_LOG = f"memory/{TODAY.isoformat()}.md"


def server_pid(parent: int) -> int | None:
    """The `memgit mcp` process the stdio client started (a child of this test process)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"mcp" in cmdline and b"memgit" in cmdline:
            return int(entry.name)
    return None


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


class GitChurn(threading.Thread):
    """Commits, branches, merges and checkouts with hooks, in the server's work tree and in a
    second worktree of the same repository. The server's work tree only ever checks out trees
    equal to its HEAD (its uncommitted daily log must never be swapped under it); branches get
    their commits in the other worktree and come back by merge."""

    def __init__(self, root: Path, stop: threading.Event) -> None:
        super().__init__(name="git-churn", daemon=True)
        self.root, self.stop_event = root, stop
        self.side = root.parent / "side-worktree"
        self.errors: list[str] = []
        self.rounds = 0

    def git(self, *args: str, cwd: Path | None = None) -> None:
        # index.lock held by a hook or the server: retry until it is released (a lock that stays
        # for a minute is a hang, whatever the machine's load).
        deadline = time.monotonic() + 60
        while True:
            proc = subprocess.run(["git", *args], cwd=cwd or self.root, capture_output=True, text=True)
            if proc.returncode == 0:
                return
            if "index.lock" not in proc.stderr or time.monotonic() > deadline:
                raise RuntimeError(f"git {' '.join(args)}: {proc.stderr.strip()}")
            time.sleep(0.05)

    def run(self) -> None:
        try:
            self.git("worktree", "add", "-q", "--detach", str(self.side), "main")
            while not self.stop_event.is_set():
                n = self.rounds
                if (self.root / TODAY_LOG).exists():
                    # Commit what `git add` staged, with no pathspec: `git commit -- PATH` reads the
                    # file twice (once for the index, once for the commit), so an append landing in
                    # between left the index behind HEAD, and the next merge refused to run.
                    self.git("add", TODAY_LOG)
                    self.git("commit", "-q", "--allow-empty", "-m", f"daily log, round {n}")
                self.git("checkout", "-q", "-B", f"side-{n}", "main", cwd=self.side)
                write(
                    self.side / "memory" / "topics" / f"topic-{n}.md", f"# Topic {n}\n\n- {WORDS[n % 10]} topic {n}.\n"
                )
                write(self.side / "src" / f"mod{n}.py", f"VALUE = {n}\n")
                self.git("add", f"memory/topics/topic-{n}.md", f"src/mod{n}.py", cwd=self.side)
                self.git("commit", "-q", "-m", f"side {n}", cwd=self.side)
                self.git("checkout", "-q", "--detach", cwd=self.side)
                self.git("merge", "-q", "--no-ff", "-m", f"merge side {n}", f"side-{n}")
                self.git("branch", "-q", "-D", f"side-{n}")
                self.git("checkout", "-q", "--detach")  # the same tree: its post-checkout hook runs
                self.git("checkout", "-q", "main")
                self.rounds += 1
        except Exception as exc:  # reported by the test, never a silent thread death
            self.errors.append(repr(exc))


def hit_is_true(root: Path, hit: dict[str, Any]) -> bool:
    start, end = hit["start_line"], hit["end_line"]
    if hit.get("source", "tree") == "tree" and hit.get("commit"):
        shown = subprocess.run(
            ["git", "show", f"{hit['commit']}:{hit['path']}"], cwd=root, capture_output=True, text=True
        )
        lines = shown.stdout.split("\n")
    else:
        lines = (root / hit["path"]).read_text(encoding="utf-8").split("\n")
    return "\n".join(lines[start - 1 : end]).strip() == hit["snippet"].strip()


@pytest.mark.slow
def test_soak_search_and_append_while_git_runs_hooks(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    monkeypatch.setenv("MEMGIT_NO_PROGRESS", "1")
    monkeypatch.delenv("MEMGIT_SKIP_HOOKS", raising=False)
    git(workspace, "branch", "-M", "main")
    assert memgit(workspace, "hooks", "install").returncode == 0
    assert memgit(workspace, "index").returncode == 0
    keep = ("HOME", "PATH", "GIT_", "MEMGIT_", "XDG_", "PYTHONPATH")
    env = {k: v for k, v in os.environ.items() if k.startswith(keep)}
    params = StdioServerParameters(command=sys.executable, args=["-m", "memgit", "mcp"], cwd=str(workspace), env=env)
    rng = random.Random(11)
    appended: list[str] = []
    failures: list[str] = []
    untrue: list[dict[str, Any]] = []
    samples: list[tuple[float, int, int]] = []
    stop = threading.Event()
    churn = GitChurn(workspace, stop)

    async def scenario() -> None:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write_stream),
                ClientSession(read, write_stream) as s,
            ):
                await s.initialize()
                pid = server_pid(os.getpid())
                assert pid is not None
                churn.start()
                started = time.monotonic()
                calls = 0
                while time.monotonic() - started < SECONDS:
                    calls += 1
                    if calls % 3 == 0:
                        token = f"soaknote{len(appended)}x{rng.choice(WORDS)}"
                        result = await s.call_tool("memory_append", {"text": f"- {token} was observed."})
                        if result.is_error:
                            failures.append(f"append: {result.content}")
                        else:
                            appended.append(token)
                    else:
                        query = rng.choice([*WORDS, *appended[-5:]]) if appended else rng.choice(WORDS)
                        result = await s.call_tool("memory_search", {"query": query, "k": 5})
                        if result.is_error:
                            failures.append(f"search: {result.content}")
                        else:
                            for hit in result.structured_content["hits"]:
                                if not hit_is_true(workspace, hit):
                                    untrue.append(hit)
                    if calls % 10 == 0:
                        samples.append((time.monotonic() - started, rss_kib(pid), open_fds(pid)))
                stop.set()
                await anyio.to_thread.run_sync(churn.join, 60)
                # The server answers from the last index while an update runs (it never blocks a
                # search longer than its update wait): the end waits until it says it is fresh.
                settle = time.monotonic()
                while time.monotonic() - settle < 120:
                    status = (await s.call_tool("memory_status", {})).structured_content or {}
                    if status.get("index", {}).get("fresh") and not status.get("server", {}).get("updating"):
                        break
                    await anyio.sleep(0.5)
                # Every note is findable at the end (the last index update has caught up).
                for token in appended:
                    result = await s.call_tool("memory_search", {"query": token, "k": 3})
                    found = not result.is_error and any(
                        token in h["snippet"] for h in result.structured_content["hits"]
                    )
                    if not found:
                        failures.append(f"lost from search: {token}")
                samples.append((time.monotonic() - started, rss_kib(pid), open_fds(pid)))

    run_async(scenario)

    assert churn.errors == []
    assert churn.rounds >= 3, "git did too little to call this a soak"
    assert len(appended) >= 20
    assert failures == []
    assert untrue == [], json.dumps(untrue, indent=1)[:4000]
    log_text = (workspace / TODAY_LOG).read_text(encoding="utf-8")
    assert [t for t in appended if t not in log_text] == []
    warm = [s for s in samples if s[0] >= SECONDS / 4]
    assert len(warm) >= 3, samples
    base_rss, base_fds = warm[0][1], max(s[2] for s in samples if s[0] < SECONDS / 4 + 1)
    peak_rss = max(s[1] for s in warm)
    assert peak_rss <= base_rss * 1.10, f"RSS grew from {base_rss} to {peak_rss} KiB: {samples}"
    assert warm[-1][2] <= base_fds + 1, f"file descriptors grew: {samples}"
    print(json.dumps({"appends": len(appended), "git_rounds": churn.rounds, "rss_kib": [s[1] for s in samples]}))
