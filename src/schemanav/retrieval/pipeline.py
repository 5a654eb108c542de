"""From a backend name to a ready searcher: create, index, and add paths to root to every hit.

Every front end (search, bench, the agent, the servers) prepares its backend here, so all of
them show the same hits with the same paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from schemanav.corpus import Corpus, Format
from schemanav.errors import InputError
from schemanav.events import Events, phase
from schemanav.graph import SchemaGraph
from schemanav.retrieval.base import BackendContext, Ranking, Searcher, SearchHit, ranking_of
from schemanav.retrieval.registry import (
    BACKENDS,
    backend_names,
    backend_spec,
    backend_specs,
    create_backend,
    options_for,
)
from schemanav.settings import Settings

__all__ = [
    "BACKENDS",
    "SearcherWithPaths",
    "backend_context",
    "backend_names",
    "backend_spec",
    "backend_specs",
    "create_backend",
    "options_for",
    "parse_format",
    "prepare_backend",
]


def parse_format(value: str) -> Format:
    try:
        return Format.parse(value)
    except ValueError as err:
        raise InputError(str(err)) from None


def backend_context(fmt: Format, settings: Settings, events: Events) -> BackendContext:
    return BackendContext(
        fmt=fmt, cache_dir=settings.cache_dir, events=events, max_paths=settings.max_paths
    )


def prepare_backend(
    name: str,
    fmt: Format,
    settings: Settings,
    corpus: Corpus,
    events: Events,
    *,
    chosen: Sequence[str] | None = None,
) -> Searcher:
    """Create and index a backend with the options in `settings.options` meant for it.

    `chosen` is every backend of the run (bench compares several): an option must be known
    to at least one of them, else it is refused (default: `name` alone). What the backend
    has to say (model, prefixes, progress, warnings, during indexing or any later search)
    goes to `events`. Its hits carry up to `settings.max_paths` paths to root, whichever
    backend it is.
    """
    options = options_for(list(chosen or [name]), settings.options)[name]
    backend = create_backend(name, backend_context(fmt, settings, events), options)
    with phase(events, f"indexing {len(corpus):,} entries for {name} · {fmt}"):
        searcher = backend.index(corpus)
    return SearcherWithPaths(searcher, corpus, settings.max_paths)


@dataclass(frozen=True, eq=False)
class SearcherWithPaths:
    """Any searcher, its hits carrying `paths_to_root` (paths a backend filled itself are kept).

    One place fills paths for every backend, so `search`, the agent's `searchSchema` and any
    later consumer show them alike; the graph is built only once a hit needs it.
    """

    searcher: Searcher
    corpus: Corpus
    limit: int

    @property
    def name(self) -> str:
        return self.searcher.name

    @cached_property
    def _graph(self) -> tuple[SchemaGraph, dict[str, int]]:
        position = {coordinate: i for i, coordinate in enumerate(self.corpus.coordinates)}
        return SchemaGraph(self.corpus), position

    def ranking(self, query: str, k: int) -> Ranking:
        """The wrapped searcher's ranking (paths change no coordinate or score)."""
        return ranking_of(self.searcher, query, k)

    def search(self, query: str, k: int) -> list[SearchHit]:
        hits = self.searcher.search(query, k)
        if self.limit < 1 or all(hit.paths_to_root for hit in hits):
            return hits
        graph, position = self._graph
        return [
            hit
            if hit.paths_to_root or hit.coordinate not in position
            else replace(
                hit, paths_to_root=graph.paths_to_root(position[hit.coordinate], self.limit)
            )
            for hit in hits
        ]
