"""The tools both servers serve, in-process: token stamps, budgets, the tool list, the seams.

The protocol paths (MCP over stdio and HTTP, GraphQL over HTTP) are tested in
test_mcp_server.py and test_graphql_endpoint.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from schemanav.navigator import Navigator
from schemanav.servers.tools import SEARCH_SCHEMA, ToolBox, stamp
from schemanav.tokens import count_tokens

BOOKSHOP_SDL = """
type Query {
  "A shelf of the shop by its code."
  shelf(code: String!): Shelf
  orders(status: OrderStatus): [Order!]!
}
type Shelf { code: String! books: [Book!]! }
type Book { isbn: String! price: Float author: String }
type Order { id: ID! status: OrderStatus! books: [Book!]! }
enum OrderStatus { OPEN SHIPPED }
"""


@pytest.fixture
def movies(cache_dir: Path, workdir: Path) -> Navigator:
    return Navigator.open(endpoint="http://127.0.0.1:9/graphql")


@pytest.fixture
def bookshop(cache_dir: Path, workdir: Path) -> Navigator:
    path = workdir / "bookshop.graphql"
    path.write_text(BOOKSHOP_SDL, encoding="utf-8")
    return Navigator.open(str(path), endpoint="http://127.0.0.1:9/graphql")


@pytest.mark.parametrize("words", [0, 5, 400, 1500])
def test_stamp_states_the_exact_cost_of_the_whole_text(words: int) -> None:
    text = " ".join(f"word{i}" for i in range(words))
    stamped, tokens = stamp(text)
    assert stamped.startswith(text)
    assert stamped.endswith(f"[{tokens} tokens, o200k_base]")
    assert count_tokens(stamped) == tokens


def test_the_tool_list_is_the_same_whatever_the_schema(
    movies: Navigator, bookshop: Navigator
) -> None:
    movie_tools, shop_tools = ToolBox(movies), ToolBox(bookshop)
    assert [s.as_dict() for s in movie_tools.specs] == [s.as_dict() for s in shop_tools.specs]
    assert movie_tools.tool_list_tokens() == shop_tools.tool_list_tokens()
    listed = json.dumps([s.as_dict() for s in movie_tools.specs])
    words = set(re.findall(r"\w+", listed))
    for navigator in (movies, bookshop):
        named = {n for n in navigator.loaded.schema.type_map if not n.startswith("__")}
        named -= {"Query", "String", "Int", "Float", "Boolean", "ID"}
        assert not named & words, named & words


@pytest.mark.parametrize("budget", [20, 60, 150, 400])
def test_search_shows_the_ranked_prefix_that_fits_the_budget(
    movies: Navigator, budget: int
) -> None:
    tools = ToolBox(movies)
    output = tools.search_schema("who reviewed the movie and what score", budget)
    shown = output.data["hits"]
    ranked = movies.searcher().search("who reviewed the movie and what score", 44)
    assert [hit["coordinate"] for hit in shown] == [h.coordinate for h in ranked[: len(shown)]]
    spent = sum(hit["tokens"] for hit in shown)
    assert spent <= budget
    if len(shown) < len(ranked):
        following = ranked[len(shown)].block()
        assert spent + count_tokens(following) > budget
    assert output.tokens == count_tokens(output.text)


def test_a_budget_below_the_best_hit_says_so(movies: Navigator) -> None:
    output = ToolBox(movies).search_schema("rating of a movie", 1)
    assert output.ok and output.data["hits"] == []
    assert "does not fit the budget of 1 tokens" in output.text


def test_unknown_tools_and_wordless_queries_are_tool_errors(movies: Navigator) -> None:
    tools = ToolBox(movies)
    unknown = tools.call("introspect", {})
    assert not unknown.ok
    assert "the tools are search_schema, define, validate, execute" in unknown.text
    wordless = tools.call(SEARCH_SCHEMA, {"query": "?!"})
    assert not wordless.ok and "no words to search for" in wordless.text
    budget = tools.call(SEARCH_SCHEMA, {"query": "rating", "budget": True})
    assert "must be an integer, not bool" in budget.text


def test_execute_is_offered_only_with_an_endpoint(cache_dir: Path, workdir: Path) -> None:
    names = [spec.name for spec in ToolBox(Navigator.open()).specs]
    assert names == ["search_schema", "define", "validate"]


def test_slice_output_is_the_navigators_slice(movies: Navigator) -> None:
    """`output: "slice"` answers with what `search --slice` prints: the navigator's slice of
    the question within the budget, priced like every result."""
    tools = ToolBox(movies)
    assert tools.specs[0].input_schema["properties"]["output"]["enum"] == ["list", "slice"]
    output = tools.call(SEARCH_SCHEMA, {"query": "movie rating", "budget": 120, "output": "slice"})
    expected = movies.slice("movie rating", budget=120)
    assert output.ok and output.text.startswith(expected.sdl.rstrip("\n"))
    assert "Movie" in expected.types and expected.tokens <= 120
    asked: list[tuple[str, int]] = []

    def slicer(question: str, budget: int) -> str:
        asked.append((question, budget))
        return "type Query { movies: [Movie!]! }\ntype Movie { rating: Float }"

    sliced = ToolBox(movies, slicer=slicer)
    output = sliced.call(SEARCH_SCHEMA, {"query": "rating", "budget": 80, "output": "slice"})
    assert output.ok and output.text.startswith("type Query { movies")
    assert asked == [("rating", 80)]
