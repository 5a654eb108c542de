"""Small pieces of wording shared by every front end: counts in the right number, and "did you
mean" suggestions ranked by edit distance."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """`1 hit`, `2 hits`, `1,038 targets`: a count with its noun in the right number."""
    noun = singular if number == 1 else plural or f"{singular}s"
    return f"{number:,} {noun}"


def edit_distance(left: str, right: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions, each costing 1."""
    if len(left) < len(right):
        left, right = right, left
    previous = list(range(len(right) + 1))
    for row, char in enumerate(left, start=1):
        current = [row]
        for column, other in enumerate(right, start=1):
            current.append(
                min(
                    previous[column] + 1,
                    current[column - 1] + 1,
                    previous[column - 1] + (char != other),
                )
            )
        previous = current
    return previous[-1]


def closest(word: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """The `limit` candidates nearest to `word`, nearest first by edit distance (ignoring
    case first, then counting it); difflib only shortlists, so `Movie.ratin` suggests
    `Movie.rating` before `Movie.cast`."""
    pool = list(dict.fromkeys(candidates))
    lowered = word.lower()
    shortlist = difflib.get_close_matches(word, pool, n=max(20, 5 * limit), cutoff=0.6)
    shortlist += [candidate for candidate in pool if candidate.lower() == lowered]
    ranked = sorted(
        dict.fromkeys(shortlist),
        key=lambda candidate: (
            edit_distance(lowered, candidate.lower()),
            edit_distance(word, candidate),
            candidate,
        ),
    )
    return ranked[:limit]
