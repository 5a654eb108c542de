"""`schemanav serve`: __search / __definitions over GraphQL-over-HTTP, driven by gql over httpx.

The endpoint runs under uvicorn on 127.0.0.1; operations it does not answer itself go to the
real Movie DB GraphQL server, which demands a bearer token.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from gql import Client, GraphQLRequest, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.httpx import HTTPXTransport

from conftest import python_path
from schemanav.navigator import Navigator
from schemanav.servers.graphql_endpoint import GRAPHQL_PATH, SemanticEndpoint
from servers.graphql_server import MovieDbServer, serve_moviedb
from servers.loopback import serve_asgi_app

# Slow tier: the endpoint under uvicorn, and `schemanav serve` as a process.
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]
SECRET = "moviedb-secret-token-4242"

SEARCH = """
query Seed($q: String!, $first: Int!) {
  __search(query: $q, first: $first) {
    coordinate
    score
    pathsToRoot
    definition { __typename ... on __Field { name args { name } } }
  }
}
"""


@pytest.fixture(scope="module")
def upstream() -> Iterator[MovieDbServer]:
    with serve_moviedb(token=SECRET) as server:
        yield server


def _navigator(tmp: Path) -> Navigator:
    return Navigator.open(header=[f"Authorization: Bearer {SECRET}"], cache_dir=str(tmp))


@pytest.fixture(scope="module")
def url(upstream: MovieDbServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    endpoint = SemanticEndpoint(_navigator(tmp_path_factory.mktemp("cache")), upstream=upstream.url)
    with serve_asgi_app(endpoint.app()) as base:
        yield base + GRAPHQL_PATH


def run(url: str, query: str, **variables: Any) -> dict[str, Any]:
    client = Client(transport=HTTPXTransport(url=url), fetch_schema_from_transport=False)
    request = gql(query)
    if variables:
        request = GraphQLRequest(query, variable_values=variables)
    return client.execute(request)


def failing(url: str, query: str) -> TransportQueryError:
    with pytest.raises(TransportQueryError) as caught:
        run(url, query)
    return caught.value


def test_search_answers_the_seed_shape(url: str) -> None:
    hits = run(url, SEARCH, q="movies with a high rating", first=5)["__search"]
    assert len(hits) == 5
    scores = [hit["score"] for hit in hits]
    assert scores[0] == 1.0 and all(0.0 <= s <= 1.0 for s in scores)
    assert scores == sorted(scores, reverse=True)
    rating = next(hit for hit in hits if hit["coordinate"] == "Movie.rating")
    assert ["Query.movies", "Movie.rating"] in rating["pathsToRoot"]
    assert rating["definition"] == {"__typename": "__Field", "name": "rating", "args": []}
    movies = next(hit for hit in hits if hit["coordinate"] == "Query.movies")
    assert {"name": "filter"} in movies["definition"]["args"]


def test_definitions_of_a_field_a_type_an_argument_and_an_enum_value(url: str) -> None:
    data = run(
        url,
        """{ __definitions(coordinates: ["Query.movies", "Movie", "Query.movies(filter:)",
                                         "Genre.DRAMA"]) {
              __typename
              ... on __Field { fieldName: name type { kind ofType { kind } } }
              ... on __Type { typeName: name kind }
              ... on __InputValue { argName: name type { name } }
              ... on __EnumValue { valueName: name isDeprecated }
           } }""",
    )
    field, type_, argument, value = data["__definitions"]
    assert field == {
        "__typename": "__Field",
        "fieldName": "movies",
        "type": {"kind": "NON_NULL", "ofType": {"kind": "LIST"}},
    }
    assert type_ == {"__typename": "__Type", "typeName": "Movie", "kind": "OBJECT"}
    assert argument == {
        "__typename": "__InputValue",
        "argName": "filter",
        "type": {"name": "MovieFilter"},
    }
    assert value == {"__typename": "__EnumValue", "valueName": "DRAMA", "isDeprecated": False}


def test_an_unknown_coordinate_is_left_out_with_an_error_that_suggests(url: str) -> None:
    error = failing(url, '{ __definitions(coordinates: ["Movie", "Movie.titel"]) { __typename } }')
    assert error.data == {"__definitions": [{"__typename": "__Type"}]}
    assert isinstance(error.errors, list)
    (message,) = [e["message"] for e in error.errors]
    assert "Movie.titel" in message and "did you mean" in message and "Movie.title" in message


def test_introspection_shows_the_new_fields(url: str) -> None:
    data = run(url, '{ __type(name: "Query") { fields { name } } __schema { types { name } } }')
    fields = {f["name"] for f in data["__type"]["fields"]}
    assert {"movies", "__search", "__definitions"} <= fields
    types = {t["name"] for t in data["__schema"]["types"]}
    assert {"__SearchResult", "__SchemaDefinition", "Movie"} <= types


def test_other_operations_are_validated_here_then_forwarded_with_the_headers(
    url: str, upstream: MovieDbServer
) -> None:
    data = run(url, '{ movie(id: "movie-3") { title directors { name } } }')
    assert data == {
        "movie": {
            "title": "Paper Moons",
            "directors": [{"name": "Ada Moreno"}, {"name": "Lena Okafor"}],
        }
    }
    assert upstream.last_request.headers["authorization"] == f"Bearer {SECRET}"

    sent = len(upstream.requests)
    invalid = failing(url, "{ movies { titel } }")
    assert "Cannot query field 'titel'" in str(invalid.errors)
    mutation = failing(
        url,
        'mutation { addReview(input: {movieId: "movie-1", authorId: "user-1", score: 3}) { id } }',
    )
    assert "mutations are refused" in str(mutation.errors)
    # A secret pasted into an operation comes back redacted.
    echoed = failing(url, f'{{ movies(first: "{SECRET}") {{ title }} }}')
    assert SECRET not in str(echoed.errors) and "[redacted]" in str(echoed.errors)
    mixed = failing(url, '{ movies { title } __search(query: "title") { coordinate } }')
    assert "request of their own" in str(mixed.errors)
    assert len(upstream.requests) == sent, "refused operations must not reach the upstream"


def test_get_runs_queries_and_refuses_mutations(url: str) -> None:
    response = httpx.get(url, params={"query": '{ __search(query: "rating", first: 1) { score } }'})
    assert response.status_code == 200
    assert response.json() == {"data": {"__search": [{"score": 1.0}]}}
    mutation = httpx.get(url, params={"query": "mutation { __typename }"})
    assert mutation.status_code == 405
    assert mutation.json()["errors"][0]["message"].startswith("only queries may be sent with GET")


def test_oversized_input_is_a_clear_graphql_error(url: str) -> None:
    long_query = "rating " * 147  # 1,029 characters
    too_long = failing(url, f'{{ __search(query: "{long_query}") {{ coordinate }} }}')
    assert "1,029 characters" in str(too_long.errors) and "1,024" in str(too_long.errors)
    too_many = failing(url, '{ __search(query: "rating", first: 151) { coordinate } }')
    assert "first must be from 1 to 150, got 151" in str(too_many.errors)


def test_concurrent_requests_get_the_answers_of_sequential_ones(url: str) -> None:
    questions = ["who directed a movie", "reviews of a movie", "studio that made it", "cast"] * 6
    expected = {q: run(url, SEARCH, q=q, first=5) for q in set(questions)}
    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(lambda q: run(url, SEARCH, q=q, first=5), questions))
    assert answers == [expected[q] for q in questions]


def test_a_down_upstream_is_a_graphql_error_not_a_500(tmp_path: Path) -> None:
    with serve_moviedb() as gone:
        dead = gone.url
    endpoint = SemanticEndpoint(_navigator(tmp_path), upstream=dead)
    with serve_asgi_app(endpoint.app()) as base:
        response = httpx.post(base + GRAPHQL_PATH, json={"query": "{ movies { title } }"})
        no_upstream = SemanticEndpoint(_navigator(tmp_path))
        with serve_asgi_app(no_upstream.app()) as other:
            alone = httpx.post(other + GRAPHQL_PATH, json={"query": "{ movies { title } }"})
    assert response.status_code == 200
    (error,) = response.json()["errors"]
    assert error["message"].startswith("cannot reach the upstream API (ConnectError)")
    assert "--upstream URL" in alone.json()["errors"][0]["message"]


def test_schemanav_serve_starts_and_answers(upstream: MovieDbServer) -> None:
    """The command line end to end: a free port, the `listening on` line, one answer."""
    env = {**os.environ, "PYTHONPATH": python_path(str(REPO_ROOT / "src"))}
    command = [sys.executable, "-m", "schemanav", "serve", "--port", "0"]
    command += ["--upstream", upstream.url, "--header", f"Authorization: Bearer {SECRET}"]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert "listening on http://127.0.0.1:" in line, line
        served = line.rsplit("listening on ", 1)[1].strip()
        assert run(served, '{ movie(id: "movie-1") { title } }') == {
            "movie": {"title": "The Lantern Keeper"}
        }
    finally:
        process.terminate()
        _, rest = process.communicate(timeout=10)
    assert SECRET not in line + rest


@pytest.mark.parametrize(
    "question", ["movies with a high rating", "actors of a film", "reviews by a user"]
)
def test_lists_of_strings_complete_as_graphql_core_completes_them(
    question: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`LeafListExecutor` copies lists of strings at once: every answer is graphql-core's."""
    from graphql.execution.incremental.incremental_executor import IncrementalExecutor

    from schemanav.servers import leaf_lists

    endpoint = SemanticEndpoint(_navigator(tmp_path))
    documents = [
        "query($q: String!) { __search(query: $q, first: 30) { coordinate score pathsToRoot "
        "cursor } }",
        "query($q: String!) { __search(query: $q, first: 5) { pathsToRoot definition { "
        "__typename ... on __Field { name args { name } } } } }",
    ]
    ours = [endpoint._answer_here(document, {"q": question}, None) for document in documents]
    monkeypatch.setattr(leaf_lists, "LeafListExecutor", IncrementalExecutor)
    theirs = [endpoint._answer_here(document, {"q": question}, None) for document in documents]
    assert ours == theirs
    first = ours[0]
    assert first is not None
    assert any(hit["pathsToRoot"] for hit in first["data"]["__search"])


_PLAIN = [
    "query($q: String!) { __search(query: $q, first: 30) { coordinate score pathsToRoot } }",
    "query($q: String!) { __search(query: $q, first: 7) { p: pathsToRoot c: coordinate "
    "coordinate s: score } }",
    "query($q: String!) { __search(query: $q, first: 7) { ...r } } "
    "fragment r on __SearchResult { score coordinate }",
]
_NOT_PLAIN = [
    "query($q: String!) { __search(query: $q, first: 7) { coordinate score @include(if: false) "
    "__typename } }",
    "query($q: String!) { __search(query: $q, first: 4) { cursor score } }",
    "query($q: String!) { __search(query: $q, first: 4) { score definition { __typename } } }",
]


@pytest.mark.parametrize("question", ["movies with a high rating", "actors of a film"])
def test_plain_results_complete_as_graphql_core_completes_them(
    question: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`LeafListExecutor` completes a list of results whose fields are all plain leaves at
    once (aliases, a field asked twice, a fragment), and leaves any other selection to
    graphql-core: every answer is graphql-core's, and the plain ones took the short way."""
    from graphql.execution.incremental.incremental_executor import IncrementalExecutor

    from schemanav.servers import leaf_lists

    endpoint = SemanticEndpoint(_navigator(tmp_path))
    short: list[bool] = []
    plain = leaf_lists.LeafListExecutor._plain_objects

    def counted(self: Any, *args: Any) -> Any:
        completed = plain(self, *args)
        short.append(completed is not None)
        return completed

    monkeypatch.setattr(leaf_lists.LeafListExecutor, "_plain_objects", counted)
    ours = [endpoint._answer_here(d, {"q": question}, None) for d in _PLAIN + _NOT_PLAIN]
    assert short[: len(_PLAIN)] == [True] * len(_PLAIN) and not any(short[len(_PLAIN) :])
    monkeypatch.setattr(leaf_lists, "LeafListExecutor", IncrementalExecutor)
    theirs = [endpoint._answer_here(d, {"q": question}, None) for d in _PLAIN + _NOT_PLAIN]
    assert ours == theirs
    assert all(answer is not None and "errors" not in answer for answer in ours)


@pytest.mark.parametrize("max_fields", [1, 90, 91, 500])
def test_plain_results_spend_the_field_budget_as_graphql_core_does(
    max_fields: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The short way counts every field of every result against the request's budget at
    once: a budget one short of the answer (1 root field + 30 results × 3 fields) refuses it
    as graphql-core's path does, with the same words; one that holds it answers."""
    from graphql.execution.incremental.incremental_executor import IncrementalExecutor

    from schemanav.servers import leaf_lists

    endpoint = SemanticEndpoint(_navigator(tmp_path))
    endpoint._max_fields = max_fields
    question = {"q": "movies with a high rating"}
    ours = endpoint._answer_here(_PLAIN[0], question, None)
    monkeypatch.setattr(leaf_lists, "LeafListExecutor", IncrementalExecutor)
    assert ours == endpoint._answer_here(_PLAIN[0], question, None)
    assert ours is not None
    assert ("errors" in ours) == (max_fields < 91)


class _Recording(SemanticEndpoint):
    """The endpoint, noting the thread each request's own work ran on."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.threads: list[int] = []

    def _answer_here(self, *args: Any, **kwargs: Any) -> Any:
        self.threads.append(threading.get_ident())
        return super()._answer_here(*args, **kwargs)


SEARCH_PAGE = "query($q: String!) { __search(query: $q, first: 3) { coordinate } }"


def test_a_small_request_is_answered_on_the_event_loop_any_other_in_a_thread(
    tmp_path: Path,
) -> None:
    endpoint = _Recording(_navigator(tmp_path))

    async def ask(query: str, variables: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return threading.get_ident(), await endpoint.answer(query, variables, None)

    long_document = SEARCH_PAGE + "\n#" + "x" * 2_000
    cases = [
        (SEARCH_PAGE, {"q": "movie titles"}, True),
        (long_document, {"q": "movie titles"}, False),  # parsing it could hold the loop
        (SEARCH_PAGE, {"q": "movie titles " * 100}, False),  # a long variable, likewise
    ]
    answers = []
    for query, variables, on_loop in cases:
        loop_thread, answer = asyncio.run(ask(query, variables))
        answers.append(answer)
        assert (endpoint.threads[-1] == loop_thread) is on_loop
    assert answers[0] == answers[1] and answers[0]["data"]["__search"]
    # A search holding the index sends a small request to a thread too: on the loop it would
    # make every other request wait for that search.
    endpoint._search_lock.acquire()
    threading.Timer(0.2, endpoint._search_lock.release).start()
    loop_thread, answer = asyncio.run(ask(SEARCH_PAGE, {"q": "movie titles"}))
    assert endpoint.threads[-1] != loop_thread and answer == answers[0]
