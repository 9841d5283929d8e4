"""A long agent session captured by the host's hooks: what PreCompact / SessionEnd cost.

    .venv/bin/python bench/capture_session.py DIR [--turns 1500] [--seed 0]

Builds, under DIR, a memory workspace (`memgit init`, memgit's git hooks installed, so a capture's
commit runs the memory lint and the post-commit indexer) and `transcript.jsonl`: a Claude Code
session of `--turns` user and assistant text turns in the host's record shapes, with a tool call
and a large tool result (build logs, ~40 KB) every other exchange, as real sessions carry (a
1,500-turn session is ~20 MB). It writes three scripts to time (each process under `/usr/bin/time -v`, several runs):

* `first.sh`: PreCompact on a whole new session (the next of `--runs` transcripts, each with record
  ids of its own; a new id each run): parse,
  redact, append ~1,500 lines, commit (lint + index hooks), index the text; vectors left pending;
* `again.sh`: PreCompact on the same session again, nothing new (after one `first` run);
* `start.sh`: SessionStart (the context, stdout to /dev/null).

    for i in 1 2 3 4 5; do /usr/bin/time -v DIR/first.sh; done   # at most --runs runs
    for i in 1 2 3 4 5; do /usr/bin/time -v DIR/again.sh; done
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

WORDS = (
    "deploy cache rollback schema index ticket owner release staging queue latency budget migration "
    "replica cutover invoice customer dashboard alert timeout retry backoff shard vendor contract"
).split()


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def _record(n: int, kind: str, content: object, session: str, run: int = 0) -> str:
    role = "assistant" if kind == "assistant" else "user"
    message: dict[str, object] = {"role": role, "content": content}
    if role == "assistant":
        message |= {"id": f"msg_{n:06d}", "model": "claude-sonnet-4-5"}
    return json.dumps(
        {
            "type": kind,
            "uuid": f"{run:08x}-0000-4000-8000-{n:012d}",
            "parentUuid": f"{run:08x}-0000-4000-8000-{n - 1:012d}" if n else None,
            "sessionId": session,
            "timestamp": f"2026-12-01T{8 + n // 3600 % 12:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z",
            "isSidechain": False,
            "cwd": "/home/dev/app",
            "message": message,
        }
    )


def transcript(turns: int, seed: int, session: str = "bench-session", run: int = 0) -> str:
    """A Claude Code transcript with `turns` text turns (user and assistant in turn); `run` makes
    its record ids its own (memgit stores a record id once across sessions: a fork's copies)."""
    rng = random.Random(seed)
    lines: list[str] = []
    n = 0
    for exchange in range(turns // 2):
        lines.append(_record(n, "user", " ".join(_sentence(rng, 12) for _ in range(3)), session, run))
        n += 1
        blocks: list[dict[str, object]] = [{"type": "text", "text": " ".join(_sentence(rng, 14) for _ in range(6))}]
        if exchange % 2:
            blocks.append({"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": "make test"}})
        lines.append(_record(n, "assistant", blocks, session, run))
        n += 1
        if exchange % 2:
            output = "\n".join(f"[{i:04d}] {_sentence(rng, 10)}" for i in range(550))
            result = [{"type": "tool_result", "tool_use_id": f"toolu_{n - 1}", "content": output}]
            lines.append(_record(n, "user", result, session, run))
            n += 1
    return "\n".join(lines) + "\n"


def _script(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\nset -e\n" + body)
    path.chmod(0o755)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", type=Path)
    parser.add_argument("--turns", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--runs", type=int, default=8, help="transcripts for first.sh (the timed runs, warm-up included)"
    )
    args = parser.parse_args()
    root: Path = args.dir.resolve()
    root.mkdir(parents=True, exist_ok=True)
    mem = root / "mem"
    python = sys.executable
    if not mem.exists():
        subprocess.run([python, "-m", "memgit", "init", str(mem)], check=True, capture_output=True)
        (mem / "MEMORY.md").write_text("# Long-term Memory\n\n- Releases go out on Thursdays.\n")
        subprocess.run(["git", "-C", str(mem), "add", "-A"], check=True)
        subprocess.run(["git", "-C", str(mem), "commit", "-qm", "memory"], check=True)
        subprocess.run([python, "-m", "memgit", "-C", str(mem), "hooks", "install"], check=True, capture_output=True)
        subprocess.run([python, "-m", "memgit", "-C", str(mem), "index"], check=True, capture_output=True)
    path = root / "transcript.jsonl"
    if not path.exists():
        path.write_text(transcript(args.turns, args.seed))
    # `first` takes a new transcript each run (new record ids: a new session, not a fork's copy).
    for run in range(1, args.runs + 1):
        if not (root / f"transcript-{run}.jsonl").exists():
            (root / f"transcript-{run}.jsonl").write_text(transcript(args.turns, args.seed, run=run))
    (root / "next").write_text("1\n")
    hook = f"{python} -m memgit hook claude-code"
    payload = '{"session_id":"%s","transcript_path":"%s","cwd":"' + str(mem) + '","hook_event_name":"%s"}'
    _script(
        root / "first.sh",
        f"n=$(cat {root}/next); echo $((n + 1)) > {root}/next\n"
        f'printf \'{payload}\' "run-$n" "{root}/transcript-$n.jsonl" PreCompact | {hook} >/dev/null\n',
    )
    _script(root / "again.sh", f"printf '{payload}' fixed {path} PreCompact | {hook} >/dev/null\n")
    _script(root / "start.sh", f"printf '{payload}' fixed {path} SessionStart | {hook} >/dev/null\n")
    subprocess.run([str(root / "again.sh")], check=True)  # `again` finds everything captured already
    size = path.stat().st_size
    print(f"{root}: transcript {size / 1e6:.1f} MB, {args.turns} text turns; scripts first.sh again.sh start.sh")


if __name__ == "__main__":
    main()
