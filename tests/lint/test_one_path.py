"""One redaction path: every writer of text that leaves the repository hides secrets through
`memgit.lint.redact`, which asks the lint's one rule set (`scan_secrets`: token shapes, shape and
checksum rules, what a reader sees). Read from the source, so a new writer that quotes memory
without it, or a second secret matcher somewhere else, fails here; `test_shapes_e2e.py` and
`tests/site/test_site_redaction.py` check the outputs themselves through the CLI.
"""

from __future__ import annotations

import ast
from pathlib import Path

from memgit.lint import redact
from memgit.lint.redact import redact_line, redact_text

ROOT = Path(__file__).resolve().parents[2] / "memgit"

#: Every module that writes memory text out of the repository, and what it writes.
WRITERS = {
    "site/inputs.py": "the site: pages, source pages, snapshots, search shards, concept places, commit subjects",
    "dream/safety.py": "dreaming: candidates, the report (the pull request's body), --explain, commit messages",
    "recall/context.py": "memgit context (and the agent hooks that print it)",
    "mcp/resources.py": "MCP resources (files and the session context)",
    "memory/capture.py": "transcript capture",
}
REDACTORS = {"redact_text", "redact_line", "redact_lines", "secret_code"}
# The rule set's parts: nothing outside memgit/lint may match secrets on its own.
RULE_PARTS = {
    "scan_secrets",
    "_scan_secrets",
    "scan_secret_values",
    "find_secrets",
    "shapes",
    "normalize",
    "detectors",
    "reader_view",
    "providers",
    "seeds",
    "identifiers",
    "labelled",
    "multiline",
    "candidates",
}


def imported_names(path: Path) -> dict[str, set[str]]:
    """module -> the names imported from it, anywhere in the file (also inside functions)."""
    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.setdefault(node.module, set()).update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                found.setdefault(alias.name, set())
    return found


def used_names(path: Path) -> set[str]:
    return {node.id for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.Name)}


def test_the_writers_are_exactly_the_modules_that_redact() -> None:
    redacting = set()
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("lint/"):
            continue
        names = imported_names(path).get("memgit.lint.redact", set())
        if names & REDACTORS:
            redacting.add(rel)
            assert names & REDACTORS & used_names(path), f"{rel} imports a redactor but never calls it"
    assert redacting == set(WRITERS)


def test_no_second_rule_set_outside_the_lint() -> None:
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("lint/"):
            continue
        for module, names in imported_names(path).items():
            if module in (
                "memgit.lint.shapes",
                "memgit.lint.normalize",
                "memgit.lint.detectors",
                "memgit.lint.providers",
                "memgit.lint.seeds",
                "memgit.lint.identifiers",
                "memgit.lint.labelled",
                "memgit.lint.multiline",
                "memgit.lint.secrets",
                "memgit.lint.candidates",
            ):
                raise AssertionError(f"{rel} imports {module}: match secrets through memgit.lint.redact")
            if module.startswith("memgit.lint"):
                assert not names & RULE_PARTS, f"{rel} imports {names & RULE_PARTS} from {module}"
            assert "detect_secrets" not in module and "betterleaks" not in module and "mnemonic" not in module, rel


def test_every_redactor_goes_through_the_one_rule_set_and_the_reader_view() -> None:
    # Found only on what a reader sees (an HTML entity inside an IBAN) and only by a shape rule.
    line = "- rent to DE&#56;9 3704 0044 0532 0130 00 monthly"
    assert redact_line(line) == ("- [redacted: S106]", "S106")
    assert redact_text("a\n" + line + "\nb\n")[0] == "a\n- [redacted: S106]\nb\n"
    assert redact.redact_lines(["a", line])[0] == ["a", "- [redacted: S106]"]
    assert redact.secret_code(line) == "S106"
    assert "find_secrets" in used_names(Path(redact.__file__))
    assert "scan_secret_values" in used_names(Path(redact.__file__).with_name("secrets.py"))


def test_transcript_capture_redacts_every_shape_kind_even_escaped() -> None:
    """Capture stores each turn as one JSON line: a shape secret in a turn, plain or escaped as
    a reader's view decodes it, is stored as its placeholder."""
    from memgit.core.transcript_formats import Turn
    from memgit.lint.rules import LintSettings
    from memgit.memory.capture import render_turn

    for text in (
        "ok, the rent goes to DE89 3704 0044 0532 0130 00 from now on",
        "the alarm is disarmed with 5590",
        "card 4539 1488 0343 6467, valid thru 09/28",
        "my passport number is C01X00T47",
        'Tom: "wifi is BlueHouse2291"',
        "AWS secret key wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQWERTYkey9",
        "the IBAN is DE&#56;9 3704 0044 0532 0130 00",
    ):
        line, codes = render_turn(Turn("user", text, "k1"), LintSettings())
        assert codes and "[redacted: S1" in line, text
        for token in ("0532", "5590", "6467", "C01X00T47", "BlueHouse2291", "bPxRfiCYzQWERTYkey9"):
            assert token not in line
