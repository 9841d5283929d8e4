"""The text a reader sees, for the secret rules to match (pure).

The site renders Markdown, a browser decodes HTML entities, an editor hides zero-width and bidi
control characters, and a link is followed with its percent-escapes decoded. A secret written
`sk\\_live\\_…`, `gh&#112;_…`, `ghp_abc\u200bdef…`, `ghp%5F…` or split as `ghp_abc**def**…` is
still the secret to whoever reads it, so the rules look at `reader_view(line)` as well as at the
line itself, and a line whose view is flagged is redacted whole (its decoded span goes with it).

Decoding runs twice at most: a double-escaped value (`&amp;#112;`) shows escaped once to a reader,
but matching one level deeper only ever redacts more, never less.
"""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import unquote

# Characters a reader does not see: zero-width spaces and joiners, bidi marks, embeddings,
# overrides and isolates, the soft hyphen, word joiner and invisible operators, variation
# selectors, the byte-order mark, and the Mongolian vowel separator.
_INVISIBLE_CHARS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff"
)
_INVISIBLE = re.compile(f"[{_INVISIBLE_CHARS}]")
# Fullwidth forms of ASCII (`ｇｈｐ＿…`) read as ASCII.
_FULLWIDTH = re.compile("[\uff01-\uff5e]")
# CommonMark: a backslash before ASCII punctuation shows the punctuation alone.
_BACKSLASH = re.compile(r"\\([!-/:-@\[-`{-~])")
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
# Inline markup that splits a value without showing: code-span backticks, emphasis stars, strong
# or strike-through runs, and the inline HTML tags a note may use for the same.
_MARKUP = re.compile(
    r"`+|\*+|__+|~~+|</?(?:b|i|em|strong|code|span|kbd|mark|u|s|del|ins|sub|sup|samp|var|tt)(?:\s[^<>]*)?>",
    re.IGNORECASE,
)
# What `reader_view` may change: a line without any of these reads as written.
TRIGGERS = re.compile(f"[\\\\&%`*~<\uff01-\uff5e{_INVISIBLE_CHARS}]|__")


def reader_view(line: str) -> str:
    """`line` as a reader sees it once rendered and decoded; `line` itself when nothing changes."""
    if TRIGGERS.search(line) is None:
        return line
    view = line
    for _round in range(2):
        before = view
        view = _decode_once(view)
        if view == before:
            break
    return view


def _decode_once(text: str) -> str:
    text = _INVISIBLE.sub("", text)
    if "&" in text:
        text = _INVISIBLE.sub("", html.unescape(text))
    if "\\" in text:
        text = _BACKSLASH.sub(r"\1", text)
    text = _MARKUP.sub("", text)
    if "%" in text:
        text = _PERCENT.sub(lambda match: unquote(match.group(0), errors="replace"), text)
        text = _INVISIBLE.sub("", text)
    if not text.isascii():
        text = _FULLWIDTH.sub(lambda match: chr(ord(match.group(0)) - 0xFEE0), text)
    return text


_ESCAPE = re.compile(r"\\[!-/:-@\[-`{-~]|\\$|&#x?[0-9A-Fa-f]+;?|&[A-Za-z]+;|%[0-9A-Fa-f]{2}|" + f"[{_INVISIBLE_CHARS}]")


def escaped(value: str) -> bool:
    """Whether a value as written holds an escape a reader never sees (`os\\.environ`,
    `os.environ&#91;`, `%5B`): the rule judges the line's reader's view for it instead, where the
    value shows as it reads."""
    return _ESCAPE.search(value) is not None


def without_accents(text: str) -> str:
    """`text` with the accents of Latin letters dropped, other scripts kept as they are: a note
    typed on a keyboard without them ("codigo", "ho chieu") names what the accented word names."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c) or ord(c) > 0x36F)
    )
