"""From a backend name to a ready searcher: create, index, and add paths to root to every hit.

Every front end (search, bench, the agent, the servers) prepares its backend here, so all of
them show the same hits with the same paths.
"""

from __future__ import annotations

from dataclasses import replace

from schemanav.corpus import Corpus, Format
from schemanav.errors import InputError
from schemanav.events import Events
from schemanav.graph import SchemaGraph
from schemanav.retrieval import builtin  # noqa: F401  (registers the built-in backends)
from schemanav.retrieval.base import SearchBackend, SearchHit
from schemanav.retrieval.registry import BACKENDS, backend_names, create_backend

__all__ = [
    "BACKENDS",
    "BackendWithPaths",
    "backend_names",
    "create_backend",
    "parse_format",
    "prepare_backend",
]
from schemanav.settings import Settings


def parse_format(value: str) -> Format:
    try:
        return Format.parse(value)
    except ValueError as err:
        raise InputError(str(err)) from None


def prepare_backend(
    name: str, fmt: Format, settings: Settings, corpus: Corpus, events: Events
) -> SearchBackend:
    """Create and index a backend, telling the user what it runs with (e.g. prefixes).

    Its hits carry up to `settings.max_paths` paths to root, whichever backend it is.
    """
    backend = create_backend(name, fmt, settings)
    describe = getattr(backend, "describe", None)
    if callable(describe):
        events.note(str(describe()))
    set_progress = getattr(backend, "set_progress", None)
    if callable(set_progress):
        set_progress(lambda done, total: events.progress(f"indexing {name}", done, total))
    with_paths = BackendWithPaths(backend, settings.max_paths)
    with_paths.index(corpus)
    for message in getattr(backend, "warnings", ()):
        events.warning(message)
    return with_paths


class BackendWithPaths:
    """Any backend, its hits carrying `paths_to_root` (paths a backend filled itself are kept).

    One place fills paths for every backend, so `search`, the agent's `searchSchema` and any
    later consumer show them alike; the graph is built only once a hit needs it.
    """

    def __init__(self, backend: SearchBackend, limit: int) -> None:
        self.backend = backend
        self.limit = limit
        self._corpus: Corpus | None = None
        self._graph: SchemaGraph | None = None
        self._position: dict[str, int] = {}

    @property
    def name(self) -> str:
        return self.backend.name

    def index(self, corpus: Corpus) -> None:
        self.backend.index(corpus)
        self._corpus = corpus
        self._graph = None

    def search(self, query: str, k: int) -> list[SearchHit]:
        hits = self.backend.search(query, k)
        if self.limit < 1 or self._corpus is None or all(hit.paths_to_root for hit in hits):
            return hits
        if self._graph is None:
            self._graph = SchemaGraph(self._corpus)
            self._position = {c: i for i, c in enumerate(self._corpus.coordinates)}
        graph, position = self._graph, self._position
        return [
            hit
            if hit.paths_to_root or hit.coordinate not in position
            else replace(
                hit, paths_to_root=graph.paths_to_root(position[hit.coordinate], self.limit)
            )
            for hit in hits
        ]
