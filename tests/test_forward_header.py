"""`--forward-header NAME`: the caller's own credential reaches the API, only there, and never
comes back. `serve` driven by gql over httpx against the Movie DB server on 127.0.0.1, which
demands the bearer token; `mcp --http` is driven by the MCP SDK's client in
test_operation_tools.py (one server process for both features)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gql import Client, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.httpx import HTTPXTransport
from typer.testing import CliRunner

from schemanav.cli import app
from schemanav.navigator import Navigator
from schemanav.servers.graphql_endpoint import GRAPHQL_PATH, SemanticEndpoint
from servers.graphql_server import MovieDbServer, serve_moviedb
from servers.loopback import serve_asgi_app

# Slow tier: `serve` under uvicorn and `mcp --http` as a process.
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]
CALLER_TOKEN = "callers-own-token-5150"
MOVIE = '{ movie(id: "movie-3") { title } }'


@pytest.fixture(scope="module")
def upstream() -> Iterator[MovieDbServer]:
    with serve_moviedb(token=CALLER_TOKEN) as server:
        yield server


@pytest.fixture(scope="module")
def url(upstream: MovieDbServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    navigator = Navigator.open(cache_dir=str(tmp_path_factory.mktemp("cache")))
    endpoint = SemanticEndpoint(navigator, upstream=upstream.url, forward=("Authorization",))
    with serve_asgi_app(endpoint.app()) as base:
        yield base + GRAPHQL_PATH


def run(url: str, query: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    transport = HTTPXTransport(url=url, headers=headers, timeout=10)
    return Client(transport=transport, fetch_schema_from_transport=False).execute(gql(query))


def test_serve_passes_the_callers_header_to_the_upstream_only(
    url: str, upstream: MovieDbServer
) -> None:
    bearer = {"Authorization": f"Bearer {CALLER_TOKEN}"}
    assert run(url, MOVIE, bearer) == {"movie": {"title": "Paper Moons"}}
    assert upstream.last_request.headers["authorization"] == f"Bearer {CALLER_TOKEN}"
    with pytest.raises(TransportQueryError) as refused:
        run(url, MOVIE)  # no credential of its own: the upstream says no
    assert "HTTP 401" in str(refused.value) or "bearer token" in str(refused.value)
    assert "authorization" not in upstream.last_request.headers
    with pytest.raises(TransportQueryError) as echoed:
        run(url, f'{{ movies(first: "{CALLER_TOKEN}") {{ title }} }}', bearer)
    assert CALLER_TOKEN not in str(echoed.value) and "[redacted]" in str(echoed.value)


@pytest.mark.parametrize(
    "query",
    [
        f'{{ movies {{ title }} "{CALLER_TOKEN}"',  # a syntax error quoting the request
        f'{{ __search(query: "movies", first: "{CALLER_TOKEN}") {{ coordinate }} }}',
    ],
)
def test_local_errors_never_echo_the_callers_forwarded_token(url: str, query: str) -> None:
    import httpx

    bearer = {"Authorization": f"Bearer {CALLER_TOKEN}"}
    answer = httpx.post(url, json={"query": query}, headers=bearer, timeout=10)
    assert answer.json().get("errors"), answer.text
    assert CALLER_TOKEN not in answer.text


def test_the_callers_header_replaces_a_static_one_of_the_same_name_in_any_case(
    upstream: MovieDbServer, tmp_path: Path
) -> None:
    navigator = Navigator.open(
        cache_dir=str(tmp_path), header=["authorization: Bearer the-servers-own-9999"]
    )
    endpoint = SemanticEndpoint(navigator, upstream=upstream.url, forward=("Authorization",))
    with serve_asgi_app(endpoint.app()) as base:
        bearer = {"Authorization": f"Bearer {CALLER_TOKEN}"}
        assert run(base + GRAPHQL_PATH, MOVIE, bearer) == {"movie": {"title": "Paper Moons"}}
    assert upstream.last_request.headers["authorization"] == f"Bearer {CALLER_TOKEN}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["mcp", "--forward-header", "Authorization"], "--forward-header needs --http"),
        (["serve", "--forward-header", "Authorization"], "--forward-header needs --upstream"),
        (
            ["serve", "--upstream", "http://127.0.0.1:9/graphql", "--forward-header", "Host"],
            "the connection sets that header itself",
        ),
        (
            ["serve", "--upstream", "http://127.0.0.1:9/graphql", "--forward-header", "a b"],
            "--forward-header takes a header name",
        ),
    ],
)
def test_a_header_that_cannot_be_forwarded_is_one_error_line(
    args: list[str],
    message: str,
    cache_dir: Path,
    workdir: Path,
    user_error: Callable[..., str],
) -> None:
    user_error(CliRunner().invoke(app, args), message)
