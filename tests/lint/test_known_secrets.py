"""Issue 45, third round: what a rule found once is a secret wherever it stands in the workspace.

A value found by its context (a label, a table header, a heading) is written again elsewhere
without that context: in another daily log, in an assistant's turn, in a list of things done. The
invariant holds whatever the words there: every output redacts it and `memgit lint` names it. A
conversation's earlier turns are context for the next one's redaction too. The values are made up.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from memgit import __version__
from memgit.githooks.run import start_background_work
from memgit.lint.known import warmed
from memgit.lint.redact import conversation_secrets, redact_text
from memgit.lint.secrets import find_secrets, output_value, workspace_value
from memgit.workspace import Workspace
from tests.helpers import commit_all, git, memgit, wait_until, write
from tests.site.helpers import BM25

VALUE = "Fj0rd-Blue-77"


@pytest.mark.parametrize(
    ("value", "distinctive"),
    [
        ("Fj0rd-Blue-77", True),  # letters and digits
        ("hunter!hunter", True),  # letters and a symbol
        ("402118734", True),  # nine digits: an account or a national number
        ("DE89 3704 0044 0532 0130 00", True),  # a grouped number
        ("abandon ability able about above absent", True),  # a phrase of many words
        ("2-9-0-4", True),  # a dictated code: single digits joined by dashes
        ("4711", False),  # a PIN: elsewhere it is a year, a room, a price
        ("sunflower", False),  # a plain word: elsewhere it is a flower
        ("12-34-56", False),  # six digits: elsewhere a date or a score
    ],
)
def test_which_found_values_are_hidden_across_the_workspace(value: str, distinctive: bool) -> None:
    assert workspace_value(value) is distinctive


def test_a_known_value_is_a_secret_wherever_it_stands() -> None:
    line = f"- Reset the cabin router; {VALUE} still works."
    assert find_secrets([line]) == []  # no label, no shape rule: nothing here says it is a secret
    (hit,) = find_secrets([line], known={VALUE: "S104"})
    assert (hit.index, hit.code, hit.value) == (0, "S104", VALUE)
    assert "another file" in hit.message
    text, found = redact_text(f"# Log\n{line}\n", known={VALUE: "S104"})
    assert VALUE not in text and "[redacted: S104] still works." in text
    assert [(r.line, r.code) for r in found] == [(2, "S104")]
    # a whole token only: a longer word that contains it is something else
    assert find_secrets([f"see {VALUE}X and x{VALUE}"], known={VALUE: "S104"}) == []
    # the person's word that a line is no secret still holds
    assert find_secrets([f"{line} <!-- memgit: allow -->"], known={VALUE: "S104"}) == []


def test_a_conversations_earlier_turns_are_context_for_the_next() -> None:
    assert redact_text(VALUE)[0] == VALUE  # a value alone says nothing
    found = conversation_secrets([("user", "wifi password:"), ("user", VALUE)])
    assert found.by_turn == [{}, {VALUE: "S117"}] and found.everywhere == {VALUE: "S117"}
    after, redacted = redact_text(VALUE, known=found.for_turn(1))
    assert VALUE not in after and redacted and redacted[0].line == 1
    assert conversation_secrets([("user", "what a lovely evening"), ("user", VALUE)]).everywhere == {}
    assert conversation_secrets([("user", VALUE)]).by_turn == [{}]  # no turn before: nothing to read


def test_a_value_found_in_one_turn_is_known_in_every_turn_a_short_one_only_in_its_own() -> None:
    said = [
        ("assistant", "What's the new wifi password?"),
        ("user", "kiwi-77"),
        ("user", "Cabin Wi-Fi password: " + VALUE),
        ("assistant", "Noted."),
    ]
    found = conversation_secrets(said)
    assert found.by_turn[1] == {"kiwi-77": "S117"}  # the answer to the question, in its turn
    assert "kiwi-77" not in found.for_turn(3)  # too short to hide wherever it stands
    assert found.for_turn(3)[VALUE] and found.for_turn(0)[VALUE]  # a distinctive value, everywhere


def test_every_output_hides_a_value_found_in_another_file(workspace: Path, tmp_path: Path) -> None:
    write(workspace / "MEMORY.md", f"# Memory\n\n## Cabin\n\n- Cabin Wi-Fi password: {VALUE}\n")
    day = (workspace / "memory").iterdir().__next__().name
    write(workspace / "memory" / day, f"# Log\n\n- Reset the cabin router; {VALUE} still works.\n")
    commit_all(workspace, "memory")  # no hook: the secrets are in, as after --no-verify

    proc = memgit(workspace, "lint", "--all", "--json", env=BM25)
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    where = {(f["path"], f["line"]) for f in findings if f["code"].startswith("S")}
    assert ("MEMORY.md", 5) in where
    assert (f"memory/{day}", 3) in where, findings
    cache = workspace / ".git" / "memgit" / "secret-values.json"
    assert cache.is_file() and stat.S_IMODE(cache.stat().st_mode) == 0o600

    context = memgit(workspace, "context", "--date", day.removesuffix(".md"), "--json", env=BM25)
    assert context.returncode == 0, context.stderr
    assert "cabin router" in context.stdout and VALUE not in context.stdout

    out = tmp_path / "site"
    built = memgit(workspace, "site", "build", "--scope", "public", "-o", str(out), env=BM25)
    assert built.returncode == 0, built.stderr
    holding = [p for p in out.rglob("*") if p.is_file() and VALUE.encode() in p.read_bytes()]
    assert holding == []
    assert any(b"cabin router" in p.read_bytes() for p in out.rglob("*.html"))

    # the set follows the workspace: once the labelled line is gone, the other line is words again
    write(workspace / "MEMORY.md", "# Memory\n\n## Cabin\n\n- The cabin has Wi-Fi.\n")
    commit_all(workspace, "forget")
    proc = memgit(workspace, "lint", "--all", "--json", env=BM25)
    assert proc.returncode == 0, proc.stdout


@pytest.mark.parametrize(
    ("value", "hidden"),
    [
        ("7391", True),  # a door code
        ("5079#", True),
        ("618204", True),
        ("2026", False),  # a year
        ("1500", False),  # a round number
        ("1234", False),  # a sequence
        ("7777", False),  # one digit
        ("12345678901", False),  # too long for a code (and distinctive already)
        ("4B7219", True),  # capitals and digits: a keypad with letters
        ("36-12-48", True),  # a safe's combination
        ("AB12", False),  # two digits: a room, a row, a model
        ("HTTP2", False),
    ],
)
def test_which_short_codes_every_output_hides_across_files(value: str, hidden: bool) -> None:
    assert output_value(value) is hidden


@pytest.mark.parametrize("code", ["7391", "4B7219"])
def test_a_short_code_is_hidden_in_every_output_and_reported_wherever_it_is_repeated(
    workspace: Path, tmp_path: Path, code: str
) -> None:
    """A door code told once with its label, then repeated bare in another day's log ("punched
    7391, all quiet"): every output hides it there too; `memgit lint --all` names the labelled line
    and every line repeating it, with a code's words ("Ворота ж 7391") or without, but not a masked
    number showing the same digits ("**** 7391"); and an append holding it is not refused (the
    hook judges a commit by its own lines)."""
    write(workspace / "MEMORY.md", f"# Memory\n\n## Shop\n\n- Back door code: {code}\n")
    day = (workspace / "memory").iterdir().__next__().name
    write(
        workspace / "memory" / day,
        f"# Log\n\n- Came in early, punched {code}, all quiet. Ordered 1500 bags.\n"
        f"> Вибач!! Ворота ж {code}, а сигналізація інша\n"
        f"- paid with the card ending **** {code}\n",
    )
    commit_all(workspace, "memory")  # no hook: the secret is in, as after --no-verify

    proc = memgit(workspace, "lint", "--all", "--json", env=BM25)
    assert proc.returncode == 1, proc.stderr
    where = {(f["path"], f["line"]) for f in json.loads(proc.stdout)["findings"] if f["code"].startswith("S")}
    assert where == {("MEMORY.md", 5), (f"memory/{day}", 3), (f"memory/{day}", 4)}

    context = memgit(workspace, "context", "--date", day.removesuffix(".md"), env=BM25)
    assert context.returncode == 0, context.stderr
    assert "Came in early, punched [redacted: S" in context.stdout and code not in context.stdout
    assert "Ordered 1500 bags" in context.stdout

    out = tmp_path / "site"
    built = memgit(workspace, "site", "build", "--scope", "private", "-o", str(out), env=BM25)
    assert built.returncode == 0, built.stderr
    assert [p for p in out.rglob("*") if p.is_file() and code.encode() in p.read_bytes()] == []
    assert any(b"all quiet" in p.read_bytes() for p in out.rglob("*.html"))

    remembered = memgit(workspace, "remember", f"the {code} crates came in", env=BM25)
    assert remembered.returncode == 0, remembered.stderr


def test_capture_reads_the_turns_before_a_new_one(workspace: Path, tmp_path: Path) -> None:
    """A question for a code in one turn, the code alone in the next, and a label ending a turn
    with the value alone in the next: `memgit capture` stores neither value, though each turn
    alone says nothing."""
    records = [
        {"speaker": "AI", "text": "Anotado. E qual vai ser o novo código do portão?"},
        {"speaker": "Human", "text": "8-3-1-6"},
        {"speaker": "Human", "text": "e o wifi da casa da praia:"},
        {"speaker": "Human", "text": "Gaivota-Salgada-29"},
        {"speaker": "AI", "text": "Guardado."},
    ]
    transcript = write(tmp_path / "chat.jsonl", "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n")
    proc = memgit(workspace, "capture", "--transcript", str(transcript), "--format", "generic", "--json", env=BM25)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    stored = (workspace / result["path"]).read_text(encoding="utf-8")
    assert "8-3-1-6" not in stored and "Gaivota-Salgada-29" not in stored
    assert "novo código do portão" in stored and "[redacted: S117]" in stored


def test_lint_reads_a_committed_transcript_as_a_conversation(workspace: Path) -> None:
    """`memgit lint` on a session file: a code given as the answer to the question before it is
    named on its line, and the assistant's turn that repeats it too."""
    records = [
        {"role": "assistant", "content": "Anotado. E qual vai ser o novo código do portão?"},
        {"role": "user", "content": "8-3-1-6"},
        {"role": "assistant", "content": "Guardado: portão com 8-3-1-6 a partir de amanhã."},
        {"role": "user", "content": "How many guests on Friday?"},
    ]
    write(workspace / "sessions" / "chat.jsonl", "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n")
    commit_all(workspace, "session")
    proc = memgit(workspace, "lint", "--all", "--json", env=BM25)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = sorted(f["line"] for f in json.loads(proc.stdout)["findings"] if f["path"] == "sessions/chat.jsonl")
    assert lines == [2, 3]
    assert "8-3-1" not in proc.stdout  # a finding never echoes the value


def test_a_clone_is_scanned_for_secrets_behind_the_users_back(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first command that prints memory would scan every memory file (~12 s per 100k lines)
    while a person or an agent host waits: a memory commit's hook, and `memgit index`, start the
    scan detached when this clone has none under this version, and start nothing once it has."""
    cache = workspace / ".git" / "memgit" / "secret-values.json"
    log = workspace / ".git" / "memgit" / "fill.log"
    env = {**BM25, "MEMGIT_BACKGROUND_FILL": "1"}
    assert memgit(workspace, "hooks", "install", env=env).returncode == 0
    write(workspace / "MEMORY.md", f"# Memory\n\n## Cabin\n\n- Cabin Wi-Fi password: {VALUE}\n")
    git(workspace, "add", "-A")
    proc = subprocess.run(
        ["git", "commit", "-qm", "cabin", "--no-verify"],
        cwd=workspace,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )
    assert proc.returncode == 0, proc.stderr
    wait_until(lambda: log.is_file() and "memgit scan:" in log.read_text(), "the background scan ended")
    assert json.loads(cache.read_text())["version"] == __version__
    assert any(value == VALUE for pairs in json.loads(cache.read_text())["blobs"].values() for value, _ in pairs)
    assert "1 distinct values" in log.read_text()

    # a cache of the same key in the layout an earlier memgit wrote (the key first) is rewritten by
    # the next command that asks, so that hooks stop starting scans
    data = json.loads(cache.read_text())
    cache.write_text(json.dumps({"blobs": data["blobs"], "key": data["key"]}, sort_keys=True))
    assert not warmed(Workspace.discover(workspace))
    assert memgit(workspace, "context", env=BM25).returncode == 0
    # warm: a hook with no vectors to fill starts nothing
    monkeypatch.setenv("MEMGIT_BACKGROUND_FILL", "1")
    assert warmed(Workspace.discover(workspace))
    assert start_background_work(Workspace.discover(workspace), fill=False) is None

    # a new version of memgit (the cache names the one that wrote it): `memgit index` starts a scan
    data = json.loads(cache.read_text())
    cache.write_text(json.dumps({**data, "version": "0.0.0", "key": "written by 0.0.0"}))
    assert memgit(workspace, "index", env=env).returncode == 0
    wait_until(lambda: log.read_text().count("memgit scan:") == 2, "the scan that `memgit index` started ended")
    assert json.loads(cache.read_text())["version"] == __version__


def test_a_conversation_read_again_reads_only_its_new_turns_with_their_context() -> None:
    said = [("user", "Alarm code for the shop?"), ("assistant", "Sure."), ("user", "wifi password:"), ("user", VALUE)]
    first = conversation_secrets(said[:3])
    assert first.by_turn == [{}, {}, {}]
    # the new turn is read with the turns before it as context (its label ended the turn before)
    again = conversation_secrets(said, scanned=[*first.by_turn, None])
    assert again.by_turn[3] == {VALUE: "S117"} and again.everywhere == {VALUE: "S117"}
    # what a turn was found to hold is taken as it was kept: a turn read before is not read again
    kept = conversation_secrets(said, scanned=[{}, {}, {}, {}])
    assert kept.everywhere == {}


def test_one_background_scan_at_a_time(workspace: Path) -> None:
    """Each memory commit's hook starts a scan while the clone has none; on a large workspace the
    commits made meanwhile started a dozen at once. A scan starting while another runs leaves it
    the work: nothing scanned, nothing logged, the cache untouched; once alone it scans."""
    from memgit.cli.index import SCAN_LOCK
    from memgit.core.locks import exclusive

    write(workspace / "MEMORY.md", f"# Memory\n\n## Cabin\n\n- Cabin Wi-Fi password: {VALUE}\n")
    commit_all(workspace, "cabin")
    data = workspace / ".git" / "memgit"
    (data / "locks").mkdir(parents=True, exist_ok=True)
    env = {**BM25, "MEMGIT_BACKGROUND_FILL": "1"}
    with exclusive(data / "locks" / SCAN_LOCK, 5, 0.05):  # another scan runs
        busy = memgit(workspace, "index", "--fill-in-background", env=env)
    assert busy.returncode == 0, busy.stderr
    assert not (data / "secret-values.json").exists()
    assert "memgit scan:" not in busy.stdout + busy.stderr  # its log line (the detached run's log file)
    alone = memgit(workspace, "index", "--fill-in-background", env=env)
    assert alone.returncode == 0, alone.stderr
    assert "memgit scan:" in alone.stdout + alone.stderr
    cache = json.loads((data / "secret-values.json").read_text())
    assert any(value == VALUE for pairs in cache["blobs"].values() for value, _ in pairs)


def test_a_password_told_in_a_commit_message_is_hidden_where_a_note_repeats_it(workspace: Path, tmp_path: Path) -> None:
    """The history is published with the memory: a password first told in a commit message
    ("wifi: new password …") is a secret where a daily log repeats it with no label, in every
    output and in the lint's report; a message added later is read by the next command."""
    git(workspace, "commit", "-q", "--allow-empty", "-m", "wifi Marseille : nouveau mot de passe Calanques-Morgiou-77")
    day = (workspace / "memory").iterdir().__next__().name
    write(workspace / "memory" / day, "# Log\n\n- The guests asked again; sent them Calanques-Morgiou-77 by text.\n")
    commit_all(workspace, "log")

    proc = memgit(workspace, "lint", "--all", "--json", env=BM25)
    assert proc.returncode == 1, proc.stderr
    where = {(f["path"], f["line"]) for f in json.loads(proc.stdout)["findings"] if f["code"].startswith("S")}
    assert ("memory/" + day, 3) in where and "Calanques-Morgiou-77" not in proc.stdout

    context = memgit(workspace, "context", "--date", day.removesuffix(".md"), env=BM25)
    assert context.returncode == 0, context.stderr
    assert "sent them [redacted: S" in context.stdout and "Calanques-Morgiou-77" not in context.stdout

    git(workspace, "commit", "-q", "--allow-empty", "-m", "alarm panel: new password is Belle#Mai-4471")
    write(workspace / "MEMORY.md", "# Memory\n\n- Chloé keeps Belle#Mai-4471 on her phone.\n")
    commit_all(workspace, "memory")
    out = tmp_path / "site"
    built = memgit(workspace, "site", "build", "--scope", "private", "-o", str(out), env=BM25)
    assert built.returncode == 0, built.stderr
    leaks = [p for p in out.rglob("*") if p.is_file() and b"Belle#Mai-4471" in p.read_bytes()]
    assert leaks == [] and any(b"on her phone" in p.read_bytes() for p in out.rglob("*.html"))


def test_separators_in_a_hostile_message_hide_no_commit_from_the_history_scan(workspace: Path) -> None:
    """A commit message holding ASCII unit and record separators (what a reader of `git log`
    output might split on) neither hides its own password nor the commits before it."""
    git(workspace, "commit", "-q", "--allow-empty", "-m", "vpn: the new password is Harbour#Gate-58")
    git(workspace, "commit", "-q", "--allow-empty", "-m", "notes \x1f\x1e\x1f\x1f split me \x1e up")
    git(workspace, "commit", "-q", "--allow-empty", "-m", "wifi \x1e\x1f\n\nmot de passe : Calanques-Morgiou-77")
    day = (workspace / "memory").iterdir().__next__().name
    write(
        workspace / "memory" / day,
        "# Log\n\n- sent Harbour#Gate-58 to the field team\n- and Calanques-Morgiou-77 to the guests\n",
    )
    commit_all(workspace, "log")
    proc = memgit(workspace, "lint", "--all", "--history", "--json", env=BM25)
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    assert {(f["path"], f["line"]) for f in findings if f["path"]} >= {("memory/" + day, 3), ("memory/" + day, 4)}
    assert sum(1 for f in findings if f.get("where") == "message") == 2, findings
    assert "Harbour#Gate-58" not in proc.stdout and "Calanques-Morgiou-77" not in proc.stdout
