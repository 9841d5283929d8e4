"""Round 3 of issues 43/44, the pure rules: the key a line names (keys.py) and the update it reads
for a hand-written line; a turn that asks or orders; the news of a log's day in every language; a
line's language; a copy that never loses a sentence from its middle; a bold lead-in that is no
speaker outside a conversation; a line a fenced block opens right below."""

from __future__ import annotations

from datetime import date

from memgit.dream.blocks import continues_below, fenced_lines
from memgit.dream.chatter import sentences, without_chatter
from memgit.dream.keys import key_of, one_subject, same_key, same_label
from memgit.dream.languages import language_of
from memgit.dream.light import CONTINUES, asks, judge
from memgit.dream.model import ShortTerm
from memgit.dream.reltime_intl import tells_of_its_day
from memgit.dream.standalone import LEAD_IN, in_conversation
from memgit.dream.versions import key_update
from memgit.ledger.lines import text_hash
from memgit.lint.rules import LintSettings


def test_the_key_a_line_names_in_any_language() -> None:
    assert key_of("- Treasurer: Linda Marsh, lmarsh@example.org") == key_of("- Treasurer: **Anthony Reyes** (elected)")
    assert key_of("- Öffnungszeiten (Winter): Di–Fr 10–18 Uhr").words == ("öffnungszeiten",)  # type: ignore[union-attr]
    assert key_of("- Seminario de grupo: **martes 10:00**, sala 2.07.").words == ("seminario", "grupo")  # type: ignore[union-attr]
    # without a separator: the words before the first value (a weekday, a number)
    assert key_of("- bins THURS - black + brown one week").words[0] == "bins"  # type: ignore[union-attr]
    assert key_of("- Maisie (Y5) swimming tue + thu 5:15-6").words == ("maisie", "swimming")  # type: ignore[union-attr]
    assert key_of("- 25% retainer to hold a date") is None  # a value first names no key
    # a promoted turn's speaker is no key of the fact it copies
    assert key_of("Jess said: Sneak peek: within 72 hrs") == key_of("Sneak peek: within 48 hrs")
    assert key_of("The user said: bins TUESDAY now").words[0] == "bins"  # type: ignore[union-attr]


def test_one_key_needs_both_written_as_key_value_or_two_words_shared() -> None:
    assert same_key(key_of("Leon (Azubi): Berufsschule montags"), key_of("Leon: Schule Do + Fr"))
    assert same_key(key_of("Sneak peek within 48 hrs"), key_of("**Sneak peek: within 72 hrs** for everyone"))
    # a name two sentences share is no key
    assert not same_key(key_of("Priya tags (signed)"), key_of("Priya merged #244 and changed the checks"))
    assert not same_key(key_of("Treasurer: Linda Marsh"), key_of("Secretary: Gloria Pitts"))


def test_a_newer_value_of_one_key_is_an_update_and_a_repeat_is_not() -> None:
    old = "Öffnungszeiten (Winter): Di–Fr 10–18 Uhr, Sa 10–14"
    assert key_update("Öffnungszeiten ab Mo 13.04.: Mo 13–18:30, Sa 10–15", old, 0.63)
    assert not key_update("Öffnungszeiten ab Mo 13.04.: Mo 13–18:30, Sa 10–15", old, 0.3)  # meaning too far
    assert not key_update("Öffnungszeiten (Winter): Di–Fr 10–18 Uhr", old, 0.9)  # no new value
    assert not key_update("Altreifen: Container im Hof, 1. Mittwoch", old, 0.6)  # another key


def test_only_one_label_word_for_word_replaces_a_persons_line() -> None:
    # the label a value is given from ("ab Mo 13.04.") is no part of the key
    assert same_label(key_of("Öffnungszeiten ab Mo 13.04.: Mo 13–18:30"), key_of("Öffnungszeiten (Winter): Di–Fr"))
    assert same_label(key_of("Treasurer: **Anthony Reyes** (elected 10/6)"), key_of("- Treasurer: Linda Marsh"))
    # a longer label is another thing (an order of the machine's kit, not its calendar)
    seahorse = "- Seahorse XFe96: calendario del departamento + aviso a Javi"
    assert not key_update("Seahorse XFe96 FluxPak (Javi dice que queda 1 placa) → pedido, ~1 100 €", seahorse, 0.63)
    # a key read from a sentence: a reading that day, not a new rule
    meters = "- meter readings 1st of month (octopus app)"
    assert not key_update("meter readings in the octopus app: elec 41872, gas 04418", meters, 0.7)
    assert key_of("v1.0 target: 2026-04-30").words == ("v1", "target")  # type: ignore[union-attr]


def test_conflicts_only_between_lines_on_one_key_or_naming_one_person() -> None:
    seminar = "Seminario de grupo: **martes 10:00**, sala 2.07."
    assert not one_subject("Javi me explica el Seahorse: él reserva la semana del 9/02.", seminar)
    assert one_subject("Seminario → miércoles 9:30.", "Seminario de grupo: martes 10:00")
    assert one_subject("the slides go to Carmen the day before", "ask Carmen for a slot by email")


def test_a_turn_that_asks_or_orders() -> None:
    assert asks("hab ich da überhaupt nen Vertrag mit denen?", "")
    assert asks("¿lo puedes mirar", "")
    assert asks("make me a packing list", " ".join(["item"] * 40))  # answered at length: asked for
    assert not asks("okay. new: full galleries within 8 weeks", "Noted, 8 weeks for new contracts.")


def test_the_news_of_a_day_in_every_language() -> None:
    assert tells_of_its_day("Hannah lo ha enviado hoy (World Courier)")
    assert tells_of_its_day("Leon ist heute krank")
    assert tells_of_its_day("le colis arrive demain")
    assert tells_of_its_day("deep clean tonight")
    assert not tells_of_its_day("Jana Böhm (Probearbeiten heute, sehr gut): Start Di 17.03.")  # an aside
    assert not tells_of_its_day("Seminario los martes por la mañana")  # the morning, not tomorrow
    assert not tells_of_its_day("from today the bins go out on Tuesdays")  # a change that starts


def test_a_lines_language() -> None:
    assert language_of("Hannah lo ha enviado hoy, 5 viales en hielo seco. Estimado: llega a Madrid") == "spanish"
    assert language_of("Leon hat die Einladung zur Zwischenprüfung gekriegt, von der Kammer") == "german"
    assert language_of("The staging database password rotates every Monday.") == "english"


def test_a_copy_never_loses_a_sentence_from_its_middle() -> None:
    text = "Javi reserva la semana del 9/02. Me cede el martes. ¿Y Carmen? Hay que titular FCCP antes."
    assert without_chatter(text)[0] == text
    assert sentences("Hay que titular FCCP (¿el 5/02? Carmen no está) antes.") == [
        "Hay que titular FCCP (¿el 5/02? Carmen no está) antes."
    ]
    assert without_chatter("Thanks! The bins go out on Tuesdays now. Any questions?")[0] == (
        "The bins go out on Tuesdays now."
    )


def test_a_bold_lead_in_is_a_speaker_only_in_a_conversation() -> None:
    log = ["# Mi, 04.03.", "", "- **Haubold-E-Bike**: Fehlerspeicher 503, Motor defekt.", "- Sensor bestellt."]
    assert not in_conversation(log, 3)
    chat = ["- **Jon**: I signed the lease.", "- **Gina**: Congrats!"]
    assert in_conversation(chat, 1)


def test_a_line_a_fenced_block_opens_right_below_is_a_lead_in() -> None:
    lines = ["Required checks still say `test (1.24.x)` → every PR shows", "```", "Expected — Waiting", "```"]
    assert continues_below(lines, 1)
    assert not continues_below(["A fact.", "", "```", "code", "```"], 1)


def test_the_sentences_before_a_closing_lead_in_stand_alone_and_the_lead_in_goes_with_its_block() -> None:
    lines = [
        "## 2026-11-03 10:02 — deadline",
        "Helen's email: submission now **4 Dec**, not 20 Nov. She wants:",
        "- the lag result in the main text",
        "Run the rerun like this:",
        "```",
        "sbatch slurm/models.sbatch",
        "```",
        "Set up the environment with e.g. this:",
        "- `uv sync`",
    ]

    def judged(number: int) -> ShortTerm:
        raw = lines[number - 1]
        entry = ShortTerm("memory/2026-11-03.md", number, number, raw, text_hash(raw), {}, [])
        judge(entry, lines, date(2026, 11, 6), LintSettings(), frozenset(), fenced=fenced_lines(lines))
        return entry

    head = judged(2)
    assert head.rejected is None and head.changes[0] == LEAD_IN
    assert head.entry_text == "Helen's email: submission now **4 Dec**, not 20 Nov."
    assert judged(4).rejected == CONTINUES  # all lead-in: its content is the block
    assert judged(8).rejected == CONTINUES  # an abbreviation's dot ends no sentence


def test_a_quoted_message_goes_with_its_lead_in_and_names_its_sender() -> None:
    """From the fourth report half's review: a lead-in whose content is the quoted message below
    ("messaged him the dates:" / "> 9 May, …") is no fact alone, its first sentence is; a quote
    under the line naming its sender ("- Ffion:") is copied signed with the sender's name, so that
    its "me" is not read as the note's writer; a weekday given as a setting's value or from a start
    is every such day, never one date."""
    from memgit.dream.reltime import resolve
    from memgit.dream.standalone import SENDER

    lines = [
        "mon 16 mar",
        "- tomos is my 2nd from april. messaged him the dates:",
        "> 9 May, 27 June, 11 July - all 10 hrs, £220. can you do them?",
        "- Ffion:",
        "> so... they've put me on fixed mondays from the 2nd, thursdays off instead",
    ]

    def judged(number: int) -> ShortTerm:
        raw = lines[number - 1]
        entry = ShortTerm("memory/2026-03-16.md", number, number, raw, text_hash(raw), {}, [])
        judge(entry, lines, date(2026, 3, 20), LintSettings(), frozenset(), fenced=fenced_lines(lines))
        return entry

    assert continues_below(lines, 2)
    head = judged(2)
    assert head.entry_text == "tomos is my 2nd from april." and head.changes[0] == LEAD_IN
    quote = judged(5)
    assert quote.entry_text.startswith("> so... they've put me on fixed mondays") and SENDER in quote.changes
    assert quote.entry_text.endswith("thursdays off instead (Ffion)")
    assert SENDER not in judged(3).changes  # the line above it is a lead-in, not a sender
    from memgit.dream.blocks import quoted_sender

    assert quoted_sender(["- sana messaged:", "> Sana: my cousin's flatmate babysits"], 2) is None  # named already
    day = date(2026, 2, 25)
    assert "THURSDAY from the week of" in resolve("editing day = THURSDAY from next week (2/3)", day)
    assert "2026-02-26" in resolve("call Marta on Thursday", day)
    assert "2026-02-26" in resolve("dentist Thursday from 3pm", day)
