"""One behavioural suite, run over every registered backend.

Whatever a backend does inside, bench and the agent rely on the same promises: at most k
hits, ranks 1..n, best first, token costs of exactly the text shown, coordinates from the
corpus, and no exception for any question a user can type. The rendering format changes what
a hit shows, not how a question is handled: that is checked once, at the end, over every format.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from graphql import build_schema

from hostile_questions import HOSTILE_QUESTIONS
from schemanav.corpus import Corpus, Format, build_corpus
from schemanav.retrieval import BackendContext, Ranking, Searcher, SearchHit, ranking_of
from schemanav.retrieval.pipeline import backend_spec, create_backend
from schemanav.tokens import count_tokens
from servers.ollama_server import FakeOllama, serve_ollama
from tiny_schema import TINY_MOVIE_SDL

SDL = TINY_MOVIE_SDL

# Words of the coordinate and of its gloss, so it is an obvious match in every rendering.
OBVIOUS_QUESTION = "Movie releaseDate: the release date of a movie"
OBVIOUS_TARGET = "Movie.releaseDate"

WORDLESS_QUESTIONS = ["", "   ", "\t\n", "?!", "()", "--", '"', "*", "\\", "[]{}", "…"]


@dataclass(frozen=True)
class Indexed:
    registered_as: str
    backend: Searcher
    fmt: Format


def all_backends() -> list[Any]:
    """Every built-in backend (hermetic: a plugin some other package installed is its own
    package's to test, see docs/plugins.md); those that load a model in process (torch,
    seconds to start) are in the slow tier."""
    from schemanav.defaults import BUILTIN_BACKENDS

    return [
        pytest.param(name, marks=pytest.mark.slow) if name.endswith("-local") else name
        for name in BUILTIN_BACKENDS
    ]


@pytest.fixture(scope="module")
def fake_ollama() -> Iterator[FakeOllama]:
    with serve_ollama() as server:
        yield server


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return build_corpus(build_schema(SDL))


@pytest.fixture(scope="module", params=all_backends())
def indexed(
    request: pytest.FixtureRequest,
    fake_ollama: FakeOllama,
    corpus: Corpus,
    tmp_path_factory: pytest.TempPathFactory,
) -> Indexed:
    name, fmt = request.param, Format.DOT_PLUS_GLOSS
    context = BackendContext(fmt, tmp_path_factory.mktemp("cache"))
    backend = create_backend(name, context, options_for_fake_ollama(name, fake_ollama))
    return Indexed(name, backend.index(corpus), fmt)


def options_for_fake_ollama(name: str, fake_ollama: FakeOllama) -> dict[str, Any]:
    """The fake embedder is a bag of words, not instruction-tuned: an instruction would only
    add noise words shared by every question."""
    options = {"ollama_host": fake_ollama.url, "query_prefix": ""}
    return {key: value for key, value in options.items() if key in backend_spec(name).option_keys}


def check_invariants(hits: list[SearchHit], k: int, corpus: Corpus, fmt: Format) -> None:
    entries = {entry.coordinate: entry for entry in corpus.entries}
    assert len(hits) <= k
    assert [hit.rank for hit in hits] == list(range(1, len(hits) + 1))
    scores = [hit.score for hit in hits]
    assert scores == sorted(scores, reverse=True)
    coordinates = [hit.coordinate for hit in hits]
    assert len(set(coordinates)) == len(coordinates)
    for hit in hits:
        assert hit.coordinate in entries
        assert hit.text == entries[hit.coordinate].render(fmt)
        assert hit.tokens == count_tokens(hit.text)


def test_backend_names_match_the_registry(indexed: Indexed) -> None:
    backend = indexed.backend
    assert isinstance(backend, Searcher)
    assert backend.name.split(":")[0] == indexed.registered_as


def test_hits_keep_every_promise(indexed: Indexed, corpus: Corpus) -> None:
    backend, fmt = indexed.backend, indexed.fmt
    for k in (1, 3, 1000):  # one hit, a few, more than the corpus holds
        hits = backend.search(OBVIOUS_QUESTION, k)
        assert hits, "an obvious question must find something"
        check_invariants(hits, k, corpus, fmt)
        # What a bench or a slice reads (built without hits where the backend can) is
        # exactly what the hits say.
        assert ranking_of(backend, OBVIOUS_QUESTION, k) == Ranking.of(hits)
    assert len(backend.search(OBVIOUS_QUESTION, 1000)) <= len(corpus)


def test_an_obvious_question_ranks_its_target_first(
    indexed: Indexed,
) -> None:
    """First, or right after the fields that lead to it from the root (structural backends
    rank a hit's path before it, and the path fields carry the hit's score)."""
    hits = indexed.backend.search(OBVIOUS_QUESTION, 5)
    leading = [hit.coordinate for hit in hits if hit.score == hits[0].score]
    assert leading[-1] == OBVIOUS_TARGET
    assert all(c.split(".")[0] in ("Query", "Movie") for c in leading[:-1])


def test_a_question_without_words_returns_nothing(indexed: Indexed) -> None:
    for question in WORDLESS_QUESTIONS:
        assert indexed.backend.search(question, 5) == [], repr(question)


def test_hostile_questions_never_raise(indexed: Indexed, corpus: Corpus) -> None:
    for question in HOSTILE_QUESTIONS:
        check_invariants(indexed.backend.search(question, 5), 5, corpus, indexed.fmt)


def test_searching_twice_gives_the_same_ranking(
    indexed: Indexed,
) -> None:
    backend = indexed.backend
    assert backend.search("who directed the movie", 5) == backend.search(
        "who directed the movie", 5
    )


def test_index_cache_does_not_change_results(
    indexed: Indexed,
    corpus: Corpus,
    fake_ollama: FakeOllama,
    tmp_path: Path,
) -> None:
    """A second backend over the same corpus (served from any on-disk cache) agrees."""
    name, fmt = indexed.registered_as, indexed.fmt
    options = options_for_fake_ollama(name, fake_ollama)
    first = create_backend(name, BackendContext(fmt, tmp_path), options).index(corpus)
    second = create_backend(name, BackendContext(fmt, tmp_path), options).index(corpus)
    question = "how long does the movie run in minutes"
    assert [(h.coordinate, h.rank) for h in first.search(question, 5)] == [
        (h.coordinate, h.rank) for h in second.search(question, 5)
    ]


@pytest.mark.parametrize("fmt", list(Format), ids=lambda fmt: fmt.value)
def test_the_format_changes_what_a_hit_shows_not_the_promises(
    fmt: Format, corpus: Corpus, tmp_path: Path
) -> None:
    """Once, over every rendering: hits show the entry rendered in that format, priced
    exactly, and keep every promise (bm25 indexes the rendered text itself)."""
    for name in ("bm25", "structural"):
        searcher = create_backend(name, BackendContext(fmt, tmp_path)).index(corpus)
        hits = searcher.search(OBVIOUS_QUESTION, 10)
        assert OBVIOUS_TARGET in [hit.coordinate for hit in hits], (name, fmt)
        check_invariants(hits, 10, corpus, fmt)


def test_hits_built_in_bulk_are_the_records_the_constructor_makes() -> None:
    """`SearchHit.ranked` sets slots directly (deep rankings): equal, hashed alike, frozen."""
    bulk = SearchHit.ranked(["Query.movie", "Movie.title"], ["a", "b"], [2.5, 1.0], [3, 4])
    made = [SearchHit("Query.movie", "a", 2.5, 1, 3), SearchHit("Movie.title", "b", 1.0, 2, 4)]
    assert bulk == made
    assert [hash(hit) for hit in bulk] == [hash(hit) for hit in made]
    with pytest.raises(dataclasses.FrozenInstanceError):
        bulk[0].rank = 5  # type: ignore[misc]
