"""A search request is checked once, before any search runs: the mode, then k, then the filter's
days, each refused in one line that says what to give instead; what passes is normalised."""

from __future__ import annotations

import pytest

from memgit.config import MAX_K
from memgit.errors import MemgitError
from memgit.index.filter_sql import Filter
from memgit.recall.request import SearchRequest


def test_a_request_is_resolved_against_the_config() -> None:
    checked = SearchRequest(where=Filter.of("memory/", "2026-02-06", "")).checked(6)
    assert checked == SearchRequest(6, "hybrid", Filter(("memory/**",), "2026-02-06", None))
    assert SearchRequest(k=3, mode="bm25").checked(6) == SearchRequest(3, "bm25", Filter())


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (SearchRequest(k=0, mode="fuzzy"), "unknown search mode 'fuzzy'"),
        (SearchRequest(k=MAX_K + 1, where=Filter(since="yesterday")), f"k must be between 1 and {MAX_K}"),
        (SearchRequest(where=Filter(since="2026-02-06", until="06/02/2026")), "--until must be a date like"),
        (SearchRequest(where=Filter(since="2026-13-01")), "--since must be a date like"),
    ],
)
def test_a_bad_request_is_refused_in_one_line(request_: SearchRequest, message: str) -> None:
    with pytest.raises(MemgitError, match=message):
        request_.checked(6)
