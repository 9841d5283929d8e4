"""Secrets are matched as a reader sees them (`memgit.lint.normalize.reader_view`).

A property test: every single-line secret of the corpus, with any of its characters escaped the
ways Markdown, HTML and URLs allow (backslash before punctuation, named, decimal and hex character
references, zero-width and bidi characters inserted, percent-encoding, emphasis or inline-code
markers splitting it, fullwidth letters), is flagged, and what redaction leaves contains neither
the line nor, once decoded, the secret. And the look-alikes stay look-alikes when escaped.
"""

from __future__ import annotations

import html
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.secrets_corpus import corpus
from memgit.lint.normalize import reader_view
from memgit.lint.redact import redact_text
from memgit.lint.rules import scan_secrets

SECRETS = [s.text for s in corpus(0, variants=2) if s.secret and "\n" not in s.text]
LOOK_ALIKES = [s.text for s in corpus(0, variants=2) if not s.secret and "\n" not in s.text]
PUNCTUATION = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u2066", "\u2069"]


def escape_char(char: str, how: str, extra: str) -> str:
    if how == "backslash":
        return "\\" + char if char in PUNCTUATION else char
    if how == "named":
        return html.escape(char) if char in "&<>\"'" else char
    if how == "decimal":
        return f"&#{ord(char)};"
    if how == "hex":
        return f"&#x{ord(char):X};"
    if how == "invisible":
        return char + extra
    if how == "percent":
        return "".join(f"%{byte:02X}" for byte in char.encode())
    if how == "emphasis":
        return char + "**" if char.isalnum() else char
    if how == "code":
        return char + "``" if char.isalnum() else char
    if how == "fullwidth":
        return chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char
    return char


HOWS = ["plain", "backslash", "named", "decimal", "hex", "invisible", "percent", "emphasis", "code", "fullwidth"]


@st.composite
def escaped(draw: st.DrawFn, lines: list[str]) -> tuple[str, str]:
    line = draw(st.sampled_from(lines))
    hows = draw(st.lists(st.sampled_from(HOWS), min_size=len(line), max_size=len(line)))
    extras = draw(st.lists(st.sampled_from(INVISIBLE), min_size=len(line), max_size=len(line)))
    # Keep the list marker: "- " escaped stays a list item to a reader, and is no secret.
    out = line[:2] + "".join(escape_char(c, h, e) for c, h, e in zip(line[2:], hows[2:], extras[2:], strict=True))
    return line, out


def values(line: str) -> list[str]:
    """The generated parts of a secret line's secret: tokens of 4+ characters holding a digit,
    inside the value the rules bound on the plain line, or that value itself when it is printed in
    groups shorter than that (a URL's port or a label's number beside
    the secret stay: redaction replaces the value, not the line). A rule that bounds no value
    (a key block) takes the line whole, so every token counts."""
    from memgit.lint.secrets import find_secrets

    tokens = [t for t in re.split(r"[\s'\"`:/@=;,()]+", line) if len(t) >= 4 and re.search(r"\d", t)]
    hits = find_secrets([line])
    if any(hit.value is None for hit in hits):
        return tokens
    if any(hit.code == "S102" for hit in hits):
        # a URL's password bounded by its own rule: the scanner's whole connection string beside
        # it names the address too (a host is no secret, and escaped it is no longer its match)
        hits = [hit for hit in hits if hit.code != "S114"]
    parts = [t for t in tokens if any(hit.value and t in hit.value for hit in hits)]
    if not parts:  # a code printed in short groups ("469 250"): the bounded value is the part
        parts = [hit.value for hit in hits if hit.value and (re.search(r"\d", hit.value) or hit.code == "S102")]
    assert parts, (line, hits)  # the rule's value holds the generated part, not some other token
    return parts


@settings(max_examples=300, deadline=None)
@given(escaped(SECRETS))
def test_every_escaping_of_a_corpus_secret_is_flagged_and_redacted(case: tuple[str, str]) -> None:
    line, shown = case
    assert scan_secrets(shown), (line, shown)
    out, found = redact_text(shown + "\n")
    assert found and "[redacted: S1" in out
    decoded = reader_view(out)
    assert line not in decoded
    for value in values(line):
        assert value not in out and value not in decoded, value


@settings(max_examples=200, deadline=None)
@given(escaped(LOOK_ALIKES))
def test_an_escaped_look_alike_is_still_no_secret(case: tuple[str, str]) -> None:
    line, shown = case
    assert scan_secrets(line) == []
    assert scan_secrets(shown) == [], (line, shown)


def test_the_view_decodes_each_escape_a_reader_never_sees() -> None:
    assert reader_view("sk\\_live\\_ab") == "sk_live_ab"
    assert reader_view("gh&#112;_ab&amp;c") == "ghp_ab&c"
    assert reader_view("a\u200bb\u202ec\u00add") == "abcd"
    assert reader_view("ghp%5Fab") == "ghp_ab"
    assert reader_view("ghp_ab**cd**ef`gh`") == "ghp_abcdefgh"
    assert reader_view("ｇｈｐ＿ab") == "ghp_ab"
    assert reader_view("&amp;#112;") == "p"  # twice escaped: decoded twice
    assert reader_view("plain words, nothing to decode") == "plain words, nothing to decode"
