"""Severities and the inline exemption every rule honours (pure).

A line containing `memgit: allow` (every rule) or `memgit: allow CODE[,CODE]` (those rules) is
exempt; in Markdown write it as an HTML comment, `<!-- memgit: allow S102 -->`, so it does not
show when rendered.
"""

from __future__ import annotations

import re

ERROR = "error"
WARNING = "warning"
OFF = "off"
SEVERITIES = (ERROR, WARNING, OFF)

_ALLOW = re.compile(r"memgit:\s*allow\b((?:[\s,]+[A-Za-z]\d{3}\b)*)")


def is_allowed(line: str, code: str) -> bool:
    """Inline exemption: `memgit: allow` exempts the line from every rule, `memgit: allow S102` from one."""
    for match in _ALLOW.finditer(line):
        codes = {c.upper() for c in re.findall(r"[A-Za-z]\d{3}", match.group(1))}
        if not codes or code in codes:
            return True
    return False
