"""memgit's secret rules vs detect-secrets on the labelled corpus of `bench/secrets_corpus.py`.

    .venv/bin/python bench/secrets_compare.py [--seed 0] [--variants 4] [--by-kind] [--json out.json]
    .venv/bin/python bench/secrets_compare.py --scan DIR [DIR ...]   # false alarms on real notes

Each note is checked the way each tool checks a file:

* `memgit lint (hand-written)`: the lint's own S1xx rules alone (`scan_secrets`, private keys);
* `detect-secrets (default plugins)`: `detect_secrets.core.scan.scan_file` on the note written to a
  `.md` file, default settings (every plugin, the default filters), as `detect-secrets scan` does;
* `memgit lint (as shipped)`: `lint_file` with its default settings, which is the hand-written
  rules plus the detect-secrets plugins the numbers chose (`memgit.lint.detectors`).

A secret counts as found when the tool reports anything for its note; a look-alike counts as a
false alarm when it does. Prints found/missed/false alarms per tool, then (with --by-kind) which
kinds each tool missed or flagged wrongly, and per detect-secrets plugin its hits and false alarms.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report import write_json  # noqa: E402
from bench.secrets_corpus import Sample, corpus  # noqa: E402
from memgit.lint import rules  # noqa: E402

TODAY = date(2026, 1, 5)


HAND_WRITTEN = ("S101", "S102", "S103")


def hand_written(sample: Sample) -> set[str]:
    """The lint's regular-expression rules as they stood before detect-secrets was added."""
    return {code for code in shipped(sample) if code in HAND_WRITTEN}


def shipped(sample: Sample) -> set[str]:
    item = rules.LintInput("memory/2026-01-05.md", sample.text.encode() + b"\n", None, True)
    return {f.code for f in rules.lint_file(item, rules.LintSettings(), TODAY) if f.code.startswith("S")}


def detect_secrets_scanner(workdir: Path) -> Callable[[Sample], set[str]]:
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings

    counter = iter(range(10**9))

    def scan(sample: Sample) -> set[str]:
        path = workdir / f"note-{next(counter)}.md"
        path.write_text(sample.text + "\n", encoding="utf-8")
        with default_settings() as settings:
            # `--no-verify`: no detector may ask a service over the network whether a key is live.
            settings.disable_filters("detect_secrets.filters.common.is_ignored_due_to_verification_policies")
            return {secret.type for secret in scan_file(str(path))}

    return scan


def evaluate(samples: list[Sample], tool: Callable[[Sample], set[str]]) -> dict[str, Any]:
    found = missed = false_alarms = clean = 0
    missed_kinds: Counter[str] = Counter()
    alarm_kinds: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    label_hits: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # label -> [secret hits, false alarms]
    for sample in samples:
        result = tool(sample)
        for label in result:
            label_hits[label][0 if sample.secret else 1] += 1
            labels[label] += 1
        if sample.secret:
            if result:
                found += 1
            else:
                missed += 1
                missed_kinds[sample.kind] += 1
        elif result:
            false_alarms += 1
            alarm_kinds[sample.kind] += 1
        else:
            clean += 1
    secrets = found + missed
    return {
        "found": found,
        "missed": missed,
        "false_alarms": false_alarms,
        "look_alikes_clean": clean,
        "recall": round(found / secrets, 3) if secrets else None,
        "precision": round(found / (found + false_alarms), 3) if found + false_alarms else None,
        "missed_kinds": dict(missed_kinds),
        "false_alarm_kinds": dict(alarm_kinds),
        "by_label": {k: {"on_secrets": v[0], "on_look_alikes": v[1]} for k, v in sorted(label_hits.items())},
    }


def scan_dirs(dirs: Sequence[Path]) -> dict[str, Any]:
    """Every S1xx finding of the shipped lint on the Markdown under `dirs` (no secrets expected)."""
    files = lines = 0
    codes: Counter[str] = Counter()
    examples: list[str] = []
    for root in dirs:
        for path in sorted(root.rglob("*.md")):
            data = path.read_bytes()
            files += 1
            lines += data.count(b"\n")
            item = rules.LintInput("memory/note.md", data, None, True)
            for finding in rules.lint_file(item, rules.LintSettings(), TODAY):
                if finding.code.startswith("S"):
                    codes[finding.code] += 1
                    examples.append(f"{path}:{finding.line}: {finding.code} {finding.message}")
    print(f"scanned {files} files, {lines} lines under {', '.join(map(str, dirs))}: S1xx findings {dict(codes)}")
    for example in examples[:20]:
        print(f"  {example}")
    return {"files": files, "lines": lines, "findings": dict(codes), "examples": examples}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", type=int, default=4)
    parser.add_argument("--by-kind", action="store_true", help="list missed kinds, false alarms, labels")
    parser.add_argument("--table", action="store_true", help="a Markdown table per kind for the shipped lint")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--scan", type=Path, nargs="+", help="count false alarms on these folders instead")
    opts = parser.parse_args(argv)
    if opts.scan:
        result = scan_dirs(opts.scan)
        if opts.json:
            write_json(opts.json, result)
        return 0
    samples = corpus(opts.seed, opts.variants)
    positives = sum(s.secret for s in samples)
    print(
        f"command: python bench/secrets_compare.py --seed {opts.seed} --variants {opts.variants}\n"
        f"corpus: {positives} secrets ({len({s.kind for s in samples if s.secret})} kinds), "
        f"{len(samples) - positives} look-alikes ({len({s.kind for s in samples if not s.secret})} kinds)\n"
    )
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tools = {
            "memgit lint (hand-written)": hand_written,
            "detect-secrets (default plugins)": detect_secrets_scanner(Path(tmp)),
            "memgit lint (as shipped)": shipped,
        }
        print("| tool | found | missed | false alarms | recall | precision |\n|---|---|---|---|---|---|")
        for name, tool in tools.items():
            r = results[name] = evaluate(samples, tool)
            print(f"| {name} | {r['found']} | {r['missed']} | {r['false_alarms']} | {r['recall']} | {r['precision']} |")
    if opts.by_kind:
        for name, r in results.items():
            print(f"\n{name}\n  missed: {r['missed_kinds']}\n  false alarms: {r['false_alarm_kinds']}")
            for label, counts in r["by_label"].items():
                print(f"  {label}: {counts['on_secrets']} on secrets, {counts['on_look_alikes']} on look-alikes")
    if opts.table:
        print_kind_table(samples)
    if opts.json:
        write_json(opts.json, results)
    return 0


def print_kind_table(samples: list[Sample]) -> None:
    """Per kind: secrets caught (and with the kind's own rule where it has one) or look-alikes flagged."""
    from bench.secrets_corpus_shapes import RULE_OF

    rows: dict[tuple[bool, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for sample in samples:
        codes = shipped(sample)
        row = rows[(sample.secret, sample.kind)]
        row[0] += 1
        row[1] += bool(codes)
        row[2] += RULE_OF.get(sample.kind, "") in codes
    print("\n| kind | rule | secrets | caught | look-alikes | false alarms |\n|---|---|---:|---:|---:|---:|")
    for (secret, kind), (total, hits, own) in sorted(rows.items(), key=lambda item: (not item[0][0], item[0][1])):
        if secret:
            rule = RULE_OF.get(kind, "S101-S105")
            caught = f"{hits}" + (f" ({own} as {rule})" if kind in RULE_OF else "")
            print(f"| {kind} | {rule} | {total} | {caught} | | |")
        else:
            print(f"| {kind} | | | | {total} | {hits} |")


if __name__ == "__main__":
    raise SystemExit(main())
