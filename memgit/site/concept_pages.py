"""The planner of the Concepts pages: `#tags` written in notes and the concepts dreaming found
(`site.concepts`), an index and one page a tag, keyed by exactly what they show.

What the concept pages read (the dreams' concepts files, each report's Themes line, MEMORY.md's
promoted concepts) is kept per blob in the manifest (`state`), so a rebuild after a commit to a
note reads that note, not every report, and a commit that touches none of them plans the pages
as they were.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from memgit.core import paths
from memgit.site import concepts as site_concepts
from memgit.site import models, urls
from memgit.site.concept_inputs import dream_paths, read_concept_inputs
from memgit.site.inputs import Inputs, input_key
from memgit.site.page_plan import Plan, unchanged
from memgit.site.renderer import PageRenderer

if TYPE_CHECKING:
    from memgit.site.manifest import Manifest


class ConceptPlanner:
    """The Concepts pages of one build, planned from its gathered inputs."""

    def __init__(self, inputs: Inputs, mf: Manifest, pages: PageRenderer) -> None:
        self.inputs = inputs
        self.mf = mf
        self.pages = pages
        #: What the manifest keeps for the next build's concept pages (set by `plans`).
        self.state: dict[str, Any] = {}

    def plans(self, present: set[str]) -> list[Plan]:
        """`#tags` written in notes and the concepts dreaming found (`site.concepts`), one page a tag.

        The key holds exactly what the pages show: the tagged files' summaries, the dreams' concepts
        files, the notes their places are in, the reports and MEMORY.md (private sites): a commit
        that touches none of them renders none of these pages."""
        tagged = [p for p in self.inputs.files if self.inputs.records[p]["concepts"]]
        old = self.mf.concepts
        named, fresh_docs = dream_paths(self.inputs, old.get("dreams") or {})
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
        if old.get("key") == key and all(u in present and u in self.mf.pages for u in old.get("urls", [])):
            self.state = {**old, "dreams": named}
            return [Plan(u, self.mf.pages[u][0], unchanged) for u in old["urls"]]
        docs, report_links, report_state, memory_state = read_concept_inputs(
            self.inputs, reports, memory, old, fresh_docs
        )
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
