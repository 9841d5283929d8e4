"""Reading memory back: hybrid search (BM25 over FTS5 and vectors, merged and re-ranked), `get`
by line range, and the context an agent loads at session start."""
