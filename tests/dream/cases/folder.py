"""A workspace case written in folders (by helpers that never read memgit's code), lived for real.

The folder's format (the brief its writers had): `start/MEMORY.md` (optional, hand-written before
day one), `days/YYYY-MM-DD/<path in the notes folder>` (daily logs under memory/, other notes,
session transcripts under sessions/), `queries.jsonl` (`{"day", "time", "query"}`: the searches
the assistant ran), and, written by a second helper before any run, `labels.jsonl` (one label per
line of every file) with `subjects.md`.

`live` plays it day by day in a real git workspace: `start/MEMORY.md` committed on day zero; each
day's files committed on their day (a commit the pre-commit lint refuses, a day holding a secret,
is made again with `--no-verify`, as from a clone without hooks), indexed; the day's queries run
with `memgit search --batch --now`, the recall spool published; a dream night every 7th day and on
the last day, its branch merged as it is. `folder_score.py` scores what came out by the labels.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from memgit.core.paths import ENTRIES_PATH
from tests.helpers import LAUNCHER

#: A dream night every this many days (counted from the first day), and on the last day.
NIGHT_EVERY = 7


@dataclass(frozen=True)
class Label:
    path: str
    line: int
    label: str
    subject: str | None = None
    version: int = 0
    of: int | None = None
    note: str = ""


@dataclass
class FolderCase:
    name: str
    root: Path
    start_memory: str | None
    #: day -> {path in the notes folder: text}
    days: dict[str, dict[str, str]]
    #: day -> [(time, query)] in the order written
    queries: dict[str, list[tuple[str, str]]]
    labels: dict[tuple[str, int], Label]
    #: (path, day, line) -> label, for a file written again on a later day (its labels name the
    #: day of the version they read); `labels` holds the last version's.
    dated_labels: dict[tuple[str, str, int], Label] = field(default_factory=dict)

    @property
    def first(self) -> date:
        return date.fromisoformat(min(set(self.days) | set(self.queries)))

    @property
    def last(self) -> date:
        return date.fromisoformat(max(set(self.days) | set(self.queries)))

    def nights(self) -> list[str]:
        first, last = self.first, self.last
        out = []
        day = first + timedelta(days=NIGHT_EVERY - 1)
        while day < last:
            out.append(day.isoformat())
            day += timedelta(days=NIGHT_EVERY)
        out.append(last.isoformat())
        return out

    def text_of(self, path: str, night: str | None = None) -> str | None:
        """A file's text as the case wrote it (`MEMORY.md`: the hand-written start): a file written
        again on a later day is its last version written on or before `night` (any night: the last)."""
        if path == "MEMORY.md":
            return self.start_memory
        day = self.version_day(path, night)
        return self.days[day][path] if day is not None else None

    def version_day(self, path: str, night: str | None = None) -> str | None:
        """The day of the version of `path` a dream on `night` read (the first version when none
        was written by then)."""
        written = sorted(day for day, files in self.days.items() if path in files)
        if not written:
            return None
        before = [day for day in written if night is None or day <= night]
        return before[-1] if before else written[0]

    def label_of(self, path: str, line: int, night: str | None = None) -> Label | None:
        """A line's label in the version of its file a dream on `night` read."""
        day = self.version_day(path, night)
        dated = self.dated_labels.get((path, day or "", line))
        return dated if dated is not None else self.labels.get((path, line))

    def day_of(self, path: str) -> str | None:
        """The day a file was written on (None for MEMORY.md: day zero)."""
        for day, files in self.days.items():
            if path in files:
                return day
        return None


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    out = []
    if not path.is_file():
        return out
    for raw in path.read_text(encoding="utf-8").splitlines():
        raw = raw.strip()
        if not raw:
            continue
        try:
            obj = json.loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return out


def _labels(folder: Path) -> tuple[dict[tuple[str, int], Label], dict[tuple[str, str, int], Label]]:
    """The labels by (path, line), the last version's for a file written again; and by (path, day,
    line) for the labels that name the day of their file's version."""
    out: dict[tuple[str, int], Label] = {}
    dated: dict[tuple[str, str, int], Label] = {}
    latest: dict[tuple[str, int], str] = {}
    for obj in _read_jsonl(folder / "labels.jsonl"):
        try:
            path, line, label = str(obj["path"]), int(obj["line"]), str(obj["label"]).strip().upper()
        except (KeyError, TypeError, ValueError):
            continue
        path = path.removeprefix("start/")
        if path.startswith("days/"):
            path = path.split("/", 2)[2] if path.count("/") >= 2 else path
        version = obj.get("version")
        of = obj.get("of")
        made = Label(
            path,
            line,
            label[:1],
            str(obj["subject"]) if obj.get("subject") else None,
            int(version) if isinstance(version, int | float) or (isinstance(version, str) and version.isdigit()) else 0,
            int(of) if isinstance(of, int) else None,
            str(obj.get("note") or ""),
        )
        day = str(obj.get("day") or "")
        if day:
            dated[(path, day, line)] = made
        if day >= latest.get((path, line), ""):
            latest[(path, line)] = day
            out[(path, line)] = made
    return out, dated


def load(folder: Path) -> FolderCase:
    """Read a case folder (see the module's docstring); files that are not UTF-8 text are skipped."""
    folder = Path(folder)
    start = folder / "start" / "MEMORY.md"
    days: dict[str, dict[str, str]] = {}
    for day_dir in sorted((folder / "days").iterdir()) if (folder / "days").is_dir() else []:
        if not day_dir.is_dir():
            continue
        files: dict[str, str] = {}
        for path in sorted(p for p in day_dir.rglob("*") if p.is_file()):
            try:
                files[path.relative_to(day_dir).as_posix()] = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
        if files:
            days[day_dir.name] = files
    queries: dict[str, list[tuple[str, str]]] = {}
    for obj in _read_jsonl(folder / "queries.jsonl"):
        day, query = str(obj.get("day", "")), str(obj.get("query", "")).strip()
        if len(day) == 10 and query:
            queries.setdefault(day, []).append((str(obj.get("time") or "12:00"), query))
    return FolderCase(
        folder.name,
        folder,
        start.read_text(encoding="utf-8") if start.is_file() else None,
        days,
        queries,
        *_labels(folder),
    )


@dataclass
class Night:
    day: str
    seconds: float
    memory_before: str
    actions: list[dict[str, Any]]
    gates: dict[str, int]
    branch: str | None
    branch_text: str = ""  # `git log -p` of the branch: commits, report, provenance, concepts
    report: str = ""
    memory_after: str = ""
    store_after: str = ""
    rerun_identical: bool | None = None


@dataclass
class Lived:
    nights: list[Night] = field(default_factory=list)
    memory: str = ""
    store: str = ""
    no_verify_days: list[str] = field(default_factory=list)
    searches: int = 0


def _run(cmd: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None) -> str:
    if cmd[1:3] == ["-m", "memgit"]:
        proc = LAUNCHER.run(cmd, cwd, env, stdin, timeout=1800)
    else:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, input=stdin, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}{proc.stdout}")
    return proc.stdout


def _dated(env: dict[str, str], stamp: str) -> dict[str, str]:
    return {**env, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}


def _commit_day(root: Path, day: str, files: dict[str, str], env: dict[str, str], lived: Lived) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    _run(["git", "add", "--", *files], root, env)
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", f"notes {day}"], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:  # the pre-commit lint refused it: as from a clone without hooks
        _run(["git", "commit", "-q", "--no-verify", "-m", f"notes {day}"], root, env)
        lived.no_verify_days.append(day)


def _git_text(root: Path, env: dict[str, str], *args: str) -> str:
    return _run(["git", *args], root, env)


def _night(root: Path, day: str, memgit: list[str], env: dict[str, str], rerun: bool) -> Night:
    now = f"{day}T22:00:00+00:00"
    memory_before = (root / "MEMORY.md").read_text(encoding="utf-8") if (root / "MEMORY.md").exists() else ""
    started = time.perf_counter()
    out = json.loads(_run([*memgit, "dream", "--now", now, "--json"], root, env))
    seconds = time.perf_counter() - started
    night = Night(day, seconds, memory_before, out.get("actions", []), out.get("gates", {}), out.get("branch"))
    night.report = out.get("report") or ""
    if night.branch:
        if rerun:
            again = json.loads(_run([*memgit, "dream", "--now", now, "--json", "--force"], root, env))
            night.rerun_identical = again.get("commits") == out.get("commits")
        night.branch_text = _git_text(root, env, "log", "-p", "--format=%H%n%B", f"HEAD..{night.branch}")
        _run(["git", "merge", "-q", "--no-edit", night.branch], root, _dated(env, now))
    night.memory_after = (root / "MEMORY.md").read_text(encoding="utf-8") if (root / "MEMORY.md").exists() else ""
    store = root / ENTRIES_PATH
    night.store_after = store.read_text(encoding="utf-8") if store.exists() else ""
    return night


def live(case: FolderCase, root: Path, env: dict[str, str] | None = None, *, rerun: bool = False) -> Lived:
    """Live the case in a new workspace at `root` (see the module's docstring). `env` may choose the
    model (MEMGIT_MODEL); `rerun`: each night's dream is run a second time (`--force`) and its
    commits compared with the first's (byte-identical reruns)."""
    env = {**os.environ, **(env or {}), "MEMGIT_NO_RECALL": "0"}
    memgit = [sys.executable, "-m", "memgit"]
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    day_zero = (case.first - timedelta(days=1)).isoformat()
    zero = _dated(env, f"{day_zero}T09:00:00+00:00")
    _run(["git", "init", "-q", "-b", "main"], root, env)
    if case.start_memory is not None:
        (root / "MEMORY.md").write_text(case.start_memory, encoding="utf-8")
    _run([*memgit, "init", "--hooks"], root, env)
    _run(["git", "add", "-A"], root, zero)
    _run(["git", "commit", "-q", "--no-verify", "-m", "notes before day one"], root, zero)
    lived = Lived()
    nights = set(case.nights())
    day = case.first
    while day <= case.last:
        iso = day.isoformat()
        if iso in case.days:
            _commit_day(root, iso, case.days[iso], _dated(env, f"{iso}T09:00:00+00:00"), lived)
            _run([*memgit, "index", "-q"], root, env)
        asked = case.queries.get(iso, [])
        if asked:
            when = max(t for t, _ in asked)
            now = f"{iso}T{when if len(when) == 5 else '18:00'}:00+00:00"
            _run([*memgit, "search", "--batch", "-", "--now", now, "--json"], root, env, "\n".join(q for _, q in asked))
            lived.searches += len(asked)
            _run([*memgit, "recalls", "publish"], root, _dated(env, f"{iso}T19:00:00+00:00"))
        if iso in nights:
            lived.nights.append(_night(root, iso, memgit, env, rerun))
        day += timedelta(days=1)
    lived.memory = (root / "MEMORY.md").read_text(encoding="utf-8") if (root / "MEMORY.md").exists() else ""
    store = root / ENTRIES_PATH
    lived.store = store.read_text(encoding="utf-8") if store.exists() else ""
    return lived
