"""The renderer of a build: each page's bytes from the gathered inputs and what its plan decided,
through the page models (`models`) and the templates (`render`).

The planner (`pages`) decides which pages there are and keys each by the inputs it shows; a page
whose key changed is made here, from the blobs the build read for it. Nothing here reads git or
changes what the manifest keeps, so a forked worker can render notes, sources, snapshots and search
shards and send back the same bytes this process would make.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core import paths
from memgit.core.atomic import atomic_write
from memgit.site import concepts as site_concepts
from memgit.site import models, render, urls
from memgit.site.inputs import Inputs, entry_source

if TYPE_CHECKING:
    from memgit.site.markdown import Entry
    from memgit.site.reader import Entry as TreeEntry


def _title_heading(path: str, summary: models.Summary) -> Any:
    """The page's H1 when its title is not a heading of the text: the front matter's `title`,
    else the file's name without `.md`, as Obsidian shows a note (the path is in the line below)."""
    from markupsafe import Markup, escape

    from memgit.site.titles import file_title

    title = summary.title if summary.title_from == "front" else file_title(path)
    return Markup(f'<h1 class="page-title">{escape(title)}</h1>')


def _concept_picture(picture: list, labels: dict) -> Any:
    from memgit.site.svg import concept_map

    if not picture:
        return None
    text = "; ".join(f"{tag}: " + ", ".join(labels[p][0] for p in found) for tag, _, found in picture)
    return {"svg": concept_map(picture, labels, "Concepts and the notes that share them. " + text), "text": text}


class PageRenderer:
    """Makes the bytes of the pages one build plans, from its gathered inputs."""

    def __init__(self, inputs: Inputs) -> None:
        self.inputs = inputs
        #: The renderer's own Jinja environment: the workspace's templates run in Jinja's sandbox
        #: unless the person building trusts them (`render.environment`).
        jinja_cache = inputs.ws.data_dir / "site" / "jinja"
        self.env = render.environment(inputs.shipped, inputs.theme, jinja_cache, inputs.templates_mode)

    def context(self, page: str, **extra: Any) -> dict[str, Any]:
        nav = {
            name: urls.relative(page, target)
            for name, target in (
                ("home", urls.HOME),
                ("timeline", urls.TIMELINE),
                ("notes", urls.NOTES),
                ("search", urls.SEARCH),
                ("dreams", urls.DREAMS),
                ("concepts", urls.CONCEPTS),
            )
        }
        root = urls.relative(page, "x")[:-1]
        return {
            "site_title": self.inputs.cfg.title,
            "scope": self.inputs.scope,
            "nav": nav,
            "root": root,
            "page": page,
            "section": urls.section(page),
            "crumbs": [],
            "source_of": None,
            "canonical": self.inputs.base_url + page if self.inputs.base_url else "",
            **extra,
        }

    def render(self, template: str, page: str, **extra: Any) -> bytes:
        return render.render(self.env, template, self.context(page, **extra)).encode("utf-8")

    def crumbs(self, page: str, path: str) -> list[dict]:
        """Home > Timeline > November 2026 for a daily log, Home > Notes > folder for other notes."""
        day = paths.daily_log_day(path)
        crumbs = [{"label": "Home", "url": urls.relative(page, urls.HOME)}]
        if day is not None:
            month = day.strftime("%Y-%m")
            crumbs += [
                {"label": "Timeline", "url": urls.relative(page, urls.TIMELINE)},
                {"label": day.strftime("%B %Y"), "url": urls.relative(page, urls.month_url(month))},
            ]
        elif path.startswith(models.DREAMS_DIR):
            crumbs.append({"label": "Dreams", "url": urls.relative(page, urls.DREAMS)})
        else:
            crumbs.append({"label": "Notes", "url": urls.relative(page, urls.NOTES)})
        return crumbs

    def note(
        self, path: str, blob: str, rows: list[dict], snap_urls: dict[str, str], extra: dict, contents: dict[str, bytes]
    ) -> bytes:
        """A note's page: Markdown rendered, every source line an anchor, its history and extras."""
        url = urls.note_url(path)
        problem = self.inputs.records[path]["problem"]
        markdown = path.endswith(".md") and not problem
        source = urls.source_url(path) if markdown else None
        summary = self.inputs.summary(path)
        text, why = (None, problem) if problem else self.inputs.texts.text(contents, blob)
        ctx = models.note_context(path, text, why, models.history_rows(url, path, rows, snap_urls), url)
        body = None
        has_h1: Any = False
        if markdown and text is not None:
            from memgit.site.markdown import Renderer

            tags = set(summary.concepts) - self.inputs.template_tags
            renderer = Renderer(
                url,
                path,
                set(extra.get("links", [])) | {t for e in extra.get("embeds", []) for t in e[3]},
                lambda tag: urls.relative(url, urls.concept_url(tag)) if tag in tags else None,
                keep_h1=summary.title_from == "h1",
                images=dict(extra.get("images", [])),
                vault=self._vault_view(path, extra, contents),
            )
            promoted_lines = {n for a, b, _, _ in extra.get("promoted", []) for n in range(a, b + 1)}
            body = renderer.render(text, heat=dict(extra.get("heat", [])), marked=promoted_lines)
            has_h1 = renderer.title_html if renderer.has_h1 else _title_heading(path, summary)
        ctx.update(models.note_extras(url, path, extra, len(ctx["lines"])))
        return self.render(
            "note.html",
            url,
            note=ctx,
            body=body,
            has_h1=has_h1,
            title=models.note_title(path, summary),
            snapshot=None,
            source_url=urls.relative(url, source) if source else None,
            crumbs=self.crumbs(url, path),
        )

    def _vault_view(self, path: str, extra: dict, contents: dict[str, bytes]) -> Any:
        """Where the note's wikilinks lead (the planner resolved them) and the text of each note
        it embeds (read from this page's blobs, redacted as every shown text is)."""
        from memgit.site.markdown import VaultView

        resolved = {(path, target): hit for target, hit in extra.get("wiki", [])}
        blobs = {}
        for embedded, blob, wiki, _links in extra.get("embeds", []):
            blobs[embedded] = blob
            resolved.update({(embedded, target): hit for target, hit in wiki})

        def text(embedded: str) -> str | None:
            blob = blobs.get(embedded)
            return self.inputs.texts.text(contents, blob)[0] if blob in contents else None

        return VaultView(resolved, text)

    def source(self, path: str, blob: str, contents: dict[str, bytes]) -> bytes:
        """A Markdown note's numbered source lines, on a page of their own."""
        url, source = urls.note_url(path), urls.source_url(path)
        text, why = self.inputs.texts.text(contents, blob)
        ctx = models.note_context(path, text, why, [], source, url)
        return self.render(
            "note.html",
            source,
            note=ctx,
            body=None,
            has_h1=False,
            title=f"{models.note_title(path, self.inputs.summary(path))} (source)",
            snapshot=None,
            source_url=None,
            source_of=urls.relative(source, url),
            crumbs=self.crumbs(source, path),
        )

    def snapshot(
        self, url: str, commit: str, path: str, blob: str, current: str | None, contents: dict[str, bytes]
    ) -> bytes:
        text, why = self.inputs.texts.text(contents, blob)
        ctx = models.note_context(path, text, why, [], url, current)
        return self._snapshot_page(url, path, commit, ctx)

    def ref_snapshot(
        self, url: str, commit: str, path: str, lines: list[str], current: str | None, contents: dict[str, bytes]
    ) -> bytes:
        ctx = models.note_context(path, "\n".join(lines) + "\n", None, [], url, current)
        return self._snapshot_page(url, path, commit, ctx)

    def _snapshot_page(self, url: str, path: str, commit: str, ctx: dict) -> bytes:
        """A note as it was at a commit: its text without history, links or a source view."""
        return self.render(
            "note.html",
            url,
            note=ctx,
            body=None,
            has_h1=False,
            title=f"{path} at {commit[:7]}",
            snapshot={"commit": commit, "short": commit[:7]},
            source_url=None,
            crumbs=self.crumbs(url, path),
        )

    def home_plain(self, recent_rows: list[dict], counts: dict, contents: dict[str, bytes]) -> bytes:
        """The home page without MEMORY.md (a public site, or none in the tree)."""
        rows = [{**r, "url": urls.relative(urls.HOME, urls.note_url(r["path"]))} for r in recent_rows]
        return self.render("home.html", urls.HOME, memory=None, recent=rows, counts=counts, title=self.inputs.cfg.title)

    def home(self, home: dict[str, Any], recent_rows: list[dict], counts: dict, contents: dict[str, bytes]) -> bytes:
        """The home page: MEMORY.md rendered, one line of provenance under each entry. `home` holds
        what the planner gathered for it: the file's `blob`, its `log`, the `promotions` by key,
        who `written` each source and the words each supersede `superseded`."""
        from memgit.site.markdown import Renderer

        inputs = self.inputs
        text, problem = inputs.texts.text(contents, home["blob"])
        credits = self._memory_credits(text, home) if text is not None else {}
        renderer = Renderer(urls.HOME, "MEMORY.md", inputs.files, provenance=inputs.provenance, images=inputs.images)

        def annotate(entry: Entry) -> str:
            data = credits.get(entry.start)
            return render.render(self.env, "_provenance.html", {"prov": data}) if data else ""

        body = renderer.render(text, annotate) if text is not None else None
        rows = [{**r, "url": urls.relative(urls.HOME, urls.note_url(r["path"]))} for r in recent_rows]
        return self.render(
            "home.html",
            urls.HOME,
            memory={
                "html": body,
                "problem": problem,
                "has_h1": renderer.title_html if text is not None and renderer.has_h1 else False,
                "url": urls.relative(urls.HOME, urls.note_url("MEMORY.md")),
            },
            recent=rows,
            counts=counts,
            title=inputs.cfg.title,
        )

    def _memory_credits(self, text: str, home: dict[str, Any]) -> dict[int, dict]:
        """The one line of provenance under each MEMORY.md entry, by its first line: blame of the
        entry's own lines for a person's, the store's record for memgit's; repeated credits fold."""
        from memgit.site.markdown import entries

        inputs = self.inputs
        lines = models.source_lines(text)
        blame, infos = inputs.reads.memory_blame(home["blob"], home["log"])
        return models.fold_credits(
            [(e, self._annotation(e, blame, lines, infos, home)) for e in entries(text, inputs.provenance)],
            [n for n, line in enumerate(lines, start=1) if line.lstrip(" ").startswith("#")],
        )

    def _annotation(self, entry: Entry, blame: list[str], lines: list[str], infos: dict, home: dict[str, Any]) -> dict:
        """One entry's provenance as the one-line credit shows it."""
        lines_at, current_lines = self.inputs.ref_lines
        source = entry_source(entry)
        marker = entry.marker
        if marker is None:
            return {"marker": None, "blame": models.blame_summary(blame, lines, entry.start, entry.end, infos)}
        link = (
            models.provenance_link(source, current_lines, lines_at, urls.HOME, self.inputs.full_ids) if source else None
        )
        if link is not None and source is not None:
            link["label"] = models.source_label(source)
            link["ref"] = source.format()
        promo = home["promotions"].get(marker.key)
        commit = None
        if promo is not None:
            commit = {
                "short": promo["id"][:7],
                "id": promo["id"],
                "date": promo["date"],
                "url": urls.relative(urls.HOME, urls.DREAMS) + "#a-" + promo["id"][:7],
            }
        written = home["written"]
        return {
            "marker": {
                "key": marker.key,
                "score": marker.score,
                "promoted": marker.promoted or (promo or {}).get("date"),
                "source": link,
                "commit": commit,
                "written": written.get(source.format()) if source is not None and source.commit else None,
                "replaced": home["superseded"].get(promo["id"], "") if promo and promo["action"] == "supersede" else "",
            },
            "blame": None,
        }

    def timeline(self, contents: dict[str, bytes]) -> bytes:
        ctx = models.timeline_context({p: self.inputs.summary(p) for p in self.inputs.daily})
        return self.render("timeline.html", urls.TIMELINE, timeline=ctx, month=None, title="Timeline")

    def month(self, url: str, month: str, members: list[str], near: tuple, contents: dict[str, bytes]) -> bytes:
        days = models.months_of({p: self.inputs.summary(p) for p in members})[month]
        ctx = models.month_context(month, days, url, with_days=True)
        ctx["near"] = [
            {"label": models.month_label(m), "url": urls.relative(url, urls.month_url(m)), "rel": rel}
            for m, rel in zip(near, ("prev", "next"), strict=True)
            if m
        ]
        return self.render(
            "timeline.html",
            url,
            timeline=None,
            month=ctx,
            title=ctx["label"],
            crumbs=[
                {"label": "Home", "url": urls.relative(url, urls.HOME)},
                {"label": "Timeline", "url": urls.relative(url, urls.TIMELINE)},
            ],
        )

    def notes(self, contents: dict[str, bytes]) -> bytes:
        rows = [
            {
                "path": p,
                "url": urls.relative(urls.NOTES, urls.note_url(p)),
                "title": s.title or s.first,
                "problem": s.problem,
            }
            for p, s in ((p, self.inputs.summary(p)) for p in self.inputs.files)
        ]
        return self.render(
            "notes.html", urls.NOTES, groups=models.note_groups(rows), count=len(rows), title="All notes"
        )

    def concept_index(
        self, rows: list[dict], picture: list, labels: dict, extra: dict[str, Any], contents: dict[str, bytes]
    ) -> bytes:
        return self.render(
            "concepts.html",
            urls.CONCEPTS,
            concepts=rows,
            tag=None,
            places=[],
            title="Concepts",
            picture=_concept_picture(picture, labels),
            **extra,
        )

    def tag_page(self, url: str, tag: str, items: list[dict], contents: dict[str, bytes]) -> bytes:
        """A `#tag` no dream found: the places notes write it."""
        return self.render("concepts.html", url, concepts=[], tag=tag, places=items, title=f"#{tag}", dream=None)

    def concept_page(
        self,
        url: str,
        tag: str,
        items: list[dict],
        dream: dict[str, Any],
        concept: site_concepts.DreamConcept,
        blobs: dict[str, str],
        contents: dict[str, bytes],
    ) -> bytes:
        """A concept a dream found: its places are found again in the notes as they are now, from
        the blobs the build reads anyway (the key names those blobs)."""
        current = {}
        for path, blob in blobs.items():
            text = self.inputs.texts.text(contents, blob)[0]
            current[path] = models.source_lines(text) if text is not None else []
        found, gone = site_concepts.locate(concept.raw, current)
        shown = {
            "places": [
                {
                    "label": f"{p}:{a}" + (f"-{b}" if b > a else ""),
                    "text": text,
                    "url": urls.relative(url, urls.note_url(p) + urls.lines_anchor(a, b)),
                }
                for p, a, b, text in found[: site_concepts.MAX_PLACES]
            ],
            "more": max(0, len(found) - site_concepts.MAX_PLACES),
            "gone": gone,
        }
        title = f"#{tag}" if items else tag
        return self.render(
            "concepts.html", url, concepts=[], tag=tag, places=items, title=title, dream={**dream, **shown}
        )

    def shard(self, number: int, members: list[tuple[str, TreeEntry, str]], contents: dict[str, bytes]) -> bytes:
        """One shard of the search index (see search_index): the chunks of its files, re-chunking
        only the files whose blob or date changed since the shard's cache was written."""
        from memgit.site.search_index import shard_index
        from memgit.site.titles import result_heading

        inputs = self.inputs
        cache = self._shard_cache(number)
        kept: dict[str, list] = {}
        docs = []
        for path, entry, date in members:
            cached = cache.get(path)
            stamp = f"{entry.blob}:{date}"
            if cached is not None and cached[0] == stamp:
                file_docs = cached[1]
            else:
                text = inputs.texts.text(contents, entry.blob)[0]
                file_docs = models.search_docs(path, text, inputs.params, date) if text is not None else []
            kept[path] = [stamp, file_docs]
            title = inputs.records[path]["title"]  # a result is named by its document (titles)
            docs += [[*d[:5], result_heading(title, d[5]), *d[6:]] for d in file_docs]
        self._save_shard_cache(number, kept)
        body = json.dumps(shard_index(docs), ensure_ascii=True, separators=(",", ":"))
        # JSON.parse of a string literal is parsed faster than the same object as JavaScript.
        literal = body.replace("\\", "\\\\").replace("'", "\\'")
        return f"(window.memgitSearch = window.memgitSearch || []).push(JSON.parse('{literal}'));\n".encode()

    def _shard_cache_path(self, number: int) -> Path:
        """A shard's chunks per file (path -> [blob, docs]), so a one-file commit re-chunks one
        file, not the shard's hundred; keyed by everything else the chunks depend on."""
        return self.inputs.ws.data_dir / "site" / "search-docs" / f"{self.inputs.global_key[:16]}-{number:02d}.json"

    def _shard_cache(self, number: int) -> dict[str, list]:
        try:
            data = json.loads(self._shard_cache_path(number).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save_shard_cache(self, number: int, kept: dict[str, list]) -> None:
        path = self._shard_cache_path(number)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(
                path, json.dumps(kept, ensure_ascii=True, separators=(",", ":")).encode("utf-8"), durable=False
            )
        except OSError:
            pass  # a cache: the next build re-chunks what it cannot find

    def search_meta(self, shard_urls: list[str], contents: dict[str, bytes]) -> bytes:
        from memgit.core.text import STOP_WORDS

        meta = {"shards": shard_urls, "stop": sorted(STOP_WORDS)}
        return f"window.memgitSearchMeta = {json.dumps(meta, separators=(',', ':'))};\n".encode()

    def search(self, contents: dict[str, bytes]) -> bytes:
        return self.render("search.html", urls.SEARCH, title="Search")

    def dreams(self, reports: list[dict], actions: list[dict], contents: dict[str, bytes]) -> bytes:
        from memgit.site.svg import component_bars

        shown = [
            {
                **a,
                "bars": component_bars(
                    a["components"],
                    "Score components of "
                    + a["subject"]
                    + ": "
                    + ", ".join(f"{n} {v:.2f}" for n, v in a["components"]),
                ),
            }
            for a in actions
        ]
        return self.render("dreams.html", urls.DREAMS, reports=reports, actions=shown, title="Dreams")
