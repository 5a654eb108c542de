"""Hermetic subprocesses: every Python process the test suite starts imports this module, as
Python imports a `sitecustomize` from PYTHONPATH (tests/conftest.py puts this folder first).

It leaves out of `importlib.metadata.distributions()` the installed packages named in
`HIDDEN_BACKEND_PLUGINS` (their metadata folders, os.pathsep-separated): the packages offering
a `schemanav.backends` entry point in the environment the suite runs in, found when the session
started. So a `schemanav` a test runs sees the built-in backends and the plugins that test
installed itself, never another package's (which would change `--help`, add warnings, or load).

Nothing is imported here that the process would not import anyway: `importlib.metadata` is
changed as it is first imported, by whoever imports it (a test counts the modules a command
imports). A `sitecustomize` of the interpreter's own, which this one shadows, is run after it.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

HIDDEN = frozenset(filter(None, os.environ.get("HIDDEN_BACKEND_PLUGINS", "").split(os.pathsep)))
METADATA = "importlib.metadata"


def _hide_plugins(metadata: ModuleType) -> None:
    every: Callable[..., Iterator[Any]] = metadata.distributions

    def distributions(**kwargs: Any) -> Iterator[Any]:
        for found in every(**kwargs):
            folder = getattr(found, "_path", None)
            if folder is None or os.path.realpath(str(folder)) not in HIDDEN:
                yield found

    metadata.distributions = distributions  # type: ignore[attr-defined]


class _Patching:
    """The real loader of `importlib.metadata`, which hides the plugins once it has run."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        made: ModuleType | None = self._real.create_module(spec)
        return made

    def exec_module(self, module: ModuleType) -> None:
        self._real.exec_module(module)
        _hide_plugins(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class _OnFirstImport:
    """A finder that finds nothing itself: it hands `importlib.metadata`'s own spec back with a
    loader that hides the plugins, then leaves `sys.meta_path`."""

    @classmethod
    def find_spec(
        cls, name: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name != METADATA:
            return None
        sys.meta_path.remove(cls)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _Patching(spec.loader)  # type: ignore[assignment]
        return spec


if HIDDEN:
    if METADATA in sys.modules:
        _hide_plugins(sys.modules[METADATA])
    else:
        sys.meta_path.insert(0, _OnFirstImport)


def _run_the_next_sitecustomize() -> None:
    here = os.path.realpath(os.path.dirname(__file__))
    rest = [entry for entry in sys.path if os.path.realpath(entry or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


_run_the_next_sitecustomize()
