"""Generate a synthetic memory workspace: daily logs, notes and MEMORY.md, committed to git.

    .venv/bin/python bench/gen_workspace.py DEST --files 2000 [--seed 0] [--start-date 2025-01-01]
        [--end-date 2026-06-30] [--commits 1]

``N`` files: daily logs ``memory/YYYY-MM-DD.md`` on consecutive dates from ``--start-date``, never
past ``--end-date`` (a fixed past date, so the default workspace has no future-dated logs and does not
depend on today's date); files beyond that become notes ``memory/notes/<topic>-NNNN.md``. Plus a
curated ``MEMORY.md``. Text (≈1–4 KB per file) is drawn from seeded vocabularies (``bench/vocab.py``),
so it is varied and searchable. File ``i``'s content depends only on ``(seed, i)``: a smaller
workspace is a prefix of a larger one. The result is deterministic, commit hashes included (fixed
identity and dates, global and system git config ignored).

Importable: ``generate(dest, files, seed) -> Path``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import vocab as V  # noqa: E402

DEFAULT_START = dt.date(2025, 1, 1)
DEFAULT_END = dt.date(2026, 6, 30)
ROLLBACKS = ("pin the previous image", "flip the flag off", "restore the snapshot")
GIT_NAME = "memgit bench"
GIT_EMAIL = "bench@example.invalid"


@dataclass(frozen=True)
class GenFile:
    path: str  # relative posix path
    text: str
    date: dt.date  # the day it belongs to (notes: the day after the last daily log, + index)


# ---------------------------------------------------------------------------- text (pure, seeded)


def codename(rng: random.Random) -> str:
    return f"{rng.choice(V.ADJECTIVES)}-{rng.choice(V.ANIMALS)}"


def first(name: str) -> str:
    return name.split()[0]


def version(rng: random.Random) -> str:
    return f"{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 12)}"


def ticket(rng: random.Random) -> str:
    return f"{rng.choice(('OPS', 'ENG', 'SEC', 'DATA', 'PAY'))}-{rng.randint(100, 9999)}"


def _b_decision(r: random.Random) -> str:
    return (
        f"- Decision ({r.choice(V.PROJECTS)}): {r.choice(V.DECISIONS)}; "
        f"{r.choice(V.PEOPLE)} and {first(r.choice(V.PEOPLE))} agreed."
    )


def _b_metric(r: random.Random) -> str:
    service, env = r.choice(V.SERVICES), r.choice(V.ENVS)
    return r.choice(
        (
            f"- {service} p{r.choice((50, 95, 99))} latency was {r.randint(12, 980)} ms on {env}.",
            f"- {service} error rate hit {r.uniform(0.1, 9.9):.1f}% on {env} after the deploy.",
            f"- {service} peaked at {r.randint(2, 900)}k requests/s on {env}.",
        )
    )


def _b_deploy(r: random.Random) -> str:
    return (
        f"- Deployed {r.choice(V.SERVICES)} v{version(r)} to {r.choice(V.ENVS)}; "
        f"rollback plan is to {r.choice(ROLLBACKS)}."
    )


def _b_todo(r: random.Random) -> str:
    return f"- TODO: {first(r.choice(V.PEOPLE))} to {r.choice(V.TASKS)} by {r.choice(V.WEEKDAYS)}."


def _b_bug(r: random.Random) -> str:
    return f"- Bug {ticket(r)}: {r.choice(V.SYMPTOMS)} in {r.choice(V.SERVICES)}; root cause was {r.choice(V.CAUSES)}."


def _b_meeting(r: random.Random) -> str:
    return (
        f"- Met {r.choice(V.PEOPLE)} ({r.choice(V.TEAMS)}) about {r.choice(V.PROJECTS)}: "
        f"they want to try {r.choice(V.TECH)} instead of {r.choice(V.TECH)}."
    )


def _b_codename(r: random.Random) -> str:
    phase = r.choice(("pilot", "rewrite", "spike", "beta"))
    return f"- The code name for the {r.choice(V.PROJECTS)} {phase} is **{codename(r)}**."


def _b_budget(r: random.Random) -> str:
    return (
        f"- Budget for {r.choice(V.PROJECTS)} Q{r.randint(1, 4)}: ${r.randint(5, 400)}k, "
        f"approved by {r.choice(V.PEOPLE)}."
    )


def _b_personal(r: random.Random) -> str:
    person, name = r.choice(V.PEOPLE), first(r.choice(V.PEOPLE))
    food, hobby, place = r.choice(V.FOODS), r.choice(V.HOBBIES), r.choice(V.PLACES)
    month = r.choice(("March", "July", "October"))
    return r.choice(
        (
            f"- {name} is back from {place} and recommends the {food} there.",
            f"- {person} has picked up {hobby}; ask how it is going.",
            f"- Lunch with {name}: {food}. Talked about {hobby}.",
            f"- {name}'s birthday is on {r.randint(1, 28)} {month}.",
        )
    )


def _b_number(r: random.Random) -> str:
    return (
        f"- {r.choice(V.TECH)} cluster for {r.choice(V.TEAMS)} now has {r.randint(3, 64)} nodes and "
        f"{r.randint(1, 90)} TB; cost ${r.randint(1, 40)},{r.randint(100, 999)}/month."
    )


BULLETS: tuple[Callable[[random.Random], str], ...] = (
    _b_decision,
    _b_metric,
    _b_deploy,
    _b_todo,
    _b_bug,
    _b_meeting,
    _b_codename,
    _b_budget,
    _b_personal,
    _b_number,
)


def prose(r: random.Random) -> str:
    return (
        f"Spent the block on {r.choice(V.PROJECTS)} with {first(r.choice(V.PEOPLE))}. "
        f"The {r.choice(V.SYMPTOMS)} turned out to be {r.choice(V.CAUSES)}, "
        f"so we agreed to {r.choice(V.DECISIONS)}. Next: {r.choice(V.TASKS)}."
    )


def code_block(r: random.Random) -> list[str]:
    service = r.choice(V.SERVICES)
    command = r.choice(V.COMMANDS).format(
        service=service,
        service_slug=service.replace("-", "_"),
        team_slug=r.choice(V.TEAMS).replace(" ", "-").lower(),
        n=r.randint(1, 5000),
        major=r.randint(1, 9),
        minor=r.randint(0, 30),
    )
    return ["```bash", command, "```"]


def section(r: random.Random, heading: str) -> list[str]:
    lines = [heading, ""]
    for _ in range(r.randint(2, 6)):
        lines.append(r.choice(BULLETS)(r))
    if r.random() < 0.35:
        lines += ["", prose(r)]
    if r.random() < 0.15:
        lines += ["", *code_block(r)]
    return [*lines, ""]


def body(r: random.Random, title: str, timed: bool) -> str:
    """A Markdown document of ≈1–4 KB: a title, then sections until the target size is reached."""
    target = r.randint(1000, 4000)
    lines = [title, ""]
    minute = r.randint(7 * 60, 10 * 60)
    size = len(title)
    while size < target - 150:
        topic = r.choice(V.TOPICS)
        heading = f"## {minute // 60:02d}:{minute % 60:02d} {topic}" if timed else f"## {topic.capitalize()}"
        new = section(r, heading)
        if size + sum(len(x) + 1 for x in new) > 4000 and size >= 1000:
            break
        lines += new
        size += sum(len(x) + 1 for x in new)
        minute = min(minute + r.randint(20, 150), 23 * 60 + 59)
    return "\n".join(lines).rstrip("\n") + "\n"


def daily_log(seed: int, index: int, day: dt.date) -> GenFile:
    r = random.Random(f"memgit-bench:{seed}:{index}")
    return GenFile(f"memory/{day.isoformat()}.md", body(r, f"# {day.isoformat()}", timed=True), day)


def note(seed: int, index: int, serial: int, day: dt.date) -> GenFile:
    r = random.Random(f"memgit-bench:{seed}:{index}")
    subject = f"{r.choice(V.PROJECTS)} {r.choice(('notes', 'design', 'runbook', 'research', 'decisions'))}"
    slug = subject.lower().replace(" ", "-")
    return GenFile(f"memory/notes/{slug}-{serial:04d}.md", body(r, f"# {subject}", timed=False), day)


def memory_md(seed: int) -> str:
    r = random.Random(f"memgit-bench:{seed}:MEMORY")
    lines = ["# Long-term Memory", "", "## People", ""]
    for person in r.sample(V.PEOPLE, 12):
        team, hobby = r.choice(V.TEAMS), r.choice(V.HOBBIES)
        style = r.choice(("async updates", "calls", "short docs"))
        lines.append(f"- {person} works on {team}; prefers {style} and is into {hobby}.")
    lines += ["", "## Projects", ""]
    for project in r.sample(V.PROJECTS, 10):
        owner, tech = r.choice(V.PEOPLE), r.choice(V.TECH)
        lines.append(f"- {project}: owned by {owner}, built on {tech}, code name **{codename(r)}**.")
    lines += ["", "## Decisions", ""]
    lines += [f"- {d[0].upper()}{d[1:]}." for d in r.sample(V.DECISIONS, 6)]
    lines += ["", "## Preferences", ""]
    lines += [
        "- The user prefers concise answers with links to the source note.",
        f"- Favourite lunch spot serves {r.choice(V.FOODS)}.",
        f"- Working hours: {r.randint(7, 9)}:00–{r.randint(16, 18)}:00 UTC, no meetings on {r.choice(V.WEEKDAYS)}s.",
    ]
    return "\n".join(lines) + "\n"


def plan_files(
    files: int, seed: int, start: dt.date = DEFAULT_START, end: dt.date | None = DEFAULT_END
) -> list[GenFile]:
    """The ``files`` memory files in date order (daily logs first, then notes). Pure."""
    if end is not None and end < start:
        raise ValueError(f"end date {end} is before start date {start}")
    days = files if end is None else min(files, (end - start).days + 1)
    planned = [daily_log(seed, i, start + dt.timedelta(days=i)) for i in range(days)]
    last = start + dt.timedelta(days=days - 1) if days else start
    for serial, index in enumerate(range(days, files), start=1):
        planned.append(note(seed, index, serial, last + dt.timedelta(days=1)))
    return planned


def split_commits(planned: Sequence[GenFile], commits: int) -> list[list[GenFile]]:
    """Contiguous groups, as even as possible, at most ``commits`` of them, none empty. Pure."""
    commits = max(1, min(commits, len(planned) or 1))
    size, extra = divmod(len(planned), commits)
    groups, at = [], 0
    for i in range(commits):
        take = size + (1 if i < extra else 0)
        groups.append(list(planned[at : at + take]))
        at += take
    return groups


# ---------------------------------------------------------------------------- side effects


def git_env(when: dt.datetime) -> dict[str, str]:
    stamp = f"{int(when.timestamp())} +0000"
    env = dict(os.environ)
    for key in [k for k in env if k.startswith("GIT_")]:
        del env[key]
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME=GIT_NAME,
        GIT_AUTHOR_EMAIL=GIT_EMAIL,
        GIT_COMMITTER_NAME=GIT_NAME,
        GIT_COMMITTER_EMAIL=GIT_EMAIL,
        GIT_AUTHOR_DATE=stamp,
        GIT_COMMITTER_DATE=stamp,
        LC_ALL="C",
    )
    return env


def run_git(dest: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", "-C", str(dest), *args], env=env, check=True, stdout=subprocess.DEVNULL)


def commit_time(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, 22, 0, tzinfo=dt.UTC)


def generate(
    dest: Path,
    files: int,
    seed: int = 0,
    *,
    start: dt.date = DEFAULT_START,
    end: dt.date | None = DEFAULT_END,
    commits: int = 1,
) -> Path:
    """Write and commit a synthetic workspace at ``dest`` (new or empty); returns ``dest``."""
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise FileExistsError(f"{dest} exists and is not empty")
    dest.mkdir(parents=True, exist_ok=True)
    planned = plan_files(files, seed, start, end)
    groups = split_commits(planned, commits)
    run_git(dest, git_env(commit_time(start)), "init", "-q", "-b", "main")
    (dest / "MEMORY.md").write_text(memory_md(seed), encoding="utf-8")
    for number, group in enumerate(groups, start=1):
        for item in group:
            target = dest / item.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(item.text, encoding="utf-8")
        env = git_env(commit_time(group[-1].date if group else start))
        run_git(dest, env, "add", "-A")
        message = f"memory: {len(group)} files ({number}/{len(groups)})"
        run_git(dest, env, "commit", "-q", "--no-verify", "--allow-empty", "-m", message)
    return dest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate a synthetic memgit memory workspace (git repo).")
    parser.add_argument("dest", type=Path, help="new or empty directory")
    parser.add_argument("--files", type=int, required=True, help="memory files to write (daily logs + notes)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start-date", type=dt.date.fromisoformat, default=DEFAULT_START)
    parser.add_argument(
        "--end-date",
        type=dt.date.fromisoformat,
        help=f"last daily log date (default {DEFAULT_END}, or no limit if --start-date is later)",
    )
    parser.add_argument("--commits", type=int, default=1, help="spread the files over K commits")
    args = parser.parse_args(argv)
    if args.end_date is None:
        end = DEFAULT_END if args.start_date <= DEFAULT_END else None
    elif args.end_date < args.start_date:
        parser.error("--end-date is before --start-date")
    else:
        end = args.end_date
    generate(args.dest, args.files, args.seed, start=args.start_date, end=end, commits=args.commits)
    print(f"generated {args.files} files in {args.dest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
