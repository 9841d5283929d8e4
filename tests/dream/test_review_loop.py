"""The review loop end to end, as a team lives it: a bare remote, a nightly runner's clone that
dreams with `--force --push` and a reviewer's clone. The reviewer drops one proposal, pushes a fix
of their own to the dream branch, merges, rejects a merged entry, and a later pull request is closed
unmerged. None of those proposals comes back on the next two nights, the reviewer's commit
survives the nightly run, and nobody ever needs `git revert`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgit.core.provenance import parse_marker
from memgit.dream.decisions import parse_decisions
from tests.dream.test_dream import BM25
from tests.helpers import assert_clean_error, commit_all, git, memgit, memgit_json, write

BRANCH = "memgit/dream/next"
FACTS = {
    "password": (
        "2026-02-02",
        "The staging database password rotates every Monday at nine.",
        ("staging database password", "when does the password rotate", "monday password rotation"),
    ),
    "standup": (
        "2026-02-03",
        "Bob prefers standups at ten in the morning with cameras on.",
        ("when does bob want standups", "bob standup time", "standups at ten with cameras"),
    ),
    "report": (
        "2026-02-04",
        "The quarterly finance report is due on the fifth of April.",
        ("quarterly finance report due", "when is the finance report due", "april report deadline"),
    ),
    "rota": (
        "2026-02-05",
        "Carol owns the on-call rota for the payments team.",
        ("who owns the on-call rota", "payments team on call", "carol rota owner"),
    ),
}
LATE = (
    "2026-02-06",
    "The lighthouse keeper retires in June after thirty years of service.",
    ("lighthouse keeper retirement", "when does the keeper retire", "thirty years of lighthouse service"),
)


def night(day: int) -> str:
    return f"2026-03-{day:02d}T03:00:00+00:00"


def search_days(root: Path, queries: tuple[str, ...], days: tuple[str, ...]) -> None:
    for query, day in zip(queries, days, strict=True):
        proc = memgit(root, "search", query, "--now", f"{day}T12:00:00+00:00", env=BM25)
        assert proc.returncode == 0, proc.stderr


def pull(root: Path) -> None:
    git(root, "pull", "-q", "--no-rebase", "origin", "main")


def nightly(runner: Path, day: int, *extra: str) -> dict:
    """What the CI job runs: dream on main, replace the dream branch, push it."""
    pull(runner)
    return memgit_json(
        runner, "dream", "--now", night(day), "--branch", BRANCH, "--force", "--push", "origin", *extra, env=BM25
    )


def key_of(out: dict, fact: str) -> str:
    return next(a["key"] for a in out["actions"] if a["text"] == fact)


@pytest.fixture
def team(tmp_path: Path) -> tuple[Path, Path, Path]:
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    author = tmp_path / "author"
    author.mkdir()
    git(author, "init", "-q")
    write(author / "MEMORY.md", "# Long-term Memory\n\n- The user prefers tea over coffee.\n")
    assert memgit(author, "init").returncode == 0  # .gitattributes: the ledger and decisions merge by union
    for day, fact, _ in [*FACTS.values(), LATE]:
        write(author / f"memory/{day}.md", f"# {day}\n\n## 09:00\n\n- {fact}\n")
    commit_all(author, "notes")
    for _, _, queries in FACTS.values():
        search_days(author, queries, ("2026-02-26", "2026-02-27", "2026-02-28"))
    assert memgit(author, "recalls", "publish").returncode == 0
    git(author, "remote", "add", "origin", str(bare))
    git(author, "push", "-q", "origin", "main")
    runner, reviewer = tmp_path / "runner", tmp_path / "reviewer"
    for clone in (runner, reviewer):
        git(tmp_path, "clone", "-q", str(bare), str(clone))
    return author, runner, reviewer


def test_decisions_stick_and_reviewer_commits_survive(team: tuple[Path, Path, Path]) -> None:
    author, runner, reviewer = team
    password, standup, report, rota = (FACTS[k][1] for k in ("password", "standup", "report", "rota"))

    # Night 1: four proposals, pushed.
    first = nightly(runner, 1)
    assert sorted(a["text"] for a in first["actions"]) == sorted([password, standup, report, rota])
    keys = {name: key_of(first, fact) for name, (_, fact, _) in FACTS.items()}
    body = (runner / "memory/dreams").exists() or first["report"]
    assert body and f"memgit dream drop {keys['report']}" in first["report"]  # the checklist says how

    # The reviewer drops one proposal: the branch is regenerated without it, no rebase, no conflict.
    git(reviewer, "fetch", "-q", "origin")
    git(reviewer, "branch", BRANCH, f"origin/{BRANCH}")
    dropped = memgit_json(
        reviewer, "dream", "drop", keys["report"][:7], "--push", "origin", "--now", night(1), env=BM25
    )
    assert [d["key"] for d in dropped["dropped"]] == [keys["report"]] and dropped["changed"] == []
    assert sorted(a["text"] for a in dropped["actions"]) == sorted([password, standup, rota])
    after_drop = git(reviewer, "show", f"{BRANCH}:MEMORY.md")
    assert report not in after_drop and password in after_drop
    decided, _ = parse_decisions([("d", git(reviewer, "show", f"{BRANCH}:memory/.dreams/decisions/2026-03-01.jsonl"))])
    assert [(d.key, d.verdict, d.by) for d in decided] == [(keys["report"], "rejected", "drop")]

    # ...then pushes a fix of their own: the standup proposal deleted by hand on the branch.
    git(reviewer, "checkout", "-q", BRANCH)
    memory = (reviewer / "MEMORY.md").read_text()
    (reviewer / "MEMORY.md").write_text(
        "".join(line for line in memory.splitlines(keepends=True) if standup not in line)
    )
    git(reviewer, "commit", "-q", "-am", "review: Bob's standup preference is not for MEMORY.md")
    fix = git(reviewer, "rev-parse", "HEAD").strip()
    git(reviewer, "push", "-q", "origin", BRANCH)

    # Night 2: the runner would replace the branch; it sees the reviewer's commit and leaves it.
    second = nightly(runner, 2)
    assert second["not_pushed"] and second["branch"] is None and "did not write" in second["reason"]
    assert git(runner, "ls-remote", "origin", BRANCH).split()[0] == fix
    proc = memgit(runner, "dream", "--now", night(2), "--branch", BRANCH, "--force", "--push", "origin", env=BM25)
    assert proc.returncode == 0 and "not pushed" in proc.stdout and "review: Bob" in proc.stdout

    # The reviewer merges the pull request (a merge commit, as the forge would), then rejects a merged entry.
    git(reviewer, "checkout", "-q", "main")
    git(reviewer, "merge", "-q", "--no-ff", "-m", "Merge pull request: memgit dream", BRANCH)
    merged = (reviewer / "MEMORY.md").read_text()
    assert password in merged and rota in merged and standup not in merged and report not in merged
    out = memgit_json(
        reviewer, "dream", "reject", keys["rota"], "--reason", "Carol left the team", "--now", night(2), env=BM25
    )
    assert out["removed"] == [keys["rota"]] and out["commit"]
    assert keys["rota"] in (reviewer / "memory/.dreams/decisions/2026-03-02.jsonl").read_text()  # --now's date
    after = (reviewer / "MEMORY.md").read_text()
    kept = [line for line in merged.splitlines() if line.strip() and rota not in line and line != "### Carol"]
    assert rota not in after and [line for line in after.splitlines() if line.strip()] == kept  # nothing else moved
    assert git(reviewer, "status", "--porcelain") == ""
    git(reviewer, "push", "-q", "origin", "main")

    # Night 3: the branch's work is merged, so it may be replaced; new evidence brings a new fact.
    pull(author)
    search_days(author, LATE[2], ("2026-03-01", "2026-03-02", "2026-03-02"))
    assert memgit(author, "recalls", "publish").returncode == 0
    git(author, "push", "-q", "origin", "main")
    third = nightly(runner, 3)
    assert [a["text"] for a in third["actions"]] == [LATE[1]], third["actions"]
    assert any(d["by"] == "missing" and d["key"] == keys["standup"] for d in third["decisions"])

    # Its pull request is closed without merging (the CI passes --reject-previous then): nothing new to
    # propose, yet the rejection is recorded, dated by --now, on a side branch that opens no pull
    # request; the closed branch stays as it was.
    closed_tip = git(runner, "ls-remote", "origin", BRANCH).split()[0]
    fourth = nightly(runner, 4, "--reject-previous")
    assert fourth["actions"] == [] and fourth["branch"] is None and "recorded" in fourth["reason"]
    side = f"{BRANCH}-decisions"
    assert fourth["decisions_branch"] == side and fourth["decisions_pushed"]
    assert git(runner, "ls-remote", "origin", BRANCH).split()[0] == closed_tip
    recorded, _ = parse_decisions(
        [("d", git(runner, "show", f"origin/{side}:memory/.dreams/decisions/2026-03-04.jsonl"))]
    )
    assert [(d.key, d.verdict, d.by) for d in recorded] == [(key_of(third, LATE[1]), "rejected", "closed")]
    explained = memgit_json(runner, "dream", "--now", night(4), "--dry-run", "--explain", "--branch", BRANCH, env=BM25)
    gates = {row["text"]: row["gate"] for row in explained["candidates"]}
    for fact in (standup, report, rota, LATE[1]):
        assert gates[f"- {fact}"] == "rejected", (fact, gates)
    assert gates[f"- {password}"] == "already promoted"
    # Night 5: the closed branch is deleted (as a forge's button does), and the runner is a fresh clone:
    # the side branch still carries the rejection, so nothing comes back.
    git(reviewer, "push", "-q", "origin", f":{BRANCH}")
    fresh = runner.parent / "runner-5"
    git(runner.parent, "clone", "-q", str(runner.parent / "origin.git"), str(fresh))
    fifth = nightly(fresh, 5)
    assert fifth["actions"] == [] and fifth["decisions_branch"] is None, fifth
    # The side branch is merged and deleted: the rejection now lives on main.
    git(reviewer, "fetch", "-q", "origin")
    git(reviewer, "merge", "-q", "--no-ff", "-m", "Merge the review decisions", f"origin/{side}")
    git(reviewer, "push", "-q", "origin", "main", f":{side}")
    sixth = nightly(fresh, 6)
    assert sixth["actions"] == [] and sixth["branch"] is None, sixth
    # Nobody reverted anything.
    assert "Revert" not in git(runner, "log", "--format=%s", "origin/main")


def test_drop_and_reject_bad_input(team: tuple[Path, Path, Path]) -> None:
    _, runner, _ = team
    first = nightly(runner, 1)
    assert_clean_error(memgit(runner, "dream", "drop", "kzzzzzzzzz", "--branch", BRANCH), "is not one of")
    assert_clean_error(memgit(runner, "dream", "drop", "k"), "")  # too short a prefix names nothing
    assert_clean_error(memgit(runner, "dream", "drop", "kabc", "--branch", "nope"), "no branch nope")
    assert_clean_error(memgit(runner, "dream", "reject", "kzzzzzzzzz"), "is not one of")
    git(runner, "merge", "-q", "--no-edit", BRANCH)
    key = first["actions"][0]["key"]
    line = next(line for line in (runner / "MEMORY.md").read_text().splitlines() if key in line)
    marker = parse_marker(line)
    assert marker is not None and marker.key == key
    (runner / "MEMORY.md").write_text((runner / "MEMORY.md").read_text().replace(line, line.replace(".", "!", 1)))
    assert_clean_error(memgit(runner, "dream", "reject", key), "uncommitted")
    commit_all(runner, "edited by hand")
    before = (runner / "MEMORY.md").read_text()
    assert_clean_error(memgit(runner, "dream", "reject", key), "edited by hand")
    assert (runner / "MEMORY.md").read_text() == before and git(runner, "status", "--porcelain") == ""


def test_the_site_and_context_show_facts_with_provenance_and_no_markers(
    team: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    _, runner, _ = team
    first = nightly(runner, 1)
    git(runner, "merge", "-q", "--no-edit", BRANCH)
    memory = (runner / "MEMORY.md").read_text()
    assert memory.count("<!--mg:") == 4
    context = memgit(runner, "context", env={**BM25, "MEMGIT_NOW": night(2)})
    assert context.returncode == 0 and FACTS["password"][1] in context.stdout and "<!--" not in context.stdout
    site = tmp_path / "site"
    proc = memgit(runner, "site", "build", "-o", str(site), env=BM25)
    assert proc.returncode == 0, proc.stderr
    pages = {p: p.read_text() for p in site.rglob("*.html")}
    assert not any("mg:k" in html or "memgit:entry" in html for html in pages.values())
    home = pages[site / "index.html"]
    key = key_of(first, FACTS["password"][1])
    block = home[home.index(f'data-key="{key}"') :][:600]
    assert "memory/2026-02-02.md" in block and "score " in block  # the provenance store, beside MEMORY.md
    # A search that lands on MEMORY.md answers with the fact, not its review key.
    found = memgit(runner, "search", FACTS["password"][1], "--path", "MEMORY.md", "--json", "--no-record", env=BM25)
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)["hits"]
    assert hits and all("<!--" not in h["text"] for h in hits)
    assert any(FACTS["password"][1].split()[0] in h["text"] for h in hits)
