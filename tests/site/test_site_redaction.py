"""No secret is ever published (issue 24): what `memgit lint` flags as a secret is shown as
`[redacted: RULE]` by the memory site (pages, search shards, summaries, concept places, older
versions) in both scopes, the build reports each redacted `path:line` and rule, the Pages job of
`memgit ci` prints that report in its log, and `memgit context` redacts the same lines.

Everything runs through the real CLI on real git repositories whose secrets were committed the way
the issue describes: without hooks.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markupsafe import escape

from bench.secrets_corpus import Sample, corpus
from memgit.core.provenance import EntryMarker, SourceRef
from memgit.ledger.lines import text_hash
from memgit.lint.rules import scan_secrets
from memgit.site import urls
from tests.helpers import commit_all, git, memgit, memgit_json, write
from tests.site.helpers import BM25, build, check_links, make_workspace

PASSPHRASE = "orchid-lantern-42"
VPN_LINE = f"- The staging VPN passphrase is {PASSPHRASE} until Friday #vpn #staging"
TOKEN = "ghp_" + "Zq9xLm2Rt7Wv4Ks8Jd3Hf6Gb1Nc5Pa0Ye2Ui"
TOKEN_LINE = f"- Bob gave me a token for the CI bot: {TOKEN}"

DAILY = [f"memory/2026-03-{day:02d}.md" for day in range(1, 13)]
NOTES = [f"memory/notes/topic-{n}.md" for n in range(8)]
PRIVATE_FILES = ["MEMORY.md", "USER.md"]
TARGETS = DAILY + NOTES + PRIVATE_FILES
SESSION = "sessions/2026-03-02.jsonl"


def secret_values(sample: Sample) -> list[str]:
    """The generated parts of a secret sample: its tokens of 8+ characters with a digit, or 16+, that
    are not a host name, an address or a name (`registry.npmjs.org` beside an npm token stays:
    redaction replaces the value, not the line); and the value the lint bounds on each flagged line (a grouped IBAN or a
    PIN has no long token), or the line's text where it bounds none (a key block)."""
    from memgit.lint.secrets import find_secrets

    tokens = [t.strip(".") for t in re.split(r"[\s'\"`:/@=;,()\\]+", sample.text)]
    # Host names, addresses, names from code, and a BIC (it names a bank, and is public).
    named = re.compile(
        r"[a-z0-9-]+(?:\.[a-z0-9-]+)+|[a-z]+(?:_[a-z]+)*|(?:[A-Z][a-z]+)+|[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?"
    )
    generated = [
        t for t in tokens if ((len(t) >= 8 and re.search(r"\d", t)) or len(t) >= 16) and not named.fullmatch(t)
    ]
    bounded = []
    for line in sample.text.split("\n"):
        for hit in find_secrets([line]):
            bounded.append(hit.value if hit.value else line.lstrip("-*> ").strip())
    return generated + [v for v in bounded if len(v) >= 4]


def corpus_workspace(root: Path) -> tuple[Path, dict[tuple[str, int], Sample], list[tuple[str, str]], list[str]]:
    """Every sample of the lint's corpus in daily logs, notes, MEMORY.md, USER.md and a transcript,
    committed with no hook installed. Returns the workspace, the flagged line of each secret sample
    ((path, line) -> sample), the look-alike lines ((path, line text)) and every secret value."""
    files: dict[str, list[str]] = {path: [f"# {path}", ""] for path in TARGETS}
    flagged: dict[tuple[str, int], Sample] = {}
    look_alikes: list[tuple[str, str]] = []
    values: list[str] = []
    session: list[str] = []
    for number, sample in enumerate(corpus(0)):
        lines = sample.text.split("\n")
        if sample.secret:
            values += secret_values(sample)
            assert secret_values(sample), sample
        if sample.secret and len(lines) == 1 and number % 9 == 0:
            session.append(json.dumps({"role": "user", "content": sample.text}))
            flagged[(SESSION, len(session))] = sample
            continue
        path = TARGETS[number % len(TARGETS)]
        body = files[path]
        body.append(f"- filler line {number}: the rollout went fine.")
        first = len(body) + 1
        body += lines
        if sample.secret:
            offset = next(i for i, line in enumerate(lines) if scan_secrets(line))
            flagged[(path, first + offset)] = sample
        else:
            look_alikes += [(path, line) for line in lines]
    shown_as_is = "\n".join(line for _, line in look_alikes)
    values = [v for v in values if v not in shown_as_is]  # a word look-alikes share is no secret
    texts = {path: "\n".join(body) + "\n" for path, body in files.items()}
    texts[SESSION] = "\n".join(session) + "\n"
    return make_workspace(root, texts, "memory with secrets, committed without hooks"), flagged, look_alikes, values


def output_texts(out: Path) -> dict[str, str]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes().decode("utf-8", "replace")
        for p in sorted(out.rglob("*"))
        if p.is_file()
    }


def leaks(out: Path, values: list[str]) -> list[str]:
    """Each secret value found in any output file, raw, HTML-escaped or JSON-escaped. A short value
    (a PIN, an expiry) counts only standing alone: "1986" inside the commit id a page shows
    ("…cb1986e…") is no leak, and matching it there failed one run in a few hundred."""
    found = []
    for name, text in output_texts(out).items():
        for value in values:
            forms = {value, str(escape(value)), json.dumps(value)[1:-1]}
            if len(value) < 8:
                alone = [re.compile(rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])") for form in forms]
                if any(pattern.search(text) for pattern in alone):
                    found.append(f"{name}: {value}")
            elif any(form in text for form in forms):
                found.append(f"{name}: {value}")
    return found


def rows(report: dict) -> dict[tuple[str, int], dict]:
    keyed = {(r["path"], r["line"]): r for r in report["redacted"]}
    assert len(keyed) == len(report["redacted"]), "a line was reported twice"
    return keyed


def test_no_corpus_secret_reaches_either_scope_and_each_is_reported_once(tmp_path: Path) -> None:
    ws, flagged, look_alikes, values = corpus_workspace(tmp_path / "ws")
    lint = memgit(ws, "lint", "--json", env=BM25)
    lint_codes: dict[tuple[str, int], set[str]] = {}
    for finding in json.loads(lint.stdout)["findings"]:
        if finding["code"].startswith("S"):
            lint_codes.setdefault((finding["path"], finding["line"]), set()).add(finding["code"])
    for scope, shown in (("private", set(TARGETS) | {SESSION}), ("public", set(DAILY) | set(NOTES))):
        out = tmp_path / scope
        report = build(ws, out, "--scope", scope)
        assert leaks(out, values) == [], scope
        reported = rows(report)
        expected = {key for key in flagged if key[0] in shown}
        assert set(reported) == expected, scope
        for key, row in reported.items():
            # The lint's own rule on that line, the lint's own finding at that place.
            assert row["code"] == scan_secrets(ws.joinpath(key[0]).read_text().split("\n")[key[1] - 1])[0][0]
            assert row["code"] in lint_codes[key] and row["commit"] is None
        # The look-alikes are shown as written, on their notes' source pages (numbered lines).
        for path, line in look_alikes:
            if path in shown and path.startswith("memory/"):
                page = (out / urls.source_url(path)).read_text(encoding="utf-8")
                assert str(escape(line)) in page, line
        assert check_links(out)[1] == []
    # The placeholder is what a reader sees where each secret was.
    page = (tmp_path / "public" / urls.note_url(DAILY[0])).read_text(encoding="utf-8")
    assert "[redacted: S1" in page
    # The text report: one line per redaction, as `memgit lint` names places.
    text = memgit(ws, "site", "build", "-o", str(tmp_path / "public"), "--scope", "public", env=BM25).stdout
    assert f"redacted {len(rows(report))} lines the lint flags as secrets" in text
    some = next(iter(sorted(reported)))
    assert f"  {some[0]}:{some[1]}: {reported[some]['code']} {reported[some]['rule']}" in text


def concepts_file(lines: dict[str, list[str]], places: list[tuple[str, int]]) -> str:
    """A dream's concepts file naming `places` for the tag `vpn` (the format `memgit dream` writes)."""
    found = [[path, line, line, text_hash(lines[path][line - 1])] for path, line in places]
    return json.dumps(
        {
            "version": 1,
            "day": "2026-03-05",
            "base": "",
            "themes": [{"tag": "vpn", "strength": 1.0}],
            "concepts": [{"tag": "vpn", "count": len(found), "places": found}],
        }
    )


def issue_workspace(root: Path) -> tuple[Path, str]:
    """The issue's memory: a passphrase in a daily log, tagged and named by a dream's concepts; a token
    in a note that a later commit removes, which MEMORY.md's provenance still points at."""
    daily = ["# 2026-03-04", "", "- Tom set up the staging VPN today #vpn", VPN_LINE, "- The VPN gateway is vpn-3 #vpn"]
    ops = ["# Ops", "", TOKEN_LINE, "- Deploys go out on Tuesdays."]
    ws = make_workspace(
        root,
        {
            "memory/2026-03-04.md": "\n".join(daily) + "\n",
            "memory/notes/ops.md": "\n".join(ops) + "\n",
            "MEMORY.md": "# Memory\n\n- The user prefers tea.\n",
        },
    )
    with_token = git(ws, "rev-parse", "HEAD").strip()
    places = [("memory/2026-03-04.md", 3), ("memory/2026-03-04.md", 4)]
    write(ws / "memory/.dreams/concepts/2026-03-05.json", concepts_file({"memory/2026-03-04.md": daily}, places))
    commit_all(ws, "a dream's concepts")
    named = git(ws, "rev-parse", "HEAD").strip()  # ops.md unchanged here: a commit its history does not list
    ref = SourceRef("memory/notes/ops.md", 3, 3, named)
    write(
        ws / "MEMORY.md",
        "# Memory\n\n- The user prefers tea.\n"
        f"{EntryMarker('kops', ref, 0.8, '2026-03-05').format()}\n- The CI bot has its own token.\n",
    )
    write(
        ws / "memory/notes/ops.md",
        "# Ops\n\n- The CI bot token was rotated; it lives in the vault.\n- Deploys go out on Tuesdays.\n",
    )
    commit_all(ws, "rotate the token; promote")
    # A subject quoting the secret, as `memgit dream` quotes what it promotes.
    write(ws / "memory/2026-03-04.md", "\n".join(daily) + "\n- Checked the VPN again #vpn\n")
    commit_all(ws, f"dream: remember {VPN_LINE[2:]}")
    return ws, with_token


def test_the_issue_scenario_history_provenance_concepts_and_rebuilds(tmp_path: Path) -> None:
    ws, with_token = issue_workspace(tmp_path / "ws")
    for scope in ("private", "public"):
        out = tmp_path / scope
        report = build(ws, out, "--scope", scope)
        assert leaks(out, [PASSPHRASE, TOKEN]) == [], scope
        # A public site publishes no older version, so the token's old line is on no page of it.
        older = [("memory/notes/ops.md", 3, "S102", with_token)] if scope == "private" else []
        assert [(r["path"], r["line"], r["code"], r["commit"]) for r in report["redacted"]] == [
            ("memory/2026-03-04.md", 4, "S104", None),
            *older,
        ]
        note = (out / urls.note_url("memory/2026-03-04.md")).read_text(encoding="utf-8")
        assert "[redacted: S104]" in note and "Tom set up the staging VPN" in note
        ops = (out / urls.note_url("memory/notes/ops.md")).read_text(encoding="utf-8")
        # The commit also changed MEMORY.md: a public site does not publish its subject.
        assert ("rotate the token; promote" in ops) == (scope == "private")
        snapshot_page = out / urls.snapshot_url(with_token, "memory/notes/ops.md")
        if scope == "private":
            snapshot = snapshot_page.read_text(encoding="utf-8")
            assert "[redacted: S102]" in snapshot and "Deploys go out on Tuesdays." in snapshot
        else:
            assert "a private change" in ops and not (out / "snap").exists()
        # The concept keeps its clean place; the redacted line is no place of it any more.
        concept = (out / urls.concept_url("vpn")).read_text(encoding="utf-8")
        assert "Tom set up the staging VPN" in concept and "passphrase" not in concept
        # Search shards hold the note's lines, the redacted one without its value.
        shards = "".join(text for name, text in output_texts(out).items() if name.startswith("assets/search/"))
        assert "Tom set up the staging VPN" in shards and "passphrase is [redacted: S104]" in shards
        assert PASSPHRASE not in shards and "orchid" not in shards
        # A rebuild with nothing new renders nothing and reports the same lines (kept in the manifest).
        again = build(ws, out, "--scope", scope)
        assert again["rendered"] == 0 and again["redacted"] == report["redacted"]
    # Provenance pointing at the token's line lands on a redacted copy (private: MEMORY.md is shown).
    named = urls.snapshot_url(git(ws, "rev-parse", "HEAD~2").strip(), "memory/notes/ops.md")
    assert "[redacted: S102]" in (tmp_path / "private" / named).read_text(encoding="utf-8")

    # The person's word: `[site] show_secrets` shows them in the private scope, never in the public one.
    write(ws / "memgit.toml", "[site]\nshow_secrets = true\n")
    private = build(ws, tmp_path / "private", "--scope", "private")
    assert private["redacted"] == [] and leaks(tmp_path / "private", [PASSPHRASE, TOKEN]) != []
    public = build(ws, tmp_path / "public", "--scope", "public")
    assert len(public["redacted"]) == 1 and leaks(tmp_path / "public", [PASSPHRASE, TOKEN]) == []
    # A rule the lint turned off is not redacted either (one answer to "what is a secret").
    write(ws / "memgit.toml", '[lint]\ndisable = ["S104"]\n')
    public = build(ws, tmp_path / "public", "--scope", "public")
    assert [r["code"] for r in public["redacted"]] == []
    assert PASSPHRASE in (tmp_path / "public" / urls.note_url("memory/2026-03-04.md")).read_text(encoding="utf-8")
    # Fixing the source takes the current line out of the report; the older version stays redacted.
    (ws / "memgit.toml").unlink()
    write(
        ws / "memory/2026-03-04.md",
        (ws / "memory/2026-03-04.md").read_text().replace(VPN_LINE, "- (moved to the vault)"),
    )
    commit_all(ws, "passphrase out of memory")
    private = build(ws, tmp_path / "private", "--scope", "private")
    assert {(r["path"], r["commit"] is None) for r in private["redacted"]} == {
        ("memory/2026-03-04.md", False),
        ("memory/notes/ops.md", False),
    }
    assert leaks(tmp_path / "private", [PASSPHRASE, TOKEN]) == []
    public = build(ws, tmp_path / "public", "--scope", "public")
    assert public["redacted"] == [] and leaks(tmp_path / "public", [PASSPHRASE, TOKEN]) == []


def test_a_build_rendered_by_worker_processes_reports_what_they_redacted(tmp_path: Path) -> None:
    """A big build renders notes, sources and snapshots in forked workers; what those pages redact
    (an older version's token on a snapshot) must still reach the report and the manifest."""
    ws, _ = issue_workspace(tmp_path / "ws")
    for n in range(120):  # notes + their source pages: over the worker threshold
        write(ws / f"memory/notes/n{n:03d}.md", f"# Note {n}\n\n- filler fact number {n}\n")
    commit_all(ws, "many notes")
    one = memgit(ws, "site", "build", "-o", str(tmp_path / "one"), "--json", env={**BM25, "MEMGIT_SITE_JOBS": "1"})
    many = memgit(ws, "site", "build", "-o", str(tmp_path / "many"), "--json", env={**BM25, "MEMGIT_SITE_JOBS": "2"})
    assert one.returncode == 0 and many.returncode == 0, one.stderr + many.stderr
    serial, parallel = json.loads(one.stdout), json.loads(many.stdout)
    assert parallel["rendered"] > 240 and parallel["redacted"] == serial["redacted"]
    assert any(r["commit"] is not None for r in parallel["redacted"])
    assert tree_texts(tmp_path / "one") == tree_texts(tmp_path / "many")
    assert leaks(tmp_path / "many", [PASSPHRASE, TOKEN]) == []


def tree_texts(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_bad_show_secrets_value_is_one_clean_error(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", {"memory/2026-03-04.md": f"# day\n\n{VPN_LINE}\n"})
    write(ws / "memgit.toml", '[site]\nshow_secrets = "yes"\n')
    proc = memgit(ws, "site", "build", "-o", str(tmp_path / "out"), env=BM25)
    assert proc.returncode == 0 and "memgit.toml:2: site.show_secrets must be true or false" in proc.stderr
    assert "[redacted:" in next((tmp_path / "out").rglob("2026-03-04*.html")).read_text()  # the default: hidden


def test_the_pages_job_prints_what_it_redacted_in_its_log(tmp_path: Path) -> None:
    """The site command each generated Pages job runs, run here: its log names the redacted line."""
    from tests.dream.test_ci import load_yaml

    ws = make_workspace(tmp_path / "ws", {"memory/2026-03-04.md": f"# 2026-03-04\n\n- plain\n{VPN_LINE}\n"})
    memgit_json(ws, "ci", "github", "--pages")
    memgit_json(ws, "ci", "gitlab", "--pages")
    github = load_yaml(ws / ".github/workflows/memgit-dream.yml")["jobs"]["pages"]["steps"]
    commands = [next(step["run"] for step in github if "memgit site build" in step.get("run", ""))]
    commands.append(
        "\n".join(
            line
            for line in load_yaml(ws / ".gitlab/memgit-dream.gitlab-ci.yml")["pages"]["script"]
            if "pip install" not in line
        )
    )
    runner = tmp_path / "runner"
    runner.mkdir()
    env = {
        **os.environ,
        **BM25,
        "RUNNER_TEMP": str(runner),
        "TMPDIR": str(runner),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    for command in commands:
        proc = subprocess.run(
            ["bash", "-e", "-c", command], cwd=ws, env=env, capture_output=True, text=True, check=False
        )
        assert proc.returncode == 0, proc.stderr
        assert "redacted 1 line the lint flags as secrets" in proc.stdout
        assert "  memory/2026-03-04.md:4: S104 password-in-text" in proc.stdout
        assert PASSPHRASE not in proc.stdout + proc.stderr


def test_context_shows_the_placeholder_and_says_where(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path / "ws",
        {
            "memory/2026-03-04.md": f"# 2026-03-04\n\n- plain line\n{VPN_LINE}\n",
            "MEMORY.md": f"# Memory\n\n{TOKEN_LINE}\n- The user prefers tea.\n",
        },
    )
    proc = memgit(ws, "context", "--date", "2026-03-04", "--json", env=BM25)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert PASSPHRASE not in proc.stdout and TOKEN not in proc.stdout
    assert "- The staging VPN passphrase is [redacted: S104] until Friday" in data["text"]
    assert "- Bob gave me a token for the CI bot: [redacted: S102]" in data["text"]
    assert "The user prefers tea." in data["text"]
    assert data["redacted"] == [
        {"path": "memory/2026-03-04.md", "line": 4, "code": "S104"},
        {"path": "MEMORY.md", "line": 3, "code": "S102"},
    ]
    assert "memgit: warning: memory/2026-03-04.md:4: S104" in proc.stderr
    # The group scope never loads MEMORY.md; its log is redacted all the same.
    text = memgit(ws, "context", "--date", "2026-03-04", "--scope", "group", env=BM25).stdout
    assert "[redacted: S104]" in text and PASSPHRASE not in text and "MEMORY.md" not in text


@pytest.fixture(scope="module")
def browser_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("redaction-home")
    (home / ".gitconfig").write_text(
        "[init]\n\tdefaultBranch = main\n[user]\n\tname = T\n\temail = t@example.invalid\n"
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
        ws, _ = issue_workspace(tmp_path_factory.mktemp("redaction") / "ws")
    return ws


def test_browser_shows_the_placeholder_and_search_finds_nothing_of_the_value(
    browser: object, browser_ws: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(browser_ws, out, "--scope", "public")
    base = out.resolve().as_uri() + "/"
    page = browser.new_page()
    page.goto(base + urls.note_url("memory/2026-03-04.md"))
    text = page.inner_text("main")
    assert "[redacted: S104]" in text and "Tom set up the staging VPN" in text and PASSPHRASE not in text
    # The same search finds the note by a word kept (also on the redacted line), nothing by the value.
    for query, found in (("gateway", True), ("passphrase", True), ("orchid", False)):
        page.goto(base + f"search.html?q={query}")
        page.wait_for_selector("body[data-search-ready]")  # set once the query's results are drawn
        main = page.inner_text("main")
        assert ("memory/2026-03-04.md" in main) is found, (query, main)
        assert PASSPHRASE not in main
    page.close()
