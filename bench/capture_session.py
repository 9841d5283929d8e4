"""A long agent session captured by the host's hooks: what PreCompact / SessionEnd cost.

    .venv/bin/python bench/capture_session.py DIR [--turns 1500] [--seed 0]

Builds, under DIR, a memory workspace (`memgit init`, memgit's git hooks installed, so a capture's
commit runs the memory lint and the post-commit indexer) and `transcript.jsonl`: a Claude Code
session of `--turns` user and assistant text turns in the host's record shapes, with a tool call
and a large tool result (build logs, ~40 KB) every other exchange, as real sessions carry (a
1,500-turn session is ~20 MB). It writes three scripts for `farm-bench`:

* `first.sh`: PreCompact on the whole session as a new session (a new id each run): parse,
  redact, append ~1,500 lines, commit (lint + index hooks), index the text; vectors left pending;
* `again.sh`: PreCompact on the same session again, nothing new (after one `first` run);
* `start.sh`: SessionStart (the context, stdout to /dev/null).

    farm-bench -n 5 --timeout 600 -- DIR/first.sh
    farm-bench -n 5 -- DIR/again.sh
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


def _record(n: int, kind: str, content: object, session: str) -> str:
    role = "assistant" if kind == "assistant" else "user"
    message: dict[str, object] = {"role": role, "content": content}
    if role == "assistant":
        message |= {"id": f"msg_{n:06d}", "model": "claude-sonnet-4-5"}
    return json.dumps(
        {
            "type": kind,
            "uuid": f"00000000-0000-4000-8000-{n:012d}",
            "parentUuid": f"00000000-0000-4000-8000-{n - 1:012d}" if n else None,
            "sessionId": session,
            "timestamp": f"2026-12-01T{8 + n // 3600 % 12:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z",
            "isSidechain": False,
            "cwd": "/home/dev/app",
            "message": message,
        }
    )


def transcript(turns: int, seed: int, session: str = "bench-session") -> str:
    """A Claude Code transcript with `turns` text turns (user and assistant in turn)."""
    rng = random.Random(seed)
    lines: list[str] = []
    n = 0
    for exchange in range(turns // 2):
        lines.append(_record(n, "user", " ".join(_sentence(rng, 12) for _ in range(3)), session))
        n += 1
        blocks: list[dict[str, object]] = [{"type": "text", "text": " ".join(_sentence(rng, 14) for _ in range(6))}]
        if exchange % 2:
            blocks.append({"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": "make test"}})
        lines.append(_record(n, "assistant", blocks, session))
        n += 1
        if exchange % 2:
            output = "\n".join(f"[{i:04d}] {_sentence(rng, 10)}" for i in range(550))
            result = [{"type": "tool_result", "tool_use_id": f"toolu_{n - 1}", "content": output}]
            lines.append(_record(n, "user", result, session))
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
    path.write_text(transcript(args.turns, args.seed))
    hook = f"{python} -m memgit hook claude-code"
    payload = (
        '{"session_id":"%s","transcript_path":"' + str(path) + '","cwd":"' + str(mem) + '","hook_event_name":"%s"}'
    )
    _script(root / "first.sh", f"printf '{payload}' \"run-$$\" PreCompact | {hook} >/dev/null\n")
    _script(root / "again.sh", f"printf '{payload}' fixed PreCompact | {hook} >/dev/null\n")
    _script(root / "start.sh", f"printf '{payload}' fixed SessionStart | {hook} >/dev/null\n")
    subprocess.run([str(root / "again.sh")], check=True)  # `again` finds everything captured already
    size = path.stat().st_size
    print(f"{root}: transcript {size / 1e6:.1f} MB, {args.turns} text turns; scripts first.sh again.sh start.sh")


if __name__ == "__main__":
    main()
