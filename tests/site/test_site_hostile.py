"""The site under hostile history: commit messages made to look like git's own output.

Each message is committed through `git commit` in a workspace with memgit's hooks installed
(`memgit init --hooks`), and the site is built in both scopes into a folder nested deep below a
parent the test watches. Nothing may appear or disappear outside the output folder, no row of a
note's history may come from a message, a hand-written commit with dreaming's trailers is no
promotion, and the real commit is shown with its real author and date.
"""

from __future__ import annotations

import marshal
import re
from pathlib import Path

import pytest

from memgit.site import manifest as manifest_mod
from memgit.site import urls
from tests.helpers import assert_clean_error, git, memgit, write
from tests.site.helpers import BM25, build, check_links, dream_commit

FAKE_ID = "0123456789abcdef0123456789abcdef01234567"
OTHER_FAKE = "89abcdef" * 5


def files_under(folder: Path, skip: tuple[Path, ...]) -> dict[str, float]:
    """Every file and folder under `folder` (files with their modification time), output folders
    and the folders above them (made for them) left out."""
    found: dict[str, float] = {}
    for path in folder.rglob("*"):
        if any(path.is_relative_to(s) or (path.is_dir() and s.is_relative_to(path)) for s in skip):
            continue
        found[path.relative_to(folder).as_posix()] = path.stat().st_mtime
    return found


def hostile_messages() -> list[str]:
    """Messages a person (or a poisoned agent) could commit: git's record and field separators
    followed by a fake id, a climbing path, a forged name and date; NUL-less lookalikes of a raw
    diff line; trailers that claim a promotion. Written for this test, not taken from the issue."""
    return [
        f"sort the grocery list\x1e{FAKE_ID}\x1fEve Intruder\x1f1999-12-31T23:59:59+00:00\x1fforged row one\x1f"
        f"\n:100644 100644 {OTHER_FAKE} {OTHER_FAKE} M\t../../../../../planted\n",
        f"tidy\x1f\x1e../../../../../planted-two\x1fEve Intruder\x1f1999-12-31T23:59:59+00:00\x1fforged row two\x1e"
        f"{OTHER_FAKE}\x1fEve Intruder\x1f1999-12-31\x1fforged row three",
        "remember the bike lock code place\n\nMemgit-Action: promote\nMemgit-Promotion: kbikelock01\n"
        f"Memgit-Source: memory/chores.md:3-3@{FAKE_ID}\nMemgit-Score: 0.99 (frequency=1.00 relevance=1.00)\n",
    ]


@pytest.fixture
def hostile_ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMGIT_EMBEDDING", "none")
    ws = tmp_path / "ws"
    proc = memgit(tmp_path, "init", "--hooks", str(ws), env=BM25)
    assert proc.returncode == 0, proc.stderr
    status = memgit(ws, "hooks", "status", "--json")
    assert '"memgit"' in status.stdout, status.stdout
    write(ws / "memory" / "chores.md", "# Chores\n\n- Buy oat milk\n- The bike lock code is in the drawer\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "chores")
    for number, message in enumerate(hostile_messages()):
        path = ws / "memory" / "chores.md"
        write(path, path.read_text() + f"- chore {number}\n")
        if "Memgit-Promotion" in message:  # the key is even in the store: still no dream branch
            write(
                ws / "memory" / ".dreams" / "entries.jsonl",
                '{"key": "kbikelock01", "action": "promote", "day": "2026-02-07"}\n',
            )
        git(ws, "add", "-A")
        git(ws, "commit", "-q", "-F", "-", input=message)
    return ws


def test_hostile_messages_write_nothing_outside_and_forge_no_row(hostile_ws: Path, tmp_path: Path) -> None:
    ws = hostile_ws
    real = git(ws, "log", "--format=%H %an %aI", "-3").split("\n")[:3]
    assert len(real) == 3 and all("Eve Intruder" not in r for r in real)
    watched = tmp_path / "out"
    outs = {scope: watched / "a" / "b" / "c" / f"site-{scope}" for scope in ("private", "public")}
    (watched / "a").mkdir(parents=True)
    write(watched / "a" / "keep.txt", "not the site's\n")
    before = files_under(tmp_path, tuple(outs.values()))
    for scope, out in outs.items():
        build(ws, out, "--scope", scope)
    # A rebuild after another hostile commit (its pages replace and remove older ones).
    write(ws / "memory" / "chores.md", "# Chores\n\n- Buy oat milk\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-F", "-", input=hostile_messages()[1])
    for scope, out in outs.items():
        build(ws, out, "--scope", scope)
    after = files_under(tmp_path, tuple(outs.values()))
    outside = {k: v for k, v in after.items() if not k.startswith(("ws/", "home"))}
    assert outside == {k: v for k, v in before.items() if not k.startswith(("ws/", "home"))}
    assert not list(tmp_path.rglob("planted*"))
    for scope, out in outs.items():
        assert check_links(out)[1] == [], scope
        for page in out.rglob("*"):
            assert page.resolve().is_relative_to(out.resolve())
        note = (out / urls.note_url("memory/chores.md")).read_text(encoding="utf-8")
        history = note[note.index('id="history-h"') :]
        found = re.findall(r"<li><code title=\"([^\"]*)\">[^<]*</code> (\S+) ([^:<]*): ", history)
        rows = [row[0] for row in found]
        # Every row is a real commit that touched the note, with git's own date and author: the
        # forged ids, names and dates are in no row's fields (only inside the real subject's text).
        log = git(ws, "log", "--format=%H %as", "--", "memory/chores.md").split("\n")
        real = {line.split(" ")[0]: line.split(" ")[1] for line in log if line}
        assert len(found) == history.count("<li>") and rows and set(rows) <= set(real)
        assert all((date, author) == (real[commit], "Test Author") for commit, date, author in found), found
        assert FAKE_ID not in rows and OTHER_FAKE not in rows
        # The real commit is there, its separators shown as visible escapes.
        assert git(ws, "rev-parse", "HEAD").strip() in rows
        assert "Test Author" in history and "tidy⟦U+001F⟧⟦U+001E⟧" in history
        assert "\x1e" not in note and "\x1f" not in note
        snaps = [p.relative_to(out).as_posix() for p in (out / "snap").rglob("*.html")] if scope == "private" else []
        assert all(re.fullmatch(r"snap/[0-9a-f]{12}/memory/chores\.html", s) for s in snaps), snaps
        dreams = (out / urls.DREAMS).read_text(encoding="utf-8")
        assert "kbikelock01" not in dreams and 'class="action ' not in dreams
        assert "remember the bike lock code place" not in (out / "index.html").read_text(encoding="utf-8")


def test_a_promotion_needs_a_merged_dream_branch_and_its_key_in_the_store(hostile_ws: Path, tmp_path: Path) -> None:
    ws = hostile_ws
    write(ws / "MEMORY.md", "# Memory\n\n- Oat milk, not cow's milk.\n")
    real = dream_commit(
        ws,
        "Promote: oat milk\n\nMemgit-Action: promote\nMemgit-Promotion: koatmilk001\n"
        "Memgit-Source: memory/chores.md:3-3\nMemgit-Score: 0.80 (frequency=0.50 relevance=0.90)\n",
        {"koatmilk001": "promote"},
    )
    # A dream branch nobody merged: its commit is not in the working branch at all.
    git(ws, "checkout", "-q", "-b", "memgit/dream/unmerged")
    write(ws / "memory" / "chores.md", (ws / "memory" / "chores.md").read_text() + "- unmerged\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "Promote: unmerged\n\nMemgit-Action: promote\nMemgit-Promotion: kunmerged01\n")
    git(ws, "checkout", "-q", "main")
    # A dream branch whose commit's key is not in the store, merged.
    write(ws / "memory" / "chores.md", (ws / "memory" / "chores.md").read_text() + "- no key\n")
    git(ws, "checkout", "-q", "-b", "memgit/dream/nokey")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "Promote: nokey\n\nMemgit-Action: promote\nMemgit-Promotion: knotstored1\n")
    git(ws, "checkout", "-q", "main")
    git(ws, "merge", "-q", "--ff-only", "memgit/dream/nokey")
    out = tmp_path / "site"
    build(ws, out)
    dreams = (out / urls.DREAMS).read_text(encoding="utf-8")
    assert dreams.count('class="action ') == 1 and f'id="a-{real[:7]}"' in dreams
    for key in ("kbikelock01", "kunmerged01", "knotstored1"):
        assert key not in dreams
    assert "Promote: oat milk" in dreams


def test_a_planted_manifest_or_linked_folder_is_refused_and_nothing_written(hostile_ws: Path, tmp_path: Path) -> None:
    ws = hostile_ws
    out = tmp_path / "deep" / "er" / "site"
    build(ws, out)
    victim = write(tmp_path / "deep" / "victim.html", "mine\n")
    # A manifest naming a page above the output folder: the next build would remove it as stale.
    path = manifest_mod.manifest_path(ws / ".git" / "memgit", str(out.resolve()))
    stored = marshal.loads(path.read_bytes())
    stored[1]["pages"]["../../victim.html"] = ["k", "d"]
    path.write_bytes(marshal.dumps(stored))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    write(ws / "memory" / "chores.md", "# Chores\n\n- Water the fern\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "fern")
    proc = memgit(ws, "site", "build", "-o", str(out), env=BM25)
    assert_clean_error(proc, "outside the output folder")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert victim.read_text() == "mine\n"
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    # A folder of the output replaced by a link to a folder elsewhere: refused, nothing written there.
    path.unlink()
    build(ws, out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    notes = out / "notes" / "memory"
    for page in notes.iterdir():
        page.unlink()
    notes.rmdir()
    notes.symlink_to(elsewhere, target_is_directory=True)
    write(ws / "memory" / "chores.md", "# Chores\n\n- Water the fern twice\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "fern again")
    proc = memgit(ws, "site", "build", "-o", str(out), env=BM25)
    assert_clean_error(proc, "does not lie inside the output folder")
    assert list(elsewhere.iterdir()) == []


def test_a_real_dreams_promotion_shows_and_a_copy_of_its_message_does_not(workspace: Path, tmp_path: Path) -> None:
    from tests.site.test_site_concepts import dreamt

    ran = dreamt(workspace)
    promoted = [c for c in ran["commits"] if "Memgit-Action: promote" in git(workspace, "log", "-1", "--format=%B", c)]
    assert promoted
    # Someone copies a promotion's whole message (trailers and all) onto a commit of their own.
    copied = git(workspace, "log", "-1", "--format=%B", promoted[0])
    write(workspace / "memory" / "2026-03-05.md", "# 2026-03-05\n\n- Watered the office ficus.\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-F", "-", input=copied)
    copy = git(workspace, "rev-parse", "HEAD").strip()
    out = tmp_path / "site"
    build(workspace, out)
    dreams = (out / urls.DREAMS).read_text(encoding="utf-8")
    shown = re.findall(r'<li class="action action-\w+" id="a-([0-9a-f]+)">', dreams)
    assert sorted(shown) == sorted(c[:7] for c in promoted) and copy[:7] not in shown
