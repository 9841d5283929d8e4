"""Jinja2 for the site: the shipped templates, overridable and extendable from the workspace.

A workspace overrides any template by putting a file of the same name in `.memgit/templates/` (or
the folder `[site] templates` names). An override can still extend the shipped version through the
`default/` prefix (`{% extends "default/base.html" %}`), as datasette's and mkdocs' themes allow.
Autoescape is on for everything; a broken template is reported with its name and line.
"""

from __future__ import annotations

import hashlib
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from memgit.errors import MemgitError
from memgit.site.visible import visible

STATIC = "static"


class TemplateProblem(MemgitError):
    """A template that does not parse or fails while rendering; the message names file and line."""


def template_dirs(shipped: Path, overrides: list[Path]) -> list[Path]:
    return [d for d in overrides if d.is_dir()] + [shipped]


def make_environment(shipped: Path, overrides: list[Path], cache_dir: Path | None = None) -> jinja2.Environment:
    """Autoescaping Jinja2 over overrides, then the shipped templates (also reachable as `default/`).

    Compiled templates are cached in `cache_dir` (keyed by source and path), so a rebuild after one
    commit does not pay for compiling every template again.
    """
    user = [str(d) for d in overrides if d.is_dir()]
    loader = jinja2.ChoiceLoader(
        [
            jinja2.FileSystemLoader(user),
            jinja2.PrefixLoader({"default": jinja2.FileSystemLoader(str(shipped))}),
            jinja2.FileSystemLoader(str(shipped)),
        ]
    )
    cache = None
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        cache = jinja2.FileSystemBytecodeCache(str(cache_dir))
    env = jinja2.Environment(
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


def templates_hash(dirs: list[Path]) -> str:
    """One hash of every template and asset a build may use, overrides included."""
    digest = hashlib.sha256()
    for folder in dirs:
        digest.update(str(folder).encode())
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def static_file(dirs: list[Path], name: str) -> Path:
    """An asset (CSS, JS, license) from the first folder that has it: overrides win."""
    for folder in dirs:
        candidate = folder / STATIC / name
        if candidate.is_file():
            return candidate
    raise MemgitError(f"the site asset {STATIC}/{name} is missing from the templates; reinstall memgit")


def static_names(dirs: list[Path]) -> list[str]:
    names: set[str] = set()
    for folder in dirs:
        root = folder / STATIC
        if root.is_dir():
            names.update(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    return sorted(names)


def numbered_lines(lines: list[str]) -> Markup:
    """The lines of a note as `<div class="line" id="L12">` rows, escaped in one pass; the numbers
    are not links (no tab stop a line, no tiny targets): site.js turns a click on one into `#L12`.

    A note page is mostly this block; building it here instead of in a Jinja loop makes a full
    build of 2,000 notes several times faster. Its markup is fixed (CSS and site.js rely on it).
    """
    if not lines:
        return Markup("")
    escaped = str(escape("\n".join(lines))).split("\n")
    rows = []
    for number, (raw, text) in enumerate(zip(lines, escaped, strict=True), start=1):
        kind = "line heading" if raw.startswith("#") else "line"
        rows.append(
            f'<div class="{kind}" id="L{number}"><span class="ln" aria-hidden="true">{number}</span>'
            f'<span class="text">{text}</span></div>'
        )
    return Markup("\n".join(rows) + "\n")


def render(env: jinja2.Environment, name: str, context: Mapping[str, Any]) -> str:
    """The page as text, hidden characters shown as visible escapes wherever they reached it
    (`visible`: one pass over the page costs less than one per template value); a broken or
    failing template becomes one TemplateProblem."""
    try:
        return visible(env.get_template(name).render(**context))
    except jinja2.TemplateSyntaxError as exc:
        where = exc.filename or exc.name or name
        raise TemplateProblem(f"template {where} line {exc.lineno}: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        raise TemplateProblem(f"template {name}: includes or extends {exc.name!r}, which does not exist") from None
    except MemgitError:
        raise
    except Exception as exc:
        frame = _template_frame(sys.exc_info()[2])
        raise TemplateProblem(f"template {frame or name}: {type(exc).__name__}: {exc}") from None


def _template_frame(tb: Any) -> str | None:
    """`file line N` of the innermost template frame (Jinja rewrites tracebacks to template lines)."""
    found = None
    for frame in traceback.extract_tb(tb):
        if frame.filename.endswith((".html", ".xml", ".js", ".txt")):
            found = f"{frame.filename} line {frame.lineno}"
    return found
