"""The planner of a build: which pages the site has, each keyed by exactly the inputs it shows.

It reads the gathered inputs (`inputs.Inputs`, passed in) and decides, page by page, the key and
the blobs a page needs; how the page's bytes are made is the renderer's (`renderer`), called only
for pages whose key changed. A note no commit touched since the last build keeps its pages as they
are, without a plan of its own. Concepts are planned by `concept_pages`.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from memgit.core import paths
from memgit.core.provenance import SourceRef, parse_reference
from memgit.site import models, output, render, urls
from memgit.site.concept_pages import ConceptPlanner
from memgit.site.inputs import ZERO, Inputs, input_key
from memgit.site.page_plan import Plan, blob_bytes, constant, unchanged
from memgit.site.renderer import PageRenderer
from memgit.site.report_rows import kept_redactions

if TYPE_CHECKING:
    from memgit.site.manifest import Manifest
    from memgit.site.reader import Entry

SHARDS = 32


def past_versions(path: str, blob: str, rows: list[dict], keep: int) -> list[tuple[str, str, str]]:
    """(date, commit, blob) of the `keep` newest past versions of a note, one a blob (a revert or
    a rename lists a version again), each named after its newest commit."""
    seen = {blob, ZERO}
    found: list[tuple[str, str, str]] = []
    for row in rows:
        if len(found) >= keep:
            break
        if row["blob"] not in seen:
            seen.add(row["blob"])
            found.append((str(row.get("date", "")), row["id"], row["blob"]))
    return found


def version_budget(versions: dict[str, list[tuple[str, str, str]]], limit: int) -> dict[str, tuple[str, ...]]:
    """The past versions the whole site gives a page (path -> their blobs): the `limit` newest
    across every note (`[site] history_versions`), so a long history of many notes cannot make
    most of the site (a docs repository's 12,000 commits made 15,000 pages, 70 % of its bytes)."""
    ranked = sorted(
        ((date, commit, path, blob) for path, found in versions.items() for date, commit, blob in found), reverse=True
    )
    allowed: dict[str, list[str]] = {}
    for _, _, path, blob in ranked[:limit]:
        allowed.setdefault(path, []).append(blob)
    return {path: tuple(sorted(blobs)) for path, blobs in allowed.items()}


def snapshot_links(path: str, blob: str, rows: list[dict], allowed: tuple[str, ...]) -> dict[str, str]:
    """Commit -> the page showing the note after that commit: the note's own page for its current
    blob, else one snapshot page a blob (written once, named after its newest commit), for the
    past versions the site's budget `allowed` (`version_budget`) only."""
    out: dict[str, str] = {}
    by_blob: dict[str, str] = {blob: urls.note_url(path)}
    for row in rows:
        if row["blob"] == ZERO:
            continue
        url = by_blob.get(row["blob"])
        if url is None and row["blob"] in allowed:
            url = by_blob[row["blob"]] = urls.snapshot_url(row["id"], path)
        if url is not None:
            out[row["id"]] = url
    return out


class Planner:
    """The pages one build makes from its gathered inputs, each with its key."""

    def __init__(self, inputs: Inputs, mf: Manifest, pages: PageRenderer) -> None:
        self.inputs = inputs
        #: What the last build made and kept (read only: the build saves the next one).
        self.mf = mf
        self.pages = pages
        self.concepts = ConceptPlanner(inputs, mf, pages)
        #: path -> [blob, its pages, extras digest]: what lets the next build carry a note's pages.
        self.by_path: dict[str, list] = {}
        self.carried: set[str] = set()
        #: Past versions the notes have (up to `[site] snapshots` each), before the site's budget.
        self.versions_found = 0

    def plan(self, present: set[str]) -> list[Plan]:
        """Every page of the site, one plan a url, sorted by url; `present` is what the output
        folder holds (a page missing from it is made again whatever its key)."""
        inputs = self.inputs
        plans: list[Plan] = []
        extras = self._note_extras()
        budget = self._version_budget()
        snapshots: dict[str, tuple[str, str, str]] = {}  # url -> (commit, path, blob)
        for path, entry in inputs.files.items():
            allowed = budget.get(path, ())
            digest = input_key(extras.get(path), inputs.global_key, allowed)
            carried = self._carry(path, entry, present, digest)
            if carried is not None:
                plans += carried
                continue
            rows = inputs.logs.get(path, [])
            valid = [row for row in rows if models.valid_commit_row(row)]
            snap_urls = snapshot_links(path, entry.blob, valid, allowed)
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
        plans += self.concepts.plans(present)
        plans += self._search_plans()
        plans.append(self._dreams_plan())
        plans += self._static_plans()
        plans += [
            Plan(url, input_key("image", blob), blob_bytes(blob), (blob,))
            for blob, url in sorted({(inputs.tree_files[p].blob, u) for p, u in inputs.images.items()})
        ]
        seen: dict[str, Plan] = {}
        for plan in plans:
            seen.setdefault(plan.url, plan)
        return sorted(seen.values(), key=lambda p: p.url)

    def _version_budget(self) -> dict[str, tuple[str, ...]]:
        """Which past versions get a page: at most `[site] snapshots` a note and `[site]
        history_versions` in all, the newest first; none on a public site (an older version may
        hold what the owner removed)."""
        inputs = self.inputs
        keep = inputs.cfg.snapshots if inputs.scope == "private" else 0
        if not keep or not inputs.cfg.history_versions:
            return {}
        versions = {
            path: past_versions(
                path, entry.blob, [r for r in inputs.logs.get(path, []) if models.valid_commit_row(r)], keep
            )
            for path, entry in inputs.files.items()
        }
        self.versions_found = sum(len(found) for found in versions.values())
        return version_budget(versions, inputs.cfg.history_versions)

    def manifest_state(self) -> dict[str, Any]:
        """What the manifest keeps of this build for the next one (after the pages are made)."""
        inputs = self.inputs
        return {
            "summaries": inputs.blob_records,
            "logs": inputs.logs,
            "blame": inputs.reads.blame_state,
            "trailers": inputs.trailers,
            "by_path": self.by_path,
            "concepts": self.concepts.state,
            "memory_refs": inputs.memory_refs_state,
            "written": inputs.written,
            "superseded": inputs.superseded,
            "heat": inputs.heat_state,
            "redactions": kept_redactions(inputs),
            "dreams": inputs.dreams_state,
            "images": inputs.images_state,
        }

    def _note_extras(self) -> dict[str, dict]:
        """What a note's page shows beyond its own file: the previous and next daily log, the notes
        that link to it, its lines promoted into MEMORY.md, its recall heat. A note whose extras
        changed is planned again even when no commit touched it."""
        inputs = self.inputs
        out: dict[str, dict] = {}
        daily = sorted(inputs.daily)
        for i, path in enumerate(daily):
            out.setdefault(path, {})["days"] = (
                daily[i - 1] if i else None,
                daily[i + 1] if i + 1 < len(daily) else None,
            )
        for path in inputs.files:
            for target in inputs.links[path]:
                if target in inputs.files:
                    out.setdefault(target, {}).setdefault("linked", []).append(path)
            links = [t for t in inputs.links[path] if t in inputs.files]
            if links:
                out.setdefault(path, {})["links"] = links
            images = [[t, inputs.images[t]] for t in inputs.links[path] if t in inputs.images]
            if images:
                out.setdefault(path, {})["images"] = images
            self._wiki_extras(path, out)
        if inputs.scope == "private" and "MEMORY.md" in inputs.files:
            for e in inputs.memory_entries():
                ref = parse_reference(e["ref"])
                if ref.path in inputs.files and ref.path != "MEMORY.md":
                    out.setdefault(ref.path, {}).setdefault("promoted", []).append(
                        [ref.start, ref.end, e["start"], e["text"]]
                    )
        for path, heat in inputs.heat.items():
            out.setdefault(path, {})["heat"] = sorted(heat.items())
        return out

    def _wiki_extras(self, path: str, out: dict[str, dict]) -> None:
        """Where the note's `[[wikilinks]]` lead, and the notes it embeds with where theirs lead and
        their blobs: a page is made again when any of them changes, or when a link finds another
        file (a note added elsewhere with the same name)."""
        inputs = self.inputs
        wiki = inputs.wiki.get(path, {})
        embeds = []
        for target in inputs.records[path].get("embeds", []):
            hit = wiki.get(target)
            if hit is None or hit == path or hit not in inputs.files or not hit.endswith(".md"):
                continue
            if inputs.records[hit].get("problem"):
                continue
            links = [t for t in inputs.links[hit] if t in inputs.files]
            embeds.append([hit, inputs.files[hit].blob, sorted(inputs.wiki.get(hit, {}).items()), links])
        if wiki:
            out.setdefault(path, {})["wiki"] = sorted(wiki.items())
        if embeds:
            out.setdefault(path, {})["embeds"] = sorted(embeds)

    def _carry(self, path: str, entry: Entry, present: set[str], digest: str) -> list[Plan] | None:
        """The pages of a note no commit touched since the last build, kept as they are; None when
        they must be planned again (touched, new, other extras, or a page missing from the output)."""
        inputs = self.inputs
        if inputs.touched is None or path in inputs.touched:
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
        return [Plan(u, self.mf.pages[u][0], unchanged) for u in old[1]]

    def _note_plans(
        self, path: str, entry: Entry, rows: list[dict], snap_urls: dict[str, str], extra: dict
    ) -> list[Plan]:
        """A note's page (Markdown rendered, every source line an anchor) and, for Markdown, its
        numbered source lines on a page of their own."""
        global_key = self.inputs.global_key
        problem = self.inputs.records[path]["problem"]
        plans = [
            Plan(
                urls.note_url(path),
                input_key(global_key, "note", path, entry.blob, rows, snap_urls, extra),
                partial(self.pages.note, path, entry.blob, rows, snap_urls, extra),
                () if problem else (entry.blob, *(e[1] for e in extra.get("embeds", []))),
            )
        ]
        if path.endswith(".md") and not problem:
            plans.append(
                Plan(
                    urls.source_url(path),
                    input_key(global_key, "source", path, entry.blob),
                    partial(self.pages.source, path, entry.blob),
                    (entry.blob,),
                )
            )
        return plans

    def _snapshot_plan(self, url: str, commit: str, path: str, blob: str) -> Plan:
        current = urls.note_url(path) if path in self.inputs.files else None
        return Plan(
            url,
            input_key(self.inputs.global_key, "snap", commit, path, blob, current),
            partial(self.pages.snapshot, url, commit, path, blob, current),
            (blob,),
        )

    def _home_plans(self, snapshots: set[str]) -> list[Plan]:
        inputs = self.inputs
        recent = sorted(inputs.daily, reverse=True)[:7]
        recent_rows = [
            {"path": p, "day": day.isoformat(), "first": inputs.summary(p).first or inputs.summary(p).title}
            for p in recent
            if (day := paths.daily_log_day(p)) is not None
        ]
        counts = {"notes": len(inputs.files), "daily": len(inputs.daily)}
        memory = inputs.files.get("MEMORY.md")
        if inputs.scope != "private" or memory is None or not memory.is_regular:
            return [
                Plan(
                    urls.HOME,
                    input_key(inputs.global_key, "home", recent_rows, counts),
                    partial(self.pages.home_plain, recent_rows, counts),
                )
            ]
        memory_log = inputs.logs.get("MEMORY.md", [])
        refs = inputs.memory_refs()
        current_blobs, at_pairs = inputs.ref_inputs(refs)
        written, superseded = inputs.written, inputs.superseded
        key = input_key(
            inputs.global_key,
            "home",
            memory.blob,
            inputs.store_blob,
            memory_log,
            current_blobs,
            at_pairs,
            [(a["id"], a["date"]) for a in inputs.actions],
            recent_rows,
            counts,
            written,
            superseded,
            sorted(inputs.images.items()),
        )
        plans = self._changed_source_plans(at_pairs, snapshots)
        promotions: dict[str, dict] = {}
        for action in inputs.actions:  # newest first: the newest commit for a key wins
            if action["key"]:
                promotions.setdefault(action["key"], action)
        home = {
            "blob": memory.blob,
            "log": memory_log,
            "promotions": promotions,
            "written": written,
            "superseded": superseded,
        }
        plans.append(Plan(urls.HOME, key, partial(self.pages.home, home, recent_rows, counts), (memory.blob,)))
        return plans

    def _changed_source_plans(self, at_pairs: list[tuple[str, str]], snapshots: set[str]) -> list[Plan]:
        """A snapshot page for each source a promoted entry names whose lines read differently at
        HEAD than at the commit the reference names (its provenance link lands there)."""
        plans: list[Plan] = []
        lines_at, current_lines = self.inputs.ref_lines
        for commit, path in at_pairs:
            old = lines_at.get((commit, path))
            full = self.inputs.full_ids.get(commit, commit)
            if old is not None and current_lines.get(path) != old and urls.is_object_id(full):
                url = urls.snapshot_url(full, path)
                if url not in snapshots:
                    plans.append(self._ref_snapshot_plan(url, commit, path, old))
        return plans

    def _ref_snapshot_plan(self, url: str, commit: str, path: str, lines: list[str]) -> Plan:
        current = urls.note_url(path) if path in self.inputs.files else None
        return Plan(
            url,
            input_key(self.inputs.global_key, "refsnap", commit, path, lines, current),
            partial(self.pages.ref_snapshot, url, commit, path, lines, current),
        )

    def _timeline_plans(self) -> list[Plan]:
        inputs = self.inputs
        line_counts = [(p, inputs.records[p]["lines"]) for p in inputs.daily]
        plans = [Plan(urls.TIMELINE, input_key(inputs.global_key, "timeline", line_counts), self.pages.timeline)]
        by_month: dict[str, list[str]] = {}
        for path in inputs.daily:
            by_month.setdefault(path[7:14], []).append(path)
        months = sorted(by_month)
        for i, month in enumerate(months):
            url = urls.month_url(month)
            near = (months[i - 1] if i else None, months[i + 1] if i + 1 < len(months) else None)
            plans.append(
                Plan(
                    url,
                    input_key(inputs.global_key, "month", month, near, inputs.digests(by_month[month])),
                    partial(self.pages.month, url, month, by_month[month], near),
                )
            )
        return plans

    def _notes_plan(self) -> Plan:
        # Exactly what the list shows: an append to a note (its line count) leaves the page as it is.
        shown = [(p, r["title"], r["first"], r["problem"]) for p, r in self.inputs.records.items()]
        return Plan(urls.NOTES, input_key(self.inputs.global_key, "notes", shown), self.pages.notes)

    def _search_plans(self) -> list[Plan]:
        """32 shards of the search index (see search_index) and the small file naming them."""
        inputs = self.inputs
        shards: dict[int, list[tuple[str, Entry, str]]] = {i: [] for i in range(SHARDS)}
        for path, entry in inputs.files.items():
            if entry.is_regular and not inputs.records[path]["problem"]:
                logs = inputs.logs.get(path) or [{}]
                shards[models.shard_of(path, SHARDS)].append((path, entry, str(logs[0].get("date", ""))[:10]))
        plans = [
            Plan(
                f"assets/search/{number:02d}.js",
                input_key(inputs.global_key, "shard", [(p, e.blob, d) for p, e, d in members]),
                partial(self.pages.shard, number, members),
                tuple(e.blob for _, e, _ in members),
            )
            for number, members in shards.items()
        ]
        shard_urls = [f"assets/search/{n:02d}.js" for n in range(SHARDS)]
        plans.append(
            Plan(
                "assets/search/meta.js",
                input_key(inputs.global_key, "search-meta"),
                partial(self.pages.search_meta, shard_urls),
            )
        )
        plans.append(Plan(urls.SEARCH, input_key(inputs.global_key, "search"), self.pages.search))
        return plans

    def _dreams_plan(self) -> Plan:
        inputs = self.inputs
        reports = [
            {
                "path": p,
                "url": urls.relative(urls.DREAMS, urls.note_url(p)),
                "first": inputs.summary(p).first,
                "title": inputs.summary(p).title,
                "day": paths.daily_date(p) or "",
            }
            for p in sorted(inputs.files, reverse=True)
            if p.startswith(models.DREAMS_DIR)
        ]
        lines_at, current = inputs.ref_lines
        superseded = inputs.superseded  # none on a public site
        actions = []
        for action in inputs.actions:
            source: SourceRef | None = action["source"]
            link = models.provenance_link(source, current, lines_at, urls.DREAMS, inputs.full_ids) if source else None
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
        key = input_key(inputs.global_key, "dreams", reports, actions)
        return Plan(urls.DREAMS, key, partial(self.pages.dreams, reports, actions))

    def _static_plans(self) -> list[Plan]:
        plans = []
        for name, data in render.static_assets(self.inputs.shipped, self.inputs.theme).items():
            plans.append(Plan(f"assets/{name}", input_key("static", name, output.digest(data)), constant(data)))
        return plans
