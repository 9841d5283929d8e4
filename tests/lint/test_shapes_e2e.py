"""Secrets known by shape (S106-S113), end to end through the CLI on a real repository.

Each kind, in three wordings and also escaped the ways a reader's view undoes (backslashes, HTML
entities, numeric references, zero-width characters, percent-encoding, split emphasis), is
committed without hooks into a daily log and recalled on three days by distinct queries. Then:
`memgit lint` names each line with the kind's own rule; `memgit dream` proposes none of them and
its `--explain`, its report (the pull request's body) and its branch hold none; neither scope of
the site publishes one; `memgit context` and the MCP resources show the placeholder instead.
"""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

from markupsafe import escape

from bench.secrets_corpus_shapes import RULE_OF, SECRETS
from memgit.lint import shapes
from memgit.lint.rules import scan_secrets
from tests.dream.test_dream_proposals import BM25, NOW, branch_text, search_days
from tests.helpers import commit_all, git, memgit, memgit_json, write
from tests.mcp.test_mcp_wire import RawServer

DAY = "2026-03-02"
LOG = f"memory/{DAY}.md"


def three_wordings(kind: str) -> list[str]:
    """Three different wordings of `kind` (the templates pick one at random)."""
    found: dict[str, str] = {}
    for seed in range(200):
        text = SECRETS[kind](random.Random(seed))
        found.setdefault(re.sub(r"[\d\W]+", " ", text)[:24], text)
        if len(found) == 3:
            break
    assert len(found) == 3, kind
    return list(found.values())


def escapings(line: str, value: str) -> list[str]:
    """`line` with its secret `value` escaped each way a reader's view decodes."""
    if value not in line:  # written in groups ("DE89 3704 …"): escape its longest group
        value = max((t for t in line.split() if t.replace("-", "") in value.replace(" ", "")), key=len)
    cut = max(1, len(value) // 2)
    head, tail = value[:cut], value[cut:]
    out = [
        line.replace(value, "".join("\\" + c if c in "_-.#!" else c for c in value)),
        line.replace(value, html.escape(head) + "".join(f"&#{ord(c)};" for c in tail[:2]) + html.escape(tail[2:])),
        line.replace(value, head + "".join(f"&#x{ord(c):x};" for c in tail[:1]) + tail[1:]),
        line.replace(value, head + "\u200b" + tail),
        line.replace(value, head + "".join(f"%{ord(c):02X}" for c in tail[:2]) + tail[2:]),
        line.replace(value, head + "**" + tail[:2] + "**" + tail[2:]),
    ]
    assert line not in out[1:], line
    return out


def detected_value(line: str) -> str:
    for _code, _label, detect in shapes.DETECTORS:
        value = detect(line)
        if value is not None:
            return value
    raise AssertionError(line)


def the_notes() -> tuple[list[tuple[str, str, bool]], list[str]]:
    """(kind, line) for three wordings of every kind and escapings of one wording; and the
    values that must never be shown (as a reader sees them, and the lines themselves)."""
    lines: list[tuple[str, str, bool]] = []
    values: list[str] = []
    for kind in RULE_OF:
        for number, text in enumerate(three_wordings(kind)):
            line = text if text.startswith(("- ", "> ")) else "- " + text.strip().strip("`")
            lines.append((kind, line, False))
            value = detected_value(line)
            values += [value, line[2:]] if len(value) >= 6 else [line[2:]]
            if number == 0 and len(value) >= 8:
                lines += [(kind, escaped, True) for escaped in escapings(line, value)]
    return lines, values


def shown_values(text: str, values: list[str]) -> list[str]:
    forms = {form for value in values for form in (value, str(escape(value)), json.dumps(value)[1:-1])}
    return [form for form in forms if form in text]


def test_every_kind_is_flagged_with_its_rule_and_leaves_through_no_output(workspace: Path, tmp_path: Path) -> None:
    notes, values = the_notes()
    fact = "- The billing export runs nightly at 02:00 UTC into the finance bucket."
    codes = ["- 8f2k1-q93ma", "- 0z7lp-4ht2c", "- 55vd0-k1w9x"]  # one a line under their heading
    values += [code[2:] for code in codes]
    write(
        workspace / LOG,
        f"# {DAY}\n\n## notes\n\n"
        + "\n".join(line for _k, line, _e in notes)
        + "\n"
        + fact
        + "\n\n## NAS two-factor backup codes\n\n"
        + "\n".join(codes)
        + "\n",
    )
    commit_all(workspace, "a log committed without hooks")

    findings = json.loads(memgit(workspace, "lint", "--json", LOG, env=BM25).stdout)["findings"]
    by_line = {f["line"]: f["code"] for f in findings}
    for number, (kind, line, escaped) in enumerate(notes, start=5):
        # Its own rule as written; escaped, the rule that flags what a reader sees.
        assert by_line.get(number) == (scan_secrets(line)[0][0] if escaped else RULE_OF[kind]), (kind, line)
        assert by_line[number] == RULE_OF[kind] or escaped, (kind, line)
    assert 5 + len(notes) not in by_line  # the plain fact is no secret
    first_code = 5 + len(notes) + 4
    assert [by_line.get(n) for n in range(first_code, first_code + 3)] == ["S108"] * 3

    queries = [" ".join(re.findall(r"[A-Za-z]{4,}", line)[:3]) for _k, line, _e in notes]
    facts = ["billing export nightly finance bucket", "when does the billing export run", "finance bucket export"]
    search_days(workspace, [[q + ask for q in queries] + [facts[n]] for n, ask in enumerate((" a", " b", " c"))])
    out = memgit_json(workspace, "dream", "--now", NOW, "--explain", env=BM25)
    assert [a["text"] for a in out["actions"]] == [fact[2:]]
    # They were recalled and considered: each rejected as junk under its own rule (a bare key has
    # no words to search for, so it is never recalled).
    assert {f"junk: S1{n}" for n in ("06", "07", "08", "09", "10", "11", "13")} <= set(out["gates"]), out["gates"]
    explained = memgit(workspace, "dream", "--now", NOW, "--explain", "--dry-run", env=BM25).stdout
    report = git(workspace, "show", f"{out['branch']}:memory/dreams/2026-03-11.md")
    for name, text in (
        ("--explain --json", json.dumps(out, ensure_ascii=False)),
        ("--explain", explained),
        ("report", report),
        ("branch", branch_text(workspace, out["branch"])),
    ):
        assert shown_values(text, values) == [], name

    for scope in ("private", "public"):
        site = tmp_path / scope
        proc = memgit(workspace, "site", "build", "-o", str(site), "--scope", scope, env=BM25)
        assert proc.returncode == 0, proc.stderr
        for path in sorted(p for p in site.rglob("*") if p.is_file()):
            assert shown_values(path.read_bytes().decode("utf-8", "replace"), values) == [], (scope, path)

    context = memgit(workspace, "context", "--date", DAY, env=BM25)
    assert context.returncode == 0 and "[redacted: S10" in context.stdout
    assert shown_values(context.stdout, values) == []

    server = RawServer(workspace)
    try:
        server.initialize()
        result = server.request("resources/read", {"uri": f"memgit://file/{LOG}"})["result"]
    finally:
        server.stop()
    text = "\n".join(c["text"] for c in result["contents"])
    assert "[redacted: S1" in text and "billing export" in text
    assert shown_values(text, values) == []


def test_every_escaping_of_every_kind_is_flagged() -> None:
    for kind in RULE_OF:
        for text in three_wordings(kind):
            line = text if text.startswith(("- ", "> ")) else "- " + text.strip().strip("`")
            value = detected_value(line)
            if len(value) < 8:
                continue
            for escaped in escapings(line, value):
                assert scan_secrets(escaped), (kind, escaped)
