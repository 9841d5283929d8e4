"""The derived index of one workspace: which chunks a git tree holds (SQLite, FTS5), their vectors
(embedding cache, memory-mapped files) and how to bring both from one tree to another at the cost
of the diff. Provably equal to a full rebuild of the same tree (`memgit index --verify`)."""
