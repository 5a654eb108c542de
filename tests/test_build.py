"""`build_operation` (and `schemanav build`, the agent's buildQuery, listFields) on the bundled
Movie DB and the real GitHub schema, validated by graphql-core."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from graphql import GraphQLObjectType, GraphQLSchema, build_schema
from typer.testing import CliRunner

from schemanav.agent.tools import SchemaTools
from schemanav.bench.labelled import load_labelled
from schemanav.build import build_operation, field_coordinates, split_coordinates
from schemanav.cli import app
from schemanav.errors import InputError
from schemanav.retrieval import BlockSearch
from schemanav.schema import bundled_path, load_schema
from schemanav.tokens import count_tokens

GITHUB_TSV_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "wg" / "github"


@pytest.fixture(scope="module")
def moviedb() -> GraphQLSchema:
    return load_schema(str(bundled_path("moviedb.graphqls"))).schema


@pytest.fixture(scope="module")
def github(github_graphql_schema: GraphQLSchema) -> GraphQLSchema:
    return github_graphql_schema


@pytest.mark.slow
def test_a_path_becomes_a_nested_operation_with_typed_variables(github: GraphQLSchema) -> None:
    result = build_operation(
        github, ["Query.repository > Repository.pullRequests > PullRequest.title"]
    )
    assert result.operation == (
        "query($name: String!, $owner: String!) {\n"
        "  repository(name: $name, owner: $owner) {\n"
        "    pullRequests {\n"
        "      nodes {\n"
        "        title\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}"
    )
    assert [(v.name, v.type, v.argument) for v in result.variables] == [
        ("name", "String!", "Query.repository(name:)"),
        ("owner", "String!", "Query.repository(owner:)"),
    ]
    assert result.added == ("PullRequestConnection.nodes",)
    assert result.complete and result.errors == ()


@pytest.mark.slow
def test_interfaces_get_inline_fragments_and_fields_go_where_they_were_placed_last(
    github: GraphQLSchema,
) -> None:
    # The WG's first question, coordinates in label order: Commit.message belongs on the
    # history's nodes (a Commit, placed last), not on the `... on Commit` of the branch head.
    expected = [
        "Query.repository",
        "Repository.defaultBranchRef",
        "Ref.target",
        "Commit.history",
        "CommitHistoryConnection.nodes",
        "GitActor.name",
        "GitActor.email",
        "Commit.message",
    ]
    result = build_operation(github, expected, leaf_fields=1)
    assert "      target {\n        ... on Commit {\n          history {" in result.operation
    assert "nodes {\n              message\n              author {" in result.operation
    assert result.added == ("Commit.author",)
    assert result.complete
    assert set(expected) <= set(result.coordinates)


def test_object_ends_get_leaves_and_unions_get_typename(moviedb: GraphQLSchema) -> None:
    result = build_operation(moviedb, ["Query.movie", "Query.search"], leaf_fields=2)
    assert result.leaves == ("Movie.id", "Movie.title")
    assert "search(text: $text) {\n    __typename\n  }" in result.operation
    assert result.complete


@pytest.mark.slow
def test_optional_arguments_become_variables_when_named(github: GraphQLSchema) -> None:
    result = build_operation(
        github, ["Query.repository", "Commit.history(since:)", "Commit.history(first:)"]
    )
    assert ("since", "GitTimestamp", False) in [
        (v.name, v.type, v.required) for v in result.variables
    ]
    assert "history(first: $first, since: $since)" in result.operation
    assert result.complete


def test_colliding_argument_names_get_distinct_variables(moviedb: GraphQLSchema) -> None:
    result = build_operation(moviedb, ["Query.movie", "Query.person", "Person.name"])
    assert [v.name for v in result.variables] == ["id", "personId"]
    assert "person(id: $personId)" in result.operation
    assert result.complete


@pytest.mark.slow
def test_deprecated_field_is_swapped_for_the_replacement_its_reason_names(
    github: GraphQLSchema,
) -> None:
    result = build_operation(github, ["Query.repository", "Repository.issue", "Issue.timeline"])
    [fix] = result.auto_fixes
    assert (fix.coordinate, fix.replacement) == ("Issue.timeline", "Issue.timelineItems")
    assert "Use Issue.timelineItems instead" in fix.reason
    assert "timelineItems" in result.operation and "timeline {" not in result.operation
    assert result.complete and "Issue.timelineItems" in result.requested


@pytest.mark.slow
def test_deprecated_field_without_a_replacement_stays_with_a_warning(
    github: GraphQLSchema,
) -> None:
    result = build_operation(github, ["Query.repository", "Repository.object", "Commit.pushedDate"])
    assert result.auto_fixes == ()
    assert [w.split(" is ")[0] for w in result.warnings] == ["Commit.pushedDate"]
    assert "no replacement" in result.warnings[0]
    assert "pushedDate" in result.operation and result.complete


def test_mutations_build_as_mutations(moviedb: GraphQLSchema) -> None:
    result = build_operation(moviedb, ["Mutation.addReview", "Review.score"])
    assert result.operation.startswith("mutation($input: AddReviewInput!) {")
    assert result.complete


def test_the_root_most_coordinates_start_at_wins_and_the_rest_is_left_out(
    moviedb: GraphQLSchema,
) -> None:
    result = build_operation(moviedb, ["Query.movie", "Movie.title", "Mutation.addReview"])
    assert result.operation.startswith("query($id: ID!) {")
    assert result.missing == ("Mutation.addReview",) and not result.complete
    assert result.warnings == ("Mutation.addReview cannot be reached from Query; left out",)


@pytest.mark.parametrize(
    ("coordinates", "fragment"),
    [
        ([], "no coordinates"),
        (["Query.moviez"], "Query.moviez is not in the schema (did you mean Query.movie"),
        (["movies"], "'movies' is not a field coordinate"),
        (["Query.movie(idx:)"], "Query.movie(idx:) is not in the schema"),
    ],
)
def test_bad_coordinates_are_refused_with_what_to_fix(
    moviedb: GraphQLSchema, coordinates: list[str], fragment: str
) -> None:
    with pytest.raises(InputError, match=None) as raised:
        build_operation(moviedb, coordinates)
    assert fragment in raised.value.message


# Input objects as list filters build them: a condition per field, nested, recursive (`and`).
FILTERED_SDL = """
type Query { products(filter: ProductFilter, sort: [ProductSort!], first: Int): [Product!]! }
type Product { sku: String! name: String }
input ProductFilter { name: TextMatch, sku: TextMatch, and: [ProductFilter!] }
input TextMatch { eq: String, contains: String }
input ProductSort { field: String!, direction: Direction }
enum Direction { ASC, DESC }
input Unused { x: Int }
"""


@pytest.mark.parametrize("order", [1, -1])
def test_input_fields_are_carried_by_the_variables_whose_values_hold_them(
    order: int, tmp_path: Path, runner: CliRunner, cache_dir: Path
) -> None:
    """Named in either order, `TextMatch.contains` goes inside the `sku` the agent named too,
    not the first `TextMatch` a filter holds (`name`), and an enum value at a key of its type;
    each optional argument whose value carries one is declared, the others (`first`) are not."""
    inputs = ["ProductFilter.sku", "TextMatch.contains", "ProductSort.field", "Direction.DESC"]
    inputs = inputs[::order]
    result = build_operation(build_schema(FILTERED_SDL), ["Query.products", *inputs])
    assert result.operation.startswith("query($filter: ProductFilter, $sort: [ProductSort!]) {")
    assert "products(filter: $filter, sort: $sort) {" in result.operation
    carried = [sorted((c.coordinate, c.keys, c.value) for c in v.carries) for v in result.variables]
    assert carried == [
        [("ProductFilter.sku", ("sku",), None), ("TextMatch.contains", ("sku", "contains"), None)],
        [("Direction.DESC", ("direction",), "DESC"), ("ProductSort.field", ("field",), None)],
    ]
    assert result.complete and set(inputs) <= set(result.requested)
    assert "$filter: ProductFilter (Query.products(filter:)) holding filter.sku, " in (
        result.summary()
    )
    schema_file = tmp_path / "shop.graphqls"
    schema_file.write_text(FILTERED_SDL)
    shown = runner.invoke(app, ["build", "--schema", str(schema_file), "Query.products", *inputs])
    assert shown.exit_code == 0, shown.output
    assert "\n  $filter.sku.contains  (TextMatch.contains)\n" in shown.stderr
    assert "\n  $sort.direction = DESC  (Direction.DESC)\n" in shown.stderr


def test_an_input_field_no_argument_takes_is_left_out_or_refused_alone() -> None:
    schema = build_schema(FILTERED_SDL)
    result = build_operation(schema, ["Query.products", "Unused.x"])
    assert result.missing == ("Unused.x",) and not result.complete
    assert result.warnings[0].startswith("no argument of the operation takes Unused.x")
    for coordinates, fragment in [
        (["ProductFilter.sku"], "name the field whose argument takes it too"),
        (["Direction.ASC"], "name the field whose argument takes it too"),
        (["Query.products", "ProductFilter.sku(x:)"], "an input field takes no arguments"),
        (["Query.products", "Direction.ASC(x:)"], "an enum value takes no arguments"),
    ]:
        with pytest.raises(InputError) as raised:
            build_operation(schema, coordinates)
        assert fragment in raised.value.message


def test_split_coordinates_reads_paths_as_search_prints_them() -> None:
    assert split_coordinates(["Query.a > A.b → B.c, C.d", "A.b"]) == [
        "Query.a",
        "A.b",
        "B.c",
        "C.d",
    ]


@pytest.mark.slow
def test_field_coordinates_follow_fragments_and_count_interface_fields(
    github: GraphQLSchema,
) -> None:
    found = field_coordinates(
        github,
        'query { repository(owner: "o", name: "n") { id defaultBranchRef { target { '
        "... on Commit { oid } __typename } } } }",
    )
    repository = github.get_type("Repository")
    assert isinstance(repository, GraphQLObjectType)
    repository_interfaces = {f"{i.name}.id" for i in repository.interfaces if "id" in i.fields}
    assert {"Node.id", "PackageOwner.id"} <= repository_interfaces
    assert set(found) == {
        "Query.repository",
        "Repository.id",
        *repository_interfaces,
        "Repository.defaultBranchRef",
        "Ref.target",
        "Commit.oid",
        "GitObject.oid",
    }
    assert found[:2] == ("Query.repository", "Repository.id")


@pytest.mark.slow
def test_every_github_question_builds_from_its_expected_coordinates(
    github: GraphQLSchema, tmp_path: Path
) -> None:
    """The issue's target: ≥ 0.95 of the 200 questions yield a valid operation containing all
    their expected coordinates (measured: 200 of 200)."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[1] / "scripts" / "wg_to_tsv.py"
    subprocess.run(
        [
            sys.executable,
            str(script),
            "--src",
            str(GITHUB_TSV_SOURCE.parent),
            "--out-dir",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
    )
    questions = load_labelled(tmp_path / "benchmarks" / "github-wg.tsv")
    assert len(questions) == 200
    built = [build_operation(github, list(q.expected_coordinates)) for q in questions]
    whole = [
        r.valid and set(q.expected_coordinates) <= set(r.coordinates)
        for q, r in zip(questions, built, strict=True)
    ]
    assert sum(whole) / len(whole) >= 0.95


def test_build_command_prints_the_operation_and_exits_by_completeness(
    runner: CliRunner, cache_dir: Path, workdir: Path, user_error: Callable[..., str]
) -> None:
    result = runner.invoke(app, ["build", "Query.movies", "Movie.title", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["operation"] == "query {\n  movies {\n    title\n  }\n}"
    assert payload["complete"] is True and payload["coordinates"] == ["Query.movies", "Movie.title"]
    plain = runner.invoke(app, ["build", "Query.movie > Movie.title"])
    assert plain.stdout.startswith("query($id: ID!) {")
    assert "variable $id: ID!  (Query.movie(id:))" in plain.stderr
    user_error(runner.invoke(app, ["build", "Movie.titel"]), "Movie.titel is not in the schema")


def unused_search(query: str, budget: int) -> BlockSearch:
    """A search for navigate mode (every tool offered) in tests that never search."""
    raise AssertionError("this test does not search")


@pytest.mark.slow
def test_build_query_tool_and_list_fields_tool(github: GraphQLSchema) -> None:
    tools = SchemaTools(github, search=unused_search)
    built = tools.call("buildQuery", {"coordinates": "Query.viewer > User.login"})
    assert built.ok and built.text.startswith("query {\n  viewer {\n    login\n  }\n}")
    assert built.text.endswith("valid against the schema")
    unknown = tools.call("buildQuery", {"coordinates": ["Query.viewr"]})
    assert not unknown.ok and "did you mean Query.viewer" in unknown.text
    listed = tools.call("listFields", {"name": "Ref"})
    assert listed.ok
    assert listed.text.splitlines()[0] == "type Ref implements Node (required arguments only):"
    assert "  compare(headRef: String!): Comparison" in listed.text.splitlines()
    full = tools.call("introspectType", {"name": "Repository"})
    short = tools.call("listFields", {"name": "Repository"})
    assert count_tokens(short.text) * 4 < count_tokens(full.text)
    deprecated = tools.call("listFields", {"name": "Commit"}).text
    assert "  pushedDate: DateTime  DEPRECATED: `pushedDate` is no longer supported." in deprecated
    assert tools.call("listFields", {"name": "Nope"}).ok is False
