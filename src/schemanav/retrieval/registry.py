"""Backends by name: what users pass to `--backend`, each with the options model it accepts.

A backend is registered with its factory and a pydantic model of its options:

    class BM25Options(BaseModel):
        tokenizer: str = "en_stem"

    @register_backend("bm25", options=BM25Options)
    def _bm25(options: BM25Options, context: BackendContext) -> Backend: ...

The factory gets its validated options and a `BackendContext` (format, cache directory,
events sink); the backend's `index(corpus)` returns an immutable `Searcher`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from schemanav.errors import InputError
from schemanav.retrieval.base import Backend, BackendContext
from schemanav.retrieval.builtin import BUILTIN_MODULES


class NoOptions(BaseModel):
    """The options model of a backend that takes none."""

    model_config = ConfigDict(extra="forbid", frozen=True)


OptionsT = TypeVar("OptionsT", bound=BaseModel)
FactoryT = TypeVar("FactoryT", bound=Callable[..., Backend])


@dataclass(frozen=True)
class BackendSpec:
    name: str
    options: type[BaseModel]
    factory: Callable[[Any, BackendContext], Backend]

    @property
    def option_keys(self) -> tuple[str, ...]:
        return tuple(self.options.model_fields)

    def parse_options(self, raw: Mapping[str, Any]) -> BaseModel:
        """The options model from raw values (strings from `-o` are converted), or a one-line
        error naming the key and what is wrong with it."""
        unknown = [key for key in raw if key not in self.options.model_fields]
        if unknown:
            raise InputError(
                f"unknown option {unknown[0]!r} for backend {self.name}: "
                f"{_accepts(self)} (-o KEY VALUE)"
            )
        try:
            return self.options.model_validate(dict(raw))
        except ValidationError as err:
            first = err.errors()[0]
            key = ".".join(str(part) for part in first["loc"]) or "options"
            message = str(first.get("ctx", {}).get("error") or first["msg"])
            raise InputError(f"invalid option {key} for backend {self.name}: {message}") from None

    def create(self, context: BackendContext, raw: Mapping[str, Any] | None = None) -> Backend:
        return self.factory(self.parse_options(raw or {}), context)


BACKENDS: dict[str, BackendSpec] = {}
"""The backends registered so far: a built-in one only once its module is loaded (ask
`backend_spec` or `backend_specs`, which load it)."""


def register_backend(
    name: str, *, options: type[BaseModel] = NoOptions
) -> Callable[[FactoryT], FactoryT]:
    """Register a factory under `name` (the value users pass to --backend) with the pydantic
    model of the options it accepts (`-o KEY VALUE`); the factory is called as
    `factory(validated_options, context)`."""

    def decorator(factory: FactoryT) -> FactoryT:
        BACKENDS[name] = BackendSpec(name, options, factory)
        return factory

    return decorator


def backend_names() -> list[str]:
    """The built-in backends (whether loaded yet or not), then any other registered one."""
    return [*BUILTIN_MODULES, *(name for name in BACKENDS if name not in BUILTIN_MODULES)]


def backend_spec(name: str) -> BackendSpec:
    """The backend registered as `name` (a built-in one's module is loaded on first use), or
    a one-line error listing the known names."""
    if name not in BACKENDS and name in BUILTIN_MODULES:
        importlib.import_module(BUILTIN_MODULES[name])
    try:
        return BACKENDS[name]
    except KeyError:
        known = ", ".join(backend_names())
        raise InputError(f"unknown backend {name!r}: choose one of {known}") from None


def backend_specs() -> list[BackendSpec]:
    """Every backend's spec, loading the built-in modules not loaded yet (for a caller that
    reads the options of them all)."""
    return [backend_spec(name) for name in backend_names()]


def create_backend(
    name: str, context: BackendContext, options: Mapping[str, Any] | None = None
) -> Backend:
    """The backend `name`, configured by `options` (validated by its options model)."""
    return backend_spec(name).create(context, options)


def options_for(names: Sequence[str], raw: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Split the user's options among the chosen backends: each gets the keys it accepts.

    A key that no chosen backend accepts is a one-line error naming what each one accepts
    (so a typo is never silently ignored, while `bench --backend bm25,embedding` may carry
    options of both).
    """
    specs = [backend_spec(name) for name in names]
    for key in raw:
        if not any(key in spec.option_keys for spec in specs):
            chosen = ",".join(names)
            accepted = "; ".join(_accepts(spec) for spec in specs)
            raise InputError(
                f"unknown option {key!r} for --backend {chosen}: {accepted} (-o KEY VALUE)"
            )
    return {
        spec.name: {key: value for key, value in raw.items() if key in spec.option_keys}
        for spec in specs
    }


def _accepts(spec: BackendSpec) -> str:
    keys = spec.option_keys
    return f"{spec.name} accepts {', '.join(keys)}" if keys else f"{spec.name} accepts none"
