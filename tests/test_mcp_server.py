"""`schemanav mcp`: the real server process driven by the MCP SDK's own client, over stdio and
over streamable HTTP on 127.0.0.1, executing against the real Movie DB GraphQL server.

One scenario per transport (a server start costs seconds): list the tools, call each, send bad
arguments, try a mutation, and check that the header value never shows up in any result or in
the server's log. What the tools compute is tested in-process in test_server_tools.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent
from typer.testing import CliRunner

from schemanav.cli import app
from schemanav.tokens import count_tokens
from servers.graphql_server import MovieDbServer, serve_moviedb

# Slow tier: the MCP server over stdio and streamable HTTP.
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]
SECRET = "mcp-secret-token-9876"


@pytest.fixture(scope="module")
def upstream() -> Iterator[MovieDbServer]:
    with serve_moviedb(token=SECRET) as server:
        yield server


def _command(upstream: MovieDbServer, *extra: str) -> list[str]:
    return [
        "-m",
        "schemanav",
        "mcp",
        "--endpoint",
        upstream.url,
        "--header",
        f"Authorization: Bearer {SECRET}",
        *extra,
    ]


def _env(cache: Path) -> dict[str, str]:
    return {"PYTHONPATH": str(REPO_ROOT / "src"), "SCHEMANAV_CACHE_DIR": str(cache)}


def text_of(result: CallToolResult) -> str:
    """The text a tool result shows the agent: its first content block, which is text."""
    content = result.content[0]
    assert isinstance(content, TextContent), content
    return content.text


def data_of(result: CallToolResult) -> dict[str, Any]:
    """The structured content of a tool result: the record its text was rendered from."""
    assert isinstance(result.structured_content, dict), text_of(result)
    return result.structured_content


async def scenario(client: Client, upstream: MovieDbServer) -> list[str]:
    """Everything an agent does with the server; returns every text it was shown."""
    seen: list[str] = []

    async def call(name: str, arguments: dict[str, Any]) -> CallToolResult:
        result = await client.call_tool(name, arguments)
        seen.append(text_of(result))
        seen.append(json.dumps(result.structured_content))
        return result

    listed = (await client.list_tools()).tools
    assert [tool.name for tool in listed] == ["search_schema", "define", "validate", "execute"]
    search_tool = listed[0]
    assert search_tool.input_schema["required"] == ["query"]
    assert search_tool.input_schema["additionalProperties"] is False

    found = await call("search_schema", {"query": "who directed the movie", "budget": 150})
    assert not found.is_error
    text = text_of(found)
    tokens = data_of(found)["tokens"]
    assert text.endswith(f"[{tokens} tokens, o200k_base]") and count_tokens(text) == tokens
    hits = data_of(found)["hits"]
    assert "Movie.directors" in [hit["coordinate"] for hit in hits]
    assert sum(hit["tokens"] for hit in hits) <= 150

    defined = await call("define", {"coordinates": ["Query.movies(filter:)", "Movie.titel"]})
    assert not defined.is_error
    assert "filter: MovieFilter" in text_of(defined)
    assert "did you mean Movie.title" in text_of(defined)

    checked = await call("validate", {"operation": "{ movies { titel } }"})
    assert data_of(checked)["valid"] is False
    assert "Cannot query field 'titel' on type 'Movie'" in text_of(checked)

    ran = await call("execute", {"operation": '{ movie(id: "movie-3") { title } }'})
    assert not ran.is_error and "Paper Moons" in text_of(ran)
    assert upstream.last_request.headers["authorization"] == f"Bearer {SECRET}"

    sent = len(upstream.requests)
    mutation = 'mutation { addReview(input: {movieId: "movie-1", authorId: "user-1", score: 2}) '
    refused = await call("execute", {"operation": mutation + "{ id } }"})
    assert refused.is_error and "mutations are refused" in text_of(refused)
    assert len(upstream.requests) == sent

    bad: dict[str, tuple[dict[str, Any], str]] = {
        "search_schema": ({"query": ""}, "argument 'query' of search_schema must not be empty"),
        "define": ({"coordinates": "Movie"}, "argument 'coordinates' of define must be an array"),
        "validate": ({}, "validate needs the argument 'operation'"),
        "execute": ({"operation": "{ x }", "k": 1}, "execute has no argument 'k'"),
    }
    for name, (arguments, message) in bad.items():
        result = await call(name, arguments)
        assert result.is_error and message in text_of(result), text_of(result)

    # A secret pasted into an operation comes back redacted.
    echoed = await call("validate", {"operation": f'{{ movies(first: "{SECRET}") {{ title }} }}'})
    assert "[redacted]" in text_of(echoed)
    return seen


def test_over_stdio(upstream: MovieDbServer, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    params = StdioServerParameters(
        command=sys.executable, args=_command(upstream), env=_env(tmp_path / "cache")
    )

    async def main() -> list[str]:
        with log.open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                return await scenario(client, upstream)

    seen = anyio.run(main)
    logged = log.read_text()
    assert "serving on stdio" in logged
    assert all(SECRET not in text for text in [*seen, logged])


def test_over_streamable_http(upstream: MovieDbServer, tmp_path: Path) -> None:
    command = [sys.executable, *_command(upstream, "--http", "127.0.0.1:0")]
    env = {**os.environ, **_env(tmp_path / "cache")}
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert "listening on http://127.0.0.1:" in line, line
        url = line.rsplit("listening on ", 1)[1].strip()
        assert url.endswith("/mcp")

        async def main() -> list[str]:
            async with Client(url) as client:
                return await scenario(client, upstream)

        seen = anyio.run(main)
    finally:
        process.terminate()
        _, rest = process.communicate(timeout=10)
    assert all(SECRET not in text for text in [*seen, line, rest])


def test_a_malformed_http_address_is_one_error_line(
    runner: CliRunner, user_error: Callable[..., str], cache_dir: Path, workdir: Path
) -> None:
    result = runner.invoke(app, ["mcp", "--http", "8765"])
    user_error(result, "--http expects HOST:PORT such as 127.0.0.1:8765, got '8765'")
