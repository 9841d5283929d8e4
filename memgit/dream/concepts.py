"""Concept tags, entry keys and text similarity without a model (pure).

Tags are what the REM phase counts into themes, the `conceptual` score component reads and the
memory site's Concepts pages list: the distinct words of a snippet that name something (people,
projects, things, activities), at most eight, 3-32 characters, CJK runs kept whole (a CJK word
has no spaces around it, and a single character already carries meaning). Without a part-of-speech
model, "names something" is decided by what it is not: stop words, chat filler and praise
("awesome", "definitely"), common verbs and their past forms, adverbs in -ly, adjectives in -ful,
-ous, -ible/-able, words too generic to be a topic ("time", "way", "people"), and the speakers
of a transcript (a chat between Jon and Gina is not "about" jon and gina).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from memgit.core.text import CJK_RE, STOP_WORDS, WORD_RE
from memgit.dream.languages import stop_words_for

MAX_TAGS = 8
#: Words search keeps in a query (they can matter to BM25) but that name no concept: a theme
#: "must" or "found" in a dream report, or a concept page for "every", tells a reviewer nothing.
#: Common verbs, adverbs and chat filler; nouns stay, even generic ones ("time", "work").
NOT_CONCEPTS = frozenset(
    """must may might shall also need needs needed one two yes okay ok yeah sure thanks thank hey wow
    first last next every much many lot lots really still always never maybe often sometimes already
    even well good great nice new old big little today yesterday tomorrow tonight
    get gets got getting make makes made making use uses used using find finds found finding want wants
    wanted know knows knew think thinks thought said say says tell told going went come came take took
    give gave keep kept like likes liked let lets see saw seen look looks looked seems feel felt try tried
    thing things something anything everything nothing someone anyone everyone""".split()
)
#: Not topics either: praise and reactions, verbs, adjectives and words too generic to browse by.
FILLER = frozenset(
    """awesome amazing cool glad sounds sound definitely tough appreciate appreciated together important hear
    heard fun means mean meant hard since words inspiring inspired gonna gotta wanna long pic pics happy working
    congrats around stay stayed staying best yep yup nope times time way ways people person others other life
    day days week weeks month months year years part stuff moment moments bit ones guys fam biz sense chance
    step top mind matter note kind sort lol haha aww woah wow omg bye hello ugh hmm
    bring brings bringing seeing taking right helping help helps helped wait show shows showed back special
    positive excited proud super favorite real sorry free won soon agree agreed small cute incredible passionate
    wild pretty busy exciting huge coming reach create creating true sweet creative put haven different takes
    actually watch far strong bet express spreading easy join feels plus stoked remind reminds worth loving love
    loved lucky thinking learn safe starting start started cause keeps knowing able quit sharing share shared
    push pushing offer grow crazy sad giving isn hoping happening happen happened hearing winning losing talking
    talk talked chatting chat chatted cherish young better wish full ago without usually ready calm away lost
    sometime focused determined chill understand believe enjoy enjoyed remember looking trying playing feeling
    tell tells telling gets goes going doing done check else pretty interesting rewarding supportive mental
    local online forward coming later recent recently lately finally totally especially truly really quite
    anyway anyways basically literally probably perhaps almost enough least whole sure glad hope hoped hopes
    feel feels felt seem seemed stuff things wonderful beautiful meaningful grateful powerful peaceful
    another others every everyone somebody anybody nobody everybody someone okay alright fine awesome
    definitely absolutely totally thank thanks welcome hey hi yeah yes ok difference self key perfect gives
    stop track alone image images photo photos picture pictures pic pics journey experience experiences
    weekend weekends don isn haven didn doesn wasn weren aren couldn wouldn shouldn won ain hasn hadn""".split()
)
#: Nouns that the suffix rules below would drop.
_NOUNS_LIKE_MODIFIERS = frozenset(
    """family july italy supply reply assembly butterfly anomaly rally ally belly jelly monopoly lily holly emily
    kelly sally molly bully hundred bed seed shed speed feed need weed handful spoonful table cable vegetable
    variable timetable""".split()
)
_MODIFIER = re.compile(r"(?:ly|ful|ous|ible|able|ed)$")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_SPEAKER = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<name>[^*]{1,40})\*\*\s*:|^(?:user|assistant): ")
_SPEAKER_ANYWHERE = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<name>[^*\n]{1,40})\*\*\s*:", re.MULTILINE)


def is_topic_word(lowered: str, stop: frozenset[str] = STOP_WORDS) -> bool:
    """Whether a (lower-case, non-CJK) word may be a concept tag (`stop`: the stop words of the
    text's language, languages.py)."""
    if lowered in stop or lowered in NOT_CONCEPTS or lowered in FILLER or not 3 <= len(lowered) <= 32:
        return False
    if any(ch.isdigit() for ch in lowered):
        return False
    return not (len(lowered) >= 5 and _MODIFIER.search(lowered) and lowered not in _NOUNS_LIKE_MODIFIERS)


def speakers(texts: Iterable[str]) -> frozenset[str]:
    """The speakers of the transcript turns (`**Name**: …`) in `texts`, lower case, first names too."""
    out: set[str] = set()
    for text in texts:
        for match in _SPEAKER_ANYWHERE.finditer(text):
            name = match["name"].strip().lower()
            out.add(name)
            out.update(part for part in WORD_RE.findall(name) if len(part) >= 3)
    return frozenset(out)


def _is_voice(word: str, voices: frozenset[str]) -> bool:
    # A nickname is how a speaker's name starts ("Mel" for Melanie).
    return word in voices or (len(word) >= 3 and any(v.startswith(word) for v in voices))


def concept_tags(text: str, limit: int = MAX_TAGS, *, exclude: frozenset[str] = frozenset()) -> list[str]:
    """Up to `limit` distinct concept words of `text`, in order of first appearance; names in
    `exclude` (a transcript's speakers, and the nicknames they start) are never tags."""
    tags: list[str] = []
    match = _SPEAKER.match(text)  # a speaker's name, or a transcript turn's role, is no concept
    if match:
        text = text[match.end() :]
    stop = stop_words_for(text)
    for word in WORD_RE.findall(text):
        lowered = word.lower()
        if CJK_RE.search(word):
            tag = lowered[:32]
        elif not is_topic_word(lowered, stop) or _is_voice(lowered, exclude):
            continue
        else:
            tag = lowered
        if tag not in tags:
            tags.append(tag)
        if len(tags) >= limit:
            break
    return tags


def words(text: str) -> frozenset[str]:
    """Content words (stop words of the text's language out; CJK characters one by one) for
    overlap measures."""
    out: set[str] = set()
    stop = stop_words_for(text)
    for word in WORD_RE.findall(text):
        lowered = word.lower()
        if CJK_RE.search(word):
            out.update(ch for ch in CJK_RE.findall(word))
            rest = CJK_RE.sub(" ", word).split()
            out.update(r.lower() for r in rest if r.lower() not in stop)
        elif lowered not in stop:
            out.add(lowered)
    return frozenset(out)


def jaccard(a: str, b: str) -> float:
    left, right = words(a), words(b)
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def plain(text: str) -> str:
    """A promoted line as it should read in MEMORY.md: no list marker, single spaces."""
    lines = [_LIST_MARKER.sub("", line).strip() for line in text.splitlines()]
    return " ".join(line for line in lines if line)


def entry_key(text: str) -> str:
    """Stable key of a fact: the same words give the same key wherever and whenever they are found."""
    normal = " ".join(plain(text).lower().split())
    return "k" + hashlib.sha1(normal.encode("utf-8")).hexdigest()[:10]
