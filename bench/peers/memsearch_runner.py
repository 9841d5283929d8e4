"""memsearch side of the peer comparison. Runs inside memsearch's own venv (see install_memsearch.sh).

    python memsearch_runner.py index  --ws DIR --db FILE --model DIR
    python memsearch_runner.py search --ws DIR --db FILE --model DIR --queries FILE --k N --out FILE

Everything goes through memsearch's Python API (``memsearch.MemSearch``), with the ``local`` embedding
provider (sentence-transformers) loading all-MiniLM-L6-v2 from a local folder (HF_HUB_OFFLINE=1).
``index`` prints one JSON line: chunks indexed, model-load seconds and index() seconds.
``search`` loads the model once, runs one untimed warm-up query, then times each query's
``MemSearch.search`` call (query embedding + Milvus Lite hybrid dense+BM25 search with RRF) and writes
one JSON line per query: ``{"id", "ms", "hits": [{"path", "start_line", "end_line", "text", "score"}]}``
with ``path`` relative to the workspace.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)


def open_store(ws: Path, db: Path, model: Path):  # noqa: ANN201
    from memsearch import MemSearch

    return MemSearch(
        paths=[str(ws)],
        embedding_provider="local",
        embedding_model=str(model),
        milvus_uri=str(db),
        collection="bench",
    )


def cmd_index(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    ms = open_store(args.ws, args.db, args.model)
    load_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    report = asyncio.run(ms.index_with_report())
    index_s = time.perf_counter() - t1
    ms.close()
    print(
        json.dumps(
            {
                "chunks": report.indexed_chunks,
                "files": report.total_files,
                "failed": len(report.failed_files),
                "load_s": round(load_s, 3),
                "index_s": round(index_s, 3),
            }
        )
    )
    return 0 if not report.failed_files else 1


def cmd_search(args: argparse.Namespace) -> int:
    queries = [json.loads(line) for line in args.queries.read_text().splitlines() if line.strip()]
    t0 = time.perf_counter()
    ms = open_store(args.ws, args.db, args.model)
    load_s = time.perf_counter() - t0
    root = args.ws.resolve()

    async def run() -> list[dict]:
        await ms.search("warm-up query about the weekend", top_k=args.k)  # untimed
        out = []
        for q in queries:
            t = time.perf_counter()
            hits = await ms.search(q["question"], top_k=args.k)
            elapsed = (time.perf_counter() - t) * 1000
            out.append(
                {
                    "id": q["id"],
                    "ms": round(elapsed, 3),
                    "hits": [
                        {
                            "path": Path(h["source"]).resolve().relative_to(root).as_posix(),
                            "start_line": int(h["start_line"]),
                            "end_line": int(h["end_line"]),
                            "text": h["content"],
                            "score": float(h["score"]),
                        }
                        for h in hits
                    ],
                }
            )
        return out

    results = asyncio.run(run())
    ms.close()
    with args.out.open("w", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    print(json.dumps({"queries": len(results), "load_s": round(load_s, 3)}))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("index", "search"):
        p = sub.add_parser(name)
        p.add_argument("--ws", type=Path, required=True)
        p.add_argument("--db", type=Path, required=True)
        p.add_argument("--model", type=Path, required=True)
        if name == "search":
            p.add_argument("--queries", type=Path, required=True)
            p.add_argument("--k", type=int, default=20)
            p.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    return cmd_index(args) if args.cmd == "index" else cmd_search(args)


if __name__ == "__main__":
    sys.exit(main())
