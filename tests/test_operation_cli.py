"""`schemanav validate` and `schemanav execute` (`schemanav.operation_report`): the checks the
agent's and the MCP server's tools make, from the command line, with exit codes (0 valid, 2 bad
input, 1 the endpoint failed) and one `error:` line; `execute` against a real GraphQL server on
127.0.0.1 (graphql-core behind http.server), through httpx."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from schemanav.cli import app
from servers.graphql_server import serve_moviedb
from test_agent import AUTH_HEADER, SDL_PATH, SECRET, closed_port_url

# movies 4 + title 4 + directors 4 + name 4 (each field once per item of the lists above it)
MOVIES = "query Movies { movies(first: 4) { title directors { name } } }\n"
MOVIES_NODES = 16
TYPO = "{ movies { titel } }\n"
MUTATION = 'mutation { addReview(input: {movieId: "movie-1", score: 4}) { id } }\n'


@pytest.fixture
def operation_file(workdir: Path, cache_dir: Path) -> Any:
    def write(text: str, name: str = "op.graphql") -> str:
        (workdir / name).write_text(text, encoding="utf-8")
        return name

    return write


def _run(command: str, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, [command, *args, "--schema", str(SDL_PATH)], input=stdin)


def _error_lines(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


def test_a_valid_operation_reports_its_cost_against_each_limit(operation_file: Any) -> None:
    result = _run("validate", operation_file(MOVIES))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "valid: the operation validates against the schema"
    depth, aliases, nodes = lines[1:4]
    assert depth.split()[:2] == ["depth", "3"] and "limit 12 (--max-depth)" in depth
    assert aliases.split()[:2] == ["aliases", "0"]
    assert nodes.split()[:3] == ["estimated", "nodes", str(MOVIES_NODES)]
    assert not _error_lines(result)


def test_graphql_core_errors_are_listed_and_one_error_line_says_what_to_do(
    operation_file: Any,
) -> None:
    result = _run("validate", operation_file(TYPO))
    assert result.exit_code == 2
    assert "- Cannot query field 'titel' on type 'Movie'. Did you mean 'title'?" in result.stdout
    assert _error_lines(result) == [
        "error: the operation does not validate against the schema (1 error); fix what the "
        "list above names and run it again"
    ]
    assert "Traceback" not in result.output


def test_an_operation_over_a_limit_is_refused_naming_the_limit(operation_file: Any) -> None:
    result = _run("validate", operation_file(MOVIES), "--max-nodes", "10")
    assert result.exit_code == 2
    assert f"{MOVIES_NODES}   limit 10 (--max-nodes)  OVER" in result.stdout
    assert _error_lines(result) == [
        f"error: refused: estimated nodes {MOVIES_NODES} is over the limit of 10 (max_nodes; "
        "--max-nodes or SCHEMANAV_MAX_NODES raises it): ask for fewer items (smaller first/last)"
    ]


def test_variables_count_as_page_sizes_and_a_bad_one_is_a_graphql_error(
    operation_file: Any,
) -> None:
    name = operation_file("query($n: Int) { movies(first: $n) { title } }\n")
    sized = _run("validate", name, "--variables", '{"n": 7}', "--json")
    assert sized.exit_code == 0, sized.output
    assert json.loads(sized.stdout)["cost"] == {"depth": 2, "aliases": 0, "nodes": 14}
    wrong = _run("validate", name, "--variables", '{"n": "seven"}')
    assert wrong.exit_code == 2
    assert "Int cannot represent non-integer value: 'seven'" in wrong.stdout


def test_json_holds_the_verdict_the_cost_and_the_limits(operation_file: Any) -> None:
    result = _run("validate", operation_file(MOVIES), "--json", "--max-depth", "2")
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert report["valid"] is False and report["executed"] is False
    assert report["cost"] == {"depth": 3, "aliases": 0, "nodes": MOVIES_NODES}
    assert report["limits"] == {"max_depth": 2, "max_aliases": 30, "max_nodes": 10_000}
    assert report["message"].startswith("refused: depth 3 is over the limit of 2 (max_depth;")
    assert len(_error_lines(result)) == 1


def test_the_operation_can_come_on_stdin(cache_dir: Path, workdir: Path) -> None:
    result = _run("validate", "-", stdin=MOVIES)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("valid:")


@pytest.mark.parametrize(
    ("args", "stdin", "expected"),
    [
        (["missing.graphql"], None, "error: missing.graphql: operation file not found"),
        (["-"], "   \n", "error: stdin: the operation is empty; write a query in it"),
        (["-"], "{ movies {", "error: syntax error at line 1, column 11: Syntax Error: Expected"),
        (["-"], MUTATION, "error: mutations are refused in this run"),
        (["-"], "{ a: movie(id: 1) { id } } { movies { id } }", "error: send exactly one"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(
    cache_dir: Path, workdir: Path, args: list[str], stdin: str | None, expected: str
) -> None:
    result = _run("validate", *args, stdin=stdin)
    assert result.exit_code == 2
    errors = _error_lines(result)
    assert len(errors) == 1 and errors[0].startswith(expected), result.stderr
    assert "Traceback" not in result.output


def test_bad_variables_are_refused_without_being_echoed(operation_file: Any) -> None:
    name = operation_file(MOVIES)
    for variables in (f'{{"token": "{SECRET}"', f'["{SECRET}"]'):
        result = _run("validate", name, "--variables", variables)
        assert result.exit_code == 2
        assert len(_error_lines(result)) == 1
        assert SECRET not in result.output


def test_execute_needs_an_endpoint(operation_file: Any) -> None:
    result = _run("execute", operation_file(MOVIES))
    assert result.exit_code == 2
    assert _error_lines(result) == [
        "error: execute needs the GraphQL URL to run the operation at: pass --endpoint URL "
        "(or set SCHEMANAV_ENDPOINT)"
    ]


@pytest.mark.slow
def test_execute_runs_a_valid_operation_at_the_endpoint_with_the_header(
    operation_file: Any,
) -> None:
    name = operation_file(MOVIES)
    with serve_moviedb(token=SECRET) as server:
        result = _run("execute", name, "--endpoint", server.url, "--header", AUTH_HEADER)
        assert result.exit_code == 0, result.output
        answer = json.loads(result.stdout)
        titles = [movie["title"] for movie in answer["data"]["movies"]]
        assert titles == [m["title"] for m in server.store.movies(None, 4)]
        assert server.last_request.headers["authorization"] == f"Bearer {SECRET}"
        assert server.last_request.body["query"] == MOVIES
    assert f"{MOVIES_NODES}   limit 10,000 (--max-nodes)" in result.stderr
    assert SECRET not in result.output


@pytest.mark.slow
def test_execute_sends_nothing_for_an_operation_the_checks_refuse(operation_file: Any) -> None:
    with serve_moviedb() as server:
        for text, extra in ((MOVIES, ["--max-depth", "2"]), (MUTATION, []), (TYPO, [])):
            result = _run("execute", operation_file(text), "--endpoint", server.url, *extra)
            assert result.exit_code == 2, result.output
            assert len(_error_lines(result)) == 1
        assert server.requests == []


@pytest.mark.slow
def test_an_endpoint_that_fails_exits_1_and_never_echoes_the_secret(
    operation_file: Any,
) -> None:
    name = operation_file(MOVIES)
    with serve_moviedb(token="another-token-entirely") as server:
        refused = _run("execute", name, "--endpoint", server.url, "--header", AUTH_HEADER)
    assert refused.exit_code == 1
    assert "missing or invalid bearer token" in refused.stdout
    assert _error_lines(refused) == [
        "error: the endpoint answered HTTP 401 (printed above); check --endpoint and --header"
    ]
    unreachable = _run("execute", name, "--endpoint", closed_port_url(), "--header", AUTH_HEADER)
    assert unreachable.exit_code == 1
    assert _error_lines(unreachable)[0].startswith("error: cannot reach the endpoint")
    for result in (refused, unreachable):
        assert SECRET not in result.output


@pytest.mark.parametrize(
    ("operation", "variables", "nodes"),
    [
        # the default counts when no value is supplied; a value supplied wins over it
        ("query Q($n: Int = 1000000) { movies(first: $n) { title } }", None, 2_000_000),
        ("query Q($n: Int = 1000000) { movies(first: $n) { title } }", '{"n": 3}', 6),
        # neither: the server's page, which the document does not say (UNKNOWN_PAGE, 100)
        ("query Q($n: Int) { movies(first: $n) { title } }", None, 200),
        ("query Q($n: Int) { movies(first: $n) { title } }", '{"n": null}', 200),
    ],
)
def test_a_variables_default_and_an_unset_page_count_in_the_estimate(
    operation_file: Any, operation: str, variables: str | None, nodes: int
) -> None:
    name = operation_file(operation + "\n")
    extra = ["--variables", variables] if variables else []
    result = _run("validate", name, "--json", "--max-nodes", "10000000", *extra)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["cost"]["nodes"] == nodes
    refused = _run("execute", name, "--endpoint", closed_port_url(), *extra)
    if nodes > 10_000:
        assert refused.exit_code == 2 and "estimated nodes" in refused.stderr, refused.output


@pytest.mark.slow
def test_fragments_spreading_each_other_twice_are_measured_in_linear_time(tmp_path: Path) -> None:
    """30 fragments, each spreading the next twice: 2^30 spreads if each is walked again (the
    child runs under a CPU limit, so the old walk fails here instead of spinning for hours)."""
    from test_hostile import cli

    lines = ["query Q { ...F0 }"]
    lines += [f"fragment F{i} on Query {{ ...F{i + 1} ...F{i + 1} }}" for i in range(30)]
    lines.append("fragment F30 on Query { movies { title } }")
    (tmp_path / "fan.graphql").write_text("\n".join(lines), encoding="utf-8")
    result = cli(tmp_path, "validate", "fan.graphql", "--schema", str(SDL_PATH), timeout=30)
    assert result.seconds < 20
    assert result.returncode == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: refused: estimated nodes 2,147,483,648 is over the limit of 10,000 (max_nodes; "
        "--max-nodes or SCHEMANAV_MAX_NODES raises it): ask for fewer items (smaller first/last)"
    ]
