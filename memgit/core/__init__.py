"""Pure logic several layers share: chunking, Markdown line maps, text and path rules, provenance
references, transcripts. Data in, data out: no I/O, no git, no SQLite, so every rule here is
property-testable and cheap to import on a hook's hot path. What only one layer uses lives in that
layer (recall's ranking, the lint's rules)."""
