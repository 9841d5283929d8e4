"""What both legs rank first, hybrid ranks first: weighted scores on two scales can put a chunk
that is a little behind in both legs above the one they agree on."""

from __future__ import annotations

from memgit.recall.hits import agreed_first
from memgit.recall.ranking import Candidate, fuse


def _cand(i: int, t: float, v: float) -> Candidate:
    return Candidate(i, f"doc{i}.md", 1, 1, "x", None, t, v, fuse(t, v, 0.3, 0.7))


def test_the_chunk_both_legs_put_first_is_first() -> None:
    # Chunk 1 tops both legs by a hair; chunk 2 is close behind in both, and the weights (vector
    # cosine in a narrow band, BM25 min-max scaled) can still order them wrongly after decay.
    text = {1: 1.0, 2: 0.97, 3: 0.2}
    vector = {1: 0.61, 2: 0.60, 3: 0.1}
    ranked = [_cand(2, 0.97, 0.60), _cand(1, 1.0, 0.61), _cand(3, 0.2, 0.1)]
    assert [c.id for c in agreed_first(ranked, text, vector)] == [1, 2, 3]


def test_no_agreement_leaves_the_fused_order() -> None:
    ranked = [_cand(2, 0.5, 0.9), _cand(1, 1.0, 0.4)]
    assert [c.id for c in agreed_first(ranked, {1: 1.0, 2: 0.5}, {2: 0.9, 1: 0.4})] == [2, 1]
    assert [c.id for c in agreed_first(ranked, {}, {2: 0.9})] == [2, 1]
