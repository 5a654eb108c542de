"""A real GraphQL HTTP server over the Movie DB schema, for tests.

Tests of live introspection, agent tool calls and HTTP error handling run against this
instead of a mocked client: it is the bundled Movie DB schema executed by
graphql-core over a small in-memory catalog, served by the standard library on
127.0.0.1 with a free port. Each server gets its own copy of the data, so mutations made
by one test never leak into another.

    with serve_moviedb(token="s3cret") as server:
        httpx.post(server.url, json={"query": "{ movies { title } }"},
                   headers={"Authorization": "Bearer s3cret"})
        server.last_request.headers["authorization"]
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from http.server import BaseHTTPRequestHandler
from typing import Any

from graphql import GraphQLError, GraphQLObjectType, GraphQLSchema, build_schema, graphql_sync

from schemanav.schema import bundled_path
from servers.loopback import LoopbackServer, serving

SCHEMA_PATH = bundled_path("moviedb.graphqls")
GRAPHQL_PATH = "/graphql"

Record = dict[str, Any]

# A fictional catalog, small enough to reason about in assertions. Ratings are not stored:
# `Movie.rating` is the mean of the movie's review scores, as the schema describes.
CATALOG: dict[str, list[Record]] = {
    "movies": [
        {
            "id": "movie-1",
            "title": "The Lantern Keeper",
            "releaseYear": 1994,
            "runtimeMinutes": 128,
            "genres": ["DRAMA"],
            "studioId": "studio-1",
            "plot": "A lighthouse keeper takes in a stranded boy during a winter of storms.",
        },
        {
            "id": "movie-2",
            "title": "Midnight Freight",
            "releaseYear": 1997,
            "runtimeMinutes": 112,
            "genres": ["THRILLER", "ACTION"],
            "studioId": "studio-2",
            "plot": "A night-shift train driver finds out what her cargo really is.",
        },
        {
            "id": "movie-3",
            "title": "Paper Moons",
            "releaseYear": 1999,
            "runtimeMinutes": 101,
            "genres": ["COMEDY", "DRAMA"],
            "studioId": "studio-1",
            "plot": "Two rival puppeteers are forced to share a touring stage.",
        },
        {
            "id": "movie-4",
            "title": "Orbit of Glass",
            "releaseYear": 2008,
            "runtimeMinutes": 141,
            "genres": ["SCIENCE_FICTION"],
            "studioId": "studio-2",
            "plot": "The crew of a failing station must decide who returns to Earth.",
        },
        {
            "id": "movie-5",
            "title": "The Quiet Harbour",
            "releaseYear": 1986,
            "runtimeMinutes": 95,
            "genres": ["DRAMA"],
            "studioId": "studio-1",
            "plot": None,
        },
        {
            "id": "movie-6",
            "title": "Small Hours",
            "releaseYear": 2021,
            "runtimeMinutes": None,
            "genres": ["DOCUMENTARY"],
            "studioId": None,
            "plot": "Night workers of one city, filmed over a single week.",
        },
    ],
    "people": [
        {"id": "person-1", "name": "Ada Moreno", "birthYear": 1952},
        {"id": "person-2", "name": "Tomas Varga", "birthYear": 1961},
        {"id": "person-3", "name": "Lena Okafor", "birthYear": 1970},
        {"id": "person-4", "name": "Ruth Calloway", "birthYear": None},
        {"id": "person-5", "name": "Sam Ibsen", "birthYear": 1968},
        {"id": "person-6", "name": "Mira Castell", "birthYear": 1975},
        {"id": "person-7", "name": "Jon Pike", "birthYear": 1958},
    ],
    "cast": [
        {"movieId": "movie-1", "personId": "person-5", "character": "Elias Brand", "billing": 1},
        {"movieId": "movie-1", "personId": "person-6", "character": "Nora Brand", "billing": 2},
        {"movieId": "movie-2", "personId": "person-6", "character": "Kit Harlow", "billing": 1},
        {"movieId": "movie-3", "personId": "person-5", "character": "Otto Fenn", "billing": 2},
        {"movieId": "movie-3", "personId": "person-3", "character": "Greta Fenn", "billing": 1},
        {"movieId": "movie-4", "personId": "person-5", "character": "Commander Hale", "billing": 1},
    ],
    "crew": [
        {"movieId": "movie-1", "personId": "person-1", "job": "DIRECTOR"},
        {"movieId": "movie-1", "personId": "person-3", "job": "WRITER"},
        {"movieId": "movie-1", "personId": "person-7", "job": "COMPOSER"},
        {"movieId": "movie-2", "personId": "person-2", "job": "DIRECTOR"},
        {"movieId": "movie-3", "personId": "person-1", "job": "DIRECTOR"},
        {"movieId": "movie-3", "personId": "person-3", "job": "DIRECTOR"},
        {"movieId": "movie-4", "personId": "person-2", "job": "DIRECTOR"},
        {"movieId": "movie-4", "personId": "person-7", "job": "COMPOSER"},
        {"movieId": "movie-5", "personId": "person-3", "job": "DIRECTOR"},
        {"movieId": "movie-6", "personId": "person-4", "job": "DIRECTOR"},
    ],
    "users": [
        {"id": "user-1", "username": "cinephile42"},
        {"id": "user-2", "username": "reelnora"},
        {"id": "user-3", "username": "popcorn_pete"},
    ],
    "reviews": [
        {
            "id": "review-1",
            "movieId": "movie-1",
            "authorId": "user-1",
            "score": 9,
            "body": "Patient and beautifully shot.",
            "createdAt": "2019-03-02",
        },
        {
            "id": "review-2",
            "movieId": "movie-1",
            "authorId": "user-2",
            "score": 8,
            "body": None,
            "createdAt": "2021-11-20",
        },
        {
            "id": "review-3",
            "movieId": "movie-2",
            "authorId": "user-3",
            "score": 6,
            "body": "Tense first hour, silly ending.",
            "createdAt": "2020-07-14",
        },
        {
            "id": "review-4",
            "movieId": "movie-2",
            "authorId": "user-1",
            "score": 7,
            "body": None,
            "createdAt": "2022-01-05",
        },
        {
            "id": "review-5",
            "movieId": "movie-3",
            "authorId": "user-2",
            "score": 8,
            "body": "Funnier than it has any right to be.",
            "createdAt": "2018-05-30",
        },
        {
            "id": "review-6",
            "movieId": "movie-4",
            "authorId": "user-1",
            "score": 9,
            "body": "Big ideas, small cast, no wasted scene.",
            "createdAt": "2009-02-11",
        },
        {
            "id": "review-7",
            "movieId": "movie-4",
            "authorId": "user-3",
            "score": 10,
            "body": "Saw it three times.",
            "createdAt": "2010-08-01",
        },
        {
            "id": "review-8",
            "movieId": "movie-5",
            "authorId": "user-2",
            "score": 7,
            "body": "Slow but honest.",
            "createdAt": "2015-10-09",
        },
    ],
    "studios": [
        {"id": "studio-1", "name": "Lumen Pictures", "foundedYear": 1979},
        {"id": "studio-2", "name": "Northgate Films", "foundedYear": None},
    ],
}

_TYPENAMES = {
    "movies": "Movie",
    "people": "Person",
    "cast": "CastCredit",
    "crew": "CrewCredit",
    "users": "User",
    "reviews": "Review",
    "studios": "Studio",
}


class MovieStore:
    """The catalog as dicts tagged with `__typename`, which graphql-core's default type
    resolver reads for the `Node`, `Credit` and `SearchResult` abstract types."""

    def __init__(self, catalog: dict[str, list[Record]] | None = None) -> None:
        source = copy.deepcopy(catalog if catalog is not None else CATALOG)
        self.tables: dict[str, list[Record]] = {
            table: [{**row, "__typename": _TYPENAMES[table]} for row in rows]
            for table, rows in source.items()
        }
        self._lock = threading.Lock()

    def by_id(self, table: str, record_id: str) -> Record | None:
        return next((row for row in self.tables[table] if row["id"] == record_id), None)

    def node(self, record_id: str) -> Record | None:
        for table in ("movies", "people", "reviews", "users", "studios"):
            found = self.by_id(table, record_id)
            if found is not None:
                return found
        return None

    def rating(self, movie: Record) -> float | None:
        scores = [r["score"] for r in self.tables["reviews"] if r["movieId"] == movie["id"]]
        return sum(scores) / len(scores) if scores else None

    def movies(self, movie_filter: Record | None, first: int) -> list[Record]:
        criteria = movie_filter or {}
        found = []
        for movie in sorted(self.tables["movies"], key=lambda m: (m["releaseYear"], m["id"])):
            year, rating = movie["releaseYear"], self.rating(movie)
            if criteria.get("yearFrom") is not None and year < criteria["yearFrom"]:
                continue
            if criteria.get("yearTo") is not None and year > criteria["yearTo"]:
                continue
            if criteria.get("minRating") is not None and (
                rating is None or rating < criteria["minRating"]
            ):
                continue
            if criteria.get("genre") is not None and criteria["genre"] not in movie["genres"]:
                continue
            needle = criteria.get("titleContains")
            if needle is not None and needle.lower() not in movie["title"].lower():
                continue
            found.append(movie)
        return found[: max(first, 0)]

    def search(self, text: str, first: int) -> list[Record]:
        needle = text.lower()
        found = [m for m in self.tables["movies"] if needle in m["title"].lower()]
        found += [p for p in self.tables["people"] if needle in p["name"].lower()]
        found += [s for s in self.tables["studios"] if needle in s["name"].lower()]
        return found[: max(first, 0)]

    def credits_of_movie(self, table: str, movie_id: str) -> list[Record]:
        return [c for c in self.tables[table] if c["movieId"] == movie_id]

    def reviews_where(self, key: str, value: str) -> list[Record]:
        reviews = [r for r in self.tables["reviews"] if r[key] == value]
        return sorted(reviews, key=lambda r: r["createdAt"], reverse=True)

    def create_movie(self, data: Record) -> Record:
        director_ids = data.get("directorIds") or []
        for person_id in director_ids:
            if self.by_id("people", person_id) is None:
                raise GraphQLError(f"no person with ID {person_id!r}")
        with self._lock:
            movie = {
                "__typename": "Movie",
                "id": f"movie-{len(self.tables['movies']) + 1}",
                "title": data["title"],
                "releaseYear": data["releaseYear"],
                "runtimeMinutes": data.get("runtimeMinutes"),
                "plot": data.get("plot"),
                "genres": list(data.get("genres") or []),
                "studioId": None,
            }
            self.tables["movies"].append(movie)
            for person_id in director_ids:
                self.tables["crew"].append(
                    {
                        "__typename": "CrewCredit",
                        "movieId": movie["id"],
                        "personId": person_id,
                        "job": "DIRECTOR",
                    }
                )
        return movie

    def add_review(self, data: Record) -> Record:
        if self.by_id("movies", data["movieId"]) is None:
            raise GraphQLError(f"no movie with ID {data['movieId']!r}")
        if self.by_id("users", data["authorId"]) is None:
            raise GraphQLError(f"no user with ID {data['authorId']!r}")
        if not 1 <= data["score"] <= 10:
            raise GraphQLError(f"score must be from 1 to 10, got {data['score']}")
        with self._lock:
            review = {
                "__typename": "Review",
                "id": f"review-{len(self.tables['reviews']) + 1}",
                "movieId": data["movieId"],
                "authorId": data["authorId"],
                "score": data["score"],
                "body": data.get("body"),
                "createdAt": date.today().isoformat(),
            }
            self.tables["reviews"].append(review)
        return review


def build_moviedb_schema(store: MovieStore) -> GraphQLSchema:
    """The SDL schema with resolvers over `store` attached; plain fields use the default
    resolver, which reads dict keys named like the field."""
    schema = build_schema(SCHEMA_PATH.read_text(encoding="utf-8"))

    def object_type(name: str) -> GraphQLObjectType:
        found = schema.get_type(name)
        assert isinstance(found, GraphQLObjectType), name
        return found

    def person_of(credit: Record, _info: Any) -> Record | None:
        return store.by_id("people", credit["personId"])

    def movie_of(record: Record, _info: Any) -> Record | None:
        return store.by_id("movies", record["movieId"])

    resolvers: dict[str, dict[str, Any]] = {
        "Query": {
            "movie": lambda _root, _info, id: store.by_id("movies", id),
            "movies": lambda _root, _info, first, filter=None: store.movies(filter, first),
            "person": lambda _root, _info, id: store.by_id("people", id),
            "search": lambda _root, _info, text, first: store.search(text, first),
            "node": lambda _root, _info, id: store.node(id),
        },
        "Mutation": {
            "createMovie": lambda _root, _info, input: store.create_movie(input),
            "addReview": lambda _root, _info, input: store.add_review(input),
        },
        "Movie": {
            "rating": lambda movie, _info: store.rating(movie),
            "directors": lambda movie, _info: [
                store.by_id("people", c["personId"])
                for c in store.credits_of_movie("crew", movie["id"])
                if c["job"] == "DIRECTOR"
            ],
            "cast": lambda movie, _info: sorted(
                store.credits_of_movie("cast", movie["id"]), key=lambda c: c["billing"]
            ),
            "reviews": lambda movie, _info: store.reviews_where("movieId", movie["id"]),
        },
        "Person": {
            "credits": lambda person, _info: [
                c
                for table in ("cast", "crew")
                for c in store.tables[table]
                if c["personId"] == person["id"]
            ],
        },
        "CastCredit": {"movie": movie_of, "person": person_of},
        "CrewCredit": {"movie": movie_of, "person": person_of},
        "Review": {
            "movie": movie_of,
            "author": lambda review, _info: store.by_id("users", review["authorId"]),
        },
        "User": {"reviews": lambda user, _info: store.reviews_where("authorId", user["id"])},
        "Studio": {
            "movies": lambda studio, _info: [
                m
                for m in store.movies(None, len(store.tables["movies"]))
                if m["studioId"] == studio["id"]
            ],
        },
    }
    for type_name, fields in resolvers.items():
        graphql_type = object_type(type_name)
        for field_name, resolve in fields.items():
            graphql_type.fields[field_name].resolve = resolve
    return schema


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server saw it; header names are lower-cased."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class MovieDbServer:
    """A running server: where to reach it and what it has been sent."""

    url: str
    store: MovieStore
    requests: list[RecordedRequest] = field(default_factory=list)

    @property
    def last_request(self) -> RecordedRequest:
        if not self.requests:
            raise AssertionError("the server has received no request yet")
        return self.requests[-1]


@contextmanager
def serve_moviedb(
    *,
    token: str | None = None,
    fail_status: int | None = None,
    delay_s: float = 0.0,
    catalog: dict[str, list[Record]] | None = None,
    port: int = 0,
) -> Iterator[MovieDbServer]:
    """Serve the Movie DB at `server.url` (POST `/graphql`) until the block ends.

    token: when set, requests without `Authorization: Bearer <token>` get HTTP 401.
    fail_status: when set, every request is answered with this HTTP status and a JSON error.
    delay_s: seconds to wait before answering, for timeout tests.
    catalog: replaces the built-in data (same tables as `CATALOG`).
    port: where to listen (0: a free port; `scripts/moviedb_server.py` picks its own).
    """
    store = MovieStore(catalog)
    schema = build_moviedb_schema(store)
    lock = threading.Lock()
    recorded: list[RecordedRequest] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body: Any = json.loads(raw) if raw else None
            except ValueError:
                body = None
            self._record(body)
            if self._refused():
                return
            if self.path.split("?", 1)[0] != GRAPHQL_PATH:
                self._send(404, {"errors": [{"message": f"no GraphQL endpoint at {self.path}"}]})
                return
            if not isinstance(body, dict) or not isinstance(body.get("query"), str):
                self._send(400, {"errors": [{"message": 'expected a JSON object with "query"'}]})
                return
            variables = body.get("variables")
            result = graphql_sync(
                schema,
                body["query"],
                variable_values=variables if isinstance(variables, dict) else None,
                operation_name=body.get("operationName"),
            )
            self._send(200, result.formatted)

        def do_GET(self) -> None:
            self._record(None)
            if not self._refused():
                self._send(405, {"errors": [{"message": "send GraphQL requests with POST"}]})

        def _record(self, body: Any) -> None:
            headers: dict[str, str] = {}
            for name, value in self.headers.items():  # a repeated header: its values joined
                key = name.lower()
                headers[key] = f"{headers[key]}, {value}" if key in headers else value
            with lock:
                recorded.append(RecordedRequest(self.command, self.path, headers, body))

        def _refused(self) -> bool:
            if delay_s:
                time.sleep(delay_s)
            if token is not None and self.headers.get("Authorization") != f"Bearer {token}":
                self._send(
                    401,
                    {"errors": [{"message": "missing or invalid bearer token"}]},
                    {"WWW-Authenticate": 'Bearer realm="moviedb"'},
                )
                return True
            if fail_status is not None:
                self._send(fail_status, {"errors": [{"message": f"simulated {fail_status}"}]})
                return True
            return False

        def _send(self, status: int, payload: Any, extra: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output quiet."""

    with serving(LoopbackServer(Handler, port), name="moviedb-server") as httpd:
        yield MovieDbServer(f"{httpd.url}{GRAPHQL_PATH}", store, recorded)
