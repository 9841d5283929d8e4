"""Facts that change, end to end through the CLI: a newer version of an entry becomes an update
(old -> new, the old entry leaves MEMORY.md); one that is only close gets a "may conflict with" line
and `memgit dream supersede` turns it into the update; a recurring meeting is promoted with its
weekday intact."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memgit.config import DreamConfig
from memgit.core.provenance import body_hash, parse_trailers
from memgit.dream import memory_doc
from memgit.dream.concepts import entry_key, plain
from memgit.dream.decisions import parse_decisions
from memgit.dream.deep import deep_phase
from memgit.dream.model import Action, Candidate, Review, ShortTerm, Similarity
from memgit.ledger.lines import text_hash
from tests.dream.test_dream import BM25, BRANCH, commit_of, dream, marked, recall, show
from tests.helpers import assert_clean_error, commit_all, git, memgit, memgit_json, write
from tests.recall.test_search import real_model  # noqa: F401 - the fixture: the MiniLM model in the test cache

HUMAN = "# Long-term Memory\n\n- The user prefers tea over coffee.\n\n"


@pytest.fixture
def model_env(real_model: Path) -> dict[str, str]:  # noqa: F811
    return {"MEMGIT_MODEL": str(real_model), "MEMGIT_NO_RECALL": "0"}


@pytest.fixture(params=["terms", pytest.param("model", marks=pytest.mark.model)])
def similarity_env(request: pytest.FixtureRequest) -> dict[str, str]:
    if request.param == "terms":
        return BM25
    return {"MEMGIT_MODEL": str(request.getfixturevalue("real_model")), "MEMGIT_NO_RECALL": "0"}


def _old_entry(workspace: Path, text: str) -> None:
    write(workspace / "MEMORY.md", HUMAN + marked(text, "memory/2026-01-05.md:5-5@" + "a" * 40, "2026-01-10"))


def test_a_role_handed_on_is_an_update_old_to_new(workspace: Path, similarity_env: dict[str, str]) -> None:
    _old_entry(workspace, "Priyanka Rao runs the quarterly stock audit.")
    write(
        workspace / "memory/2026-03-01.md",
        "# 2026-03-01\n\n## 08:00\n\n- Quarterly stock audit duty passed to Henrik Dahl.\n",
    )
    commit_all(workspace, "audit handed on")
    recall(workspace, ("who does the stock audit", "quarterly audit owner", "stock audit duty"), env=similarity_env)
    out = dream(workspace, env=similarity_env)
    assert [(a["action"], a["target"]) for a in out["actions"]] == [("supersede", "kold0000001")], out["actions"]
    after = show(workspace, BRANCH)
    assert "Priyanka" not in after and "- Quarterly stock audit duty passed to Henrik Dahl." in after
    assert after.startswith(HUMAN)
    message = git(workspace, "log", "-1", "--format=%B", commit_of(workspace, out["commits"], "supersede"))
    assert parse_trailers(message)["Memgit-Supersedes"] == "kold0000001"
    assert (
        "- was: Priyanka Rao runs the quarterly stock audit.\n- now: Quarterly stock audit duty passed to Henrik Dahl."
        in message
    )
    report = show(workspace, BRANCH, "memory/dreams/2026-03-04.md")
    assert "**update**" in report and "was: Priyanka Rao runs the quarterly stock audit." in report


@pytest.mark.model
def test_a_close_fact_is_flagged_and_supersede_makes_it_the_update(workspace: Path, model_env: dict[str, str]) -> None:
    _old_entry(workspace, "The office plants get watered on Mondays.")
    write(workspace / "memory/2026-03-01.md", "# 2026-03-01\n\n## 08:00\n\n- Plant watering happens each Thursday.\n")
    commit_all(workspace, "plants")
    recall(workspace, ("plant watering happens", "plant watering thursday", "thursday watering"), env=model_env)
    out = dream(workspace, env=model_env)
    [action] = out["actions"]
    assert action["action"] == "promote", action
    report = show(workspace, BRANCH, "memory/dreams/2026-03-04.md")
    command = f"memgit dream supersede {action['key']} kold0000001"
    assert "may conflict with `kold0000001`" in report and command in report
    message = git(workspace, "log", "-1", "--format=%B", commit_of(workspace, out["commits"], "promote"))
    assert "May conflict with `kold0000001`" in message and command in message
    assert "on Mondays" in show(workspace, BRANCH)  # not an update yet: both stand until the reviewer says so
    # Bad input first: a key that is no proposal, an entry that is not there.
    assert_clean_error(memgit(workspace, "dream", "supersede", "kzzzzzzzz", "kold0000001"), "is not one of")
    assert_clean_error(memgit(workspace, "dream", "supersede", action["key"], "knope00000"), "is not one of")
    assert show(workspace, BRANCH, "memory/dreams/2026-03-04.md") == report  # nothing was written
    made = memgit_json(
        workspace,
        "dream",
        "supersede",
        action["key"],
        "kold0000001",
        "--now",
        "2026-03-05T09:00:00+00:00",
        env=model_env,
    )
    assert [(a["action"], a["target"]) for a in made["actions"]] == [("supersede", "kold0000001")]
    after = show(workspace, BRANCH)
    assert "Mondays" not in after and "- Plant watering happens each Thursday." in after
    decided, _ = parse_decisions([("d", show(workspace, BRANCH, "memory/.dreams/decisions/2026-03-05.jsonl"))])
    assert [(d.key, d.verdict, d.target) for d in decided] == [(action["key"], "updates", "kold0000001")]
    # The next run (replacing the branch) keeps it an update: the decision rides on the branch.
    again = memgit_json(workspace, "dream", "--now", "2026-03-05T20:00:00+00:00", "--dry-run", env=model_env)
    assert [(a["action"], a["target"]) for a in again["actions"]] == [("supersede", "kold0000001")]


def test_a_recurring_meeting_is_promoted_with_its_weekday(workspace: Path) -> None:
    write(
        workspace / "memory/2026-03-02.md",
        "# 2026-03-02\n\n## 09:00 notes\n\n- The garden committee meets every second Tuesday at 16:00.\n"
        "- Visits to the allotment are on Sunday afternoons, always.\n",
    )
    commit_all(workspace, "notes")
    recall(workspace, ("garden committee meeting", "when does the committee meet", "committee tuesday slot"))
    recall(workspace, ("allotment visits", "when to visit the allotment", "sunday allotment"))
    out = dream(workspace)
    texts = sorted(a["text"] for a in out["actions"])
    assert texts == [
        "The garden committee meets every second Tuesday at 16:00.",
        "Visits to the allotment are on Sunday afternoons, always.",
    ], out["actions"]
    entries = [plain(e.body) for e in memory_doc.parse_entries(show(workspace, BRANCH))]
    assert all("2026-" not in e for e in entries)  # no weekday turned into one date


def _fact(path: str, text: str, days: list[str], relevance: float) -> ShortTerm:
    """A recalled line: one search a day, each a distinct query, at `relevance` of its best hit."""
    evidence = {(f"{day}T12:00:00+00:00", f"q{n}", day): relevance for n, day in enumerate(days)}
    return ShortTerm(path, 5, 5, "- " + text, text_hash(text), evidence, [], entry_text=text)


def _retro_cosine(a: list[str], b: list[str]) -> list[list[float]]:
    return [[0.8 if "retro" in x and "retro" in y else 0.1 for y in b] for x in a]


def _deep(entries: list[ShortTerm], memory: str) -> tuple[list[Candidate], list[Action]]:
    """The deep phase on `entries` against `memory`, whose entries are as memgit wrote them."""
    written = Review(hashes={e.key: body_hash(e.body) for e in memory_doc.parse_entries(memory)})
    candidates, actions, _, _ = deep_phase(
        entries,
        memory,
        [],
        cfg=DreamConfig(),
        similarity=Similarity("embedding", _retro_cosine),
        now_day=date(2026, 3, 12),
        base_commit="0" * 40,
        review=written,
    )
    return candidates, actions


def test_a_newer_version_short_only_of_the_score_takes_the_older_ones_place() -> None:
    # The newer version's searches also surface the older line, so its relevance is split: short of
    # the score, with its own recalls and distinct queries. The older one proves the subject durable.
    old = _fact(
        "memory/2026-03-02.md", "The sprint retro is on Fridays at 15:00.", [f"2026-03-0{d}" for d in range(3, 8)], 1.0
    )
    new = _fact(
        "memory/2026-03-09.md",
        "The sprint retro moved to Thursdays at 14:00.",
        ["2026-03-10", "2026-03-11", "2026-03-12"],
        0.3,
    )
    candidates, actions = _deep([old, new], "")
    gates = {c.entry.entry_text: c.gate for c in candidates}
    assert gates == {old.entry_text: "outdated", new.entry_text: None}
    assert [(a.kind, a.text) for a in actions] == [("promote", new.entry_text)]
    # Once the older one is an entry of MEMORY.md, the same short newer version updates it ...
    memory = memory_doc.add_entry("", entry_key(old.entry_text), "- " + old.entry_text)
    _, actions = _deep([new], memory)
    assert [(a.kind, a.text, a.target) for a in actions] == [("supersede", new.entry_text, entry_key(old.entry_text))]
    # ... but a candidate short of the score that updates nothing stays out.
    other = _fact(
        "memory/2026-03-09.md", "The canteen opens at 08:00.", ["2026-03-10", "2026-03-11", "2026-03-12"], 0.3
    )
    candidates, actions = _deep([other], memory)
    assert actions == [] and candidates[0].gate == "score"


def test_the_searches_of_every_version_of_a_fact_count_for_the_newest() -> None:
    # Each version alone is recalled by two distinct questions (the gates ask for three): asked about
    # five times in all, the fact's newest version is proposed and the older one is outdated.
    old = _fact("memory/2026-03-02.md", "The sprint retro is on Fridays at 15:00.", ["2026-03-03", "2026-03-04"], 1.0)
    new = _fact(
        "memory/2026-03-09.md", "The sprint retro moved to Thursdays at 14:00.", ["2026-03-10", "2026-03-11"], 1.0
    )
    new.evidence = {(t, "new-" + q, d): r for (t, q, d), r in new.evidence.items()}
    candidates, actions = _deep([old, new], "")
    gates = {c.entry.entry_text: c.gate for c in candidates}
    assert gates == {old.entry_text: "recalls", new.entry_text: None}
    assert [(a.kind, a.text) for a in actions] == [("promote", new.entry_text)]
    # Facts that are not versions of each other pool nothing: two questions each stay two.
    other = _fact("memory/2026-03-09.md", "The canteen opens at 08:00.", ["2026-03-10", "2026-03-11"], 1.0)
    candidates, actions = _deep([old, other], "")
    assert actions == [] and {c.gate for c in candidates} == {"recalls"}


def test_a_conflict_says_what_the_reviewer_can_do_with_each_kind_of_older_line() -> None:
    """An entry memgit wrote: the command that makes the proposal its update; another proposal of
    the run: drop one; a person's own line: theirs to edit (the command refuses it)."""
    from memgit.dream.updates import conflict_advice

    entries, proposals = {"kold0000001"}, {"knew0000001", "knew0000002"}
    assert conflict_advice("knew0000001", "kold0000001", entries, proposals) == (
        "run `memgit dream supersede knew0000001 kold0000001`"
    )
    assert "memgit dream drop knew0000002" in conflict_advice("knew0000001", "knew0000002", entries, proposals)
    assert "yourself" in conflict_advice("knew0000001", "khand000001", entries, proposals)
