"""Opt-in BM25 pseudo-relevance feedback (`[search] bm25_feedback_terms / _docs / _weight`)."""

from __future__ import annotations

import json
from pathlib import Path

from memgit.recall.feedback import add_feedback, feedback_words, pick_feedback_terms
from tests.helpers import commit_all, memgit, write

BM25 = {"MEMGIT_EMBEDDING": "none"}


def test_feedback_words_skip_stop_words_query_words_numbers_and_short_words() -> None:
    tf = feedback_words(
        ["Caroline said the adoption agency called at 10:30 on 2026-04-01.", "The agency is OK, Caroline."],
        exclude=["caroline"],
    )
    assert tf == {"said": 1, "adoption": 1, "agency": 2, "called": 1}


def test_pick_feedback_terms_ranks_by_tf_idf_and_skips_what_cannot_help() -> None:
    tf = {"agency": 2, "adoption": 1, "said": 3, "unique": 5, "parent": 1}
    counts = {"agency": 4, "adoption": 2, "said": 90, "unique": 1, "parent": 3}
    # "unique" is in one chunk only (it can bring in no other); "said" is everywhere (low idf).
    assert pick_feedback_terms(tf, counts, 100, 3) == ["agency", "adoption", "parent"]
    assert pick_feedback_terms(tf, counts, 100, 1) == ["agency"]
    assert pick_feedback_terms(tf, counts, 100, 0) == []
    assert pick_feedback_terms(tf, {}, 100, 3) == []  # counts unknown: nothing picked
    # With stems: a word that stems like a query word is skipped, and one word per stem is kept.
    tf2 = {"parents": 3, "parenting": 2, "adopted": 1, "adoption": 1}
    counts2 = {"parents": 3, "parenting": 3, "adopted": 3, "adoption": 3}
    tokens = {"parents": "parent", "parenting": "parent", "adopted": "adopt", "adoption": "adopt"}
    assert pick_feedback_terms(tf2, counts2, 100, 5, tokens=tokens) == ["parents", "adopted"]
    assert pick_feedback_terms(tf2, counts2, 100, 5, tokens=tokens, query_tokens=["parent"]) == ["adopted"]


def test_add_feedback_adds_weighted_scores_over_the_union_and_keeps_the_limit() -> None:
    merged = add_feedback([(1, 5.0), (2, 3.0)], [(2, 4.0), (3, 2.0), (4, 1.0)], 0.5, 3)
    assert merged == [(1, 5.0), (2, 5.0), (3, 1.0)]
    assert add_feedback([(1, 1.0)], [], 0.5, 10) == [(1, 1.0)]


def _search(root: Path, query: str) -> list[dict[str, object]]:
    proc = memgit(root, "search", query, "--mode", "bm25", "-k", "10", "--json", env=BM25)
    assert proc.returncode == 0, proc.stderr
    # commit and blob name the state searched; the ranking is the rest
    return [{k: v for k, v in hit.items() if k != "commit"} for hit in json.loads(proc.stdout)["hits"]]


def test_feedback_finds_a_chunk_that_shares_no_word_with_the_query(workspace: Path) -> None:
    write(
        workspace / "memory" / "2026-04-01.md",
        "# 2026-04-01\n\n- Caroline said her relationship status changed: the adoption agency accepted "
        "her as a single parent.\n",
    )
    write(
        workspace / "memory" / "2026-04-20.md",
        "# 2026-04-20\n\n- The adoption agency phoned about the single parent paperwork.\n",
    )
    fillers = [
        "Melanie painted a sunset by the lake",
        "Bought new running shoes",
        "Read a novel about whales",
        "Fixed the kitchen tap",
        "Went camping with the kids",
        "Cooked pasta for dinner",
    ]
    for i, text in enumerate(fillers):
        write(workspace / "memory" / f"2026-05-0{i + 1}.md", f"# 2026-05-0{i + 1}\n\n- {text}.\n")
    commit_all(workspace)
    query = "What is Caroline's relationship status?"

    today = _search(workspace, query)
    paths = [h["path"] for h in today]
    assert paths[0] == "memory/2026-04-01.md"
    assert "memory/2026-04-20.md" not in paths  # no query word in it: plain BM25 cannot find it

    # Off (0 words) is exactly today's results, whatever the other feedback settings say.
    write(
        workspace / "memgit.toml",
        "[search]\nbm25_feedback_terms = 0\nbm25_feedback_docs = 5\nbm25_feedback_weight = 1.0\n",
    )
    commit_all(workspace)
    assert _search(workspace, query) == today

    write(
        workspace / "memgit.toml",
        "[search]\nbm25_feedback_terms = 5\nbm25_feedback_docs = 3\nbm25_feedback_weight = 0.5\n",
    )
    commit_all(workspace)
    fed = _search(workspace, query)
    paths = [h["path"] for h in fed]
    assert paths[0] == "memory/2026-04-01.md"  # the query's own best hit stays first
    assert "memory/2026-04-20.md" in paths
    assert not any(p.startswith("memory/2026-05") for p in paths)  # fillers share no picked word


def test_bad_feedback_setting_is_one_clean_error(workspace: Path) -> None:
    write(workspace / "memgit.toml", "[search]\nbm25_feedback_terms = -1\n")
    commit_all(workspace)
    proc = memgit(workspace, "search", "tea", "--mode", "bm25", env=BM25)  # the default (off), with one warning
    assert proc.returncode == 0 and proc.stderr.startswith("memgit: warning: ") and "bm25_feedback_terms" in proc.stderr
