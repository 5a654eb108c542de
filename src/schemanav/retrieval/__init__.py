"""Retrieval: a corpus goes in, a question comes out as ranked schema coordinates.

Every backend satisfies `SearchBackend`, so bench and the agent's tools cannot tell them
apart; backends are created by name from `BACKENDS`, which also feeds the CLI's choices.
"""

from schemanav.retrieval.base import (
    BACKENDS,
    BackendFactory,
    SearchBackend,
    SearchHit,
    backend_names,
    create_backend,
    fit_budget,
    has_words,
    register_backend,
)

__all__ = [
    "BACKENDS",
    "BackendFactory",
    "SearchBackend",
    "SearchHit",
    "backend_names",
    "create_backend",
    "fit_budget",
    "has_words",
    "register_backend",
]
