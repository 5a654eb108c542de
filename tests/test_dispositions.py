"""Dispositions of fixed-K and budgeted answers: the pure rule on hand-made rankings over the
Movie DB corpus, then through `Navigator.search` with a real backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemanav.corpus import Corpus, build_corpus
from schemanav.navigator import Navigator
from schemanav.retrieval import Ranking, SearchHit
from schemanav.retrieval.dispositions import disposition, forms_path
from schemanav.schema import bundled_path, load_schema


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return build_corpus(load_schema(str(bundled_path("moviedb.graphqls"))).schema)


def hits(*scored: tuple[str, float]) -> list[SearchHit]:
    return [
        SearchHit(coordinate, coordinate, score, rank, 5)
        for rank, (coordinate, score) in enumerate(scored, start=1)
    ]


@pytest.mark.parametrize(
    ("coordinates", "complete"),
    [
        (["Query.movies", "Movie.title"], True),  # root → object → scalar
        (["Movie.title", "Query.movies"], True),  # order does not matter
        (["Query.movies"], False),  # ends at an object type
        (["Movie.title"], False),  # does not start at a root
        (["Query.search", "Person.name"], True),  # a union, entered by a fragment
        # Credit.person is an interface's field, selected on CastCredit directly.
        (["Query.movie", "Movie.cast", "Credit.person", "Person.name"], True),
        (["Query.movie", "Movie.cast", "Person.name"], False),  # CastCredit does not own it
        (["Mutation.addReview", "Review.score"], True),  # the mutation root counts
    ],
)
def test_forms_path(corpus: Corpus, coordinates: list[str], complete: bool) -> None:
    assert forms_path(coordinates, corpus) is complete


def test_each_disposition_by_its_rule(corpus: Corpus) -> None:
    ranked = Ranking.of(hits(("Query.movies", 3.0), ("Movie.title", 2.0), ("Movie.rating", 2.0)))
    assert disposition(Ranking((), ()), 0, corpus, k=5, budget=None) == "no_hit"
    assert disposition(ranked, 0, corpus, k=None, budget=4) == "budget_unsatisfied"
    # K = 2 cuts between two hits scored 2.0: which one is shown is arbitrary.
    assert disposition(ranked, 2, corpus, k=2, budget=None) == "over_k"
    assert disposition(ranked, 3, corpus, k=3, budget=None) == "complete"
    assert disposition(ranked, 1, corpus, k=1, budget=None) == "partial"
    # A budget cut is not a K cut: ties across it do not make it over_k.
    assert disposition(ranked, 2, corpus, k=3, budget=10) == "complete"


def test_navigator_search_states_the_disposition(cache_dir: Path, workdir: Path) -> None:
    navigator = Navigator.open(backend="bm25")
    # BM25 gives every Movie field the same score for the bare word "movie".
    tied = navigator.search("movie", k=2)
    assert tied.hits[0].score == tied.hits[1].score
    assert tied.disposition == "over_k" and tied.as_dict()["disposition"] == "over_k"
    assert navigator.search("movie rating", budget=1).disposition == "budget_unsatisfied"
    assert navigator.search("zzzz", k=3).disposition == "no_hit"
    structural = navigator.search("movies with a high rating", k=3, backend="structural")
    assert structural.disposition == "complete"
