"""Writing memory files: appends to today's log or MEMORY.md (locked, linted,
optionally committed), workspace initialisation, conflicts, the recall spool, captured transcripts."""
