"""`memgit site build`: gather inputs from git, plan the pages, render those that changed, write.

As mkdocs does, the build first gathers everything it needs (memory files of the tree at `--at`,
their per-file history, memgit's promotion commits), then turns them into page models (pure, in
`models`), then renders and writes. Each page carries a key made of exactly the inputs it shows
(blob ids, history rows, template hash, options); the manifest in `.git/memgit/` remembers the key
and the bytes written, so a rebuild after a one-file commit renders and writes only the pages that
depend on that file. The same inputs always give the same bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit import __version__
from memgit.core import paths
from memgit.core.provenance import SourceRef, parse_reference
from memgit.errors import MemgitError
from memgit.git import history, plumbing
from memgit.resources import shipped_dir
from memgit.site import manifest as manifest_mod
from memgit.site import models, output, render, urls
from memgit.workspace import Workspace

if TYPE_CHECKING:
    from memgit.site.markdown import Entry

SHARDS = 32
ZERO = "0" * 40
ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
class BuildOptions:
    out: Path
    scope: str = "private"
    base_url: str = ""
    at: str = "HEAD"


@dataclass
class BuildReport:
    out: str
    commit: str
    scope: str
    pages: int = 0
    rendered: int = 0
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    incremental: bool = False
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["written"] = len(self.written)
        data["removed"] = len(self.removed)
        return data


@dataclass
class Plan:
    """One output file: its key (inputs it shows), the blobs it reads and how to make its bytes."""

    url: str
    key: str
    produce: Callable[[dict[str, bytes]], bytes]
    needs: tuple[str, ...] = ()


def _key(*parts: Any) -> str:
    """A page's input key: the repr of plain values built in a fixed order is stable and fast."""
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _record(summary: models.Summary) -> dict:
    """A summary as the manifest keeps it, with a digest listing pages use as their key."""
    data = summary.to_json()
    data["d"] = _key(data)[:16]
    return data


def _unchanged(contents: dict[str, bytes]) -> bytes:  # pragma: no cover - a carried page is never rendered
    raise MemgitError("internal error: a page kept from the last build was asked to render")


def check_base_url(base_url: str) -> str:
    if base_url and not base_url.startswith(("http://", "https://")):
        raise MemgitError(f"--base-url {base_url!r} must start with http:// or https://")
    return base_url.rstrip("/") + "/" if base_url else ""


def build_site(ws: Workspace, options: BuildOptions, progress: ProgressFn | None = None) -> BuildReport:
    started = time.perf_counter()
    if options.scope not in ("private", "public"):
        raise MemgitError(f"--scope must be private or public, not {options.scope!r}")
    base_url = check_base_url(options.base_url)
    out = output.check_output(options.out, ws.root, ws.git_dir)
    commit, tree = history.resolve_commit(ws.root, options.at)
    site = Site(ws, options.scope, base_url, commit, tree)
    mf = manifest_mod.load(ws.data_dir, str(out), site.global_key)
    site.gather(mf)
    present = output.existing_files(out)
    plans = site.plan(present)
    report = BuildReport(out=str(out), commit=commit, scope=options.scope, pages=len(plans),
                         incremental=bool(mf.pages))
    todo = [p for p in plans if mf.pages.get(p.url, ("", ""))[0] != p.key or p.url not in present]
    needed = {blob for plan in todo for blob in plan.needs}
    contents = plumbing.read_blobs(ws.root, sorted(needed)) if needed else {}
    output.mark(out)
    pages: dict[str, tuple[str, str]] = {p.url: mf.pages[p.url] for p in plans if p.url in mf.pages}
    for done, plan in enumerate(todo, start=1):
        data = plan.produce(contents)
        sha = output.digest(data)
        if mf.pages.get(plan.url, ("", ""))[1] != sha or plan.url not in present:
            output.write_file(out, plan.url, data)
            report.written.append(plan.url)
        pages[plan.url] = (plan.key, sha)
        if progress is not None:
            progress(done, len(todo))
    report.rendered = len(todo)
    stale = sorted(set(mf.pages) - {p.url for p in plans})
    output.remove_files(out, stale)
    report.removed = stale
    mf.pages = pages
    mf.commit = commit
    manifest_mod.save(ws.data_dir, str(out), mf, site)
    report.seconds = round(time.perf_counter() - started, 3)
    return report


class Site:
    """The inputs of one build and the pages they make."""

    def __init__(self, ws: Workspace, scope: str, base_url: str, commit: str, tree: str) -> None:
        self.ws = ws
        self.scope = scope
        self.base_url = base_url
        self.commit = commit
        self.tree = tree
        cfg = ws.config
        self.cfg = cfg.site
        self.max_bytes = cfg.memory.max_file_bytes
        self.params = models.ChunkParams(cfg.chunking.max_tokens, cfg.chunking.overlap_tokens,
                                         cfg.chunking.chars_per_token, cfg.site.search_chars)
        override = ws.root / (cfg.site.templates or ".memgit/templates")
        self.template_dirs = render.template_dirs(shipped_dir("templates"), [override])
        self.env = render.make_environment(shipped_dir("templates"), [override], ws.data_dir / "site" / "jinja")
        self.global_key = _key(__version__, render.templates_hash(self.template_dirs), scope, base_url,
                               dataclasses.asdict(self.cfg), dataclasses.asdict(self.params), self.max_bytes)

    # ------------------------------------------------------------------------------ gather

    def gather(self, mf: manifest_mod.Manifest) -> None:
        ws = self.ws
        self.blame_cache = dict(mf.blame or {})
        tree_files = plumbing.entries(ws.root, self.tree)
        self.files: dict[str, plumbing.Entry] = {
            path: entry for path, entry in sorted(tree_files.items())
            if ws.is_memory_path(path) and (self.scope == "private" or not models.is_private(path, self.cfg.private_paths))
        }
        blobs = {e.blob for e in self.files.values() if e.is_regular}
        missing = sorted(blobs - set(mf.summaries))
        fresh = plumbing.read_blobs(ws.root, missing) if missing else {}
        self.records: dict[str, dict] = {}
        for path, entry in self.files.items():
            if not entry.is_regular:
                self.records[path] = _record(models.Summary(problem="not a regular file (symlink)"))
            elif entry.blob in fresh:
                self.records[path] = _record(models.summarise(path, fresh[entry.blob], self.max_bytes))
            else:
                self.records[path] = mf.summaries[entry.blob]
        self.blob_records = {e.blob: self.records[p] for p, e in self.files.items() if e.is_regular}
        self.daily = [p for p in self.files if paths.daily_log_day(p)]
        self._summaries: dict[str, models.Summary] = {}
        self.mf = mf
        self.memory_refs_state: dict = {}
        limit = self.cfg.history
        # History since the last build is merged into what the manifest kept; a build of a commit
        # that does not descend from the last one (another branch, --at an older commit) walks it all.
        since = mf.commit if mf.commit and mf.logs is not None and mf.trailers is not None and \
            history.is_ancestor(ws.root, mf.commit, self.commit) else None
        found = history.file_logs(ws.root, self.commit, set(self.files), limit, since=since)
        # Paths no commit touched since the last build keep their pages as they are (see plan()).
        self.touched: set[str] | None = set(found) if since else None
        old_logs = (mf.logs or {}) if since else {}
        self.logs = {p: (found.get(p, []) + old_logs.get(p, []))[:limit] for p in self.files}
        self.trailers: list[dict] = []
        self.actions = []
        if self.scope == "private":
            newer = [dataclasses.asdict(c) for c in history.trailer_commits(ws.root, self.commit, since=since)]
            self.trailers = newer + ((mf.trailers or []) if since else [])
            self.actions = models.dream_actions(self.trailers)

    # ------------------------------------------------------------------------------ helpers

    def context(self, page: str, **extra: Any) -> dict[str, Any]:
        nav = {name: urls.relative(page, target) for name, target in (
            ("home", urls.HOME), ("timeline", urls.TIMELINE), ("notes", urls.NOTES), ("search", urls.SEARCH),
            ("dreams", urls.DREAMS), ("concepts", urls.CONCEPTS))}
        root = urls.relative(page, "x")[:-1]
        return {"site_title": self.cfg.title, "scope": self.scope, "nav": nav, "root": root, "page": page,
                "canonical": self.base_url + page if self.base_url else "", **extra}

    def _render(self, template: str, page: str, **extra: Any) -> bytes:
        return render.render(self.env, template, self.context(page, **extra)).encode("utf-8")

    def summary(self, path: str) -> models.Summary:
        found = self._summaries.get(path)
        if found is None:
            found = self._summaries[path] = models.Summary.from_json(self.records[path])
        return found

    def digests(self, selected: list[str] | None = None) -> list[tuple[str, str]]:
        """(path, summary digest) rows: the cheap key of every listing page."""
        return [(p, self.records[p]["d"]) for p in (self.files if selected is None else selected)]

    def _text(self, contents: dict[str, bytes], blob: str) -> tuple[str | None, str | None]:
        return models.decode(contents.get(blob, b""), self.max_bytes)

    # ------------------------------------------------------------------------------ plan

    def plan(self, present: set[str]) -> list[Plan]:
        plans: list[Plan] = []
        refs = self._memory_refs()
        refs += [a["source"] for a in self.actions if a["source"]]
        self.ref_lines = self._ref_lines(*self._ref_inputs(refs)[::-1]) if refs else ({}, {})
        snapshots: dict[str, tuple[str, str, str]] = {}  # url -> (commit, path, blob)
        self.by_path: dict[str, list] = {}
        self.carried: set[str] = set()
        for path, entry in self.files.items():
            carried = self._carry(path, entry, present)
            if carried is not None:
                plans += carried
                continue
            rows = self.logs.get(path, [])
            snap_urls = {}
            for row in rows:
                if row["blob"] == ZERO:
                    continue
                if row["blob"] == entry.blob:
                    snap_urls[row["id"]] = urls.note_url(path)
                else:
                    url = urls.snapshot_url(row["id"], path)
                    snap_urls[row["id"]] = url
                    snapshots[url] = (row["id"], path, row["blob"])
            plans.append(self._note_plan(path, entry, rows, snap_urls))
            self.by_path[path] = [entry.blob, sorted(set(snap_urls.values()) | {urls.note_url(path)})]
        for url, (commit, path, blob) in sorted(snapshots.items()):
            plans.append(self._snapshot_plan(url, commit, path, blob))
        plans += self._home_plans(snapshots.keys() | self.carried)
        plans += self._timeline_plans()
        plans.append(self._notes_plan())
        plans += self._concept_plans(present)
        plans += self._search_plans()
        plans.append(self._dreams_plan())
        plans += self._static_plans()
        seen: dict[str, Plan] = {}
        for plan in plans:
            seen.setdefault(plan.url, plan)
        return sorted(seen.values(), key=lambda p: p.url)

    def _carry(self, path: str, entry: plumbing.Entry, present: set[str]) -> list[Plan] | None:
        """The pages of a note no commit touched since the last build, kept as they are; None when
        they must be planned again (touched, new, or a page missing from the output folder)."""
        if self.touched is None or path in self.touched:
            return None
        old = self.mf.by_path.get(path)
        if not old or old[0] != entry.blob or not all(u in present and u in self.mf.pages for u in old[1]):
            return None
        self.by_path[path] = old
        self.carried.update(old[1])
        return [Plan(u, self.mf.pages[u][0], _unchanged) for u in old[1]]

    def _note_plan(self, path: str, entry: plumbing.Entry, rows: list[dict], snap_urls: dict[str, str]) -> Plan:
        url = urls.note_url(path)
        problem = self.records[path]["problem"]

        def produce(contents: dict[str, bytes]) -> bytes:
            text, why = (None, problem) if problem else self._text(contents, entry.blob)
            ctx = models.note_context(path, text, why, models.history_rows(url, path, rows, snap_urls), url)
            return self._render("note.html", url, note=ctx, title=path, snapshot=None)

        return Plan(url, _key(self.global_key, "note", path, entry.blob, rows, snap_urls), produce,
                    () if problem else (entry.blob,))

    def _snapshot_plan(self, url: str, commit: str, path: str, blob: str) -> Plan:
        current = urls.note_url(path) if path in self.files else None

        def produce(contents: dict[str, bytes]) -> bytes:
            text, why = self._text(contents, blob)
            ctx = models.note_context(path, text, why, [], url, current)
            return self._render("note.html", url, note=ctx, title=f"{path} at {commit[:10]}",
                                snapshot={"commit": commit, "short": commit[:10]})

        return Plan(url, _key(self.global_key, "snap", commit, path, blob, current), produce, (blob,))

    def _home_plans(self, snapshots: set[str]) -> list[Plan]:
        recent = sorted(self.daily, reverse=True)[:7]
        recent_rows = [{"path": p, "first": self.summary(p).first or self.summary(p).title} for p in recent]
        counts = {"notes": len(self.files), "daily": len(self.daily)}
        memory = self.files.get("MEMORY.md")
        if self.scope != "private" or memory is None or not memory.is_regular:
            def produce_plain(contents: dict[str, bytes]) -> bytes:
                rows = [{**r, "url": urls.relative(urls.HOME, urls.note_url(r["path"]))} for r in recent_rows]
                return self._render("home.html", urls.HOME, memory=None, recent=rows, counts=counts,
                                    title=self.cfg.title)
            return [Plan(urls.HOME, _key(self.global_key, "home", recent_rows, counts), produce_plain)]
        memory_log = self.logs.get("MEMORY.md", [])
        refs = self._memory_refs()
        current_blobs, at_pairs = self._ref_inputs(refs)
        key = _key(self.global_key, "home", memory.blob, memory_log, current_blobs, at_pairs,
                   [a["id"] for a in self.actions], recent_rows, counts)
        plans: list[Plan] = []
        lines_at, current_lines = self.ref_lines
        for commit, path in at_pairs:
            old = lines_at.get((commit, path))
            if old is not None and current_lines.get(path) != old:
                url = urls.snapshot_url(commit, path)
                if url not in snapshots:
                    plans.append(self._ref_snapshot_plan(url, commit, path, old))
        promotions: dict[str, dict] = {}
        for action in self.actions:  # newest first: the newest commit for a key wins
            if action["key"]:
                promotions.setdefault(action["key"], action)

        def produce(contents: dict[str, bytes]) -> bytes:
            from memgit.site.markdown import Renderer

            text, problem = self._text(contents, memory.blob)
            blame = self._memory_blame(memory.blob, memory_log) if text is not None else []
            infos = {c.id: dataclasses.asdict(c) for c in history.commits_info(self.ws.root, set(blame)).values()}
            renderer = Renderer(urls.HOME, "MEMORY.md", self.files)

            def annotate(entry: Entry) -> str:
                return self._annotation(entry, blame, infos, promotions)

            body = renderer.render(text, annotate) if text is not None else None
            rows = [{**r, "url": urls.relative(urls.HOME, urls.note_url(r["path"]))} for r in recent_rows]
            return self._render("home.html", urls.HOME, memory={"html": body, "problem": problem,
                                "url": urls.relative(urls.HOME, urls.note_url("MEMORY.md"))},
                                recent=rows, counts=counts, title=self.cfg.title)

        plans.append(Plan(urls.HOME, key, produce, (memory.blob,)))
        return plans

    def _memory_refs(self) -> list[SourceRef]:
        """The source references of MEMORY.md's entry markers, parsed once per version of the file
        (kept in the manifest, so a rebuild that does not touch MEMORY.md needs no Markdown parser)."""
        memory = self.files.get("MEMORY.md")
        if memory is None or not memory.is_regular:
            return []
        cached = self.memory_refs_state or self.mf.memory_refs
        if cached.get("blob") != memory.blob:
            from memgit.site.markdown import entries as parse_entries

            data = plumbing.read_blobs(self.ws.root, [memory.blob])[memory.blob]
            text = models.decode(data, self.max_bytes)[0]
            found = parse_entries(text) if text is not None else []
            cached = {"blob": memory.blob,
                      "refs": [e.marker.source.format() for e in found if e.marker and e.marker.source]}
        self.memory_refs_state = cached
        return [parse_reference(ref) for ref in cached["refs"]]

    def _memory_blame(self, blob: str, log: list[dict]) -> list[str]:
        """Blame of MEMORY.md, kept in the manifest: pygit2 is imported only when MEMORY.md changed."""
        key = [blob, log[0]["id"] if log else ""]
        if self.blame_cache.get("key") == key:
            return list(self.blame_cache["lines"])
        lines = history.blame_lines(self.ws.root, self.commit, "MEMORY.md")
        self.blame_cache = {"key": key, "lines": lines}
        return lines

    def _ref_inputs(self, refs: list[SourceRef]) -> tuple[dict[str, str], list[tuple[str, str]]]:
        current_blobs = {r.path: self.files[r.path].blob for r in refs
                         if r.path in self.files and self.files[r.path].is_regular}
        return current_blobs, sorted({(r.commit, r.path) for r in refs if r.commit})

    def _ref_lines(self, pairs: list[tuple[str, str]], current_blobs: dict[str, str]
                   ) -> tuple[dict[tuple[str, str], list[str] | None], dict[str, list[str] | None]]:
        raw_at = history.blobs_at(self.ws.root, pairs)
        current_raw = plumbing.read_blobs(self.ws.root, sorted(set(current_blobs.values())))
        lines_at = {}
        for pair, data in raw_at.items():
            text = models.decode(data, self.max_bytes)[0] if data is not None else None
            lines_at[pair] = models.source_lines(text) if text is not None else None
        current = {}
        for path, blob in current_blobs.items():
            text = models.decode(current_raw[blob], self.max_bytes)[0]
            current[path] = models.source_lines(text) if text is not None else None
        return lines_at, current

    def _ref_snapshot_plan(self, url: str, commit: str, path: str, lines: list[str]) -> Plan:
        current = urls.note_url(path) if path in self.files else None

        def produce(contents: dict[str, bytes]) -> bytes:
            ctx = models.note_context(path, "\n".join(lines) + "\n", None, [], url, current)
            return self._render("note.html", url, note=ctx, title=f"{path} at {commit[:10]}",
                                snapshot={"commit": commit, "short": commit[:10]})

        return Plan(url, _key(self.global_key, "refsnap", commit, path, lines, current), produce)

    def _annotation(self, entry: Entry, blame: list[str], infos: dict, promotions: dict) -> str:
        lines_at, current_lines = self.ref_lines
        marker = entry.marker
        data: dict[str, Any] = {"marker": None, "blame": None}
        if marker is not None:
            link = models.provenance_link(marker.source, current_lines, lines_at, urls.HOME) if marker.source else None
            promo = promotions.get(marker.key)
            data["marker"] = {"key": marker.key, "score": marker.score, "promoted": marker.promoted,
                              "source": link, "commit": promo}
        else:
            data["blame"] = models.blame_summary(blame, entry.start, entry.end, infos)
        return render.render(self.env, "_provenance.html", {"prov": data, "entry": entry})

    def _timeline_plans(self) -> list[Plan]:
        def produce_overview(contents: dict[str, bytes]) -> bytes:
            ctx = models.timeline_context({p: self.summary(p) for p in self.daily})
            return self._render("timeline.html", urls.TIMELINE, timeline=ctx, month=None, title="Timeline")

        plans = [Plan(urls.TIMELINE, _key(self.global_key, "timeline", self.daily), produce_overview)]
        by_month: dict[str, list[str]] = {}
        for path in self.daily:
            by_month.setdefault(path[7:14], []).append(path)
        for month, members in by_month.items():
            url = urls.month_url(month)

            def produce(contents: dict[str, bytes], url: str = url, month: str = month,
                        members: list[str] = members) -> bytes:
                days = models.months_of({p: self.summary(p) for p in members})[month]
                ctx = models.month_context(month, days, url, with_days=True)
                return self._render("timeline.html", url, timeline=None, month=ctx, title=ctx["label"])

            plans.append(Plan(url, _key(self.global_key, "month", month, self.digests(members)), produce))
        return plans

    def _notes_plan(self) -> Plan:
        def produce(contents: dict[str, bytes]) -> bytes:
            rows = [{"path": p, "url": urls.relative(urls.NOTES, urls.note_url(p)), "title": s.title or s.first,
                     "problem": s.problem} for p, s in ((p, self.summary(p)) for p in self.files)]
            return self._render("notes.html", urls.NOTES, notes=rows, title="All notes")

        shown = [(p, r["title"], r["first"], r["problem"]) for p, r in self.records.items()]
        return Plan(urls.NOTES, _key(self.global_key, "notes", shown), produce)

    def _concept_plans(self, present: set[str]) -> list[Plan]:
        tagged = [p for p in self.files if self.records[p]["concepts"]]
        key = _key(self.global_key, "concepts", [(p, self.records[p]["concepts"]) for p in tagged])
        old = self.mf.concepts
        if old.get("key") == key and all(u in present and u in self.mf.pages for u in old.get("urls", [])):
            self.concepts_state = old
            return [Plan(u, self.mf.pages[u][0], _unchanged) for u in old["urls"]]
        index = models.concept_index({p: self.summary(p) for p in tagged})
        rows = [{"tag": tag, "url": urls.relative(urls.CONCEPTS, urls.concept_url(tag)), "count": len(places)}
                for tag, places in index.items()]
        plans = [Plan(urls.CONCEPTS, _key(self.global_key, "concepts", rows),
                      lambda contents: self._render("concepts.html", urls.CONCEPTS, concepts=rows, tag=None,
                                                    places=[], title="Concepts"))]
        for tag, places in index.items():
            url = urls.concept_url(tag)
            items = [{"path": p, "url": urls.relative(url, urls.note_url(p)),
                      "lines": [(n, urls.relative(url, urls.note_url(p) + urls.lines_anchor(n, n))) for n in lines]}
                     for p, lines in places]
            plans.append(Plan(url, _key(self.global_key, "concept", tag, items),
                              lambda contents, url=url, tag=tag, items=items: self._render(
                                  "concepts.html", url, concepts=[], tag=tag, places=items, title=f"#{tag}")))
        self.concepts_state = {"key": key, "urls": sorted(p.url for p in plans)}
        return plans

    def _search_plans(self) -> list[Plan]:
        shards: dict[int, list[tuple[str, plumbing.Entry]]] = {i: [] for i in range(SHARDS)}
        for path, entry in self.files.items():
            if entry.is_regular and not self.records[path]["problem"]:
                shards[models.shard_of(path, SHARDS)].append((path, entry))
        plans = []
        for number, members in shards.items():
            url = f"assets/search/{number:02d}.js"

            def produce(contents: dict[str, bytes], members=members) -> bytes:
                docs = []
                for path, entry in members:
                    text = self._text(contents, entry.blob)[0]
                    if text is not None:
                        docs += models.search_docs(path, text, self.params)
                body = json.dumps(docs, ensure_ascii=True, separators=(",", ":"))
                return f"(window.memgitSearch = window.memgitSearch || []).push({body});\n".encode()

            plans.append(Plan(url, _key(self.global_key, "shard", [(p, e.blob) for p, e in members]), produce,
                              tuple(e.blob for _, e in members)))
        shard_urls = [f"assets/search/{n:02d}.js" for n in range(SHARDS)]
        plans.append(Plan(urls.SEARCH, _key(self.global_key, "search", shard_urls),
                          lambda contents: self._render("search.html", urls.SEARCH, shards=shard_urls,
                                                        title="Search")))
        return plans

    def _dreams_plan(self) -> Plan:
        reports = [{"path": p, "url": urls.relative(urls.DREAMS, urls.note_url(p)), "first": self.summary(p).first,
                    "title": self.summary(p).title}
                   for p in sorted(self.files, reverse=True) if p.startswith(models.DREAMS_DIR)]
        lines_at, current = self.ref_lines
        actions = []
        for action in self.actions:
            source: SourceRef | None = action["source"]
            link = models.provenance_link(source, current, lines_at, urls.DREAMS) if source else None
            actions.append({**action, "source": link})
        return Plan(urls.DREAMS, _key(self.global_key, "dreams", reports, actions),
                    lambda contents: self._render("dreams.html", urls.DREAMS, reports=reports, actions=actions,
                                                  title="Dreams"))

    def _static_plans(self) -> list[Plan]:
        plans = []
        for name in render.static_names(self.template_dirs):
            source = render.static_file(self.template_dirs, name)
            data = source.read_bytes()
            plans.append(Plan(f"assets/{name}", _key("static", name, output.digest(data)),
                              lambda contents, data=data: data))
        return plans
