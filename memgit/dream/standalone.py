"""Standalone entries (pure): a promoted copy must read right without the log it came from.

A daily-log line leans on its surroundings: the day it was written ("today", "on Saturday"), the
heading above it ("## 15:45 1:1 with Marco" / "He prefers async reviews"), the transcript's speaker
markup (`**Jon**: ...`), the chat around it ("Nice one! How was it?"). The entry memgit proposes is
a copy, so it is rewritten to stand alone, and refused when it cannot:

* the speaker markup becomes "Jon said: …";
* questions, greetings, thanks and praise are dropped; nothing else left is `junk: chatter`;
* a bare pronoun subject (He/She/It/They/This/That …) takes a person's whole name from the heading
  above when it names exactly one person, else `needs context`;
* relative dates are resolved against the log's day (`reltime`); one that cannot be is `needs
  context`;
* a one-off event or plan whose date is not after the dream (`rehearsal on 2026-03-04 at 14:00`),
  or a trial run, is not a current fact: `transient`.

The log line itself is never changed; the marker still points at its exact lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from memgit.core.text import STOP_WORDS
from memgit.dream.chatter import without_chatter
from memgit.dream.concepts import NOT_CONCEPTS, plain
from memgit.dream.events import near_appointment, passed_plan
from memgit.dream.languages import language_of
from memgit.dream.reltime import MONTHS, PAST_TENSE, WEEKDAYS, resolve, unresolved
from memgit.dream.reltime_intl import resolve_intl, tells_of_its_day, unresolved_intl
from memgit.dream.versions import CHANGE

#: What standing alone may change in a copy (`Verdict.changes`), as a reviewer reads it.
CHANGE_WORDS = {
    "date": "relative dates resolved",
    "subject": "pronoun replaced by the name it stands for",
    "speaker": "speaker markup",
    "chatter": "chat filler and attachment captions dropped",
    "opener": "the log's 'found that' dropped",
    "lead-in": "the closing lead-in to the block below dropped",
    "sender": "the quoted message's sender, from the line above it, named after it",
}
#: The change a lead-in's own sentences make when they are promoted without its closing clause.
LEAD_IN = "lead-in"
#: The change a quoted message makes when the line above it, which names its sender, goes with it.
SENDER = "sender"
NEEDS_CONTEXT = "needs context"
CHATTER = "junk: chatter"
TRANSIENT = "transient"

_SPEAKER = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<name>[^*\n]{1,40}?)\*\*\s*:\s*")
_TIMESTAMP = re.compile(r"^\s*(?:\*\*|\[|`)?\d{1,2}:\d{2}(?:\s*[ap]m)?(?:\*\*|\]|`)?\s*(?:[-–—:|]\s*)?", re.IGNORECASE)
_CHECKBOX = re.compile(r"^\s*\[[ xX]\]\s+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*)$")
_PRONOUN = re.compile(
    r"^(?P<word>he|she|it|they|this|that|these|those|his|her|its|their|him|them)(?P<contraction>['’](?:s|ll|d|re|ve))?\b"
    r"(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_PERSON_PRONOUNS = {"he", "she", "his", "her", "him"}
_POSSESSIVE = {"his", "her", "its", "their"}
#: After This/That/These/Those, a verb makes the word the subject itself ("This means…"); a noun
#: makes it a determiner ("This release ships…"), which names its subject.
_VERB_AFTER = re.compile(
    r"^\s+(?:is|was|are|were|will|would|should|could|can|may|might|must|has|have|had|does|did|means|meant|makes|made|"
    r"seems|seemed|sounds|sounded|looks|looked|also|just|needs|needed|requires|required|took|takes|became|got|"
    r"gets|happened|happens|worked|works|went|goes|helped|helps|shows|showed)\b",
    re.IGNORECASE,
)
_NAME_RUN = re.compile(
    r"(?<![\w'’])(?:(?:Dr|Prof|Mr|Mrs|Ms|Mx|Sr|Sra|Fr)\.?\s+)?[A-ZÀ-Þ][\w'’-]*(?:\s+[A-ZÀ-Þ][\w'’-]*)*"
)
#: A title alone names no one ("Prof", "Dr"): a heading's person is the whole name or nobody.
_TITLES = frozenset("dr prof mr mrs ms mx sr sra fr professor doctor coach".split())
_PERSON_CUE = re.compile(
    r"(?:\bwith|\bfrom|\bby|\bfor|\band|&|,|\b1:1|\bcall|\bchat|\bmeet(?:ing)?)\s*$", re.IGNORECASE
)
#: Capitalised words of headings and sentence starts that name no one.
_COMMON = (
    frozenset(
        """meeting meetings notes note standup sync call review retro planning morning afternoon evening daily weekly
    update updates todo agenda decision decisions team chat interview session lunch kickoff demo week day log
    summary follow-up followup onboarding misc ops incident postmortem project projects status done doing next
    later inbox ideas questions action actions items risks blockers release deploy oncall on-call handover
    reminder reminders okay ok yes no hi hey hello thanks dear""".split()
    )
    | {m.lower() for m in MONTHS}
    | set(WEEKDAYS)
)
_TRIAL = re.compile(
    r"\b(?:dry[- ]runs?|test runs?|trial runs?|rehearsals?|debugging|investigating|troubleshooting|for now|"
    r"temporar(?:y|ily)|in progress|WIP|ETA|at the moment|waiting (?:for|on)|is down|are down|blocked (?:on|by)|"
    r"out sick|OOO|out of office)\b",
    re.IGNORECASE,
)
#: An open task is work to do, not something to remember: a checkbox item, a TODO, an action item.
_TASK = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\[[ xX]\]|(?:TODO|FIXME|action items?|AI)\b\s*:?|(?:action|to ?do|follow[- ]up)\s*:)",
    re.IGNORECASE,
)


#: What a chat client writes for an attachment ("[image: a photo of a sand castle …]"): no fact.
_CAPTION = re.compile(r"\s*\[(?:image|photo|picture|video|audio|file|attachment|sticker|gif)\b[^\]]*\]", re.IGNORECASE)
#: A log's voice before the fact ("Found that two views must be refreshed …"): the entry is the fact.
_OPENER = re.compile(
    r"^(?:(?:we|i)\s+)?(?:found|noticed|learned|learnt|realised|realized|discovered|noted|confirmed)\s+(?:out\s+)?"
    r"that\s+(?=\S)|^(?:(?:it\s+)?turns out|note|fyi|til|nb)\b[:,]?\s+(?:that\s+)?(?=\S)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Verdict:
    """What a snippet becomes as an entry: its text, or why it cannot be one, and what was changed."""

    text: str
    reason: str | None = None
    changes: tuple[str, ...] = ()


_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_HELD = re.compile(r"CODESPAN(\d+)X")


def standalone(
    text: str, *, lines: Sequence[str], start: int, day: date | None, today: date, turn_of_session: bool = False
) -> Verdict:
    """The promoted copy of `text` (lines `start`… of a file whose lines are `lines`, written on `day`
    when it is a daily log), judged on `today`, the day of the dream. Code spans (a command, a path,
    a setting) are held out of every rule and copied byte for byte: no date, pronoun or chatter
    rule reads inside them."""
    spans: list[str] = []

    def hold(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"CODESPAN{len(spans) - 1}X"

    verdict = _standalone(
        _CODE_SPAN.sub(hold, text), lines=lines, start=start, day=day, today=today, turn_of_session=turn_of_session
    )
    if not spans:
        return verdict
    restored = _HELD.sub(lambda m: spans[int(m.group(1))], verdict.text)
    return Verdict(restored, verdict.reason, verdict.changes)


def _standalone(
    text: str, *, lines: Sequence[str], start: int, day: date | None, today: date, turn_of_session: bool = False
) -> Verdict:
    changes: list[str] = []
    if _TASK.match(text):
        return Verdict(plain(text), TRANSIENT)
    body = plain(_CHECKBOX.sub("", text))
    speaker = None
    match = _SPEAKER.match(text.lstrip())
    if match and (turn_of_session or in_conversation(lines, start)):
        speaker = match["name"].strip()
        body = plain(text.lstrip()[match.end() :])
        changes.append("speaker")
    stamp = _TIMESTAMP.match(body)
    if stamp and stamp.end() < len(body):
        body = body[stamp.end() :]
    captionless = " ".join(_CAPTION.sub(" ", body).split())
    kept, dropped = without_chatter(captionless, dialogue=speaker is not None)
    if not kept:
        return Verdict(body, CHATTER)
    if dropped or captionless != body:
        changes.append("chatter")
    body = kept
    opener = _OPENER.match(body)
    if opener and speaker is None and len(body) > opener.end() + 1:
        body = body[opener.end()][:1].upper() + body[opener.end() + 1 :]
        changes.append("opener")
    subject = _pronoun_subject(body, lines, start, speaker)
    if subject is not None:
        if subject == "":
            return Verdict(body, NEEDS_CONTEXT)
        body = subject
        changes.append("subject")
    if day is not None and tells_of_its_day(body):
        return Verdict(body, TRANSIENT, tuple(changes))  # the news of the log's day, a plan for the next
    if day is not None:
        resolved = resolve_intl(resolve(body, day), day)
        if resolved != body:
            changes.append("date")
            body = resolved
    if unresolved(body) is not None or unresolved_intl(body) is not None:
        return Verdict(body, NEEDS_CONTEXT)
    if told_once(body) and (speaker is None or (day is not None and turn_of_session)):
        return Verdict(body, TRANSIENT, tuple(changes))
    if speaker:
        body = f"{speaker} said: {body}"
    if is_transient(body, today, day):
        return Verdict(body, TRANSIENT, tuple(changes))
    return Verdict(body, None, tuple(changes))


#: How many lines around a line are read to tell whether it is one turn of a conversation.
_AROUND = 30


def in_conversation(lines: Sequence[str], start: int) -> bool:
    """Line `start` sits in a conversation written out in a note: around it, two people or more
    speak (`**Name**: …`). Only there is a bold lead-in a speaker ("Jon said:
    …"); in a log, "**Haubold-E-Bike**: Fehlerspeicher …" names what the line is about, and the copy
    keeps it as written."""
    names = set()
    for line in lines[max(0, start - 1 - _AROUND) : start - 1 + _AROUND]:
        found = _SPEAKER.match(line.lstrip())
        if found:
            names.add(found["name"].strip().lower())
    return len(names) >= 2


def _pronoun_subject(body: str, lines: Sequence[str], start: int, speaker: str | None) -> str | None:
    """None: the subject is not a bare pronoun. "": it is, and cannot be resolved. Else the body
    with the pronoun replaced by the one person the heading names."""
    match = _PRONOUN.match(body)
    if not match:
        return None
    word = match["word"].lower()
    if word in ("this", "that", "these", "those") and not match["contraction"] and not _VERB_AFTER.match(match["rest"]):
        return None  # a determiner: "This release ships on Friday" names its subject
    if word not in _PERSON_PRONOUNS or speaker is not None:
        return ""  # a thing or a group, or a pronoun inside a chat turn: only the conversation knows
    names = _people_around(lines, start)
    if len(names) != 1:
        return ""
    name = names.pop()
    contraction = (match["contraction"] or "").lower().replace("’", "'")
    rest = match["rest"]
    if word in _POSSESSIVE:
        return f"{name}'s{rest}"
    verb = {"'ll": " will", "'d": " would", "'re": " are", "'ve": " have"}.get(contraction, "")
    if contraction == "'s":
        verb = " has" if re.match(r"^\s+(?:been|got|gone|had|done|made|taken|seen|said)\b", rest) else " is"
    return f"{name}{verb}{rest}"


def _people_around(lines: Sequence[str], start: int) -> set[str]:
    """Persons named by the nearest heading above line `start`. The line above is no witness for
    a name (a pronoun may point past it: "Sam Oduya ran 10k." / "She said it looked fine." means
    the physio of the heading), and a copy names no one its line and heading do not; but a line
    above that opens with another name makes the pronoun ambiguous, so it vetoes."""
    above: str | None = None
    for number in range(start - 1, 0, -1):
        line = lines[number - 1] if number - 1 < len(lines) else ""
        if not line.strip():
            continue
        heading = _HEADING.match(line)
        if heading:
            people = _heading_people(heading["text"])
            if people and above and above not in people:
                return people | {above}  # two candidates: ambiguous
            return people
        if above is None:
            above = _line_subject(line) or ""
    return set()


def _line_subject(line: str) -> str | None:
    body = plain(_CHECKBOX.sub("", line))
    if _SPEAKER.match(line.lstrip()):
        return None
    stamp = _TIMESTAMP.match(body)
    if stamp:
        body = body[stamp.end() :]
    match = _NAME_RUN.match(body)
    if not match or not _is_name(match.group(0)):
        return None
    return match.group(0)


def _is_name(run: str) -> bool:
    words = run.split()
    if all(w.lower().rstrip(".") in _TITLES for w in words):
        return False
    return bool(words) and all(
        w.lower() not in STOP_WORDS and w.lower() not in _COMMON and w.lower() not in NOT_CONCEPTS and not w.isupper()
        for w in words
    )


def _heading_people(text: str) -> set[str]:
    text = re.sub(
        r"\b\d{1,2}:\d{2}\b|\b\d{4}-\d{2}-\d{2}\b|\b1:1\b", lambda m: " 1:1 " if m.group(0) == "1:1" else " ", text
    )
    runs = [(m.start(), m.group(0)) for m in _NAME_RUN.finditer(text)]
    people = set()
    meaningful = [run for _, run in runs if _is_name(run)]
    for at, found in runs:
        run = re.sub(r"['’]s$", "", found)  # "Noor's review": the person is Noor
        if not _is_name(run):
            continue
        cued = (
            _PERSON_CUE.search(text[:at]) is not None or found != run or text[at + len(run) :].startswith(("'s", "’s"))
        )
        alone = len(meaningful) == 1 and len(re.findall(r"[A-Za-z]{3,}", text)) <= len(run.split()) + 2
        if cued or alone:
            people.add(run)
    return people


#: What makes a line in the past tense more than a one-off: a decision, a rule, a standing state.
_LASTS = re.compile(
    r"\b(?:is|are|am|isn't|aren't|has|have|will|won't|'ll|'s|'re|now|always|never|every|each|from now on|going forward|"
    r"may|can|cannot|can't|could|would|might|do|does|don't|doesn't|only|usually|"
    r"anymore|any more|no longer|rule|policy|prefers?|wants?|needs?|must|should|decided|agreed|confirmed|approved|"
    r"chose|owns?|lives?|works?|uses?|runs?|takes? over|took over|moved to|switched|changed|replaced|joins?|joined|"
    r"starting|from|until|since|instead|going to|per|weekly|daily|monthly)\b",
    re.IGNORECASE,
)


def told_once(text: str) -> bool:
    """An English line that only tells what happened once ("rang the clinic, they'll call back"
    aside, "told school office", "sent the report to the board"): a verb in the past tense and
    nothing that lasts: no present or future, no decision, rule, preference or change of state.
    A one-off of the past is the day's news, not long-term memory."""
    # The verb near the start: a log's "rang the clinic", "Sent the report", "carol picked up"; a
    # participle further on ("expects lesson plans uploaded by …") tells of no past event.
    opening = " ".join(re.findall(r"[\w'’]+", text)[:3])
    past = [m.group(0) for m in PAST_TENSE.finditer(opening) if not m.group(0).lower().endswith("eed")]
    if not past or language_of(text) != "english":
        return False
    return _LASTS.search(text) is None and CHANGE.search(text) is None  # a value that moved lasts


def is_transient(text: str, today: date, near: date | None = None) -> bool:
    """A trial or a status of the moment, an appointment of the next two weeks (a clock time and a
    date), or a one-off event or plan dated on or before `today`
    (events.py, the rule forgetting shares; its outcome, in the past tense, stays a fact, and so does
    a change "from <date>")."""
    return _TRIAL.search(text) is not None or passed_plan(text, today, near) or near_appointment(text, today, near)
