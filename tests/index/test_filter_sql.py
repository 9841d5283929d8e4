"""A search's filter is turned into SQL on the index side only (`memgit.index.filter_sql`), and
the store's BM25 query and its filtered chunk ids return exactly the chunks the filter allows."""

from __future__ import annotations

from pathlib import Path

from memgit.index.filter_sql import Filter, where_sql
from memgit.index.layout import index_path
from memgit.index.store import Store
from memgit.workspace import Workspace
from tests.helpers import commit_all, memgit, write


def test_a_filter_is_normalised_once_and_empty_means_everything() -> None:
    assert Filter.of("memory/") == Filter(("memory/**",))
    assert Filter.of(["", "MEMORY.md"], "", None) == Filter(("MEMORY.md",))
    assert not Filter.of(None, "", "") and not Filter() and Filter(since="2026-01-01")

    def never() -> list[str]:
        raise AssertionError("no glob: the stored paths are not read")

    assert where_sql(None, never) == ("", []) and where_sql(Filter(), never) == ("", [])
    sql, params = where_sql(Filter(("memory/*.md",), "2026-01-01", "2026-01-31"), lambda: ["MEMORY.md", "memory/a.md"])
    assert sql == "c.path IN (SELECT value FROM json_each(?)) AND c.day >= ? AND c.day <= ?"
    assert params == ['["memory/a.md"]', "2026-01-01", "2026-01-31"]


def test_the_store_answers_only_what_the_filter_allows(workspace: Path) -> None:
    write(workspace / "memory" / "2026-01-09.md", "# 2026-01-09\n\n- The billing dashboard moved to Grafana.\n")
    write(workspace / "notes" / "billing.md", "# Billing\n\n- Billing runs nightly.\n")
    write(workspace / "memgit.toml", '[memory]\nextra_paths = ["notes/**"]\n')
    commit_all(workspace, "more billing")
    indexed = memgit(workspace, "index", env={"MEMGIT_EMBEDDING": "none"})
    assert indexed.returncode == 0, indexed.stderr
    store = Store(index_path(Workspace.discover(workspace)), None, readonly=True)
    try:

        def paths(rows: list[tuple[int, float]] | list[int]) -> set[str]:
            ids = [r if isinstance(r, int) else r[0] for r in rows]
            return {row[0] for row in store.chunk_rows(ids).values()}

        everything = paths(store.bm25("billing", 20))
        assert everything == {"memory/2026-01-05.md", "memory/2026-01-09.md", "notes/billing.md"}
        assert paths(store.bm25("billing", 20, Filter.of("memory/"))) == {
            "memory/2026-01-05.md",
            "memory/2026-01-09.md",
        }
        assert paths(store.bm25("billing", 20, Filter(since="2026-01-06"))) == {"memory/2026-01-09.md"}
        assert paths(store.bm25("billing", 20, Filter(until="2026-01-05"))) == {"memory/2026-01-05.md"}
        assert store.bm25("billing", 20, Filter.of("nowhere/*")) == []
        assert paths(store.chunk_ids_where(Filter.of("notes/"))) == {"notes/billing.md"}
        assert paths(store.chunk_ids_where(Filter.of(["MEMORY.md", "notes/*.md"]))) == {"MEMORY.md", "notes/billing.md"}
    finally:
        store.close()
