"""Dreaming's pure parts: MEMORY.md splicing (a person's bytes never change), rehydration, junk
rules, concept tags, scoring shapes, and the REM themes."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.core.provenance import EntryMarker, SourceRef, parse_marker
from memgit.dream import memory_doc
from memgit.dream.concepts import concept_tags, entry_key, subject
from memgit.dream.ledger import text_hash
from memgit.dream.light import junk_reason
from memgit.dream.rehydrate import relocate
from memgit.dream.scoring import DEFAULT_WEIGHTS, components

MARKER = EntryMarker("kabc", SourceRef("memory/2026-01-02.md", 4, 4, "f" * 40), 0.8, "2026-02-01")
human_line = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="<>="), max_size=40)
human_text = st.lists(human_line, max_size=8).map(lambda lines: "\n".join(lines))


@settings(max_examples=200, deadline=None)
@given(before=human_text, after=human_text, trailing=st.booleans())
def test_splicing_never_changes_a_persons_bytes(before: str, after: str, trailing: bool) -> None:
    head = before + ("\n" if trailing else "")
    appended = memory_doc.append_entry(head, MARKER, "- A fact.")
    assert appended.startswith(head) or not head
    [entry] = [e for e in memory_doc.parse_entries(appended) if e.key == "kabc"]
    assert entry.owned and entry.body == "- A fact."
    tail = "\n\n" + after + "\n" if after.strip() else ""
    text = appended + tail
    replaced = memory_doc.replace_entry(text, "kabc", EntryMarker("knew", None, None, "2026-03-01"), "- Newer fact.")
    start = appended.index("<!-- memgit:entry")
    assert replaced[:start] == text[:start] and replaced.endswith(tail)
    removed = memory_doc.remove_entry(text, "kabc")
    assert "A fact." not in removed and removed.endswith(tail)
    assert removed[: max(0, start - 1)] == text[: max(0, start - 1)]


def test_an_entry_edited_by_a_person_is_theirs() -> None:
    text = memory_doc.append_entry("# Long-term Memory\n", MARKER, "- The office is on floor two.")
    assert memory_doc.parse_entries(text)[0].owned
    edited = text.replace("floor two", "floor three")
    assert not memory_doc.parse_entries(edited)[0].owned
    assert "floor three" in memory_doc.human_text(edited) and "floor two" not in memory_doc.human_text(text)
    marker = parse_marker(text.splitlines()[2])
    assert marker is not None and marker.extra["hash"] == memory_doc.body_hash("- The office is on floor two.")


def test_conflict_markers() -> None:
    assert memory_doc.has_conflict_markers("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> x\n")
    assert not memory_doc.has_conflict_markers("a\n======\n<<<< not one\n")


@settings(max_examples=100, deadline=None)
@given(above=st.integers(0, 30), below=st.integers(0, 5))
def test_rehydration_follows_moved_lines(above: int, below: int) -> None:
    fact = "- The staging password rotates on Mondays."
    before = ["# day", "", fact, "- other"]
    moved = ["# day"] + [f"- inserted {i}" for i in range(above)] + ["", fact] + ["- more"] * below
    found = relocate(moved, 3, 3, text_hash(fact))
    assert found is not None and found.text == fact and moved[found.start - 1] == fact
    assert found.moved == (above > 0)
    assert relocate([line for line in moved if line != fact], 3, 3, text_hash(fact)) is None
    assert relocate(before, 3, 3, text_hash(fact)) == relocate(before, 3, 3, text_hash(fact + "  "))


def test_nearest_copy_wins() -> None:
    fact = "- same line"
    lines = [fact, "x", "x", "x", "x", fact, "x"]
    located = relocate(lines, 5, 5, text_hash(fact))
    assert located is not None and located.start == 6


def test_junk_rules() -> None:
    ok = "- Alice moved to Lisbon with her two cats."
    assert junk_reason("memory/2026-03-01.md", ok) is None
    cases = {
        ("memory/2026-03-01.md", "## 13:56 Session 1"): "heading",
        ("memory/2026-03-01.md", "- "): "list marker",
        ("memory/2026-03-01.md", "---"): "list marker",
        ("memory/2026-03-01.md", "<!-- memgit:entry key=k1 -->"): "memgit marker or comment",
        ("memory/2026-03-01.md", "status: draft"): "metadata",
        ("memory/2026-03-01.md", "- ok then"): "too short",
        ("memory/dreams/2026-03-01.md", ok): "dream output",
        ("memory/.dreams/recall/2026-03-01.jsonl", ok): "dream output",
        ("MEMORY.md", ok): "already long-term",
        ("sessions/2026-03-01.jsonl", ok): "not a Markdown note",
        ("memory/x.md", '{"t":"2026","q":"abc","path":"memory/a.md","lines":[1,2]}'): "ledger line",
    }
    for (path, text), reason in cases.items():
        assert junk_reason(path, text) == reason, (path, text)


def test_concept_tags_and_subjects() -> None:
    tags = concept_tags("The staging database password rotates every Monday at 9am in the staging cluster")
    assert tags[:3] == ["staging", "database", "password"] and len(tags) <= 8 and "the" not in tags
    assert "東京" in concept_tags("我们 下周 去 東京 开会 meeting")
    assert subject("- **Caroline**: I went to a support group.") == "caroline"
    assert subject("- Alice moved to Lisbon.") == "alice"
    assert entry_key("- Alice  moved to Lisbon.") == entry_key("Alice moved to Lisbon.")


def test_score_shapes_match_the_reference() -> None:
    today = date(2026, 3, 4)

    def score(**kw: object) -> float:
        return components(today=today, half_life_days=14.0, **kw).weighted(DEFAULT_WEIGHTS)  # type: ignore[arg-type]

    durable = score(recalls=3, queries=3, days=["2026-03-02", "2026-03-03", "2026-03-04"], relevance=0.85, tags=4)
    filler = score(recalls=1, queries=1, days=["2026-03-04"], relevance=0.8, tags=3)
    stale = score(recalls=3, queries=3, days=["2026-01-02", "2026-01-03", "2026-01-04"], relevance=0.85, tags=4)
    assert 0.75 <= durable <= 0.8 and 0.45 <= filler <= 0.55 and stale < 0.75


def test_ledger_times_compare_as_instants() -> None:
    from datetime import UTC, datetime

    from memgit.dream.ledger import parse_line

    line = '{{"t":"{t}","q":"a","path":"memory/a.md","lines":[1,1],"score":1}}'
    east = parse_line(line.format(t="2026-03-04T21:00:00+02:00"))
    naive = parse_line(line.format(t="2026-03-04T20:30:00"))
    assert east is not None and naive is not None
    now = datetime(2026, 3, 4, 20, 0, tzinfo=UTC)
    assert east.at <= now < naive.at  # 19:00 UTC is before now; a naive time is read as UTC
    assert naive.time == "2026-03-04T20:30:00+00:00"


def test_filler_words_are_not_concepts() -> None:
    from memgit.dream.concepts import concept_tags, speakers

    tags = concept_tags("Two views must be refreshed by hand after a rollback; also one need.")
    assert tags == ["views", "hand", "rollback"]
    # Verbs and their past forms, adverbs, praise and words too generic to browse by are no concepts.
    tags = concept_tags("First we found that every deploy really needed the cache warmed, so yeah, time to fix it")
    assert tags == ["deploy", "cache", "fix"]
    tags = concept_tags("Awesome, that sounds definitely amazing since the pottery class was way beautiful")
    assert tags == ["pottery", "class"]
    # The speakers of a transcript, and the nicknames they start, are not what it is about.
    voices = speakers(["- **Melanie**: hi\n- **Caroline**: hey Mel, the family camping trip was great\n"])
    assert voices >= {"melanie", "caroline"}
    assert concept_tags("- **Caroline**: Mel, the family camping trip with Caroline", exclude=voices) == [
        "family", "camping", "trip"]
