"""Writing and checking memory files: appends to today's log or MEMORY.md (locked, linted,
optionally committed), workspace initialisation, the lint's I/O half, conflicts, the recall spool."""
