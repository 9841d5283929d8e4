"""How many of a real vault's wikilinks memgit's site resolves, and how often it agrees with an
independent implementation of Obsidian's rules (`tests/site/obsidian_oracle.py`).

    .venv/bin/python bench/vault_links.py REPO [--ref HEAD] [--root en] [--oracle PATH] [--json OUT]

REPO is a git repository (a bare snapshot works: files are read from the tree at --ref, nothing
is checked out); --root is the vault's folder inside it (obsidian-help keeps one vault a
language). Every `[[…]]` outside code in the vault's Markdown is counted once per place it is
written. Reports: links, resolved, resolved share, unresolved targets (most frequent first), and
with an oracle the share of links where both give the same file (both None counts as agreeing).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memgit.site import vault  # noqa: E402
from memgit.site.titles import front_matter  # noqa: E402


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def read_vault(repo: Path, ref: str, root: str) -> tuple[list[str], dict[str, str]]:
    """(every file of the vault, relative to its root; the text of each Markdown note)."""
    prefix = root.strip("/") + "/" if root.strip("/") else ""
    names = [n for n in _git(repo, "ls-tree", "-r", "-z", "--name-only", ref, "--", prefix or ".").split("\0") if n]
    files = [n[len(prefix) :] for n in names if n.startswith(prefix)]
    notes = [f for f in files if f.endswith(".md")]
    texts: dict[str, str] = {}
    batch = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch"],
        input="".join(f"{ref}:{prefix}{f}\n" for f in notes).encode(),
        capture_output=True,
        check=True,
    ).stdout
    pos = 0
    for note in notes:
        header_end = batch.index(b"\n", pos)
        size = int(batch[pos:header_end].split()[2])
        texts[note] = batch[header_end + 1 : header_end + 1 + size].decode("utf-8", "replace")
        pos = header_end + 1 + size + 1
    return files, texts


def _oracle(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("obsidian_oracle", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(files: list[str], texts: dict[str, str], oracle: ModuleType | None = None) -> dict:
    aliases = {}
    for note, text in texts.items():
        found = front_matter(text.split("\n"))
        if found and (names := vault.aliases_of(found[1])):
            aliases[note] = names
    resolver = vault.Resolver(files, aliases)
    links = resolved = agree = 0
    missing: Counter[str] = Counter()
    disagree: list[dict] = []
    for note, text in sorted(texts.items()):
        for match in vault.WIKILINK.finditer(_outside_code(text)):
            link = vault.parse(match[2], bool(match[1]))
            links += 1
            ours = resolver.resolve(link.target, note)
            resolved += ours is not None
            if ours is None:
                missing[link.target] += 1
            if oracle is not None:
                theirs = oracle.resolve(match[2], note, files, aliases)
                if theirs == ours:
                    agree += 1
                elif len(disagree) < 50:
                    disagree.append({"note": note, "link": match[2], "memgit": ours, "oracle": theirs})
    out = {
        "notes": len(texts),
        "files": len(files),
        "links": links,
        "resolved": resolved,
        "resolved_share": round(resolved / links, 4) if links else None,
        "unresolved_top": missing.most_common(20),
    }
    if oracle is not None:
        out["agree"] = agree
        out["agree_share"] = round(agree / links, 4) if links else None
        out["disagreements"] = disagree
    return out


def _outside_code(text: str) -> str:
    """The text with fenced blocks and code spans blanked, as `vault.wikilinks` reads it."""
    lines = []
    fence = ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = ""
            lines.append("")
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            lines.append("")
            continue
        lines.append(vault._CODE_SPAN.sub(lambda m: " " * len(m[0]), line))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo", type=Path)
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--root", default="")
    parser.add_argument("--oracle", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    files, texts = read_vault(args.repo, args.ref, args.root)
    result = measure(files, texts, _oracle(args.oracle) if args.oracle else None)
    result["repo"], result["root"] = str(args.repo), args.root
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    summary = {k: v for k, v in result.items() if k not in ("disagreements", "unresolved_top")}
    print(json.dumps(summary))
    print("unresolved, most frequent:", result["unresolved_top"][:10])


if __name__ == "__main__":
    main()
