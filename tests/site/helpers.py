"""Helpers for the memory-site tests: build through the real CLI, check links, read the output."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.helpers import commit_all, git, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none"}


def chromium_path() -> str | None:
    for candidate in (os.environ.get("MEMGIT_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def browser_session() -> Iterator[object]:
    """One Debian chromium (tests/site/conftest.py makes it a session fixture), or a skip saying why."""
    import pytest

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser tests skipped: playwright is not installed (pip install -e '.[dev]')")
    executable = chromium_path()
    if executable is None:
        pytest.skip("browser tests skipped: no chromium (apt-get install chromium, or set MEMGIT_CHROMIUM)")
    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield instance
        instance.close()


def build(ws: Path, out: Path, *args: str) -> dict:
    """`memgit site build -o OUT --json` in a subprocess; the report."""
    proc = memgit(ws, "site", "build", "-o", str(out), *args, "--json", env=BM25)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


def tree_bytes(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.ids: set[str] = set()
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if "id" in values and values["id"]:
            self.ids.add(values["id"] or "")
        for name, value in attrs:
            if name.startswith("on"):
                self.inline.append(f"<{tag} {name}=...>")
            if name in ("href", "src") and value is not None:
                self.links.append((tag, value))
        if tag == "script" and "src" not in values:
            self._in_script = True
        if tag in ("iframe", "object", "embed", "style"):
            self.inline.append(f"<{tag}>")
        if tag == "img" and "assets/img/" not in (values.get("src") or ""):  # only pictures the build copied
            self.inline.append(f"<img src={values.get('src')!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append("inline <script>")


def parse_page(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


LINE_RANGE = re.compile(r"^L(\d+)(?:-L(\d+))?$")


def check_links(out: Path) -> tuple[int, list[str]]:
    """Every internal link and `#L` anchor of every page resolves: (links checked, problems)."""
    pages = {p: parse_page(p) for p in sorted(out.rglob("*.html"))}
    problems: list[str] = []
    checked = 0
    for page, parsed in pages.items():
        problems += [f"{page.relative_to(out)}: {item}" for item in parsed.inline]
        for tag, link in parsed.links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https", "mailto"):
                continue
            if parts.scheme or parts.netloc:
                problems.append(f"{page.relative_to(out)}: non-http link {link!r} in <{tag}>")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            checked += 1
            if not target.is_file() or not target.is_relative_to(out.resolve()):
                problems.append(f"{page.relative_to(out)}: {link} -> missing {target}")
                continue
            if parts.fragment:
                ids = pages[target].ids if target in pages else parse_page(target).ids
                match = LINE_RANGE.match(parts.fragment)
                wanted = [f"L{match[1]}", f"L{match[2] or match[1]}"] if match else [parts.fragment]
                missing = [w for w in wanted if w not in ids]
                if missing:
                    problems.append(f"{page.relative_to(out)}: {link} -> no #{missing[0]}")
    return checked, problems


def dream_commit(ws: Path, message: str, records: dict[str, str], *args: str) -> str:
    """Commit everything as `memgit dream` does: on a dream branch (`memgit/dream/…`), each key
    with its action in the provenance store, then a report commit naming the run's base
    (`Memgit-Base`), merged into the branch it left (fast-forward). Only such commits are
    promotions to the site; the id of the (promotion) commit."""
    from memgit.core.paths import ENTRIES_PATH

    branch = git(ws, "rev-parse", "--abbrev-ref", "HEAD").strip()
    base = git(ws, "rev-parse", "HEAD").strip()
    dream = "memgit/dream/t-" + "-".join(sorted(records))
    git(ws, "checkout", "-q", "-b", dream)
    store = ws / ENTRIES_PATH
    old = store.read_text() if store.is_file() else ""
    lines = [json.dumps({"key": key, "action": action, "day": "2026-02-07"}) for key, action in records.items()]
    write(store, old + "".join(line + "\n" for line in lines))
    git(ws, "add", "-A")
    git(ws, "commit", "-q", *args, "-m", message)
    promotion = git(ws, "rev-parse", "HEAD").strip()
    report = f"dream report\n\nMemgit-Action: report\nMemgit-Base: {base}\n"
    git(ws, "commit", "-q", "--allow-empty", *args, "-m", report)
    git(ws, "checkout", "-q", branch)
    git(ws, "merge", "-q", "--ff-only", dream)
    return promotion


def make_workspace(root: Path, files: dict[str, str | bytes], message: str = "memory") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    for rel, text in files.items():
        path = root / rel
        if isinstance(text, bytes):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text)
        else:
            write(path, text)
    commit_all(root, message)
    return root


def module_identity(tmp_path_factory: pytest.TempPathFactory, name: str) -> dict[str, str]:
    """The pinned HOME and git identity of every test, for a module-scoped fixture (the autouse
    `hermetic_env` is function-scoped, so a module's shared workspace sets them itself)."""
    home = tmp_path_factory.mktemp(f"{name}-home")
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    return {
        "HOME": str(home),
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test Author",
        "GIT_AUTHOR_EMAIL": "author@example.invalid",
        "GIT_COMMITTER_NAME": "Test Committer",
        "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    }
