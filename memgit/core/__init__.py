"""What several layers share at the bottom: pure logic (chunking, Markdown line maps, text and path
rules, provenance references, transcripts; data in, data out: no git, no SQLite, property-testable
and cheap to import on a hook's hot path) and two small file primitives every writer uses, so each
exists once: replacing a file in one step (`atomic`) and file locks (`locks`). What only one layer
uses lives in that layer (recall's ranking, the lint's rules)."""
