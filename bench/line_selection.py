"""Line windows chosen across deep candidates, by line cosine and chunk score (retrieval round 5).

A multi-hop question's evidence sits in many chunks, and a 4,000-character budget reads only six
to eight whole chunks. Returning, instead, the few lines of each deep candidate that look most
relevant would let the budget reach fifteen or more places. Each line of the first ``depth``
hits is scored ``alpha`` × its own cosine with the question + (1 − ``alpha``) × its chunk's
fused score (scaled by the best); the best lines are returned, best first, each grown by ``w``
lines either side into a window that no earlier window already returned.
Bench only: ``bench/retrieval_sweep.py --grid lines``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bench.scoring_retrieval import Hit
from memgit.recall.ranking import Candidate

Line = tuple[str, int]


def line_windows(
    hits: Sequence[Candidate],
    cosine: Mapping[Line, float],
    files: Callable[[str], list[str]],
    alpha: float,
    w: int,
    depth: int,
) -> list[Hit]:
    """The windows, best line first; lines without a cosine (blank ones) are never centres."""
    hits = list(hits[:depth])
    top = max((h.score for h in hits), default=0.0) or 1.0
    best: dict[Line, float] = {}
    for h in hits:
        for n in range(h.start_line, h.end_line + 1):
            if (h.path, n) in cosine:
                score = alpha * cosine[(h.path, n)] + (1 - alpha) * h.score / top
                best[(h.path, n)] = max(best.get((h.path, n), score), score)
    out: list[Hit] = []
    taken: set[Line] = set()
    for (path, n), _ in sorted(best.items(), key=lambda item: (-item[1], item[0])):
        if (path, n) in taken:
            continue
        lines = files(path)
        low, high = max(1, n - w), min(len(lines), n + w)
        start = end = n
        while start - 1 >= low and (path, start - 1) not in taken:
            start -= 1
        while end + 1 <= high and (path, end + 1) not in taken:
            end += 1
        taken.update((path, m) for m in range(start, end + 1))
        out.append(Hit(path, start, end, "\n".join(lines[start - 1 : end])))
    return out
