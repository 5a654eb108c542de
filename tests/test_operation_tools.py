"""`mcp --operations DIR`: curated operations as MCP tools. Their input schemas and the checks
at start in process; then the real server, driven by the MCP SDK's client over stdio and over
streamable HTTP (there with the caller's credential forwarded, `--forward-header`), running
them against the Movie DB server on 127.0.0.1."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import TextContent
from typer.testing import CliRunner

from schemanav.cli import app
from schemanav.errors import InputError
from schemanav.servers.operation_tools import load_operation_tools
from servers.graphql_server import MovieDbServer, serve_moviedb
from servers.process import schemanav_server
from test_mcp_server import SECRET
from test_mcp_server import _command as mcp_command

# Slow tier: curated operations over MCP stdio and streamable HTTP.
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]

MOVIES = """
# Titles of the movies of one genre, oldest first.
query MoviesByGenre($genre: Genre!, $first: Int = 3) {
  movies(filter: {genre: $genre}, first: $first) { title }
}

query MovieTitle($id: ID!) { movie(id: $id) { ...Basic } }
fragment Basic on Movie { title releaseYear }
"""
REVIEW = """
mutation Review($movie: ID!, $score: Int!) {
  addReview(input: {movieId: $movie, authorId: "user-1", score: $score}) { id }
}
"""


@pytest.fixture
def operations(tmp_path: Path) -> Path:
    folder = tmp_path / "operations"
    folder.mkdir()
    (folder / "movies.graphql").write_text(MOVIES, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def upstream() -> Iterator[MovieDbServer]:
    with serve_moviedb(token=SECRET) as server:
        yield server


def test_each_operation_is_a_tool_with_an_input_schema_from_its_variables(
    operations: Path, moviedb_schema: Any
) -> None:
    tools = load_operation_tools(operations, moviedb_schema.schema, allow_mutations=False)
    by_genre, title = tools
    assert by_genre.name == "MoviesByGenre" and not by_genre.mutation
    assert by_genre.description == "Titles of the movies of one genre, oldest first."
    schema = by_genre.input_schema
    assert schema["required"] == ["genre"] and schema["additionalProperties"] is False
    genre = schema["properties"]["genre"]
    assert genre["type"] == "string" and "DRAMA" in genre["enum"] and None not in genre["enum"]
    assert genre["description"] == "Only movies of this genre."  # the input field it fills
    first = schema["properties"]["first"]
    assert first["default"] == 3 and first["type"] == ["integer", "null"]
    assert first["description"] == "The largest number of movies to return."
    assert title.input_schema["properties"]["id"]["description"].startswith("The ID of the movie")
    assert "fragment Basic on Movie" in title.document and "MoviesByGenre" not in title.document


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("query Broken { movies { title }", "not a GraphQL document"),
        ("{ movies { title } }", "every operation needs a name"),
        ("query Typo { movies { titel } }", "Typo does not validate: Cannot query field 'titel'"),
        (REVIEW, "Review is a mutation; pass --allow-mutations"),
        ("query MovieTitle { movies { title } }", "a tool named MovieTitle exists already"),
        ("query search_schema { movies { title } }", "a tool named search_schema exists"),
    ],
)
def test_a_bad_operation_file_is_one_error_naming_it(
    operations: Path, moviedb_schema: Any, text: str, message: str
) -> None:
    (operations / "zz-bad.graphql").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_operation_tools(
            operations, moviedb_schema.schema, allow_mutations=False, taken=["search_schema"]
        )
    assert str(caught.value).startswith(str(operations / "zz-bad.graphql"))
    assert message in str(caught.value)


def test_mutations_are_tools_only_when_allowed(operations: Path, moviedb_schema: Any) -> None:
    (operations / "review.graphql").write_text(REVIEW, encoding="utf-8")
    tools = load_operation_tools(operations, moviedb_schema.schema, allow_mutations=True)
    review = next(tool for tool in tools if tool.name == "Review")
    assert review.mutation and review.description == "Changes data (a mutation): addReview."


def test_the_cli_refuses_a_bad_folder_with_one_line(
    tmp_path: Path, cache_dir: Path, workdir: Path, user_error: Callable[..., str]
) -> None:
    args = ["mcp", "--endpoint", "http://127.0.0.1:9/graphql", "--operations", str(tmp_path)]
    user_error(CliRunner().invoke(app, args), "holds no .graphql file")
    alone = ["mcp", "--operations", str(tmp_path)]
    user_error(CliRunner().invoke(app, alone), "--operations needs --endpoint")


async def _scenario(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert {"search_schema", "execute", "MoviesByGenre", "MovieTitle"} <= set(tools)
    assert tools["MoviesByGenre"].input_schema["required"] == ["genre"]
    assert tools["MoviesByGenre"].annotations is not None
    assert tools["MoviesByGenre"].annotations.read_only_hint is True
    found = await client.call_tool("MoviesByGenre", {"genre": "DRAMA", "first": 2})
    assert not found.is_error, _text(found)
    assert '"movies"' in _text(found) and '"title"' in _text(found)
    titled = await client.call_tool("MovieTitle", {"id": "movie-3"})
    assert "Paper Moons" in _text(titled)
    wrong = await client.call_tool("MoviesByGenre", {"genre": "OPERETTA"})
    assert wrong.is_error and "OPERETTA" in _text(wrong)
    unknown = await client.call_tool("MovieTitle", {"id": "movie-3", "year": 1})
    assert unknown.is_error and "has no argument 'year'" in _text(unknown)


def _text(result: Any) -> str:
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


def test_operation_tools_over_stdio(
    upstream: MovieDbServer, operations: Path, tmp_path: Path
) -> None:
    env = {"PYTHONPATH": str(REPO_ROOT / "src"), "SCHEMANAV_CACHE_DIR": str(tmp_path / "cache")}
    params = StdioServerParameters(
        command=sys.executable,
        args=mcp_command(upstream, "--operations", str(operations)),
        env=env,
    )

    async def main() -> None:
        with (tmp_path / "server.log").open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                await _scenario(client)

    anyio.run(main)
    assert "6 tools" in (tmp_path / "server.log").read_text()


def test_operation_tools_over_streamable_http_with_the_callers_credential(
    upstream: MovieDbServer, operations: Path, tmp_path: Path
) -> None:
    """No static header here: the caller's own `Authorization` is forwarded (and redacted)."""
    args = ["mcp", "--endpoint", upstream.url, "--operations", str(operations)]
    args += ["--forward-header", "Authorization", "--http", "127.0.0.1:0"]
    with schemanav_server(args, tmp_path / "cache") as (url, log):

        async def main() -> Any:
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {SECRET}"})
            async with Client(streamable_http_client(url, http_client=http)) as client:
                await _scenario(client)
                pasted = f'{{ movies(first: "{SECRET}") {{ title }} }}'
                return await client.call_tool("execute", {"operation": pasted})

        echoed = anyio.run(main)
    assert upstream.last_request.headers["authorization"] == f"Bearer {SECRET}"
    assert echoed.is_error and "[redacted]" in _text(echoed)
    shown = [_text(echoed), json.dumps(echoed.structured_content), log.first_line, log.rest]
    assert all(SECRET not in text for text in shown)


def test_input_objects_are_spelled_out_and_nullable_values_take_null(
    tmp_path: Path, moviedb_schema: Any
) -> None:
    (tmp_path / "filtered.graphql").write_text(
        "query Filtered($filter: MovieFilter) { movies(filter: $filter) { title } }",
        encoding="utf-8",
    )
    (tool,) = load_operation_tools(tmp_path, moviedb_schema.schema, allow_mutations=False)
    movie_filter = tool.input_schema["properties"]["filter"]
    assert tool.input_schema["required"] == []
    assert movie_filter["type"] == ["object", "null"]
    assert movie_filter["additionalProperties"] is False
    genre = movie_filter["properties"]["genre"]
    assert genre["type"] == ["string", "null"] and genre["enum"][-1] is None
    assert genre["description"] == "Only movies of this genre."
    assert movie_filter["properties"]["minRating"]["type"] == ["number", "null"]


# -- hostile folders and types (issue 41) ----------------------------------------------------


def _plant_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _plant_fifo(path: Path) -> None:
    import os

    os.mkfifo(path)


def _plant_directory(path: Path) -> None:
    path.mkdir()


def _plant_dangling(path: Path) -> None:
    path.symlink_to(path.parent / "nowhere")


@pytest.mark.parametrize(
    ("plant", "said"),
    [
        (_plant_zero, "is a device, expected a GraphQL operation file (a regular file)"),
        (_plant_fifo, "is a FIFO or socket"),
        (_plant_directory, "is a directory"),
        (_plant_dangling, "is a link to nothing"),
    ],
)
def test_a_special_file_among_the_operations_is_one_error_line(
    operations: Path, tmp_path: Path, plant: Callable[[Path], None], said: str
) -> None:
    """Run in a child under a memory and CPU limit: a link to /dev/zero read whole, or a FIFO
    waited on, fails here rather than filling memory or stalling start-up."""
    from test_hostile import MOVIEDB, cli, refused

    plant(operations / "special.graphql")
    args = ["mcp", "--schema", str(MOVIEDB), "--endpoint", "http://127.0.0.1:9/graphql"]
    run = cli(tmp_path / "work", *args, "--operations", str(operations), timeout=30)
    line = refused(run, 2, str(operations / "special.graphql"), said)
    assert run.seconds < 20, line


def test_the_operations_of_one_folder_are_capped(
    operations: Path, cache_dir: Path, workdir: Path, user_error: Callable[..., str]
) -> None:
    from schemanav.servers.operation_tools import MAX_OPERATIONS

    many = "\n".join(f"query Q{i} {{ movies {{ title }} }}" for i in range(MAX_OPERATIONS))
    (operations / "many.graphql").write_text(many, encoding="utf-8")  # 502 with movies.graphql
    args = ["mcp", "--endpoint", "http://127.0.0.1:9/graphql", "--operations", str(operations)]
    user_error(CliRunner().invoke(app, args), "more than 500 operations", str(operations))


WIDE_FIELDS = 12
WIDE_SDL = (
    "type Query { find(where: Wide, also: Pair): Int }\n"
    "input Wide { " + " ".join(f"f{i}: Wide" for i in range(WIDE_FIELDS)) + " x: Int }\n"
    'input Pair { left: Leaf right: Leaf "The deepest." deep: Wide once: Once }\n'
    "input Leaf { value: String! }\ninput Once { n: Int }\n"
)


def test_a_recursive_input_type_is_described_once_by_reference(tmp_path: Path) -> None:
    """`input Wide { f0: Wide … f11: Wide x: Int }` spelled out 6 levels deep is 12^6 objects;
    by reference it is one `$defs` entry. Listed by the MCP SDK's client over stdio, the
    schema is small and still describes nested values (checked with jsonschema)."""
    import jsonschema  # type: ignore[import-untyped]

    (tmp_path / "wide.graphql").write_text(WIDE_SDL, encoding="utf-8")
    folder = tmp_path / "ops"
    folder.mkdir()
    (folder / "find.graphql").write_text(
        "query Find($w: Wide, $p: Pair!) { find(where: $w, also: $p) }", encoding="utf-8"
    )
    args = ["-m", "schemanav", "mcp", "--schema", str(tmp_path / "wide.graphql")]
    args += ["--endpoint", "http://127.0.0.1:9/graphql", "--operations", str(folder)]
    env = {"PYTHONPATH": str(REPO_ROOT / "src"), "SCHEMANAV_CACHE_DIR": str(tmp_path / "cache")}
    params = StdioServerParameters(command=sys.executable, args=args, env=env)

    async def main() -> dict[str, Any]:
        with anyio.fail_after(30), (tmp_path / "server.log").open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                tools = {tool.name: tool for tool in (await client.list_tools()).tools}
                return tools["Find"].input_schema

    schema = anyio.run(main)
    assert len(json.dumps(schema)) < 5_000
    assert set(schema["$defs"]) == {"Wide", "Leaf"}  # recursive, used twice; Pair, Once inline
    assert schema["properties"]["w"] == {"anyOf": [{"$ref": "#/$defs/Wide"}, {"type": "null"}]}
    pair = schema["properties"]["p"]
    assert pair["type"] == "object" and pair["properties"]["once"]["type"] == ["object", "null"]
    assert pair["properties"]["left"]["anyOf"][0] == {"$ref": "#/$defs/Leaf"}
    assert pair["properties"]["deep"]["description"] == "The deepest."
    jsonschema.validate({"w": {"f0": {"f11": {"x": 3}}}, "p": {"left": {"value": "a"}}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"w": {"f0": {"f1": {"y": 3}}}, "p": {}}, schema)
