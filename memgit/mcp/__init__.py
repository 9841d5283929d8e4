"""`memgit mcp`: the memory as an MCP server over stdio for agent hosts. Holds the index open and
the model loaded between calls, so an agent's search costs milliseconds; writes go through the
same append path and lint as the CLI's."""
