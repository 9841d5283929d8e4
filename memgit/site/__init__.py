"""The memory site: static HTML of a workspace whose every fact links to its source lines."""
