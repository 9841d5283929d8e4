"""The reading of the comparison. Every number in it is looked up from the run's results, and each
claim that depends on the ordering of two numbers is only made when the run shows that ordering."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from verdicts import VERDICTS, compare, paired, quality, verdict, verdicts

Value = Callable[[Any, str], float | None]


def _row(
    results: list[Any], corpus: str, tool: str, part: str, quality_only: bool = False, driver: str | None = None
) -> Any | None:
    """The row of `tool` whose label contains `part`; `driver` tells QMD's patched variant from QMD as shipped."""
    for r in results:
        if (
            r.corpus == corpus
            and r.tool == tool
            and (getattr(r, "driver", "") or r.tool) == (driver or tool)
            and part in r.label
            and r.quality_only == quality_only
        ):
            return r
    return None


BUDGET = "budget_micro@4000"


def _chunking(meta: dict[str, Any]) -> tuple[str, str]:
    """("≤160-token", "32 tokens") from the memgit settings the run recorded."""
    ch = (meta.get("memgit_settings") or {}).get("chunking") or {}
    size = f"≤{ch['max_tokens']}-token" if "max_tokens" in ch else "model-token"
    overlap = f"{ch['overlap_tokens']} tokens" if "overlap_tokens" in ch else "some tokens"
    return size, overlap


def _vs(results: list[Any], mine: Any | None, peer: Any | None, label: str) -> str:
    """ "+0.135 [+0.100, +0.170], a win" for memgit row `mine` against `peer` on verdict `label`."""
    spec = next((v for v in VERDICTS if v[1] == label), None)
    if mine is None or peer is None or spec is None:
        return "n/a"
    d = paired(mine, peer, spec[0], spec[2])
    if d is None:
        return "n/a"
    return f"{d[0]:+.3f} [{d[1]:+.3f}, {d[2]:+.3f}], {verdict(d)}"


def _f(x: float | None, fmt: str = "{:.3f}") -> str:
    return "n/a" if x is None else fmt.format(x)


def narrative(results: list[Any], corpora: list[Any], meta: dict[str, Any], value: Value) -> list[str]:
    names = {c.name for c in corpora}
    L: list[str] = ["### Reading the numbers", ""]
    if "locomo" in names:
        L += _quality(results, value)
    if "synth" in names:
        L += _synth_quality(results)
    for corpus in ("locomo", "synth"):
        if corpus in names:
            L += _prefixes(results, corpus, next(c.label for c in corpora if c.name == corpus))
    for corpus in ("locomo", "synth"):
        if corpus in names:
            L += _cost(results, corpus, next(c.label for c in corpora if c.name == corpus), value, meta)
    L += _what_it_takes(results, value, meta)
    return L


def _prefixes(results: list[Any], corpus: str, label: str) -> list[str]:
    """QMD with and without the embeddinggemma prompt prefixes it applies to every embed model."""
    qh = _row(results, corpus, "qmd", "`qmd query`")
    qn = _row(results, corpus, "qmd", "`qmd query`", driver="qmd-noprefix")
    if qh is None or qn is None or not qh.quality or not qn.quality:
        return []
    return [
        f"- **QMD's prompt prefixes on MiniLM ({label}).** QMD formats every text it embeds for "
        "embeddinggemma (`task: search result | query: …` for questions, `title: … | text: …` for chunks) "
        "whatever model it is given; only Qwen3-Embedding gets its own format. MiniLM was not trained with "
        "these prefixes. Re-embedded and searched without them (a one-line switch in the throwaway install, "
        f"see *Method*): budget recall 4k {_f(quality(qn, BUDGET))} vs {_f(quality(qh, BUDGET))} with them "
        f"({_vs(results, qn, qh, 'budget recall 4k')}), hit@5 {_f(quality(qn, 'hit@5'))} vs {_f(quality(qh, 'hit@5'))} "
        f"({_vs(results, qn, qh, 'hit@5')}), recall@10 {_f(quality(qn, 'recall@10'))} vs {_f(quality(qh, 'recall@10'))}. "
        "Both rows are in the tables; the verdicts above use QMD as shipped and the patched row alike.",
        "",
    ]


def _quality(results: list[Any], value: Value) -> list[str]:
    c = "locomo"
    mh = _row(results, c, "memgit", "hybrid")
    mb = _row(results, c, "memgit", "BM25-only")
    ms = _row(results, c, "memsearch", "")
    qb = _row(results, c, "qmd", "`qmd search`")
    qh = _row(results, c, "qmd", "`qmd query`")
    qbw = _row(results, c, "qmd", "`qmd search`", quality_only=True)
    qhw = _row(results, c, "qmd", "`qmd query`", quality_only=True)
    out = []
    if mh is None or not mh.quality:
        return ["- memgit has no LoCoMo quality figures in this run.", ""]
    br = {k: quality(r, BUDGET) for k, r in (("mh", mh), ("mb", mb), ("ms", ms), ("qh", qh), ("qb", qb))}
    if br["mh"] is not None:
        small, large = quality(mh, "budget_micro@2000"), quality(mh, "budget_micro@8000")
        out.append(
            f"- **What an agent can read in 4,000 characters (≈1,000 tokens, LoCoMo).** memgit hybrid's budget "
            f"recall is {_f(br['mh'])} (BM25-only install {_f(br['mb'])}; {_f(small)} in 2,000 characters, "
            f"{_f(large)} in 8,000). Against each peer, memgit hybrid minus peer [95% interval]: memsearch "
            f"{_f(br['ms'])} ({_vs(results, mh, ms, 'budget recall 4k')}), QMD lex+vec {_f(br['qh'])} "
            f"({_vs(results, mh, qh, 'budget recall 4k')}), `qmd search` {_f(br['qb'])} "
            f"({_vs(results, mh, qb, 'budget recall 4k')}). memgit returns short chunks with exact line "
            f"ranges (≈{_f(_per_hit(mh), '{:,.0f}')} characters a hit), so the 4,000-character budget holds "
            f"≈{_f(_fits(mh), '{:.0f}')} distinct hits; memsearch returns heading sections of up to 1,500 characters "
            f"(≈{_f(_per_hit(ms), '{:,.0f}')} a hit), so the budget holds ≈{_f(_fits(ms), '{:.0f}')}."
        )
    r10 = {k: quality(r, "recall@10") for k, r in (("mh", mh), ("ms", ms), ("qhw", qhw))}
    if r10["ms"] is not None and r10["mh"] is not None:
        gap = _vs(results, mh, ms, "recall@10")
        ratio = (quality(ms, "returned_chars@10") or 0) / max(1.0, quality(mh, "returned_chars@10") or 1)
        if gap.endswith("a loss"):
            head = f"memsearch's recall@10 ({_f(r10['ms'])}) beats memgit hybrid's ({_f(r10['mh'])}; {gap})"
        elif gap.endswith("a win"):
            head = f"memgit hybrid's recall@10 ({_f(r10['mh'])}) beats memsearch's ({_f(r10['ms'])}; {gap}) even"
        else:
            head = f"memsearch's recall@10 ({_f(r10['ms'])}) and memgit hybrid's ({_f(r10['mh'])}) are level ({gap})"
        out.append(
            f"- **At equal k, bigger hits cover more lines.** {head} though memsearch's ten hits carry about "
            f"{_f(ratio, '{:.1f}')}× as much text; QMD's *whole file* rows (recall@10 {_f(r10['qhw'])}) are the "
            "extreme case: ten whole daily logs are most of a conversation. "
            + (
                "Per character read, memgit is ahead (budget recall above)."
                if _vs(results, mh, ms, "budget recall 4k").endswith("a win")
                else ""
            )
        )
    if qb is not None and qb.quality:
        out.append(
            f"- **QMD as shipped, without its LLM stages.** `qmd search` ANDs every term of the question, so "
            f"{_f(100 * (quality(qb, 'empty') or 0), '{:.0f}')}% of LoCoMo questions return nothing; its snippets pick "
            "the line with the most literal query-term matches (question words included) and are cut at 300 "
            f"characters, so a right document often shows a snippet without the evidence line (hit@5 "
            f"{_f(quality(qb, 'hit@5'))} on snippet ranges vs {_f(quality(qbw, 'hit@5'))} counting whole files). The lex+vec "
            f"query reaches whole-file hit@10 {_f(quality(qhw, 'hit@10'))} (`qmd search`: {_f(quality(qbw, 'hit@10'))}) but "
            f"still shows a 4-line snippet (hit@5 on snippets {_f(quality(qh, 'hit@5'))}). QMD is designed around its "
            "query-expansion model and reranker, which need Hugging Face downloads and are not measured here."
        )
    cats = ("multi-hop", "temporal", "open-domain", "single-hop")
    per_cat = []
    for cat in cats:
        m, s = quality(mh, BUDGET, cat), quality(ms, BUDGET, cat)
        if m is not None and s is not None:
            per_cat.append(f"{cat} {_f(m)} vs {_f(s)}")
    if per_cat:
        out.append(
            "- Budget recall 4k by category, memgit hybrid vs memsearch (point figures; the categories are "
            "small, see the overall verdicts for what is significant): " + "; ".join(per_cat) + "."
        )
    return out + [""]


def _synth_quality(results: list[Any]) -> list[str]:
    c = "synth"
    rows = {
        "memgit BM25-only": _row(results, c, "memgit", "BM25-only"),
        "memgit hybrid": _row(results, c, "memgit", "hybrid"),
        "memsearch": _row(results, c, "memsearch", ""),
        "`qmd search`": _row(results, c, "qmd", "`qmd search`"),
        "QMD lex+vec": _row(results, c, "qmd", "`qmd query`"),
    }
    vals = {k: quality(r, BUDGET) for k, r in rows.items()}
    if all(v is None for v in vals.values()):
        return []
    text = "; ".join(f"{k} {_f(v)}" for k, v in vals.items())
    out = [
        f"- **Synthetic known-item queries (proxy).** Budget recall 4k: {text}. The queries are bags of words "
        "taken from one line, and the generator repeats its templates across files, so this rewards exact "
        "term overlap"
    ]
    gap = _vs(results, rows["memgit BM25-only"], rows["memgit hybrid"], "budget recall 4k")
    if gap.endswith("a win"):
        out[-1] += f" (memgit's own BM25 beats its hybrid here: {gap})"
    out[-1] += "; it checks that results stay findable in a generated workspace, not which tool understands questions."
    return out + [""]


def _mean(xs: list[float | None] | None) -> float | None:
    vals = [x for x in (xs or []) if x is not None]
    return sum(vals) / len(vals) if vals else None


def _per_hit(r: Any | None) -> float | None:
    chars = quality(r, "returned_chars@10")
    return None if chars is None else chars / 10


def _fits(r: Any | None) -> float | None:
    per = _per_hit(r)
    return None if not per else 4000 / per


def _cost(results: list[Any], corpus: str, label: str, value: Value, meta: dict[str, Any]) -> list[str]:
    mh = _row(results, corpus, "memgit", "hybrid")
    mb = _row(results, corpus, "memgit", "BM25-only")
    ms = _row(results, corpus, "memsearch", "")
    qb = _row(results, corpus, "qmd", "`qmd search`")
    qh = _row(results, corpus, "qmd", "`qmd query`")
    metrics = ("full", "incremental", "index_size", "index_peak", "p50", "p95", "oneshot", "search_peak")
    v = {k: {m: value(r, m) for m in metrics} for k, r in (("mh", mh), ("mb", mb), ("ms", ms), ("qb", qb), ("qh", qh))}
    size, overlap = _chunking(meta)
    out = [f"**Cost on {label}.**", ""]
    out.append(
        f"- Full index with embeddings: memgit {_f(v['mh']['full'], '{:.0f} s')}, memsearch "
        f"{_f(v['ms']['full'], '{:.0f} s')}, QMD (`collection add` + `embed`) {_f(v['qh']['full'], '{:.0f} s')}. "
        "All three embed with MiniLM on the CPU, and embedding dominates. They do not embed the same amount "
        f"of text: memgit embeds every line in {size} chunks ({overlap} of overlap; `[chunking]` defaults), sentence-transformers "
        "truncates memsearch's ≤1,500-character sections at 256 tokens, and QMD truncates its ≈900-token "
        "chunks to MiniLM's 512-token window, so both peers leave part of longer chunks unembedded."
        f" BM25 only: memgit {_f(v['mb']['full'], '{:.1f} s')}, `qmd collection add` {_f(v['qb']['full'], '{:.1f} s')}."
    )
    counts = (meta.get("index_counts") or {}).get(corpus) or {}
    if counts:
        parts = []
        for tool, key, cap in (
            ("memgit", "mh", f"{size} chunks"),
            ("memsearch", "ms", "cut at 256 tokens"),
            ("qmd", "qh", "cut at 512 tokens"),
        ):
            n, t = counts.get(tool), v[key]["full"]
            if n:
                rate = f", {n / t:.0f} a second" if t else ""
                parts.append(f"{'QMD' if tool == 'qmd' else tool} {n:,} ({cap}{rate})")
        out.append(
            "- Chunks embedded (read from each index after the run): " + "; ".join(parts) + ". Per chunk, "
            "QMD's longer inputs cost more, so chunks a second understate its token throughput."
        )
    inproc = (ms.index or {}).get("incremental_in_process_s") if ms is not None else None
    out.append(
        f"- Incremental re-index after one changed file: memgit {_f(v['mh']['incremental'], '{:.2f} s')} "
        f"(BM25-only {_f(v['mb']['incremental'], '{:.2f} s')}), memsearch {_f(v['ms']['incremental'], '{:.2f} s')} "
        f"in a fresh process ({_f(inproc, '{:.2f} s')} inside a running one, model already loaded), QMD "
        f"`update` + `embed` {_f(v['qh']['incremental'], '{:.2f} s')} (`update` alone "
        f"{_f(v['qb']['incremental'], '{:.2f} s')}). memgit diffs the git trees, so the work follows the diff, "
        "and re-embeds only chunks whose text changed. memsearch walks every file and asks Milvus Lite for "
        "that file's chunk ids (one query a file) before it knows what changed, so its in-process re-index "
        "grows with the workspace even when one chunk is re-embedded; a fresh memsearch process also spends "
        f"{_f(_mean((ms.index or {}).get('model_load_s') if ms else None), '{:.1f} s')} (mean in this run) "
        "importing torch and loading the sentence-transformers model."
    )
    out.append(
        f"- Warm search, p50 / p95: memgit hybrid {_f(v['mh']['p50'], '{:.1f}')} / {_f(v['mh']['p95'], '{:.1f}')} ms, "
        f"BM25 {_f(v['mb']['p50'], '{:.1f}')} / {_f(v['mb']['p95'], '{:.1f}')} ms; memsearch "
        f"{_f(v['ms']['p50'], '{:.1f}')} / {_f(v['ms']['p95'], '{:.1f}')} ms; QMD lex+vec "
        f"{_f(v['qh']['p50'], '{:.1f}')} / {_f(v['qh']['p95'], '{:.1f}')} ms, `qmd search` "
        f"{_f(v['qb']['p50'], '{:.1f}')} / {_f(v['qb']['p95'], '{:.1f}')} ms (one FTS5 query through "
        "better-sqlite3 inside Node; for QMD the snippet extraction is included)."
    )
    out.append(
        f"- Index on disk: memgit {_f(v['mh']['index_size'], '{:.1f}')} MB with vectors "
        f"(BM25-only {_f(v['mb']['index_size'], '{:.1f}')} MB), memsearch {_f(v['ms']['index_size'], '{:.1f}')} MB, "
        f"QMD {_f(v['qh']['index_size'], '{:.1f}')} MB with vectors (`collection add` alone "
        f"{_f(v['qb']['index_size'], '{:.1f}')} MB). memgit's figure includes its embedding cache (every chunk "
        "text's vector, kept so a re-index never embeds the same text twice)."
    )
    out.append(
        f"- One-shot CLI call (a fresh process answering one question, median): memgit hybrid "
        f"{_f(v['mh']['oneshot'], '{:,.0f}')} ms, BM25-only {_f(v['mb']['oneshot'], '{:,.0f}')} ms; memsearch "
        f"{_f(v['ms']['oneshot'], '{:,.0f}')} ms; QMD `qmd query` {_f(v['qh']['oneshot'], '{:,.0f}')} ms, "
        f"`qmd search` {_f(v['qb']['oneshot'], '{:,.0f}')} ms. This is what an agent pays when it shells out "
        "once per question: interpreter start-up, imports and, with vectors, loading the model dominate; the "
        "warm figures above are what a long-lived process (an MCP server, `--batch`) pays."
    )
    out.append(
        f"- Peak memory: memgit {_f(v['mh']['index_peak'], '{:.0f}')} MB indexing / "
        f"{_f(v['mh']['search_peak'], '{:.0f}')} MB searching (BM25-only {_f(v['mb']['index_peak'], '{:.0f}')} / "
        f"{_f(v['mb']['search_peak'], '{:.0f}')} MB); memsearch {_f(v['ms']['index_peak'], '{:.0f}')} / "
        f"{_f(v['ms']['search_peak'], '{:.0f}')} MB (torch + Milvus Lite); QMD {_f(v['qh']['index_peak'], '{:.0f}')} / "
        f"{_f(v['qh']['search_peak'], '{:.0f}')} MB (Node + llama.cpp)."
    )
    return out + [""]


REMEDY = {
    "full": (
        "**Full index with embeddings.** Embedding dominates every tool's full index, and all use MiniLM on "
        "the same two cores. QMD covers the corpus with far fewer, longer llama.cpp inputs (up to 512 "
        "tokens, whatever does not fit is cut off) where memgit makes one call per {size} chunk (see the "
        "chunk counts above); longer inputs are likely cheaper per token on the CPU. memgit's options, none of which "
        "gives up coverage: embed longer windows for the vector leg while BM25 keeps its short chunks, drop "
        "the {overlap} of overlap from the vector pass, skip re-embedding chunk text it has already embedded (the "
        "cache is keyed by text hash), and run two llama.cpp contexts, one per core, on different chunks. "
        "Measure tokens a second against QMD's after each change."
    ),
    "incremental": (
        "**Incremental re-index.** memgit re-embeds only changed chunks, but each `memgit index` is a fresh "
        "Python process (imports, git, SQLite, and the model when embeddings are on); the git hooks and the MCP "
        "server could keep one warm process, and a BM25-first update (vectors filled in behind it) would make "
        "the keyword index current at once."
    ),
    "p50": (
        "**Warm search latency.** `qmd search` is one FTS5 statement over whole documents inside Node; memgit "
        "runs BM25 and vector legs, merges, applies decay and MMR, and cuts snippets in Python for every "
        "query. Closing the gap means profiling `memgit search --batch` (its per-query `elapsed_ms`) and "
        "moving work out of the per-query path: fewer candidates into MMR, snippet text read once per hit, "
        "the vector leg skipped when BM25 is confident."
    ),
    "recall@10": (
        "**recall@k at equal k.** A peer whose hits are larger (memsearch's heading sections, QMD's whole "
        "files) covers more lines with ten hits; memgit's short hits are why it leads per token read. To win "
        "at equal k too, memgit could widen a hit when its neighbours also score (merge adjacent chunks of "
        "one session into one hit), or let the caller ask for a token budget instead of k and pack it."
    ),
    "hit@5": (
        "**Ranking.** The reference notes put the headroom in ordering, not in candidates: a reranker whose "
        "weights ship in a package, or a better fusion of the BM25 and vector legs."
    ),
    "budget_recall": (
        "**Budget recall.** Ranking is the lever (see the reference notes: a perfect re-order of the top 20 "
        "would add ≈18 points)."
    ),
    "index_size": (
        "**Index on disk.** Beside `index.sqlite`, memgit keeps an embedding cache (`embed-cache.sqlite`, so "
        "a re-index never embeds the same text twice) and the float32 vectors (`vectors.f32`; above 50,000 "
        "chunks also their binary codes): the cache holds a second copy of every vector. It could store "
        "float16 or be pruned of texts no longer in any tree."
    ),
    "oneshot": (
        "**One-shot CLI call.** A cold `memgit search` pays Python start-up, memgit's imports and, with "
        "vectors, loading the model into llama.cpp before one query; lazy imports on the search path, and an "
        "agent using the MCP server or `--batch` instead of one process a question, are the levers."
    ),
    "index_peak": (
        "**Memory while indexing.** Peak RSS is the model plus the batch being embedded; smaller embedding "
        "batches would lower it."
    ),
    "search_peak": (
        "**Memory while searching.** The hybrid search loads the model to embed the query; a BM25-only "
        "search or a memory-mapped vector matrix keeps it small."
    ),
}


def _what_it_takes(results: list[Any], value: Value, meta: dict[str, Any]) -> list[str]:
    """Every cost loss (beyond the 10% band) and every quality loss (the bootstrap interval below zero),
    each with what it would take."""
    lost: dict[str, list[str]] = {}
    for corpus in sorted({r.corpus for r in results}):
        for mine, peer, cells in verdicts(results, corpus):
            for label, d in cells.items():
                key = "budget_recall" if label.startswith("budget") else label
                if verdict(d) == "a loss" and key in REMEDY:
                    lost.setdefault(key, []).append(
                        f"{mine.label}, {corpus}: {label} {d[0]:+.3f} [{d[1]:+.3f}, {d[2]:+.3f}] vs {peer.label}"
                    )
    for r in results:
        if r.tool != "memgit" or r.quality_only or r.status != "ok":
            continue
        _, _, losses = compare(results, r.corpus, r)
        for text in losses:
            label = text.split(":", 1)[0]
            key = {
                "full index": "full",
                "incremental re-index": "incremental",
                "index on disk": "index_size",
                "index peak RSS": "index_peak",
                "warm search p50": "p50",
                "warm search p95": "p50",
                "one-shot CLI": "oneshot",
                "search peak RSS": "search_peak",
            }.get(label)
            if key:
                lost.setdefault(key, []).append(f"{r.label}, {r.corpus}: {text}")
    if not lost:
        return []
    size, overlap = _chunking(meta)
    out = ["### Where memgit loses, and what it would take", ""]
    for key, where in lost.items():
        remedy = REMEDY[key].replace("{size}", size).replace("{overlap}", overlap)
        out.append(f"- {remedy} (This run: " + "; ".join(where) + ".)")
    return out + [""]
