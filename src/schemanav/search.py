"""One question against one backend: the records `schemanav search` prints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from schemanav.corpus import Corpus, Format
from schemanav.errors import InputError
from schemanav.events import Events, SilentEvents
from schemanav.graph import BackendWithPaths
from schemanav.retrieval import (
    SearchBackend,
    SearchHit,
    create_backend,
    fit_budget,
    has_words,
)
from schemanav.schema import describe_violations
from schemanav.settings import Settings
from schemanav.tokens import ENCODING_NAME
from schemanav.workspace import open_corpus

DEFAULT_K = 10
EMPTY_QUESTION = "the question has no searchable words, so there is nothing to search"


@dataclass(frozen=True)
class SearchResult:
    query: str
    backend: str
    format: str
    encoding: str
    hits: tuple[SearchHit, ...]
    budget: int | None = None
    empty_reason: str | None = None

    @property
    def total_tokens(self) -> int:
        return sum(hit.tokens for hit in self.hits)

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "backend": self.backend,
            "format": self.format,
            "encoding": self.encoding,
            "hits": [
                {
                    "rank": hit.rank,
                    "coordinate": hit.coordinate,
                    "score": hit.score,
                    "tokens": hit.tokens,
                    "text": hit.text,
                    "paths_to_root": [list(path) for path in hit.paths_to_root],
                }
                for hit in self.hits
            ],
            "total_tokens": self.total_tokens,
        }


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


def run_search(question: str, settings: Settings, on_event: Events | None = None) -> SearchResult:
    events = on_event or SilentEvents()
    fmt = parse_format(settings.format)
    loaded = open_corpus(settings)
    if loaded.violations:
        events.warning(describe_violations(loaded.violations))
    backend = prepare_backend(settings.backend, fmt, settings, loaded.corpus, events)
    depth = settings.k or (len(loaded.corpus) if settings.budget else DEFAULT_K)
    hits = fit_budget(backend.search(question, depth), settings.budget)
    empty_reason = None
    if not hits:
        empty_reason = EMPTY_QUESTION if not has_words(question) else "no hits"
    return SearchResult(
        query=question,
        backend=backend.name,
        format=fmt.value,
        encoding=ENCODING_NAME,
        hits=tuple(hits),
        budget=settings.budget,
        empty_reason=empty_reason,
    )
