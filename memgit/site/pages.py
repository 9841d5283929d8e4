"""The pages of the site: each planned with a key made of exactly the inputs it shows, and a
function that renders it from page models (`models`) through the templates (`render`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit.core import paths
from memgit.core.provenance import SourceRef, parse_reference
from memgit.errors import MemgitError
from memgit.git import history, plumbing
from memgit.site import concepts as site_concepts
from memgit.site import models, output, render, urls
from memgit.site.inputs import ZERO, Inputs, entry_source, input_key

if TYPE_CHECKING:
    from memgit.site.markdown import Entry

SHARDS = 32


@dataclass
class Plan:
    """One output file: its key (inputs it shows), the blobs it reads and how to make its bytes."""

    url: str
    key: str
    produce: Callable[[dict[str, bytes]], bytes]
    needs: tuple[str, ...] = ()


def _unchanged(contents: dict[str, bytes]) -> bytes:  # pragma: no cover - a carried page is never rendered
    raise MemgitError("internal error: a page kept from the last build was asked to render")


def _constant(data: bytes) -> Callable[[dict[str, bytes]], bytes]:
    """A page whose bytes are known already (a static asset): it reads no blob."""
    return lambda contents: data


def snapshot_links(path: str, blob: str, rows: list[dict], keep: int) -> dict[str, str]:
    """Commit -> the page showing the note after that commit: the note's own page for its current
    blob, else one snapshot page a blob (a revert or a rename lists a version again; its page is
    written once, named after its newest commit), for the `keep` newest past versions only."""
    out: dict[str, str] = {}
    by_blob: dict[str, str] = {blob: urls.note_url(path)}
    for row in rows:
        if row["blob"] == ZERO:
            continue
        url = by_blob.get(row["blob"])
        if url is None and len(by_blob) <= keep:
            url = by_blob[row["blob"]] = urls.snapshot_url(row["id"], path)
        if url is not None:
            out[row["id"]] = url
    return out


def _title_heading(summary: models.Summary) -> Any:
    """The page's H1 when its title is not a heading of the text (front matter `title`)."""
    if summary.title_from != "front":
        return False
    from markupsafe import Markup, escape

    return Markup(f'<h1 class="page-title">{escape(summary.title)}</h1>')


#: The largest picture a build copies into the site (bytes).
MAX_IMAGE = 5_000_000


def _image_suffix(path: str) -> str:
    dot = path.rfind(".")
    suffix = path[dot:].lower() if dot > path.rfind("/") else ""
    return suffix if suffix in models.IMAGE_TYPES else ""


def _blob_bytes(blob: str) -> Callable[[dict[str, bytes]], bytes]:
    """A copied file: the blob's bytes as they are."""
    return lambda contents: contents[blob]


def _concept_picture(picture: list, labels: dict) -> Any:
    from memgit.site.svg import concept_map

    if not picture:
        return None
    text = "; ".join(f"{tag}: " + ", ".join(labels[p][0] for p in found) for tag, _, found in picture)
    return {"svg": concept_map(picture, labels, "Concepts and the notes that share them. " + text), "text": text}


class Site(Inputs):
    """The pages one build makes from its inputs."""

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
            "site_title": self.cfg.title,
            "scope": self.scope,
            "nav": nav,
            "root": root,
            "page": page,
            "section": urls.section(page),
            "crumbs": [],
            "source_of": None,
            "canonical": self.base_url + page if self.base_url else "",
            **extra,
        }

    def _render(self, template: str, page: str, **extra: Any) -> bytes:
        return render.render(self.env, template, self.context(page, **extra)).encode("utf-8")

    def plan(self, present: set[str]) -> list[Plan]:
        plans: list[Plan] = []
        refs = self._memory_refs()
        refs += [a["source"] for a in self.actions if a["source"]]
        self.ref_lines = self._ref_lines(*self._ref_inputs(refs)[::-1]) if refs else ({}, {})
        # Snapshot addresses are made from full commit ids only: references may abbreviate them.
        self.full_ids = history.full_commit_ids(self.ws.root, {r.commit for r in refs if r.commit}) if refs else {}
        self.heat = self._heat()
        self.images = self._image_copies()
        extras = self._note_extras()
        snapshots: dict[str, tuple[str, str, str]] = {}  # url -> (commit, path, blob)
        self.by_path: dict[str, list] = {}
        self.carried: set[str] = set()
        for path, entry in self.files.items():
            digest = input_key(extras.get(path), self.global_key)
            carried = self._carry(path, entry, present, digest)
            if carried is not None:
                plans += carried
                continue
            rows = self.logs.get(path, [])
            valid = [row for row in rows if models.valid_commit_row(row)]
            # A public site publishes no older version: it may hold what the owner removed.
            keep = self.cfg.snapshots if self.scope == "private" else 0
            snap_urls = snapshot_links(path, entry.blob, valid, keep)
            for row in valid:
                url = snap_urls.get(row["id"])
                if url is not None and url.startswith("snap/") and url not in snapshots:
                    snapshots[url] = (row["id"], path, row["blob"])
            mine = self._note_plans(path, entry, rows, snap_urls, extras.get(path) or {})
            plans += mine
            own = {urls.note_url(path)} | {p.url for p in mine}
            self.by_path[path] = [entry.blob, sorted(set(snap_urls.values()) | own), digest]
        for url, (commit, path, blob) in sorted(snapshots.items()):
            plans.append(self._snapshot_plan(url, commit, path, blob))
        plans += self._home_plans(snapshots.keys() | self.carried)
        plans += self._timeline_plans()
        plans.append(self._notes_plan())
        plans += self._concept_plans(present)
        plans += self._search_plans()
        plans.append(self._dreams_plan())
        plans += self._static_plans()
        plans += [
            Plan(url, input_key("image", blob), _blob_bytes(blob), (blob,))
            for blob, url in sorted({(self.tree_files[p].blob, u) for p, u in self.images.items()})
        ]
        seen: dict[str, Plan] = {}
        for plan in plans:
            seen.setdefault(plan.url, plan)
        return sorted(seen.values(), key=lambda p: p.url)

    def _image_copies(self) -> dict[str, str]:
        """The images notes show (path -> where the build copies it): regular files of the tree,
        of a known picture type, at most MAX_IMAGE bytes, and on a public site only from paths a
        public site may show."""
        wanted = sorted(
            {t for p in self.files for t in self.records[p].get("links", []) if _image_suffix(t)}
            & self.tree_files.keys()
        )
        wanted = [
            p for p in wanted if self.tree_files[p].is_regular and (self.scope == "private" or not self.hidden_path(p))
        ]
        if not wanted:
            return {}
        with plumbing.BlobReader(self.ws.root) as reader:
            sizes = reader.sizes({self.tree_files[p].blob for p in wanted})
        return {
            p: urls.image_url(self.tree_files[p].blob, _image_suffix(p))
            for p in wanted
            if sizes.get(self.tree_files[p].blob, MAX_IMAGE + 1) <= MAX_IMAGE
        }

    def _note_extras(self) -> dict[str, dict]:
        """What a note's page shows beyond its own file: the previous and next daily log, the notes
        that link to it, its lines promoted into MEMORY.md, its recall heat. A note whose extras
        changed is planned again even when no commit touched it."""
        out: dict[str, dict] = {}
        daily = sorted(self.daily)
        for i, path in enumerate(daily):
            out.setdefault(path, {})["days"] = (
                daily[i - 1] if i else None,
                daily[i + 1] if i + 1 < len(daily) else None,
            )
        for path in self.files:
            for target in self.records[path].get("links", []):
                if target in self.files:
                    out.setdefault(target, {}).setdefault("linked", []).append(path)
            links = [t for t in self.records[path].get("links", []) if t in self.files]
            if links:
                out.setdefault(path, {})["links"] = links
            images = [[t, self.images[t]] for t in self.records[path].get("links", []) if t in self.images]
            if images:
                out.setdefault(path, {})["images"] = images
        if self.scope == "private" and "MEMORY.md" in self.files:
            for e in self._memory_entries():
                ref = parse_reference(e["ref"])
                if ref.path in self.files and ref.path != "MEMORY.md":
                    out.setdefault(ref.path, {}).setdefault("promoted", []).append(
                        [ref.start, ref.end, e["start"], e["text"]]
                    )
        for path, heat in self.heat.items():
            out.setdefault(path, {})["heat"] = sorted(heat.items())
        return out

    def _carry(self, path: str, entry: plumbing.Entry, present: set[str], digest: str) -> list[Plan] | None:
        """The pages of a note no commit touched since the last build, kept as they are; None when
        they must be planned again (touched, new, other extras, or a page missing from the output)."""
        if self.touched is None or path in self.touched:
            return None
        old = self.mf.by_path.get(path)
        if (
            not old
            or len(old) < 3
            or old[0] != entry.blob
            or old[2] != digest
            or not all(u in present and u in self.mf.pages for u in old[1])
        ):
            return None
        self.by_path[path] = old
        self.carried.update(old[1])
        return [Plan(u, self.mf.pages[u][0], _unchanged) for u in old[1]]

    def _crumbs(self, page: str, path: str) -> list[dict]:
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

    def _note_plans(
        self, path: str, entry: plumbing.Entry, rows: list[dict], snap_urls: dict[str, str], extra: dict
    ) -> list[Plan]:
        """A note's page (Markdown rendered, every source line an anchor) and, for Markdown, its
        numbered source lines on a page of their own."""
        url = urls.note_url(path)
        problem = self.records[path]["problem"]
        markdown = path.endswith(".md") and not problem
        source = urls.source_url(path) if markdown else None
        summary = self.summary(path)
        tags = set(summary.concepts) - self.template_tags
        title = models.note_title(path, summary)
        heading = _title_heading(summary)

        def produce(contents: dict[str, bytes]) -> bytes:
            text, why = (None, problem) if problem else self._text(contents, entry.blob)
            ctx = models.note_context(path, text, why, models.history_rows(url, path, rows, snap_urls), url)
            body = None
            has_h1: Any = False
            if markdown and text is not None:
                from memgit.site.markdown import Renderer

                renderer = Renderer(
                    url,
                    path,
                    set(extra.get("links", [])),
                    lambda tag: urls.relative(url, urls.concept_url(tag)) if tag in tags else None,
                    keep_h1=summary.title_from == "h1",
                    images=dict(extra.get("images", [])),
                )
                promoted_lines = {n for a, b, _, _ in extra.get("promoted", []) for n in range(a, b + 1)}
                body = renderer.render(text, heat=dict(extra.get("heat", [])), marked=promoted_lines)
                has_h1 = renderer.title_html if renderer.has_h1 else heading
            ctx.update(models.note_extras(url, path, extra, len(ctx["lines"])))
            return self._render(
                "note.html",
                url,
                note=ctx,
                body=body,
                has_h1=has_h1,
                title=title,
                snapshot=None,
                source_url=urls.relative(url, source) if source else None,
                crumbs=self._crumbs(url, path),
            )

        plans = [
            Plan(
                url,
                input_key(self.global_key, "note", path, entry.blob, rows, snap_urls, extra),
                produce,
                () if problem else (entry.blob,),
            )
        ]
        if source is not None:

            def produce_source(contents: dict[str, bytes]) -> bytes:
                text, why = self._text(contents, entry.blob)
                ctx = models.note_context(path, text, why, [], source, url)
                return self._render(
                    "note.html",
                    source,
                    note=ctx,
                    body=None,
                    has_h1=False,
                    title=f"{title} (source)",
                    snapshot=None,
                    source_url=None,
                    source_of=urls.relative(source, url),
                    crumbs=self._crumbs(source, path),
                )

            plans.append(
                Plan(source, input_key(self.global_key, "source", path, entry.blob), produce_source, (entry.blob,))
            )
        return plans

    def _snapshot_plan(self, url: str, commit: str, path: str, blob: str) -> Plan:
        current = urls.note_url(path) if path in self.files else None

        def produce(contents: dict[str, bytes]) -> bytes:
            text, why = self._text(contents, blob)
            ctx = models.note_context(path, text, why, [], url, current)
            return self._render_snapshot(url, path, commit, ctx)

        return Plan(url, input_key(self.global_key, "snap", commit, path, blob, current), produce, (blob,))

    def _home_plans(self, snapshots: set[str]) -> list[Plan]:
        recent = sorted(self.daily, reverse=True)[:7]
        recent_rows = [
            {"path": p, "day": day.isoformat(), "first": self.summary(p).first or self.summary(p).title}
            for p in recent
            if (day := paths.daily_log_day(p)) is not None
        ]
        counts = {"notes": len(self.files), "daily": len(self.daily)}
        memory = self.files.get("MEMORY.md")
        if self.scope != "private" or memory is None or not memory.is_regular:

            def produce_plain(contents: dict[str, bytes]) -> bytes:
                rows = [{**r, "url": urls.relative(urls.HOME, urls.note_url(r["path"]))} for r in recent_rows]
                return self._render(
                    "home.html", urls.HOME, memory=None, recent=rows, counts=counts, title=self.cfg.title
                )

            return [Plan(urls.HOME, input_key(self.global_key, "home", recent_rows, counts), produce_plain)]
        memory_log = self.logs.get("MEMORY.md", [])
        refs = self._memory_refs()
        current_blobs, at_pairs = self._ref_inputs(refs)
        written = self._written(refs)
        superseded = self._superseded()
        key = input_key(
            self.global_key,
            "home",
            memory.blob,
            self.store_blob,
            memory_log,
            current_blobs,
            at_pairs,
            [(a["id"], a["date"]) for a in self.actions],
            recent_rows,
            counts,
            written,
            superseded,
            sorted(self.images.items()),
        )
        plans = self._changed_source_plans(at_pairs, snapshots)
        promotions: dict[str, dict] = {}
        for action in self.actions:  # newest first: the newest commit for a key wins
            if action["key"]:
                promotions.setdefault(action["key"], action)

        def produce(contents: dict[str, bytes]) -> bytes:
            from memgit.site.markdown import Renderer

            text, problem = self._text(contents, memory.blob)
            credits = (
                self._memory_credits(text, memory.blob, memory_log, promotions, written, superseded)
                if text is not None
                else {}
            )
            renderer = Renderer(urls.HOME, "MEMORY.md", self.files, provenance=self.provenance, images=self.images)

            def annotate(entry: Entry) -> str:
                data = credits.get(entry.start)
                return render.render(self.env, "_provenance.html", {"prov": data}) if data else ""

            body = renderer.render(text, annotate) if text is not None else None
            rows = [{**r, "url": urls.relative(urls.HOME, urls.note_url(r["path"]))} for r in recent_rows]
            return self._render(
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
                title=self.cfg.title,
            )

        plans.append(Plan(urls.HOME, key, produce, (memory.blob,)))
        return plans

    def _changed_source_plans(self, at_pairs: list[tuple[str, str]], snapshots: set[str]) -> list[Plan]:
        """A snapshot page for each source a promoted entry names whose lines read differently at
        HEAD than at the commit the reference names (its provenance link lands there)."""
        plans: list[Plan] = []
        lines_at, current_lines = self.ref_lines
        for commit, path in at_pairs:
            old = lines_at.get((commit, path))
            full = self.full_ids.get(commit, commit)
            if old is not None and current_lines.get(path) != old and urls.is_object_id(full):
                url = urls.snapshot_url(full, path)
                if url not in snapshots:
                    plans.append(self._ref_snapshot_plan(url, commit, path, old))
        return plans

    def _memory_credits(
        self,
        text: str,
        blob: str,
        memory_log: list[dict],
        promotions: dict[str, dict],
        written: dict[str, dict],
        superseded: dict[str, str],
    ) -> dict[int, dict]:
        """The one line of provenance under each MEMORY.md entry, by its first line: blame of the
        entry's own lines for a person's, the store's record for memgit's; repeated credits fold."""
        from memgit.site.markdown import entries

        lines = models.source_lines(text)
        blame = self._memory_blame(blob, memory_log)
        infos = {
            c["id"]: c
            for c in self.subjects(
                [dataclasses.asdict(c) for c in history.commits_info(self.ws.root, set(blame)).values()]
            )
        }
        return models.fold_credits(
            [
                (e, self._annotation(e, blame, lines, infos, promotions, written, superseded))
                for e in entries(text, self.provenance)
            ],
            [n for n, line in enumerate(lines, start=1) if line.lstrip(" ").startswith("#")],
        )

    def _render_snapshot(self, url: str, path: str, commit: str, ctx: dict) -> bytes:
        """A note as it was at a commit: its text without history, links or a source view."""
        return self._render(
            "note.html",
            url,
            note=ctx,
            body=None,
            has_h1=False,
            title=f"{path} at {commit[:7]}",
            snapshot={"commit": commit, "short": commit[:7]},
            source_url=None,
            crumbs=self._crumbs(url, path),
        )

    def _ref_snapshot_plan(self, url: str, commit: str, path: str, lines: list[str]) -> Plan:
        current = urls.note_url(path) if path in self.files else None

        def produce(contents: dict[str, bytes]) -> bytes:
            ctx = models.note_context(path, "\n".join(lines) + "\n", None, [], url, current)
            return self._render_snapshot(url, path, commit, ctx)

        return Plan(url, input_key(self.global_key, "refsnap", commit, path, lines, current), produce)

    def _annotation(
        self,
        entry: Entry,
        blame: list[str],
        lines: list[str],
        infos: dict,
        promotions: dict,
        written: dict,
        superseded: dict,
    ) -> dict:
        """One entry's provenance as the one-line credit shows it."""
        lines_at, current_lines = self.ref_lines
        source = entry_source(entry)
        marker = entry.marker
        if marker is None:
            return {"marker": None, "blame": models.blame_summary(blame, lines, entry.start, entry.end, infos)}
        link = models.provenance_link(source, current_lines, lines_at, urls.HOME, self.full_ids) if source else None
        if link is not None and source is not None:
            link["label"] = models.source_label(source)
            link["ref"] = source.format()
        promo = promotions.get(marker.key)
        commit = None
        if promo is not None:
            commit = {
                "short": promo["id"][:7],
                "id": promo["id"],
                "date": promo["date"],
                "url": urls.relative(urls.HOME, urls.DREAMS) + "#a-" + promo["id"][:7],
            }
        return {
            "marker": {
                "key": marker.key,
                "score": marker.score,
                "promoted": marker.promoted or (promo or {}).get("date"),
                "source": link,
                "commit": commit,
                "written": written.get(source.format()) if source is not None and source.commit else None,
                "replaced": superseded.get(promo["id"], "") if promo and promo["action"] == "supersede" else "",
            },
            "blame": None,
        }

    def _timeline_plans(self) -> list[Plan]:
        line_counts = [(p, self.records[p]["lines"]) for p in self.daily]

        def produce_overview(contents: dict[str, bytes]) -> bytes:
            ctx = models.timeline_context({p: self.summary(p) for p in self.daily})
            return self._render("timeline.html", urls.TIMELINE, timeline=ctx, month=None, title="Timeline")

        plans = [Plan(urls.TIMELINE, input_key(self.global_key, "timeline", line_counts), produce_overview)]
        by_month: dict[str, list[str]] = {}
        for path in self.daily:
            by_month.setdefault(path[7:14], []).append(path)
        months = sorted(by_month)
        for i, month in enumerate(months):
            url = urls.month_url(month)
            near = (months[i - 1] if i else None, months[i + 1] if i + 1 < len(months) else None)

            def produce(
                contents: dict[str, bytes],
                url: str = url,
                month: str = month,
                members: list[str] = by_month[month],
                near: tuple = near,
            ) -> bytes:
                days = models.months_of({p: self.summary(p) for p in members})[month]
                ctx = models.month_context(month, days, url, with_days=True)
                ctx["near"] = [
                    {"label": models.month_label(m), "url": urls.relative(url, urls.month_url(m)), "rel": rel}
                    for m, rel in zip(near, ("prev", "next"), strict=True)
                    if m
                ]
                return self._render(
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

            plans.append(
                Plan(url, input_key(self.global_key, "month", month, near, self.digests(by_month[month])), produce)
            )
        return plans

    def _notes_plan(self) -> Plan:
        def produce(contents: dict[str, bytes]) -> bytes:
            rows = [
                {
                    "path": p,
                    "url": urls.relative(urls.NOTES, urls.note_url(p)),
                    "title": s.title or s.first,
                    "problem": s.problem,
                }
                for p, s in ((p, self.summary(p)) for p in self.files)
            ]
            return self._render(
                "notes.html", urls.NOTES, groups=models.note_groups(rows), count=len(rows), title="All notes"
            )

        # Exactly what the list shows: an append to a note (its line count) leaves the page as it is.
        shown = [(p, r["title"], r["first"], r["problem"]) for p, r in self.records.items()]
        return Plan(urls.NOTES, input_key(self.global_key, "notes", shown), produce)

    def _concept_plans(self, present: set[str]) -> list[Plan]:
        """`#tags` written in notes and the concepts dreaming found (`site.concepts`), one page a tag.

        The key holds exactly what the pages show: the tagged files' summaries, the dreams' concepts
        files, the notes their places are in, the reports and MEMORY.md (private sites): a commit
        that touches none of them renders none of these pages."""
        tagged = [p for p in self.files if self.records[p]["concepts"]]
        old = self.mf.concepts
        named, fresh_docs = self._dream_paths(old.get("dreams") or {})
        private = self.scope == "private"
        readable = {p for p, e in self.files.items() if e.is_regular and not self.records[p]["problem"]}
        place_paths = sorted({path for found in named.values() for path in found or ()} & readable)
        reports: dict[str, str] = {}  # day -> report path, the newest ones
        if private:
            dated = ((day, p) for p in readable if p.startswith(models.DREAMS_DIR) and (day := paths.daily_date(p)))
            reports = dict(sorted(dated, reverse=True)[: site_concepts.MAX_DREAMS])
        memory = "MEMORY.md" if private and "MEMORY.md" in readable else None
        key = input_key(
            self.global_key,
            "concepts",
            [(p, self.records[p]["concepts"]) for p in tagged],
            [(p, e.blob) for p, e in self.dream_concept_files],
            [(p, self.files[p].blob) for p in place_paths],
            sorted((day, self.files[p].blob) for day, p in reports.items()),
            self.files[memory].blob if memory else None,
        )
        if old.get("key") == key and all(u in present and u in self.mf.pages for u in old.get("urls", [])):
            self.concepts_state = {**old, "dreams": named}
            return [Plan(u, self.mf.pages[u][0], _unchanged) for u in old["urls"]]
        docs, report_links, report_state, memory_state = self._concept_inputs(reports, memory, old, fresh_docs)
        memory_blob = self.files[memory].blob if memory else None
        dream = site_concepts.dream_concepts(
            docs, readable, memory_state.get(memory_blob or "", []), public=not private
        )
        index = models.concept_index({p: self.summary(p) for p in tagged})
        # A heading most files share (`[summary]: #summary` in an RFC template) is no concept.
        index = {tag: places for tag, places in index.items() if tag not in self.template_tags}
        dream = [c for c in dream if c.tag not in self.template_tags]
        plans = self._concept_index_plan(index, dream, report_links)
        for tag in sorted(index.keys() | {c.tag for c in dream}):
            plans.append(
                self._concept_page_plan(
                    tag, index.get(tag, []), next((c for c in dream if c.tag == tag), None), report_links
                )
            )
        self.concepts_state = {
            "key": key,
            "urls": sorted(p.url for p in plans),
            "dreams": named,
            "reports": report_state,
            "memory": memory_state,
        }
        return plans

    def _concept_inputs(
        self, reports: dict[str, str], memory: str | None, old: dict, fresh_docs: dict[str, dict | None]
    ) -> tuple[list[dict], dict[str, tuple[str, int | None]], dict[str, list], dict[str, list]]:
        """The dreams' concepts documents (reports written before the concepts files count by their
        Themes line), each report's link, and MEMORY.md's promoted concepts. Reports' Themes lines
        and MEMORY.md's promoted entries are kept per blob in the manifest: a rebuild after a commit
        to a note reads that note, not every report, and parses no Markdown."""
        old_reports, old_memory = old.get("reports") or {}, old.get("memory") or {}
        memory_blob = self.files[memory].blob if memory else None
        wanted = {self.files[p].blob for p in reports.values()} - old_reports.keys()
        if memory_blob is not None:
            wanted |= {memory_blob} - old_memory.keys()
        wanted |= {e.blob for _, e in self.dream_concept_files} - fresh_docs.keys()
        texts = plumbing.read_blobs(self.ws.root, sorted(wanted)) if wanted else {}
        docs = []
        for _, entry in self.dream_concept_files:
            doc = (
                fresh_docs[entry.blob] if entry.blob in fresh_docs else site_concepts.parse_document(texts[entry.blob])
            )
            if doc is not None:
                docs.append(doc)

        def lines_of(path: str) -> list[str]:
            text = self._text(texts, self.files[path].blob)[0]
            return models.source_lines(text) if text is not None else []

        report_links: dict[str, tuple[str, int | None]] = {}
        report_state: dict[str, list] = {}
        for day, path in sorted(reports.items(), reverse=True):
            blob = self.files[path].blob
            if blob not in old_reports:
                line, found = site_concepts.report_themes("\n".join(lines_of(path)))
                old_reports = {**old_reports, blob: [line, [list(t) for t in found]]}
            line, themes = report_state[blob] = old_reports[blob]
            report_links[day] = (path, line)
            if day not in self.dream_concept_days:  # a report written before the concepts files
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
        missing = sorted({e.blob for _, e in self.dream_concept_files} - cached.keys())
        fresh = plumbing.read_blobs(self.ws.root, missing) if missing else {}
        docs = {blob: site_concepts.parse_document(data) for blob, data in fresh.items()}
        named = {}
        for _, entry in self.dream_concept_files:
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

    def _concept_index_plan(
        self, index: dict, dream: list[site_concepts.DreamConcept], report_links: dict
    ) -> list[Plan]:
        page = urls.CONCEPTS
        rows = [
            {"tag": tag, "url": urls.relative(page, urls.concept_url(tag)), "count": len(places)}
            for tag, places in index.items()
        ]
        private = self.scope == "private"
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
            shared.setdefault(c.tag, set()).update(p for p, _, _, _ in c.raw if p in self.files)
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
                input_key(self.global_key, "concepts", rows, themes, found, picture, labels),
                lambda contents: self._render(
                    "concepts.html",
                    page,
                    concepts=rows,
                    tag=None,
                    places=[],
                    title="Concepts",
                    picture=_concept_picture(picture, labels),
                    **extra,
                ),
            )
        ]

    def _concept_page_plan(
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
                input_key(self.global_key, "concept", tag, items),
                lambda contents: self._render(
                    "concepts.html", url, concepts=[], tag=tag, places=items, title=f"#{tag}", dream=None
                ),
            )
        private = self.scope == "private"
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
        blobs = {p: self.files[p].blob for p in sorted({place[0] for place in concept.raw})}
        title = f"#{tag}" if places else tag

        def produce(contents: dict[str, bytes]) -> bytes:
            current = {}
            for path, blob in blobs.items():
                text = self._text(contents, blob)[0]
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
            return self._render(
                "concepts.html", url, concepts=[], tag=tag, places=items, title=title, dream={**dream, **shown}
            )

        return Plan(
            url,
            input_key(self.global_key, "concept", tag, items, dream, concept.raw, blobs),
            produce,
            tuple(sorted(set(blobs.values()))),
        )

    def _search_plans(self) -> list[Plan]:
        """32 shards of the search index (see search_index) and the small file naming them."""
        shards: dict[int, list[tuple[str, plumbing.Entry, str]]] = {i: [] for i in range(SHARDS)}
        for path, entry in self.files.items():
            if entry.is_regular and not self.records[path]["problem"]:
                logs = self.logs.get(path) or [{}]
                shards[models.shard_of(path, SHARDS)].append((path, entry, str(logs[0].get("date", ""))[:10]))
        plans = []
        for number, members in shards.items():
            url = f"assets/search/{number:02d}.js"

            def produce(
                contents: dict[str, bytes],
                members: list[tuple[str, plumbing.Entry, str]] = members,
                number: int = number,
            ) -> bytes:
                from memgit.site.search_index import shard_index
                from memgit.site.titles import result_heading

                cache = self._shard_cache(number)
                kept: dict[str, list] = {}
                docs = []
                for path, entry, date in members:
                    cached = cache.get(path)
                    stamp = f"{entry.blob}:{date}"
                    if cached is not None and cached[0] == stamp:
                        file_docs = cached[1]
                    else:
                        text = self._text(contents, entry.blob)[0]
                        file_docs = models.search_docs(path, text, self.params, date) if text is not None else []
                    kept[path] = [stamp, file_docs]
                    title = self.records[path]["title"]  # a result is named by its document (titles)
                    docs += [[*d[:5], result_heading(title, d[5]), *d[6:]] for d in file_docs]
                self._save_shard_cache(number, kept)
                body = json.dumps(shard_index(docs), ensure_ascii=True, separators=(",", ":"))
                # JSON.parse of a string literal is parsed faster than the same object as JavaScript.
                literal = body.replace("\\", "\\\\").replace("'", "\\'")
                return f"(window.memgitSearch = window.memgitSearch || []).push(JSON.parse('{literal}'));\n".encode()

            plans.append(
                Plan(
                    url,
                    input_key(self.global_key, "shard", [(p, e.blob, d) for p, e, d in members]),
                    produce,
                    tuple(e.blob for _, e, _ in members),
                )
            )
        shard_urls = [f"assets/search/{n:02d}.js" for n in range(SHARDS)]

        def produce_meta(contents: dict[str, bytes]) -> bytes:
            from memgit.core.text import STOP_WORDS

            meta = {"shards": shard_urls, "stop": sorted(STOP_WORDS)}
            return f"window.memgitSearchMeta = {json.dumps(meta, separators=(',', ':'))};\n".encode()

        plans.append(Plan("assets/search/meta.js", input_key(self.global_key, "search-meta"), produce_meta))
        plans.append(
            Plan(
                urls.SEARCH,
                input_key(self.global_key, "search"),
                lambda contents: self._render("search.html", urls.SEARCH, title="Search"),
            )
        )
        return plans

    def _shard_cache_path(self, number: int) -> Path:
        """A shard's chunks per file (path -> [blob, docs]), so a one-file commit re-chunks one
        file, not the shard's hundred; keyed by everything else the chunks depend on."""
        return self.ws.data_dir / "site" / "search-docs" / f"{self.global_key[:16]}-{number:02d}.json"

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
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps(kept, ensure_ascii=True, separators=(",", ":")), encoding="utf-8")
            tmp.replace(path)
        except OSError:
            pass  # a cache: the next build re-chunks what it cannot find

    def _dreams_plan(self) -> Plan:
        reports = [
            {
                "path": p,
                "url": urls.relative(urls.DREAMS, urls.note_url(p)),
                "first": self.summary(p).first,
                "title": self.summary(p).title,
                "day": paths.daily_date(p) or "",
            }
            for p in sorted(self.files, reverse=True)
            if p.startswith(models.DREAMS_DIR)
        ]
        lines_at, current = self.ref_lines
        superseded = self._superseded() if self.scope == "private" else {}
        actions = []
        for action in self.actions:
            source: SourceRef | None = action["source"]
            link = models.provenance_link(source, current, lines_at, urls.DREAMS, self.full_ids) if source else None
            if link is not None and source is not None:
                link["label"] = models.source_label(source)
                link["ref"] = source.format()
            values = []
            for name, value in action["components"]:
                try:
                    values.append((name, float(value)))
                except ValueError:
                    continue
            actions.append(
                {
                    **action,
                    "source": link,
                    "short": action["id"][:7],
                    "replaced": superseded.get(action["id"], ""),
                    "components": values,
                }
            )
        key = input_key(self.global_key, "dreams", reports, actions)

        def produce(contents: dict[str, bytes]) -> bytes:
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
            return self._render("dreams.html", urls.DREAMS, reports=reports, actions=shown, title="Dreams")

        return Plan(urls.DREAMS, key, produce)

    def _static_plans(self) -> list[Plan]:
        plans = []
        for name in render.static_names(self.template_dirs):
            source = render.static_file(self.template_dirs, name)
            data = source.read_bytes()
            plans.append(Plan(f"assets/{name}", input_key("static", name, output.digest(data)), _constant(data)))
        return plans
