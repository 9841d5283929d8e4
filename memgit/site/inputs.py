"""What one site build reads: the memory files of a tree, their summaries and history, memgit's
trailer commits, MEMORY.md's references and blame, kept between builds in the manifest.

Gathering is the first step of a build (as in mkdocs): everything the pages need is read here, in
a handful of batched git processes, and what did not change since the last build comes from the
manifest instead of git. The planner (`pages`) and the renderer (`renderer`) are handed the
gathered `Inputs`; neither reads git (what MEMORY.md's credits and the Concepts pages need is read
through here and `concept_inputs`, when their pages are made).

Every memory text a page, search shard, summary or concept place shows enters the build through
`Inputs.shown`, which replaces each line the lint flags as a secret with `[redacted: RULE]`
(`memgit.lint.redact`): one place, so no page can show what another hides. Which lines were
redacted is kept per blob, for the build's report.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from memgit import __version__
from memgit.core import paths
from memgit.core.provenance import SourceRef, parse_reference
from memgit.dream.entries import parse_store
from memgit.dream.entries import provenance as entry_provenance
from memgit.git import history, plumbing
from memgit.lint.redact import redact_line, redact_text, secret_in_name
from memgit.lint.rules import SECRET_CODES, resolve_settings
from memgit.resources import shipped_dir
from memgit.site import concepts as site_concepts
from memgit.site import manifest as manifest_mod
from memgit.site import models, parallel, pictures, render, untrusted, vault
from memgit.site import renames as site_renames
from memgit.site import theme as site_theme
from memgit.workspace import Workspace

if TYPE_CHECKING:
    from memgit.site.markdown import Entry

ZERO = "0" * 40
#: How summaries are made (titles, headings), versioned: part of the global key, so a manifest's
#: summaries made under older rules are made again.
SUMMARIES = 3
#: What a build redacts, versioned: part of every page's key, so a page made under other rules is
#: never kept by a later build (bump it when the redaction rules change what pages show).
REDACTION = 3
PRIVATE_SUBJECT = "a private change"


def input_key(*parts: Any) -> str:
    """A page's input key: the repr of plain values built in a fixed order is stable and fast."""
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


def entry_source(entry: Entry) -> SourceRef | None:
    """Where a MEMORY.md entry came from: the one place that knows how an entry names its source
    (today the marker's `source=` field; a marker that only holds a key would be looked up here)."""
    return entry.marker.source if entry.marker is not None else None


def public_subjects(rows: list[dict]) -> list[dict]:
    """History rows of a public site: a commit that also changed a private file keeps its id, author
    and date, but its subject (which may speak of that file) reads "a private change"."""
    return [{**row, "subject": PRIVATE_SUBJECT} if row.get("private") else row for row in rows]


def redacted_commit(commit: dict, redact: Callable[[str], tuple[str, str | None]]) -> dict:
    """`commit` with its subject and author (shown beside it) as `redact` shows them, when flagged."""
    changed = {}
    for key in ("subject", "author"):
        text, code = redact(commit.get(key) or "")
        if code:
            changed[key] = text
    return {**commit, **changed} if changed else commit


def _image_suffix(path: str) -> str:
    dot = path.rfind(".")
    suffix = path[dot:].lower() if dot > path.rfind("/") else ""
    return suffix if suffix in models.IMAGE_TYPES else ""


def _decode_and_redact(
    max_bytes: int, redact: Callable[[str], tuple[str, list[list]]], item: tuple[str, bytes]
) -> tuple[str | None, str | None, list[list]]:
    """A blob's text as the site shows it (redacted), why it cannot be shown, the lines redacted."""
    text, problem = models.decode(item[1], max_bytes)
    if text is None:
        return None, problem, []
    text, hits = redact(text)
    return text, None, hits


def _record(summary: models.Summary) -> dict:
    """A summary as the manifest keeps it, with a digest listing pages use as their key."""
    data = summary.to_json()
    data["d"] = input_key(data)[:16]
    return data


class Inputs:
    """The inputs of one build: options, settings, files of the tree and what is known about them."""

    def __init__(
        self, ws: Workspace, scope: str, base_url: str, commit: str, tree: str, trust_templates: bool = False
    ) -> None:
        self.ws = ws
        self.scope = scope
        self.base_url = base_url
        self.commit = commit
        self.tree = tree
        cfg = ws.config
        self.cfg = cfg.site
        self.max_bytes = cfg.memory.max_file_bytes
        self.params = models.ChunkParams(
            cfg.chunking.max_tokens, cfg.chunking.overlap_tokens, cfg.chunking.chars_per_token, cfg.site.search_chars
        )
        # The theme, read without following a link, and the Jinja environment it renders in.
        self.shipped = shipped_dir("templates")
        self.theme = site_theme.load_theme(ws.root, cfg.site.templates)
        jinja_cache = ws.data_dir / "site" / "jinja"
        self.env, self.templates_mode = render.environment(self.shipped, self.theme, jinja_cache, trust_templates)
        lint = resolve_settings(cfg.lint, default_max_bytes=cfg.memory.max_file_bytes)
        # A public site always redacts; `[site] show_secrets` may lift it for the private one only.
        self.redacting = scope == "public" or not cfg.site.show_secrets
        self.secret_rules = {code: lint.severity(code) for code in SECRET_CODES}
        self.entropy_threshold = lint.entropy_threshold
        redaction = (REDACTION, self.redacting, sorted(self.secret_rules.items()), self.entropy_threshold)
        self.global_key = input_key(
            __version__,
            render.templates_hash(self.shipped, self.theme),
            self.templates_mode,
            scope,
            base_url,
            dataclasses.asdict(self.cfg),
            dataclasses.asdict(self.params),
            self.max_bytes,
            redaction,
            SUMMARIES,
        )
        self._shown: dict[str, tuple[str | None, str | None]] = {}
        #: What the repository made the build leave out or change: {kind, path, why} (problem_rows).
        self.problems: list[dict] = [{"kind": "theme", "path": where, "why": why} for where, why in self.theme.problems]
        #: blob -> [[line, rule]] of the lines `shown` redacted in it (blobs with none are absent).
        self.redactions: dict[str, list[list]] = {}
        #: (path, commit) -> [[line, rule]] for the older versions provenance links show.
        self.ref_redactions: dict[tuple[str, str], list[list]] = {}

    def gather(self, mf: manifest_mod.Manifest, say: Callable[[str, int, int], None] | None = None) -> None:
        """Every input of the build, read once: the tree's memory files, dreaming's concepts and
        provenance store, a summary per file, and the history since the last build."""
        ws = self.ws
        say = say or (lambda step, done, total: None)
        self.blame_cache = dict(mf.blame or {})
        self.redactions = dict(mf.redactions or {})
        tree_files = self.tree_files = plumbing.entries(ws.root, self.tree)
        memory = [path for path in sorted(tree_files) if ws.is_memory_path(path)]
        self.problems += untrusted.private_pattern_rows(self.cfg.private_paths, memory)
        shown = [p for p in memory if self.scope == "private" or not models.is_private(p, self.cfg.private_paths)]
        #: Memory files left out for a secret in their name (path -> rule): a file's pages, links
        #: and listings all name it.
        self.secret_names = {p: code for p in shown if self.redacting and (code := secret_in_name(p)) is not None}
        self.files: dict[str, plumbing.Entry] = {p: tree_files[p] for p in shown if p not in self.secret_names}
        self.renamed, named = untrusted.name_rows(self.files)
        self.problems += named
        if self.renamed:  # every page links by page name: another set of names is another site
            self.global_key = input_key(self.global_key, "names", sorted(self.renamed))
        self._gather_dreaming(tree_files)
        self._gather_summaries(mf, say)
        self._site_titles()
        regular = (p for p, e in tree_files.items() if e.is_regular)  # wikilinks as a vault resolves them
        self.wiki, self.links, self.unresolved = vault.resolve_links(self.records, regular)
        self.daily = [p for p in self.files if paths.daily_log_day(p)]
        self._summaries: dict[str, models.Summary] = {}
        self.mf = mf
        self.memory_refs_state: dict = {}
        self.written_state: dict = {}
        self.superseded_state: dict = {}
        self.heat_state: dict = {}
        say("reading history", 0, 0)
        self._gather_history(mf)
        say("reading references and pictures", 0, 0)
        self._gather_references()

    def _gather_dreaming(self, tree_files: dict[str, plumbing.Entry]) -> None:
        """Dreaming's concepts files (memory/.dreams/concepts/*.json), newest first: not memory,
        read whatever the scope (a public site links only to the public places they name); and the
        provenance store of MEMORY.md's entries, whose short markers name only a key."""
        dream_files = sorted(
            (
                (p, e)
                for p, e in tree_files.items()
                if p.startswith(paths.CONCEPTS_DIR + "/") and p.endswith(".json") and e.is_regular
            ),
            reverse=True,
        )
        self.dream_concept_files = dream_files[: site_concepts.MAX_DREAMS]
        self.dream_concept_days = {
            day for p, _ in dream_files if (day := paths.daily_date(p.removesuffix(".json") + ".md"))
        }
        store = tree_files.get(paths.ENTRIES_PATH)
        self.store_blob = store.blob if store is not None and store.is_regular else ""
        store_text = (
            plumbing.read_blobs(self.ws.root, [self.store_blob])[self.store_blob].decode("utf-8", "replace")
            if self.store_blob
            else None
        )
        self.provenance = entry_provenance(store_text)
        #: Every key dreaming recorded: a trailer commit whose key is not here is no promotion of memgit's.
        self.store_keys = {r.key for r in parse_store(store_text).records} if store_text else set()

    def _gather_summaries(self, mf: manifest_mod.Manifest, say: Callable[[str, int, int], None]) -> None:
        """A summary per file: kept in the manifest by blob, made (and redacted) for new blobs."""
        blobs = {e.blob for e in self.files.values() if e.is_regular}
        missing = sorted(blobs - set(mf.summaries))
        say("reading notes", 0, len(missing))
        fresh = plumbing.read_blobs(self.ws.root, missing) if missing else {}
        self.show_all(fresh, say)
        self.records: dict[str, dict] = {}
        for path, entry in self.files.items():
            if not entry.is_regular:
                self.records[path] = _record(models.Summary(problem="not a regular file (symlink)"))
            elif entry.blob in fresh:
                text, problem = self.shown(entry.blob, fresh[entry.blob])
                self.records[path] = _record(
                    models.summarise_text(path, text) if text is not None else models.Summary(problem=problem)
                )
            else:
                self.records[path] = mf.summaries[entry.blob]
        self.blob_records = {e.blob: self.records[p] for p, e in self.files.items() if e.is_regular}

    def _site_titles(self) -> None:
        """Each file's title on this site (`titles.site_title`): the headings most Markdown files
        share are template headings, which name no document (nor a concept). The records the
        manifest keeps stay per blob; the pages' keys carry the template headings (global key)."""
        from memgit.site import titles

        heads = titles.summary_fields(self.records)
        self.templates = titles.template_headings(heads, len(heads))
        self.template_tags = titles.concept_slugs(self.templates)
        if self.templates:
            self.global_key = input_key(self.global_key, "templates", sorted(self.templates))
        for path, record in list(self.records.items()):
            if record.get("problem"):
                continue
            title, source = titles.site_title(path, record["title"], record.get("title_from", ""), self.templates)
            if (title, source) != (record["title"], record.get("title_from", "")):
                changed = {**record, "title": title, "title_from": source}
                changed["d"] = input_key({k: v for k, v in changed.items() if k != "d"})[:16]
                self.records[path] = changed

    def _gather_history(self, mf: manifest_mod.Manifest) -> None:
        """Each file's recent commits and dreaming's action commits. History since the last build
        is merged into what the manifest kept; a build of a commit that does not descend from the
        last one (another branch, --at an older commit) walks it all."""
        ws = self.ws
        limit = self.cfg.history
        since = (
            mf.commit
            if mf.commit
            and mf.logs is not None
            and mf.trailers is not None
            and history.is_ancestor(ws.root, mf.commit, self.commit)
            else None
        )
        moves = history.renames(ws.root, self.commit, since=since)
        if since and any(old not in (mf.logs or {}) for _, old, _ in moves):
            # A note renamed from a name the last build did not show: its past is not in the
            # manifest, so the whole history is walked (as a full build would).
            since, moves = None, history.renames(ws.root, self.commit)
        names = set(self.files) | {old for _, old, new in moves}
        hidden = self.hidden_path if self.scope == "public" else None
        found = {
            p: self.subjects(public_subjects(rows))
            for p, rows in history.file_logs(ws.root, self.commit, names, limit, since=since, hidden=hidden).items()
        }
        # Paths no commit touched since the last build keep their pages as they are (see plan()).
        self.touched: set[str] | None = set(found) if since else None
        old_logs = (mf.logs or {}) if since else {}
        logs = {p: found.get(p, []) + old_logs.get(p, []) for p in names}
        self.logs = site_renames.follow(logs, moves, self.files, limit)  # a renamed note keeps its history
        self.trailers: list[dict] = []
        self.actions = []
        self.dreams_state: dict[str, list[str]] = {}
        if self.scope == "private":
            newer = self.subjects(
                [dataclasses.asdict(c) for c in history.trailer_commits(ws.root, self.commit, since=since)]
            )
            self.trailers = newer + ((mf.trailers or []) if since else [])
            self.actions = self._memgit_actions()

    def _memgit_actions(self) -> list[dict]:
        """Dreaming's actions as memgit's own records tell them: a trailer commit counts only when
        it is reachable from a merged dream branch tip and its key is in the provenance store;
        any other commit with the same trailers is a hand-written change and shows as none."""
        if not self.trailers:  # nothing to check: no process for the branches
            self.dreams_state = dict(self.mf.dreams or {})
            return []
        self.dreams_state = history.dream_commits(
            self.ws.root, self.commit, self.ws.config.dream.branch_prefix, self.mf.dreams
        )
        written = {commit for ids in self.dreams_state.values() for commit in ids}
        return [a for a in models.dream_actions(self.trailers) if a["id"] in written and a["key"] in self.store_keys]

    def _gather_references(self) -> None:
        """What links need beyond the files: the lines each source of MEMORY.md's entries and of
        dreaming's actions names, then and now; the full ids of their commits (snapshot addresses
        are made from full ids only: references may abbreviate them); recall heat; the images."""
        refs = self.memory_refs()
        refs += [a["source"] for a in self.actions if a["source"]]
        refs, left = untrusted.shown_references(
            refs, self.ws.is_memory_path, self.hidden_path if self.scope == "public" else None
        )
        self.problems += left
        self.ref_lines = self._ref_lines(*self.ref_inputs(refs)[::-1]) if refs else ({}, {})
        self.full_ids = history.full_commit_ids(self.ws.root, {r.commit for r in refs if r.commit}) if refs else {}
        self.heat = self._heat()
        self.images = self._image_copies()

    def _image_copies(self) -> dict[str, str]:
        """The images notes show (path -> where the build copies it): regular files of the tree
        whose bytes are a picture (`pictures`), on a public site only from paths it may show."""
        links = (t for p in self.files for t in self.links[p] if _image_suffix(t))
        allowed = None if self.scope == "private" else self.hidden_path
        wanted = pictures.wanted(links, self.tree_files, allowed)
        found = pictures.copies(self.ws.root, wanted, self.mf.images or {})
        self.images_state = found.kinds
        self.problems += [untrusted.row("picture", path, why) for path, why in found.refused]
        return found.urls

    def hidden_path(self, path: str) -> bool:
        """A path a public site never shows, nor says anything of (the subjects of its commits)."""
        return models.is_private(path, self.cfg.private_paths)

    def summary(self, path: str) -> models.Summary:
        found = self._summaries.get(path)
        if found is None:
            found = self._summaries[path] = models.Summary.from_json(self.records[path])
        return found

    def digests(self, selected: list[str] | None = None) -> list[tuple[str, str]]:
        """(path, summary digest) rows: the cheap key of every listing page."""
        return [(p, self.records[p]["d"]) for p in (self.files if selected is None else selected)]

    def shown(self, blob: str, data: bytes) -> tuple[str | None, str | None]:
        """A blob's text as the site shows it, decoded and redacted once per build: (text, None) or
        (None, why it cannot be shown)."""
        if blob not in self._shown:
            self.show_all({blob: data}, lambda step, done, total: None)
        return self._shown[blob]

    def show_all(self, blobs: dict[str, bytes], say: Callable[[str, int, int], None]) -> None:
        """`shown` for many blobs at once, decoded and redacted on every core (`parallel`)."""
        todo = [(blob, data) for blob, data in blobs.items() if blob not in self._shown]
        work = partial(_decode_and_redact, self.max_bytes, self._redact)
        for done, (index, (text, problem, hits)) in enumerate(parallel.forked_map(work, todo), start=1):
            blob = todo[index][0]
            self._shown[blob] = (text, problem)
            if hits:
                self.redactions[blob] = hits
            if done % 50 == 0 or done == len(todo):
                say("redacting secrets", done, len(todo))

    def _redact(self, text: str) -> tuple[str, list[list]]:
        if not self.redacting:
            return text, []
        text, found = redact_text(text, entropy_threshold=self.entropy_threshold, severities=self.secret_rules)
        return text, [[r.line, r.code] for r in found]

    def subjects(self, commits: list[dict]) -> list[dict]:
        """Commit rows with a subject or author the lint flags shown with its placeholder (`memgit
        dream` writes the promoted text into its commits' subjects). Not in the report: git history
        holds them (`memgit lint --history` names them)."""
        if not self.redacting:
            return commits
        redact = partial(redact_line, entropy_threshold=self.entropy_threshold, severities=self.secret_rules)
        return [redacted_commit(commit, redact) for commit in commits]

    def text(self, contents: dict[str, bytes], blob: str) -> tuple[str | None, str | None]:
        if blob not in contents:
            return models.decode(b"", self.max_bytes)
        return self.shown(blob, contents[blob])

    def memory_entries(self) -> list[dict]:
        """MEMORY.md's entries that name a source: start, end, reference, key, first words and
        the key they replaced, parsed once per version of the file (kept in the manifest, so a
        rebuild that does not touch MEMORY.md needs no Markdown parser)."""
        memory = self.files.get("MEMORY.md")
        if memory is None or not memory.is_regular:
            return []
        cached = self.memory_refs_state or self.mf.memory_refs
        if cached.get("blob") != memory.blob or cached.get("store", "") != self.store_blob or "entries" not in cached:
            from memgit.site.markdown import entries as parse_entries

            data = plumbing.read_blobs(self.ws.root, [memory.blob])[memory.blob]
            text = self.shown(memory.blob, data)[0]  # entry words are shown on note pages: redacted
            lines = models.source_lines(text) if text is not None else []
            found = []
            for e in parse_entries(text, self.provenance) if text is not None else []:
                source = entry_source(e)
                if source is None or e.marker is None:
                    continue
                found.append(
                    {
                        "start": e.start,
                        "end": e.end,
                        "ref": source.format(),
                        "key": e.marker.key,
                        "text": models.entry_words(lines, e.start, e.end, 120),
                        "supersedes": e.marker.extra.get("supersedes", ""),
                    }
                )
            cached = {"blob": memory.blob, "store": self.store_blob, "entries": found}
        self.memory_refs_state = cached
        return list(cached["entries"])

    def memory_refs(self) -> list[SourceRef]:
        return [parse_reference(e["ref"]) for e in self.memory_entries()]

    def written(self, refs: list[SourceRef]) -> dict[str, dict]:
        """Who wrote each referenced source line and when: blame of the source file at the
        reference's commit, the newest commit among the range's non-blank lines (kept in the
        manifest by reference, so pygit2 is imported only for new references)."""
        cache = {k: v for k, v in (self.mf.written or {}).items()}
        wanted = sorted({r.format() for r in refs if r.commit} - cache.keys())
        by_pair: dict[tuple[str, str], list[SourceRef]] = {}
        for text in wanted:
            ref = parse_reference(text)
            by_pair.setdefault((ref.commit or "", ref.path), []).append(ref)
        found: dict[str, list[str]] = {}
        if by_pair:
            texts = history.blobs_at(self.ws.root, list(by_pair))
            for (commit, path), group in by_pair.items():
                blame = history.blame_lines(self.ws.root, commit, path, ignore_whitespace=True)
                data = texts.get((commit, path))
                content = models.decode(data, self.max_bytes)[0] if data is not None else None
                lines = models.source_lines(content) if content is not None else []
                for ref in group:
                    found[ref.format()] = models.writers(blame, lines, ref.start, ref.end)
        ids = {commit_id for writers in found.values() for commit_id in writers}
        infos = {
            c["id"]: c
            for c in self.subjects([dataclasses.asdict(c) for c in history.commits_info(self.ws.root, ids).values()])
        }
        for text, writers in found.items():
            known = [infos[c] for c in writers if c in infos]
            info = max(known, key=lambda i: (i["date"], i["id"])) if known else None
            cache[text] = (
                {
                    "id": info["id"],
                    "short": info["id"][:7],
                    "day": info["date"][:10],
                    "author": info["author"],
                    "subject": info["subject"],
                }
                if info
                else {}
            )
        self.written_state = {r.format(): cache.get(r.format(), {}) for r in refs if r.commit}
        return self.written_state

    def superseded(self) -> dict[str, str]:
        """The text each supersede replaced (action commit id -> the old entry's words), read from
        MEMORY.md before that commit; kept in the manifest."""
        cache = dict(self.mf.superseded or {})
        todo = [a for a in self.actions if a["action"] == "supersede" and a["supersedes"] and a["id"] not in cache]
        if todo:
            from memgit.site.markdown import entries as parse_entries

            olds = history.blobs_at(self.ws.root, [(a["id"] + "^", "MEMORY.md") for a in todo])
            for action in todo:
                data = olds.get((action["id"] + "^", "MEMORY.md"))
                text = models.decode(data, self.max_bytes)[0] if data is not None else None
                text = self._redact(text)[0] if text is not None else None  # the old words are quoted
                cache[action["id"]] = ""
                if text is None:
                    continue
                lines = models.source_lines(text)
                for e in parse_entries(text):
                    if e.marker is not None and e.marker.key == action["supersedes"]:
                        cache[action["id"]] = models.entry_words(lines, e.start, e.end, 200)
        self.superseded_state = {a["id"]: cache.get(a["id"], "") for a in self.actions if a["action"] == "supersede"}
        return self.superseded_state

    def _heat(self) -> dict[str, dict[int, int]]:
        """Recall heat of every shown note from the recall ledger in the tree (private sites and
        public ones alike, for public notes only), counted once per ledger blob."""
        from memgit.core.paths import LEDGER_DIR

        ledgers = sorted(
            (p, e)
            for p, e in self.tree_files.items()
            if p.startswith(LEDGER_DIR + "/") and p.endswith(".jsonl") and e.is_regular
        )
        cache = dict(self.mf.heat or {})
        missing = sorted({e.blob for _, e in ledgers} - cache.keys())
        if missing:
            from memgit.site.recalls import ledger_heat

            for blob, data in plumbing.read_blobs(self.ws.root, missing).items():
                cache[blob] = ledger_heat(data.decode("utf-8", "replace"))
        self.heat_state = {e.blob: cache[e.blob] for _, e in ledgers}
        if not ledgers:
            return {}
        from memgit.site.recalls import merge

        return merge((self.heat_state[e.blob] for _, e in ledgers), self.files)

    def memory_blame(self, blob: str, log: list[dict]) -> tuple[list[str], dict[str, dict]]:
        """Blame of MEMORY.md (kept in the manifest: pygit2 is imported only when MEMORY.md
        changed) and the commits it names, their subjects as the site shows them. Read when the
        home page renders, so a build that keeps the home page reads neither."""
        key = [blob, log[0]["id"] if log else ""]
        if self.blame_cache.get("key") == key:
            lines = list(self.blame_cache["lines"])
        else:
            lines = history.blame_lines(self.ws.root, self.commit, "MEMORY.md", ignore_whitespace=True)
            self.blame_cache = {"key": key, "lines": lines}
        commits = history.commits_info(self.ws.root, set(lines)).values()
        return lines, {c["id"]: c for c in self.subjects([dataclasses.asdict(c) for c in commits])}

    def ref_inputs(self, refs: list[SourceRef]) -> tuple[dict[str, str], list[tuple[str, str]]]:
        current_blobs = {
            r.path: self.files[r.path].blob for r in refs if r.path in self.files and self.files[r.path].is_regular
        }
        return current_blobs, sorted({(r.commit, r.path) for r in refs if r.commit})

    def _ref_lines(
        self, pairs: list[tuple[str, str]], current_blobs: dict[str, str]
    ) -> tuple[dict[tuple[str, str], list[str] | None], dict[str, list[str] | None]]:
        raw_at = history.blobs_at(self.ws.root, pairs)
        current_raw = plumbing.read_blobs(self.ws.root, sorted(set(current_blobs.values())))
        lines_at = {}
        for pair, data in raw_at.items():
            text = models.decode(data, self.max_bytes)[0] if data is not None else None
            if text is not None:
                text, hits = self._redact(text)
                if hits:
                    self.ref_redactions[(pair[1], pair[0])] = hits
            lines_at[pair] = models.source_lines(text) if text is not None else None
        current = {}
        for path, blob in current_blobs.items():
            text = self.shown(blob, current_raw[blob])[0]
            current[path] = models.source_lines(text) if text is not None else None
        return lines_at, current
