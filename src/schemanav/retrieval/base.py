"""The one interface every retrieval backend implements, the hit record, the budget rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from schemanav.corpus import Corpus


@dataclass(frozen=True)
class SearchHit:
    """One ranked result. `tokens` is the o200k_base cost of `text`, what an agent would read."""

    coordinate: str
    text: str
    score: float
    rank: int
    tokens: int
    paths_to_root: tuple[tuple[str, ...], ...] = ()


@runtime_checkable
class SearchBackend(Protocol):
    """A retrieval backend: index a corpus once, then answer questions best-first."""

    @property
    def name(self) -> str:
        """A label such as `bm25` or `embedding:qwen3-graphql-embedder` for result rows."""
        ...

    def index(self, corpus: Corpus) -> None:
        """Build whatever the backend searches over (the rendering format is fixed at creation)."""
        ...

    def search(self, query: str, k: int) -> list[SearchHit]:
        """At most `k` hits, best first, ranks starting at 1. Any text is a valid query."""
        ...


def has_words(text: str) -> bool:
    """Whether a question has anything to search for (a letter or a digit)."""
    return any(ch.isalnum() for ch in text)


def fit_prefix(token_counts: Sequence[int], budget: int) -> int:
    """How many leading items fit in `budget` tokens.

    n = max{ m : Σ token_counts[:m] ≤ budget }, walking from the top and stopping at the
    first item that does not fit (no skipping ahead to cheaper ones), so what an agent is
    shown is always a prefix of the ranking. A budget below the first item's cost gives 0.
    The one budget rule: `fit_budget`, bench and the agent's search tool all use it.
    """
    if budget < 0:
        raise ValueError(f"token budget must not be negative, got {budget}")
    spent = 0
    for fitted, cost in enumerate(token_counts):
        if spent + cost > budget:
            return fitted
        spent += cost
    return len(token_counts)


def fit_budget(hits: Sequence[SearchHit], budget: int | None) -> list[SearchHit]:
    """The hits that fit `budget` tokens by `fit_prefix` (all of them when there is no budget)."""
    if budget is None:
        return list(hits)
    return list(hits[: fit_prefix([hit.tokens for hit in hits], budget)])
