"""The learned re-ranker: its pure features and dates, the shipped weights table, and the opt-in
`[search] rerank = true` through the real CLI on a real git workspace."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from memgit.config import SearchConfig
from memgit.recall import rerank_weights
from memgit.recall.ranking import Candidate, decay
from memgit.recall.rerank import FEATURES, day_match, features, query_cues, query_dates, rerank
from tests.helpers import commit_all, memgit, write


def cand(i: int, text: str, day: str | None = "2026-03-03", t: float = 0.5, v: float = 0.5) -> Candidate:
    return Candidate(i, f"memory/{day or 'notes'}.md", 1, text.count("\n") + 1, text, day, t, v, 0.0)


def test_query_dates_in_the_forms_people_write() -> None:
    assert query_dates("What did Melanie show on October 13, 2023?")[0] == {"2023-10-13"}
    assert query_dates("What did Gina find on 1 February, 2023?")[0] == {"2023-02-01"}
    assert query_dates("see 2024-02-29 and 3rd March 2025")[0] == {"2024-02-29", "2025-03-03"}
    days, months = query_dates("When did she go camping in June?")
    assert days == frozenset() and months == {"-06"}
    assert query_dates("What happened in July 2023?")[1] == {"2023-07"}
    assert query_dates("May I ask what happened?") == (frozenset(), frozenset())  # the verb, not the month


def test_day_match_scores_date_then_month() -> None:
    cues = query_cues("What did we ship on March 3, 2026?")
    assert day_match(cues, "2026-03-03") == 1.0
    assert day_match(cues, "2026-03-20") == 0.5
    assert day_match(cues, "2025-03-03") == 0.0
    assert day_match(cues, None) == 0.0  # undated notes get no date credit
    assert day_match(query_cues("camping in June"), "2019-06-30") == 0.5


def test_query_cues_names_and_temporal_intent() -> None:
    cues = query_cues("When did Caroline's sister visit Paris?")
    assert cues.names == ("Caroline", "Paris") and cues.temporal
    assert "sister" in cues.terms and "when" not in cues.terms
    assert not query_cues("what does melanie paint").temporal


def test_features_one_row_per_candidate_in_declared_order() -> None:
    cues = query_cues("What did Caroline paint last week?")
    rows = features(
        cues,
        [
            cand(1, "- **Caroline**: I painted a sunset last week.\n- **Mel**: Lovely!", t=1.0, v=0.6),
            cand(2, "- **Mel**: Groceries again.", t=0.0, v=0.1),
        ],
    )
    assert [len(r) for r in rows] == [len(FEATURES)] * 2
    first, second = (dict(zip(FEATURES, r, strict=True)) for r in rows)
    assert first["text_rr"] == 1.0 and second["text_rr"] == 0.0  # no BM25 score: no rank
    # query words: caroline, paint, last, week; the first line holds all but "paint" (no stemming)
    assert first["cover"] > second["cover"] and first["line_cover"] == pytest.approx(3 / 4)
    assert first["names"] == 1.0 and first["name_leads"] == 0.5 and second["names"] == 0.0
    assert first["when_dates"] > 0 and second["when_dates"] == 0


def test_shipped_weights_cover_every_feature_with_a_version() -> None:
    assert rerank_weights.VERSION >= 1
    assert set(rerank_weights.WEIGHTS) == set(FEATURES)
    # the strongest evidence signals must push up, or the table was trained on broken features
    for name in ("text", "text_rr", "vector_rr", "cover"):
        assert rerank_weights.WEIGHTS[name] > 0, name


def test_rerank_orders_by_the_model_and_scales_scores_for_mmr() -> None:
    query = "What did we ship on March 3, 2026?"
    plain = cand(1, "- We shipped the exporter.", day="2026-04-10", t=0.6, v=0.5)
    dated = cand(2, "- We shipped the exporter.", day="2026-03-03", t=0.6, v=0.5)
    ranked = rerank(query, [plain, dated], {"day_match": 2.0})
    assert [c.id for c in ranked] == [2, 1]
    assert ranked[0].score == 1.0 and ranked[1].score == 0.0  # min-max: MMR sees 0..1 as before
    # with the shipped weights, more of every positive signal never ranks lower
    weak = cand(3, "- something else", t=0.1, v=0.2)
    strong = cand(4, "- We shipped the exporter.", t=0.9, v=0.7)
    assert [c.id for c in rerank(query, [weak, strong], rerank_weights.WEIGHTS)] == [4, 3]
    assert rerank(query, [], rerank_weights.WEIGHTS) == []


def _search(ws: Path, query: str, env: dict[str, str]) -> dict:
    proc = memgit(ws, "search", query, "--json", "-k", "5", env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_rerank_opt_in_through_the_cli(workspace: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    from memgit.embed.tiny import write_tiny_bert_gguf

    # The session's clock (MEMGIT_NOW), as memgit dates a search's decay: the machine's local date
    # would differ from the search's around midnight.
    now = "2026-05-01T12:00:00+00:00"
    env = {"MEMGIT_MODEL": str(write_tiny_bert_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf")), "MEMGIT_NOW": now}
    write(workspace / "memory" / "2026-03-03.md", "# 2026-03-03\n\n- The team shipped the invoice exporter.\n")
    write(
        workspace / "memory" / "2026-04-10.md",
        "# 2026-04-10\n\n- The team talked about the exporter, the exporter docs and the team offsite.\n",
    )
    write(workspace / "memory" / "2026-04-11.md", "# 2026-04-11\n\n- Lunch with the design team.\n")
    commit_all(workspace, "logs")
    assert memgit(workspace, "index", env=env).returncode == 0
    query = "What did the team ship on March 3, 2026? exporter"
    before = _search(workspace, query, env)
    write(workspace / "memgit.toml", "[search]\nrerank = true\n")
    after = _search(workspace, query, env)
    assert before["notices"] == [] and after["notices"] == []
    assert {h["path"] for h in after["hits"]} == {h["path"] for h in before["hits"]}  # same candidates
    assert [h["score"] for h in after["hits"]] != [h["score"] for h in before["hits"]]
    # re-ranked scores are the model's, min-max over the candidates (best 1, worst 0), times the
    # daily log's age decay: with every chunk a candidate, the best hit scores exactly its decay
    top = after["hits"][0]
    assert top["path"] == "memory/2026-03-03.md"  # the dated log the query names
    cfg = SearchConfig()
    assert top["score"] == pytest.approx(
        decay(top["day"], date.fromisoformat(now[:10]), cfg.half_life_days, cfg.decay_floor), abs=1e-4
    )
    assert min(h["score"] for h in after["hits"]) == 0.0
    write(workspace / "memgit.toml", "[search]\nrerank = 'sometimes'\n")
    bad = memgit(workspace, "search", query, "--json", env=env)  # the default (off), with one warning
    assert bad.returncode == 0 and "memgit.toml:2: search.rerank must be true or false" in bad.stderr
    assert [h["score"] for h in json.loads(bad.stdout)["hits"]] == [h["score"] for h in before["hits"]]
