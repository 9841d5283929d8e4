"""Labels in file and folder names (pure): a name is published wherever its file is, and people
write secrets into names ("tresor-code-8642", "airbnb-wifi-Lagune93kx").

A name is read as a line of words (`-`, `_`, `.` and `+` read as spaces) by the label patterns of
`labelled.py`. Most names hold no label at all, and building every language's patterns costs a
command ~0.1 s: a name without a label's first letters (`has_label_stem`) is not read by them.
"""

from __future__ import annotations

import re
from functools import cache

from memgit.lint.labelled import (
    any_label,
    kinds_of_label,
    label_kind,
    label_words,
    password_shaped,
    strong_password_shape,
    value_kind_ok,
)

_SEPARATORS = re.compile(r"[-_.+]+")
_SPACING = re.compile(r"[\s-]+")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def value_in_name(name: str) -> tuple[str, str] | None:
    """(kind, value) of a secret written into a file or folder name after its label
    ("tresor-code-8642", "airbnb-wifi-Lagune93kx", "nas_admin_pw_Xk29mq2"): a name has no colon,
    so any word of the name after a label that has the label's value shape counts; the value as
    written in the name."""
    spaced = _SEPARATORS.sub(" ", name)
    if not has_label_stem(spaced):
        return None  # no label's first letters: no label (its patterns, every language's, stay unbuilt)
    for label in any_label().finditer(spaced):
        kinds = kinds_of_label(label.group("label"))
        for token in spaced[label.end() :].split()[:3]:
            if token not in name or label_kind(token) is not None or _YEAR.match(token):
                continue
            for kind in kinds:
                shaped = kind not in ("password", "key") or password_shaped(token)
                if shaped and value_kind_ok(kind, token, strong=True, alone=True):
                    if kind in ("password", "key") and not strong_password_shape(token):
                        continue
                    return kind, token
    return None


@cache
def _label_stems() -> tuple[str, ...]:
    """The first three letters of every label word, spaces and hyphens left out and case-folded: a
    name holding none of them holds no label, however it spaces one ("pin-code", "pincode")."""
    return tuple(sorted({_SPACING.sub("", word.casefold())[:3] for word in label_words()} - {""}))


def has_label_stem(text: str) -> bool:
    """Whether `text` holds the first letters of a label of any language, however it spaces or
    capitalises it: without them no label pattern can match it."""
    squeezed = _SPACING.sub("", _SEPARATORS.sub(" ", text).replace("\u0130", "i").casefold())
    return any(stem in squeezed for stem in _label_stems())
