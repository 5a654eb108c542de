"""schemanav: measure, and serve, how an agent navigates a GraphQL schema.

`Navigator` is the library's entry point (see `schemanav.navigator`); it is imported lazily so
that `schemanav --help` does not pay for the retrieval stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemanav.navigator import Navigator, SearchResult

__all__ = ["Navigator", "SearchResult"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from schemanav import navigator

        return getattr(navigator, name)
    raise AttributeError(f"module 'schemanav' has no attribute {name!r}")
