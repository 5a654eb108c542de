"""The Movie DB test server really executes GraphQL over HTTP, so other tests can trust it."""

from __future__ import annotations

import httpx
import pytest

from schemanav.corpus import Corpus, build_corpus
from schemanav.errors import InputError
from schemanav.schema import bundled_path, load_schema
from servers.graphql_server import CATALOG, serve_moviedb

SDL_PATH = bundled_path("moviedb.graphqls")


def _post(url: str, query: str, **kwargs: object) -> httpx.Response:
    return httpx.post(url, json={"query": query, **kwargs}, timeout=10)


def _mean_scores() -> dict[str, float]:
    scores: dict[str, list[int]] = {}
    for review in CATALOG["reviews"]:
        scores.setdefault(review["movieId"], []).append(review["score"])
    return {movie_id: sum(s) / len(s) for movie_id, s in scores.items()}


def test_live_introspection_gives_the_same_corpus_as_the_sdl_file(moviedb_corpus: Corpus) -> None:
    with serve_moviedb(token="s3cret") as server:
        live = load_schema(server.url, headers={"Authorization": "Bearer s3cret"})
        assert server.last_request.headers["authorization"] == "Bearer s3cret"
    from_file = moviedb_corpus
    live_corpus = build_corpus(live.schema)
    assert len(live_corpus) == 44
    assert live_corpus.coordinates == from_file.coordinates
    assert live.violations == ()


def test_movies_filter_really_filters_on_year_and_rating() -> None:
    means = _mean_scores()
    expected_high = [
        m["title"]
        for m in sorted(CATALOG["movies"], key=lambda m: m["releaseYear"])
        if means.get(m["id"], 0) >= 8
    ]
    expected_90s = [
        m["title"]
        for m in sorted(CATALOG["movies"], key=lambda m: m["releaseYear"])
        if means.get(m["id"], 0) >= 8 and 1990 <= m["releaseYear"] <= 1999
    ]
    assert 0 < len(expected_90s) < len(expected_high) < len(CATALOG["movies"])
    with serve_moviedb() as server:
        high = _post(
            server.url, "{ movies(filter: {minRating: 8}) { title rating directors { name } } }"
        ).json()
        nineties = _post(
            server.url,
            "query Q($f: MovieFilter) { movies(filter: $f) { title releaseYear } }",
            variables={"f": {"yearFrom": 1990, "yearTo": 1999, "minRating": 8}},
            operationName="Q",
        ).json()
    assert "errors" not in high
    assert [m["title"] for m in high["data"]["movies"]] == expected_high
    assert all(m["rating"] >= 8 and m["directors"] for m in high["data"]["movies"])
    assert [m["title"] for m in nineties["data"]["movies"]] == expected_90s


def test_mutations_change_what_later_queries_see() -> None:
    with serve_moviedb() as server:
        created = _post(
            server.url,
            'mutation { createMovie(input: {title: "Test Reel", releaseYear: 1995,'
            ' directorIds: ["person-2"]}) { id rating directors { name } } }',
        ).json()["data"]["createMovie"]
        assert created["rating"] is None
        assert [d["name"] for d in created["directors"]] == ["Tomas Varga"]
        _post(
            server.url,
            'mutation R($m: ID!) { addReview(input: {movieId: $m, authorId: "user-1",'
            " score: 9}) { id } }",
            variables={"m": created["id"]},
        )
        found = _post(
            server.url, '{ movies(filter: {titleContains: "test reel", minRating: 9}) { id } }'
        ).json()["data"]["movies"]
        assert found == [{"id": created["id"]}]
    with serve_moviedb() as fresh:
        again = _post(fresh.url, '{ movies(filter: {titleContains: "test reel"}) { id } }')
        assert again.json()["data"]["movies"] == []


def test_abstract_types_resolve_to_their_concrete_types() -> None:
    query = """{ search(text: "lumen") { __typename ... on Studio { name movies { title } } }
      node(id: "person-7") { ... on Person { credits { __typename ... on CrewCredit { job } } } }
    }"""
    with serve_moviedb() as server:
        data = _post(server.url, query).json()["data"]
    assert [hit["__typename"] for hit in data["search"]] == ["Studio"]
    assert data["search"][0]["movies"]
    assert {c["__typename"] for c in data["node"]["credits"]} == {"CrewCredit"}


def test_wrong_or_missing_token_is_answered_401() -> None:
    with serve_moviedb(token="s3cret") as server:
        assert _post(server.url, "{ __typename }").status_code == 401
        wrong = httpx.post(
            server.url,
            json={"query": "{ __typename }"},
            headers={"Authorization": "Bearer nope"},
            timeout=10,
        )
        assert wrong.status_code == 401
        assert "errors" in wrong.json()
        with pytest.raises(InputError, match="401"):
            load_schema(server.url)


def test_fail_status_mode_answers_every_request_with_that_status() -> None:
    with serve_moviedb(fail_status=503) as server:
        assert _post(server.url, "{ __typename }").status_code == 503
        with pytest.raises(InputError, match="503"):
            load_schema(server.url)
        assert len(server.requests) == 2
