"""Jinja2 for the site: the shipped templates, overridable and extendable from the workspace.

A workspace overrides any template by putting a file of the same name in `.memgit/templates/` (or
the folder `[site] templates` names). An override can still extend the shipped version through the
`default/` prefix (`{% extends "default/base.html" %}`), as datasette's and mkdocs' themes allow.
Autoescape is on for everything; a broken template is reported with its name and line.

The workspace's templates are the repository's, so they are data, not code: they reach Jinja as
strings read by `theme` (no link followed) and render in Jinja's immutable sandbox, unless the
person building says they trust them (`--trust-templates`). The shipped templates are memgit's
own and render in the ordinary environment.
"""

from __future__ import annotations

import hashlib
import sys
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup, escape

from memgit.errors import MemgitError
from memgit.site.theme import Theme
from memgit.site.visible import visible

STATIC = "static"
#: Template sandbox refusals of this process since the last `take_refusals` (template, why).
_REFUSALS: list[tuple[str, str]] = []


class TemplateProblem(MemgitError):
    """A template that does not parse or fails while rendering; the message names file and line."""


class _Sandboxed(ImmutableSandboxedEnvironment):
    """The sandbox the theme's templates render in; `fallback` renders a page it refused."""

    fallback: jinja2.Environment | None = None


def make_environment(
    shipped: Path, theme: Theme, cache_dir: Path | None = None, sandboxed: bool = False
) -> jinja2.Environment:
    """Autoescaping Jinja2 over the theme's templates, then the shipped ones (also reachable as
    `default/`).

    The theme's templates come in as strings (`theme.load_theme` read them without following a
    link); with `sandboxed` they render in Jinja's immutable sandbox, where a template can read
    the values it is given and nothing else: no attribute beginning with `_`, no method that
    changes them, no Python reached through them. Compiled templates are cached in `cache_dir`
    (one folder a kind of environment: the sandbox compiles some operators differently).
    """
    folder = theme.folder
    sources = dict(theme.templates)

    def from_theme(name: str) -> tuple[str, str, Callable[[], bool]] | None:
        source = sources.get(name)
        return None if source is None else (source, f"{folder}/{name}", lambda: True)

    loader = jinja2.ChoiceLoader(
        [
            jinja2.FunctionLoader(from_theme),
            jinja2.PrefixLoader({"default": jinja2.FileSystemLoader(str(shipped))}),
            jinja2.FileSystemLoader(str(shipped)),
        ]
    )
    cache = None
    if cache_dir is not None:
        folder_name = cache_dir.name + ("-sandbox" if sandboxed else "")
        cache_dir = cache_dir.with_name(folder_name)
        cache_dir.mkdir(parents=True, exist_ok=True)
        cache = jinja2.FileSystemBytecodeCache(str(cache_dir))
    kind = _Sandboxed if sandboxed else jinja2.Environment
    env = kind(
        loader=loader,
        bytecode_cache=cache,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["numbered_lines"] = numbered_lines
    return env


def templates_mode(theme: Theme, trusted: bool) -> str:
    """How a build's templates run: "shipped" (memgit's own), "sandboxed" (the workspace's, in
    the sandbox, a refused page falling back to the shipped template) or "trusted" (the
    workspace's, `--trust-templates`)."""
    if not theme.templates:
        return "shipped"
    return "trusted" if trusted else "sandboxed"


def environment(shipped: Path, theme: Theme, cache_dir: Path, mode: str) -> jinja2.Environment:
    """The environment a build renders in, for its `templates_mode`: the workspace's templates
    run in the sandbox unless the person building trusts them ("trusted")."""
    if not theme.templates or mode == "trusted":
        return make_environment(shipped, theme, cache_dir)
    env = make_environment(shipped, theme, cache_dir, sandboxed=True)
    env.fallback = make_environment(shipped, Theme(), cache_dir)  # type: ignore[attr-defined]
    return env


def templates_hash(shipped: Path, theme: Theme) -> str:
    """One hash of every template and asset a build may use, the theme's included."""
    digest = hashlib.sha256()
    for name, data in sorted(_shipped_files(shipped).items()):
        digest.update(b"shipped\0" + name.encode() + b"\0" + hashlib.sha256(data).digest())
    for name, source in sorted(theme.templates.items()):
        digest.update(b"template\0" + name.encode() + b"\0" + hashlib.sha256(source.encode()).digest())
    for name, data in sorted(theme.assets.items()):
        digest.update(b"asset\0" + name.encode() + b"\0" + hashlib.sha256(data).digest())
    digest.update(theme.folder.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _shipped_files(shipped: Path) -> dict[str, bytes]:
    return {p.relative_to(shipped).as_posix(): p.read_bytes() for p in sorted(shipped.rglob("*")) if p.is_file()}


def static_assets(shipped: Path, theme: Theme) -> dict[str, bytes]:
    """The site's assets (CSS, JS, licences) by name: the theme's replace the shipped ones."""
    root = shipped / STATIC
    found = {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    if not found:
        raise MemgitError(f"the site's assets are missing from {root}; reinstall memgit")
    found.update(theme.assets)
    return dict(sorted(found.items()))


def numbered_lines(lines: list[str]) -> Markup:
    """The lines of a note as `<div id="L12">` rows, escaped in one pass; the stylesheet draws
    the numbers (a CSS counter, hidden from screen readers and from copying), and site.js turns a
    click on one into `#L12`.

    A source page or a past version is mostly this block: ~20 bytes a line of markup (a number
    and two spans a line made source pages 4.6 times their note's size), and building it here
    instead of in a Jinja loop makes a full build several times faster. Its markup is fixed (CSS
    and site.js rely on it).
    """
    if not lines:
        return Markup("")
    escaped = str(escape("\n".join(lines))).split("\n")
    rows = [
        f'<div id="L{number}" class="h">{text}</div>' if raw.startswith("#") else f'<div id="L{number}">{text}</div>'
        for number, (raw, text) in enumerate(zip(lines, escaped, strict=True), start=1)
    ]
    return Markup("\n".join(rows) + "\n")


def render(env: jinja2.Environment, name: str, context: Mapping[str, Any]) -> str:
    """The page as text, hidden characters shown as visible escapes wherever they reached it
    (`visible`: one pass over the page costs less than one per template value); a broken or
    failing template becomes one TemplateProblem. A theme template the sandbox stops is refused:
    the page renders with the shipped templates and the refusal is kept for the build's report."""
    try:
        return visible(env.get_template(name).render(**context))
    except jinja2.TemplateSyntaxError as exc:
        where = exc.filename or exc.name or name
        raise TemplateProblem(f"template {where} line {exc.lineno}: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        raise TemplateProblem(f"template {name}: includes or extends {exc.name!r}, which does not exist") from None
    except MemgitError:
        raise
    except SecurityError as exc:
        fallback = getattr(env, "fallback", None)
        frame = _template_frame(sys.exc_info()[2])
        if fallback is None:
            raise TemplateProblem(f"template {frame or name}: refused by the sandbox: {exc}") from None
        _REFUSALS.append((frame or name, f"refused by the sandbox ({exc}): the shipped template was used"))
        return render(fallback, name, context)
    except Exception as exc:
        frame = _template_frame(sys.exc_info()[2])
        raise TemplateProblem(f"template {frame or name}: {type(exc).__name__}: {exc}") from None


def keep_refusals(found: list[tuple[str, str]]) -> None:
    """Refusals a worker process sent back with its page, kept as if made here."""
    _REFUSALS.extend(found)


def take_refusals() -> list[tuple[str, str]]:
    """The sandbox's refusals since the last call (template and line, why), once each."""
    found = list(dict.fromkeys(_REFUSALS))
    _REFUSALS.clear()
    return found


def _template_frame(tb: Any) -> str | None:
    """`file line N` of the innermost template frame (Jinja rewrites tracebacks to template lines)."""
    found = None
    for frame in traceback.extract_tb(tb):
        if frame.filename.endswith((".html", ".xml", ".js", ".txt")):
            found = f"{frame.filename} line {frame.lineno}"
    return found
