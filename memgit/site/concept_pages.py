"""The planner of the Concepts pages: `#tags` written in notes and the concepts dreaming found
(`site.concepts`), an index and one page a tag, keyed by exactly what they show.

What the concept pages read (the dreams' concepts files, each report's Themes line, MEMORY.md's
promoted concepts) is kept per blob in the manifest (`state`), so a rebuild after a commit to a
note reads that note, not every report, and a commit that touches none of them plans the pages
as they were.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from memgit.core import paths
from memgit.git import plumbing
from memgit.site import concepts as site_concepts
from memgit.site import models, urls
from memgit.site.inputs import Inputs, input_key
from memgit.site.page_plan import Plan, unchanged
from memgit.site.renderer import PageRenderer


class ConceptPlanner:
    """The Concepts pages of one build, planned from its gathered inputs."""

    def __init__(self, inputs: Inputs, pages: PageRenderer) -> None:
        self.inputs = inputs
        self.pages = pages
        #: What the manifest keeps for the next build's concept pages (set by `plans`).
        self.state: dict[str, Any] = {}

    def plans(self, present: set[str]) -> list[Plan]:
        """`#tags` written in notes and the concepts dreaming found (`site.concepts`), one page a tag.

        The key holds exactly what the pages show: the tagged files' summaries, the dreams' concepts
        files, the notes their places are in, the reports and MEMORY.md (private sites): a commit
        that touches none of them renders none of these pages."""
        tagged = [p for p in self.inputs.files if self.inputs.records[p]["concepts"]]
        old = self.inputs.mf.concepts
        named, fresh_docs = self._dream_paths(old.get("dreams") or {})
        private = self.inputs.scope == "private"
        readable = {p for p, e in self.inputs.files.items() if e.is_regular and not self.inputs.records[p]["problem"]}
        place_paths = sorted({path for found in named.values() for path in found or ()} & readable)
        reports: dict[str, str] = {}  # day -> report path, the newest ones
        if private:
            dated = ((day, p) for p in readable if p.startswith(models.DREAMS_DIR) and (day := paths.daily_date(p)))
            reports = dict(sorted(dated, reverse=True)[: site_concepts.MAX_DREAMS])
        memory = "MEMORY.md" if private and "MEMORY.md" in readable else None
        key = input_key(
            self.inputs.global_key,
            "concepts",
            [(p, self.inputs.records[p]["concepts"]) for p in tagged],
            [(p, e.blob) for p, e in self.inputs.dream_concept_files],
            [(p, self.inputs.files[p].blob) for p in place_paths],
            sorted((day, self.inputs.files[p].blob) for day, p in reports.items()),
            self.inputs.files[memory].blob if memory else None,
        )
        if old.get("key") == key and all(u in present and u in self.inputs.mf.pages for u in old.get("urls", [])):
            self.state = {**old, "dreams": named}
            return [Plan(u, self.inputs.mf.pages[u][0], unchanged) for u in old["urls"]]
        docs, report_links, report_state, memory_state = self._read_inputs(reports, memory, old, fresh_docs)
        memory_blob = self.inputs.files[memory].blob if memory else None
        dream = site_concepts.dream_concepts(
            docs, readable, memory_state.get(memory_blob or "", []), public=not private
        )
        index = models.concept_index({p: self.inputs.summary(p) for p in tagged})
        # A heading most files share (`[summary]: #summary` in an RFC template) is no concept.
        index = {tag: places for tag, places in index.items() if tag not in self.inputs.template_tags}
        dream = [c for c in dream if c.tag not in self.inputs.template_tags]
        plans = self._index_plan(index, dream, report_links)
        for tag in sorted(index.keys() | {c.tag for c in dream}):
            plans.append(
                self._page_plan(tag, index.get(tag, []), next((c for c in dream if c.tag == tag), None), report_links)
            )
        self.state = {
            "key": key,
            "urls": sorted(p.url for p in plans),
            "dreams": named,
            "reports": report_state,
            "memory": memory_state,
        }
        return plans

    def _read_inputs(
        self, reports: dict[str, str], memory: str | None, old: dict, fresh_docs: dict[str, dict | None]
    ) -> tuple[list[dict], dict[str, tuple[str, int | None]], dict[str, list], dict[str, list]]:
        """The dreams' concepts documents (reports written before the concepts files count by their
        Themes line), each report's link, and MEMORY.md's promoted concepts. Reports' Themes lines
        and MEMORY.md's promoted entries are kept per blob in the manifest: a rebuild after a commit
        to a note reads that note, not every report, and parses no Markdown."""
        old_reports, old_memory = old.get("reports") or {}, old.get("memory") or {}
        memory_blob = self.inputs.files[memory].blob if memory else None
        wanted = {self.inputs.files[p].blob for p in reports.values()} - old_reports.keys()
        if memory_blob is not None:
            wanted |= {memory_blob} - old_memory.keys()
        wanted |= {e.blob for _, e in self.inputs.dream_concept_files} - fresh_docs.keys()
        texts = plumbing.read_blobs(self.inputs.ws.root, sorted(wanted)) if wanted else {}
        docs = []
        for _, entry in self.inputs.dream_concept_files:
            doc = (
                fresh_docs[entry.blob] if entry.blob in fresh_docs else site_concepts.parse_document(texts[entry.blob])
            )
            if doc is not None:
                docs.append(doc)

        def lines_of(path: str) -> list[str]:
            text = self.inputs.text(texts, self.inputs.files[path].blob)[0]
            return models.source_lines(text) if text is not None else []

        report_links: dict[str, tuple[str, int | None]] = {}
        report_state: dict[str, list] = {}
        for day, path in sorted(reports.items(), reverse=True):
            blob = self.inputs.files[path].blob
            if blob not in old_reports:
                line, found = site_concepts.report_themes("\n".join(lines_of(path)))
                old_reports = {**old_reports, blob: [line, [list(t) for t in found]]}
            line, themes = report_state[blob] = old_reports[blob]
            report_links[day] = (path, line)
            if day not in self.inputs.dream_concept_days:  # a report written before the concepts files
                docs.append({"day": day, "base": "", "themes": themes, "concepts": []})
        docs = sorted(docs, key=lambda doc: doc["day"], reverse=True)[: site_concepts.MAX_DREAMS]
        memory_state: dict[str, list] = {}
        if memory and memory_blob is not None:
            memory_state[memory_blob] = (
                old_memory[memory_blob] if memory_blob in old_memory else self._memory_concepts(lines_of(memory))
            )
        return docs, report_links, report_state, memory_state

    def _dream_paths(
        self, cached: dict[str, list[str] | None]
    ) -> tuple[dict[str, list[str] | None], dict[str, dict | None]]:
        """The notes each of the newest dreams' concepts files names (blob -> paths, None when it is
        not a concepts file), kept in the manifest; and the files read to learn it, parsed. Only the
        paths are kept: the files themselves are read again when the concept pages are planned."""
        cached = {blob: paths for blob, paths in cached.items() if paths is None or isinstance(paths, list)}
        missing = sorted({e.blob for _, e in self.inputs.dream_concept_files} - cached.keys())
        fresh = plumbing.read_blobs(self.inputs.ws.root, missing) if missing else {}
        docs = {blob: site_concepts.parse_document(data) for blob, data in fresh.items()}
        named = {}
        for _, entry in self.inputs.dream_concept_files:
            if entry.blob in cached:
                named[entry.blob] = cached[entry.blob]
            else:
                doc = docs[entry.blob]
                named[entry.blob] = (
                    None if doc is None else sorted({place[0] for _, _, places in doc["concepts"] for place in places})
                )
        return named, docs

    def _memory_concepts(self, lines: list[str]) -> list[list]:
        """(start, end, concept tags) of the MEMORY.md entries memgit promoted (those with a marker)."""
        from memgit.dream.concepts import concept_tags
        from memgit.site.markdown import entries as parse_entries

        found = parse_entries("\n".join(lines) + "\n")
        return [
            [e.start, e.end, concept_tags("\n".join(lines[e.start - 1 : e.end]))] for e in found if e.marker is not None
        ]

    def _report_link(self, page: str, report_links: dict, day: str, anchored: bool) -> dict:
        path, line = report_links.get(day, (None, None))
        url = None
        if path is not None:
            url = urls.relative(
                page, urls.note_url(path) + (urls.lines_anchor(line, line) if anchored and line else "")
            )
        return {"day": day, "url": url}

    def _index_plan(self, index: dict, dream: list[site_concepts.DreamConcept], report_links: dict) -> list[Plan]:
        page = urls.CONCEPTS
        rows = [
            {"tag": tag, "url": urls.relative(page, urls.concept_url(tag)), "count": len(places)}
            for tag, places in index.items()
        ]
        private = self.inputs.scope == "private"
        themes = [
            {
                "tag": c.tag,
                "url": urls.relative(page, urls.concept_url(c.tag)),
                "strength": c.strength,
                "places": site_concepts.places_note(c),
                "days": [self._report_link(page, report_links, d, True) for d in c.theme_days],
            }
            for c in dream
            if c.theme_days and private
        ]
        found = [
            {
                "tag": c.tag,
                "url": urls.relative(page, urls.concept_url(c.tag)),
                "places": site_concepts.places_note(c),
                "memory": len(c.memory),
            }
            for c in dream
            if not (c.theme_days and private)
        ]
        shared: dict[str, set[str]] = {tag: {p for p, _ in places} for tag, places in index.items()}
        for c in dream:
            shared.setdefault(c.tag, set()).update(p for p, _, _, _ in c.raw if p in self.inputs.files)
        chosen = sorted(shared, key=lambda t: (-len(shared[t]), t))[:10]
        counts: dict[str, int] = {}
        for tag in chosen:
            for p in shared[tag]:
                counts[p] = counts.get(p, 0) + 1
        notes = sorted(counts, key=lambda p: (-counts[p], p))[:14]
        picture = [(t, urls.relative(page, urls.concept_url(t)), sorted(shared[t] & set(notes))) for t in chosen]
        picture = [row for row in picture if row[2]]
        labels = {p: (p.rsplit("/", 1)[-1].removesuffix(".md"), urls.relative(page, urls.note_url(p))) for p in notes}
        extra: dict[str, Any] = {"themes": themes, "found": found, "map": picture, "map_notes": labels}
        return [
            Plan(
                page,
                input_key(self.inputs.global_key, "concepts", rows, themes, found, picture, labels),
                partial(self.pages.concept_index, rows, picture, labels, extra),
            )
        ]

    def _page_plan(
        self, tag: str, places: list, concept: site_concepts.DreamConcept | None, report_links: dict
    ) -> Plan:
        url = urls.concept_url(tag)
        items = [
            {
                "path": p,
                "url": urls.relative(url, urls.note_url(p)),
                "lines": [(n, urls.relative(url, urls.note_url(p) + urls.lines_anchor(n, n))) for n in lines],
            }
            for p, lines in places
        ]
        if concept is None:
            return Plan(
                url,
                input_key(self.inputs.global_key, "concept", tag, items),
                partial(self.pages.tag_page, url, tag, items),
            )
        private = self.inputs.scope == "private"
        dream: dict[str, Any] = {
            "strength": concept.strength if private else None,
            "theme_days": [self._report_link(url, report_links, d, True) for d in concept.theme_days]
            if private
            else [],
            "found_days": [self._report_link(url, report_links, d, False) for d in concept.found_days]
            if private
            else [],
            "memory": [
                {
                    "label": f"MEMORY.md:{a}" + (f"-{b}" if b > a else ""),
                    "url": urls.relative(url, urls.note_url("MEMORY.md") + urls.lines_anchor(a, b)),
                }
                for a, b in concept.memory
            ],
        }
        # The places are found again in the notes when the page renders, from the blobs the build
        # reads anyway: the key names those blobs, so only the pages of a changed note re-render.
        blobs = {p: self.inputs.files[p].blob for p in sorted({place[0] for place in concept.raw})}
        return Plan(
            url,
            input_key(self.inputs.global_key, "concept", tag, items, dream, concept.raw, blobs),
            partial(self.pages.concept_page, url, tag, items, dream, concept, blobs),
            tuple(sorted(set(blobs.values()))),
        )
