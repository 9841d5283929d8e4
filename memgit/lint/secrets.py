"""Every secret rule over a whole text, each hit with the value it found (pure).

The lint (`rules.lint_file`) and every output (`redact.py`) ask this module, so a secret the lint
names is exactly what redaction hides. Three kinds of rule run here:

* the per-line rules (`rules.scan_secret_values`: token shapes, assignments, spelled-out
  passwords, detect-secrets' detectors, the shape and checksum rules, labels in many languages),
  on the lines a few whole-text searches say they could flag (`candidates.py`);
* the rules that read more than a line (`multiline.py`): a label on one line and its value on the
  next, a table column under a secret-sounding header, a code under its heading, codes listed
  under a recovery heading; and wallet seed phrases (`seeds.py`), numbered one a line or not;
* the field's token scanner, betterleaks (`providers.py`), once over the whole text.

Each hit names the value as written on its line when it can (so an output replaces the value and
keeps the sentence), or None when the rule cannot bound it (a private key block).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from memgit.lint.placeholders import is_documented_example
from memgit.lint.rules import OFF, is_allowed, scan_secret_values

_KEY_END = "-----END "


@dataclass(frozen=True)
class Hit:
    """One secret: its 0-based line, rule, message, and the value as written on that line (None:
    not bounded, the line goes whole). `reported` is False for the body of a key block, which the
    lint reports once at its BEGIN line but redaction hides whole."""

    index: int
    code: str
    message: str
    value: str | None
    reported: bool = True


def find_secrets(
    lines: list[str],
    *,
    entropy_threshold: float = 3.5,
    severities: Mapping[str, str] | None = None,
    only: Collection[int] | None = None,
    candidates: list[int] | None = None,
) -> list[Hit]:
    """Every secret on `lines` (split on \\n, without line ends), ordered by line.

    `only` (0-based indexes) limits the lines a hit may be on (the pre-commit hook judges the lines
    a commit changes; the rules that read around a line still read the lines beside it);
    `candidates`, when the caller found them already, the lines the per-line rules scan.
    """
    from memgit.lint import candidates as candidate_search
    from memgit.lint import multiline, providers, seeds

    text = "\n".join(lines)
    if candidates is None:
        candidates = candidate_search.text_candidates(text)
    named = candidate_search.named_lines(text)
    wanted = None if only is None else set(only)
    hits: list[Hit] = []
    for index in candidates:
        if wanted is not None and index not in wanted:
            continue
        for code, message, value in scan_secret_values(lines[index], entropy_threshold):
            hits.append(Hit(index, code, message, value))
    hits = [hit for hit in hits if not (hit.code == "S112" and _in_blob(lines, hit.index))]
    hits.extend(_key_bodies(lines, hits))
    hits.extend(multiline.find(lines, wanted, named))
    hits.extend(seeds.find(lines, wanted))
    hits.extend(providers.find(lines, wanted))
    kept = [
        hit
        for hit in hits
        if (severities is None or severities.get(hit.code) != OFF)
        and not is_allowed(lines[hit.index], hit.code)
        and not (hit.value and is_documented_example(hit.value))
    ]
    kept.sort(key=lambda hit: (hit.index, not hit.reported))
    return kept


_BASE64_LINE = re.compile(r"^[ \t]*[A-Za-z0-9+/]{40,}={0,2}[ \t]*$")
_ARMOR = re.compile(r"-----(BEGIN|END) ([A-Z0-9 ]+)-----")


def _in_blob(lines: list[str], index: int) -> bool:
    """Whether a bare key line (S112) is one line of a wrapped base64 blob: a certificate, a signed
    message or an image between armor lines that do not name a private key (that is S101's), or
    one of several equal-length base64 lines."""
    for above in range(index - 1, max(-1, index - 200), -1):
        armor = _ARMOR.search(lines[above])
        if armor is not None:
            return armor.group(1) == "BEGIN" and "PRIVATE" not in armor.group(2)
        if not _BASE64_LINE.match(lines[above]):
            break
    width = len(lines[index].strip())
    near = [lines[i] for i in (index - 1, index + 1) if 0 <= i < len(lines)]
    if index > 0 and _BASE64_LINE.match(lines[index - 1]) and len(lines[index - 1].strip()) >= max(60, width):
        return True  # the blob's last, shorter line
    return any(_BASE64_LINE.match(line) and len(line.strip()) == width for line in near)


def _key_bodies(lines: list[str], hits: list[Hit]) -> list[Hit]:
    """A private key's body lines go with their BEGIN line up to END (alone, a base64 line flags
    nothing)."""
    out: list[Hit] = []
    for hit in hits:
        if hit.code != "S101" or _KEY_END in lines[hit.index]:
            continue
        index = hit.index + 1
        while index < len(lines):
            out.append(Hit(index, "S101", hit.message, None, reported=False))
            if _KEY_END in lines[index]:
                break
            index += 1
    return out
