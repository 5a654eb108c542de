"""Schema slices: each mechanism worked by hand on a tiny schema, then properties on GitHub.

The properties: every slice parses and is a valid schema; a reference operation whose
coordinates are all in a slice validates against it; and operations built from a slice's
own fields validate against the full schema too (a slice never allows what the schema
forbids).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from graphql import (
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLSchema,
    TypeInfo,
    TypeInfoVisitor,
    Visitor,
    build_schema,
    get_named_type,
    is_abstract_type,
    is_leaf_type,
    parse,
    validate,
    visit,
)
from graphql.type import validate_schema

from schemanav.corpus import build_corpus
from schemanav.retrieval.slicing import EMPTY_SLICE, SchemaSlice, SliceParams, Slicer

# The named types that have fields.
FIELDED_TYPES = (GraphQLObjectType, GraphQLInterfaceType, GraphQLInputObjectType)

TINY_SDL = """
type Query {
  shop(handle: String!): Shop
  order(id: ID!): Order
  orders(first: Int, after: String, status: OrderStatus, sort: OrderSort): OrderConnection!
  node(id: ID!): Node
  search(text: String!): [SearchResult!]!
}

type Mutation {
  cancelOrder(input: CancelOrderInput!): Order
}

interface Node {
  id: ID!
}

type Shop implements Node {
  id: ID!
  name: String!
  owner: Customer
}

type Order implements Node {
  id: ID!
  number: Int!
  status: OrderStatus!
  total: Float
  customer: Customer
}

type Customer implements Node {
  id: ID!
  email: String
  orders(first: Int): OrderConnection!
}

type OrderConnection {
  edges: [OrderEdge]
  nodes: [Order]
  pageInfo: PageInfo!
  totalCount: Int!
}

type OrderEdge {
  cursor: String!
  node: Order
}

type PageInfo {
  hasNextPage: Boolean!
  endCursor: String
}

union SearchResult = Shop | Order | Customer

enum OrderStatus {
  OPEN
  FULFILLED
  CANCELLED
}

input OrderSort {
  field: OrderSortField!
  descending: Boolean = false
  note: String
}

enum OrderSortField {
  NUMBER
  TOTAL
}

type Refund implements Node {
  id: ID!
  amount: Float
}

input CancelOrderInput {
  orderId: ID!
  reason: String
}
"""


def words(text: str) -> list[str]:
    """A stand-in for the stemmer: camelCase and snake_case split, lower-cased."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ")
    return [w.lower() for w in re.findall(r"[A-Za-z]+", spaced)]


@pytest.fixture(scope="module")
def tiny() -> tuple[GraphQLSchema, Slicer]:
    schema = build_schema(TINY_SDL)
    return schema, Slicer.of(schema, build_corpus(schema), words=words)


def valid(sdl: str) -> GraphQLSchema:
    schema = build_schema(sdl)
    assert validate_schema(schema) == [], sdl
    return schema


def test_a_hit_brings_its_path_from_the_root_and_required_arguments(tiny: Any) -> None:
    _, slicer = tiny
    piece = slicer.from_ranked(["Customer.email"], 1000)
    valid(piece.sdl)
    # A cheapest way in (two hops): Query.shop → Shop.owner or Query.order → Order.customer.
    ways = [("Query.shop", "Shop.owner", "Query.shop(handle:)", "Shop"),
            ("Query.order", "Order.customer", "Query.order(id:)", "Order")]  # fmt: skip
    way = next(w for w in ways if w[0] in piece.fields)
    assert {way[0], way[1], "Customer.email"} <= piece.coordinates
    assert way[2] in piece.arguments  # required: always shown
    assert {"Query", way[3], "Customer"} <= set(piece.types)


def test_optional_arguments_are_shown_when_they_select(tiny: Any) -> None:
    schema, tiny_slicer = tiny
    params = SliceParams(top_arguments=0)
    slicer = Slicer.of(schema, tiny_slicer.corpus, params=params, words=words)
    piece = slicer.from_ranked(["Query.orders"], 1000, "open orders by total")
    # `first` pages a connection; `status` is named by the question through its enum value
    # OPEN; `sort` through its input field names? no: `sort` has `field`, `descending`,
    # `note` — none named — and `after` is not named either.
    assert "Query.orders(first:)" in piece.arguments
    assert "Query.orders(status:)" in piece.arguments
    assert "Query.orders(after:)" not in piece.arguments
    assert "Query.orders(sort:)" not in piece.arguments
    everything = Slicer(slicer.schema_facts, slicer.corpus, params=SliceParams(arguments="all"))
    assert "Query.orders(after:)" in everything.from_ranked(["Query.orders"], 1000).arguments


def test_argument_types_come_with_required_input_fields_and_all_enum_values(tiny: Any) -> None:
    _, slicer = tiny
    piece = slicer.from_ranked(["Query.orders"], 1000, "orders sorted descending")
    schema = valid(piece.sdl)
    sort = schema.type_map["OrderSort"]
    assert set(sort.fields) == {"field", "descending"}  # type: ignore[attr-defined]
    assert set(schema.type_map["OrderSortField"].values) == {"NUMBER", "TOTAL"}  # type: ignore[attr-defined]


def test_an_output_enum_shows_the_values_the_question_names(tiny: Any) -> None:
    _, slicer = tiny
    piece = slicer.from_ranked(["Order.status"], 1000, "is it cancelled")
    schema = valid(piece.sdl)
    assert list(schema.type_map["OrderStatus"].values) == ["CANCELLED"]  # type: ignore[attr-defined]


def test_a_new_object_type_brings_its_best_leaves(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    one = Slicer.of(schema, corpus, params=SliceParams(leaves=1, labels=0))
    piece = one.from_ranked(["Query.shop"], 1000)
    assert [f for f in piece.fields if f.startswith("Shop.")] == ["Shop.id"]
    two = Slicer.of(schema, corpus, params=SliceParams(leaves=2, labels=0))
    piece = two.from_ranked(["Query.shop"], 1000)
    assert [f for f in piece.fields if f.startswith("Shop.")] == ["Shop.id", "Shop.name"]


def test_connections_get_a_page_size_and_optionally_their_extras(tiny: Any) -> None:
    schema, slicer = tiny
    piece = slicer.from_ranked(["Query.orders", "Query.order"], 1000)
    assert "Query.orders(first:)" in piece.arguments  # returns a connection
    assert "Query.order(id:)" in piece.arguments and "Query.order(first:)" not in piece.arguments
    assert "OrderConnection.pageInfo" not in piece.fields
    extras = Slicer.of(schema, slicer.corpus, params=SliceParams(connection_extras=True))
    piece = extras.from_ranked(["Query.orders"], 1000)
    valid(piece.sdl)
    assert {"OrderConnection.totalCount", "OrderConnection.pageInfo"} <= piece.coordinates
    assert "PageInfo" in piece.types


def test_interfaces_are_declared_only_when_a_path_passes_through_them(tiny: Any) -> None:
    schema, _ = tiny
    plain = Slicer.of(schema, build_corpus(schema), params=SliceParams(leaves=1))
    piece = plain.from_ranked(["Query.shop", "Shop.name"], 1000)
    assert "implements" not in piece.sdl and "Node" not in piece.types
    # Refund is reached only through node(id:) → Node: it implements Node and carries id.
    through = plain.from_ranked(["Refund.amount"], 1000)
    sliced = valid(through.sdl)
    assert [i.name for i in sliced.type_map["Refund"].interfaces] == ["Node"]  # type: ignore[attr-defined]
    assert {"Query.node", "Node.id", "Refund.id", "Refund.amount"} <= through.coordinates
    assert {t.name for t in sliced.get_possible_types(sliced.type_map["Node"])} == {"Refund"}  # type: ignore[arg-type]


def test_unions_keep_only_members_in_the_slice(tiny: Any) -> None:
    _, slicer = tiny
    piece = slicer.from_ranked(["Query.search", "Customer.email"], 1000, "search customers")
    schema = valid(piece.sdl)
    members = {t.name for t in schema.type_map["SearchResult"].types}  # type: ignore[attr-defined]
    assert "Customer" in members and members <= {"Shop", "Order", "Customer"}
    assert "Shop" not in members or "Shop" in piece.types


def test_writes_only_when_one_ranks_among_the_first_hits(tiny: Any) -> None:
    _, slicer = tiny
    late = slicer.from_ranked(
        ["Query.shop", "Shop.name", "Order.total", "Mutation.cancelOrder"], 1000
    )
    assert "Mutation.cancelOrder" not in late.fields
    early = slicer.from_ranked(["Mutation.cancelOrder", "Query.order"], 1000)
    schema = valid(early.sdl)
    assert schema.mutation_type is not None and "Query.order" in early.fields
    assert set(schema.type_map["CancelOrderInput"].fields) == {"orderId"}  # type: ignore[attr-defined]


def test_the_budget_is_never_exceeded_and_grows_the_slice(tiny: Any) -> None:
    _, slicer = tiny
    ranked = list(slicer.corpus.coordinates)
    sizes = []
    for budget in (30, 60, 120, 400):
        piece = slicer.from_ranked(ranked, budget)
        assert piece.tokens <= budget
        if piece.sdl:
            valid(piece.sdl)
        sizes.append(len(piece.coordinates))
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0]
    assert slicer.from_ranked(ranked, 5) == EMPTY_SLICE


def test_scores_and_ranked_lists_agree_on_order(tiny: Any) -> None:
    _, slicer = tiny
    scores = [0.0] * len(slicer.corpus)
    scores[slicer.corpus.coordinates.index("Order.total")] = 2.0
    scores[slicer.corpus.coordinates.index("Query.order")] = 1.0
    by_scores = slicer.from_scores(scores, 1000)
    by_rank = slicer.from_ranked(["Order.total", "Query.order"], 1000)
    assert by_scores.fields == by_rank.fields


# --- properties on the GitHub slice --------------------------------------------------------


def _load_wg_to_tsv() -> Any:
    path = Path(__file__).resolve().parents[1] / "scripts" / "wg_to_tsv.py"
    spec = importlib.util.spec_from_file_location("wg_to_tsv", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["wg_to_tsv"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def github(github_schema_path: Path) -> dict[str, Any]:
    from schemanav.corpus import Format
    from schemanav.retrieval.structural import StructuralBackend

    schema = build_schema(github_schema_path.read_text(encoding="utf-8"))
    # The snapshot breaks one rule newer graphql-core checks (an implementation field is
    # deprecated where its interface field is not); operations are still checked against it.
    schema._validation_errors = []
    corpus = build_corpus(schema)
    searcher = StructuralBackend(Format.RAW, max_paths=0).index(corpus)
    slicer = Slicer.of(schema, corpus, searcher.graph, words=searcher.stem)
    wg = _load_wg_to_tsv()
    questions = []
    # Every third question keeps the test fast; the experiments script checks all 200.
    for path in sorted((github_schema_path.parent / "queries").glob("gh-ext-*.yaml"))[::3]:
        record = wg.parse_yaml_subset(path.read_text(encoding="utf-8"), str(path))
        questions.append((" ".join(record["query"].split()), record.get("operation")))
    slices = [
        slicer.from_scores(searcher.search_scores(question), 3000, question)
        for question, _ in questions
    ]
    return {"schema": schema, "questions": questions, "slices": slices, "slicer": slicer}


def _used_coordinates(schema: GraphQLSchema, operation: str) -> set[str]:
    """Every field and argument coordinate an operation uses, resolved against `schema`."""
    info = TypeInfo(schema)
    used: set[str] = set()

    class Collect(Visitor):
        def enter_field(self, node: Any, *_: Any) -> None:
            parent, definition = info.get_parent_type(), info.get_field_def()
            if parent is None or definition is None or node.name.value.startswith("__"):
                return
            coordinate = f"{parent.name}.{node.name.value}"
            used.add(coordinate)
            used.update(f"{coordinate}({a.name.value}:)" for a in node.arguments or ())

    visit(parse(operation), TypeInfoVisitor(info, Collect()))
    return used


def _operations_from(sliced: GraphQLSchema, depth: int = 2) -> list[str]:
    """One query per root field of the slice: every field it reaches, down to `depth`,
    required arguments as variables, fragments on every possible type of abstract types."""
    variables: list[str] = []
    counter = itertools.count()

    def selection(type_: Any, level: int, seen: frozenset[str]) -> str:
        named = get_named_type(type_)
        if is_leaf_type(named):
            return ""
        if is_abstract_type(named):
            parts = [
                f"... on {t.name} {selection(t, level, seen)}"
                for t in sliced.get_possible_types(named)
            ]
            return "{ __typename " + " ".join(parts) + " }"
        fields = []
        for name, definition in named.fields.items():
            inner_type = get_named_type(definition.type)
            if not is_leaf_type(inner_type) and (level >= depth or inner_type.name in seen):
                continue
            arguments = []
            for argument_name, argument in definition.args.items():
                variable = f"v{len(variables)}"
                variables.append(f"${variable}: {argument.type}")
                arguments.append(f"{argument_name}: ${variable}")
            alias = f"a{next(counter)}: "  # unique, so fragments never conflict
            head = alias + (f"{name}({', '.join(arguments)})" if arguments else name)
            inner = selection(definition.type, level + 1, seen | {named.name})
            if is_leaf_type(inner_type) or inner.strip("{ }"):
                fields.append(f"{head} {inner}".strip())
        return "{ " + " ".join(fields or ["__typename"]) + " }"

    assert sliced.query_type is not None
    return [
        selection_for_root(sliced, name, variables, selection) for name in sliced.query_type.fields
    ]


def selection_for_root(
    sliced: GraphQLSchema, name: str, variables: list[str], selection: Any
) -> str:
    variables.clear()
    assert sliced.query_type is not None
    definition = sliced.query_type.fields[name]
    arguments = []
    for argument_name, argument in definition.args.items():
        variable = f"v{len(variables)}"
        variables.append(f"${variable}: {argument.type}")
        arguments.append(f"{argument_name}: ${variable}")
    head = f"{name}({', '.join(arguments)})" if arguments else name
    inner = selection(definition.type, 1, frozenset({sliced.query_type.name}))
    declared = f"({', '.join(variables)})" if variables else ""
    return f"query Q{declared} {{ {head} {inner} }}"


def test_every_github_slice_is_a_valid_schema_within_budget(github: dict[str, Any]) -> None:
    for piece in github["slices"]:
        assert isinstance(piece, SchemaSlice) and 0 < piece.tokens <= 3000
        valid(piece.sdl)


def test_no_line_of_a_field_costs_less_than_its_line_without_arguments(
    github: dict[str, Any], tiny: Any
) -> None:
    """The fill turns a hit away once even its line without arguments would not fit
    (`Slicer.bare_line_costs`): exact only while showing arguments never makes a line cheaper.
    Checked for each field's required arguments, each argument alone and all of them."""
    from schemanav.schema import bundled_path, load_schema
    from schemanav.tokens import count_tokens

    movies = load_schema(str(bundled_path("moviedb.graphqls"))).schema
    checked = 0
    for slicer in (github["slicer"], tiny[1], Slicer.of(movies, build_corpus(movies))):
        for position, (owner, name) in enumerate(slicer.names):
            facts = slicer.facts[owner][name]
            shown = {facts.required, facts.arguments, *((a,) for a in facts.arguments)} - {()}
            for arguments in shown:
                line = slicer.field_line(owner, name, arguments)
                assert count_tokens(line) >= slicer.bare_line_costs[position], line
                checked += 1
    assert checked > 2000  # GitHub alone has about 2,700 such lines


def test_reference_operations_validate_against_slices_that_hold_them(
    github: dict[str, Any],
) -> None:
    full = github["schema"]
    held = 0
    for (_, operation), piece in zip(github["questions"], github["slices"], strict=True):
        if not operation:
            continue
        assert validate(full, parse(operation)) == []
        if _used_coordinates(full, operation) <= piece.coordinates:
            held += 1
            assert validate(valid(piece.sdl), parse(operation)) == [], operation
    assert held >= 10  # the property is exercised, not vacuous


def test_operations_built_from_a_slice_validate_against_the_full_schema(
    github: dict[str, Any],
) -> None:
    full = github["schema"]
    for piece in github["slices"][::8]:
        sliced = valid(piece.sdl)
        for operation in _operations_from(sliced):
            document = parse(operation)
            assert validate(sliced, document) == [], operation
            assert validate(full, document) == [], operation


def test_search_slice_prints_sdl_that_is_a_piece_of_the_schema(cache_dir: Path) -> None:
    """`search --slice` through the CLI: valid SDL whose every field exists, with the same
    signature, in the full schema, and a last line that says what it cost."""
    from typer.testing import CliRunner

    from schemanav.cli import app
    from schemanav.schema import bundled_path

    result = CliRunner().invoke(
        app, ["search", "movies with a high rating", "--slice", "--budget", "120"]
    )
    assert result.exit_code == 0, result.stderr
    *sdl_lines, summary = result.stdout.rstrip("\n").splitlines()
    assert summary.startswith("# slice: ") and "of 120 tokens (o200k_base)" in summary
    piece = build_schema("\n".join(sdl_lines))
    full = build_schema(bundled_path("moviedb.graphqls").read_text(encoding="utf-8"))
    query = piece.query_type
    assert query is not None and "movies" in query.fields
    for name, named in piece.type_map.items():
        if name.startswith("__") or not isinstance(named, FIELDED_TYPES) or not named.fields:
            continue
        whole = full.type_map[name]
        assert isinstance(whole, FIELDED_TYPES), name
        for field_name, field_def in named.fields.items():
            assert str(field_def.type) == str(whole.fields[field_name].type), (name, field_name)
    # A later process slices the schema rebuilt from the introspection JSON the first one
    # cached, not a parse: the same slice, to the byte.
    (kept,) = (cache_dir / "define").glob("*/schema.json")
    again = CliRunner().invoke(
        app, ["search", "movies with a high rating", "--slice", "--budget", "120"]
    )
    assert again.exit_code == 0 and again.stdout == result.stdout
    assert kept.stat().st_size > 0



def test_a_new_type_brings_the_leaves_that_identify_its_objects(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    # `order(id: ID!)` selects one Order by `id`, so `Order.id` names an order in answers.
    named = Slicer.of(schema, corpus, params=SliceParams(leaves=1))
    assert {"Order.total", "Order.id"} <= named.from_ranked(["Order.total"], 1000).coordinates
    plain = Slicer.of(schema, corpus, params=SliceParams(leaves=1, identifiers=False))
    order = [f for f in plain.from_ranked(["Order.total"], 1000).fields if f.startswith("Order.")]
    assert order == ["Order.total"]


def test_cheap_hits_past_the_first_that_does_not_fit_still_go_in(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    params = SliceParams(leaves=1, identifiers=False, fill_depth=2, reserve=0, connectives="off")
    filled = Slicer.of(schema, corpus, params=params)
    budget = filled.from_ranked(["Query.order", "Order.total", "Order.number"], 1000).tokens
    # Query.search brings a union and its members: it does not fit; Order.number (one line
    # on a type already in) still does, and is two hits further down.
    ranked = ["Query.order", "Query.search", "Order.total", "Order.number"]
    piece = filled.from_ranked(ranked, budget)
    assert piece.tokens <= budget and "Order.number" in piece.fields
    assert "Query.search" not in piece.fields
    strict = Slicer.of(schema, corpus, params=dataclasses.replace(params, fill_depth=0))
    assert "Order.number" not in strict.from_ranked(ranked, budget).fields


def test_a_type_is_entered_the_way_that_adds_fewest_new_fields(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    shared = Slicer.of(schema, corpus, params=SliceParams(leaves=1))
    # Customer is two hops from the root either way (the schema's cheapest way goes through
    # Query.order); Shop is in already, so the way through Shop.owner adds one field.
    piece = shared.from_ranked(["Query.shop", "Customer.email"], 1000)
    assert "Shop.owner" in piece.fields and "Query.order" not in piece.fields
    static = Slicer.of(schema, corpus, params=SliceParams(leaves=1, shared_routes=False))
    assert "Query.order" in static.from_ranked(["Query.shop", "Customer.email"], 1000).fields


def test_a_connection_shows_its_nodes_once_the_node_type_is_in(tiny: Any) -> None:
    schema, tiny_slicer = tiny
    slicer = Slicer.of(schema, tiny_slicer.corpus, params=SliceParams(connection_nodes="known"))
    alone = slicer.from_ranked(["Query.orders"], 1000)
    assert "OrderConnection.nodes" not in alone.fields and "Order" not in alone.types
    for ranked in (["Query.orders", "Query.order"], ["Query.order", "Query.orders"]):
        piece = slicer.from_ranked(ranked, 1000)
        valid(piece.sdl)
        assert "OrderConnection.nodes" in piece.fields
    # The default shows `nodes` (and so the node type) with the connection.
    always = tiny_slicer.from_ranked(["Query.orders"], 1000)
    assert "OrderConnection.nodes" in always.fields and "Order" in always.types
    off = Slicer.of(schema, slicer.corpus, params=SliceParams(connection_nodes="off"))
    assert (
        "OrderConnection.nodes" not in off.from_ranked(["Query.orders", "Query.order"], 1000).fields
    )


def test_a_new_type_brings_its_labels_the_string_leaves_most_types_share() -> None:
    schema = build_schema(
        """
        type Query { team(id: ID!): Team  project(id: ID!): Project }
        type Team { id: ID! slug: String! name: String! bio: String }
        type Project { id: ID! name: String! title: String! }
        type Task { id: ID! title: String! }
        type Note { title: String! name: String }
        """
    )
    corpus = build_corpus(schema)
    # Non-null String leaves: `title` on three types, `name` on two, `slug` on one.
    one = Slicer.of(schema, corpus, params=SliceParams(leaves=1, labels=1))
    team = one.from_ranked(["Team.id"], 1000)
    assert [f for f in team.fields if f.startswith("Team.")] == ["Team.id", "Team.name"]
    project = one.from_ranked(["Project.id"], 1000)
    assert "Project.title" in project.fields and "Project.name" not in project.fields
    two = Slicer.of(schema, corpus, params=SliceParams(leaves=1, labels=2))
    assert {"Project.title", "Project.name"} <= set(two.from_ranked(["Project.id"], 1000).fields)


def test_a_type_named_in_the_plural_also_gets_a_way_in_through_a_list(tiny: Any) -> None:
    schema, slicer = tiny
    one = slicer.from_ranked(["Order.total"], 1000, "the total of order 7")
    assert "Query.order" in one.fields and "Query.orders" not in one.fields
    many = slicer.from_ranked(["Order.total"], 1000, "totals of all orders")
    valid(many.sdl)
    assert {"Query.orders", "OrderConnection.nodes", "Order.total"} <= many.coordinates
    off = Slicer.of(schema, slicer.corpus, params=SliceParams(plural_ways=0), words=words)
    assert "Query.orders" not in off.from_ranked(["Order.total"], 1000, "all orders").fields


GIT_SDL = """
type Query { repo(name: String!): Repo  viewer: User!  relay: Query!  user(login: String!): User }
type User { login: String!  repos: [Repo!]! }
type Repo { name: String!  head: Ref  object(expression: String): GitObject }
type Ref { name: String!  target: GitObject }
interface GitObject { oid: ID! }
type Commit implements GitObject { oid: ID!  message: String! }
type Tree implements GitObject { oid: ID!  entries: [String!] }
"""


def test_a_hit_type_reached_through_an_interface_shows_every_way_through_it() -> None:
    schema = build_schema(GIT_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.repo", "Repo.head", "Commit.message"]
    linked = Slicer.of(schema, corpus).from_ranked(ranked, 1000)
    valid(linked.sdl)
    # Ref and Repo are in the slice, Commit has a hit: both fields into GitObject are shown.
    assert {"Ref.target", "Repo.object", "Commit.message", "GitObject"} <= linked.coordinates
    assert "Tree" not in linked.types
    plain = Slicer.of(schema, corpus, params=SliceParams(abstract_links=False))
    assert len({"Ref.target", "Repo.object"} & plain.from_ranked(ranked, 1000).coordinates) == 1


def test_a_type_in_the_slice_brings_the_context_root_that_returns_it() -> None:
    schema = build_schema(GIT_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.user", "User.repos"]
    piece = Slicer.of(schema, corpus).from_ranked(ranked, 1000)
    valid(piece.sdl)
    # `viewer: User!` needs no argument and returns one object; `relay` returns the root.
    assert "Query.viewer" in piece.fields and "Query.relay" not in piece.fields
    # (User has a hit, so a connective would show `viewer` as well: both off.)
    off = Slicer.of(schema, corpus, params=SliceParams(context_roots=False, connectives="off"))
    assert "Query.viewer" not in off.from_ranked(ranked, 1000).fields


def test_the_subject_of_several_hits_also_gets_a_way_in_through_a_list(tiny: Any) -> None:
    schema, tiny_slicer = tiny
    slicer = Slicer.of(schema, tiny_slicer.corpus, params=SliceParams(subject_hits=3), words=words)
    ranked = ["Order.total", "Order.number", "Order.status"]
    # No plural in the question; three hits on Order make it the question's subject.
    piece = slicer.from_ranked(ranked, 1000, "the total of order 7")
    valid(piece.sdl)
    assert {"Query.order", "Query.orders", "OrderConnection.nodes"} <= piece.coordinates
    few = Slicer.of(schema, slicer.corpus, params=SliceParams(subject_hits=4), words=words)
    assert "Query.orders" not in few.from_ranked(ranked, 1000, "the total of order 7").fields


def test_fields_between_two_types_with_several_hits_are_shown() -> None:
    schema = build_schema(
        """
        type Query { team(id: ID!): Team  project(id: ID!): Project }
        type Team { id: ID!  name: String!  size: Int  lead: Person  projects: [Project!]! }
        type Project { id: ID!  title: String!  budget: Int  team: Team }
        type Person { id: ID! }
        """
    )
    corpus = build_corpus(schema)
    team = ["Query.team", "Team.name", "Team.size", "Team.id"]
    project = ["Query.project", "Project.title", "Project.budget", "Project.id"]
    # Connectives would show both ways in any case, a subject way the list `Team.projects`.
    alone = SliceParams(connectives="off", subject_hits=0)
    linked = Slicer.of(schema, corpus, params=alone).from_ranked(team + project, 1000)
    valid(linked.sdl)
    # One object each way: Project.team is shown, the list Team.projects is not (`single`).
    assert "Project.team" in linked.fields and "Team.projects" not in linked.fields
    every = Slicer.of(schema, corpus, params=dataclasses.replace(alone, hit_links="all"))
    assert "Team.projects" in every.from_ranked(team + project, 1000).fields
    # Two hits on Project are not enough (`link_hits` = 3), nor is the link switched off.
    fewer = Slicer.of(schema, corpus, params=alone).from_ranked(team + project[:3], 1000)
    assert "Project.team" not in fewer.fields
    off = Slicer.of(schema, corpus, params=dataclasses.replace(alone, hit_links="off"))
    assert "Project.team" not in off.from_ranked(team + project, 1000).fields


def test_an_edge_shows_its_node_once_the_node_type_is_in(tiny: Any) -> None:
    schema, slicer = tiny
    params = SliceParams(edge_nodes=True, connection_nodes="known")
    edges = Slicer.of(schema, slicer.corpus, params=params)
    alone = edges.from_ranked(["Query.orders", "OrderConnection.edges"], 1000)
    assert "OrderEdge.node" not in alone.fields
    for ranked in (
        ["Query.orders", "OrderConnection.edges", "Query.order"],
        ["Query.order", "Query.orders", "OrderConnection.edges"],
    ):
        piece = edges.from_ranked(ranked, 1000)
        valid(piece.sdl)
        assert "OrderEdge.node" in piece.fields
    assert "OrderEdge.node" not in slicer.from_ranked(ranked, 1000).fields


def test_fields_are_indented_by_one_space_which_costs_fewer_tokens(tiny: Any) -> None:
    schema, slicer = tiny
    ranked = ["Query.orders", "Order.total", "Customer.email"]
    one = slicer.from_ranked(ranked, 1000)
    two = Slicer.of(schema, slicer.corpus, params=SliceParams(indent=2)).from_ranked(ranked, 1000)
    valid(one.sdl)
    assert "\n total: Float\n" in one.sdl and "\n  total: Float\n" in two.sdl
    assert one.coordinates == two.coordinates and one.tokens < two.tokens


LOOKUP_SDL = """
type Query { repo(name: String!): Repo }
type Repo { name: String!  object(expression: String, oid: ID): Blob  blobs(first: Int, path: String): [Blob!]! }
type Blob { oid: ID!  text: String }
"""  # noqa: E501


def test_a_single_object_field_with_only_optional_arguments_shows_them_all() -> None:
    schema = build_schema(LOOKUP_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.repo", "Repo.name", "Blob.text", "Repo.object", "Repo.blobs"]
    params = SliceParams(top_arguments=0)
    piece = Slicer.of(schema, corpus, params=params).from_ranked(ranked, 1000)
    valid(piece.sdl)
    # `object` returns one Blob and takes no required argument: its arguments choose which.
    assert {"Repo.object(expression:)", "Repo.object(oid:)"} <= piece.coordinates
    # `blobs` is a list: its optional `path` filter stays hidden (only the page size shows).
    assert "Repo.blobs(first:)" in piece.arguments and "Repo.blobs(path:)" not in piece.arguments
    off = Slicer.of(schema, corpus, params=dataclasses.replace(params, optional_lookups=False))
    assert not any(a.startswith("Repo.object(") for a in off.from_ranked(ranked, 1000).arguments)


def test_the_first_hits_show_every_argument() -> None:
    schema = build_schema(LOOKUP_SDL)
    corpus = build_corpus(schema)
    params = SliceParams(optional_lookups=False, top_arguments=2)
    slicer = Slicer.of(schema, corpus, params=params)
    # The second hit: `path` shows although the question does not name it.
    assert "Repo.blobs(path:)" in slicer.from_ranked(["Query.repo", "Repo.blobs"], 1000).arguments
    # The third hit: only the page size.
    late = slicer.from_ranked(["Query.repo", "Repo.name", "Repo.blobs"], 1000)
    assert "Repo.blobs(first:)" in late.arguments and "Repo.blobs(path:)" not in late.arguments


CONNECTIVE_SDL = """
type Query { shop(id: ID!): Shop  order(id: ID!): Order }
type Shop { name: String!  flagship: Order  orders: [Order!]!  owner: Person  rating: Int  city: String  zip: String  phone: String }
type Order { number: Int!  total: Float  shop: Shop }
type Person { name: String! }
"""  # noqa: E501


def test_fields_between_types_with_hits_use_the_reserved_budget() -> None:
    schema = build_schema(CONNECTIVE_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.shop", "Query.order", "Order.total", "Shop.rating", "Shop.city", "Shop.zip",
              "Shop.phone", "Shop.owner", "Shop.flagship", "Shop.orders"]  # fmt: skip
    params = SliceParams(leaves=1, labels=0, identifiers=False, fill_depth=0, hit_links="off")
    plain_params = dataclasses.replace(params, connectives="off", reserve=0)
    plain = Slicer.of(schema, corpus, params=plain_params)
    budget = plain.from_ranked(ranked[:7], 1000).tokens
    assert "Shop.phone" in plain.from_ranked(ranked, budget).fields  # hits fill the budget
    piece = Slicer.of(schema, corpus, params=params).from_ranked(ranked, budget)
    valid(piece.sdl)
    assert piece.tokens <= budget
    # A fifth of the budget goes to fields from a type in the slice to one with a hit (Order),
    # each a line: Shop.flagship and Shop.orders (`lines`: the list too, its type being in),
    # ranked last, come before the hits ranked 5th to 7th; Shop.owner leads to a type not in.
    assert {"Shop.flagship", "Shop.orders"} <= piece.coordinates
    assert "Shop.phone" not in piece.fields and "Shop.owner" not in piece.fields
    single = Slicer.of(schema, corpus, params=dataclasses.replace(params, connectives="single"))
    assert "Shop.orders" not in single.from_ranked(ranked, budget).fields


LONG_ENUM_SDL = """
type Query { events(first: Int, kinds: [EventKind!]): [Event!]!  tags(by: EventKind = OPENED): [Tag!]! }
type Event { kind: EventKind!  at: String }
type Tag { name: String! }
enum EventKind { OPENED CLOSED MERGED LABELED UNLABELED ASSIGNED UNASSIGNED PINNED UNPINNED LOCKED UNLOCKED RENAMED REOPENED }
"""  # noqa: E501


def test_a_long_enum_an_argument_takes_shows_the_values_the_question_names() -> None:
    schema = build_schema(LONG_ENUM_SDL)
    corpus = build_corpus(schema)
    slicer = Slicer.of(schema, corpus, params=SliceParams(top_arguments=0), words=words)
    piece = slicer.from_ranked(["Query.events", "Event.at"], 1000, "events reopened or locked")
    sliced = valid(piece.sdl)
    assert "Query.events(kinds:)" in piece.arguments  # named through its values
    assert list(sliced.type_map["EventKind"].values) == ["LOCKED", "REOPENED"]  # type: ignore[attr-defined]
    # An operation valid against the slice stays valid against the schema.
    operation = parse("{ events(first: 2, kinds: [REOPENED]) { at } }")
    assert validate(sliced, operation) == [] and validate(schema, operation) == []
    # An argument with a default shows every value (the default may name any of them)…
    defaulted = slicer.from_ranked(["Query.tags", "Tag.name"], 1000, "tags by kind")
    assert "Query.tags(by:)" in defaulted.arguments
    assert len(valid(defaulted.sdl).type_map["EventKind"].values) == 13  # type: ignore[attr-defined]
    # …and so does every argument enum without a cap.
    uncapped = Slicer.of(schema, corpus, params=SliceParams(top_arguments=0, argument_enum_cap=0),
                      words=words)  # fmt: skip
    whole = uncapped.from_ranked(["Query.events", "Event.at"], 1000, "events reopened")
    assert len(valid(whole.sdl).type_map["EventKind"].values) == 13  # type: ignore[attr-defined]


ACTOR_SDL = """
type Query { actor(login: String!): Actor  viewer: User }
interface Actor { login: String!  avatar: String  url: String  bio: String }
type User implements Actor { login: String!  avatar: String  url: String  bio: String  email: String }
type Bot implements Actor { login: String!  avatar: String  url: String  bio: String }
"""  # noqa: E501


def test_an_interface_brings_no_scored_leaves_as_its_implementations_repeat_them() -> None:
    schema = build_schema(ACTOR_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.viewer", "User.email", "Query.actor"]
    lean = Slicer.of(schema, corpus).from_ranked(ranked, 1000)
    valid(lean.sdl)
    # The interface shows its identifier (`actor(login:)`) and nothing else: User, in the
    # slice, implements it and would repeat every field it shows.
    assert [f for f in lean.fields if f.startswith("Actor.")] == ["Actor.login"]
    full_slicer = Slicer.of(schema, corpus, params=SliceParams(interface_leaves=-1))
    full = full_slicer.from_ranked(ranked, 1000)
    valid(full.sdl)
    assert {"Actor.avatar", "User.avatar"} <= full.coordinates
    assert lean.tokens < full.tokens


def test_a_hit_on_a_member_of_a_union_in_the_slice_goes_in_past_the_frontier(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    params = SliceParams(leaves=1, identifiers=False, labels=0, reserve=0, connectives="off",
                         fill_depth=3, fill_member_share=1.0)  # fmt: skip
    slicer = Slicer.of(schema, corpus, params=params)
    budget = slicer.from_ranked(["Query.search", "Shop.name"], 1000).tokens + 20
    # Query.orders does not fit; Customer.email, ranked after it, is on a member of the
    # union Query.search returns: Customer enters the union and the slice.
    ranked = ["Query.search", "Shop.name", "Query.orders", "Customer.email"]
    piece = slicer.from_ranked(ranked, budget)
    sliced = valid(piece.sdl)
    assert "Query.orders" not in piece.fields and "Customer.email" in piece.fields
    assert {t.name for t in sliced.type_map["SearchResult"].types} == {"Shop", "Customer"}  # type: ignore[attr-defined]
    # Off, or when a member may cost only 1% of the budget, only lines go in past it.
    for changes in ({"fill_members": "off"}, {"fill_member_share": 0.01}):
        other = Slicer.of(schema, corpus, params=dataclasses.replace(params, **changes))
        assert "Customer.email" not in other.from_ranked(ranked, budget).fields


def test_a_small_type_with_several_hits_shows_every_leaf(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    params = SliceParams(leaves=1, labels=0, identifiers=False, subject_leaves_share=1.0)
    ranked = ["Query.order", "Order.total", "Order.number", "Order.customer"]
    piece = Slicer.of(schema, corpus, params=params).from_ranked(ranked, 1000)
    valid(piece.sdl)
    # Order's third hit makes it the question's subject; with 4 leaves it is small: all show.
    assert "Order.status" in piece.fields and "Order.id" in piece.fields
    for changes in ({"subject_leaves": 0}, {"subject_leaves": 3}, {"subject_leaves_share": 0.001}):
        other = Slicer.of(schema, corpus, params=dataclasses.replace(params, **changes))
        assert "Order.status" not in other.from_ranked(ranked, 1000).fields
