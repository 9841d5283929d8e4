"""Run a secrets probe corpus through memgit: does the lint flag each secret, and does any output
still hold it?

    .venv/bin/python bench/secrets_probe.py CORPUS [--quick] [--json out.json] [--work DIR] [--keep]

CORPUS is a folder written by someone who never read memgit's rules, in this format:

* `notes/`: a memory workspace's files (`MEMORY.md`, `memory/*.md`, `sessions/*.jsonl`);
* `secrets.jsonl`: one secret a line, `{"id", "path", "lines", "value", "category", "language",
  "placement"}` (`path` under the corpus folder, `lines` 1-based);
* `lookalikes.jsonl`: one look-alike a line, `{"path", "line", "text", "why"}`;
* `outside.json`: secrets that live outside the files: `file_names` (`path`, `value`: the file at
  that path is named with it), `commit_authors` (`name`, `email`, `value`) and `commit_messages`
  (`message`, `value`).

The full run (the acceptance run) commits `notes/` as a memory workspace in a temporary folder,
one commit per author and message of `outside.json` (without hooks: the secrets are meant to be
in), and then asks memgit every way it lets text out:

* `memgit lint --all --history --json` (the files, their names, and the history's authors and messages):
  flagged when a finding names one of the secret's lines (or its file name, author or message);
* both site scopes (`memgit site build --scope private|public`): every file under them;
* `memgit context` (private and group scopes; the daily logs of the notes' last day);
* MCP `resources/read` of every resource `resources/list` names;
* `memgit dream` on a branch: its report, `--explain` (text and JSON) and the branch's files and
  commit messages;
* `memgit capture` of every transcript in `notes/sessions/` (a Claude Code transcript made of its
  turns), and what it stored.

Per secret it reports: flagged by the lint, and absent from every output (the value, and the
value without its spaces for grouped numbers), naming the outputs that still hold it. Per
look-alike: whether the lint flagged its line. `--quick` asks only the lint's rules and the
redaction they drive, in process (seconds; for tuning).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import quote

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
TODAY = date(2026, 6, 1)


@dataclass
class Secret:
    id: str
    path: str  # relative to the workspace (the corpus's `notes/` prefix taken off)
    lines: list[int]
    value: str | list[str]  # a list: the parts of a value written over several lines
    category: str
    language: str
    placement: str
    flagged: bool = False
    leaks: list[str] = field(default_factory=list)


@dataclass
class LookAlike:
    path: str
    line: int
    text: str
    why: str
    flagged: bool = False


def _workspace_path(path: str) -> str:
    return path[len("notes/") :] if path.startswith("notes/") else path


def load(corpus: Path) -> tuple[list[Secret], list[LookAlike], dict[str, Any]]:
    secrets = []
    for line in (corpus / "secrets.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            secrets.append(
                Secret(
                    row["id"],
                    _workspace_path(row["path"]),
                    list(row.get("lines") or []),
                    row["value"],
                    row.get("category", ""),
                    row.get("language", ""),
                    row.get("placement", ""),
                )
            )
    looks = []
    path = corpus / "lookalikes.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        if line.strip():
            row = json.loads(line)
            looks.append(
                LookAlike(_workspace_path(row["path"]), int(row["line"]), row.get("text", ""), row.get("why", ""))
            )
    outside_path = corpus / "outside.json"
    outside = json.loads(outside_path.read_text(encoding="utf-8")) if outside_path.exists() else {}
    for index, row in enumerate(outside.get("file_names", [])):
        secrets.append(
            Secret(f"file{index}", _workspace_path(row["path"]), [], row["value"], "file_name", "", "file_name")
        )
    for index, row in enumerate(outside.get("commit_authors", [])):
        secrets.append(Secret(f"author{index}", "", [], row["value"], "commit_author", "", "commit_author"))
    for index, row in enumerate(outside.get("commit_messages", [])):
        secrets.append(Secret(f"message{index}", "", [], row["value"], "commit_message", "", "commit_message"))
    return secrets, looks, outside


def forms(value: str | list[str]) -> list[str]:
    """The ways an output may still show `value`: as written, without spaces (grouped numbers); a
    value in parts (over several lines): each part long enough to mean something, but a private
    key's BEGIN and END lines, which say only that a key was there."""
    if isinstance(value, list):
        parts = [p.strip() for p in value if len(p.strip()) >= 8 and not p.strip().startswith("-----")]
        return sorted({f for part in parts for f in forms(part)})
    out = {value, re.sub(r"\s+", "", value)}
    return sorted(v for v in out if len(v) >= 4)


def leaked(value: str | list[str], text: str) -> bool:
    """Whether `text` still shows `value`. A short value (eight characters or fewer) counts only
    standing alone: "0529" inside a commit id or a key is not the door code shown. A long token
    (24 characters or more) shows while any sixteen characters of it in a row do."""
    compact = re.sub(r"\s+", "", text)
    for form in forms(value):
        squeezed = re.sub(r"\s+", "", form)
        if len(squeezed) <= 8:
            if re.search(rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])", text):
                return True
        elif form in text or squeezed in compact or _long_token_shown(squeezed, text):
            return True
    return False


#: A long token, and the length of a piece of it that still shows it: a redaction that hid the first
#: 64 characters of a 200-character access token left the rest, which the whole value's search
#: missed.
_TOKEN = re.compile(r"[A-Za-z0-9+/=_-]+")
_WINDOW = 16


def _long_token_shown(token: str, text: str) -> bool:
    if len(token) < 24 or not _TOKEN.fullmatch(token):
        return False
    windows = {token[i : i + _WINDOW] for i in range(len(token) - _WINDOW + 1)}
    for run in re.finditer(rf"[A-Za-z0-9+/=_-]{{{_WINDOW},}}", text):
        piece = run.group(0)
        if any(piece[i : i + _WINDOW] in windows for i in range(len(piece) - _WINDOW + 1)):
            return True
    return False


# --- quick: in process ---------------------------------------------------------------------------


def quick(corpus: Path, secrets: list[Secret], looks: list[LookAlike], outside: dict[str, Any]) -> None:
    """The lint's rules and redaction, in process, over the notes and the outside texts."""
    from memgit.lint import rules
    from memgit.lint.redact import redact_line, redact_text, secret_in_name
    from memgit.lint.secrets import find_secrets, kept_value

    notes = corpus / "notes"
    flagged: dict[str, set[int]] = {}
    shown: dict[str, str] = {}
    files = sorted(p for p in notes.rglob("*") if p.is_file())
    # What a rule finds anywhere is a secret everywhere (memgit.lint.known does this per blob).
    known: dict[str, str] = {}
    for file in files:
        for hit in find_secrets(file.read_text(encoding="utf-8", errors="replace").split("\n")):
            if hit.value and kept_value(hit.value):
                known.setdefault(hit.value, hit.code)
    # As `memgit lint --all` does: every rule on each file, then the lines holding a value found
    # elsewhere (a short code only beside a code's words); outputs hide every kept value.
    settings, with_known = rules.LintSettings(), rules.LintSettings(known=known)
    for file in files:
        rel = file.relative_to(notes).as_posix()
        data = file.read_bytes()
        item = rules.LintInput(rel, data)
        findings = rules.lint_file(item, settings, TODAY)
        findings += rules.known_findings(item, with_known, {f.line for f in findings if f.code.startswith("S")})
        flagged[rel] = {
            n for f in findings if f.code.startswith("S") for n in range(f.line, (f.end_line or f.line) + 1)
        }
        shown[rel] = redact_text(data.decode("utf-8", "replace"), known=known)[0]
        if secret_in_name(rel):
            flagged.setdefault(rel, set()).add(0)
    for secret in secrets:
        if secret.placement == "file_name":
            secret.flagged = 0 in flagged.get(secret.path, set())
            if not secret.flagged:
                secret.leaks.append("file name")
            continue
        if secret.placement in ("commit_author", "commit_message"):
            rows = outside.get("commit_authors" if secret.placement == "commit_author" else "commit_messages", [])
            row = next(r for r in rows if r["value"] == secret.value)
            texts = [row["name"], row["email"]] if secret.placement == "commit_author" else [row["message"]]
            out = [redact_line(t)[0] for t in texts]
            secret.flagged = any(redact_line(t)[1] for t in texts)
            if any(leaked(secret.value, t) for t in out):
                secret.leaks.append(secret.placement)
            continue
        secret.flagged = bool(set(secret.lines) & flagged.get(secret.path, set()))
        if leaked(secret.value, shown.get(secret.path, "")):
            secret.leaks.append("redacted text")
    for look in looks:
        look.flagged = look.line in flagged.get(look.path, set())


# --- full: the CLI on a real workspace -----------------------------------------------------------


def _run(args: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, check=False)


#: Every memgit command the full run made that failed (a full run with any is no measurement).
FAILURES: list[str] = []


def _memgit(
    args: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None, ok: tuple[int, ...] = (0,)
) -> str:
    """stdout and stderr of `memgit ARGS`; an exit status outside `ok` is recorded in FAILURES."""
    done = _run([sys.executable, "-m", "memgit", *args], cwd, env, stdin)
    if done.returncode not in ok:
        FAILURES.append(f"memgit {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return done.stdout + "\n" + done.stderr


def _git(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = _run(["git", *args], cwd, env)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def build_workspace(corpus: Path, work: Path, outside: dict[str, Any], env: dict[str, str]) -> Path:
    """`notes/` as a memory workspace: memgit init, then one commit per author and message."""
    ws = work / "ws"
    shutil.copytree(corpus / "notes", ws)
    _git(["init", "-q", "-b", "main"], ws, env)
    _memgit(["init"], ws, env)
    authors = outside.get("commit_authors", []) or [{"name": "Probe", "email": "probe@example.org"}]
    messages = [m["message"] for m in outside.get("commit_messages", [])] or ["notes"]
    files = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if p.is_file() and ".git" not in p.parts)
    steps = max(len(authors), len(messages))
    for step in range(steps):
        part = files[step::steps]
        if step == steps - 1:
            _git(["add", "-A"], ws, env)
        elif part:
            _git(["add", "--", *part], ws, env)
        author = authors[step % len(authors)]
        step_env = env | {
            "GIT_AUTHOR_NAME": author["name"],
            "GIT_AUTHOR_EMAIL": author["email"],
            "GIT_COMMITTER_NAME": author["name"],
            "GIT_COMMITTER_EMAIL": author["email"],
            "GIT_AUTHOR_DATE": f"2026-05-{step + 1:02d}T10:00:00+00:00",
            "GIT_COMMITTER_DATE": f"2026-05-{step + 1:02d}T10:00:00+00:00",
        }
        _git(["commit", "-q", "--no-verify", "--allow-empty", "-m", messages[step % len(messages)]], ws, step_env)
    return ws


def _files_under(folder: Path) -> dict[str, str]:
    out = {}
    for path in folder.rglob("*") if folder.exists() else []:
        if path.is_file():
            out[path.relative_to(folder).as_posix()] = path.read_bytes().decode("utf-8", "replace")
    return out


def outputs(ws: Path, work: Path, env: dict[str, str], corpus: Path, secrets: list[Secret]) -> dict[str, str]:
    """Every output memgit makes of the workspace: name -> text."""
    out: dict[str, str] = {}
    for scope in ("private", "public"):
        site = work / f"site-{scope}"
        out[f"site build {scope}"] = _memgit(["site", "build", "--scope", scope, "-o", str(site)], ws, env)
        files = _files_under(site)
        if not files:
            FAILURES.append(f"site {scope}: no file written")
        for name, text in files.items():
            out[f"site {scope}: {name}"] = text
            out[f"site {scope}: file name {name}"] = name
    days = sorted(p.stem for p in (ws / "memory").glob("????-??-??.md"))
    for day in days:  # each daily log is "today" once: context loads today's and yesterday's
        for scope in ("private", "group"):
            out[f"context {scope} {day}"] = _memgit(["context", "--scope", scope, "--date", day], ws, env)
    out.update(_mcp_resources(ws, env, days))
    out.update(_dream(ws, env, secrets))
    out.update(_capture(ws, work, env, corpus))
    return out


def _mcp_resources(ws: Path, env: dict[str, str], days: list[str]) -> dict[str, str]:
    """`resources/list`, then `resources/read` of every resource listed, every memory file by its
    URI template and every day's log (the server's own session)."""
    hello = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "probe", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    listing = [*hello, {"jsonrpc": "2.0", "id": 2, "method": "resources/list"}]
    first = _memgit(["mcp"], ws, env, "\n".join(json.dumps(r) for r in listing) + "\n")
    uris: list[str] = []
    for line in first.splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue
        if message.get("id") == 2:
            uris = [r["uri"] for r in message.get("result", {}).get("resources", [])]
    if not uris:
        FAILURES.append("mcp: resources/list named no resource")
    files = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*.md") if ".git" not in p.parts)
    uris += [f"memgit://file/{quote(path)}" for path in files] + [f"memgit://daily/{day}" for day in days]
    reads = [
        *hello,
        *(
            {"jsonrpc": "2.0", "id": 10 + n, "method": "resources/read", "params": {"uri": uri}}
            for n, uri in enumerate(uris)
        ),
    ]
    answer = _memgit(["mcp"], ws, env, "\n".join(json.dumps(r) for r in reads) + "\n")
    texts = []  # what the server said: each resource's text (the URIs asked for are the probe's own)
    for line in answer.splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            texts.append(line)
            continue
        contents = message.get("result", {}).get("contents") if isinstance(message, dict) else None
        if contents:
            texts += [str(c.get("text", "")) for c in contents]
        elif isinstance(message, dict) and "error" in message:
            texts.append(json.dumps(message["error"], ensure_ascii=False))
    read = sum(1 for line in answer.splitlines() if '"contents"' in line)
    if read < len(uris) // 2:
        FAILURES.append(f"mcp: only {read} of {len(uris)} resources read")
    return {"mcp resources": first, "mcp reads": "\n".join(texts)}


def _dream(ws: Path, env: dict[str, str], secrets: list[Secret]) -> dict[str, str]:
    """Each secret's line recalled on three days by distinct queries (its own words), then a dream:
    `--explain` (text and JSON), the branch it writes (commits, messages, files) and its report."""
    out: dict[str, str] = {}
    _memgit(["index"], ws, env)
    queries = []
    for secret in secrets:
        path = ws / secret.path
        if not secret.lines or not path.is_file() or secret.path.endswith(".jsonl"):
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        words = [w for n in secret.lines if 0 < n <= len(lines) for w in re.findall(r"[^\W\d_]{4,}", lines[n - 1])]
        if words:
            queries.append(" ".join(words[:4]))
    for number, day in enumerate(("2026-05-28", "2026-05-29", "2026-05-30")):
        asked = [q + (" ", " please", " notes")[number] for q in queries]
        _memgit(
            ["search", "--batch", "-", "--now", f"{day}T12:00:00+00:00", "-k", "6"], ws, env, "\n".join(asked) + "\n"
        )
    now = ["--now", "2026-06-01T22:00:00+00:00"]
    out["dream --explain --dry-run"] = _memgit(["dream", "--dry-run", "--explain", *now], ws, env)
    out["dream --explain --json"] = _memgit(["dream", "--explain", "--json", *now], ws, env)
    try:
        branch = json.loads(out["dream --explain --json"].split("\n")[0]).get("branch")
    except json.JSONDecodeError:
        branch = None
    branches = [b.strip(" *+") for b in _git(["branch", "--list", "memgit/dream*"], ws, env).splitlines() if b.strip()]
    if not branches:
        FAILURES.append(f"dream: no branch written ({'branch ' + branch if branch else 'nothing to propose'})")
    for name in branches:
        # What the branch adds: its commits' messages and the lines they add (the rest of its
        # tree is main's, secrets committed without hooks included).
        log = _git(["log", "-p", "-U0", "--format=%x1e%an %ae%n%B%x1f", f"main..{name}"], ws, env)
        added = []
        for commit in log.split("\x1e"):
            message, _, diff = commit.partition("\x1f")
            added.append(message)
            added += [line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
        out[f"dream branch {name}"] = "\n".join(added)
        for file in _git(["diff", "--name-only", f"main...{name}"], ws, env).splitlines():
            out[f"dream branch {name}: name of {file}"] = file
    dreams = ws / "memory" / ".dreams"
    for report in dreams.rglob("*") if dreams.exists() else []:
        if report.is_file():
            out[f"dream store {report.name}"] = report.read_text(encoding="utf-8", errors="replace")
    return out


def _capture(ws: Path, work: Path, env: dict[str, str], corpus: Path) -> dict[str, str]:
    """Each stored transcript replayed as a host's transcript, captured by `memgit capture`."""
    out: dict[str, str] = {}
    sessions = sorted((corpus / "notes" / "sessions").glob("*.jsonl"))
    for number, session in enumerate(sessions):
        host = work / f"host-{number}.jsonl"
        turns = []
        for line in session.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            role = row.get("role") or row.get("type") or "user"
            text = row.get("content") if isinstance(row.get("content"), str) else json.dumps(row, ensure_ascii=False)
            turns.append(
                {
                    "type": "user" if role == "user" else "assistant",
                    "message": {"role": "user" if role == "user" else "assistant", "content": text},
                    "uuid": f"u{number}-{len(turns)}",
                    "sessionId": f"probe-{number}",
                    "timestamp": "2026-05-30T10:00:00Z",
                }
            )
        host.write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in turns) + "\n", encoding="utf-8")
        out[f"capture {session.name}"] = _memgit(
            ["capture", "--transcript", str(host), "--session", f"probe-{number}"], ws, env
        )
    stored = sorted((ws / "sessions").glob("*probe*"))
    if sessions and not stored:
        FAILURES.append("capture: nothing stored")
    for path in stored:
        out[f"captured {path.name}"] = path.read_text(encoding="utf-8", errors="replace")
    return out


def full(corpus: Path, secrets: list[Secret], looks: list[LookAlike], outside: dict[str, Any], work: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MEMGIT_"))}
    env |= {"MEMGIT_EMBEDDING": "none", "PYTHONPATH": str(ROOT), "HOME": str(work / "home")}
    (work / "home").mkdir(parents=True, exist_ok=True)
    _git(["config", "--global", "user.name", "Probe"], work, env)
    _git(["config", "--global", "user.email", "probe@example.org"], work, env)
    ws = build_workspace(corpus, work, outside, env)
    lint = json.loads(_memgit(["lint", "--all", "--history", "--json"], ws, env, ok=(0, 1)).split("\n")[0] or "{}")
    flagged: dict[str, set[int]] = {}
    by_commit: dict[str, set[str]] = {}  # commit -> where its findings are (author, author-email, message…)
    for finding in lint.get("findings", []):
        if not str(finding.get("code", "")).startswith("S"):
            continue
        if finding.get("commit"):
            by_commit.setdefault(finding["commit"], set()).add(str(finding.get("where")))
        else:
            first = int(finding["line"])  # a block's finding covers its lines up to `end_line`
            flagged.setdefault(finding["path"], set()).update(range(first, int(finding.get("end_line") or first) + 1))
    commits = _commits(ws, env)
    texts = outputs(ws, work, env, corpus, secrets)
    for secret in secrets:
        if secret.placement == "file_name":
            secret.flagged = 0 in flagged.get(secret.path, set())
        elif secret.placement == "commit_author":
            row = next(r for r in outside["commit_authors"] if r["value"] == secret.value)
            secret.flagged = any(
                (name, email) == (row["name"], row["email"]) and wheres & {"author", "author-email"}
                for commit, (name, email, _message) in commits.items()
                for wheres in [by_commit.get(commit, set())]
            )
        elif secret.placement == "commit_message":
            row = next(r for r in outside["commit_messages"] if r["value"] == secret.value)
            secret.flagged = any(
                message.strip() == row["message"].strip() and "message" in by_commit.get(commit, set())
                for commit, (_name, _email, message) in commits.items()
            )
        else:
            secret.flagged = bool(set(secret.lines) & flagged.get(secret.path, set()))
        secret.leaks = [name for name, text in texts.items() if leaked(secret.value, text)]
    for look in looks:
        look.flagged = look.line in flagged.get(look.path, set())


def _commits(ws: Path, env: dict[str, str]) -> dict[str, tuple[str, str, str]]:
    """commit -> (author name, author e-mail, message) of the workspace's history."""
    out = {}
    for record in _git(["log", "--format=%H%x1f%an%x1f%ae%x1f%B%x1e"], ws, env).split("\x1e"):
        fields = record.strip("\n").split("\x1f")
        if len(fields) == 4:
            out[fields[0]] = (fields[1], fields[2], fields[3])
    return out


# --- report --------------------------------------------------------------------------------------


def report(secrets: list[Secret], looks: list[LookAlike]) -> dict[str, Any]:
    caught = [s for s in secrets if s.flagged and not s.leaks]
    by_category: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    for secret in secrets:
        by_category[secret.category] += 1
        if not (secret.flagged and not secret.leaks):
            missed[secret.category] += 1
    return {
        "secrets": len(secrets),
        "flagged": sum(s.flagged for s in secrets),
        "absent_from_every_output": sum(not s.leaks for s in secrets),
        "flagged_and_absent": len(caught),
        "look_alikes": len(looks),
        "look_alikes_flagged": sum(look.flagged for look in looks),
        "missed_by_category": dict(missed.most_common()),
        "by_category": dict(by_category.most_common()),
        "misses": [
            {
                "id": s.id,
                "category": s.category,
                "placement": s.placement,
                "path": s.path,
                "lines": s.lines,
                "flagged": s.flagged,
                "leaks": s.leaks[:8],
            }
            for s in secrets
            if not (s.flagged and not s.leaks)
        ],
        "look_alikes_flagged_list": [{"path": x.path, "line": x.line, "why": x.why} for x in looks if x.flagged],
        "failures": list(FAILURES),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--quick", action="store_true", help="in process: the lint's rules and redaction only")
    parser.add_argument("--json", type=Path, help="write the report here")
    parser.add_argument("--work", type=Path, help="work folder (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--show", action="store_true", help="print each miss with its text (tuning only)")
    args = parser.parse_args(argv)
    secrets, looks, outside = load(args.corpus)
    if args.quick:
        quick(args.corpus, secrets, looks, outside)
    else:
        work = args.work or Path(tempfile.mkdtemp(prefix="memgit-probe-"))
        try:
            full(args.corpus, secrets, looks, outside, work)
        finally:
            if not args.keep and args.work is None:
                shutil.rmtree(work, ignore_errors=True)
    result = report(secrets, looks)
    print(
        f"secrets: {result['secrets']}; flagged by the lint: {result['flagged']}; absent from every output: "
        f"{result['absent_from_every_output']}; both: {result['flagged_and_absent']} "
        f"({100 * result['flagged_and_absent'] / max(1, result['secrets']):.1f} %)"
    )
    print(f"look-alikes: {result['look_alikes']}; flagged: {result['look_alikes_flagged']}")
    print("missed by category:", json.dumps(result["missed_by_category"], ensure_ascii=False))
    for failure in FAILURES:
        print("FAILED:", failure)
    if args.show:
        for miss in result["misses"]:
            print(json.dumps(miss, ensure_ascii=False))
        for look in result["look_alikes_flagged_list"]:
            print("look-alike flagged:", json.dumps(look, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    raise SystemExit(main())
