"""Backends by name: what users pass to `--backend`, and the factory that makes each one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from schemanav.errors import InputError
from schemanav.retrieval.base import SearchBackend

if TYPE_CHECKING:
    from schemanav.corpus import Format
    from schemanav.settings import Settings

BackendFactory = Callable[["Format", "Settings"], SearchBackend]

BACKENDS: dict[str, BackendFactory] = {}

FactoryT = TypeVar("FactoryT", bound=BackendFactory)


def register_backend(name: str) -> Callable[[FactoryT], FactoryT]:
    """Register a factory under `name` (the value users pass to --backend)."""

    def decorator(factory: FactoryT) -> FactoryT:
        BACKENDS[name] = factory
        return factory

    return decorator


def backend_names() -> list[str]:
    return list(BACKENDS)


def create_backend(name: str, fmt: Format, settings: Settings) -> SearchBackend:
    """The backend registered as `name`, or a one-line error listing the known names."""
    try:
        factory = BACKENDS[name]
    except KeyError:
        raise InputError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}") from None
    return factory(fmt, settings)
