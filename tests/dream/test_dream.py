"""`memgit dream` end to end on real repositories: the review loop through a remote and the
post-merge hook, supersede, duplicates, forgetting, determinism, and the bad-input list."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from memgit.core.provenance import EntryMarker, SourceRef, parse_marker, parse_trailers
from memgit.dream import memory_doc
from memgit.dream.entries import EntryRecord, parse_store
from tests.helpers import assert_clean_error, commit_all, git, memgit, memgit_json, write
from tests.recall.test_search import real_model  # noqa: F401 - the fixture: the MiniLM model in the test cache

BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "0"}
DAYS = ("2026-03-02", "2026-03-03", "2026-03-04")
NOW = "2026-03-04T20:00:00+00:00"
BRANCH = "memgit/dream/2026-03-04"
PASSWORD = "The staging database password rotates every Monday at nine."
QUERIES = ("staging database password", "when does the password rotate", "monday rotation of the staging password")


def seed(root: Path) -> None:
    write(root / "memory/2026-02-02.md", f"# 2026-02-02\n\n## 09:00\n\n- {PASSWORD}\n- Lunch was pizza again.\n")
    write(root / "memory/2026-02-03.md", "# 2026-02-03\n\n## 10:00\n\n- Bob prefers standups at ten in the morning.\n")
    commit_all(root, "notes")


def recall(
    root: Path, queries: tuple[str, ...] = QUERIES, days: tuple[str, ...] = DAYS, env: dict[str, str] | None = None
) -> None:
    """One query a day, each on its own day: three recalls, three distinct queries, three days."""
    for query, day in zip(queries, days, strict=True):
        proc = memgit(root, "search", query, "--now", f"{day}T12:00:00+00:00", env=env or BM25)
        assert proc.returncode == 0, proc.stderr


def dream(root: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    return memgit_json(root, "dream", "--now", NOW, *args, env=env or BM25)


def show(root: Path, rev: str, path: str = "MEMORY.md") -> str:
    return git(root, "show", f"{rev}:{path}")


def store(root: Path, rev: str) -> dict[str, EntryRecord]:
    """The provenance store at `rev`: key -> the record that wrote the entry."""
    text = git(root, "show", f"{rev}:memory/.dreams/entries.jsonl", check=False)
    return parse_store(text).written()


def commit_of(root: Path, commits: list[str], action: str) -> str:
    """The commit of a run that did `action` (a run's first commit may shorten old markers)."""
    return next(
        c for c in commits if parse_trailers(git(root, "log", "-1", "--format=%B", c)).get("Memgit-Action") == action
    )


def branch_log(root: Path, branch: str = BRANCH) -> list[str]:
    return git(root, "log", "--format=%H", f"HEAD..{branch}").split()


@pytest.fixture
def dreaming(workspace: Path) -> Path:
    seed(workspace)
    recall(workspace)
    return workspace


# -- the review loop -------------------------------------------------------------------------------
def test_review_loop_push_merge_hook_search_and_marker(dreaming: Path, tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(dreaming, "remote", "add", "origin", str(bare))
    assert memgit(dreaming, "recalls", "publish").returncode == 0  # what CI sees
    git(dreaming, "push", "-q", "origin", "main")
    out = dream(dreaming, "--push", "origin")
    assert out["branch"] == BRANCH and out["pushed"]
    assert [a["action"] for a in out["actions"]] == ["promote"] and out["actions"][0]["text"] == f"{PASSWORD}"
    assert git(bare, "rev-parse", BRANCH).strip() == out["commits"][-1]

    clone = tmp_path / "reviewer"
    git(tmp_path, "clone", "-q", str(bare), str(clone))
    assert memgit(clone, "hooks", "install").returncode == 0
    assert memgit(clone, "index", env=BM25).returncode == 0
    git(clone, "fetch", "-q", "origin")
    git(clone, "merge", "-q", "--no-ff", "-m", "Merge dream proposals", f"origin/{BRANCH}")  # as a PR merge would
    status = memgit_json(clone, "status")
    assert status["up_to_date"], status  # the post-merge hook indexed the merge
    hits = memgit_json(clone, "search", "staging database password", "--no-record", env=BM25)["hits"]
    assert hits[0]["path"] == "MEMORY.md" or "MEMORY.md" in [h["path"] for h in hits]
    memory = (clone / "MEMORY.md").read_text()
    line = next(line for line in memory.splitlines() if PASSWORD in line)
    marker = parse_marker(line)
    assert marker is not None and line == f"- {PASSWORD} <!--mg:{marker.key}-->"  # one line, a short marker
    assert "## From dreaming\n\n### Staging database password\n" in memory  # memgit's section, by subject
    record = store(clone, "HEAD")[marker.key]  # the provenance lives beside MEMORY.md
    assert record.source is not None and record.day == "2026-03-04" and record.heading == "## 09:00"
    assert record.date == "2026-02-02" and set(record.why) <= set(QUERIES) and len(record.why) == 3
    source = record.source
    lines = show(clone, source.commit or "HEAD", source.path).splitlines()[source.start - 1 : source.end]
    assert lines == [f"- {PASSWORD}"]
    # The trailers say the same as the store.
    trailers = parse_trailers(git(clone, "log", "-1", "--format=%B", out["commits"][0]))
    assert trailers["Memgit-Promotion"] == marker.key and trailers["Memgit-Source"] == source.format()
    assert trailers["Memgit-Action"] == "promote" and "frequency=" in trailers["Memgit-Score"]
    # A second run after the merge promotes nothing new.
    again = memgit_json(clone, "dream", "--now", NOW, "--dry-run", env=BM25)
    assert again["actions"] == [] and again["gates"].get("already promoted") == 1


def test_branch_has_one_commit_per_action_plus_report_and_touches_nothing(dreaming: Path) -> None:
    write(dreaming / "memory/2026-02-03.md", "dirty edit, not committed\n")
    write(dreaming / "scratch.txt", "staged\n")
    git(dreaming, "add", "scratch.txt")
    head, status = git(dreaming, "rev-parse", "HEAD"), git(dreaming, "status", "--porcelain")
    index_before = (dreaming / ".git/index").read_bytes()
    out = dream(dreaming)
    assert git(dreaming, "rev-parse", "HEAD") == head and git(dreaming, "status", "--porcelain") == status
    assert (dreaming / ".git/index").read_bytes() == index_before
    assert (dreaming / "memory/2026-02-03.md").read_text() == "dirty edit, not committed\n"
    commits = branch_log(dreaming)
    assert len(commits) == 2 and commits[0] == out["commits"][-1]
    report = show(dreaming, BRANCH, "memory/dreams/2026-03-04.md")
    assert report.startswith("# Dream 2026-03-04") and PASSWORD[:40] in report
    assert "too far down their search" in report  # the hits that did not count, with the reason
    subject = git(dreaming, "log", "-1", "--format=%s", out["commits"][0]).strip()
    assert subject.startswith("dream: remember The staging database password")


def test_determinism_same_inputs_same_commit_ids(dreaming: Path) -> None:
    first = dream(dreaming, "--branch", "one")
    second = dream(dreaming, "--branch", "two")
    assert first["commits"] == second["commits"] and len(first["commits"]) == 2
    assert git(dreaming, "rev-parse", "one") == git(dreaming, "rev-parse", "two")


def test_existing_branch_is_refused_with_the_fix_or_forced(dreaming: Path) -> None:
    dream(dreaming)
    proc = memgit(dreaming, "dream", "--now", NOW, env=BM25)
    assert_clean_error(proc, "already exists")
    assert "--force" in proc.stderr
    write(dreaming / "memory/2026-03-04.md", "# 2026-03-04\n\n- New facts today about the lighthouse keeper.\n")
    commit_all(dreaming, "more")
    forced = dream(dreaming, "--force")
    assert git(dreaming, "rev-parse", BRANCH).strip() == forced["commits"][-1]


def test_nothing_to_promote_means_no_branch_and_gate_counts(workspace: Path) -> None:
    seed(workspace)
    recall(workspace, QUERIES[:2], DAYS[:2])  # two recalls only: below the gate of three
    proc = memgit(workspace, "dream", "--now", NOW, env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "nothing to promote" in proc.stdout and "recalls: " in proc.stdout
    assert git(workspace, "branch", "--list", "memgit/*") == ""
    explained = memgit_json(workspace, "dream", "--now", NOW, "--explain", env=BM25)
    rows = explained["candidates"]
    assert rows and all(row["gate"] for row in rows)
    top = next(row for row in rows if PASSWORD in row["text"])
    assert top["gate"] == "recalls" and set(top["components"]) == {
        "frequency",
        "relevance",
        "diversity",
        "recency",
        "consolidation",
        "conceptual",
    }
    text = memgit(workspace, "dream", "--now", NOW, "--explain", env=BM25).stdout
    assert "failed gate: recalls" in text


# -- better than appending -------------------------------------------------------------------------
def marked(text: str, source: str, promoted: str, key: str = "kold0000001") -> str:
    return memory_doc.render_long_entry(EntryMarker(key, SourceRefOf(source), 0.8, promoted), f"- {text}")


def SourceRefOf(text: str) -> SourceRef:  # noqa: N802 - reads like a constructor
    from memgit.core.provenance import parse_reference

    return parse_reference(text)


@pytest.fixture(params=["terms", pytest.param("model", marks=pytest.mark.model)])
def similarity_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """Run a semantic test twice: term overlap (no model) and the real MiniLM model."""
    if request.param == "terms":
        return BM25
    path = request.getfixturevalue("real_model")
    return {"MEMGIT_MODEL": str(path), "MEMGIT_NO_RECALL": "0"}


def test_supersede_edits_the_entry_memgit_wrote_with_both_sources(workspace: Path, similarity_env: dict) -> None:
    human = "# Long-term Memory\n\n- The user prefers tea over coffee.\n\n"
    old = marked("Alice lives in Porto with her two cats.", "memory/2026-01-02.md:5-5@" + "a" * 40, "2026-01-10")
    write(workspace / "MEMORY.md", human + old)
    write(
        workspace / "memory/2026-03-01.md", "# 2026-03-01\n\n## 08:00\n\n- Alice moved to Lisbon with her two cats.\n"
    )
    commit_all(workspace, "alice moved")
    recall(workspace, ("alice lisbon", "alice moved lisbon", "lisbon and her two cats"), env=similarity_env)
    out = dream(workspace, env=similarity_env)
    assert any("term overlap" in n for n in out["notices"]) == (similarity_env is BM25)
    actions = out["actions"]
    assert [a["action"] for a in actions] == ["supersede"] and actions[0]["target"] == "kold0000001"
    after = show(workspace, BRANCH)
    assert "Porto" not in after and "- Alice moved to Lisbon with her two cats." in after
    assert after.startswith(human)  # the person's text, byte for byte
    entry = memory_doc.parse_entries(after)[0]
    assert entry.inline and "memgit:entry" not in after  # the old long marker was shortened first
    record = store(workspace, BRANCH)[entry.key]
    assert record.action == "supersede" and record.replaces == "kold0000001"
    assert record.was is not None and record.was.format().startswith("memory/2026-01-02.md:5-5@")
    assert record.source is not None and record.source.path == "memory/2026-03-01.md"
    assert store(workspace, BRANCH)["kold0000001"].action == "migrate"
    message = git(workspace, "log", "-1", "--format=%B", commit_of(workspace, out["commits"], "supersede"))
    trailers = parse_trailers(message)
    assert trailers["Memgit-Action"] == "supersede" and trailers["Memgit-Supersedes"] == "kold0000001"
    assert trailers["Memgit-Previous-Source"].startswith("memory/2026-01-02.md:5-5@")
    # The old text beside the new, not only its key.
    assert "- was: Alice lives in Porto with her two cats.\n- now: Alice moved to Lisbon with her two cats." in message
    # After the merge, the old fact recalled again is not promoted back: it is outdated.
    git(workspace, "merge", "-q", "--no-edit", BRANCH)
    write(workspace / "memory/2026-01-02.md", "# 2026-01-02\n\n## 09:00\n\n- Alice lives in Porto with her two cats.\n")
    commit_all(workspace, "the old note")
    later = ("2026-03-05", "2026-03-06", "2026-03-07")
    recall(workspace, ("alice porto", "alice lives porto", "porto and her two cats"), later, env=similarity_env)
    again = memgit_json(
        workspace, "dream", "--now", "2026-03-07T20:00:00+00:00", "--explain", "--dry-run", env=similarity_env
    )
    assert again["actions"] == [], again["actions"]
    porto = next(row for row in again["candidates"] if "Porto" in row["text"])
    assert porto["gate"] == "outdated"


@pytest.mark.model
def test_a_dream_keeps_its_vectors_and_the_next_run_embeds_none_of_them(dreaming: Path, real_model: Path) -> None:  # noqa: F811
    env = {"MEMGIT_MODEL": str(real_model)}
    first = dream(dreaming, "--dry-run", "--explain", env=env)
    assert first["vectors"]["embedded"] > 0, first["vectors"]
    cache = dreaming / ".git" / "memgit" / "embed-cache.sqlite"
    with sqlite3.connect(cache) as db:
        kept = db.execute("SELECT count(*) FROM embeddings").fetchone()[0]
    assert kept >= first["vectors"]["embedded"]
    second = dream(dreaming, env=env)  # the run proper, after its dry run
    assert second["vectors"] == {"embedded": 0, "cached": sum(first["vectors"].values())}
    assert [a["text"] for a in second["actions"]] == [a["text"] for a in first["actions"]] == [PASSWORD]
    assert [a["score"] for a in second["actions"]] == [a["score"] for a in first["actions"]]
    # Without a model, term overlap: nothing embedded, nothing read.
    assert dream(dreaming, "--dry-run")["vectors"] == {}
    # A cache that cannot be opened only costs the work it would have saved.
    cache.unlink()
    cache.mkdir()
    try:
        third = dream(dreaming, "--dry-run", env=env)
    finally:
        cache.rmdir()
    assert third["vectors"] == {"embedded": sum(first["vectors"].values()), "cached": 0}
    assert [a["score"] for a in third["actions"]] == [a["score"] for a in first["actions"]]


def test_duplicates_fold_and_an_existing_entry_is_not_added_twice(workspace: Path, similarity_env: dict) -> None:
    write(workspace / "MEMORY.md", "# Long-term Memory\n\n- Office wifi password: taped under the router.\n")
    write(
        workspace / "memory/2026-02-10.md",
        "# 2026-02-10\n\n- The quarterly report is due on the fifth of April.\n"
        "- The office wifi password is taped under the router in room 4B.\n",
    )
    write(workspace / "memory/2026-02-11.md", "# 2026-02-11\n\n- The quarterly report is due on the fifth of April!\n")
    # Both copies count whatever their rank (min-max BM25 gives the second of two hits a score of 0).
    write(workspace / "memgit.toml", "[dream]\nrecall_min_relative_score = 0.0\n")
    commit_all(workspace, "notes")
    recall(workspace, ("quarterly report due", "when is the report due", "april report deadline"), env=similarity_env)
    recall(workspace, ("wifi password room 4b", "office wifi in room 4b", "router in room 4b"), env=similarity_env)
    out = dream(workspace, "--explain", env=similarity_env)
    promoted = [a for a in out["actions"] if a["action"] == "promote"]
    assert len(promoted) == 1 and "quarterly report" in promoted[0]["text"]
    memory = show(workspace, BRANCH)
    assert memory.count("quarterly report") == 1 and memory.count("wifi password") == 1
    entry = memory_doc.parse_entries(memory)[0]
    record = store(workspace, BRANCH)[entry.key]
    sources = {record.source.path} | {ref.path for ref in record.also}  # type: ignore[union-attr]
    assert sources == {"memory/2026-02-10.md", "memory/2026-02-11.md"}  # both copies' evidence, one entry
    gates = {row["text"]: row["gate"] for row in out["candidates"]}
    assert gates["- The office wifi password is taped under the router in room 4B."] == "duplicate"


def test_forget_proposes_a_dated_event_long_past_and_keeps_the_rest(workspace: Path) -> None:
    human = "# Long-term Memory\n\n- The user prefers tea over coffee.\n\n"
    stale = marked(
        "The printer repair visit was on 2025-05-20 at 10:00.",
        "memory/2025-01-02.md:3-3@" + "b" * 40,
        "2025-06-01",
        key="kstale00001",
    )
    recalled = marked(
        "The release rehearsal ran on 2025-05-02 at 14:00.",
        "memory/2025-01-03.md:3-3@" + "c" * 40,
        "2025-06-01",
        key="krecent0001",
    )
    rule = marked(
        "No production deploys on Fridays after the 2025-05-01 release.",
        "memory/2025-01-05.md:3-3@" + "e" * 40,
        "2025-06-01",
        key="krule000001",
    )
    durable = marked(
        "The printer on floor three is a Brother HL-L2350.",
        "memory/2025-01-06.md:3-3@" + "f" * 40,
        "2025-06-01",
        key="kdurable001",
    )
    edited = marked(
        "The cafeteria party was on 2025-05-09 at 17:00.",
        "memory/2025-01-04.md:3-3@" + "d" * 40,
        "2025-06-01",
        key="kedited0001",
    ).replace("at 17:00", "at 17:30 (checked)")
    write(workspace / "MEMORY.md", human + stale + "\n" + recalled + "\n" + rule + "\n" + durable + "\n" + edited)
    commit_all(workspace, "old memory")
    assert memgit(workspace, "index", env=BM25).returncode == 0
    recall(workspace, ("release rehearsal",), ("2026-03-01",))
    out = dream(workspace)
    assert [(a["action"], a["key"]) for a in out["actions"]] == [("forget", "kstale00001")]
    after = show(workspace, BRANCH)
    assert "printer repair" not in after and "release rehearsal" in after and "Fridays" in after
    assert "Brother" in after  # an undated fact is never forgotten on time alone
    assert "17:30 (checked)" in after and after.startswith(human)
    message = git(workspace, "log", "-1", "--format=%B", commit_of(workspace, out["commits"], "forget"))
    assert "Git history keeps it" in message and "its latest date, 2025-05-20" in message


# -- bad input -------------------------------------------------------------------------------------
def test_malformed_ledger_lines_are_skipped_counted_and_reported(dreaming: Path) -> None:
    ledger = dreaming / ".git/memgit/recall/2026-03-03.jsonl"  # the spool, read when the base is HEAD
    with ledger.open("a") as handle:
        handle.write('{torn line\n"just a string"\n')
    out = dream(dreaming)
    assert out["light"]["malformed"] == 2 and [a["action"] for a in out["actions"]] == ["promote"]
    assert any("2 malformed recall-ledger line" in n and "2026-03-03.jsonl:" in n for n in out["notices"])
    assert "2 malformed ledger lines skipped" in show(dreaming, BRANCH, "memory/dreams/2026-03-04.md")


def test_source_deleted_or_rewritten_since_the_recall(dreaming: Path) -> None:
    git(dreaming, "rm", "-q", "memory/2026-02-02.md")
    commit_all(dreaming, "deleted")
    out = dream(dreaming, "--dry-run")
    assert out["actions"] == [] and out["gates"]["source gone"] >= 1


def test_moved_lines_are_followed(dreaming: Path) -> None:
    path = dreaming / "memory/2026-02-02.md"
    path.write_text(path.read_text().replace("## 09:00\n", "## 09:00\n\n- An inserted line above.\n- Another.\n"))
    commit_all(dreaming, "lines moved")
    out = dream(dreaming)
    source = out["actions"][0]["source"]
    assert source.startswith("memory/2026-02-02.md:8-8@")  # was line 5
    assert show(dreaming, "HEAD", "memory/2026-02-02.md").splitlines()[7] == f"- {PASSWORD}"


def test_memory_edited_by_hand_between_runs_survives_byte_for_byte(dreaming: Path) -> None:
    dream(dreaming)
    git(dreaming, "merge", "-q", "--no-edit", BRANCH)
    hand = show(dreaming, "HEAD").replace(
        "# Long-term Memory\n", "# Long-term Memory\n\nWritten by me: keep it short.  \n"
    )
    write(dreaming / "memory/2026-02-05.md", "# 2026-02-05\n\n- Carol owns the on-call rota for the payments team.\n")
    write(dreaming / "MEMORY.md", hand)
    commit_all(dreaming, "hand edit and a new fact")
    recall(
        dreaming,
        ("who owns on-call rota", "payments team on call", "carol rota owner"),
        ("2026-03-05", "2026-03-06", "2026-03-07"),
    )
    out = memgit_json(dreaming, "dream", "--now", "2026-03-07T20:00:00+00:00", env=BM25)
    assert [a["action"] for a in out["actions"]] == ["promote"]
    after = show(dreaming, out["branch"])
    assert after.startswith(hand) and "Carol owns the on-call rota" in after[len(hand) :]


def test_conflict_markers_in_memory_are_refused(dreaming: Path) -> None:
    write(dreaming / "MEMORY.md", "# Long-term Memory\n<<<<<<< HEAD\n- a\n=======\n- b\n>>>>>>> other\n")
    commit_all(dreaming, "bad merge committed")
    assert_clean_error(memgit(dreaming, "dream", "--now", NOW, env=BM25), "conflict")
    assert git(dreaming, "branch", "--list", "memgit/*") == ""


def test_no_model_uses_term_overlap_and_says_so_once(dreaming: Path) -> None:
    proc = memgit(dreaming, "dream", "--now", NOW, env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("term overlap") == 1
    assert "similarity by term overlap" in show(dreaming, BRANCH, "memory/dreams/2026-03-04.md")


def test_empty_workspace_and_bad_base(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    proc = memgit(empty, "dream", "--now", NOW, env=BM25)
    assert proc.returncode == 0 and "no commits yet" in proc.stdout
    write(empty / "notes.txt", "x\n")
    commit_all(empty, "first")
    out = dream(empty)
    assert out["actions"] == [] and "no recalls" in out["reason"]
    assert_clean_error(memgit(empty, "dream", "--now", NOW, "--base", "nope", env=BM25), "not a commit")
    assert_clean_error(memgit(empty, "dream", "--now", "soon", env=BM25), "--now")


def test_detached_head(dreaming: Path) -> None:
    git(dreaming, "checkout", "-q", "--detach", "HEAD")
    out = dream(dreaming)
    assert out["branch"] == BRANCH and git(dreaming, "rev-parse", "--abbrev-ref", "HEAD").strip() == "HEAD"


def test_shallow_clone_as_in_ci(dreaming: Path, tmp_path: Path) -> None:
    assert memgit(dreaming, "recalls", "publish").returncode == 0
    shallow = tmp_path / "ci"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{dreaming}", str(shallow))
    assert git(shallow, "rev-parse", "--is-shallow-repository").strip() == "true"
    out = dream(shallow)
    assert [a["action"] for a in out["actions"]] == ["promote"]
    assert git(shallow, "rev-parse", f"{BRANCH}~2").strip() == git(shallow, "rev-parse", "HEAD").strip()


def test_base_option_and_junk_never_promoted(workspace: Path) -> None:
    junk = (
        "# 2026-02-20\n\n## Meeting notes heading about the pelican budget\n\n- \n"
        "<!-- memgit:entry key=kx source=memory/a.md:1-1 -->\nstatus: pelican\n"
    )
    write(workspace / "memory/2026-02-20.md", junk)
    commit_all(workspace, "junk")
    recall(workspace, ("pelican budget meeting", "pelican notes heading", "meeting about pelican"))
    out = dream(workspace, "--explain", "--dry-run")
    assert out["actions"] == []
    assert all(row["gate"] for row in out["candidates"])
    assert any(k.startswith("junk: ") for k in out["gates"]), out["gates"]
    seed(workspace)
    recall(workspace)
    assert memgit(workspace, "recalls", "publish").returncode == 0  # the notes were committed by seed()
    git(workspace, "branch", "notes")
    git(workspace, "checkout", "-q", "HEAD~2")  # somewhere else entirely; the base is named
    based = dream(workspace, "--base", "notes")
    assert [a["action"] for a in based["actions"]] == ["promote"]
    assert based["base"] == git(workspace, "rev-parse", "notes").strip()
    assert git(workspace, "rev-parse", f"{BRANCH}~2").strip() == based["base"]


def test_light_phase_reads_recent_logs_and_transcripts_for_themes(workspace: Path) -> None:
    turns = [
        {"role": "user", "content": "Plan the kayak trip on the river"},
        {"role": "assistant", "content": "The kayak rental opens at eight near the river"},
        {"role": "tool", "content": "ignored tool output about databases"},
    ]
    write(workspace / "sessions/2026-03-04-chat.jsonl", "\n".join(json.dumps(t) for t in turns) + "\n")
    write(workspace / "memory/2026-03-04.md", "# 2026-03-04\n\n- Booked the kayak for Saturday on the river.\n")
    write(workspace / "memory/2026-02-01.md", "# 2026-02-01\n\n- Old kayak notes, outside the window.\n")
    commit_all(workspace, "recent")
    out = dream(workspace, "--dry-run")
    assert out["light"]["notes_seen"] == 2  # today's log and today's transcript; not February
    themes = [t["tag"] for t in out["themes"]]
    assert "kayak" in themes and "river" in themes and "databases" not in themes
    assert "kayak" in out["report"]
