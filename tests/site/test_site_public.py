"""A public site publishes only what is public at every version, and says what it left out.

Inputs are this test's own: a public note from which a line is later removed, a commit that
changes a private file and a public note together, and text carrying invisible control characters.
"""

from __future__ import annotations

from pathlib import Path

from memgit.site import urls
from tests.helpers import commit_all, git, memgit, write
from tests.site.helpers import BM25, build, check_links, make_workspace

WITHDRAWN = "The landlord agreed to a rent of 1,450 for the Harbour Street flat"
PRIVATE_SUBJECT = "book the allergist and reshuffle the moving plan"


def every_text(out: Path) -> str:
    """All output files as text (pages, search shards, assets)."""
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in sorted(out.rglob("*")) if p.is_file())


def moving_workspace(root: Path) -> tuple[Path, str, str]:
    ws = make_workspace(
        root,
        {
            "memory/moving.md": f"# Moving\n\n- Boxes arrive on the 12th\n- {WITHDRAWN}\n- Movers booked\n",
            "USER.md": "# User\n\n- Allergic to cats\n",
        },
        "start the moving notes",
    )
    write(ws / "memory" / "moving.md", "# Moving\n\n- Boxes arrive on the 12th\n- Movers booked\n")
    withdrawn = commit_all(ws, "take the rent figure out")
    write(ws / "USER.md", "# User\n\n- Allergic to cats\n- Allergist on Friday\n")
    write(ws / "memory" / "moving.md", "# Moving\n\n- Boxes arrive on the 12th\n- Movers booked for Saturday\n")
    mixed = commit_all(ws, PRIVATE_SUBJECT)
    return ws, withdrawn, mixed


def test_public_scope_publishes_no_removed_line_no_private_subject_and_reports_both(tmp_path: Path) -> None:
    ws, withdrawn, mixed = moving_workspace(tmp_path / "ws")
    out = tmp_path / "public"
    report = build(ws, out, "--scope", "public")
    text = every_text(out)
    assert "1,450" not in text and "Harbour Street" not in text
    assert PRIVATE_SUBJECT not in text and "Allergi" not in text
    note = (out / urls.note_url("memory/moving.md")).read_text(encoding="utf-8")
    assert "a private change" in note and mixed[:7] in note
    assert "take the rent figure out" in note  # a commit that touched only public files keeps its subject
    assert not (out / "snap").exists() and check_links(out)[1] == []
    left = {(r["what"], r["path"], r["commit"]) for r in report["left_out"]}
    assert ("subject", "memory/moving.md", mixed) in left
    assert {r["commit"] for r in report["left_out"] if r["what"] == "snapshot"} == {
        git(ws, "rev-list", "--max-parents=0", "HEAD").strip(),
        withdrawn,
    }
    assert ("file", "USER.md", None) in left and all(r["why"] for r in report["left_out"])
    # The person reading the build's output sees the same, grouped by why.
    proc = memgit(ws, "site", "build", "-o", str(tmp_path / "public2"), "--scope", "public", env=BM25)
    assert proc.returncode == 0, proc.stderr
    assert "older versions of public notes left out" in proc.stdout and "a private change" in proc.stdout
    assert f"memory/moving.md @ {mixed[:10]}" in proc.stdout
    # The private site keeps them all.
    private = build(ws, tmp_path / "private")
    assert private["left_out"] == []
    private_note = (tmp_path / "private" / urls.note_url("memory/moving.md")).read_text(encoding="utf-8")
    assert PRIVATE_SUBJECT in private_note and (tmp_path / "private" / "snap").is_dir()


def test_hidden_characters_show_as_visible_escapes(tmp_path: Path) -> None:
    rlo, zwsp, tag_a = "\u202e", "\u200b", "\U000e0041"
    ws = make_workspace(
        tmp_path / "ws",
        {
            "memory/vendors.md": f"# Vendor {rlo}fdp.exe list\n\n- Pay the in{zwsp}voice to ACME{tag_a} only\n"
            "- Zwölf Äpfel, naïve café 👩‍💻 stay as they are\n",
        },
        f"vendors {rlo}gnp.pdf",
    )
    out = tmp_path / "site"
    build(ws, out)
    for page in ("notes/memory/vendors.html", "source/memory/vendors.html", "notes.html"):
        html = (out / page).read_text(encoding="utf-8")
        assert rlo not in html and zwsp not in html and tag_a not in html, page
        assert "⟦U+202E⟧" in html, page
    note = (out / "notes/memory/vendors.html").read_text(encoding="utf-8")
    assert "<title>Vendor ⟦U+202E⟧fdp.exe list" in note
    assert "in⟦U+200B⟧voice" in note and "ACME⟦U+E0041⟧" in note
    assert "vendors ⟦U+202E⟧gnp.pdf" in note  # a commit subject
    assert "Zwölf Äpfel, naïve café 👩‍💻" in note  # letters, accents, emoji joiners untouched
    shards = "".join(p.read_text() for p in (out / "assets" / "search").glob("*.js"))
    assert "\\u202e" not in shards.lower() and "U+202E" in shards and "U+200B" in shards


def test_images_are_copied_by_blob_and_a_public_site_takes_none_from_a_private_path(tmp_path: Path) -> None:
    from tests.site.test_site_reading import png

    ws = make_workspace(
        tmp_path / "ws",
        {
            "memory/kitchen.md": "# Kitchen\n\n![Shelf layout](pics/shelf.png)\n\n![Receipt](../sessions/receipt.png)\n"
            "![Remote](https://example.org/x.png) ![Missing](pics/none.png)\n",
            "memory/pics/shelf.png": png(8, 4),
            "sessions/receipt.png": png(6, 6),
        },
    )
    private, public = tmp_path / "private", tmp_path / "public"
    build(ws, private)
    build(ws, public, "--scope", "public")
    shelf = git(ws, "rev-parse", "HEAD:memory/pics/shelf.png").strip()
    receipt = git(ws, "rev-parse", "HEAD:sessions/receipt.png").strip()
    for out, copied in ((private, {shelf, receipt}), (public, {shelf})):
        found = {p.name.split(".")[0] for p in (out / "assets" / "img").iterdir()}
        assert found == {b[:20] for b in copied}, out
        note = (out / urls.note_url("memory/kitchen.md")).read_text(encoding="utf-8")
        assert note.count("<img ") == len(copied) and 'alt="Shelf layout"' in note
        assert "[image: Remote]" in note and "[image: Missing]" in note and "example.org/x.png" not in note
        assert check_links(out)[1] == []
    assert (private / "assets" / "img" / f"{shelf[:20]}.png").read_bytes() == png(8, 4)
    assert "[image: Receipt]" in (public / urls.note_url("memory/kitchen.md")).read_text(encoding="utf-8")
