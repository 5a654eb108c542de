"""`schemanav corpus` through the command line: figures, `--show`, `--json`, every source,
every refusal (exit code 2, one `error:` line, no traceback), and the published GitHub figures.
"""

from __future__ import annotations

import gc
import json
import os
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from graphql import build_schema, introspection_from_schema
from typer.testing import CliRunner, Result

from schemanav.cli import app
from schemanav.corpus import Corpus, Format
from schemanav.schema import LoadedSchema, bundled_path
from schemanav.tokens import count_tokens
from servers.graphql_server import serve_moviedb

MOVIEDB = bundled_path("moviedb.graphqls")
MOVIEDB_SDL = MOVIEDB.read_text(encoding="utf-8")
JSON_KEYS = {
    "schema",
    "encoding",
    "coordinates",
    "corpus_tokens",
    "sdl_tokens",
    "introspection_tokens",
}
TOKEN = "s3cret"


@pytest.fixture(autouse=True)
def isolated(cache_dir: Path, workdir: Path) -> None:
    """Every test runs with a fresh cache, no SCHEMANAV_ variables and no schemanav.toml."""


def corpus_cli(runner: CliRunner, *args: str) -> Result:
    return runner.invoke(app, ["corpus", *args])


def corpus_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = corpus_cli(runner, "--json", *args)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


@pytest.fixture(scope="module")
def moviedb_figures(moviedb_schema: LoadedSchema, moviedb_corpus: Corpus) -> dict[str, Any]:
    """The Movie DB figures computed here from the renderings, independently of the CLI."""
    loaded, corpus = moviedb_schema, moviedb_corpus
    return {
        "coordinates": len(corpus),
        "corpus_tokens": {
            fmt.value: sum(count_tokens(e.render(fmt)) for e in corpus.entries) for fmt in Format
        },
        "sdl_tokens": count_tokens(MOVIEDB_SDL),
        "introspection_tokens": count_tokens(
            json.dumps({"data": introspection_from_schema(loaded.schema)})
        ),
    }


# --- output --------------------------------------------------------------------------------


def test_json_shape_and_figures(runner: CliRunner, moviedb_figures: dict[str, Any]) -> None:
    assert gc.isenabled()
    payload = corpus_json(runner)
    # The command ran with the cyclic collector off; a process that goes on gets it back.
    assert gc.isenabled()
    assert set(payload) == JSON_KEYS
    assert payload["schema"] == "moviedb (bundled)"
    assert payload["encoding"] == "o200k_base"
    assert payload["coordinates"] == 44
    assert list(payload["corpus_tokens"]) == ["RAW", "DOT_PLUS_GLOSS", "GLOSS", "SDL"]
    assert payload["corpus_tokens"] == moviedb_figures["corpus_tokens"]
    assert payload["sdl_tokens"] == moviedb_figures["sdl_tokens"]
    assert payload["introspection_tokens"] == moviedb_figures["introspection_tokens"]
    tokens = payload["corpus_tokens"]
    # RAW is the cheapest rendering and the description-carrying ones cost the most.
    assert tokens["RAW"] < tokens["DOT_PLUS_GLOSS"] < tokens["SDL"] < tokens["GLOSS"]


def test_text_output_names_the_encoding_and_shows_six_figures(
    runner: CliRunner, moviedb_figures: dict[str, Any]
) -> None:
    result = corpus_cli(runner)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "schema: moviedb (bundled)" in out
    assert "coordinates: 44 " in out
    assert "o200k_base" in out
    rows = {
        "corpus RAW": moviedb_figures["corpus_tokens"]["RAW"],
        "corpus DOT_PLUS_GLOSS": moviedb_figures["corpus_tokens"]["DOT_PLUS_GLOSS"],
        "corpus GLOSS": moviedb_figures["corpus_tokens"]["GLOSS"],
        "corpus SDL": moviedb_figures["corpus_tokens"]["SDL"],
        "schema as SDL text": moviedb_figures["sdl_tokens"],
        "schema as introspection JSON": moviedb_figures["introspection_tokens"],
    }
    for label, figure in rows.items():
        pattern = rf"\b{re.escape(label)}\s*\W\s*{re.escape(f'{figure:,}')}\s"
        assert re.search(pattern, out), (label, figure, out)
    assert "first " not in out  # no entries without --show


SHOW_2 = """
first 2 entries, RAW:
Query.movie
Query.movies

first 2 entries, DOT_PLUS_GLOSS:
Query.movie - the movie of a query
Query.movies - the movies of a query

first 2 entries, GLOSS:
GraphQL field Query.movie. Owner type: Query. Returns: Movie. One movie by its ID, or null \
when there is none.
GraphQL field Query.movies. Owner type: Query. Returns: [Movie!]!. Movies of the catalog, \
oldest release first, optionally narrowed by a filter.

first 2 entries, SDL:
\"\"\"One movie by its ID, or null when there is none.\"\"\"
movie(id: ID!): Movie  # on type Query
\"\"\"Movies of the catalog, oldest release first, optionally narrowed by a filter.\"\"\"
movies(filter: MovieFilter, first: Int): [Movie!]!  # on type Query
"""


def test_show_prints_the_first_entries_exactly_as_indexed(runner: CliRunner) -> None:
    result = corpus_cli(runner, "--show", "2")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(SHOW_2)


def test_show_in_json(runner: CliRunner, moviedb_corpus: Corpus) -> None:
    payload = corpus_json(runner, "--show", "3")
    assert set(payload) == {*JSON_KEYS, "shown"}
    corpus = moviedb_corpus
    assert payload["shown"] == {fmt.value: corpus.texts(fmt)[:3] for fmt in Format}
    assert payload["shown"]["RAW"] == ["Query.movie", "Query.movies", "Query.person"]
    everything = corpus_json(runner, "--show", "1000")
    assert [len(texts) for texts in everything["shown"].values()] == [44, 44, 44, 44]


def test_show_zero_shows_nothing(runner: CliRunner) -> None:
    assert "shown" not in corpus_json(runner, "--show", "0")


def test_negative_show_is_refused(runner: CliRunner) -> None:
    result = corpus_cli(runner, "--show", "-1")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# --- sources -------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".graphql", ".graphqls"])
def test_sdl_file_source(
    runner: CliRunner, tmp_path: Path, suffix: str, moviedb_figures: dict[str, Any]
) -> None:
    path = tmp_path / f"movies{suffix}"
    path.write_text(MOVIEDB_SDL, encoding="utf-8")
    payload = corpus_json(runner, "--schema", str(path))
    assert payload["schema"] == str(path)
    assert payload["coordinates"] == 44
    assert payload["corpus_tokens"] == moviedb_figures["corpus_tokens"]
    assert payload["sdl_tokens"] == moviedb_figures["sdl_tokens"]


@pytest.mark.parametrize("wrapped", [True, False], ids=["data.__schema", "__schema"])
def test_introspection_json_source(
    runner: CliRunner, tmp_path: Path, wrapped: bool, moviedb_figures: dict[str, Any]
) -> None:
    result = introspection_from_schema(build_schema(MOVIEDB_SDL))
    path = tmp_path / "movies.json"
    path.write_text(json.dumps({"data": result} if wrapped else result), encoding="utf-8")
    payload = corpus_json(runner, "--schema", str(path))
    assert payload["coordinates"] == 44
    assert payload["corpus_tokens"] == moviedb_figures["corpus_tokens"]
    assert payload["introspection_tokens"] == moviedb_figures["introspection_tokens"]


def test_live_endpoint_source_with_bearer_token(
    runner: CliRunner, moviedb_figures: dict[str, Any]
) -> None:
    with serve_moviedb(token=TOKEN) as server:
        result = corpus_cli(
            runner, "--json", "--schema", server.url, "--header", f"Authorization: Bearer {TOKEN}"
        )
    assert result.exit_code == 0, result.stderr
    assert server.requests, "the server saw no request"
    assert all(r.headers.get("authorization") == f"Bearer {TOKEN}" for r in server.requests)
    payload = json.loads(result.stdout)
    assert payload["schema"] == server.url
    assert payload["coordinates"] == 44
    assert payload["corpus_tokens"] == moviedb_figures["corpus_tokens"]
    assert TOKEN not in result.stdout + result.stderr


# --- refusals ------------------------------------------------------------------------------

UserError = Callable[..., str]


def test_missing_file(runner: CliRunner, tmp_path: Path, user_error: UserError) -> None:
    missing = tmp_path / "nope.graphql"
    user_error(corpus_cli(runner, "--schema", str(missing)), "not found", str(missing))


def test_unreadable_file(runner: CliRunner, tmp_path: Path, user_error: UserError) -> None:
    path = tmp_path / "locked.graphql"
    path.write_text(MOVIEDB_SDL, encoding="utf-8")
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip(
                "running as root (or with CAP_DAC_OVERRIDE): chmod 000 does not block reads"
            )
        user_error(corpus_cli(runner, "--schema", str(path)), "cannot read", str(path))
    finally:
        path.chmod(0o644)


def test_directory_instead_of_file(
    runner: CliRunner, tmp_path: Path, user_error: UserError
) -> None:
    user_error(corpus_cli(runner, "--schema", str(tmp_path)), "directory", str(tmp_path))


def test_file_that_is_not_utf8(runner: CliRunner, tmp_path: Path, user_error: UserError) -> None:
    path = tmp_path / "latin1.graphql"
    path.write_bytes('type Query { "Café à la carte" menu: String }'.encode("latin-1"))
    user_error(corpus_cli(runner, "--schema", str(path)), "not UTF-8", str(path))


@pytest.mark.parametrize(
    ("sdl", "where", "message"),
    [
        (
            "type Query {\n  movies: [Movie!]!\n  rating(: Int): Float\n}\n",
            "3:10",
            "Syntax Error: Expected Name, found ':'.",
        ),
        ("type Query {\n  movies: Int\n", "3:1", "Syntax Error: Expected Name, found <EOF>."),
        ('\n\n  type Query { a: "x" }', "3:19", "Syntax Error: Expected Name, found String 'x'."),
    ],
)
def test_sdl_syntax_error_reports_file_line_column(
    runner: CliRunner, tmp_path: Path, user_error: UserError, sdl: str, where: str, message: str
) -> None:
    path = tmp_path / "broken.graphqls"
    path.write_text(sdl, encoding="utf-8")
    line = user_error(corpus_cli(runner, "--schema", str(path)))
    assert line == f"error: {path}:{where}: {message}"


def test_sdl_without_a_query_type(runner: CliRunner, tmp_path: Path, user_error: UserError) -> None:
    path = tmp_path / "noquery.graphql"
    path.write_text("type Movie { title: String }\n", encoding="utf-8")
    user_error(corpus_cli(runner, "--schema", str(path)), "no query root type")


@pytest.mark.parametrize(
    "content",
    ['{"data": {"viewer": {"login": "x"}}}', "[1, 2, 3]", '"just a string"', '{"data": null}'],
)
def test_json_that_is_not_an_introspection_result(
    runner: CliRunner, tmp_path: Path, user_error: UserError, content: str
) -> None:
    path = tmp_path / "other.json"
    path.write_text(content, encoding="utf-8")
    user_error(corpus_cli(runner, "--schema", str(path)), "is not an introspection result")


def test_introspection_result_with_broken_types(
    runner: CliRunner, tmp_path: Path, user_error: UserError
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"__schema": {"types": 3}}', encoding="utf-8")
    user_error(corpus_cli(runner, "--schema", str(path)), "not a usable introspection result")


def test_invalid_json(runner: CliRunner, tmp_path: Path, user_error: UserError) -> None:
    path = tmp_path / "truncated.json"
    path.write_text('{\n  "__schema": {"types": [', encoding="utf-8")
    line = user_error(corpus_cli(runner, "--schema", str(path)), "invalid JSON")
    assert line.startswith(f"error: {path}:2:")


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/graphql"


def test_unreachable_endpoint(runner: CliRunner, user_error: UserError) -> None:
    url = closed_port_url()
    result = corpus_cli(runner, "--schema", url, "--header", f"Authorization: Bearer {TOKEN}")
    user_error(result, "cannot reach", url)
    assert TOKEN not in result.output


@pytest.mark.parametrize("status", [500, 503])
def test_http_error_status(runner: CliRunner, user_error: UserError, status: int) -> None:
    with serve_moviedb(fail_status=status) as server:
        result = corpus_cli(
            runner, "--schema", server.url, "--header", f"Authorization: Bearer {TOKEN}"
        )
    user_error(result, f"HTTP {status}")
    assert server.last_request.headers["authorization"] == f"Bearer {TOKEN}"
    assert TOKEN not in result.output


@pytest.mark.parametrize("sent", [None, "Authorization: Bearer not-the-token"])
def test_http_401(runner: CliRunner, user_error: UserError, sent: str | None) -> None:
    args = ["--header", sent] if sent else []
    with serve_moviedb(token=TOKEN) as server:
        result = corpus_cli(runner, "--schema", server.url, *args)
    user_error(result, "HTTP 401", "--header")
    assert TOKEN not in result.output
    assert "not-the-token" not in result.output


def test_endpoint_timeout(runner: CliRunner, user_error: UserError) -> None:
    with serve_moviedb(delay_s=1.5) as server:
        result = corpus_cli(
            runner,
            "--schema",
            server.url,
            "--timeout",
            "0.2",
            "--header",
            f"Authorization: Bearer {TOKEN}",
        )
    user_error(result, "timed out")
    assert TOKEN not in result.output


@pytest.mark.parametrize(
    "header", [f"Authorization Bearer {TOKEN}", f": {TOKEN}", f"{TOKEN}", f"Bad Name: {TOKEN}"]
)
def test_malformed_header(runner: CliRunner, user_error: UserError, header: str) -> None:
    with serve_moviedb() as server:
        result = corpus_cli(runner, "--schema", server.url, "--header", header)
    user_error(result, "--header must look like 'Name: value'")
    assert TOKEN not in result.output
    assert server.requests == []  # refused before anything was sent


# --- the published GitHub figures ----------------------------------------------------------


@pytest.fixture(scope="module")
def github_run(github_schema_path: Path, github_cache_dir: Path) -> Result:
    """One `schemanav corpus --json` on the GitHub schema for the whole module (seconds)."""
    return CliRunner().invoke(
        app,
        ["corpus", "--schema", str(github_schema_path), "--json"],
        env={"SCHEMANAV_CACHE_DIR": str(github_cache_dir)},
    )


@pytest.mark.slow
def test_github_published_figures(github_run: Result, github_schema_path: Path) -> None:
    assert github_run.exit_code == 0, github_run.stderr
    payload = json.loads(github_run.stdout)
    assert set(payload) == JSON_KEYS
    assert payload["schema"] == str(github_schema_path)
    assert payload["encoding"] == "o200k_base"
    assert payload["coordinates"] == 6640
    assert payload["corpus_tokens"] == {
        "RAW": 38705,
        "DOT_PLUS_GLOSS": 102203,
        "GLOSS": 211092,
        "SDL": 169979,
    }
    assert payload["sdl_tokens"] == count_tokens(github_schema_path.read_text(encoding="utf-8"))
    assert payload["introspection_tokens"] > payload["sdl_tokens"]


@pytest.mark.slow
def test_github_spec_violations_are_one_warning_line(github_run: Result) -> None:
    assert "Traceback" not in github_run.output
    lines = github_run.stderr.splitlines()
    assert len(lines) == 1, github_run.stderr
    assert lines[0].startswith("warning: the schema breaks 8 GraphQL spec rules")
    assert lines[0].endswith("loaded anyway")
