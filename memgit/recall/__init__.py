"""Reading memory back: hybrid search (BM25 over FTS5 and vectors, merged and re-ranked), `get`
by line range, and the context an agent loads at session start. The ranking arithmetic (fusion,
decay, MMR, the BM25 bound, feedback, the learned re-ranker) is pure and lives here too: only
recall uses it."""
