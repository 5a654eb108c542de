"""Hermetic subprocesses: every Python process the test suite starts imports this module, as
Python imports a `sitecustomize` from PYTHONPATH (tests/conftest.py puts this folder first).

It leaves out of `importlib.metadata.distributions()` the installed packages named in
`HIDDEN_BACKEND_PLUGINS` (their metadata folders, os.pathsep-separated): the packages offering
a `schemanav.backends` entry point in the environment the suite runs in, found when the session
started. So a `schemanav` a test runs sees the built-in backends and the plugins that test
installed itself, never another package's (which would change `--help`, add warnings, or load).

A `sitecustomize` of the interpreter's own, which this one shadows, is run after it.
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import importlib.util
import os
import sys
from collections.abc import Iterator
from typing import Any

HIDDEN = frozenset(filter(None, os.environ.get("HIDDEN_BACKEND_PLUGINS", "").split(os.pathsep)))


_every = importlib.metadata.distributions


def _visible(**kwargs: Any) -> Iterator[importlib.metadata.Distribution]:
    for found in _every(**kwargs):
        folder = getattr(found, "_path", None)
        if folder is None or os.path.realpath(str(folder)) not in HIDDEN:
            yield found


if HIDDEN:
    importlib.metadata.distributions = _visible


def _run_the_next_sitecustomize() -> None:
    here = os.path.realpath(os.path.dirname(__file__))
    rest = [entry for entry in sys.path if os.path.realpath(entry or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


_run_the_next_sitecustomize()
