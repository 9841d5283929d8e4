"""Tool arguments checked against the JSON Schema the tool advertises, so the two cannot differ.

Only the part of JSON Schema the tool table uses: an object of named properties, some required,
others ignored; each a string (minLength/maxLength), an integer (minimum/maximum) or a boolean,
optionally "or null", with a default. Values are taken as leniently as the SDK's pydantic
validation took them, since agents send "3" for 3 and "true" for true: an integer may come as a
whole float or a decimal string, a boolean as 0/1 or yes/no/true/false/on/off. Every problem is
one line that names the argument, never a traceback.
"""

from __future__ import annotations

import re
from typing import Any

from memgit.core.text import invalid_utf8_at
from memgit.errors import MemgitError

_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})
_INTEGER = re.compile(r"\s*[+-]?\d{1,30}\s*")


class ArgumentError(MemgitError):
    """An argument the tool's schema does not accept."""


def _shown(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _integer(name: str, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _INTEGER.fullmatch(value):
        return int(value)
    raise ArgumentError(f"{name} must be an integer (got {_shown(value)})")


def _boolean(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ArgumentError(f"{name} must be true or false (got {_shown(value)})")


def _string(name: str, value: Any, schema: dict[str, Any]) -> str:
    if not isinstance(value, str):
        raise ArgumentError(f"{name} must be a string (got {_shown(value)})")
    if invalid_utf8_at(value) is not None:  # JSON may carry a lone surrogate (`"\\udcff"`)
        raise ArgumentError(f"{name} is not valid Unicode text (it holds a lone surrogate)")
    if "minLength" in schema and len(value) < schema["minLength"]:
        if not value:
            raise ArgumentError(f"{name} must not be empty")
        raise ArgumentError(
            f"{name} must have at least {_plural(schema['minLength'], 'character')} (got {len(value):,})"
        )
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise ArgumentError(
            f"{name} must have at most {_plural(schema['maxLength'], 'character')} (got {len(value):,})"
        )
    return value


def _value(name: str, value: Any, schema: dict[str, Any]) -> Any:
    options = schema.get("anyOf")
    if options is not None:
        if value is None and any(o.get("type") == "null" for o in options):
            return None
        [schema] = [o for o in options if o.get("type") != "null"]
    kind = schema["type"]
    if kind == "string":
        return _string(name, value, schema)
    if kind == "boolean":
        return _boolean(name, value)
    if kind != "integer":
        raise AssertionError(f"the tool table uses a type this checker does not know: {kind}")
    number = _integer(name, value)
    if "minimum" in schema and number < schema["minimum"]:
        raise ArgumentError(f"{name} must be at least {schema['minimum']} (got {number})")
    if "maximum" in schema and number > schema["maximum"]:
        raise ArgumentError(f"{name} must be at most {schema['maximum']} (got {number})")
    return number


def check_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments by property name, defaults filled in; unknown names are ignored (as before)."""
    properties: dict[str, dict[str, Any]] = schema.get("properties", {})
    missing = [name for name in schema.get("required", ()) if name not in arguments]
    if missing:
        raise ArgumentError(f"missing required argument{'s' if len(missing) > 1 else ''}: {', '.join(missing)}")
    values: dict[str, Any] = {}
    for name, prop in properties.items():
        if name in arguments:
            values[name] = _value(name, arguments[name], prop)
        else:
            values[name] = prop.get("default")
    return values
