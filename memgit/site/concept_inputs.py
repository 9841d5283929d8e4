"""What the Concepts pages read beyond the gathered inputs, read only when their key changed: the
dreams' concepts files, each dream report's Themes line and MEMORY.md's promoted concepts.

Lazy: a commit that touches none of these files reads none of them. The blobs are read through
the gatherer's page reader (`Inputs.reads`: nothing here opens git) and shown as every text is
(`Inputs.texts`). What is learnt is kept per blob in the manifest.
"""

from __future__ import annotations

from memgit.site import concepts as site_concepts
from memgit.site import models
from memgit.site.inputs import Inputs


def read_concept_inputs(
    inputs: Inputs, reports: dict[str, str], memory: str | None, old: dict, fresh_docs: dict[str, dict | None]
) -> tuple[list[dict], dict[str, tuple[str, int | None]], dict[str, list], dict[str, list]]:
    """The dreams' concepts documents (reports written before the concepts files count by their
    Themes line), each report's link, and MEMORY.md's promoted concepts. Reports' Themes lines
    and MEMORY.md's promoted entries are kept per blob in the manifest: a rebuild after a commit
    to a note reads that note, not every report, and parses no Markdown."""
    old_reports, old_memory = old.get("reports") or {}, old.get("memory") or {}
    memory_blob = inputs.files[memory].blob if memory else None
    wanted = {inputs.files[p].blob for p in reports.values()} - old_reports.keys()
    if memory_blob is not None:
        wanted |= {memory_blob} - old_memory.keys()
    wanted |= {e.blob for _, e in inputs.dream_concept_files} - fresh_docs.keys()
    texts = inputs.reads.blobs(sorted(wanted)) if wanted else {}
    docs = []
    for _, entry in inputs.dream_concept_files:
        doc = fresh_docs[entry.blob] if entry.blob in fresh_docs else site_concepts.parse_document(texts[entry.blob])
        if doc is not None:
            docs.append(doc)

    def lines_of(path: str) -> list[str]:
        text = inputs.texts.text(texts, inputs.files[path].blob)[0]
        return models.source_lines(text) if text is not None else []

    report_links: dict[str, tuple[str, int | None]] = {}
    report_state: dict[str, list] = {}
    for day, path in sorted(reports.items(), reverse=True):
        blob = inputs.files[path].blob
        if blob not in old_reports:
            line, found = site_concepts.report_themes("\n".join(lines_of(path)))
            old_reports = {**old_reports, blob: [line, [list(t) for t in found]]}
        line, themes = report_state[blob] = old_reports[blob]
        report_links[day] = (path, line)
        if day not in inputs.dream_concept_days:  # a report written before the concepts files
            docs.append({"day": day, "base": "", "themes": themes, "concepts": []})
    docs = sorted(docs, key=lambda doc: doc["day"], reverse=True)[: site_concepts.MAX_DREAMS]
    memory_state: dict[str, list] = {}
    if memory and memory_blob is not None:
        memory_state[memory_blob] = (
            old_memory[memory_blob] if memory_blob in old_memory else memory_concepts(lines_of(memory))
        )
    return docs, report_links, report_state, memory_state


def dream_paths(
    inputs: Inputs, cached: dict[str, list[str] | None]
) -> tuple[dict[str, list[str] | None], dict[str, dict | None]]:
    """The notes each of the newest dreams' concepts files names (blob -> paths, None when it is
    not a concepts file), kept in the manifest; and the files read to learn it, parsed. Only the
    paths are kept: the files themselves are read again when the concept pages are planned."""
    cached = {blob: paths for blob, paths in cached.items() if paths is None or isinstance(paths, list)}
    missing = sorted({e.blob for _, e in inputs.dream_concept_files} - cached.keys())
    fresh = inputs.reads.blobs(missing) if missing else {}
    docs = {blob: site_concepts.parse_document(data) for blob, data in fresh.items()}
    named = {}
    for _, entry in inputs.dream_concept_files:
        if entry.blob in cached:
            named[entry.blob] = cached[entry.blob]
        else:
            doc = docs[entry.blob]
            named[entry.blob] = (
                None if doc is None else sorted({place[0] for _, _, places in doc["concepts"] for place in places})
            )
    return named, docs


def memory_concepts(lines: list[str]) -> list[list]:
    """(start, end, concept tags) of the MEMORY.md entries memgit promoted (those with a marker)."""
    from memgit.dream.concepts import concept_tags
    from memgit.site.markdown import entries as parse_entries

    found = parse_entries("\n".join(lines) + "\n")
    return [
        [e.start, e.end, concept_tags("\n".join(lines[e.start - 1 : e.end]))] for e in found if e.marker is not None
    ]
