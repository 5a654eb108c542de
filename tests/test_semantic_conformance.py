"""`schemanav serve` against the Semantic Introspection RFC (graphql/ai-wg), driven by gql over
httpx on loopback: paging with `after`, `minScore`, `... on __SchemaDefinition`, hits of every
kind with their `pathsToRoot`, and the active schema (a file edited while serving).
"""

from __future__ import annotations

import base64
import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gql import Client, GraphQLRequest
from gql.transport.exceptions import TransportQueryError
from gql.transport.httpx import HTTPXTransport

from schemanav.navigator import Navigator
from schemanav.schema import bundled_path
from schemanav.servers.graphql_endpoint import GRAPHQL_PATH, SemanticEndpoint
from schemanav.servers.semantic_search import encode_cursor
from servers.loopback import serve_asgi_app
from servers.process import schemanav_server

# Slow tier: the endpoint under uvicorn.
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]

PAGE = """
query Page($q: String!, $first: Int!, $after: String, $minScore: Float) {
  __search(query: $q, first: $first, after: $after, minScore: $minScore) {
    coordinate score cursor pathsToRoot
    definition { ...Member }
  }
}
fragment Member on __SchemaDefinition {
  __typename
  ... on __Type { typeName: name kind }
  ... on __Field { name }
  ... on __InputValue { name }
  ... on __EnumValue { name }
  ... on __Directive { name }
}
"""


RFC_SDL = """
type Query {
  "Retrieve a user by their email address"
  userByEmail(email: String!): User
  "List all users, optionally filtered by email domain"
  users(domain: String): [User!]!
}
type User { id: ID! email: String! }
"""
RFC_EXAMPLE = """
query {
  __search(query: "Find a user by their email address") {
    coordinate
    score
    pathsToRoot
    definition {
      ... on __Field { name description args { name type { name } } }
    }
  }
}
"""


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    navigator = Navigator.open(cache_dir=str(tmp_path_factory.mktemp("cache")))
    with serve_asgi_app(SemanticEndpoint(navigator).app()) as base:
        yield base + GRAPHQL_PATH


def test_the_rfcs_own_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The RFC's schema and query: `Query.userByEmail` first, with its arguments, and the
    paths the RFC shows (a root field is its own path; `User.email` through it)."""
    schema = tmp_path / "users.graphql"
    schema.write_text(RFC_SDL, encoding="utf-8")
    navigator = Navigator.open(str(schema), cache_dir=str(tmp_path / "cache"))
    with serve_asgi_app(SemanticEndpoint(navigator).app()) as base:
        hits = run(base + GRAPHQL_PATH, RFC_EXAMPLE)["__search"]
    first = hits[0]
    assert first["coordinate"] == "Query.userByEmail" and first["score"] == 1.0
    assert first["pathsToRoot"] == [["Query.userByEmail"]]
    assert first["definition"] == {
        "name": "userByEmail",
        "description": "Retrieve a user by their email address",
        "args": [{"name": "email", "type": {"name": None}}],  # String! is a NON_NULL wrapper
    }
    by_coordinate = {hit["coordinate"]: hit for hit in hits}
    assert ["Query.userByEmail", "User.email"] in by_coordinate["User.email"]["pathsToRoot"]
    assert 0 < by_coordinate["Query.users"]["score"] < 1.0  # the RFC's second hit
    assert by_coordinate["User"]["definition"] == {}  # a type: no __Field fragment applies
    assert by_coordinate["Query.userByEmail(email:)"]["pathsToRoot"] == [["Query.userByEmail"]]


def run(url: str, query: str, **variables: Any) -> dict[str, Any]:
    client = Client(
        transport=HTTPXTransport(url=url, timeout=10), fetch_schema_from_transport=False
    )
    return client.execute(GraphQLRequest(query, variable_values=variables or None))


def search(url: str, question: str, first: int, **more: Any) -> list[dict[str, Any]]:
    hits: list[dict[str, Any]] = run(url, PAGE, q=question, first=first, **more)["__search"]
    return hits


def test_pages_after_cursors_are_disjoint_and_make_up_one_large_first(url: str) -> None:
    question = "movies a person directed, with their genre"
    whole = search(url, question, 150)
    assert 20 < len(whole) < 150  # all of it: fewer than `first`, so no further page
    pages: list[list[dict[str, Any]]] = []
    after = None
    while True:
        page = search(url, question, 7, after=after)
        pages.append(page)
        if len(page) < 7:
            break
        after = page[-1]["cursor"]
    paged = [hit["coordinate"] for page in pages for hit in page]
    assert paged == [hit["coordinate"] for hit in whole]
    assert len(set(paged)) == len(paged)
    assert [hit["score"] for page in pages for hit in page] == [hit["score"] for hit in whole]
    assert {hit["definition"]["__typename"] for hit in whole} >= {"__Field", "__Type"}


def test_every_score_meets_min_score_and_nothing_above_it_is_lost(url: str) -> None:
    question = "reviews of a movie and their score"
    everything = search(url, question, 150)
    kept = search(url, question, 150, minScore=0.4)
    assert kept and all(hit["score"] >= 0.4 for hit in kept)
    assert [h["coordinate"] for h in kept] == [
        h["coordinate"] for h in everything if h["score"] >= 0.4
    ]
    assert len(kept) < len(everything)
    # A floor pages too: its cursor carries it.
    first, second = search(url, question, 2, minScore=0.4), None
    second = search(url, question, 2, minScore=0.4, after=first[-1]["cursor"])
    assert [h["coordinate"] for h in first + second] == [h["coordinate"] for h in kept[:4]]


def test_scores_are_nullable_floats_from_zero_to_one_best_first(url: str) -> None:
    hits = search(url, "the title of a movie", 30)
    scores = [hit["score"] for hit in hits]
    assert scores[0] == 1.0 and scores == sorted(scores, reverse=True)
    field = run(url, '{ __type(name: "__SearchResult") { fields { name type { kind name } } } }')
    kinds = {f["name"]: f["type"] for f in field["__type"]["fields"]}
    assert kinds["score"] == {"kind": "SCALAR", "name": "Float"}
    assert kinds["cursor"]["kind"] == "NON_NULL"


def test_a_type_an_argument_and_an_enum_value_are_hits_with_their_paths(url: str) -> None:
    by_coordinate = {hit["coordinate"]: hit for hit in search(url, "genre of a movie", 40)}
    genre = by_coordinate["Genre"]
    assert genre["definition"] == {"__typename": "__Type", "typeName": "Genre", "kind": "ENUM"}
    assert genre["pathsToRoot"] and all(p[0].startswith("Query.") for p in genre["pathsToRoot"])
    drama = {hit["coordinate"]: hit for hit in search(url, "drama movies", 40)}["Genre.DRAMA"]
    assert drama["definition"] == {"__typename": "__EnumValue", "name": "DRAMA"}
    assert drama["pathsToRoot"] and all(p[0].startswith("Query.") for p in drama["pathsToRoot"])
    hits = {hit["coordinate"]: hit for hit in search(url, "find a movie by its id", 40)}
    argument = hits["Query.movie(id:)"]
    assert argument["definition"] == {"__typename": "__InputValue", "name": "id"}
    # An argument's paths are its field's.
    assert argument["pathsToRoot"] == hits["Query.movie"]["pathsToRoot"] == [["Query.movie"]]


def test_a_cursor_of_another_search_or_garbage_is_refused(url: str) -> None:
    cursor = search(url, "genre of a movie", 2)[-1]["cursor"]
    # A cursor forged far past the end (the digest is no secret) is an empty page, at once.
    version, _, digest = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    far = encode_cursor(version, 10**12, digest)
    assert search(url, "genre of a movie", 150, after=far) == []
    for after, words in ((cursor, "another search"), ("bm90IGEgY3Vyc29y", "not a cursor")):
        with pytest.raises(TransportQueryError) as caught:
            search(url, "reviews of a movie", 2, after=after)
        assert words in str(caught.value)


def test_unknown_definitions_are_left_out_and_named_in_errors(url: str) -> None:
    query = (
        '{ __definitions(coordinates: ["Movie", "Movie.titel", "Genre.DRAMA"]) '
        "{ ... on __SchemaDefinition { __typename } } }"
    )
    with pytest.raises(TransportQueryError) as caught:
        run(url, query)
    assert caught.value.data == {
        "__definitions": [{"__typename": "__Type"}, {"__typename": "__EnumValue"}]
    }
    assert caught.value.errors is not None
    (error,) = caught.value.errors
    assert "Movie.titel" in error["message"] and "Movie.title" in error["message"]
    assert error["path"] == ["__definitions"]


def test_a_schema_file_edited_while_serving_is_answered_from_the_new_version(
    tmp_path: Path,
) -> None:
    """A subprocess `schemanav serve` on a copy of the Movie DB; a client keeps asking while the
    file gains a field; the field is found within a second and no request fails."""
    schema = tmp_path / "movies.graphqls"
    shutil.copy(bundled_path("moviedb.graphqls"), schema)
    failures: list[str] = []
    stop = threading.Event()
    args = ["serve", "--schema", str(schema), "--port", "0"]
    with schemanav_server(args, tmp_path / "cache") as (served, _):

        def keep_asking() -> None:
            while not stop.is_set():
                try:
                    assert search(served, "movies of a director", 5)
                except Exception as err:  # any failure during the swap is the finding
                    failures.append(repr(err))

        asker = threading.Thread(target=keep_asking, daemon=True)
        asker.start()
        try:
            time.sleep(0.5)
            assert "Query.zebraCrossings" not in _coordinates(served)
            text = schema.read_text(encoding="utf-8")
            edited = text.replace(
                "type Query {",
                'type Query {\n  "Zebra crossings near a cinema."\n  zebraCrossings: [String!]!',
                1,
            )
            assert edited != text
            schema.write_text(edited, encoding="utf-8")
            written = time.monotonic()
            while "Query.zebraCrossings" not in _coordinates(served):
                assert time.monotonic() - written < 5, "the edit was not picked up"
                time.sleep(0.02)
            took = time.monotonic() - written
            time.sleep(0.3)
        finally:
            stop.set()
            asker.join(timeout=10)
    assert failures == []
    assert took < 1.0, f"the new schema was answered {took:.2f} s after the write"


def _coordinates(url: str) -> list[str]:
    return [hit["coordinate"] for hit in search(url, "zebra crossings", 5)]
