"""The cost check on operations an agent writes (`schemanav.cost`): depth, aliases and the
estimated nodes, reported by validate and enforced by validate and execute in every front end."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from graphql import OperationDefinitionNode, parse

from schemanav.cost import CostLimits, operation_cost
from schemanav.navigator import Navigator
from schemanav.operations import validate_operation
from schemanav.servers.graphql_endpoint import SemanticEndpoint
from schemanav.servers.tools import ToolBox
from servers.graphql_server import serve_moviedb

DEEP = """
query Deep($n: Int) {
  movies(first: 4) {
    title
    reviews(first: $n) { score author { name reviews(first: 2) { score } } }
    ...Crew
  }
  again: movie(id: "movie-1") { t: title }
}
fragment Crew on Movie { directors { name } }
"""
MOVIES = """
query Movies($n: Int) {
  movies(first: $n) {
    title
    reviews { score author { username reviews { score } } }
    ...Crew
  }
  again: movie(id: "movie-1") { t: title }
  search(text: "moon", first: 4) { ... on Movie { title } }
}
fragment Crew on Movie { directors { name } }
"""


def _cost(text: str, variables: dict[str, Any] | None = None) -> Any:
    document = parse(text)
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    return operation_cost(document, operation, variables)


def test_depth_aliases_and_nodes_follow_fragments_and_nested_page_sizes() -> None:
    cost = _cost(DEEP, {"n": 3})
    assert cost.depth == 5  # movies > reviews > author > reviews > score
    assert cost.aliases == 2
    # movies 4, title 4, reviews 12, score 12, author 12, name 12, reviews 24, score 24,
    # directors 4, name 4, movie 1, title 1
    assert cost.nodes == 4 + 4 + 12 + 12 + 12 + 12 + 24 + 24 + 4 + 4 + 1 + 1
    # a variable with no value and no default is the server's page: UNKNOWN_PAGE items
    # (reviews, score, author, name 400 each; reviews, score 800)
    assert _cost(DEEP).nodes == 4 + 4 + 400 * 4 + 800 * 2 + 4 + 4 + 1 + 1


@pytest.mark.parametrize(
    ("limits", "words"),
    [
        (CostLimits(max_depth=4), "depth 5 is over the limit of 4 (max_depth; --max-depth"),
        (CostLimits(max_aliases=1), "aliases 2 is over the limit of 1 (max_aliases"),
        (CostLimits(max_nodes=39), "estimated nodes 40 is over the limit of 39 (max_nodes"),
    ],
)
def test_each_limit_refuses_by_name(moviedb_schema: Any, limits: CostLimits, words: str) -> None:
    outcome = validate_operation(moviedb_schema.schema, MOVIES, {"n": 3}, limits=limits)
    assert not outcome.ok and words in outcome.text, outcome.text


def test_validate_reports_the_cost_of_what_passes(moviedb_schema: Any) -> None:
    outcome = validate_operation(moviedb_schema.schema, MOVIES, {"n": 3})
    assert outcome.ok, outcome.text
    # movies and the 9 fields below it 3 times each, movie and title once, search and title 4
    assert outcome.text.endswith("(depth 5, 2 aliases, about 40 nodes)")


def test_the_limits_are_settings_and_bind_the_tools_and_serve(
    cache_dir: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMANAV_MAX_NODES", "30")
    with serve_moviedb() as upstream:
        navigator = Navigator.open(endpoint=upstream.url)
        tools = ToolBox(navigator)
        checked = tools.call("validate", {"operation": MOVIES, "variables": {"n": 3}})
        assert checked.data["valid"] is False and "max_nodes" in checked.text
        ran = tools.call("execute", {"operation": MOVIES, "variables": {"n": 3}})
        assert not ran.ok and "SCHEMANAV_MAX_NODES" in ran.text
        endpoint = SemanticEndpoint(navigator, upstream=upstream.url)
        answer = asyncio.run(endpoint.answer(MOVIES, {"n": 3}, "Movies"))
        assert "over the limit of 30" in answer["errors"][0]["message"]
        assert upstream.requests == [], "a refused operation never reaches the API"
        small = tools.call("execute", {"operation": '{ movie(id: "movie-3") { title } }'})
        assert small.ok and "Paper Moons" in small.text
