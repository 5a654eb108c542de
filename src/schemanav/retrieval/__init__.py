"""Stage 3 — retrieval: a corpus goes in, a question comes out as ranked schema coordinates.

A backend (registered by name with the pydantic model of its options, `registry`; the
built-in ones listed in `defaults.BUILTIN_BACKENDS`, others found as plugins) indexes a corpus
into an immutable `Searcher`, so bench and the agent's tools cannot tell backends apart;
`pipeline.prepare_backend` is how every front end gets a ready one.
"""

from schemanav.retrieval.base import (
    Backend,
    BackendContext,
    BlockSearch,
    Ranking,
    RanksWithoutHits,
    Searcher,
    SearchHit,
    fit_budget,
    fit_prefix,
    has_words,
    ranking_of,
    search_blocks,
)

__all__ = [
    "Backend",
    "BackendContext",
    "BlockSearch",
    "Ranking",
    "RanksWithoutHits",
    "SearchHit",
    "Searcher",
    "fit_budget",
    "fit_prefix",
    "has_words",
    "ranking_of",
    "search_blocks",
]
