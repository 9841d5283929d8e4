"""Forgetting a person agrees with: 15 entries memgit wrote, then 120 quiet days. One run proposes
at most three forgets, none of them a decision or a preference; a session-start load (`memgit
context`) and a `get` of an entry count as use; a refused forget is never proposed again."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from memgit.config import DreamConfig
from memgit.dream.events import dates_in, event_days, long_past, near_appointment, passed_plan
from memgit.dream.forget import lasting
from tests.dream.test_dream import BM25, marked
from tests.helpers import commit_all, git, memgit, memgit_json, write

LASTING = [
    "Sam prefers squash merges on the API repository.",
    "No production deploys on Fridays, decided after the 2025-03-14 outage.",
    "The team decided to keep Postgres as the only database.",
    "Dana wants a written go/no-go checklist before every launch.",
    "Always run the migration dry run on a copy before the 2025-04-02 cutover.",
]
DURABLE = [
    "The billing service runs on three nodes in eu-west-1.",
    "Project Heron migrates billing from Postgres 12 to Postgres 16.",
    "The office wifi is called lantern-guest.",
    "Priya's team maintains the nightly ETL jobs.",
]
EVENTS = [
    "The Kestrel rollback rehearsal was on 2025-03-20 at 14:00 on staging.",
    "The quarterly planning meeting was on 2025-04-07 at 10:00.",
    "The pgloader dry run on 2025-04-11 took 52 minutes.",
    "Heron cutover completed on Saturday 2025-04-19.",
    "The ETL incident review took place on April 23, 2025.",
    "Team dinner on 2025-05-02 at 19:30 at the harbour.",
]
LAST_RECALL = "2025-06-05"


def memory_text() -> str:
    parts = ["# Long-term Memory\n\n- The user prefers tea over coffee.\n\n"]
    for n, text in enumerate(LASTING + DURABLE + EVENTS):
        parts.append(
            marked(text, f"memory/2025-0{1 + n % 5}-1{n % 9}.md:5-5@" + f"{n:040x}", "2025-06-01", key=f"k{n:010d}")
            + "\n"
        )
    return "".join(parts)


def quiet_workspace(workspace: Path) -> Path:
    write(workspace / "MEMORY.md", memory_text())
    commit_all(workspace, "fifteen entries memgit wrote")
    proc = memgit(workspace, "search", "billing service nodes", "--now", f"{LAST_RECALL}T12:00:00+00:00", env=BM25)
    assert proc.returncode == 0, proc.stderr
    return workspace


def dream(root: Path, day: str) -> dict:
    return memgit_json(root, "dream", "--now", f"{day}T03:00:00+00:00", "--dry-run", env=BM25)


def test_120_quiet_days_forget_at_most_three_and_no_decision_or_preference(workspace: Path) -> None:
    root = quiet_workspace(workspace)
    out = dream(root, "2025-10-03")  # 120 days after the last recall
    forgets = [a for a in out["actions"] if a["action"] == "forget"]
    assert 1 <= len(forgets) <= 3, forgets
    assert all(a["text"] in EVENTS for a in forgets), forgets  # dated events long past, nothing else
    assert not any(lasting(a["text"]) for a in forgets)
    assert out["actions"] == forgets  # nothing else to do: no recalls to promote
    # The oldest first; the cap is a setting.
    write(root / "memgit.toml", "[dream]\nmax_forgets = 10\n")
    commit_all(root, "more forgets a run")
    every = [a["text"] for a in dream(root, "2025-10-03")["actions"]]
    assert sorted(every) == sorted(EVENTS) and every[: len(forgets)] == [a["text"] for a in forgets]


def test_a_session_start_load_and_a_get_count_as_use(workspace: Path) -> None:
    root = quiet_workspace(workspace)
    write(root / "memgit.toml", "[dream]\nmax_forgets = 10\n")
    commit_all(root, "more forgets a run")
    context = memgit(root, "context", "--date", "2025-09-20", env={**BM25, "MEMGIT_NOW": "2025-09-20T09:00:00+00:00"})
    assert context.returncode == 0 and "<!--" not in context.stdout and "mg:" not in context.stdout
    assert "The Kestrel rollback rehearsal" in context.stdout
    assert dream(root, "2025-10-03")["actions"] == []  # everything was loaded 13 days ago
    # Weeks later, one entry read with `get` stays; the other events go.
    lines = (root / "MEMORY.md").read_text().splitlines()
    at = next(n for n, line in enumerate(lines, 1) if "Team dinner" in line)
    got = memgit(root, "get", f"MEMORY.md:{at}-{at}", env={**BM25, "MEMGIT_NOW": "2025-11-20T09:00:00+00:00"})
    assert got.returncode == 0 and "Team dinner" in got.stdout and "memgit:entry" not in got.stdout
    texts = [a["text"] for a in dream(root, "2025-12-01")["actions"]]
    assert "Team dinner on 2025-05-02 at 19:30 at the harbour." not in texts and len(texts) == len(EVENTS) - 1


def test_a_refused_forget_is_never_proposed_again(workspace: Path) -> None:
    root = quiet_workspace(workspace)
    out = memgit_json(root, "dream", "--now", "2025-10-03T03:00:00+00:00", env=BM25)
    first = [a["key"] for a in out["actions"]]
    dropped = memgit_json(root, "dream", "drop", first[0], env=BM25)
    assert dropped["dropped"][0]["action"] == "forget"
    assert [a["key"] for a in dropped["actions"]] == first[1:]
    git(root, "merge", "-q", "--no-edit", out["branch"])
    later = memgit_json(root, "dream", "--now", "2025-10-10T03:00:00+00:00", "--dry-run", env=BM25)
    assert first[0] not in [a["key"] for a in later["actions"]]
    assert first[0] in (root / "MEMORY.md").read_text()


def test_forget_rules() -> None:
    assert lasting("Sam prefers squash merges.") and lasting("No production deploys on Fridays.")
    assert not lasting("The billing service runs on three nodes.")
    assert dates_in("on 2026-03-21, then March 28, 2026 and 4 April 2026") == [
        date(2026, 3, 21),
        date(2026, 3, 28),
        date(2026, 4, 4),
    ]
    assert event_days("The rehearsal is on 2026-03-20 at 14:00.") and not event_days("Heron uses Postgres 16.")
    assert not event_days("Dana joined the company in 2024.")  # no full date: not tied to a day
    assert not event_days("Dana's birthday is 1990-04-02.")  # a date alone is no event
    assert not event_days("Support hours are 9:00-20:00 starting 2025-05-18.")  # a change lasts
    # One rule, two horizons: a plan whose day has passed is not promoted, its outcome is; both are
    # forgotten once every day of them is long past.
    plan, done = "The cutover is on 2025-04-19 at 06:00.", "The cutover completed on 2025-04-19."
    assert passed_plan(plan, date(2025, 4, 20)) and not passed_plan(done, date(2025, 4, 20))
    assert not passed_plan(plan, date(2025, 4, 18))
    # A change that says when it starts lasts, though it names its first occasion too.
    change = "From the week of 2026-10-19 supervision is Tuesdays 11:00. First one Tue 20 Oct."
    assert not passed_plan(change, date(2026, 11, 6), date(2026, 10, 15))
    assert not near_appointment(change, date(2026, 10, 15), date(2026, 10, 15))
    assert near_appointment("Supervision moved to Tue 20 Oct at 11:00.", date(2026, 10, 15), date(2026, 10, 15))
    assert long_past(plan, date(2025, 7, 1)) == long_past(done, date(2025, 7, 1)) == date(2025, 4, 19)
    assert long_past(done, date(2025, 4, 19)) is None
    assert DreamConfig().max_forgets == 3
