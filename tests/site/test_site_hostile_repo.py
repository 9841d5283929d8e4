"""The site of a hostile repository: everything a repository holds besides its history.

One repository is built here the way an agent, a teammate or a pull request could write it:
committed templates that reach for Python, symbolic links to files and folders outside (a link
named like a page, one in the assets, the CI checkout's `.git/config`, `/proc/self/environ`), a
note that is a link, names git allows and file systems do not (not UTF-8, 245 characters, two that
differ only by case, a Windows device, a folder named like a page), pictures whose bytes are HTML
or SVG, a provenance marker naming a deleted file that is no memory, invisible characters, a
`private_paths` folder and a pattern that matches nothing, a 1 MB table. Both scopes are built
through the CLI, in a fresh interpreter whose environment holds a sentinel: nothing may run,
nothing outside the repository may reach the output, nothing may be written outside the output
folder, and each problem must be one line of the report. Each test holds one line of the threat
model in docs/SECURITY.md ("The memory site and an untrusted repository").
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import assert_clean_error, commit_all, git, memgit, wait_until, write
from tests.site.helpers import BM25, tree_bytes

OUTSIDE = "OUTSIDE-THE-REPOSITORY-5e1f"  # in files beside the workspace
IN_GIT_CONFIG = "TOKEN-IN-GIT-CONFIG-9c2d"  # where a CI checkout keeps its token
IN_ENVIRONMENT = "SECRET-IN-THE-ENVIRONMENT-3b7a"  # in the build's environment
OLD_SECRET = "OLD-NON-MEMORY-FILE-41aa"  # in a deleted file a provenance marker names
LONG = "a" * 245
#: A 1x1 PNG: a real picture, published under its own type whatever it is called.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
)
HIDDEN = {
    "\u00ad": "soft hyphen",
    "\u3164": "Hangul filler",
    "\u115f": "Hangul choseong filler",
    "\u17b4": "Khmer inherent vowel",
    "\u200b": "zero-width space",
    "\u2065": "unassigned default-ignorable",
    "\U000e0041": "tag A",
    "\u0600": "Arabic number sign (Cf)",
}


_PEAK_PARENT = (
    "import os, subprocess, sys; p = subprocess.Popen(sys.argv[1:]); _, status, usage = os.wait4(p.pid, 0); "
    "sys.stderr.write(f'\\n{usage.ru_maxrss}\\n'); sys.exit(os.waitstatus_to_exitcode(status))"
)


def _build(ws: Path, out: Path, *args: str) -> tuple[dict, str, int]:
    """Build through the CLI: the JSON report, the human report (a second build, incremental,
    prints the same problems) and the first build's peak memory (kB)."""
    env = {**os.environ, **BM25, "MEMGIT_TEST_SENTINEL": IN_ENVIRONMENT, "MEMGIT_NO_PROGRESS": "1"}
    # A child started straight from this (large, long-lived) test worker inherits the worker's
    # high-water mark at exec (vfork shares its memory), so the count is taken by a small
    # Python parent that starts the build and reports the build's own peak on stderr's last line.
    build = [sys.executable, "-m", "memgit", "site", "build", "-o", str(out), *args, "--json"]
    proc = subprocess.run(
        [sys.executable, "-c", _PEAK_PARENT, *build],
        cwd=ws,
        env=env,
        capture_output=True,
    )
    *err_lines, peak_line = proc.stderr.decode(errors="replace").rstrip("\n").split("\n")
    err_text = "\n".join(err_lines)
    assert proc.returncode == 0 and "Traceback" not in err_text, err_text
    out_bytes = proc.stdout
    human = subprocess.run(
        [sys.executable, "-m", "memgit", "site", "build", "-o", str(out), *args],
        cwd=ws,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out_bytes), human.stdout, int(peak_line)


def _snapshot(folder: Path, skip: tuple[Path, ...]) -> dict[str, tuple[int, int]]:
    """Every path under `folder` with its size and modification time, `skip` left out."""
    found = {}
    for path in folder.rglob("*"):
        if any(path == s or path.is_relative_to(s) for s in skip):
            continue
        info = path.lstat()
        found[path.relative_to(folder).as_posix()] = (info.st_size, info.st_mtime_ns)
    return found


def make_hostile(root: Path) -> Path:
    outside = root / "outside"
    write(outside / "secret.md", f"# Outside\n\n{OUTSIDE}\n")
    write(outside / "folder" / "loot.txt", f"{OUTSIDE}\n")
    (outside / "pic.png").write_bytes(PNG)
    ws = root / "ws"
    assert memgit(root, "init", str(ws), env=BM25).returncode == 0
    with open(ws / ".git" / "config", "a") as handle:
        handle.write(f'[http]\n\textraheader = "AUTHORIZATION: basic {IN_GIT_CONFIG}"\n')
    theme = ws / ".memgit" / "templates"
    code = "{{ cycler.__init__.__globals__.os.popen('touch " + str(root / "ran-note") + "').read() }}"
    write(
        theme / "note.html",
        '{% extends "default/note.html" %}\n{% block main %}' + code + "{{ super() }}{% endblock %}\n",
    )
    write(
        theme / "timeline.html",
        '{% extends "default/timeline.html" %}\n{% block main %}'
        "{{ ''.__class__.__mro__[1].__subclasses__() }}{{ super() }}{% endblock %}\n",
    )
    write(theme / "static" / "site.css", "body { color: #123456; }\n")  # a theme still works
    (theme / "search.html").symlink_to(outside / "secret.md")  # a link named like a page
    (theme / "static" / "env.txt").symlink_to("/proc/self/environ")
    (theme / "static" / "gitconfig").symlink_to("../../../.git/config")
    (theme / "static" / "linked").symlink_to(outside / "folder")
    memory = ws / "memory"
    (memory / os.fsdecode(b"caf\xe9.md")).write_text("# Cafe\n\nNot UTF-8 in name only.\n")
    write(memory / f"{LONG}.md", "# Long\n\nA long name.\n")
    write(memory / "Notes.md", "# Upper\n\nUPPER-CASE-NOTE\n")
    write(memory / "notes.md", "# lower\n\nlower-case-note\n")
    write(memory / "con.md", "# Console\n\nA Windows device name.\n")
    write(memory / "x.html.md", "# Page\n\nA note named like a page.\n")
    write(memory / "x.html" / "y.md", "# Inside\n\nA folder named like a page.\n")
    write(memory / "people" / "ann.md", "# Ann\n\nANN-IS-PRIVATE\n")
    (memory / "link.md").symlink_to(outside / "secret.md")
    (memory / "linked.png").symlink_to(outside / "pic.png")
    (memory / "svg.png").write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert("svg")</script></svg>')
    (memory / "page.gif").write_text('<html><script>alert("html")</script></html>')
    (memory / "real.png").write_bytes(PNG)
    write(
        memory / "pics.md",
        "# Pictures\n\n![svg named png](svg.png) ![html named gif](page.gif) ![a real one](real.png) "
        "![a link](linked.png)\n",
    )
    hidden = " ".join(f"x{char}y" for char in HIDDEN)
    write(memory / "hidden.md", f"# Hidden{chr(0xAD)}title\n\n{hidden} vs e\ufe0fe\n\nkept: 👩\u200d💻 ❤\ufe0f\n")
    write(ws / "ops" / "token.txt", f"{OLD_SECRET}\n")
    cells = "|".join(f"h{j}" for j in range(30))
    rows = "\n".join("|" + "|".join(str((i * j) % 97) for j in range(30)) + "|" for i in range(11_500))
    write(memory / "table.md", f"# Table\n\n|{cells}|\n|{'|'.join('-' for _ in range(30))}|\n{rows}\n")
    old = commit_all(ws, "hostile memory")
    git(ws, "rm", "-q", "ops/token.txt")
    write(
        ws / "MEMORY.md",
        f"# Memory\n\n<!-- memgit:entry key=k1 source=ops/token.txt:1-1@{old} -->\n- A fact from no memory file.\n",
    )
    toml = (ws / "memgit.toml").read_text()
    write(ws / "memgit.toml", toml.replace("# private_paths = []", 'private_paths = ["memory/people", "typo/**"]'))
    commit_all(ws, "memory names a deleted file")
    return ws


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The hostile repository built in both scopes: reports, output trees, what changed around."""
    root = tmp_path_factory.mktemp("hostile")
    ws = make_hostile(root)
    skip = (root / "out-private", root / "out-public", ws / ".git" / "memgit")
    before = _snapshot(root, skip)
    built = {}
    for scope in ("private", "public"):
        report, human, peak = _build(ws, root / f"out-{scope}", "--scope", scope)
        built[scope] = {"report": report, "human": human, "peak_kb": peak, "tree": tree_bytes(root / f"out-{scope}")}
    return {"root": root, "ws": ws, "before": before, "after": _snapshot(root, skip), **built}


@pytest.mark.parametrize("scope", ["private", "public"])
def test_nothing_runs_nothing_outside_is_read_nothing_is_written_outside(hostile: dict, scope: str) -> None:
    root = hostile["root"]
    assert not (root / "ran-note").exists()  # the template's code never ran
    assert hostile["after"] == hostile["before"]  # nothing written, moved or removed outside the output
    for name, data in hostile[scope]["tree"].items():
        for sentinel in (OUTSIDE, IN_GIT_CONFIG, IN_ENVIRONMENT, OLD_SECRET):
            assert sentinel.encode() not in data, (sentinel, name)
    tree = hostile[scope]["tree"]
    assert not any(n.startswith(("assets/env", "assets/gitconfig", "assets/linked")) for n in tree)
    assert tree["assets/site.css"] == b"body { color: #123456; }\n"  # the theme's real asset is used
    report = hostile[scope]["report"]
    assert report["templates"] == "sandboxed"


def test_each_problem_is_one_line_of_the_report(hostile: dict) -> None:
    report, human = hostile["private"]["report"], hostile["private"]["human"]
    problems = {(p["kind"], p["path"]) for p in report["problems"]}
    assert len(problems) == len(report["problems"])  # once each
    for kind, path in [
        ("theme", ".memgit/templates/search.html"),
        ("theme", ".memgit/templates/static/env.txt"),
        ("theme", ".memgit/templates/static/gitconfig"),
        ("theme", ".memgit/templates/static/linked"),
        ("name", '"memory/caf\\351.md"'),
        ("name", f"memory/{LONG}.md"),
        ("name", "memory/Notes.md"),
        ("name", "memory/notes.md"),
        ("picture", "memory/svg.png"),
        ("picture", "memory/page.gif"),
        ("reference", "ops/token.txt"),
        ("config", "[site] private_paths 'typo/**'"),
    ]:
        assert (kind, path) in problems, (kind, path, sorted(problems))
    refused = [p for p in report["problems"] if p["kind"] == "template"]
    assert {p["path"].split(" line ")[0].rsplit("/", 1)[-1] for p in refused} == {"note.html", "timeline.html"}
    assert all("sandbox" in p["why"] for p in refused)
    head = re.search(r"^(\d+) things in the repository left out or renamed:$", human, re.M)
    assert head and int(head[1]) == len(report["problems"]), human
    lines = human[head.end() :].splitlines()[1 : 1 + len(report["problems"])]
    assert all(line.startswith("  ") and line.count("\n") == 0 for line in lines)
    assert "templates: the workspace's (.memgit/templates), rendered in Jinja's sandbox" in human


def test_every_name_gets_a_safe_unique_page_that_shows_its_real_name(hostile: dict) -> None:
    tree = hostile["private"]["tree"]
    pages = [n for n in tree if n.startswith("notes/")]
    assert len({n.casefold() for n in pages}) == len(pages)  # no two pages one file on macOS or Windows
    assert all(len(part.encode()) <= 255 for n in tree for part in n.split("/"))
    assert all(n.isascii() for n in tree)
    assert not any(part.split(".")[0].lower() in ("con", "nul", "aux", "prn") for n in pages for part in n.split("/"))

    def page_holding(words: str) -> str:
        found = [n for n in pages if words.encode() in tree[n]]
        assert len(found) == 1, (words, found)
        return tree[found[0]].decode()

    assert "memory/caf⟦0xE9⟧.md" in page_holding("Not UTF-8 in name only")
    assert f"memory/{LONG}.md" in page_holding("A long name")
    assert "UPPER-CASE-NOTE" not in page_holding("lower-case-note")
    assert "memory/Notes.md" in page_holding("UPPER-CASE-NOTE")
    page_holding("A Windows device name")
    page_holding("A folder named like a page")
    page_holding("A note named like a page")
    assert "not a regular file (symlink)" in tree["notes/memory/link.html"].decode()


def test_pictures_are_published_by_their_bytes(hostile: dict) -> None:
    tree = hostile["private"]["tree"]
    images = {n: d for n, d in tree.items() if n.startswith("assets/img/")}
    assert list(images.values()) == [PNG] and next(iter(images)).endswith(".png")
    page = next(d.decode() for n, d in tree.items() if n.startswith("notes/memory/pics"))
    assert page.count("<img ") == 1
    for alt in ("svg named png", "html named gif", "a link"):
        assert alt in page
    assert not any(
        b'alert("svg")' in d or b'alert("html")' in d for n, d in tree.items() if not n.startswith("source/")
    )


def test_every_invisible_character_is_shown(hostile: dict) -> None:
    tree = hostile["private"]["tree"]
    page = tree["notes/memory/hidden.html"].decode()
    shards = b"".join(d for n, d in tree.items() if n.startswith("assets/search/")).decode()
    for char in HIDDEN:
        escape = f"⟦U+{ord(char):04X}⟧"
        assert char not in page and escape in page, HIDDEN[char]
        # a shard holds JSON inside a JavaScript string: the escape's brackets are \\u27e6, \\u27e7
        assert char not in shards and f"\\\\u27e6U+{ord(char):04X}\\\\u27e7" in shards, HIDDEN[char]
    assert "e⟦U+FE0F⟧e" in page  # a variation selector after a letter varies nothing
    assert "Hidden⟦U+00AD⟧title" in re.search(r"<title>(.*?)</title>", page)[1]
    assert "👩\u200d💻" in page and "❤\ufe0f" in page  # an emoji's joiner and selector are kept


def test_a_private_folder_is_left_out_and_a_pattern_that_matches_nothing_warned(hostile: dict) -> None:
    public = hostile["public"]
    assert not any(b"ANN-IS-PRIVATE" in d for d in public["tree"].values())
    assert any(r["path"] == "memory/people/ann.md" for r in public["report"]["left_out"])
    assert any(p["kind"] == "config" and "typo/**" in p["path"] for p in public["report"]["problems"])
    assert any(b"ANN-IS-PRIVATE" in d for d in hostile["private"]["tree"].values())


def test_a_huge_table_note_builds_in_memory_bounded_by_its_page(hostile: dict) -> None:
    tree = hostile["private"]["tree"]
    page = tree["notes/memory/table.html"]
    assert b"shown as its text" in page and b'id="L11504"' in page
    # Before the cap, this note alone took ~570 MB (markdown-it's tokens, four a cell).
    assert hostile["private"]["peak_kb"] < 300_000, hostile["private"]["peak_kb"]


def test_a_theme_outside_the_work_tree_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "theme"
    write(outside / "note.html", f"{OUTSIDE}\n")
    write(outside / "static" / "site.css", f"/* {OUTSIDE} */\n")
    ws = tmp_path / "ws"
    assert memgit(tmp_path, "init", str(ws), env=BM25).returncode == 0
    write(ws / "memory" / "a.md", "# A\n\nA note.\n")
    toml = (ws / "memgit.toml").read_text()
    for setting in ("../theme", str(outside), "linked-theme"):
        if setting == "linked-theme" and not (ws / "linked-theme").exists():
            (ws / "linked-theme").symlink_to(outside)
        write(ws / "memgit.toml", toml.replace('# templates = ""', f"templates = {json.dumps(setting)}"))
        commit_all(ws, f"theme {setting}")
        report, human, _ = _build(ws, tmp_path / "out")
        assert report["templates"] == "shipped", setting
        assert any(p["kind"] == "theme" and "refused" in p["why"] for p in report["problems"]), report["problems"]
        assert not any(OUTSIDE.encode() in d for d in tree_bytes(tmp_path / "out").values()), setting


def test_output_inside_git_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert memgit(tmp_path, "init", str(ws), env=BM25).returncode == 0
    write(ws / "memory" / "a.md", "# A\n")
    commit_all(ws, "a")
    refs = git(ws, "for-each-ref")
    for target in (".git/site", ".git/refs/heads", ".git"):
        proc = memgit(ws, "site", "build", "-o", target, env=BM25)
        assert_clean_error(proc, ".git")
    assert git(ws, "for-each-ref") == refs and not (ws / ".git" / "site").exists()
    assert git(ws, "status", "--porcelain") == ""


def test_trusted_templates_run_outside_the_sandbox(tmp_path: Path) -> None:
    """What the sandbox stops is what --trust-templates allows: the person building decides."""
    ws = tmp_path / "ws"
    assert memgit(tmp_path, "init", str(ws), env=BM25).returncode == 0
    write(ws / "memory" / "a.md", "# A\n")
    write(
        ws / ".memgit" / "templates" / "note.html",
        '{% extends "default/note.html" %}{% block main %}<p id="kind">{{ note.__class__.__name__ }}</p>'
        "{{ super() }}{% endblock %}",
    )
    commit_all(ws, "a theme")
    sandboxed, _, _ = _build(ws, tmp_path / "sandboxed")
    assert 'id="kind"' not in (tmp_path / "sandboxed" / "notes" / "memory" / "a.html").read_text()
    assert [p["kind"] for p in sandboxed["problems"]] == ["template"]
    trusted, human, _ = _build(ws, tmp_path / "trusted", "--trust-templates")
    assert trusted["templates"] == "trusted" and trusted["problems"] == []
    assert '<p id="kind">dict</p>' in (tmp_path / "trusted" / "notes" / "memory" / "a.html").read_text()
    assert "trusted (--trust-templates): not sandboxed" in human


def _get(port: int, host: str | None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("GET", "/index.html", skip_host=True)
    if host is not None:
        conn.putheader("Host", host)
    conn.endheaders()
    answer = conn.getresponse()
    return answer.status, answer.read()


def test_site_serve_answers_only_its_own_address(tmp_path: Path) -> None:
    """A page elsewhere that points a name of its own at 127.0.0.1 (DNS rebinding) reads nothing:
    the request carries that name as its Host and is refused; the private site is never served
    on an address other machines reach without --expose-private."""
    ws = tmp_path / "ws"
    assert memgit(tmp_path, "init", str(ws), env=BM25).returncode == 0
    write(ws / "MEMORY.md", "# Memory\n\n- PRIVATE-FACT-SERVED\n")
    commit_all(ws, "memory")
    refused = memgit(ws, "site", "serve", "--host", "0.0.0.0", "--port", "0", env=BM25, timeout=60)
    assert_clean_error(refused, "--expose-private")
    env = {**os.environ, **BM25, "MEMGIT_NO_PROGRESS": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "memgit", "site", "serve", "--port", "0", "--interval", "5"],
        cwd=ws,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        said: list[str] = []

        def serving() -> bool:
            said.append(server.stderr.readline() if server.stderr else "")
            return "serving" in said[-1] or server.poll() is not None

        wait_until(serving, "site serve to listen")
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", said[-1])[1])
        status, body = _get(port, f"127.0.0.1:{port}")
        assert status == 200 and b"PRIVATE-FACT-SERVED" in body
        assert _get(port, f"localhost:{port}")[0] == 200
        for host in (f"attacker.example:{port}", "attacker.example", f"127.0.0.1.attacker.example:{port}", None):
            status, body = _get(port, host)
            assert status == 421 and b"PRIVATE-FACT-SERVED" not in body, host
    finally:
        server.terminate()
        server.wait(timeout=30)
