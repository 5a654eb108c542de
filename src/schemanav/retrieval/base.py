"""The one interface every retrieval backend implements, the hit record, and the registry."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from schemanav.errors import InputError

if TYPE_CHECKING:
    from schemanav.corpus import Corpus, Format
    from schemanav.settings import Settings


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


BackendFactory = Callable[["Format", "Settings"], SearchBackend]

BACKENDS: dict[str, BackendFactory] = {}


FactoryT = TypeVar("FactoryT", bound=BackendFactory)


def register_backend(name: str) -> Callable[[FactoryT], FactoryT]:
    """Register a factory under `name` (the value users pass to --backend)."""

    def decorator(factory: FactoryT) -> FactoryT:
        BACKENDS[name] = factory
        return factory

    return decorator


def _load_builtin_backends() -> None:
    # Importing the modules registers their factories; heavy libraries load lazily inside.
    from schemanav.retrieval import bm25, embedding, hybrid, structural  # noqa: F401


def backend_names() -> list[str]:
    _load_builtin_backends()
    return list(BACKENDS)


def create_backend(name: str, fmt: Format, settings: Settings) -> SearchBackend:
    """The backend registered as `name`, or a one-line error listing the known names."""
    _load_builtin_backends()
    try:
        factory = BACKENDS[name]
    except KeyError:
        raise InputError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}") from None
    return factory(fmt, settings)


def has_words(text: str) -> bool:
    """Whether a question has anything to search for (a letter or a digit)."""
    return any(ch.isalnum() for ch in text)


def fit_budget(hits: Sequence[SearchHit], budget: int | None) -> list[SearchHit]:
    """Walk the ranked list and keep hits until the next one would exceed `budget` tokens.

    The walk stops at the first hit that does not fit (it does not skip ahead to smaller
    ones), so what an agent sees is always a prefix of the ranking.
    """
    if budget is None:
        return list(hits)
    kept: list[SearchHit] = []
    spent = 0
    for hit in hits:
        if spent + hit.tokens > budget:
            break
        kept.append(hit)
        spent += hit.tokens
    return kept
