"""Light phase (pure): recalls -> short-term entries, rehydrated, judged, near-duplicates folded.

A hit counts as a recall only when it is near the top of its search (among its first
`recall_top_hits` and at least `recall_min_relative_score` of its best score): the sixth hit of a
vague question is not evidence that a line matters. A recall names the focused line of a hit and
the hash of its text. Recalls of the same text in the same file count for one entry wherever the
line has moved since; the entry is found again in the file as it is now (or dropped when its text
is gone). Then each is judged, and what can never be promoted is kept aside with its reason (the
deep phase lists it, so `--explain` and the report show every rejection): junk (headings, bare
list markers, memgit's markers and metadata, dream reports and the ledger, transcripts), what the
lint flags (`junk: S104`), chat filler, and what cannot stand alone (`standalone.py`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from memgit.core.paths import DREAM_REPORT_DIR, LEDGER_DIR, daily_log_day
from memgit.core.provenance import is_marker_line
from memgit.dream.blocks import before_lead_in, continues_below, fenced_lines, quoted_sender, table_row, with_sender
from memgit.dream.chatter import without_chatter
from memgit.dream.concepts import concept_tags, plain, speakers, words
from memgit.dream.model import ShortTerm
from memgit.dream.rehydrate import relocate
from memgit.dream.safety import flagged, flagged_lines, redacted_lines, shown
from memgit.dream.standalone import LEAD_IN, SENDER, standalone
from memgit.dream.turns import DEFAULT_SPEAKER, is_transcript, note_day, role_of
from memgit.ledger.lines import Recall, text_hash
from memgit.lint.redact import placeholder, secret_in_name
from memgit.lint.rules import LintSettings

_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_ONLY_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*(?:\[[ xX]\])?\s*$")
_METADATA = re.compile(r"^\s*(?:---|\+\+\+|[A-Za-z][\w-]{0,30}:\s*\S{0,40})\s*$")
_RULE = re.compile(r"^\s*([-*_=])(\s*\1){2,}\s*$")
MIN_WORDS = 4
#: Why an assistant's turn is never promoted: it is not the person's word.
ASSISTANT = "assistant's words"
#: Why a person's turn that asks or orders is never promoted: a question or a request is no fact.
ASKS = "asks or orders"
#: How much longer than a turn the assistant's answer must be for the turn to have asked for it.
ANSWERED_AT_LENGTH = 3
CODE_BLOCK = "junk: code block"
CONTINUES = "continues below"
TABLE_ROW = "table row"


@dataclass
class LightResult:
    entries: list[ShortTerm]
    gone: list[tuple[str, int, int, int]]  # path, start, end, recalls: text no longer in the file
    junk: dict[str, int]
    folded: int
    recent_tags: dict[str, int]
    notes_seen: int
    rejected: list[ShortTerm] = field(default_factory=list)
    weak_hits: int = 0  # hits too far down their search to count as recalls
    speakers: frozenset[str] = frozenset()


def path_reason(path: str, known: Mapping[str, str] | None = None) -> str | None:
    """Why nothing from `path` may be promoted, or None (`known`: the workspace's found secret
    values, which count in a file's name too)."""
    if path.startswith(DREAM_REPORT_DIR + "/") or path.startswith(LEDGER_DIR + "/") or "/.dreams/" in path:
        return "dream output"
    if path == "MEMORY.md":
        return "already long-term"
    if secret_in_name(path, known):  # its name would be shown with whatever came of it
        return "a secret in the file's name"
    if is_transcript(path):
        return None  # a session's turns, read line by line (turns.py)
    if not path.endswith(".md"):
        return "not a Markdown note"
    return None


def junk_reason(path: str, text: str) -> str | None:
    """Why `text` (from `path`) must never be promoted, or None when it may be."""
    reason = path_reason(path)
    if reason:
        return reason
    if is_transcript(path):
        turn = role_of(text)
        if turn is None:
            return "blank"
        text = turn[1]
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return "blank"
    if any(is_marker_line(line) or line.lstrip().startswith("<!--") for line in lines):
        return "memgit marker or comment"
    if all(_HEADING.match(line) for line in lines):
        return "heading"
    if all(_ONLY_MARKER.match(line) or _RULE.match(line) for line in lines):
        return "list marker"
    if all(_METADATA.match(line) for line in lines):
        return "metadata"
    if text.lstrip().startswith("{") and '"q"' in text:
        return "ledger line"
    if len(plain(text).split()) < MIN_WORDS:
        return "too short"
    return None


def near_the_top(
    recalls: Sequence[Recall], top_hits: int, min_relative: float
) -> tuple[list[Recall], dict[int, float]]:
    """The recalls that count (the first `top_hits` hits of their search, scoring at least
    `min_relative` of its best), and for each (keyed by `id()`) its weight as evidence:
    its score relative to the search's best, discounted by its rank (1, 0.8, 0.67 … for the first,
    second, third hit), so a fact that is the answer counts more than one that came along. A
    search's hits are its ledger lines of one time and query, in the order the search returned them.

    MEMORY.md's own hits take no rank and set no best: once a fact is long-term its entry tops
    every search about it, so an update in a newer log would always come second. A search whose
    ranked hits all score 0 (keyword scores normalised over candidates that were not recorded,
    such as a dream report's) tells their order only: each weighs by its rank alone.

    A session transcript takes one rank of a search, with its best chunk: a long conversation
    is cut into many chunks that share its words, and without this one conversation took every
    top slot of the searches about it, so the daily logs lost their recalls."""
    best: dict[tuple[str, str], float] = defaultdict(float)
    rank: dict[tuple[str, str], int] = defaultdict(int)
    for r in recalls:
        if r.path != "MEMORY.md":
            best[(r.time, r.query_hash)] = max(best[(r.time, r.query_hash)], r.score)
    kept = []
    weight: dict[int, float] = {}
    sessions: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r in recalls:
        search = (r.time, r.query_hash)
        if r.path == "MEMORY.md":
            kept.append(r)  # never evidence (the light phase sets it aside as already long-term)
            weight[id(r)] = 0.0
            continue
        if is_transcript(r.path):
            if r.path in sessions[search]:
                continue  # one conversation takes one rank of a search: its other chunks take none
            sessions[search].add(r.path)
        rank[search] += 1
        top = best[search]
        if rank[search] <= top_hits and r.score >= min_relative * top:
            kept.append(r)
            weight[id(r)] = (r.score / top if top > 0 else 1.0) / (1 + (rank[search] - 1) / 4)
    return kept, weight


def light_phase(
    recalls: Sequence[Recall],
    files: Mapping[str, str | None],
    recent_notes: Mapping[str, str],
    *,
    fold_similarity: float,
    today: date | None = None,
    lint: LintSettings | None = None,
    top_hits: int = 3,
    min_relative: float = 0.5,
    user_name: str = "",
) -> LightResult:
    lint = lint or LintSettings()
    today = today or max((date.fromisoformat(r.day) for r in recalls), default=date(1970, 1, 1))
    counted, weight = near_the_top(recalls, top_hits, min_relative)
    groups: dict[tuple[str, str], list[Recall]] = defaultdict(list)
    for r in counted:
        groups[(r.path, r.text_hash or f"{r.focus_start}:{r.focus_end}")].append(r)

    voices = speakers([t for t in files.values() if t] + list(recent_notes.values()))
    entries: list[ShortTerm] = []
    rejected: list[ShortTerm] = []
    gone: list[tuple[str, int, int, int]] = []
    junk: dict[str, int] = defaultdict(int)
    split_cache: dict[str, list[str]] = {}
    marked: dict[str, dict[int, str]] = {}  # path -> the lines the lint flags (a key's body included)
    fences: dict[str, frozenset[int]] = {}  # path -> the lines of its fenced code blocks
    hidden: dict[str, list[str]] = {}  # path -> its lines redacted, for what --explain shows of a flagged one
    for (path, _hash), items in sorted(groups.items()):
        latest = max(items, key=lambda r: (r.time, r.focus_start))
        reason = path_reason(path, lint.known)
        if reason:
            junk[reason] += 1
            continue
        text = files.get(path)
        if text is None:
            gone.append((path, latest.focus_start, latest.focus_end, len(items)))
            continue
        lines = split_cache.setdefault(path, text.splitlines())
        located = relocate(lines, latest.focus_start, latest.focus_end, latest.text_hash)
        if located is None:
            gone.append((path, latest.focus_start, latest.focus_end, len(items)))
            continue
        entry = ShortTerm(
            path=path,
            start=located.start,
            end=located.end,
            text=located.text,
            text_hash=text_hash(located.text),
            evidence=_evidence(items, weight),
            tags=[],
            moved=located.moved,
            sources=[(path, located.start, located.end)],
            shown=located.text,
        )
        if path not in marked:
            marked[path] = flagged_lines(lines, lint)
        covered = [marked[path][n] for n in range(located.start, located.end + 1) if n in marked[path]]
        if path not in fences:
            fences[path] = frozenset() if is_transcript(path) else fenced_lines(lines)
        judge(entry, lines, today, lint, voices, covered[0] if covered else None, user_name, fences[path])
        if covered and entry.rejected:
            # What --explain shows of a flagged snippet is its file's redaction (a table row's
            # number is a secret by its column, which the row alone does not say).
            if path not in hidden:
                hidden[path] = redacted_lines(lines, lint)
            entry.shown = shown("\n".join(hidden[path][located.start - 1 : located.end]), lint)
        (rejected if entry.rejected else entries).append(entry)
    entries, folded = fold(entries, fold_similarity)
    return LightResult(
        entries,
        gone,
        dict(junk),
        folded,
        _recent_tags(recent_notes, lint, voices),
        len(recent_notes),
        rejected,
        len(recalls) - len(counted),
        voices,
    )


def _evidence(items: Sequence[Recall], weight: Mapping[int, float]) -> dict[tuple[str, str, str], float]:
    """Each recall of a snippet as (time, query, day) -> its weight; one search counts once."""
    evidence: dict[tuple[str, str, str], float] = {}
    for r in items:
        key = (r.time, r.query_hash, r.day)
        evidence[key] = max(evidence.get(key, 0.0), weight[id(r)])
    return evidence


def _recent_tags(recent_notes: Mapping[str, str], lint: LintSettings, voices: frozenset[str]) -> dict[str, int]:
    """Concept tags of the recent notes' lines (never a line the lint flags, never chat filler or
    a speaker's name): what the REM phase counts into themes."""
    recent_tags: dict[str, int] = defaultdict(int)
    for _path, note in sorted(recent_notes.items()):
        lines = note.splitlines()
        secret = flagged_lines(lines, lint)
        for number, line in enumerate(lines, 1):
            if line.strip() and number not in secret and junk_reason("memory/x.md", line) is None:
                kept, _dropped = without_chatter(line, min_content_words=1)
                for tag in concept_tags(kept, exclude=voices):
                    recent_tags[tag] += 1
    return dict(recent_tags)


def judge(
    entry: ShortTerm,
    lines: list[str],
    today: date,
    lint: LintSettings,
    voices: frozenset[str],
    code: str | None = None,
    user_name: str = "",
    fenced: frozenset[int] = frozenset(),
) -> None:
    """Set the entry's standalone text and tags, or the reason it can never be promoted (`code`: the
    rule the lint flags its lines with in the file, a private key's body included). A transcript's
    user turn is the person's words (`user_name`, else "The user"); an assistant's never are."""
    code = code or flagged(entry.text, lint)
    if code is None and any(n in fenced for n in range(entry.start, entry.end + 1)):
        entry.rejected = CODE_BLOCK  # a line of code, or a `# comment` in a block: never a fact alone
        return
    if code is None:
        reason = junk_reason(entry.path, entry.text)
        if reason:
            entry.rejected = f"junk: {reason}"
            return
    if code is not None:
        # Flagged only with the lines around it (a code under its heading): alone, the snippet
        # would show the value, so it is shown as the placeholder.
        alone = flagged(entry.text, lint) is not None
        entry.rejected, entry.shown = f"junk: {code}", shown(entry.text, lint) if alone else placeholder(code)
        return
    if not is_transcript(entry.path) and any(table_row(line) for line in entry.text.splitlines()):
        entry.rejected = TABLE_ROW  # "| wed 18 | LD | work |" means little without its header
        return
    text, day = entry.text, daily_log_day(entry.path)
    dropped: tuple[str, ...] = ()
    if not is_transcript(entry.path) and continues_below(lines, entry.end):
        head = before_lead_in(entry.text)
        if head is None:
            entry.rejected = CONTINUES  # "Run the backup like this:" without the block below it
            return
        text, dropped = head, (LEAD_IN,)  # the sentences before "She wants:" stand alone
    sender = None if is_transcript(entry.path) or entry.start != entry.end else quoted_sender(lines, entry.start)
    if is_transcript(entry.path):
        role, said = role_of(entry.text) or ("", "")
        if role != "user":
            entry.rejected = ASSISTANT
            return
        if asks(said, _reply(lines, entry.end)):
            entry.rejected = ASKS
            return
        text = f"**{user_name or DEFAULT_SPEAKER}**: {said}"
        found = note_day(entry.path)
        day = date.fromisoformat(found) if found else None
    verdict = standalone(
        text, lines=lines, start=entry.start, day=day, today=today, turn_of_session=is_transcript(entry.path)
    )
    entry.entry_text, entry.changes = verdict.text, dropped + verdict.changes
    if sender is not None and verdict.text:
        # "- Ffion:" / "> …": Ffion's words, signed once the copy stands alone (its chatter dropped)
        entry.entry_text, entry.changes = with_sender(verdict.text, sender), (*entry.changes, SENDER)
    code = flagged(verdict.text, lint)  # a rewrite must not make a line the lint flags
    if code is not None:
        entry.rejected, entry.shown, entry.entry_text = f"junk: {code}", shown(entry.text, lint), ""
        return
    entry.rejected = verdict.reason
    entry.tags = concept_tags(verdict.text, exclude=voices)


def asks(said: str, reply: str) -> bool:
    """A person's turn that asks or orders rather than tells: it holds a question ("?", "¿"), or the
    assistant's answer is several times longer than it (a draft, a list, an explanation: what
    was asked for). Both read the same in every language; on the tuning cases (English, German,
    Spanish turns) they set aside 45 of 85 turns labelled questions or requests, 6 of 77 durable."""
    if "?" in said or "¿" in said:
        return True
    return len(reply.split()) > ANSWERED_AT_LENGTH * max(1, len(said.split()))


def _reply(lines: list[str], end: int) -> str:
    """The assistant's words in the turn right after line `end` of a transcript's turn view, or ""."""
    for line in lines[end:]:
        if line.strip():
            turn = role_of(line)
            return turn[1] if turn is not None and turn[0] == "assistant" else ""
    return ""


def fold(entries: list[ShortTerm], threshold: float) -> tuple[list[ShortTerm], int]:
    """Near-duplicates (same words, Jaccard >= threshold) become one entry with all their evidence;
    the most recalled copy (then the earliest path and line) keeps its text and place."""
    order = sorted(entries, key=lambda e: (-e.recalls, e.path, e.start))
    kept: list[tuple[ShortTerm, frozenset[str]]] = []
    folded = 0
    for entry in order:
        mine = words(entry.fact)
        twin = next(
            (k for k, theirs in kept if k.text_hash == entry.text_hash or overlap(mine, theirs) >= threshold), None
        )
        if twin is None:
            kept.append((entry, mine))
            continue
        folded += 1
        for key, value in entry.evidence.items():
            twin.evidence[key] = max(twin.evidence.get(key, 0.0), value)
        twin.sources.extend(entry.sources)
    return [k for k, _ in kept], folded


def overlap(left: frozenset[str], right: frozenset[str]) -> float:
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)
