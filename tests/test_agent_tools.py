"""The agent's tools on their own: what searchSchema shows, what introspectType prints, how
executeGraphql validates (on the GitHub schema too), and that secrets are redacted."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemanav.agent.tools import SchemaTools
from schemanav.corpus import Corpus, Format
from schemanav.operations import VALIDATION_HINT, Redactor
from schemanav.retrieval import BackendContext, SearchHit, search_blocks
from schemanav.retrieval.base import MIN_BLOCK_DEPTH, TOKENS_PER_HIT
from schemanav.retrieval.pipeline import create_backend
from schemanav.schema import LoadedSchema
from schemanav.settings import load_settings
from schemanav.tokens import count_tokens

PR_OPERATION = (
    'query { repository(owner: "o", name: "n") { pullRequests(first: 5, states: OPEN) '
    "{ edges { node { title author { login } } } } } }"
)


class RankedHits:
    """A backend answering with fixed hits, to pin down how searchSchema lays them out."""

    name = "fixed"

    def __init__(self, hits: list[SearchHit]) -> None:
        self.hits = hits
        self.asked: list[tuple[str, int]] = []

    def index(self, corpus: object) -> None:
        pass

    def search(self, query: str, k: int) -> list[SearchHit]:
        self.asked.append((query, k))
        return self.hits[:k]


def test_search_fills_the_budget_in_rank_order_and_shows_paths_to_root(
    moviedb_schema: LoadedSchema,
) -> None:
    hits = [
        SearchHit(
            "Movie.directors",
            "Movie.directors - the directors of a movie",
            2.0,
            1,
            40,
            (("Query.movie", "Movie.directors"), ("Query.movies", "Movie.directors"), ("x",)),
        ),
        SearchHit("Person.name", "name: String!  # on type Person", 1.5, 2, 50),
        SearchHit("Person.id", "Person.id - the id of a person", 1.0, 3, 30),
    ]
    blocks = [
        "Movie.directors - the directors of a movie\n"
        "   from the root: Query.movie > Movie.directors\n"
        "   from the root: Query.movies > Movie.directors",
        "Person.name: name: String!  # on type Person",
        "Person.id - the id of a person",
    ]
    # The budget covers each hit's whole block, its paths from the root included: exactly
    # the first two blocks fit, the third would exceed it by one token.
    budget = count_tokens(blocks[0]) + count_tokens(blocks[1]) + count_tokens(blocks[2]) - 1
    backend = RankedHits(hits)
    tools = SchemaTools(
        moviedb_schema.schema,
        search=lambda q, b: search_blocks(backend, q, b, size=44, max_paths=2),
        search_budget=budget,
    )
    result = tools.call("searchSchema", {"query": "who directed"})
    assert result.ok
    # A few dozen hits first (one per 20 budget tokens, at least 8); three came, so no more.
    assert backend.asked == [("who directed", max(MIN_BLOCK_DEPTH, budget // TOKENS_PER_HIT + 1))]
    spent = count_tokens(blocks[0]) + count_tokens(blocks[1])
    assert result.text == "\n".join(
        [f"2 hits ({spent} of {budget} budget tokens), best first:", blocks[0], blocks[1]]
    )
    assert count_tokens(result.text) > spent  # the header line is not part of the budget


def test_search_with_the_real_backend_stays_within_the_budget(
    moviedb_schema: LoadedSchema, moviedb_corpus: Corpus, tmp_path: Path
) -> None:
    settings = load_settings(cache_dir=str(tmp_path))
    corpus = moviedb_corpus
    backend = create_backend("bm25", BackendContext(Format.DOT_PLUS_GLOSS, settings.cache_dir))
    searcher = backend.index(corpus)
    tools = SchemaTools(
        moviedb_schema.schema,
        search=lambda q, b: search_blocks(searcher, q, b, size=len(corpus)),
        search_budget=40,
    )
    lines = tools.search_schema("review score").text.splitlines()
    shown = lines[1:]
    texts = dict(
        zip(
            corpus.texts(Format.DOT_PLUS_GLOSS),
            corpus.token_counts(Format.DOT_PLUS_GLOSS),
            strict=True,
        )
    )
    assert shown and all(text in texts for text in shown)
    assert sum(texts[text] for text in shown) <= 40
    assert "Review.score - the score of a review" in shown
    nothing = tools.search_schema("!!!")
    assert nothing.ok and nothing.text.startswith("no field matches '!!!'")


def test_introspect_prints_the_full_definition(moviedb_schema: LoadedSchema) -> None:
    tools = SchemaTools(moviedb_schema.schema, search=None)
    query = tools.introspect_type("Query").text
    assert '"""The largest number of movies to return."""\n    first: Int = 20' in query
    assert "movie(\n" in query and "id: ID!" in query
    assert tools.introspect_type("Movie").text.startswith(
        '"""A feature film in the catalog."""\ntype Movie implements Node {'
    )
    assert (
        "union SearchResult = Movie | Person | Studio" in tools.introspect_type("SearchResult").text
    )
    assert "\n  DRAMA\n" in tools.introspect_type("Genre").text
    assert tools.introspect_type("MovieFilter").text.startswith('"""')
    assert "input MovieFilter {" in tools.introspect_type("[MovieFilter!]!").text
    assert "type Movie implements Node" in tools.introspect_type("Movie.title").text


def test_unknown_type_lists_the_closest_names(moviedb_schema: LoadedSchema) -> None:
    tools = SchemaTools(moviedb_schema.schema, search=None)
    typo = tools.introspect_type("Moive")
    assert not typo.ok
    assert typo.text.startswith("unknown type 'Moive'; the closest type names are: Movie")
    assert tools.introspect_type("movie").text.endswith("are: Movie")
    far = tools.introspect_type("Xylophone")
    assert not far.ok and "searchSchema" in far.text


def test_variables_are_checked_against_their_declared_types(moviedb_schema: LoadedSchema) -> None:
    tools = SchemaTools(moviedb_schema.schema, search=None)
    query = "query M($id: ID!) { movie(id: $id) { title } }"
    assert tools.execute_graphql(query, {"id": "movie-1"}).ok
    missing = tools.execute_graphql(query, {})
    assert not missing.ok
    assert "- Variable '$id'" in missing.text and "'ID!'" in missing.text
    assert missing.text.endswith(f"Hint: {VALIDATION_HINT}.")
    as_text = tools.call("executeGraphql", {"query": query, "variables": '{"id": "movie-2"}'})
    assert as_text.ok
    syntax = tools.execute_graphql("{ movies { title }", None)
    assert not syntax.ok and syntax.text.startswith("syntax error at line 1, column 19:")
    two = tools.execute_graphql("query A { movies { title } } query B { movies { id } }", None)
    assert two.text == "send exactly one operation per call (this document has 2)"


@pytest.mark.slow
def test_the_github_pull_request_operation_validates(github_schema: LoadedSchema) -> None:
    tools = SchemaTools(github_schema.schema, search=None)
    result = tools.execute_graphql(PR_OPERATION, None)
    assert result.ok, result.text
    assert "validates against the schema" in result.text


@pytest.mark.slow
def test_a_misspelt_github_field_gets_a_compact_did_you_mean(github_schema: LoadedSchema) -> None:
    tools = SchemaTools(github_schema.schema, search=None)
    result = tools.execute_graphql(PR_OPERATION.replace("title", "titel"), None)
    assert not result.ok
    lines = result.text.splitlines()
    assert lines[0] == "invalid operation (1 error):"
    assert lines[1].startswith("- Cannot query field 'titel' on type 'PullRequest'. Did you mean")
    assert "'title'" in lines[1]
    assert lines[2] == f"Hint: {VALIDATION_HINT}."
    assert len(result.text) < 300


@pytest.mark.slow
def test_github_introspection_shows_deprecations(github_schema: LoadedSchema) -> None:
    from graphql import GraphQLObjectType

    tools = SchemaTools(github_schema.schema, search=None)
    deprecated = next(
        (name, field_name)
        for name, graphql_type in github_schema.schema.type_map.items()
        if isinstance(graphql_type, GraphQLObjectType)
        for field_name, field in graphql_type.fields.items()
        if field.deprecation_reason
    )
    text = tools.introspect_type(deprecated[0]).text
    assert "@deprecated(reason:" in text


def test_redactor_hides_whole_values_and_bare_credentials() -> None:
    redact = Redactor({"Authorization": "Bearer abcd1234efgh", "X-Debug": "1"})
    assert redact("Bearer abcd1234efgh and abcd1234efgh, 1 2 3") == (
        "[redacted] and [redacted], 1 2 3"
    )


def test_prompts_and_tool_definitions_name_no_type_of_the_bundled_schema(
    moviedb_schema: LoadedSchema,
) -> None:
    """A measurement tool must not leak its demo schema into the model's context: no prompt,
    tool definition or argument hint names a type of the bundled Movie DB."""
    import json
    import re

    from schemanav.agent import prompts

    builtin_scalars = {"String", "Int", "Float", "Boolean", "ID"}
    type_names = [
        name
        for name in moviedb_schema.schema.type_map
        if not name.startswith("__") and name not in builtin_scalars
    ]
    assert {"Query", "Movie", "MovieFilter"} <= set(type_names)
    assert (
        "such as"
        in SchemaTools(moviedb_schema.schema, search=None)
        .call("executeGraphql", "{not json")
        .text
    )

    class NoHits:
        name = "none"

        def search(self, query: str, k: int) -> list[SearchHit]:
            return []

    tools = SchemaTools(
        moviedb_schema.schema, search=lambda q, b: search_blocks(NoHits(), q, b, size=0)
    )
    malformed: tuple[str | dict[str, str], ...] = ("{not json", "[]", {})
    hints = [tools.call(name, arguments).text for name in tools.names for arguments in malformed]
    texts = [
        prompts.NAVIGATE_SYSTEM_PROMPT,
        prompts.inline_system_prompt(""),
        json.dumps(prompts.tool_definitions(inline=False)),
        json.dumps(prompts.tool_definitions(inline=True)),
        *hints,
    ]
    for text in texts:
        leaked = [name for name in type_names if re.search(rf"\b{name}\b", text)]
        assert leaked == [], (leaked, text)
