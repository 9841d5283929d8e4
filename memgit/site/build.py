"""`memgit site build`: gather inputs (`inputs`), plan the pages (`pages`), render those that
changed (`renderer`), write. Each part owns its state: the gathered inputs are frozen, the planner
keeps what it decides, the renderer its Jinja environment; only the gatherer reads git.

As mkdocs does, the build first gathers everything it needs (memory files of the tree at `--at`,
their per-file history, memgit's promotion commits), then turns them into page models (pure, in
`models`), then renders and writes. Each page carries a key made of exactly the inputs it shows
(blob ids, history rows, template hash, options); the manifest in `.git/memgit/` remembers the key
and the bytes written, so a rebuild after a one-file commit renders and writes only the pages that
depend on that file. The same inputs always give the same bytes.
"""

from __future__ import annotations

import dataclasses
import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from memgit.errors import MemgitError
from memgit.site import manifest as manifest_mod
from memgit.site import output, parallel, render
from memgit.site.inputs import Gatherer
from memgit.site.page_plan import Plan
from memgit.site.pages import Planner
from memgit.site.renderer import PageRenderer
from memgit.site.report_rows import left_out_rows, problem_rows, redaction_rows
from memgit.workspace import Workspace

#: What the build is doing, how far it got and of how much (0, 0 for a step it cannot count).
ProgressFn = Callable[[str, int, int], None]


@dataclass(frozen=True)
class BuildOptions:
    out: Path
    scope: str = "private"
    base_url: str = ""
    at: str = "HEAD"
    #: The person building vouches for the workspace's templates: they render outside the sandbox.
    trust_templates: bool = False
    #: memgit's own preview folder (`site serve`), the one output allowed inside `.git`.
    preview: bool = False


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
    #: Lines shown as `[redacted: RULE]`: {path, line, code, rule, commit}; commit is None for the
    #: file at the built commit, else the commit of an older version the site shows.
    redacted: list[dict] = field(default_factory=list)
    #: The site's size: every page and asset, and the part of it that is past versions of notes
    #: (`snap/`, bounded by `[site] snapshots`).
    bytes: int = 0
    snapshot_bytes: int = 0
    snapshot_pages: int = 0
    #: Past versions the notes have (up to `[site] snapshots` each); `[site] history_versions` of
    #: them, the newest, get a page.
    versions_found: int = 0
    #: What a public site left out and why: {what: file | snapshot | subject, path, commit, why}.
    left_out: list[dict] = field(default_factory=list)
    #: `[[wikilinks]]` no file of the tree matches: {path, target}, shown as plain text.
    unresolved: list[dict] = field(default_factory=list)
    #: How the templates rendered: "shipped" (memgit's own), "sandboxed" (the workspace's, in
    #: Jinja's sandbox) or "trusted" (the workspace's, `--trust-templates`).
    templates: str = "shipped"
    #: Everything the build left out or changed because of what the repository holds, one row a
    #: thing: {kind, path, why} (a theme file that is a link, a picture whose bytes are no
    #: picture, a name changed to be a safe page name, a pattern that matches nothing…).
    problems: list[dict] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["written"] = len(self.written)
        data["removed"] = len(self.removed)
        return data


def check_base_url(base_url: str) -> str:
    if base_url and not base_url.startswith(("http://", "https://")):
        raise MemgitError(f"--base-url {base_url!r} must start with http:// or https://")
    return base_url.rstrip("/") + "/" if base_url else ""


#: Page kinds whose rendering touches no build state (safe in a forked worker), and the number of
#: them worth a pool: a full build renders thousands, a rebuild a handful.
_PARALLEL_PREFIXES = ("notes/", "source/", "snap/", "assets/search/")
_PARALLEL_MIN = 200


def _produced(plan: Plan, contents: dict[str, bytes]) -> tuple[bytes, list[tuple[str, str]]]:
    """One page's bytes, with what the template sandbox refused while making it (a worker's
    state dies with it: the report learns of a refusal only through this)."""
    return plan.produce(contents), render.take_refusals()


def _rendered(todo: list[Plan], contents: dict[str, bytes]) -> Iterator[tuple[Plan, bytes]]:
    """Every page of `todo` with its bytes, one at a time, as it is made: the caller writes each
    before the next arrives, so a build holds one page (a few per worker), never the site.

    Markdown parsing is most of a full build, and it is pure: the notes, sources, snapshots and
    search shards of a big build render in forked workers (`parallel`), which send back the
    bytes a single process makes. Pages that update what the manifest keeps (home, concepts)
    render in this process afterwards.
    """
    jobs = [p for p in todo if p.url.startswith(_PARALLEL_PREFIXES)]
    for index, (data, refused) in parallel.forked_map(partial(_produced, contents=contents), jobs, _PARALLEL_MIN):
        render.keep_refusals(refused)
        yield jobs[index], data
    for plan in todo:
        if not plan.url.startswith(_PARALLEL_PREFIXES):
            yield plan, plan.produce(contents)


def _sizes(out: Path, pages: dict, kept: dict[str, int], made: dict[str, int]) -> dict[str, int]:
    """Bytes of every page of the site: rendered now, else known from the manifest, else read
    from the folder (a manifest written before sizes were kept)."""
    sizes = {}
    for url in pages:
        size = made.get(url, kept.get(url, -1))
        if size < 0:
            try:
                size = (out / url).stat().st_size
            except OSError:
                size = 0
        sizes[url] = size
    return sizes


def _quiet(step: str, done: int, total: int) -> None:
    return


def build_site(ws: Workspace, options: BuildOptions, progress: ProgressFn | None = None) -> BuildReport:
    started = time.perf_counter()
    say = progress or _quiet
    if options.scope not in ("private", "public"):
        raise MemgitError(f"--scope must be private or public, not {options.scope!r}")
    base_url = check_base_url(options.base_url)
    out = output.check_output(options.out, ws, preview=options.preview)
    say("reading the tree", 0, 0)
    gatherer = Gatherer(ws, options.scope, base_url, options.at, trust_templates=options.trust_templates)
    mf = manifest_mod.load(ws.data_dir, str(out), gatherer.global_key)
    inputs = gatherer.gather(mf, say)
    renderer = PageRenderer(inputs)  # its Jinja environment lives as long as the inputs do
    # The manifest and the gathered inputs live until the build ends (~0.5M objects at 2,000
    # notes): out of the cyclic collector's sight, they cost no full collection while pages are
    # made (a tenth of a one-file rebuild), and forked workers do not copy them by touching them.
    gc.freeze()
    try:
        planner = Planner(inputs, mf, renderer)
        return _make_pages(ws, planner, mf, out, options.scope, say, started)
    finally:
        gc.unfreeze()  # a long-running caller (`site serve`) collects them again afterwards


def _make_pages(
    ws: Workspace,
    planner: Planner,
    mf: manifest_mod.Manifest,
    out: Path,
    scope: str,
    progress: ProgressFn,
    started: float,
) -> BuildReport:
    """Render the pages whose inputs changed into a staging folder, swap them in, keep the manifest."""
    inputs = planner.inputs
    commit = inputs.commit
    present = output.existing_files(out)
    progress("planning pages", 0, 0)
    plans = planner.plan(present)
    report = BuildReport(out=str(out), commit=commit, scope=scope, pages=len(plans), incremental=bool(mf.pages))
    report.templates = inputs.templates_mode
    report.versions_found = planner.versions_found
    # Every path this build may write or remove, checked before anything is: a page's name, or one
    # the manifest remembers, that would land outside the output folder stops the build here.
    output.check_inside(out, [p.url for p in plans])
    output.check_inside(out, mf.pages)
    todo = [p for p in plans if mf.pages.get(p.url, ("", ""))[0] != p.key or p.url not in present]
    needed = {blob for plan in todo for blob in plan.needs}
    progress("reading notes", 0, len(needed))
    contents = inputs.reads.blobs(sorted(needed)) if needed else {}
    pages: dict[str, tuple[str, str]] = {p.url: mf.pages[p.url] for p in plans if p.url in mf.pages}
    # Pages go to a staging folder first: a page that fails to render leaves `out` as it was.
    staging = output.Staging(out)
    sizes: dict[str, int] = {}
    # Decode and redact every needed text here, once: forked workers then inherit the texts, and
    # what they redact is known to this process's report and manifest (a worker's findings die with it).
    inputs.texts.show_all(contents, progress)
    # Texts are kept decoded and redacted (`shown`); only the pictures' bytes are copied as they are.
    pictures = {inputs.tree_files[p].blob for p in inputs.images}
    contents = {blob: data if blob in pictures else b"" for blob, data in contents.items()}
    try:
        for done, (plan, data) in enumerate(_rendered(todo, contents), start=1):
            sha = output.digest(data)
            sizes[plan.url] = len(data)
            if mf.pages.get(plan.url, ("", ""))[1] != sha or plan.url not in present:
                staging.write(plan.url, data)
                report.written.append(plan.url)
            pages[plan.url] = (plan.key, sha)
            del data
            progress("rendering pages", done, len(todo))
        stale = sorted(set(mf.pages) - {p.url for p in plans})
        staging.commit(stale)
    except BaseException:
        staging.abort()
        raise
    report.rendered = len(todo)
    report.removed = stale
    mf.sizes = _sizes(out, pages, mf.sizes, sizes)
    report.bytes = sum(mf.sizes.values())
    snaps = [size for url, size in mf.sizes.items() if url.startswith("snap/")]
    report.snapshot_bytes, report.snapshot_pages = sum(snaps), len(snaps)
    report.redacted = redaction_rows(inputs)
    report.left_out = left_out_rows(inputs)
    # The sandbox refuses a template when a page renders with it; pages kept from an earlier build
    # (same templates: same global key) were refused then, so the manifest keeps what it said.
    refused = sorted({(w, y) for w, y in [*(mf.refused if mf.pages else []), *render.take_refusals()]})
    mf.refused = [[w, y] for w, y in refused]
    report.problems = problem_rows(inputs, mf.refused)
    report.unresolved = [{"path": p, "target": t} for p, targets in sorted(inputs.unresolved.items()) for t in targets]
    mf.pages = pages
    mf.commit = commit
    manifest_mod.save(ws.data_dir, str(out), mf, planner.manifest_state())
    report.seconds = round(time.perf_counter() - started, 3)
    return report
