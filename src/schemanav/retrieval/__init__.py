"""Stage 3 — retrieval: a corpus goes in, a question comes out as ranked schema coordinates.

Every backend satisfies `SearchBackend`, so bench and the agent's tools cannot tell them
apart; backends are registered by name (`registry`), the built-in ones in `builtin`, and
`pipeline.prepare_backend` is how every front end gets a ready one.
"""

from schemanav.retrieval.base import (
    SearchBackend,
    SearchHit,
    fit_budget,
    fit_prefix,
    has_words,
)

__all__ = [
    "SearchBackend",
    "SearchHit",
    "fit_budget",
    "fit_prefix",
    "has_words",
]
