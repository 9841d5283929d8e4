"""Dreaming's pure parts: MEMORY.md splicing (a person's bytes never change), rehydration, junk
rules, concept tags, scoring shapes, and the REM themes."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from memgit.core.provenance import EntryMarker, SourceRef
from memgit.dream import memory_doc
from memgit.dream.concepts import concept_tags, entry_key
from memgit.dream.light import junk_reason
from memgit.dream.rehydrate import relocate
from memgit.dream.scoring import DEFAULT_WEIGHTS, components
from memgit.dream.subjects import title_of
from memgit.ledger.lines import text_hash

MARKER = EntryMarker("kabc", SourceRef("memory/2026-01-02.md", 4, 4, "f" * 40), 0.8, "2026-02-01")
human_line = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="<>="), max_size=40)
human_text = st.lists(human_line, max_size=8).map(lambda lines: "\n".join(lines))


@settings(max_examples=200, deadline=None)
@given(before=human_text, after=human_text, trailing=st.booleans())
def test_splicing_never_changes_a_persons_bytes(before: str, after: str, trailing: bool) -> None:
    head = before + ("\n" if trailing else "")
    added = memory_doc.add_entry(head, "kabc", "- A fact.", group="Facts")
    assert added.startswith(head) or not head.strip()
    assert added.endswith("## From dreaming\n\n### Facts\n- A fact. <!--mg:kabc-->\n")
    [entry] = [e for e in memory_doc.parse_entries(added, {"kabc": HASH}) if e.key == "kabc"]
    assert entry.owned and entry.body == "- A fact." and entry.inline
    tail = "\n## Written by a person\n\n" + after + "\n"
    text = added + tail
    second = memory_doc.add_entry(text, "kdef", "- Another fact.", group="facts")  # same group, any case
    new_line = "- Another fact. <!--mg:kdef-->\n"
    assert second.replace(new_line, "", 1) == text and second.index(new_line) < second.index("## Written by")
    replaced = memory_doc.replace_entry(text, "kabc", "knew", "- Newer fact.")
    assert replaced == text.replace("- A fact. <!--mg:kabc-->", "- Newer fact. <!--mg:knew-->")
    removed = memory_doc.remove_entry(text, "kabc")
    start = added.index("## From dreaming")
    assert "A fact." not in removed and removed.endswith(tail) and removed[:start] == text[:start]
    assert "### Facts" not in removed  # a group left empty goes, the person's heading stays


HASH = memory_doc.body_hash("- A fact.")


def test_an_entry_edited_by_a_person_is_theirs() -> None:
    text = memory_doc.add_entry("# Long-term Memory\n", "kabc", "- The office is on floor two.")
    hashes = {"kabc": memory_doc.body_hash("- The office is on floor two.")}
    assert memory_doc.parse_entries(text, hashes)[0].owned
    assert not memory_doc.parse_entries(text)[0].owned  # nothing says memgit wrote it: a person's
    edited = text.replace("floor two", "floor three")
    assert not memory_doc.parse_entries(edited, hashes)[0].owned
    assert "floor three" in memory_doc.human_text(edited, hashes)
    assert "floor two" not in memory_doc.human_text(text, hashes) and "<!--" not in memory_doc.human_text(
        edited, hashes
    )


def test_long_markers_of_earlier_versions_are_read_and_shortened() -> None:
    old = "# Long-term Memory\n\n- mine\n\n" + memory_doc.render_long_entry(MARKER, "- A fact.") + "\n- after\n"
    [entry] = memory_doc.parse_entries(old)
    assert entry.owned and not entry.inline and entry.body == "- A fact."
    new, moved = memory_doc.migrate(old)
    assert new == "# Long-term Memory\n\n- mine\n\n- A fact. <!--mg:kabc-->\n\n- after\n"
    [(was, line)] = moved
    assert was.marker.source == MARKER.source and line == "- A fact. <!--mg:kabc-->"
    [entry] = memory_doc.parse_entries(new, {"kabc": was.written_hash or ""})
    assert entry.owned and entry.inline
    assert memory_doc.migrate(new) == (new, [])


def test_entries_keep_crlf_and_subjects_group_them() -> None:
    text = "# Long-term Memory\r\n\r\n- mine\r\n"
    added = memory_doc.add_entry(text, "k1", "- Priya owns the ETL jobs.")
    added = memory_doc.add_entry(added, "k2", "- Heron moves to Postgres 16.")
    added = memory_doc.add_entry(added, "k3", "- Priya prefers async reviews.")
    assert added.startswith(text) and "\n" not in added.replace("\r\n", "")
    assert added[len(text) :].replace("\r\n", "\n") == (
        "\n## From dreaming\n\n### Priya\n- Priya owns the ETL jobs. <!--mg:k1-->\n"
        "- Priya prefers async reviews. <!--mg:k3-->\n\n### Heron\n- Heron moves to Postgres 16. <!--mg:k2-->\n"
    )
    # One subject, one group, however many words its heading has.
    added = memory_doc.add_entry(added, "k4", "- The platform standup is at 9:45 on weekdays.")
    added = memory_doc.add_entry(added, "k5", "- The standup starts with a demo on Fridays.")
    assert (
        "### Platform standup\r\n- The platform standup is at 9:45 on weekdays. <!--mg:k4-->\r\n- The standup" in added
    )


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
        ("sessions/2026-03-01.jsonl", ok): "blank",  # no turn on that line of the transcript
        ("notes/2026-03-01.jsonl", ok): "not a Markdown note",
        ("memory/x.md", '{"t":"2026","q":"abc","path":"memory/a.md","lines":[1,2]}'): "ledger line",
    }
    for (path, text), reason in cases.items():
        assert junk_reason(path, text) == reason, (path, text)


def test_concept_tags_and_subjects() -> None:
    tags = concept_tags("The staging database password rotates every Monday at 9am in the staging cluster")
    assert tags[:3] == ["staging", "database", "password"] and len(tags) <= 8 and "the" not in tags
    assert "東京" in concept_tags("我们 下周 去 東京 开会 meeting")
    # A group heading is what the sentence is about, as a reader would write it, never its first word.
    assert title_of("Caroline said: I went to a support group.") == "Caroline"
    assert title_of("Alice moved to Lisbon.") == "Alice"
    assert title_of("Found that two materialised views must be refreshed by hand after a rollback.") == (
        "Materialised views"
    )
    assert title_of("The ETL job failed again at 02:13; Priya traced it to a timezone bug.") == "ETL job"
    assert title_of("In 2024 we moved to Lisbon.") == "Lisbon"
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

    from memgit.ledger.lines import parse_line

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
        "family",
        "camping",
        "trip",
    ]


def test_decisions_implied_by_memory_and_the_provenance_store() -> None:
    from memgit.dream.decisions import Decision, verdicts
    from memgit.dream.entries import EntryRecord, Store

    store = Store(
        [
            EntryRecord("kgone", "promote", "2026-03-01", "deleted by hand"),
            EntryRecord("kold", "promote", "2026-03-01", "replaced"),
            EntryRecord("knew", "supersede", "2026-03-05", "the update", replaces="kold"),
            EntryRecord("kforgot", "promote", "2026-01-01", "forgotten as proposed"),
            EntryRecord("kforgot", "forget", "2026-04-01", "forgotten as proposed"),
            EntryRecord("kstays", "promote", "2026-01-01", "its forget was dropped"),
            EntryRecord("kstays", "forget", "2026-04-01", "its forget was dropped"),
        ]
    )
    found = verdicts([Decision("kx", "rejected", "2026-04-02", "drop")], store, ["knew", "kstays"])
    assert found.rejected == {"kx", "kgone"} and found.missing == (("kgone", "deleted by hand"),)
    assert found.kept == {"kstays"}
