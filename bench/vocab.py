"""Seeded vocabularies for the synthetic memory workspace generator (``gen_workspace.py``)."""

from __future__ import annotations

PEOPLE = (
    "Aisha Bello", "Bruno Costa", "Chen Wei", "Dana Okafor", "Elif Yilmaz", "Farah Haddad", "Gustav Lind",
    "Hana Sato", "Ivan Petrov", "Jonas Weber", "Kavya Rao", "Liam O'Brien", "Maya Cohen", "Nikolai Orlov",
    "Olga Novak", "Priya Nair", "Quentin Moreau", "Rosa Jimenez", "Sven Aalto", "Tariq Aziz", "Uma Patel",
    "Vera Kuznetsova", "Wen Li", "Ximena Ruiz", "Yusuf Demir", "Zoe Martin", "Amara Diallo", "Björn Olsen",
    "Camille Dubois", "Diego Alvarez", "Emeka Obi", "Freya Hansen", "Goran Ilic", "Hiroshi Tanaka",
    "Ines Ferreira", "Jakub Nowak", "Keiko Mori", "Lars Berg", "Mateo Rossi", "Nadia Rahman",
)
TEAMS = (
    "platform", "data infra", "payments", "search", "mobile", "growth", "security", "SRE", "billing",
    "design systems", "ML research", "support tooling", "developer experience", "legal", "finance",
)
PROJECTS = (
    "Atlas", "Borealis", "Cinder", "Driftwood", "Ember", "Fathom", "Granite", "Halcyon", "Ironbark",
    "Juniper", "Kestrel", "Lumen", "Meridian", "Nimbus", "Obsidian", "Pelican", "Quasar", "Riptide",
    "Saffron", "Tundra", "Umbra", "Vantage", "Willow", "Xenon", "Yarrow", "Zephyr",
)
SERVICES = (
    "auth-gateway", "ledger-api", "search-indexer", "notif-worker", "image-resizer", "billing-cron",
    "session-store", "feature-flags", "geo-lookup", "export-service", "webhook-relay", "rate-limiter",
    "audit-log", "report-builder", "sync-daemon", "queue-broker", "pdf-renderer", "user-profile",
)
TECH = (
    "Postgres 16", "Redis", "Kafka", "SQLite", "Rust", "Go", "TypeScript", "Python 3.12", "Terraform",
    "Kubernetes", "gRPC", "GraphQL", "OpenTelemetry", "Grafana", "ClickHouse", "DuckDB", "NATS", "Envoy",
    "Nix", "Bazel", "pnpm", "uv", "WebAssembly", "ONNX", "FAISS", "pgvector", "Temporal", "Airflow",
)
TOPICS = (
    "standup", "planning", "retro", "1:1", "incident review", "design review", "customer call", "lunch",
    "deep work", "hiring loop", "budget sync", "architecture chat", "on-call handover", "demo prep",
    "roadmap", "vendor call", "reading", "debugging", "pairing", "release",
)
ADJECTIVES = (
    "amber", "brisk", "silent", "crimson", "hollow", "lucid", "nimble", "polar", "quiet", "rapid",
    "scarlet", "tidal", "velvet", "wild", "gilded", "frosty", "copper", "jade", "misty", "solar",
)
ANIMALS = (
    "otter", "heron", "lynx", "badger", "falcon", "marten", "ibis", "viper", "walrus", "gecko",
    "puffin", "bison", "osprey", "tapir", "narwhal", "koala", "raven", "mantis", "orca", "yak",
)
ENVS = ("staging", "production", "canary", "eu-west-1", "us-east-2", "the dev cluster", "preview")
SYMPTOMS = (
    "p99 latency spikes", "memory leak", "duplicate webhooks", "stale cache entries", "deadlock under load",
    "timezone off-by-one", "silent data truncation", "flaky integration test", "slow cold start",
    "connection pool exhaustion", "retry storm", "broken pagination", "missing audit rows",
)
CAUSES = (
    "an unbounded goroutine pool", "a missing index on created_at", "clock skew between nodes",
    "a race in the cache invalidation", "the default TTL of 0", "a misconfigured health check",
    "UTF-8 handling in the CSV parser", "an N+1 query in the ORM", "a stale DNS entry",
    "a leaked file descriptor", "an integer overflow in the counter", "a forgotten feature flag",
)
DECISIONS = (
    "move the nightly batch to 02:30 UTC", "drop support for the v1 API", "adopt trunk-based development",
    "switch the queue to at-least-once delivery", "keep the monolith for another quarter",
    "write an RFC before any schema change", "freeze deploys on Fridays", "pin dependencies with hashes",
    "sunset the legacy admin panel", "run chaos drills monthly", "shard the events table by tenant",
    "use feature flags for every risky change", "buy instead of build for the status page",
)
TASKS = (
    "draft the migration plan", "review the load test results", "update the runbook",
    "book the offsite venue", "write the postmortem", "benchmark the new serializer",
    "clean up the dashboards", "rotate the API keys", "pair with the new hire", "file the expense report",
    "prototype the search ranking", "prepare the quarterly slides", "triage the backlog",
)
FOODS = ("ramen", "falafel", "pho", "tacos", "dumplings", "a burrito", "shakshuka", "pierogi", "sushi")
PLACES = (
    "Lisbon", "Osaka", "Nairobi", "Toronto", "Kraków", "Valparaíso", "Tbilisi", "Reykjavik", "Hanoi",
    "Montréal", "Ljubljana", "Marrakesh",
)
HOBBIES = (
    "bouldering", "sourdough baking", "trail running", "chess openings", "film photography",
    "learning Portuguese", "woodworking", "birdwatching", "synth patches", "sea kayaking",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
COMMANDS = (
    "kubectl rollout restart deploy/{service} -n {team_slug}",
    "psql -c 'EXPLAIN ANALYZE SELECT * FROM events WHERE tenant_id = {n}'",
    "git bisect start HEAD v{major}.{minor}.0",
    "terraform plan -target=module.{service_slug}",
    "curl -s https://{service}.internal/healthz | jq .status",
    "make bench ITER={n}",
)
