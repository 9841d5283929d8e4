// QMD side of the peer comparison: warm search through QMD's SDK (`@tobilu/qmd`), one process.
//
//   node qmd_search.mjs --db INDEX.sqlite --config INDEX.yml --queries FILE --mode bm25|hybrid --k N --out FILE
//
// bm25:   store.searchLex(question)  — what `qmd search` runs (FTS5 BM25 over whole documents).
// hybrid: store.search({queries: [{type: "lex"}, {type: "vec"}], rerank: false}) — what
//         `qmd query $'lex: Q\nvec: Q' --no-rerank` runs: BM25 + vector (the configured local
//         GGUF embed model) fused with RRF, no LLM query expansion, no LLM reranker.
// Each hit gets the snippet QMD's CLI (--format json) and MCP server return:
// extractSnippet(body, query, 300, chunkPos, chunkLen), whose "@@ -START,COUNT @@" header gives the
// line range. The whole document body is written too, for the whole-file variant.
// One untimed warm-up query first (loads the embedding model in hybrid mode).
// Output: one JSON line per query {"id", "ms", "hits": [{path, start_line, end_line, snippet, body, score}]}.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

// The package lives in the throwaway install (bench/peers/.work/qmd), not next to this script.
const qmdEntry = process.env.QMD_SDK || new URL("./.work/qmd/node_modules/@tobilu/qmd/dist/index.js", import.meta.url).pathname;
const { createStore, extractSnippet } = await import(pathToFileURL(qmdEntry).href);

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
}

const db = arg("db");
const config = arg("config");
const mode = arg("mode", "bm25");
const k = parseInt(arg("k", "20"), 10);
const out = arg("out");
const queries = readFileSync(arg("queries"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

const tOpen = performance.now();
const store = await createStore({ dbPath: db, configPath: config });
const openMs = performance.now() - tOpen;

async function run(question) {
  if (mode === "bm25") {
    const rows = await store.searchLex(question, { limit: k });
    return rows.map((r) => ({ ...r, snip: extractSnippet(r.body, question, 300, r.chunkPos, undefined) }));
  }
  const rows = await store.search({
    queries: [{ type: "lex", query: question }, { type: "vec", query: question }],
    rerank: false,
    limit: k,
  });
  return rows.map((r) => ({ ...r, snip: extractSnippet(r.body, question, 300, r.bestChunkPos, r.bestChunk.length) }));
}

function stripCollection(displayPath) {
  const i = displayPath.indexOf("/");
  return i >= 0 ? displayPath.slice(i + 1) : displayPath;
}

const tWarm = performance.now();
await run("warm-up query about the weekend");
const warmMs = performance.now() - tWarm;

const lines = [];
for (const q of queries) {
  const t = performance.now();
  let rows = [];
  let note;
  try {
    rows = await run(q.question);
  } catch (err) {
    // QMD's typed `lex:` line rejects an unmatched double quote (the CLI fails the same way); the
    // question is retried once with its double quotes removed, and the retry is recorded.
    if (q.question.includes('"')) {
      note = `retried without double quotes: ${String(err.message || err).slice(0, 120)}`;
      rows = await run(q.question.replaceAll('"', " "));
    } else {
      note = `error: ${String(err.message || err).slice(0, 200)}`;
    }
  }
  const ms = performance.now() - t;
  lines.push(JSON.stringify({
    id: q.id,
    ms: Math.round(ms * 1000) / 1000,
    ...(note && { note }),
    hits: rows.map((r) => {
      const m = /^@@ -(\d+),(\d+) @@[^\n]*\n?/.exec(r.snip.snippet);
      const start = m ? parseInt(m[1], 10) : 1;
      const count = m ? parseInt(m[2], 10) : 0;
      return {
        path: stripCollection(r.displayPath),
        start_line: start,
        end_line: start + count - 1,
        snippet: m ? r.snip.snippet.slice(m[0].length) : r.snip.snippet,
        body: r.body,
        score: r.score,
      };
    }),
  }));
}
writeFileSync(out, lines.join("\n") + "\n");
await store.close();
console.log(JSON.stringify({ queries: queries.length, open_ms: openMs, warmup_ms: warmMs }));
process.exit(0);
