"""Backends by name: what users pass to `--backend`, each with the options model it accepts.

A backend is registered with its factory and a pydantic model of its options:

    class BM25Options(BaseModel):
        tokenizer: str = "en_stem"

    @register_backend("bm25", options=BM25Options)
    def _bm25(options: BM25Options, context: BackendContext) -> Backend: ...

The factory gets its validated options (None for a backend registered without a model: it
takes none, and a search on it never imports pydantic, about 0.05 s of a command) and a
`BackendContext` (format, cache directory, events sink); the backend's `index(corpus)`
returns an immutable `Searcher`.

The built-in backends are `defaults.BUILTIN_BACKENDS` (name → the module that registers it).
Another installed package adds one through an entry point of the group `schemanav.backends`
whose name is the backend's and whose value names the module (or an object in it) that
registers it, so `pip install schemanav-mybackend` adds `--backend mybackend`; see
docs/plugins.md. A plugin is imported only when its name is asked for.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from schemanav.defaults import BUILTIN_BACKENDS
from schemanav.errors import InputError, SchemanavError
from schemanav.retrieval.base import Backend, BackendContext
from schemanav.text import strip_control
from schemanav.textfile import decode_text, read_bytes

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from pydantic import BaseModel

    class NoOptions(BaseModel):
        """The options model of a backend that takes none."""


ENTRY_POINT_GROUP = "schemanav.backends"


def __getattr__(name: str) -> Any:
    """`NoOptions`, the options model of a backend that takes none, built when first named
    (it needs pydantic; a backend registered without a model needs neither)."""
    if name == "NoOptions":
        return _no_options()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _no_options() -> type[BaseModel]:
    from pydantic import BaseModel, ConfigDict

    class NoOptions(BaseModel):
        """The options model of a backend that takes none."""

        model_config = ConfigDict(extra="forbid", frozen=True)

    return NoOptions


FactoryT = TypeVar("FactoryT", bound=Callable[..., Backend])


@dataclass(frozen=True)
class BackendSpec:
    name: str
    options: type[BaseModel] | None
    """The pydantic model of its options; None when it takes none."""
    factory: Callable[[Any, BackendContext], Backend]

    @property
    def option_keys(self) -> tuple[str, ...]:
        return tuple(self.options.model_fields) if self.options is not None else ()

    def parse_options(self, raw: Mapping[str, Any]) -> BaseModel | None:
        """The options model from raw values (strings from `-o` are converted), or a one-line
        error naming the key and what is wrong with it; None for a backend without a model."""
        unknown = [key for key in raw if key not in self.option_keys]
        if unknown:
            raise InputError(
                f"unknown option {unknown[0]!r} for backend {self.name}: "
                f"{_accepts(self)} (-o KEY VALUE)"
            )
        if self.options is None:
            return None
        from pydantic import ValidationError

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
    name: str, *, options: type[BaseModel] | None = None
) -> Callable[[FactoryT], FactoryT]:
    """Register a factory under `name` (the value users pass to --backend) with the pydantic
    model of the options it accepts (`-o KEY VALUE`; none by default); the factory is called
    as `factory(validated_options, context)`, with None for options when it takes none."""

    def decorator(factory: FactoryT) -> FactoryT:
        BACKENDS[name] = BackendSpec(name, options, factory)
        return factory

    return decorator


@cache
def plugin_entry_points() -> dict[str, EntryPoint]:
    """The backends installed packages offer (entry points of `ENTRY_POINT_GROUP`), by name;
    a built-in name is never taken over. Read once a process, when first asked.

    Read defensively (every `--help` lists them): each package's `entry_points.txt` must be a
    regular file of at most `MAX_ENTRY_POINTS_BYTES` in UTF-8, so a link to /dev/zero, a FIFO
    or bytes that are not text cost one warning naming the package, never the memory, a stall
    or a traceback; a backend name that is not a plain name (escape codes) is skipped with a
    warning too."""
    from importlib.metadata import distributions

    found: dict[str, EntryPoint] = {}
    for installed in distributions():
        dist = _bounded_distribution()(installed)
        try:
            points = dist.entry_points.select(group=ENTRY_POINT_GROUP)
        except Exception as err:  # an unreadable file, or text the parser refuses
            said = err.message if isinstance(err, InputError) else f"{type(err).__name__}"
            _warn(f"the entry points of {dist.where} cannot be read ({said}); it offers no backend")
            continue
        for point in points:
            if not _PLUGIN_NAME.fullmatch(point.name):
                _warn(f"{dist.where} offers a backend whose name is not a plain name; skipped")
            elif point.name not in BUILTIN_BACKENDS:
                found.setdefault(point.name, point)
    return found


MAX_ENTRY_POINTS_BYTES = 1024 * 1024
_PLUGIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


@cache
def _bounded_distribution() -> type[Any]:
    """`_BoundedDistribution`, made when plugins are first looked for: `importlib.metadata`
    costs a command that never looks (a search on a built-in backend) about 0.01 s."""
    from importlib.metadata import Distribution

    class _BoundedDistribution(Distribution):
        """An installed package whose metadata files are read under the project's file rules
        (regular files, a size cap, UTF-8) instead of read whole; `importlib.metadata` parses
        them as usual."""

        def __init__(self, inner: Distribution) -> None:
            self._inner = inner
            path = getattr(inner, "_path", None)  # a PathDistribution's folder (.dist-info)
            self._folder = path if isinstance(path, Path) else None
            self.where = strip_control(str(self._folder)) if self._folder else "a package"

        def read_text(self, filename: str | os.PathLike[str]) -> str | None:
            if self._folder is None:  # another finder's (a zip): its own reader
                return self._inner.read_text(str(filename))
            target = self._folder / filename
            if not os.path.lexists(target):
                return None
            what = "package metadata file"
            data = read_bytes(target, what, max_bytes=MAX_ENTRY_POINTS_BYTES, regular_only=True)
            return decode_text(data, target, what)

        def locate_file(self, path: str | os.PathLike[str]) -> Any:
            return self._inner.locate_file(path)

    return _BoundedDistribution


def _warn(message: str) -> None:
    """A broken installed package, said once on stderr (discovery runs once a process)."""
    import sys

    sys.stderr.write(f"warning: {strip_control(message)}\n")


def backend_names() -> list[str]:
    """The built-in backends (whether loaded yet or not), then the installed plugins', then
    any other registered one."""
    plugins = [name for name in plugin_entry_points() if name not in BUILTIN_BACKENDS]
    known = [*BUILTIN_BACKENDS, *plugins]
    return [*known, *(name for name in BACKENDS if name not in known)]


def backend_spec(name: str) -> BackendSpec:
    """The backend registered as `name` (a built-in one's module, or a plugin, is loaded on
    first use), or a one-line error listing the known names."""
    if name not in BACKENDS and name in BUILTIN_BACKENDS:
        importlib.import_module(BUILTIN_BACKENDS[name])
    if name not in BACKENDS and name in plugin_entry_points():
        _load_plugin(plugin_entry_points()[name])
    try:
        return BACKENDS[name]
    except KeyError:
        known = ", ".join(backend_names())
        raise InputError(f"unknown backend {name!r}: choose one of {known}") from None


def _load_plugin(point: EntryPoint) -> None:
    """Import the plugin behind `point`; it registers its backend as it is imported. A plugin
    that fails to import, or registers no backend of its name, is a failure (exit 1) that
    names its package, never a traceback."""
    try:
        package = point.dist.name if point.dist is not None else point.value
    except Exception:  # metadata that cannot be read (the warning named it)
        package = point.value
    package = strip_control(str(package))
    try:
        point.load()
    except (Exception, SystemExit) as err:  # SystemExit(0) must not end the command as done
        said = strip_control(str(err))[:300]
        raise SchemanavError(
            f"the backend plugin {point.name!r} (package {package}) failed to load: "
            f"{type(err).__name__}: {said}"
        ) from None
    if point.name not in BACKENDS:
        raise SchemanavError(
            f"the backend plugin {point.name!r} (package {package}) registered no backend of "
            f"that name: its module must call register_backend({point.name!r})"
        )


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
