"""Scored entries best first, sorting only as far as a ranking reads (`best_first`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]

_FIRST_CHUNK = 4
"""`best_first` sorts this many times `k` of the best entries first (at least `_MIN_CHUNK`):
a ranking of `k` seldom reads past them, and the rest is sorted only when it does."""
_MIN_CHUNK = 64


def best_first(scores: FloatArray, k: int, *, lists: bool = True) -> Iterator[tuple[Any, Any]]:
    """The entries scoring more than nothing and their scores, best first, in entry order
    among equal scores (what a stable sort of every entry gives), in two chunks: the best
    `_FIRST_CHUNK · k` or so (every entry tying the last of them too), then the rest.

    Why: a question's ranking reads a few dozen entries, but thousands score something;
    sorting and converting all of them took a fifth of a search. Entries of the first
    chunk all score at least its threshold and those of the second less, and each chunk
    keeps entry order among ties, so the two together are that one stable sort.

    Chunks are lists, or arrays (`lists` False) for a caller that goes on in arrays.

    The threshold is the `size`-th best score of every entry, not of those above nothing
    gathered first: when more than `size` score something, the best `size` all do, so it is
    the same score, and the entries scoring something (nearly all of them) are gathered only
    for the rest, when a ranking reads past the first chunk."""
    import numpy as np

    size = max(_FIRST_CHUNK * k, _MIN_CHUNK)
    above = scores > 0.0
    if np.count_nonzero(above) > size:
        threshold = np.partition(scores, len(scores) - size)[len(scores) - size]
        head = np.flatnonzero(scores >= threshold)
        values = scores[head]
        order = np.argsort(-values, kind="stable")
        chunk = head[order], values[order]
        yield (chunk[0].tolist(), chunk[1].tolist()) if lists else chunk
        rest = np.flatnonzero(above & (scores < threshold))
        values = scores[rest]
    else:
        rest = np.flatnonzero(above)
        values = scores[rest]
    order = np.argsort(-values, kind="stable")
    chunk = rest[order], values[order]
    yield (chunk[0].tolist(), chunk[1].tolist()) if lists else chunk
