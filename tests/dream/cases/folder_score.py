"""What a reviewer would count on a folder case lived by folder.py, from its labels.jsonl.

* proposals: every promote and update of every night (each branch was merged as it is);
* precision: a proposal is kept when its source lines hold a line labelled D (durable); one whose
  source holds an A line (an assistant's words) and no D is "assistant-only promoted as the
  person's";
* stale facts: a changing subject (labels' `subject` and `version`) whose MEMORY.md at the end
  holds an older version than the newest one written, or two versions. What MEMORY.md holds is
  read from memgit's entries (their source lines in the provenance store) and from the
  hand-written start's lines still there word for word;
* due updates: a version v (v >= 2) of a subject is due for an update when, at the first dream
  night after it was written (and before the next version was), MEMORY.md held an older version;
  made when MEMORY.md after the last such night holds no version older than v and one at least as
  new; shown as a conflict when not made but a proposal of that subject in those nights carries a
  "may conflict with" naming the older text;
* secrets leaked: lines labelled S whose secret-looking tokens appear in any dream branch (its
  commits, report, provenance and concepts files) or in MEMORY.md at the end.

Mangled copies and half-cut proposals need a person's judgement: `listing` puts every proposal next
to its source lines and their labels (and the heading above), so a reviewer can count them. The
hints it adds (words of a copy found nowhere in its source) are for reading, not a figure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from memgit.core.provenance import parse_reference
from memgit.dream import memory_doc
from memgit.dream.entries import parse_store
from tests.dream.cases.folder import FolderCase, Label, Lived

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_TOKEN = re.compile(r"[^\s'\"`,;()<>\[\]{}|]{6,}")
#: A PIN or a door code (4-8 digits, maybe a trailing # or *): too short for `_TOKEN`.
_CODE = re.compile(r"(?<![\w.,:/-])\d{4,8}[#*]?(?![\w.,:/-]\w)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
#: A note's path ("memory/2026-07-30.md" in a tool line that also holds a code): what a dream's
#: sources name, never the secret of the line.
_NOTE_PATH = re.compile(r"(?:[\w.-]+/)+[\w.-]+\.(?:md|jsonl|json|txt)")


def _lines(case: FolderCase, path: str, night: str | None = None) -> list[str]:
    text = case.text_of(path, night)
    return text.splitlines() if text is not None else []


def _shown_line(path: str, raw: str) -> str:
    """A transcript's JSON line as `role: content`; any other line as written."""
    if path.endswith(".jsonl"):
        try:
            obj = json.loads(raw)
            return f"{obj.get('role')}: {obj.get('content')}"
        except ValueError:
            return raw
    return raw


def _heading(lines: list[str], start: int) -> str:
    for n in range(start - 1, 0, -1):
        if _HEADING.match(lines[n - 1]):
            return lines[n - 1].strip()
    return ""


@dataclass
class Proposal:
    night: str
    action: str
    key: str
    text: str
    source: str
    path: str
    start: int
    end: int
    labels: list[str]
    source_lines: list[tuple[int, str, str]]  # (line, label, text)
    heading: str
    target: str | None
    conflicts: list[dict[str, str]]
    subjects: list[tuple[str, int]]
    timeline: bool = False
    was: str = ""

    @property
    def kept(self) -> bool:
        return "D" in self.labels

    @property
    def assistant_only(self) -> bool:
        return "A" in self.labels and "D" not in self.labels

    def hint(self) -> str | None:
        """Words of the copy found in neither its source lines nor the heading above (a reading
        aid for mangled copies; dates and a speaker's "said" are expected)."""
        allowed = {w.lower() for _, _, t in self.source_lines for w in _WORD.findall(t)}
        allowed |= {w.lower() for w in _WORD.findall(self.heading)}
        extra = sorted(
            {w for w in (x.lower() for x in _WORD.findall(self.text)) if w not in allowed and not w.isdigit()}
            - {"said", "user", "the", "on", "in", "of", "week", "from"}
        )
        return ", ".join(extra) if extra else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "night": self.night,
            "action": self.action,
            "key": self.key,
            "text": self.text,
            "source": self.source,
            "labels": self.labels,
            "kept": self.kept,
            "assistant_only": self.assistant_only,
            "source_lines": [{"line": n, "label": lab, "text": t} for n, lab, t in self.source_lines],
            "heading": self.heading,
            "target": self.target,
            "conflicts": self.conflicts,
            "subjects": [f"{s}:{v}" for s, v in self.subjects],
            "timeline": self.timeline,
            "was": self.was,
            "hint": self.hint(),
        }


def proposals(case: FolderCase, lived: Lived) -> list[Proposal]:
    out = []
    for night in lived.nights:
        for action in night.actions:
            if action.get("action") not in ("promote", "supersede") or not action.get("source"):
                continue
            ref = parse_reference(action["source"])
            lines = _lines(case, ref.path, night.day)
            rows = []
            subjects = []
            for n in range(ref.start, ref.end + 1):
                label = case.label_of(ref.path, n, night.day)
                text = _shown_line(ref.path, lines[n - 1]) if n <= len(lines) else ""
                rows.append((n, label.label if label else "?", text))
                if label is not None and label.subject:
                    subjects.append((label.subject, label.version))
            out.append(
                Proposal(
                    night.day,
                    action["action"],
                    action["key"],
                    action["text"],
                    action["source"],
                    ref.path,
                    ref.start,
                    ref.end,
                    sorted({lab for _, lab, _ in rows}),
                    rows,
                    "" if ref.path.endswith(".jsonl") else _heading(lines, ref.start),
                    action.get("target"),
                    action.get("conflicts") or [],
                    subjects,
                    bool(action.get("timeline")),
                    _was(night.memory_before, action.get("target")),
                )
            )
    return out


def _was(memory: str, key: str | None) -> str:
    """The text an update replaces (the entry with that key, or a person's line by its key)."""
    if not key:
        return ""
    from memgit.dream.concepts import entry_key

    for entry in memory_doc.parse_entries(memory):
        if entry.key == key:
            return memory_doc_text(entry.body)
    return next((line.strip() for line in memory.splitlines() if entry_key(line) == key), "")


@dataclass
class Version:
    subject: str
    version: int
    day: str  # "" for the hand-written start (day zero)
    places: list[Label] = field(default_factory=list)


def versions(case: FolderCase) -> dict[str, list[Version]]:
    found: dict[tuple[str, int], Version] = {}
    for label in case.labels.values():
        if not label.subject or label.version < 1:
            continue
        day = case.day_of(label.path) or ""
        v = found.setdefault((label.subject, label.version), Version(label.subject, label.version, day))
        v.day = min(v.day, day)
        v.places.append(label)
    out: dict[str, list[Version]] = {}
    for v in found.values():
        out.setdefault(v.subject, []).append(v)
    return {s: sorted(vs, key=lambda v: v.version) for s, vs in sorted(out.items())}


def _norm(text: str) -> str:
    return " ".join(w.lower() for w in _WORD.findall(text))


def held(case: FolderCase, memory: str, store: str) -> dict[str, set[int]]:
    """subject -> the versions MEMORY.md holds (memgit's entries by their sources, the
    hand-written start's lines by their words)."""
    out: dict[str, set[int]] = {}
    written = parse_store(store).written()
    for entry in memory_doc.parse_entries(memory):
        record = written.get(entry.key)
        src = record.source if record is not None and record.source else entry.marker.source
        if src is None:
            continue
        for n in range(src.start, src.end + 1):
            label = case.labels.get((src.path, n))
            if label is not None and label.subject and label.version:
                out.setdefault(label.subject, set()).add(label.version)
    present = {_norm(line) for line in memory.splitlines() if line.strip()}
    start = (case.start_memory or "").splitlines()
    for (path, n), label in case.labels.items():
        line = _norm(start[n - 1]) if path == "MEMORY.md" and n <= len(start) else ""
        if label.subject and label.version and line and line in present:
            out.setdefault(label.subject, set()).add(label.version)
    return out


def _older_texts(case: FolderCase, memory: str, store: str, subject: str, below: int) -> list[str]:
    texts = []
    written = parse_store(store).written()
    for entry in memory_doc.parse_entries(memory):
        record = written.get(entry.key)
        src = record.source if record is not None and record.source else entry.marker.source
        if src is None:
            continue
        for n in range(src.start, src.end + 1):
            label = case.labels.get((src.path, n))
            if label is not None and label.subject == subject and 0 < label.version < below:
                texts.append(_norm(memory_doc_text(entry.body)))
    start = (case.start_memory or "").splitlines()
    for (path, n), label in case.labels.items():
        if path == "MEMORY.md" and label.subject == subject and 0 < label.version < below and n <= len(start):
            texts.append(_norm(start[n - 1]))
    return texts


def memory_doc_text(body: str) -> str:
    return " ".join(line.lstrip("- ").strip() for line in body.splitlines())


def _similar(a: str, b: str) -> bool:
    left, right = set(a.split()), set(b.split())
    return bool(left and right) and len(left & right) / min(len(left), len(right)) >= 0.8


def updates(case: FolderCase, lived: Lived, props: list[Proposal]) -> list[dict[str, Any]]:
    """Every due update (see the module's docstring) and whether it was made or shown."""
    out = []
    for subject, vs in versions(case).items():
        for i, v in enumerate(vs):
            if v.version < 2:
                continue
            until = vs[i + 1].day if i + 1 < len(vs) else "9999-12-31"
            window = [n for n in lived.nights if v.day <= n.day < until]
            if not window:
                continue
            before = held(case, window[0].memory_before, _store_before(lived, window[0].day))
            if not any(x < v.version for x in before.get(subject, set())):
                continue
            after = held(case, window[-1].memory_after, window[-1].store_after).get(subject, set())
            made = bool(after) and min(after) >= v.version
            older = _older_texts(case, window[0].memory_before, _store_before(lived, window[0].day), subject, v.version)
            shown = not made and any(
                _similar(_norm(c.get("text", "")), o)
                for p in props
                if p.night in {n.day for n in window} and any(s == subject for s, _ in p.subjects)
                for c in p.conflicts
                for o in older
            )
            out.append({"subject": subject, "version": v.version, "day": v.day, "made": made, "shown": shown})
    return out


def _store_before(lived: Lived, day: str) -> str:
    store = ""
    for night in lived.nights:
        if night.day >= day:
            break
        store = night.store_after
    return store


def stale(case: FolderCase, lived: Lived) -> list[dict[str, Any]]:
    out = []
    end = held(case, lived.memory, lived.store)
    for subject, vs in versions(case).items():
        newest = vs[-1].version
        have = end.get(subject, set())
        if have and (min(have) < newest or len(have) > 1):
            out.append({"subject": subject, "held": sorted(have), "newest": newest})
    return out


def _secret_tokens(case: FolderCase) -> dict[tuple[str, int], list[str]]:
    common: set[str] = set()
    secret_lines: dict[tuple[str, int], str] = {}
    for day_files in [{"MEMORY.md": case.start_memory or ""}, *case.days.values()]:
        for path, text in day_files.items():
            for n, line in enumerate(text.splitlines(), 1):
                label = case.labels.get((path, n))
                if label is not None and label.label == "S":
                    secret_lines[(path, n)] = _shown_line(path, line)
                else:
                    common.update(_TOKEN.findall(line))
                    common.update(_CODE.findall(line))
    out = {}
    for place, line in secret_lines.items():
        tokens = [
            t.strip(".:")
            for t in _TOKEN.findall(line)
            if t not in common and any(ch.isdigit() for ch in t) and not re.fullmatch(r"[\d:./-]+", t.strip(".:"))
        ]
        tokens += [c for c in _CODE.findall(line) if c not in common]
        # A long token with a capital inside it, a digit or a mark (a password), not a capitalised word.
        tokens += [
            t
            for t in _TOKEN.findall(line)
            if t not in common
            and len(t) >= 10
            and re.search(r"(?<=\w)[A-Z]|\d|[^\w.:]", t.strip(".:"))
            and not re.fullmatch(r"[\d:./-]+", t.strip(".:"))  # a phone number or a date
        ]
        tokens = [t for t in tokens if not _NOTE_PATH.fullmatch(t.strip(".:"))]
        if tokens:
            out[place] = sorted(set(tokens))
    return out


def leaks(case: FolderCase, lived: Lived) -> list[dict[str, Any]]:
    # What dreaming wrote: its commits' messages and added lines (a diff's context and removed
    # lines are the notes as they were), and MEMORY.md's lines the person had not written there.
    added = [line for n in lived.nights for line in n.branch_text.splitlines() if not line.startswith((" ", "-"))]
    start = set((case.start_memory or "").splitlines())
    shown = "\n".join(added + [line for line in lived.memory.splitlines() if line not in start])

    def there(token: str) -> bool:  # as a word of its own: a code is no part of a commit's hash
        return re.search(rf"(?<!\w){re.escape(token)}(?!\w)", shown) is not None

    return [
        {"path": path, "line": n, "tokens": [t for t in tokens if there(t)]}
        for (path, n), tokens in _secret_tokens(case).items()
        if any(there(t) for t in tokens)
    ]


def score(case: FolderCase, lived: Lived) -> dict[str, Any]:
    props = proposals(case, lived)
    due = updates(case, lived, props)
    kept = sum(1 for p in props if p.kept)
    return {
        "case": case.name,
        "labelled": bool(case.labels),
        "nights": [n.day for n in lived.nights],
        "night_seconds": [round(n.seconds, 1) for n in lived.nights],
        "rerun_identical": [n.rerun_identical for n in lived.nights if n.rerun_identical is not None],
        "searches": lived.searches,
        "no_verify_days": lived.no_verify_days,
        "proposals": len(props),
        "updates_proposed": sum(1 for p in props if p.action == "supersede"),
        "kept": kept,
        "precision": round(kept / len(props), 3) if props else None,
        "assistant_only": sum(1 for p in props if p.assistant_only),
        "not_kept_by_label": _by_label([p for p in props if not p.kept]),
        "stale": stale(case, lived),
        "updates_due": len(due),
        "updates_made": sum(1 for d in due if d["made"]),
        "updates_shown": sum(1 for d in due if d["shown"]),
        "due": due,
        "secrets_leaked": leaks(case, lived),
        "list": [p.to_dict() for p in props],
    }


def _by_label(props: list[Proposal]) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in props:
        key = "+".join(p.labels)
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def listing(result: dict[str, Any]) -> str:
    """Markdown: the figures, then every proposal beside its source lines and their labels."""
    out = [f"## {result['case']}", ""]
    out.append(
        f"- proposals {result['proposals']} (updates {result['updates_proposed']}), kept {result['kept']}, "
        f"precision {result['precision']}, assistant-only {result['assistant_only']}"
    )
    out.append(
        f"- stale facts {len(result['stale'])}: {result['stale']}; updates due {result['updates_due']}, "
        f"made {result['updates_made']}, shown as conflicts {result['updates_shown']}"
    )
    out.append(f"- secrets leaked {len(result['secrets_leaked'])}; not kept by label {result['not_kept_by_label']}")
    out.append(f"- nights {result['nights']}, seconds {result['night_seconds']}, reruns {result['rerun_identical']}")
    out += ["", "| # | night | action | copy | source and labels | hint |", "|---|---|---|---|---|---|"]
    for i, p in enumerate(result["list"], 1):
        src = "<br>".join(f"{r['line']} **{r['label']}** {_cell(r['text'])}" for r in p["source_lines"])
        head = f"under {_cell(p['heading'])}<br>" if p["heading"] else ""
        extra = "".join(f"<br>conflict: {_cell(c.get('text', ''))}" for c in p["conflicts"])
        extra += f"<br>was: {_cell(p['was'])}" if p.get("was") else ""
        extra += " (timeline)" if p.get("timeline") else ""
        out.append(
            f"| {i} | {p['night']} | {p['action']} | {_cell(p['text'])}{extra} | `{p['source'].split('@')[0]}`<br>"
            f"{head}{src} | {p['hint'] or ''} |"
        )
    out.append("")
    return "\n".join(out)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")
