"""Chat filler (pure): questions, greetings, thanks, compliments and reactions are not facts.

A transcript turn mixes them with what is worth keeping ("Wow, congrats! I just started at the
bank."), so the test is per sentence: filler sentences are dropped from the promoted copy, and a
turn with nothing else left is rejected as `junk: chatter`. Leading interjections ("Yeah, ",
"Hey Jon, ") are trimmed from the sentence they open.
"""

from __future__ import annotations

import re

from memgit.core.text import WORD_RE
from memgit.dream.languages import stop_words_for

_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+(?=\S)")
_INTERJECTION = re.compile(
    r"^(?:(?:wow|whoa|woah|oh|ooh|ah|aw+|haha+|hah|lol|lmao|yeah|yep|yup|yes|nope|hey|hi|hello|well|ok|okay|omg|"
    r"gosh|man|dude|um+|uh+|hmm+|ha|yay|hooray|phew|alright|cool|nice|great|awesome|sure|totally|absolutely|"
    r"definitely|honestly|anyway|anyways|btw|so|true|right|exactly|indeed|agreed|"
    # the same in the other languages people talk to their assistant in
    r"ja|jo|genau|danke|prima|passt|klar|alles klar|naja|na gut|oui|merci|d['’]accord|parfait|bon|"
    r"s[ií]|gracias|vale|perfecto|claro|exacto|bueno|genial|vale vale)"
    r"(?:\s+[A-Z][\w'’-]*)?\s*(?:[,!.…:;-]+|\s-\s)\s*)+",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"^(?:hi|hey|hello|hiya|yo|howdy|greetings|good (?:morning|afternoon|evening|night)|morning|bye|goodbye|"
    r"see (?:you|ya)|take care|talk (?:to you )?(?:soon|later)|catch you later|cheers|welcome|"
    r"thanks|thank you|thx|ty|many thanks|appreciate (?:it|that|you)|much appreciated|"
    r"wow|whoa|omg|oh my|aw+|haha|lol|yay|cool|nice|great|awesome|amazing|wonderful|fantastic|brilliant|sweet|"
    r"congrats|congratulations|sounds (?:good|great|fun|amazing|awesome|lovely|like)|good (?:job|luck|one|idea|"
    r"point|call|for you|stuff)|well done|nice one|way to go|glad|so (?:happy|glad|proud|cool|sweet)|"
    r"i(?:'m| am) (?:so |really |very )?(?:happy|glad|proud|sorry|excited) (?:for|of|to hear|about) you|"
    r"me too|same here|totally|definitely|absolutely|exactly|true|right|sure|ok|okay|yeah|yes|no worries|"
    r"of course|you too|you bet|keep (?:it|that) up|keep going|you(?:'re| are) (?:doing )?(?:great|amazing|"
    r"awesome|the best|so \w+)|that(?:'s| is| was| sounds| looks) (?:so |really |very |super |just )?"
    r"(?:great|awesome|amazing|cool|nice|wonderful|fantastic|good|exciting|sweet|incredible|impressive|lovely|"
    r"beautiful|fun|interesting|inspiring|awesome|tough|hard|rough|sad|funny|wild|crazy|neat))\b",
    re.IGNORECASE,
)
#: Openers that make the whole sentence a social move, whatever follows ("Thanks for the tip about …").
_SOCIAL = re.compile(
    r"^(?:thanks|thank you|thx|many thanks|congrats|congratulations|happy birthday|welcome back|good luck|"
    r"hi|hey|hello|bye|goodbye|see you|take care)\b",
    re.IGNORECASE,
)
_SUGGESTION = re.compile(r"^(?:let's|let us|lets|how about|why don't|we should|maybe we)\b", re.IGNORECASE)
_ADDRESS = re.compile(r"\b(?:you|your|you're|yours)\b", re.IGNORECASE)
MIN_CONTENT_WORDS = 3


def sentences(text: str) -> list[str]:
    """The sentences of `text`; an end mark inside brackets ("(¿el 5/02? Carmen no está)") ends none."""
    out: list[str] = []
    for part in (p.strip() for p in _SENTENCE_END.split(text.strip())):
        if not part:
            continue
        if out and _open_brackets(out[-1]):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


def _open_brackets(text: str) -> bool:
    return text.count("(") > text.count(")") or text.count("[") > text.count("]")


def is_filler(sentence: str, dialogue: bool = False) -> bool:
    """A sentence that says nothing a reader would keep: a question, a greeting, thanks, praise.
    In a dialogue turn, a suggestion ("Let's …") and what is said to the other person ("Your
    mentoring will push them", "You should try it") are the conversation, not a fact."""
    stripped = sentence.strip().rstrip("\"')]").rstrip()
    if stripped.endswith("?"):
        return True
    bare = _INTERJECTION.sub("", stripped)
    if not bare or not WORD_RE.search(bare):
        return True
    if _SOCIAL.match(bare):
        return True
    if dialogue and (_SUGGESTION.match(bare) or _ADDRESS.search(bare)):
        return True
    filler = _FILLER.match(bare)
    if filler and content_words(bare[filler.end() :]) < MIN_CONTENT_WORDS:
        return True
    # A short exclamation, or one spoken to the other person ("You did it!"), is a reaction.
    return stripped.endswith("!") and (len(bare.split()) <= 5 or _ADDRESS.search(bare) is not None)


_TOKEN = re.compile(r"\w[\w:./'’-]*")
_ANNOTATION = re.compile(r"\[[^\]]*\]")


def content_words(text: str) -> int:
    """Words that carry content, values included ("9:45" and "2026-03-09" count once each)."""
    bare = _ANNOTATION.sub(" ", text)  # "[image: a photo of …]" describes an attachment, not a fact
    stop = stop_words_for(bare)
    return sum(1 for token in _TOKEN.findall(bare) if token.lower().rstrip(".:/'’-") not in stop)


def without_chatter(
    text: str, min_content_words: int = MIN_CONTENT_WORDS, *, dialogue: bool = False
) -> tuple[str, bool]:
    """(the sentences worth keeping, interjections trimmed; whether anything was dropped).
    An empty text, or one with fewer than `min_content_words` content words, means the whole was
    chatter. Outside a dialogue only the filler before the first and after the last kept sentence
    goes: a sentence dropped from the middle of a note's line would change what it says."""
    kept: list[str] = []
    dropped = False
    parts = sentences(text)
    filler = [is_filler(sentence, dialogue) for sentence in parts]
    if not dialogue and any(not f for f in filler):
        first = filler.index(False)
        last = len(filler) - 1 - filler[::-1].index(False)
        filler = [f and not first < i < last for i, f in enumerate(filler)]
    for sentence, is_chat in zip(parts, filler, strict=True):
        if is_chat:
            dropped = True
            continue
        bare = _INTERJECTION.sub("", sentence)
        if bare != sentence:
            dropped = True
            sentence = bare[:1].upper() + bare[1:]
        kept.append(sentence)
    out = " ".join(kept)
    if content_words(out) < min_content_words:
        return "", True
    return out, dropped
