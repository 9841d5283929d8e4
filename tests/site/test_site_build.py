"""`memgit site build` end to end on real git repositories: pages, provenance, scope, incremental
rebuilds, determinism, links and bad input. The browser checks live in tests/site/test_site_browser.py."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from memgit.core.provenance import EntryMarker, SourceRef, format_trailers
from tests.helpers import REPO_ROOT, assert_clean_error, commit_all, git, memgit, write
from tests.site.helpers import BM25, build, check_links, dream_commit, make_workspace, tree_bytes

DAILY = "".join(f"- line {n} of the day: routine note number {n}.\n" for n in range(1, 21))
PROMOTED = [
    "- The Heron cutover window is Sunday 06:00 UTC.",
    "- Rollback means flipping the flag off.",
    "- Dana signs off the go/no-go.",
]


def daily_with_fact() -> str:
    lines = DAILY.splitlines()
    lines[9:12] = PROMOTED
    return "\n".join(lines) + "\n"


@pytest.fixture
def promoted(tmp_path: Path) -> tuple[Path, str, str]:
    """A workspace with a person's entry and a memgit promotion (marker + trailer commit)."""
    ws = make_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# Memory\n\n- The user prefers tea, written by hand.\n",
            "memory/2026-02-06.md": daily_with_fact(),
        },
        "first notes",
    )
    source_commit = git(ws, "rev-parse", "HEAD").strip()
    ref = SourceRef("memory/2026-02-06.md", 10, 12, source_commit)
    marker = EntryMarker("k3f2a9c01d", ref, 0.812, "2026-02-07")
    memory = (ws / "MEMORY.md").read_text() + f"\n{marker.format()}\n- Heron cuts over on Sunday at 06:00 UTC.\n"
    write(ws / "MEMORY.md", memory)
    trailers = format_trailers(
        {
            "Memgit-Promotion": marker.key,
            "Memgit-Source": ref.format(),
            "Memgit-Score": "0.812 (frequency=0.50 relevance=0.81 diversity=0.33)",
            "Memgit-Action": "promote",
        }
    )
    return ws, source_commit, dream_commit(ws, f"Promote: Heron cutover window\n\n{trailers}", {marker.key: "promote"})


def test_build_example_workspace_pages(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(REPO_ROOT / "examples" / "workspace", ws)
    git(ws, "init", "-q")
    commit_all(ws, "example memory")
    report = build(ws, tmp_path / "site")
    out = tmp_path / "site"
    assert report["incremental"] is False and report["written"] == report["pages"] > 10
    for page in (
        "index.html",
        "timeline.html",
        "notes.html",
        "search.html",
        "dreams.html",
        "concepts.html",
        "notes/MEMORY.html",
        "notes/memory/2026-11-23.html",
        "source/memory/2026-11-23.html",
        "assets/site.js",
        "assets/search/meta.js",
    ):
        assert (out / page).is_file(), page
    home = (out / "index.html").read_text()
    assert "Dana Okafor is the user's manager" in home
    # Hand-written entries name their commit once per section: three sections of two entries.
    assert home.count('class="prov prov-human"') == 3 and home.count("(the 2 entries above)") == 3
    assert "example memory" in home and home.count("<h1") == 1
    assert "<title>memgit memory</title>" in home
    timeline = (out / "timeline.html").read_text()
    assert "November 2026" in timeline and timeline.count('class="has-log"') == 5
    assert 'href="timeline/2026-11.html"' in timeline
    month = (out / "timeline" / "2026-11.html").read_text()
    days = month[month.index('<ul class="days">') :]
    assert days.index("2026-11-27") < days.index("2026-11-23") and "8 lines" in days
    assert "Heron: dry-run of the Postgres 16 upgrade on staging finished in 41 minutes." in days
    note = (out / "notes" / "memory" / "2026-11-23.html").read_text()
    assert 'id="L4"' in note and "dry-run of the Postgres 16 upgrade" in note and note.count("<h1") == 1
    assert 'rel="next" href="2026-11-24.html"' in note and 'rel="prev"' not in note
    source = (out / "source" / "memory" / "2026-11-23.html").read_text()
    assert re.search(r'<div id="L4">- Heron: dry-run', source)
    dreams = (out / "dreams.html").read_text()
    assert "There are no dreams yet" in dreams
    checked, problems = check_links(out)
    assert problems == [] and checked > 50


def test_provenance_links_to_lines_then_to_a_snapshot_when_they_change(
    tmp_path: Path, promoted: tuple[Path, str, str]
) -> None:
    ws, source_commit, promotion_commit = promoted
    out = tmp_path / "site"
    build(ws, out)
    home = (out / "index.html").read_text()
    managed = home[home.index('class="prov prov-managed"') :].split("</p>")[0]
    # One line: where from (as a person says it), written when, promoted when, in which commit, score.
    assert 'href="notes/memory/2026-02-06.html#L10-L12"' in managed and "the 2026-02-06 log, lines 10-12" in managed
    assert "prov-current" in managed and promotion_commit[:7] in managed and "score 0.81" in managed
    assert "promoted 2026-02-07" in managed and "written " in managed and "Test Author" in managed
    assert "changed since" not in home
    dreams = (out / "dreams.html").read_text()
    assert "promote" in dreams and "relevance 0.81" in dreams and promotion_commit[:7] in dreams
    assert f'id="a-{promotion_commit[:7]}"' in dreams and "<svg" in dreams
    assert 'href="notes/memory/2026-02-06.html#L10-L12"' in dreams

    # The source lines are rewritten after the promotion: the link now goes to the file as it was.
    lines = (ws / "memory" / "2026-02-06.md").read_text().splitlines()
    lines[9] = "- The cutover moved; see tomorrow."
    write(ws / "memory" / "2026-02-06.md", "\n".join(lines) + "\n")
    commit_all(ws, "rewrite the day")
    report = build(ws, out)
    assert report["incremental"] is True
    home = (out / "index.html").read_text()
    snap = f"snap/{source_commit[:12]}/memory/2026-02-06.html"
    assert f'href="{snap}#L10-L12"' in home and "changed since" in home
    assert 'class="prov-current" href="notes/memory/2026-02-06.html"' in home
    snapshot = (out / snap).read_text()
    assert "it has changed since" in snapshot and "Sunday 06:00 UTC" in snapshot
    assert re.search(r'<div id="L10">- The Heron cutover', snapshot)
    assert "../../../notes/memory/2026-02-06.html" in snapshot
    assert promotion_commit[:7] in home  # the promotion found in the last build is kept, not lost
    full = tmp_path / "full"
    build(ws, full)
    assert tree_bytes(full) == tree_bytes(out)  # the incremental rebuild equals a fresh one
    # The note's own history links to the note as it was before the rewrite.
    note = (out / "notes" / "memory" / "2026-02-06.html").read_text()
    assert f"../../snap/{source_commit[:12]}/memory/2026-02-06.html" in note and "rewrite the day" in note
    assert check_links(out)[1] == []


def test_public_scope_leaves_out_every_private_line(tmp_path: Path) -> None:
    private = {
        "MEMORY.md": "# Memory\n\n- Privateotter holds the vault code.\n- Secretwalrus is the user's nickname.\n",
        "USER.md": "# User\n\nPrivatefalcon likes sailing.\n",
        "sessions/2026-02-06-a.jsonl": '{"role": "user", "content": "Privatebadger transcript"}\n',
        "memory/dreams/2026-02-07.md": "# Dream\n\nPrivatemole promoted into MEMORY.md\n",
        "memory/secret/plan.md": "# Plan\n\nPrivatelynx project codename.\n",
    }
    public = {
        "memory/2026-02-06.md": "# 2026-02-06\n\n- Publicheron shipped #release\n",
        "memory/notes/ops.md": "# Ops\n\nPublicpelican runbook, see [plan](../secret/plan.md) and [memory](../../MEMORY.md).\n",
    }
    ws = make_workspace(
        tmp_path / "ws", {**private, **public, "memgit.toml": '[site]\nprivate_paths = ["memory/secret/**"]\n'}
    )
    out = tmp_path / "public"
    build(ws, out, "--scope", "public", "--base-url", "https://example.org/memory")
    files = tree_bytes(out)
    private_lines = [line for text in private.values() for line in text.splitlines() if len(line.strip()) > 8]
    private_words = ["Privateotter", "Secretwalrus", "Privatefalcon", "Privatebadger", "Privatemole", "Privatelynx"]
    for name, data in files.items():
        text = data.decode("utf-8", "replace")
        for needle in private_lines + private_words:
            assert needle not in text, f"{needle!r} leaked into {name}"
        assert "MEMORY.md" not in name and "USER" not in name and "sessions" not in name
    assert "Publicheron" in files["notes/memory/2026-02-06.html"].decode()
    ops = files["notes/memory/notes/ops.html"].decode()
    assert "Publicpelican" in ops
    assert not any("secret" in name or "dreams/" in name for name in files)
    assert '<link rel="canonical" href="https://example.org/memory/index.html">' in files["index.html"].decode()
    assert check_links(out)[1] == []
    # The private build of the same commit does hold them (the test would catch a leak).
    private_out = tmp_path / "private"
    build(ws, private_out)
    assert any("Privateotter" in d.decode("utf-8", "replace") for d in tree_bytes(private_out).values())


def test_incremental_rebuild_touches_only_dependent_pages_and_equals_full_build(tmp_path: Path) -> None:
    files = {
        f"memory/2026-01-{day:02d}.md": f"# 2026-01-{day:02d}\n\n- Entry of day {day} #daily\n" for day in range(1, 29)
    }
    files["MEMORY.md"] = "# Memory\n\n- A fact.\n"
    ws = make_workspace(tmp_path / "ws", files)
    out = tmp_path / "site"
    first = build(ws, out)
    before = {name: (out / name).stat().st_mtime_ns for name in tree_bytes(out)}
    again = build(ws, out)
    assert (again["rendered"], again["written"], again["removed"]) == (0, 0, 0)
    write(ws / "memory" / "2026-01-05.md", "# 2026-01-05\n\n- Entry of day 5 #daily\n- Incrementalkiwi added.\n")
    commit_all(ws, "one more line")
    report = build(ws, out)
    # One more page: the note as it was before this commit, linked from its history.
    assert report["incremental"] and report["pages"] == first["pages"] + 1
    changed = {name for name in tree_bytes(out) if (out / name).stat().st_mtime_ns != before.get(name)}
    assert "notes/memory/2026-01-05.html" in changed
    assert any(name.startswith("snap/") and name.endswith("memory/2026-01-05.html") for name in changed)
    assert not any(name.startswith("notes/memory/") for name in changed - {"notes/memory/2026-01-05.html"})
    # The note, its numbered source, the note as it was (linked from its history), its search
    # shard, its month page and the timeline (its lines-per-day picture).
    assert changed - {
        "notes/memory/2026-01-05.html",
        "source/memory/2026-01-05.html",
        "timeline/2026-01.html",
        "timeline.html",
    } <= {name for name in changed if name.startswith(("snap/", "assets/search/"))}, changed
    assert len(changed) == 6, changed
    assert report["written"] == len(changed)
    # Nothing else is even rendered: the notes list does not show a note's length.
    assert report["rendered"] == 6, report
    full = tmp_path / "full"
    build(ws, full)
    assert tree_bytes(full) == tree_bytes(out)
    # A deleted note removes its page.
    git(ws, "rm", "-q", "memory/2026-01-07.md")
    commit_all(ws, "drop a day")
    assert build(ws, out)["removed"] == 2  # its page and its numbered source
    assert not (out / "notes" / "memory" / "2026-01-07.html").exists()
    assert not (out / "source" / "memory" / "2026-01-07.html").exists()
    assert check_links(out)[1] == []


def test_a_damaged_or_foreign_manifest_means_a_full_build(tmp_path: Path) -> None:
    """The manifest is a cache (marshal, tagged with the Python version): garbage, an empty file
    or one of another format is ignored, and the build renders everything again, identically."""
    ws = make_workspace(
        tmp_path / "ws", {f"memory/2026-01-0{d}.md": f"# day {d}\n\n- Fact {d}.\n" for d in range(1, 6)}
    )
    out = tmp_path / "site"
    first = build(ws, out)
    expected = tree_bytes(out)
    [kept] = (ws / ".git" / "memgit" / "site").glob("*.manifest")
    for damage in (b"", b"\x00garbage" * 50, kept.read_bytes()[:-9], b"\xfb\x02\x00\x00\x00N"):
        kept.write_bytes(damage)
        again = build(ws, out)
        assert not again["incremental"] and again["rendered"] == first["pages"], damage[:12]
        assert tree_bytes(out) == expected
    assert build(ws, out)["rendered"] == 0  # and the manifest it wrote is used again


def test_output_is_deterministic(tmp_path: Path, promoted: tuple[Path, str, str]) -> None:
    ws, _, _ = promoted
    build(ws, tmp_path / "a")
    build(ws, tmp_path / "b")
    shutil.rmtree(ws / ".git" / "memgit")
    build(ws, tmp_path / "c")
    a, b, c = (tree_bytes(tmp_path / name) for name in "abc")
    assert a == b == c and len(a) > 20


def test_at_ref_builds_an_older_commit(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", {"memory/2026-01-01.md": "# one\n\n- Oldestfact.\n"})
    first = git(ws, "rev-parse", "HEAD").strip()
    write(ws / "memory" / "2026-01-02.md", "# two\n\n- Newerfact.\n")
    commit_all(ws, "second")
    report = build(ws, tmp_path / "old", "--at", first[:10])
    assert report["commit"] == first
    assert not (tmp_path / "old" / "notes" / "memory" / "2026-01-02.html").exists()
    assert_clean_error(
        memgit(ws, "site", "build", "-o", str(tmp_path / "x"), "--at", "no-such-ref", env=BM25), "names no commit"
    )


def test_odd_file_names(tmp_path: Path) -> None:
    names = [
        "memory/with space.md",
        "memory/hash#tag.md",
        "memory/what?.md",
        "memory/quote\"d'.md",
        "memory/ünïcödé 日本.md",
        "memory/a&b<c>.md",
    ]
    files = {name: f"# {name}\n\n- Oddnamefact in {name}.\n" for name in names}
    files["MEMORY.md"] = "- see [the spaced note](memory/with%20space.md#L3) and [a missing one](memory/nope.md)\n"
    ws = make_workspace(tmp_path / "ws", files)
    out = tmp_path / "site"
    build(ws, out)
    notes = (out / "notes.html").read_text()
    pages = sorted(p.name for p in (out / "notes" / "memory").iterdir())
    assert len(pages) == len(names) and all(re.fullmatch(r"[A-Za-z0-9._-]+", p) for p in pages)
    assert "ünïcödé 日本.md" in notes and "quote&#34;d&#39;.md" in notes and "a&amp;b&lt;c&gt;.md" in notes
    checked, problems = check_links(out)
    assert problems == [] and checked > 30
    space = next(p for p in pages if p.startswith("with-space"))
    other = (out / "notes" / "memory" / next(p for p in pages if p.startswith("hash-tag"))).read_text()
    assert "Oddnamefact in memory/hash#tag.md" in other
    home = (out / "index.html").read_text()  # a Markdown link to a note lands on its page and line
    assert f'href="notes/memory/{space}#L3"' in home and '<span class="dead-link">a missing one</span>' in home
    assert any(
        "memory/with space.md" in d.decode() for n, d in tree_bytes(out).items() if n.startswith("assets/search")
    )


def test_override_template_extends_the_default(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path / "ws",
        {
            "memory/2026-01-01.md": "# day\n\n- A fact.\n",
            ".memgit/templates/note.html": '{% extends "default/note.html" %}\n'
            '{% block main %}<p class="custom-banner">Team memory</p>{{ super() }}{% endblock %}\n',
        },
    )
    out = tmp_path / "site"
    build(ws, out)
    note = (out / "notes" / "memory" / "2026-01-01.html").read_text()
    assert '<p class="custom-banner">Team memory</p>' in note and 'id="L3"' in note
    # Changing the override rebuilds every page that uses it.
    write(
        ws / ".memgit" / "templates" / "note.html",
        '{% extends "default/note.html" %}\n{% block main %}<p class="custom-banner">Changed</p>{{ super() }}{% endblock %}\n',
    )
    report = build(ws, out)
    assert report["rendered"] == report["pages"]
    assert "Changed" in (out / "notes" / "memory" / "2026-01-01.html").read_text()


def test_templates_folder_from_config(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path / "ws",
        {
            "memory/2026-01-01.md": "# day\n\n- A fact.\n",
            "memgit.toml": '[site]\ntemplates = "site-theme"\ntitle = "Team memory"\n',
            "site-theme/base.html": '{% extends "default/base.html" %}{% block head %}<meta name="x-theme" content="team">'
            "{% endblock %}",
            "site-theme/static/site.css": "body { color: rebeccapurple; }\n",
        },
    )
    out = tmp_path / "site"
    build(ws, out)
    page = (out / "timeline.html").read_text()
    assert '<meta name="x-theme" content="team">' in page and "Team memory" in page
    assert (out / "assets" / "site.css").read_text() == "body { color: rebeccapurple; }\n"
    assert (out / "assets" / "site.js").is_file()  # the assets not overridden still ship


def test_broken_override_template_names_template_and_line(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path / "ws",
        {
            "memory/2026-01-01.md": "# day\n",
            ".memgit/templates/note.html": '{% extends "default/note.html" %}\n\n{% block main %}{{ oops( }}{% endblock %}\n',
        },
    )
    proc = memgit(ws, "site", "build", "-o", str(tmp_path / "site"), env=BM25)
    assert_clean_error(proc, "note.html line 3")
    write(
        ws / ".memgit" / "templates" / "note.html",
        '{% extends "default/note.html" %}\n{% block main %}\n{{ note.nothing_here.deeper }}\n{% endblock %}\n',
    )
    proc = memgit(ws, "site", "build", "-o", str(tmp_path / "site"), env=BM25)
    assert_clean_error(proc, "note.html line 3")


def test_bad_input_files_render_without_stopping_the_build(tmp_path: Path) -> None:
    long_line = "- " + "x" * (5 * 1024 * 1024) + "\n"
    ws = make_workspace(
        tmp_path / "ws",
        {
            "memory/broken.md": "# Broken *markdown [link](<unclosed\n\n```\nunclosed fence\n| a | b\n|--\n",
            "memory/long.md": long_line,
            "memory/latin1.md": "caf\xe9 au lait\n".encode("latin-1"),
            "memory/binary.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00binary",
            "MEMORY.md": "# Memory\n\n- <script>bad()</script> *unclosed **emphasis\n",
        },
    )
    (ws / "memory" / "link.md").symlink_to("../MEMORY.md")
    commit_all(ws, "a link")
    out = tmp_path / "site"
    build(ws, out)
    assert "not a regular file (symlink)" in (out / "notes" / "memory" / "link.html").read_text()
    assert "not valid UTF-8" in (out / "notes" / "memory" / "latin1.html").read_text()
    assert "binary file" in (out / "notes" / "memory" / "binary.html").read_text()
    assert "larger than" in (out / "notes" / "memory" / "long.html").read_text()
    assert "unclosed fence" in (out / "notes" / "memory" / "broken.html").read_text()
    home = (out / "index.html").read_text()
    assert "&lt;script&gt;bad()&lt;/script&gt;" in home and "<script>bad" not in home
    assert check_links(out)[1] == []
    # Raised limit: the 5 MB line is shown and indexed for search, capped.
    write(ws / "memgit.toml", "[memory]\nmax_file_bytes = 6000000\n")
    commit_all(ws, "raise the limit")
    build(ws, out)
    assert (out / "notes" / "memory" / "long.html").stat().st_size > 5 * 1024 * 1024


def test_output_folder_refusals(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", {"memory/2026-01-01.md": "# day\n"})
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "keep.txt").write_text("mine")
    for target, needle in (
        (tmp_path / "a-file", "is a file"),
        (ws, "work tree"),
        (ws / "site", "inside the workspace"),
        (ws / "memory", "inside the workspace"),
        (tmp_path, "contains the workspace"),
        (tmp_path / "foreign", "did not write"),
    ):
        assert_clean_error(memgit(ws, "site", "build", "-o", str(target), env=BM25), needle)
    assert (tmp_path / "foreign" / "keep.txt").read_text() == "mine"
    assert_clean_error(
        memgit(ws, "site", "build", "-o", str(tmp_path / "s"), "--base-url", "ftp://x", env=BM25), "--base-url"
    )
    assert_clean_error(memgit(ws, "site", "build", "-o", str(tmp_path / "s"), "--scope", "secret", env=BM25), "scope")


def test_workspace_with_no_commits(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    git(ws, "init", "-q")
    write(ws / "MEMORY.md", "# Memory\n")
    assert_clean_error(memgit(ws, "site", "build", "-o", str(tmp_path / "site"), env=BM25), "no commits")
    assert not (tmp_path / "site").exists()


def test_default_output_folder_and_human_output(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", {"memory/2026-01-01.md": "# day\n\n- A fact #alpha.\n"})
    proc = memgit(ws, "site", "build", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "site built:" in proc.stdout and str(tmp_path / "ws-site" / "index.html") in proc.stdout
    concept = (tmp_path / "ws-site" / "concepts" / "alpha.html").read_text()
    assert "../notes/memory/2026-01-01.html#L3" in concept
    assert "site updated:" in memgit(ws, "site", "build", env=BM25).stdout


def test_hand_written_entry_is_credited_to_its_own_commit(tmp_path: Path) -> None:
    """An entry a person wrote keeps its author's commit when a later commit (a dream, here) only
    adds the blank line after it and a promoted entry below: blame of the entry's own lines, blank
    and marker lines ignored, decides who wrote it."""
    ws = make_workspace(tmp_path / "ws", {"memory/2026-02-06.md": daily_with_fact()}, "first notes")
    write(ws / "MEMORY.md", "# Memory\n\n- Dana prefers written agendas.")  # no newline at the end
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "--author=Pat Person <pat@example.invalid>", "-m", "remember the agenda rule")
    person = git(ws, "rev-parse", "HEAD").strip()
    ref = SourceRef("memory/2026-02-06.md", 10, 10, git(ws, "rev-parse", "HEAD").strip())
    marker = EntryMarker("k1234567890", ref, 0.9, "2026-02-08")
    # The dream rewrites the last line (it adds the missing newline), then a blank and its entry.
    write(ws / "MEMORY.md", (ws / "MEMORY.md").read_text() + f"\n\n{marker.format()}\n- Heron cuts over Sunday.\n")
    dream_commit(
        ws,
        "dream: remember Heron\n\n"
        + format_trailers({"Memgit-Promotion": marker.key, "Memgit-Source": ref.format(), "Memgit-Action": "promote"}),
        {marker.key: "promote"},
        "--author=memgit dream <dream@example.invalid>",
    )
    out = tmp_path / "site"
    build(ws, out)
    home = (out / "index.html").read_text()
    human = home[home.index('class="prov prov-human"') :].split("</p>")[0]
    assert "Pat Person" in human and person[:7] in human and "remember the agenda rule" in human, human
    assert "memgit dream" not in human
    assert home.count('class="prov prov-human"') == 1 and home.count('class="prov prov-managed"') == 1


def test_big_build_renders_on_every_core_and_equals_one_process(tmp_path: Path) -> None:
    """Over 200 note pages render in forked workers; the bytes equal a one-process build."""
    files = {
        f"memory/2026-{1 + n // 28:02d}-{1 + n % 28:02d}.md": f"# Day {n}\n\n- fact {n} #tag{n % 5}\n"
        f"- see [the first day](2026-01-01.md)\n\n| a | b |\n|---|---|\n| {n} | x |\n"
        for n in range(120)
    }
    ws = make_workspace(tmp_path / "ws", files)
    forked = build(ws, tmp_path / "forked")
    proc = memgit(ws, "site", "build", "-o", str(tmp_path / "single"), "--json", env={**BM25, "MEMGIT_SITE_JOBS": "1"})
    assert proc.returncode == 0, proc.stderr
    assert forked["pages"] > 240
    assert tree_bytes(tmp_path / "forked") == tree_bytes(tmp_path / "single")


def test_an_update_shows_the_text_it_replaced(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", {"memory/2026-02-06.md": daily_with_fact()}, "first notes")
    source = git(ws, "rev-parse", "HEAD").strip()
    old = EntryMarker("kold0000001", SourceRef("memory/2026-02-06.md", 10, 10, source), 0.8, "2026-02-07")
    write(ws / "MEMORY.md", f"# Memory\n\n{old.format()}\n- Heron cuts over on Saturday.\n")
    dream_commit(
        ws,
        "dream: remember Heron\n\n"
        + format_trailers(
            {"Memgit-Action": "promote", "Memgit-Promotion": old.key, "Memgit-Source": old.source.format()}
        ),
        {old.key: "promote"},
    )
    new = EntryMarker(
        "knew0000002", SourceRef("memory/2026-02-06.md", 11, 11, source), 0.9, "2026-02-08", {"supersedes": old.key}
    )
    write(ws / "MEMORY.md", f"# Memory\n\n{new.format()}\n- Heron cuts over on Sunday.\n")
    dream_commit(
        ws,
        "dream: update Heron\n\n"
        + format_trailers(
            {
                "Memgit-Action": "supersede",
                "Memgit-Promotion": new.key,
                "Memgit-Source": new.source.format(),
                "Memgit-Supersedes": old.key,
            }
        ),
        {new.key: "supersede"},
    )
    out = tmp_path / "site"
    build(ws, out)
    home = (out / "index.html").read_text()
    line = home[home.index('class="prov prov-managed"') :].split("</p>")[0]
    assert "updated" in line and "replaces “Heron cuts over on Saturday.”" in line, line
    dreams = (out / "dreams.html").read_text()
    assert "Replaces “Heron cuts over on Saturday.”" in dreams and "replaces entry" not in dreams


def test_rebuild_after_a_new_day_and_a_new_link_equals_a_full_build(tmp_path: Path) -> None:
    """A new daily log changes the previous day's "next day" link; a new link changes its
    target's "linked from" list: pages of notes no commit touched are rendered again for it."""
    ws = make_workspace(
        tmp_path / "ws",
        {f"memory/2026-01-0{n}.md": f"# 2026-01-0{n}\n\n- day {n}\n" for n in range(1, 4)}
        | {"memory/topics/heron.md": "# Heron\n\n- plan\n"},
    )
    out = tmp_path / "site"
    build(ws, out)
    write(ws / "memory" / "2026-01-04.md", "# 2026-01-04\n\n- day 4, see [Heron](topics/heron.md)\n")
    commit_all(ws, "a new day")
    report = build(ws, out)
    assert report["incremental"]
    before = (out / "notes" / "memory" / "2026-01-03.html").read_text()
    assert 'rel="next" href="2026-01-04.html"' in before
    topic = (out / "notes" / "memory" / "topics" / "heron.html").read_text()
    assert "Linked from" in topic and "../2026-01-04.html" in topic
    full = tmp_path / "full"
    build(ws, full)
    assert tree_bytes(full) == tree_bytes(out)
    assert check_links(out)[1] == []


def _progress_workspace(root: Path) -> Path:
    return make_workspace(
        root, {f"memory/2026-01-{day:02d}.md": f"# Day {day}\n\n- fact {day}\n" for day in range(1, 29)}
    )


def test_progress_is_said_from_the_first_tick_off_a_terminal(tmp_path: Path) -> None:
    """Off a terminal (CI, a pipe) the build says what it is doing every few seconds on stderr
    (here every 0.02 s, `MEMGIT_PROGRESS_SECONDS`), and stdout stays the JSON report."""
    import json
    import subprocess
    import sys

    ws = _progress_workspace(tmp_path / "ws")
    env = {**__import__("os").environ, **BM25, "MEMGIT_PROGRESS_SECONDS": "0.02"}
    env.pop("MEMGIT_NO_PROGRESS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "memgit", "site", "build", "-o", str(tmp_path / "out"), "--json"],
        cwd=ws,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(proc.stdout)["pages"] > 28
    lines = proc.stderr.splitlines()
    assert lines and all(re.fullmatch(r"site: [a-z ]+( \d+/\d+)? \(\d+ s\)", line) for line in lines), lines
    assert "\r" not in proc.stderr


def test_progress_on_a_terminal_is_one_line_redrawn_with_counts(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    ws = _progress_workspace(tmp_path / "ws")
    env = {**os.environ, **BM25, "MEMGIT_SITE_JOBS": "1", "MEMGIT_PROGRESS_SECONDS": "0.01"}
    env.pop("MEMGIT_NO_PROGRESS", None)
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "memgit", "site", "build", "-o", str(tmp_path / "out"), "--json"],
        cwd=ws,
        env=env,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    said = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the build closed its end
            break
        if not chunk:
            break
        said += chunk
    assert proc.wait(timeout=300) == 0
    os.close(master)
    text = said.decode()
    if proc.stdout is not None:
        proc.stdout.close()
    drawn = [part.strip() for part in text.split("\r") if part.strip() and not part.startswith("\x1b[K")]
    assert drawn and all(re.fullmatch(r"site: [a-z ]+( \d+/\d+)? \(\d+ s\)", part) for part in drawn), text
    assert text.endswith("\r\x1b[K")  # the line is wiped when the build ends
    assert "\n" not in text.replace("\r\n", "")  # redrawn in place, never a line a tick
