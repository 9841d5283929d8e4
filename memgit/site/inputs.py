"""What one site build reads: the memory files of a tree, their summaries and history, memgit's
trailer commits, MEMORY.md's references, kept between builds in the manifest.

Gathering is the first step of a build (as in mkdocs): everything the pages need is read here, in
a handful of batched git processes (`reader`, the site's one way into git), and what did not
change since the last build comes from the manifest instead of git. The `Gatherer` returns
`Inputs`, a frozen value the planner (`pages`) and the renderer (`renderer`) are handed; neither
reads git. What a page reads only when it is made (the blobs of the pages to render, the Concepts
pages' lazy inputs, MEMORY.md's blame) goes through `Inputs.reads`, the narrow reader the gatherer
hands on.

Every memory text a page, search shard, summary or concept place shows enters the build through
`ShownTexts.shown` (`Inputs.texts`), which replaces each line the lint flags as a secret with
`[redacted: RULE]` (`memgit.lint.redact`): one place, so no page can show what another hides.
Which lines were redacted is kept per blob, for the build's report. The build decodes every text
its pages need there before they render, so forked workers find each text made and what was
redacted is known to this process.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgit import __version__
from memgit.core import paths
from memgit.core.provenance import EntryMarker, SourceRef, parse_reference
from memgit.dream.entries import parse_store
from memgit.dream.entries import provenance as entry_provenance
from memgit.lint.known import known_secrets
from memgit.lint.redact import redact_line, redact_text, secret_in_name
from memgit.lint.rules import SECRET_CODES, resolve_settings
from memgit.resources import shipped_dir
from memgit.site import concepts as site_concepts
from memgit.site import manifest as manifest_mod
from memgit.site import models, parallel, pictures, references, render, untrusted, vault
from memgit.site import renames as site_renames
from memgit.site import theme as site_theme
from memgit.site.reader import Entry, GitReads, PageReads, resolve_commit
from memgit.workspace import Workspace

if TYPE_CHECKING:
    from memgit.config import SiteConfig

ZERO = "0" * 40
#: How summaries are made (titles, headings), versioned: part of the global key, so a manifest's
#: summaries made under older rules are made again.
SUMMARIES = 3
#: What a build redacts, versioned: part of every page's key, so a page made under other rules is
#: never kept by a later build (bump it when the redaction rules change what pages show).
REDACTION = 3
PRIVATE_SUBJECT = "a private change"
#: Where a MEMORY.md entry came from (`references.entry_source`), for the renderer.
entry_source = references.entry_source


def input_key(*parts: Any) -> str:
    """A page's input key: the repr of plain values built in a fixed order is stable and fast."""
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


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


def ref_inputs(files: Mapping[str, Entry], refs: list[SourceRef]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """What references read: the current blob of each path they name, their (commit, path) pairs."""
    current_blobs = {r.path: files[r.path].blob for r in refs if r.path in files and files[r.path].is_regular}
    return current_blobs, sorted({(r.commit, r.path) for r in refs if r.commit})


def _record(summary: models.Summary) -> dict:
    """A summary as the manifest keeps it, with a digest listing pages use as their key."""
    data = summary.to_json()
    data["d"] = input_key(data)[:16]
    return data


def _decode_and_redact(
    max_bytes: int, redact: Callable[[str], tuple[str, list[list]]], item: tuple[str, bytes]
) -> tuple[str | None, str | None, list[list]]:
    """A blob's text as the site shows it (redacted), why it cannot be shown, the lines redacted."""
    text, problem = models.decode(item[1], max_bytes)
    if text is None:
        return None, problem, []
    text, hits = redact(text)
    return text, None, hits


class ShownTexts:
    """The texts of one build as its pages show them, and the lines redacted in each blob."""

    def __init__(
        self,
        max_bytes: int,
        redacting: bool,
        severities: dict[str, str],
        entropy_threshold: float,
        redactions: dict[str, list[list]],
        known: Mapping[str, str] | None = None,
    ) -> None:
        self.max_bytes = max_bytes
        self.redacting = redacting
        self.severities = severities
        self.entropy_threshold = entropy_threshold
        #: The values a rule found anywhere in the workspace (`memgit.lint.known`): hidden on every page.
        self.known = dict(known or {})
        self._shown: dict[str, tuple[str | None, str | None]] = {}
        #: blob -> [[line, rule]] of the lines `shown` redacted in it (blobs with none are absent).
        self.redactions = redactions

    def shown(self, blob: str, data: bytes) -> tuple[str | None, str | None]:
        """A blob's text as the site shows it, decoded and redacted once per build: (text, None) or
        (None, why it cannot be shown)."""
        if blob not in self._shown:
            self.show_all({blob: data}, lambda step, done, total: None)
        return self._shown[blob]

    def show_all(self, blobs: dict[str, bytes], say: Callable[[str, int, int], None]) -> None:
        """`shown` for many blobs at once, decoded and redacted on every core (`parallel`)."""
        todo = [(blob, data) for blob, data in blobs.items() if blob not in self._shown]
        work = partial(_decode_and_redact, self.max_bytes, self.redact)
        for done, (index, (text, problem, hits)) in enumerate(parallel.forked_map(work, todo), start=1):
            blob = todo[index][0]
            self._shown[blob] = (text, problem)
            if hits:
                self.redactions[blob] = hits
            if done % 50 == 0 or done == len(todo):
                say("redacting secrets", done, len(todo))

    def text(self, contents: dict[str, bytes], blob: str) -> tuple[str | None, str | None]:
        """The text of a blob the build read for a page (`contents`)."""
        if blob not in contents:
            return models.decode(b"", self.max_bytes)
        return self.shown(blob, contents[blob])

    def redact(self, text: str) -> tuple[str, list[list]]:
        """A text with the lines the lint flags as secrets replaced, and those lines."""
        if not self.redacting:
            return text, []
        text, found = redact_text(
            text, entropy_threshold=self.entropy_threshold, severities=self.severities, known=self.known
        )
        return text, [[r.line, r.code] for r in found]

    def subjects(self, commits: list[dict]) -> list[dict]:
        """Commit rows with a subject or author the lint flags shown with its placeholder (`memgit
        dream` writes the promoted text into its commits' subjects). Not in the report: git history
        holds them (`memgit lint --history` names them)."""
        if not self.redacting:
            return commits
        redact = partial(
            redact_line, entropy_threshold=self.entropy_threshold, severities=self.severities, known=self.known
        )
        return [redacted_commit(commit, redact) for commit in commits]


@dataclass(frozen=True)
class Inputs:
    """The gathered inputs of one build, as the planner and the renderer read them: made once by
    the `Gatherer`, changed by no one after (the texts and the page reads are caches of reads)."""

    ws: Workspace
    scope: str
    base_url: str
    commit: str
    tree: str
    cfg: SiteConfig
    max_bytes: int
    params: models.ChunkParams
    shipped: Path
    theme: site_theme.Theme
    #: How the templates render: "shipped", "sandboxed" or "trusted" (`render.templates_mode`).
    templates_mode: str
    global_key: str
    #: Every text a page shows, decoded and redacted, and the lines redacted per blob.
    texts: ShownTexts
    #: What pages read only when they are made (their blobs, MEMORY.md's blame).
    reads: PageReads
    #: What the repository made the build leave out or change: {kind, path, why} (problem_rows).
    problems: list[dict]
    tree_files: dict[str, Entry]
    #: The memory files the site shows (a public site's private paths left out).
    files: dict[str, Entry]
    #: Memory files left out for a secret in their name (path -> rule).
    secret_names: dict[str, str]
    renamed: dict[str, str]
    #: Dreaming's newest concepts files, the days any was written, the provenance store.
    dream_concept_files: list[tuple[str, Entry]]
    dream_concept_days: set[str]
    store_blob: str
    provenance: Mapping[str, EntryMarker]
    #: Every key dreaming recorded: a trailer commit whose key is not here is no promotion of memgit's.
    store_keys: set[str]
    #: path -> its summary as the manifest keeps it; blob -> the same, for the manifest.
    records: dict[str, dict]
    blob_records: dict[str, dict]
    templates: frozenset[str]
    template_tags: frozenset[str]
    wiki: dict[str, dict[str, str]]
    links: dict[str, list[str]]
    unresolved: dict[str, list[str]]
    daily: list[str]
    #: Paths a commit touched since the last build (None: every path counts as touched).
    touched: set[str] | None
    logs: dict[str, list[dict]]
    trailers: list[dict]
    actions: list[dict]
    dreams_state: dict[str, list[str]]
    #: MEMORY.md's entries that name a source, as the manifest keeps them ({} without one).
    memory_refs_state: dict
    #: The lines each reference names, then and now; the full ids of their commits.
    ref_lines: references.RefLines
    #: (path, commit) -> [[line, rule]] for the older versions provenance links show.
    ref_redactions: dict[tuple[str, str], list[list]]
    full_ids: dict[str, str]
    heat: dict[str, dict[int, int]]
    heat_state: dict[str, dict]
    images: dict[str, str]
    images_state: dict[str, str]
    #: Who wrote each referenced line (private sites with a MEMORY.md), what each supersede replaced.
    written: dict[str, dict]
    superseded: dict[str, str]
    _summaries: dict[str, models.Summary] = field(default_factory=dict, repr=False, compare=False)

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

    def memory_entries(self) -> list[dict]:
        """MEMORY.md's entries that name a source: start, end, reference, key, first words and
        the key they replaced."""
        return list(self.memory_refs_state.get("entries", []))

    def memory_refs(self) -> list[SourceRef]:
        return [parse_reference(e["ref"]) for e in self.memory_entries()]

    def ref_inputs(self, refs: list[SourceRef]) -> tuple[dict[str, str], list[tuple[str, str]]]:
        return ref_inputs(self.files, refs)


class Gatherer:
    """Reads what one build shows, once, and returns it as `Inputs` (`gather`)."""

    def __init__(self, ws: Workspace, scope: str, base_url: str, at: str, trust_templates: bool = False) -> None:
        self.ws = ws
        self.scope = scope
        self.base_url = base_url
        self.git = GitReads(ws.git)
        self.commit, self.tree = resolve_commit(ws.git, at)
        cfg = ws.config
        self.cfg = cfg.site
        self.max_bytes = cfg.memory.max_file_bytes
        self.params = models.ChunkParams(
            cfg.chunking.max_tokens, cfg.chunking.overlap_tokens, cfg.chunking.chars_per_token, cfg.site.search_chars
        )
        # The theme, read without following a link; the renderer makes its Jinja environment.
        self.shipped = shipped_dir("templates")
        self.theme = site_theme.load_theme(ws.root, cfg.site.templates)
        self.templates_mode = render.templates_mode(self.theme, trust_templates)
        lint = resolve_settings(cfg.lint, default_max_bytes=cfg.memory.max_file_bytes)
        # A public site always redacts; `[site] show_secrets` may lift it for the private one only.
        self.redacting = scope == "public" or not cfg.site.show_secrets
        self.secret_rules = {code: lint.severity(code) for code in SECRET_CODES}
        self.entropy_threshold = lint.entropy_threshold
        # What a rule found in any memory file (HEAD's, the work tree's, the built tree's) is hidden
        # on every page; a new such value changes every page that may hold it, so it is in the key.
        self.known = known_secrets(ws, lint, tree=self.tree, short_codes=True) if self.redacting else {}
        known_key = hashlib.sha256(json.dumps(sorted(self.known.items())).encode()).hexdigest()[:16]
        redaction = (REDACTION, self.redacting, sorted(self.secret_rules.items()), self.entropy_threshold, known_key)
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
        self.problems: list[dict] = [{"kind": "theme", "path": where, "why": why} for where, why in self.theme.problems]
        self.ref_redactions: dict[tuple[str, str], list[list]] = {}

    def gather(self, mf: manifest_mod.Manifest, say: Callable[[str, int, int], None] | None = None) -> Inputs:
        """Every input of the build, read once: the tree's memory files, dreaming's concepts and
        provenance store, a summary per file, the history since the last build, and what
        MEMORY.md's references and the pictures need."""
        ws = self.ws
        say = say or (lambda step, done, total: None)
        self.mf = mf
        self.texts = ShownTexts(
            self.max_bytes,
            self.redacting,
            self.secret_rules,
            self.entropy_threshold,
            dict(mf.redactions or {}),
            self.known,
        )
        self.reads = PageReads(self.git, self.commit, dict(mf.blame or {}), self.texts.subjects)
        tree_files = self.tree_files = self.git.entries(self.tree)
        memory = [path for path in sorted(tree_files) if ws.is_memory_path(path)]
        self.problems += untrusted.private_pattern_rows(self.cfg.private_paths, memory)
        shown = [p for p in memory if self.scope == "private" or not models.is_private(p, self.cfg.private_paths)]
        #: Memory files left out for a secret in their name (path -> rule): a file's pages, links
        #: and listings all name it.
        self.secret_names = {
            p: code for p in shown if self.redacting and (code := secret_in_name(p, self.known)) is not None
        }
        self.files: dict[str, Entry] = {p: tree_files[p] for p in shown if p not in self.secret_names}
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
        say("reading history", 0, 0)
        self._gather_history(mf)
        say("reading references and pictures", 0, 0)
        self._gather_references()
        return self._inputs()

    def _inputs(self) -> Inputs:
        """What was gathered, frozen for the planner and the renderer."""
        return Inputs(
            ws=self.ws,
            scope=self.scope,
            base_url=self.base_url,
            commit=self.commit,
            tree=self.tree,
            cfg=self.cfg,
            max_bytes=self.max_bytes,
            params=self.params,
            shipped=self.shipped,
            theme=self.theme,
            templates_mode=self.templates_mode,
            global_key=self.global_key,
            texts=self.texts,
            reads=self.reads,
            problems=self.problems,
            tree_files=self.tree_files,
            files=self.files,
            secret_names=self.secret_names,
            renamed=self.renamed,
            dream_concept_files=self.dream_concept_files,
            dream_concept_days=self.dream_concept_days,
            store_blob=self.store_blob,
            provenance=self.provenance,
            store_keys=self.store_keys,
            records=self.records,
            blob_records=self.blob_records,
            templates=self.templates,
            template_tags=self.template_tags,
            wiki=self.wiki,
            links=self.links,
            unresolved=self.unresolved,
            daily=self.daily,
            touched=self.touched,
            logs=self.logs,
            trailers=self.trailers,
            actions=self.actions,
            dreams_state=self.dreams_state,
            memory_refs_state=self.memory_refs_state,
            ref_lines=self.ref_lines,
            ref_redactions=self.ref_redactions,
            full_ids=self.full_ids,
            heat=self.heat,
            heat_state=self.heat_state,
            images=self.images,
            images_state=self.images_state,
            written=self.written,
            superseded=self.superseded,
        )

    def hidden_path(self, path: str) -> bool:
        return models.is_private(path, self.cfg.private_paths)

    def _gather_dreaming(self, tree_files: dict[str, Entry]) -> None:
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
            self.git.blobs([self.store_blob])[self.store_blob].decode("utf-8", "replace") if self.store_blob else None
        )
        self.provenance = entry_provenance(store_text)
        #: Every key dreaming recorded: a trailer commit whose key is not here is no promotion of memgit's.
        self.store_keys = {r.key for r in parse_store(store_text).records} if store_text else set()

    def _gather_summaries(self, mf: manifest_mod.Manifest, say: Callable[[str, int, int], None]) -> None:
        """A summary per file: kept in the manifest by blob, made (and redacted) for new blobs."""
        blobs = {e.blob for e in self.files.values() if e.is_regular}
        missing = sorted(blobs - set(mf.summaries))
        say("reading notes", 0, len(missing))
        fresh = self.git.blobs(missing) if missing else {}
        self.texts.show_all(fresh, say)
        self.records: dict[str, dict] = {}
        for path, entry in self.files.items():
            if not entry.is_regular:
                self.records[path] = _record(models.Summary(problem="not a regular file (symlink)"))
            elif entry.blob in fresh:
                text, problem = self.texts.shown(entry.blob, fresh[entry.blob])
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
        limit = self.cfg.history
        since = (
            mf.commit
            if mf.commit
            and mf.logs is not None
            and mf.trailers is not None
            and self.git.is_ancestor(mf.commit, self.commit)
            else None
        )
        moves = self.git.renames(self.commit, since=since)
        if since and any(old not in (mf.logs or {}) for _, old, _ in moves):
            # A note renamed from a name the last build did not show: its past is not in the
            # manifest, so the whole history is walked (as a full build would).
            since, moves = None, self.git.renames(self.commit)
        names = set(self.files) | {old for _, old, new in moves}
        hidden = self.hidden_path if self.scope == "public" else None
        found = {
            p: self.texts.subjects(public_subjects(rows))
            for p, rows in self.git.file_logs(self.commit, names, limit, since, hidden).items()
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
            newer = self.texts.subjects(self.git.trailer_commits(self.commit, since))
            self.trailers = newer + ((mf.trailers or []) if since else [])
            self.actions = self._memgit_actions()

    def _memgit_actions(self) -> list[dict]:
        """Dreaming's actions as memgit's own records tell them: a trailer commit counts only when
        it is reachable from a merged dream branch tip and its key is in the provenance store;
        any other commit with the same trailers is a hand-written change and shows as none."""
        if not self.trailers:  # nothing to check: no process for the branches
            self.dreams_state = dict(self.mf.dreams or {})
            return []
        self.dreams_state = self.git.dream_commits(self.commit, self.ws.config.dream.branch_prefix, self.mf.dreams)
        written = {commit for ids in self.dreams_state.values() for commit in ids}
        return [a for a in models.dream_actions(self.trailers) if a["id"] in written and a["key"] in self.store_keys]

    def _gather_references(self) -> None:
        """What links need beyond the files: MEMORY.md's entries that name a source; the lines each
        source of those entries and of dreaming's actions names, then and now; the full ids of
        their commits (snapshot addresses are made from full ids only: references may abbreviate
        them); who wrote those lines; recall heat; the images."""
        memory = self.files.get("MEMORY.md")
        self.memory_refs_state = references.memory_entries(
            self.git, self.texts, memory, self.store_blob, self.provenance, self.mf.memory_refs
        )
        memory_refs = [parse_reference(e["ref"]) for e in self.memory_refs_state.get("entries", [])]
        refs, left = untrusted.shown_references(
            memory_refs + [a["source"] for a in self.actions if a["source"]],
            self.ws.is_memory_path,
            self.hidden_path if self.scope == "public" else None,
        )
        self.problems += left
        self.ref_lines: references.RefLines = ({}, {})
        if refs:
            current_blobs, pairs = ref_inputs(self.files, refs)
            self.ref_lines = references.ref_lines(self.git, self.texts, pairs, current_blobs, self.ref_redactions)
        self.full_ids = self.git.full_commit_ids({r.commit for r in refs if r.commit}) if refs else {}
        self.heat = self._heat()
        self.images = self._image_copies()
        self._gather_credits(memory_refs, memory)

    def _gather_credits(self, refs: list[SourceRef], memory: Entry | None) -> None:
        """What the home page's credits and the dreams page show of a private site: who wrote each
        source line MEMORY.md's entries name, and the words each supersede replaced."""
        private = self.scope == "private"
        kept_written, kept_superseded = self.mf.written or {}, self.mf.superseded or {}
        credited = private and memory is not None and memory.is_regular
        self.written = references.written(self.git, self.texts, refs, kept_written) if credited else {}
        self.superseded = references.superseded(self.git, self.texts, self.actions, kept_superseded) if private else {}

    def _image_copies(self) -> dict[str, str]:
        """The images notes show (path -> where the build copies it): regular files of the tree
        whose bytes are a picture (`pictures`), on a public site only from paths it may show."""
        links = (t for p in self.files for t in self.links[p] if _image_suffix(t))
        allowed = None if self.scope == "private" else self.hidden_path
        wanted = pictures.wanted(links, self.tree_files, allowed)
        found = pictures.Copies()
        if wanted:
            with self.git.blob_reader() as reader:
                found = pictures.copies(reader, wanted, self.mf.images or {})
        self.images_state = found.kinds
        self.problems += [untrusted.row("picture", path, why) for path, why in found.refused]
        return found.urls

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

            for blob, data in self.git.blobs(missing).items():
                cache[blob] = ledger_heat(data.decode("utf-8", "replace"))
        self.heat_state = {e.blob: cache[e.blob] for _, e in ledgers}
        if not ledgers:
            return {}
        from memgit.site.recalls import merge

        return merge((self.heat_state[e.blob] for _, e in ledgers), self.files)
