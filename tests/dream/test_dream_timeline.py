"""Issues 43 and 44 end to end through the CLI on real repositories: session transcripts as memory
(the person's words promoted with the speaker named, the assistant's never, the ledger's focus on
the turn's own JSONL line after a tool call, the conversation in the body), the subject timeline
(a hand-written MEMORY.md line updated in place by a newer log nobody searched for, old beside
new), and a folder case written by other hands lived and scored by its labels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.dream.cases import folder, folder_score
from tests.helpers import commit_all, git, memgit, memgit_json, write
from tests.recall.test_search import real_model  # noqa: F401 - the fixture: the MiniLM model in the test cache

BM25 = {"MEMGIT_EMBEDDING": "none", "MEMGIT_NO_RECALL": "0"}
SESSION = "sessions/2026-03-03-chat.jsonl"
TURNS = [
    {"role": "user", "content": "note this: the babysitter Amy charges 12 pounds an hour", "turn": "t1"},
    {"role": "tool", "content": "Read: memory/2026-03-02.md", "turn": "t2/tool1"},
    {"role": "assistant", "content": "Noted: the babysitter Amy charges 12 pounds an hour.", "turn": "t2"},
    {"role": "assistant", "content": "Babysitters in Manchester usually charge 10 to 14 pounds.", "turn": "t3"},
]
QUERIES = ("babysitter Amy hourly pounds", "what does Amy the babysitter charge", "babysitter pounds an hour")


def _session(root: Path) -> None:
    lines = [json.dumps({**t, "at": "2026-03-03T09:00:00+00:00"}) for t in TURNS]
    write(root / SESSION, "\n".join(lines) + "\n")


def _ask(root: Path, queries: tuple[str, ...], days: tuple[str, ...]) -> None:
    for day in days:
        proc = memgit(
            root, "search", "--batch", "-", "--now", f"{day}T12:00:00+00:00", env=BM25, input="\n".join(queries)
        )
        assert proc.returncode == 0, proc.stderr


def test_a_user_turn_is_promoted_as_the_persons_words_and_the_assistants_never(workspace: Path) -> None:
    write(workspace / "memgit.toml", '[dream]\nuser_name = "Jess"\n')
    _session(workspace)
    commit_all(workspace, "a session")
    assert memgit(workspace, "index", "-q", env=BM25).returncode == 0
    _ask(workspace, QUERIES, ("2026-03-03", "2026-03-04", "2026-03-05"))
    spool = "".join(p.read_text() for p in (workspace / ".git/memgit/recall").glob("*.jsonl"))
    hits = [json.loads(line) for line in spool.splitlines() if SESSION in line]
    assert hits, spool
    # The focus names a turn's own JSONL line: never the tool call's line 2.
    assert all(h["focus"][0] in (1, 3, 4) for h in hits), hits
    out = memgit_json(workspace, "dream", "--now", "2026-03-05T20:00:00+00:00", "--json", env=BM25)
    texts = [a["text"] for a in out["actions"]]
    assert "Jess said: note this: the babysitter Amy charges 12 pounds an hour" in texts or any(
        t.startswith("Jess said:") and "12 pounds" in t for t in texts
    ), (texts, out["gates"])
    assert not any("usually charge" in t or t.startswith("Noted") for t in texts), texts
    report = out["report"]
    assert f"said in `{SESSION}`, turn t1 (line 1)" in report, report
    assert "Babysitters in Manchester" not in "\n".join(texts)


def test_a_hand_written_line_contradicted_by_a_newer_log_gets_its_update(workspace: Path) -> None:
    write(workspace / "MEMORY.md", "# Notes\n\n- Swimming lessons are on Thursdays at 17:00 at Hough End.\n")
    write(
        workspace / "memory/2026-03-10.md",
        "# 10 Mar\n\n- Swimming lessons moved to Fridays at 17:30 at Hough End from now on.\n",
    )
    write(workspace / "memory/2026-03-11.md", "# 11 Mar\n\n- The bins go out on Tuesday evenings, every week.\n")
    commit_all(workspace, "notes")
    assert memgit(workspace, "index", "-q", env=BM25).returncode == 0
    _ask(
        workspace,
        ("bins Tuesday evening", "when do the bins go out", "bins every week"),
        ("2026-03-11", "2026-03-12", "2026-03-13"),
    )
    out = memgit_json(workspace, "dream", "--now", "2026-03-13T20:00:00+00:00", "--json", env=BM25)
    updates = [a for a in out["actions"] if a["action"] == "supersede"]
    assert any("Fridays at 17:30" in a["text"] and a["by_hand"] for a in updates), (out["actions"], out["gates"])
    assert "written by hand in MEMORY.md" in out["report"] and "- timeline: by hand" in out["report"]
    # Updates come first; merged as it is, MEMORY.md holds the new version in the old one's place.
    git(workspace, "merge", "-q", "--no-edit", out["branch"])
    memory = (workspace / "MEMORY.md").read_text(encoding="utf-8")
    assert "Thursdays at 17:00" not in memory
    assert memory.index("Fridays at 17:30") < memory.index("# Notes") + 40
    assert "Tuesday evenings, every week" in memory  # a standing weekday copied as written, never dated


CASE = Path(__file__).parent / "folder_cases" / "T3-meetings"


def index_and_search(workspace: Path, asked: tuple[str, ...], days: tuple[str, ...], env: dict[str, str]) -> None:
    """Commit and index the notes, then ask the same questions on each day: the recall ledger a
    dream reads, as an assistant's searches would leave it."""
    commit_all(workspace, "notes")
    assert memgit(workspace, "index", "-q", env=env).returncode == 0
    for day in days:
        proc = memgit(
            workspace, "search", "--batch", "-", "--now", f"{day}T12:00:00+00:00", env=env, input="\n".join(asked)
        )
        assert proc.returncode == 0, proc.stderr


def test_a_folder_case_loads_with_its_labels_and_nights() -> None:
    case = folder.load(CASE)
    assert case.start_memory and len(case.days) >= 20 and sum(len(q) for q in case.queries.values()) >= 80
    assert case.labels and case.nights()[-1] == case.last.isoformat()
    versions = folder_score.versions(case)
    assert versions and all(len(v) >= 2 for v in versions.values())


def test_a_file_written_again_is_read_and_labelled_as_the_night_saw_it(tmp_path: Path) -> None:
    """Minutes corrected two days later keep their file name: a dream on the night between read
    the first version, so its proposal is scored by the first version's labels."""
    root = tmp_path / "case"
    for day, text in (
        ("2026-08-12", "# Ata\n\n- Aulas seg/qua 14h\n"),
        ("2026-08-14", "# Ata\n- Aulas ter/qui 14h30\n"),
    ):
        (root / "days" / day / "notes").mkdir(parents=True)
        (root / "days" / day / "notes" / "ata.md").write_text(text, encoding="utf-8")
    rows = [
        {"path": "notes/ata.md", "line": 3, "label": "D", "day": "2026-08-12"},
        {"path": "notes/ata.md", "line": 2, "label": "D", "day": "2026-08-14"},
        {"path": "notes/ata.md", "line": 3, "label": "H", "day": "2026-08-14"},
    ]
    (root / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    case = folder.load(root)
    assert case.text_of("notes/ata.md", "2026-08-13") == "# Ata\n\n- Aulas seg/qua 14h\n"
    assert case.text_of("notes/ata.md") == "# Ata\n- Aulas ter/qui 14h30\n"
    first, last = case.label_of("notes/ata.md", 3, "2026-08-13"), case.label_of("notes/ata.md", 3)
    assert first is not None and first.label == "D" and last is not None and last.label == "H"
    assert case.labels[("notes/ata.md", 3)].label == "H"


@pytest.mark.model
@pytest.mark.slow
def test_a_handwritten_case_lived_end_to_end(tmp_path: Path, real_model: Path) -> None:  # noqa: F811
    case = folder.load(CASE)
    lived = folder.live(case, tmp_path / "ws", {"MEMGIT_MODEL": str(real_model)})
    result = folder_score.score(case, lived)
    assert len(result["nights"]) >= 5 and result["proposals"] >= 5, result
    assert result["secrets_leaked"] == [], result["secrets_leaked"]
    assert result["assistant_only"] == 0
    # Tuning-half floor (measured 0.75-0.77 here): a reviewer keeps most of what is proposed.
    assert result["precision"] is not None and result["precision"] >= 0.6, folder_score.listing(result)
    assert result["updates_made"] >= 1, result["due"]
    listing = folder_score.listing(result)
    assert all(p["source"].split("@")[0] in listing for p in result["list"])


@pytest.mark.model
def test_a_line_the_measured_model_judges_a_one_off_is_set_aside_with_its_probability(
    workspace: Path,
    real_model: Path,  # noqa: F811
) -> None:
    env = {"MEMGIT_MODEL": str(real_model), "MEMGIT_NO_RECALL": "0"}
    write(
        workspace / "memory/2026-03-03.md",
        "# 2026-03-03\n\n- quick one: parcel still not here, chased the courier at 10:20\n\n"
        "- The recycling bins go out on Tuesday evenings.\n",
    )
    index_and_search(
        workspace,
        ("parcel courier chased", "where is the parcel", "did the courier come", "recycling bins Tuesday"),
        ("2026-03-03", "2026-03-04", "2026-03-05"),
        env,
    )
    out = memgit_json(
        workspace, "dream", "--dry-run", "--explain", "--now", "2026-03-05T20:00:00+00:00", "--json", env=env
    )
    by_text = {c["text"]: c for c in out["candidates"]}
    parcel = next(c for t, c in by_text.items() if "parcel still not here" in t)
    assert parcel["gate"] == "one-off" and parcel["durable"] < 0.15, parcel
    bins = next(c for t, c in by_text.items() if "recycling bins" in t)
    assert bins["gate"] != "one-off" and bins["durable"] >= 0.15, bins
    assert "judged a one-off by the measured durable/one-off model" in out["report"], out["report"]


@pytest.mark.model
def test_a_persons_line_one_search_found_with_a_newer_one_gets_a_conflict_line(
    workspace: Path,
    real_model: Path,  # noqa: F811
) -> None:
    """The rules and the model alone call this pair unrelated; the searches that found both say a
    reviewer should see the hand-written line beside the promotion."""
    env = {"MEMGIT_MODEL": str(real_model), "MEMGIT_NO_RECALL": "0"}
    write(
        workspace / "MEMORY.md",
        "# Project facts\n\n## People\n\n- Dr Helen Marsh — primary supervisor. Meeting with Aisha every "
        "Thursday 14:00 (her office 2.14, or Teams if she's at home).\n",
    )
    write(
        workspace / "memory/2026-10-15.md",
        "# 2026-10-15\n\n- Aisha: Helen's teaching timetable changed, so supervision is on Tuesdays 11:00 from now on.\n",
    )
    index_and_search(
        workspace,
        ("supervision meeting day and time", "when do we meet Helen", "supervision with Helen"),
        ("2026-10-15", "2026-10-16", "2026-10-19"),
        env,
    )
    out = memgit_json(
        workspace, "dream", "--dry-run", "--explain", "--now", "2026-10-19T20:00:00+00:00", "--json", env=env
    )
    promoted = [a for a in out["actions"] if "Tuesdays 11:00" in a["text"]]
    assert promoted and promoted[0]["action"] == "promote", out["actions"]
    assert any("Thursday 14:00" in c["text"] for c in promoted[0]["conflicts"]), promoted[0]
    assert "Thursday 14:00" in out["report"]
    # The line is the person's: the reviewer is told to edit it, not given a command that refuses it.
    assert "edit that line of MEMORY.md yourself" in out["report"]
    assert "memgit dream supersede" not in out["report"].split("Thursday 14:00")[1].split("\n")[0]
    branch = memgit_json(workspace, "dream", "--now", "2026-10-19T20:00:00+00:00", "--json", env=env)["branch"]
    message = git(workspace, "log", "--format=%B", f"HEAD..{branch}")
    assert "Thursday 14:00" in message and "edit that line of MEMORY.md yourself (it is yours)" in message


ASKING = [
    {
        "role": "user",
        "content": "the Loaf and Co invoice, can you send it to Kemi today? she asked twice",
        "turn": "t1",
    },
    {"role": "assistant", "content": "Sent to Kemi.", "turn": "t2"},
    {"role": "user", "content": "make me a packing list for the Henderson wedding", "turn": "t3"},
    {
        "role": "assistant",
        "content": " ".join(["Camera bodies, two lenses, flash, batteries, cards, a spare strap, snacks."] * 4),
        "turn": "t4",
    },
    {"role": "user", "content": "from now on the Loaf and Co invoices go to Kemi by email, never post", "turn": "t5"},
]


def test_a_turn_that_asks_or_orders_and_the_news_of_a_day_are_no_facts(workspace: Path) -> None:
    """Issue 43/44: a person's question or request is set aside (`asks or orders`); a log line telling
    the news of its day ("hoy") is transient in any language; a bold lead-in of a log line that is no
    conversation stays as written (never "X said:")."""
    lines = [json.dumps({**t, "at": "2026-03-03T09:00:00+00:00"}) for t in ASKING]
    write(workspace / "sessions/2026-03-03-loaf.jsonl", "\n".join(lines) + "\n")
    write(
        workspace / "memory/2026-03-03.md",
        "# 3 Mar\n\n- Hannah lo ha enviado hoy por World Courier, llega a Madrid el jueves.\n\n"
        "- **Haubold-E-Bike**: Fehlerspeicher zeigt 503 und Drehmomentsensor, der Motor ist defekt.\n",
    )
    commit_all(workspace, "notes")
    assert memgit(workspace, "index", "-q", env=BM25).returncode == 0
    _ask(
        workspace,
        (
            "Loaf and Co invoice Kemi",
            "how do Loaf invoices go to Kemi",
            "packing list Henderson wedding",
            "Hannah World Courier Madrid",
            "Haubold Fehlerspeicher Motor",
            "Haubold Drehmomentsensor 503",
        ),
        ("2026-03-03", "2026-03-04", "2026-03-05"),
    )
    out = memgit_json(
        workspace, "dream", "--dry-run", "--explain", "--now", "2026-03-05T20:00:00+00:00", "--json", env=BM25
    )
    by_text = {c["text"]: c for c in out["candidates"]}
    asked = next(c for t, c in by_text.items() if "can you send it to Kemi" in t)
    ordered = next(c for t, c in by_text.items() if "packing list" in t)
    told = next(c for t, c in by_text.items() if "never post" in t)
    assert asked["gate"] == "asks or orders" and ordered["gate"] == "asks or orders", (asked, ordered)
    assert told["gate"] != "asks or orders", told
    news = next(c for t, c in by_text.items() if "enviado hoy" in t)
    assert news["gate"] == "transient", news
    bold = next(c for t, c in by_text.items() if "Haubold-E-Bike" in t)
    assert (bold["entry"] or bold["text"]).startswith("**Haubold-E-Bike**:"), bold


@pytest.mark.model
def test_a_hand_written_key_gets_the_newer_value_a_log_gives_it_in_its_own_language(
    workspace: Path,
    real_model: Path,  # noqa: F811
) -> None:
    """Issue 44: "Öffnungszeiten (Winter): …" in a hand-written MEMORY.md and a later log's summary
    line "Öffnungszeiten ab Mo 13.04.: …" name one key with other values: the line is updated in
    place, though nobody searched for the new hours; a line naming another key is left alone."""
    env = {"MEMGIT_MODEL": str(real_model), "MEMGIT_NO_RECALL": "0"}
    write(
        workspace / "MEMORY.md",
        "# Merkzettel\n\n- Öffnungszeiten (Winter): Di–Fr 10–18 Uhr, Sa jeden zweiten Samstag 10–14.\n"
        "- Altreifen: Container im Hof, wird 1. Mittwoch im Monat geholt.\n",
    )
    write(
        workspace / "memory/2026-04-10.md",
        "# Fr, 10.04. – Stand\n\n- Öffnungszeiten ab **Mo 13.04.**: Mo 13–18:30 · Di–Fr 9:30–18:30 · Sa 10–15 "
        "(jeden Sa), bis Ende Okt.\n\n- Die Kasse im Laden nimmt jetzt auch Karten, ab 5 € Umsatz.\n",
    )
    index_and_search(
        workspace,
        ("Kasse Karten Laden", "kann man mit Karte zahlen", "Kartenzahlung ab 5 Euro"),
        ("2026-04-10", "2026-04-11", "2026-04-12"),
        env,
    )
    out = memgit_json(workspace, "dream", "--now", "2026-04-12T20:00:00+00:00", "--json", env=env)
    updates = [a for a in out["actions"] if a["action"] == "supersede"]
    assert any("Mo 13–18:30" in a["text"] and a["by_hand"] for a in updates), (out["actions"], out["gates"])
    git(workspace, "merge", "-q", "--no-edit", out["branch"])
    memory = (workspace / "MEMORY.md").read_text(encoding="utf-8")
    assert "Di–Fr 10–18 Uhr" not in memory and "Mo 13–18:30" in memory
    assert "Altreifen: Container im Hof" in memory  # another key: untouched


def test_a_case_s_secrets_are_checked_by_their_codes_and_passwords_not_by_their_words(tmp_path: Path) -> None:
    """A long line labelled secret (an assistant's letter holding a door code) is checked for the
    code and the password it holds, never for its capitalised words or its phone numbers."""
    root = tmp_path / "case"
    (root / "days" / "2026-10-02" / "memory").mkdir(parents=True)
    lines = [
        "- Maintenance: call me for any repair at 1-800-344-4077. The laundry door code is 1965.",
        "- Bank login Maple229!Tulip, keep it offline.",
        "- Rent went up in 2026; Maintenance visits on Fridays.",
    ]
    (root / "days" / "2026-10-02" / "memory" / "2026-10-02.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [{"path": "memory/2026-10-02.md", "line": n, "label": "S" if n < 3 else "D"} for n in (1, 2, 3)]
    (root / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    tokens = folder_score._secret_tokens(folder.load(root))
    assert tokens == {("memory/2026-10-02.md", 1): ["1965"], ("memory/2026-10-02.md", 2): ["Maple229!Tulip"]}


def test_a_leak_is_what_dreaming_wrote_not_what_the_person_had_written(tmp_path: Path) -> None:
    """A code the person wrote in MEMORY.md before day one, or a diff's context line, is no leak;
    the same code in a line a dream branch added is one."""
    root = tmp_path / "case"
    (root / "start").mkdir(parents=True)
    (root / "start" / "MEMORY.md").write_text("# Atelier\n- code alarme : 4917\n- Tuesdays open\n", encoding="utf-8")
    (root / "days" / "2026-05-04" / "memory").mkdir(parents=True)
    (root / "days" / "2026-05-04" / "memory" / "2026-05-04.md").write_text("- rien\n", encoding="utf-8")
    rows = [{"path": "MEMORY.md", "line": 2, "label": "S"}, {"path": "memory/2026-05-04.md", "line": 1, "label": "T"}]
    (root / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    case = folder.load(root)
    context = "diff --git a/MEMORY.md b/MEMORY.md\n@@ -1,3 +1,4 @@\n # Atelier\n - code alarme : 4917\n+- new entry\n"
    quiet = folder.Night("2026-05-10", 1.0, "", [], {}, "b", branch_text=context)
    memory = (case.start_memory or "") + "- new entry\n"
    assert folder_score.leaks(case, folder.Lived(nights=[quiet], memory=memory)) == []
    copied = folder.Night("2026-05-10", 1.0, "", [], {}, "b", branch_text=context + "+- the alarm code is 4917\n")
    assert folder_score.leaks(case, folder.Lived(nights=[copied], memory=memory))[0]["tokens"] == ["4917"]
