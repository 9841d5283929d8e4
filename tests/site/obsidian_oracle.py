# Written for memgit's tests by a helper that never read memgit's code or tests, from Obsidian's
# help vault (obsidianmd/obsidian-help) and its own knowledge of Obsidian; kept as written (only
# this header and formatting added). tests/site/test_site_vault.py compares memgit's resolver
# with it.
"""Independent reference ("oracle") for how Obsidian resolves an internal link ``[[...]]``.

``resolve(link, source, files, aliases)`` returns the vault path of the file that
Obsidian opens for ``[[link]]`` written in the note ``source``, or ``None`` when the
link is unresolved.

Sources used
------------
* DOCS = the obsidianmd/obsidian-help repository (English help pages), cited by file
  and section.
* KNOWLEDGE = my knowledge of Obsidian: the app resolves every link through
  ``MetadataCache.getLinkpathDest(linkpath, sourcePath)`` (``getFirstLinkpathDest``
  takes its first result). I checked what I remembered against public
  transcriptions of that function from the shipped ``app.js``, and against public
  reports of ``getFirstLinkpathDest`` runs on Obsidian 1.13.7 (tie-breaks, aliases).
  The code below is my own restatement, not a copy.

Rules, applied in this order
----------------------------
Splitting the text between ``[[`` and ``]]``:

 1. ``\\|`` (the escaped pipe you must write in a table cell) is the display-text
    separator, the same as ``|``.
    [DOCS: "en/Editing and formatting/Advanced formatting syntax.md", § Tables,
    note "Vertical bars in tables"]
 2. Everything after the first ``|`` is display text and does not affect the target.
    [DOCS: "en/Linking notes and files/Internal links.md", § "Change the link display
    text"]
 3. Everything from the first ``#`` on (``#Heading``, ``#H1#H2``, ``#^blockid``) is a
    subpath and does not affect which file is chosen. ``#`` cannot occur in a linkable
    file name. [DOCS: Internal links.md, § "Link to a heading in a note", § "Link to a
    block in a note", note "Invalid characters"]
 4. Whitespace around the path part is trimmed (``[[ Note ]]`` is ``[[Note]]``).
    [KNOWLEDGE; UNSURE: Obsidian's parser trims the link target; I believe this
    also applies before a ``#``]

Resolving the path part (``getLinkpathDest``):

 5. An empty path (``[[#Heading]]``, ``[[#^id]]``, ``[[|x]]``) is the source note
    itself, if that note is a file in the vault. [DOCS: Internal links.md, "Linking to
    a heading within the same note"; KNOWLEDGE for the "must exist" detail, which
    otherwise falls through to the lookup below and normally finds nothing]
 6. Candidates are looked up by file *name* (last path segment, extension included),
    case-insensitively:
      * if the last segment of the link contains a ``.``, files with exactly that
        name are tried first (``[[pic.png]]``, ``[[Note.md]]``, ``[[Board.canvas]]``);
      * if that finds nothing (or there is no ``.``), ``.md`` is appended to the link
        and files with that name are the candidates (``[[Note]]`` -> ``Note.md``,
        ``[[v1.2]]`` -> ``v1.2.md``, ``[[Sketch.excalidraw]]`` ->
        ``Sketch.excalidraw.md``);
      * no candidates -> unresolved. So a non-Markdown file is never found without its
        extension (``[[pic]]`` does not find ``pic.png``), and ``.md`` is optional.
    [DOCS: Internal links.md, § "Supported formats for internal links" (``[[X]]`` ==
    ``[[X.md]]``) and § "Link to a file" ("links to file formats other than Markdown
    need to include a file extension"); KNOWLEDGE for the exact order]
 7. All path comparisons are case-insensitive. [KNOWLEDGE]
 8. A bare name with exactly one candidate resolves to it, wherever it is in the
    vault. [KNOWLEDGE; DOCS: Settings.md, "New link format" -> "Shortest path when
    possible"]
 9. A link starting with ``./`` or ``../`` is resolved against the source note's
    folder (``./`` = that folder, each ``../`` goes up one level; at the vault root
    ``../`` stays at the root). If a candidate has exactly that path, it wins.
    Otherwise resolution goes on with the joined path: rules 11-13 then use it,
    and rule 13 uses the folder reached by the ``../`` steps. Only leading ``./``/``../``
    are interpreted (``a/../b`` is literal).
    [KNOWLEDGE; DOCS: Settings.md, "New link format" -> "Relative path to file".
    UNSURE: that a failed relative link falls back to suffix matching with the
    joined path is a quirk of the code as I know it]
10. One leading ``/`` is dropped, so the path is read from the vault root.
11. A candidate whose full vault path equals the path (with ``.md`` if added in
    rule 6) wins outright, even over a same-named file beside the source note.
    E.g. ``[[Note]]`` is the root ``Note.md`` from anywhere, and
    ``[[Projects/Three laws of motion]]`` is that file.
    [DOCS: Internal links.md, "Folder paths start at the vault root"; KNOWLEDGE,
    consistent with reported 1.13.7 observations]
12. A link that started with ``/`` and did not match exactly is unresolved (no
    suffix matching). [KNOWLEDGE; UNSURE]
13. Otherwise (partial paths and duplicate names): every candidate whose lower-cased
    path ends with the lower-cased link path matches. This is a plain string
    suffix test, so ``[[b/Note]]`` also matches ``ab/Note.md``.
    [KNOWLEDGE; UNSURE about the ``ab/`` quirk, but it is what the code I know does]
    Matches whose path starts with the source note's folder (plain prefix, so
    subfolders count too; for a note at the root every file counts) come before the
    others. Within each group the shortest path string wins (length in UTF-16 code
    units, as JavaScript counts it). Files in an *ancestor* folder of the source get
    no preference. [KNOWLEDGE; consistent with reported 1.13.7 observations:
    "a/b/Note.md" beats "zzzz/Note.md" (not fewest segments), and own folder beats
    everything except an exact path]
    Ties of equal length: Obsidian keeps its internal file-index order (roughly
    the order files were loaded). I break them by plain path order.
    [UNSURE: my choice, to stay deterministic]
14. Front-matter ``aliases`` are NOT used to resolve links: ``[[AI]]`` does not
    open the note whose aliases contain "AI". It stays unresolved (clicking it
    would create a new note). Aliases only feed link suggestions, the quick switcher
    and unlinked mentions, so the ``aliases`` argument is accepted and ignored.
    [DOCS: "en/Linking notes and files/Aliases.md", § "Link to a note using an
    alias": Obsidian writes ``[[Artificial Intelligence|AI]]`` "rather than just using
    the alias as the link destination (``[[AI]]``)"; KNOWLEDGE, consistent with a
    public 1.13.7 report that a bare alias link is "(unresolved)". Obsidian
    *Publish* does fall back to aliases, but that is a separate resolver.]
15. Files or folders whose name starts with ``.`` (``.obsidian/``, ``.trash/``,
    ``.hidden.md``) are not part of the vault index and can never be link targets.
    [KNOWLEDGE; UNSURE only in that the caller may never pass such paths]
16. Link resolution does not depend on any setting: "New link format", "Use
    [[Wikilinks]]" and similar settings only change how new links are written.
    [DOCS: "en/User interface/Settings.md", § Files and links -> Links]
"""

from __future__ import annotations

__all__ = ["resolve", "parse_link", "link_candidates"]


def _basename(path: str) -> str:
    return path[path.rfind("/") + 1 :]


def _dirname(path: str) -> str:
    cut = path.rfind("/")
    return "" if cut < 0 else path[:cut]


def _js_length(text: str) -> int:
    """Length as JavaScript's ``String.length`` counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def _is_hidden(path: str) -> bool:
    return any(part.startswith(".") for part in path.split("/"))


def parse_link(link: str) -> tuple[str, str, str | None]:
    """Split the raw text between ``[[`` and ``]]`` into (path, subpath, display).

    ``path`` is trimmed; ``subpath`` keeps its leading ``#`` ("" if none);
    ``display`` is None when there is no ``|``.
    """
    text = link.replace("\\|", "|")  # rule 1
    target, bar, display = text.partition("|")  # rule 2
    path, hash_sign, rest = target.partition("#")  # rule 3
    subpath = hash_sign + rest
    return path.strip(), subpath, (display if bar else None)  # rule 4


def link_candidates(linkpath: str, source: str, files: list[str]) -> list[str]:
    """Every file Obsidian considers for ``linkpath``, best first (rules 5-13, 15).

    ``resolve`` returns the first item.
    """
    vault = [f for f in dict.fromkeys(files) if not _is_hidden(f)]  # rule 15

    # Rule 5: same-note links.
    if linkpath == "" and source and source in vault:
        return [source]

    # Rule 6: candidates by lower-cased file name (extension included).
    by_name: dict[str, list[str]] = {}
    for path in sorted(vault):  # sorted: deterministic order for ties (rule 13)
        by_name.setdefault(_basename(path).lower(), []).append(path)

    wanted = linkpath.lower()
    name = _basename(wanted)
    candidates: list[str] | None = by_name.get(name) if "." in name else None
    if not candidates:
        wanted = (linkpath + ".md").lower()
        name = _basename(wanted)
        candidates = by_name.get(name)
    if not candidates:
        return []

    # Rule 8: bare name, unique file.
    if name == wanted and len(candidates) == 1:
        return list(candidates)

    folder = _dirname(source).lower()

    # Rule 9: relative to the source note's folder.
    if wanted.startswith("./") or wanted.startswith("../"):
        if wanted.startswith("./../"):
            wanted = wanted[2:]
        if wanted.startswith("./"):
            if folder:
                folder += "/"
            wanted = folder + wanted[2:]
        else:
            while wanted.startswith("../"):
                wanted = wanted[3:]
                folder = _dirname(folder)
            if folder:
                folder += "/"
            wanted = folder + wanted
        for path in candidates:
            if path.lower() == wanted:
                return [path]

    # Rule 10: a leading "/" means "from the vault root".
    if wanted.startswith("/"):
        wanted = wanted[1:]

    # Rule 11: an exact vault path wins outright.
    for path in candidates:
        if path.lower() == wanted:
            return [path]

    # Rule 12: an absolute link that is not an exact path is unresolved.
    if linkpath.startswith("/"):
        return []

    # Rule 13: suffix matches; the source's folder first, then shortest path.
    near: list[str] = []
    far: list[str] = []
    for path in candidates:
        lowered = path.lower()
        if lowered.endswith(wanted):
            (near if lowered.startswith(folder) else far).append(path)
    near.sort(key=_js_length)  # stable: equal lengths keep the sorted order
    far.sort(key=_js_length)
    return near + far


def resolve(link: str, source: str, files: list[str], aliases: dict[str, list[str]]) -> str | None:
    """Where Obsidian's `[[link]]` in the note at vault path `source` leads.

    link:   the text between [[ and ]] exactly as written in the note (may include `#heading`,
            `#^blockid`, `|label`, a `.md` or other extension, a folder path, `\\|` as written in
            a table cell; may be just `#Heading` for a link inside the same note).
    source: the vault-relative path of the note containing the link, e.g. "Projects/Alpha/Ideas.md".
    files:  every file in the vault, vault-relative with forward slashes ("Attachments/pic.png", "Notes/A.md").
    aliases: note path -> the aliases in its front matter.
    Returns the vault-relative path of the file the link opens, or None when Obsidian finds no
    file (an unresolved link). The heading/block/label parts do not change which file it is.
    """
    del aliases  # rule 14: Obsidian's resolver never consults aliases
    linkpath, _subpath, _display = parse_link(link)
    found = link_candidates(linkpath, source, files)
    return found[0] if found else None


if __name__ == "__main__":
    VAULT = [
        "Home.md",
        "Note.md",
        "a/Note.md",
        "a/Src.md",
        "b/Note.md",
        "a/b/Note.md",
        "zzzz/Note.md",
        "Unique Note.md",
        "Projects/Alpha/Ideas.md",
        "Projects/Alpha/Plan.md",
        "Projects/Beta/Ideas.md",
        "Projects/Beta/Notes.md",
        "Attachments/pic.png",
        "Attachments/Report.pdf",
        "Board.canvas",
        "Drawings/Sketch.excalidraw.md",
        "Docs/v1.2.md",
        ".obsidian/workspace.json",
        ".hidden/Secret.md",
    ]
    ALIASES = {"Unique Note.md": ["UN", "The Unique One"]}
    checks = 0

    def check(link: str, source: str, expected: str | None, files: list[str] = VAULT) -> None:
        global checks
        got = resolve(link, source, files, ALIASES)
        assert got == expected, f"[[{link}]] in {source}: expected {expected!r}, got {got!r}"
        checks += 1

    # Rule 8 / 6 / 7: a bare name anywhere in the vault; case; optional .md
    check("Unique Note", "Projects/Alpha/Plan.md", "Unique Note.md")
    check("unique NOTE", "Projects/Alpha/Plan.md", "Unique Note.md")
    check("Unique Note.md", "Projects/Alpha/Plan.md", "Unique Note.md")
    check("Plan", "Home.md", "Projects/Alpha/Plan.md")
    # Rules 2-4: heading, block, label, escaped table pipe, whitespace
    check("Unique Note#Some heading|label", "Home.md", "Unique Note.md")
    check("Unique Note#^abc123", "Home.md", "Unique Note.md")
    check("Unique Note#H1#H2", "Home.md", "Unique Note.md")
    check("Unique Note\\|label", "Home.md", "Unique Note.md")
    check("Projects/Alpha/Plan#Goals\\|the plan", "Home.md", "Projects/Alpha/Plan.md")
    check(" Unique Note ", "Home.md", "Unique Note.md")
    # Rule 5: same-note links
    check("#Heading", "Projects/Alpha/Plan.md", "Projects/Alpha/Plan.md")
    check("#^blockid", "Projects/Alpha/Plan.md", "Projects/Alpha/Plan.md")
    check("#Heading\\|label", "Home.md", "Home.md")
    check("#Heading", "Not/In/Vault.md", None)
    # Rule 6: non-Markdown files need their extension; dotted names
    check("pic.png", "Projects/Alpha/Plan.md", "Attachments/pic.png")
    check("PIC.PNG", "Home.md", "Attachments/pic.png")
    check("pic", "Home.md", None)
    check("Report.pdf#page=3", "Home.md", "Attachments/Report.pdf")
    check("Board", "Home.md", None)
    check("Board.canvas", "Home.md", "Board.canvas")
    check("Sketch.excalidraw", "Home.md", "Drawings/Sketch.excalidraw.md")
    check("v1.2", "Home.md", "Docs/v1.2.md")
    # Rule 11: vault-root paths; an exact path beats a same-named file beside the source
    check("Projects/Beta/Ideas", "Projects/Alpha/Plan.md", "Projects/Beta/Ideas.md")
    check("Note", "a/Src.md", "Note.md")
    check("b/Note", "a/Src.md", "b/Note.md")
    # Rule 10 / 12: leading slash
    check("/Projects/Beta/Ideas", "Home.md", "Projects/Beta/Ideas.md")
    check("/Beta/Ideas", "Home.md", None)
    # Rule 13: partial paths, the source's own folder first, then shortest path
    check("Alpha/Ideas", "Home.md", "Projects/Alpha/Ideas.md")
    check("Beta/Ideas.md", "Home.md", "Projects/Beta/Ideas.md")
    check("Ideas", "Projects/Alpha/Plan.md", "Projects/Alpha/Ideas.md")
    check("Ideas", "Projects/Beta/Notes.md", "Projects/Beta/Ideas.md")
    check("Ideas", "Home.md", "Projects/Beta/Ideas.md")  # both "near"; shorter path
    NOTES = ["a/b/Note.md", "zzzz/Note.md", "b/Note.md"]
    check("Note", "zzzz/deep/Src.md", "b/Note.md", NOTES)  # ancestor folder: no bonus
    check("Note", "a/b/Src.md", "a/b/Note.md", NOTES)  # own folder wins
    check("Note", "zzzz/Src.md", "zzzz/Note.md", NOTES)
    check("Note", "zzzz/deep/Src.md", "a/b/Note.md", ["a/b/Note.md", "zzzz/Note.md"])
    check("b/Note", "Home.md", "ab/Note.md", ["ab/Note.md", "x/y/b/Note.md"])  # raw suffix
    check("N", "Home.md", "abc/N.md", ["\U0001f600\U0001f600/N.md", "abc/N.md"])  # UTF-16
    check("Note", "Home.md", "x/Note.md", ["y/Note.md", "x/Note.md"])  # tie: path order
    # Rule 9: relative paths
    check("./Plan", "Projects/Alpha/Ideas.md", "Projects/Alpha/Plan.md")
    check("../Beta/Ideas", "Projects/Alpha/Plan.md", "Projects/Beta/Ideas.md")
    check("./Ideas", "Projects/Beta/Notes.md", "Projects/Beta/Ideas.md")
    check("./../Alpha/Ideas#x", "Projects/Beta/Notes.md", "Projects/Alpha/Ideas.md")
    check("../../Unique Note", "Projects/Alpha/Plan.md", "Unique Note.md")
    check("./Plan", "Projects/Beta/Notes.md", None)
    # Rule 14: aliases never resolve a link
    check("UN", "Home.md", None)
    check("The Unique One", "Home.md", None)
    # Rule 15: hidden files are not in the vault
    check("Secret", "Home.md", None)
    check("workspace.json", "Home.md", None)
    # Unresolved
    check("Does not exist", "Home.md", None)
    check("Nowhere/Unique Note", "Home.md", None)
    assert parse_link("A/B#H#I\\|shown") == ("A/B", "#H#I", "shown")
    checks += 1
    print(f"obsidian_oracle: all {checks} self-checks passed")
