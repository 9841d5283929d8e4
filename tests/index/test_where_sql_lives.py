"""SQL is spoken in memgit/index/ only, by the store and its parts: store.py (schema, meta,
files, chunks, transactions), fts.py (FTS5's statistics), vec0.py (the vec0 table) and cache.py
(the embedding cache). Anything else asks them, so a change of schema or of transaction rules is
made in one place."""

from __future__ import annotations

import ast
from pathlib import Path

import memgit

SQL_MODULES = {"index/store.py", "index/fts.py", "index/vec0.py", "index/cache.py"}
SQL_CALLS = {"execute", "executemany", "executescript"}


def sql_calls(path: Path) -> list[int]:
    """Lines of `x.execute(...)`, `x.executemany(...)`, `x.executescript(...)` in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS
    ]


def test_the_finder_sees_sql_calls(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f(conn):\n    conn.execute('SELECT 1')\n    store.conn.executemany('x', [])\n")
    assert sql_calls(module) == [2, 3]


def test_sql_lives_in_the_store_and_its_parts() -> None:
    root = Path(memgit.__file__).parent
    modules = {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*.py"))}
    assert set(modules) >= SQL_MODULES
    outside = {name: lines for name, path in modules.items() if name not in SQL_MODULES and (lines := sql_calls(path))}
    assert not outside, f"SQL outside {sorted(SQL_MODULES)}: {outside}"
    assert all(sql_calls(modules[name]) for name in SQL_MODULES)
