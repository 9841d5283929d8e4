"""What a build tells about itself beyond its pages: the lines it redacted, what a public site
left out and why (both in the build's report), and the per-blob redactions the manifest keeps.

Read from the gathered inputs after the pages are made: redactions are found while texts are
shown, so these rows are complete only once every page that shows a text was rendered.
"""

from __future__ import annotations

from memgit.lint.redact import shown_path
from memgit.lint.rules import RULES_BY_CODE
from memgit.site.inputs import ZERO, Inputs


def redaction_rows(inputs: Inputs) -> list[dict]:
    """Every line the build redacted, once (`path`, `line`, `code`, `rule`, `commit`): the files
    as they are at the built commit (commit None), then lines only older versions the site
    shows still hold (the newest such commit), so the person knows what to fix and rotate."""
    rows: list[dict] = []
    seen: set[tuple[str, int, str]] = set()

    def add(path: str, hits: list[list], commit: str | None) -> None:
        for line, code in hits:
            if (path, line, code) not in seen:
                seen.add((path, line, code))
                rows.append(
                    {"path": path, "line": line, "code": code, "rule": RULES_BY_CODE[code].name, "commit": commit}
                )

    for path, code in inputs.secret_names.items():  # left out whole; its name shown redacted
        add(shown_path(path, inputs.texts.known), [[0, code]], None)
    for path, entry in inputs.files.items():
        add(path, inputs.texts.redactions.get(entry.blob, []), None)
    for path, entry in inputs.files.items():
        for row in inputs.logs.get(path, []):  # newest first, as the note's history lists them
            if row["blob"] not in (ZERO, entry.blob):
                add(path, inputs.texts.redactions.get(row["blob"], []), row["id"])
    for (path, commit), hits in sorted(inputs.ref_redactions.items()):
        add(path, hits, commit)
    return sorted(rows, key=lambda r: (r["commit"] is not None, r["path"], r["line"]))


def left_out_rows(inputs: Inputs) -> list[dict]:
    """What a public site leaves out, and why: private files, older versions of public notes
    (a line removed since may be what the owner meant to withdraw), and the subjects of commits
    that also changed a private file. Empty for a private site."""
    if inputs.scope != "public":
        return []
    rows: list[dict] = [  # a name holding a secret shown redacted, as everywhere in the build
        {"what": "file", "path": shown_path(p, inputs.texts.known), "commit": None, "why": "a private path"}
        for p in sorted(inputs.tree_files)
        if inputs.ws.is_memory_path(p) and inputs.hidden_path(p)
    ]
    for path, entry in inputs.files.items():
        for row in inputs.logs.get(path, []):
            if row.get("private"):
                rows.append(
                    {
                        "what": "subject",
                        "path": path,
                        "commit": row["id"],
                        "why": "the commit also changed private files",
                    }
                )
            if row["blob"] not in (ZERO, entry.blob):
                rows.append(
                    {
                        "what": "snapshot",
                        "path": path,
                        "commit": row["id"],
                        "why": "an older version of a public note",
                    }
                )
    return rows


def kept_redactions(inputs: Inputs) -> dict[str, list[list]]:
    """The per-blob redactions the manifest keeps: those of every blob a page of this build shows."""
    blobs = {e.blob for e in inputs.files.values()}
    blobs |= {row["blob"] for rows in inputs.logs.values() for row in rows}
    return {blob: hits for blob, hits in sorted(inputs.texts.redactions.items()) if blob in blobs}


def problem_rows(inputs: Inputs, refused: list[list[str]]) -> list[dict]:
    """What the repository made the build leave out or change, once each (`kind`, `path`, `why`):
    what gathering found, then what the template sandbox refused while this build or an earlier
    one with the same templates made pages (`refused`, [template and line, why])."""
    rows = [*inputs.problems, *({"kind": "template", "path": w, "why": y} for w, y in refused)]
    seen: set[tuple[str, str, str]] = set()
    out = []
    for row in rows:
        key = (row["kind"], row["path"], row["why"])
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out
