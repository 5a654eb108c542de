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
from schemanav.retrieval.slicing.growth import GrowingState

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
    _, slicer = tiny
    # Third: the first two hits show every argument.
    ranked = ["Query.shop", "Shop.name", "Query.orders"]
    piece = slicer.from_ranked(ranked, 1000, "open orders by total")
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


def scored(slicer: Slicer, scores: dict[str, float]) -> list[float]:
    """One score per corpus entry: those given, 0 for the others."""
    values = [0.0] * len(slicer.corpus)
    for coordinate, score in scores.items():
        values[slicer.corpus.coordinates.index(coordinate)] = score
    return values


def test_a_new_object_type_brings_its_best_leaves(tiny: Any) -> None:
    _, slicer = tiny
    # Three leaves, in definition order when none scores (`id` is an identifier too).
    piece = slicer.from_ranked(["Query.order"], 1000)
    order = ["Order.id", "Order.number", "Order.status"]
    assert [f for f in piece.fields if f.startswith("Order.")] == order
    # A leaf scoring below 0 is no best leaf.
    scores = scored(slicer, {"Query.order": 1.0, "Order.number": -1.0, "Order.status": -1.0})
    piece = slicer.from_scores(scores, 1000)
    assert [f for f in piece.fields if f.startswith("Order.")] == ["Order.id", "Order.total"]


def test_connections_get_a_page_size(tiny: Any) -> None:
    _, slicer = tiny
    piece = slicer.from_ranked(["Query.orders", "Query.order"], 1000)
    assert "Query.orders(first:)" in piece.arguments  # returns a connection
    assert "Query.order(id:)" in piece.arguments and "Query.order(first:)" not in piece.arguments
    assert "OrderConnection.pageInfo" not in piece.fields


def test_interfaces_are_declared_only_when_a_path_passes_through_them(tiny: Any) -> None:
    schema, _ = tiny
    plain = Slicer.of(schema, build_corpus(schema))
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
    _, slicer = tiny
    # `order(id: ID!)` selects one Order by `id`, so `Order.id` names an order in answers,
    # though it scores below every other leaf.
    scores = scored(slicer, {"Order.total": 1.0, "Order.id": -1.0})
    assert {"Order.total", "Order.id"} <= slicer.from_scores(scores, 1000).coordinates


def test_cheap_hits_past_the_first_that_does_not_fit_still_go_in(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    params = SliceParams(fill_depth=4, reserve=0)
    filled = Slicer.of(schema, corpus, params=params)
    leaves = ["Order.total", "Order.id", "Order.status", "Order.number"]
    budget = filled.from_ranked(["Query.order", *leaves], 1000).tokens
    # Query.orders brings a connection: it does not fit; Order.number (one line on a type
    # already in: the three leaves ranked before it came with Order) still does, and is four
    # hits further down.
    ranked = ["Query.order", "Query.orders", *leaves]
    piece = filled.from_ranked(ranked, budget)
    assert piece.tokens <= budget and "Order.number" in piece.fields
    assert "Query.orders" not in piece.fields
    strict = Slicer.of(schema, corpus, params=dataclasses.replace(params, fill_depth=0))
    assert "Order.number" not in strict.from_ranked(ranked, budget).fields


def test_a_type_is_entered_the_way_that_adds_fewest_new_fields(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    shared = Slicer.of(schema, corpus)
    # Customer is two hops from the root either way (the schema's cheapest way goes through
    # Query.order); Shop is in already, so the way through Shop.owner adds one field.
    piece = shared.from_ranked(["Query.shop", "Customer.email"], 1000)
    assert "Shop.owner" in piece.fields and "Query.order" not in piece.fields


def test_a_connection_shows_its_nodes(tiny: Any) -> None:
    _, slicer = tiny
    # `nodes` (and so the node type) comes with the connection.
    always = slicer.from_ranked(["Query.orders"], 1000)
    valid(always.sdl)
    assert "OrderConnection.nodes" in always.fields and "Order" in always.types


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
    slicer = Slicer.of(schema, build_corpus(schema))
    # Non-null String leaves: `title` on three types, `name` on two, `slug` on one; each type
    # shows its two most shared ones, though they score below every other leaf.
    unscored = {"Team.slug": -1.0, "Team.name": -1.0, "Team.bio": -1.0}
    team = slicer.from_scores(scored(slicer, {"Team.id": 1.0, **unscored}), 1000)
    order = ["Team.id", "Team.name", "Team.slug"]
    assert [f for f in team.fields if f.startswith("Team.")] == order
    unscored = {"Project.name": -1.0, "Project.title": -1.0}
    project = slicer.from_scores(scored(slicer, {"Project.id": 1.0, **unscored}), 1000)
    order = ["Project.id", "Project.title", "Project.name"]
    assert [f for f in project.fields if f.startswith("Project.")] == order


def test_a_type_named_in_the_plural_also_gets_a_way_in_through_a_list(tiny: Any) -> None:
    _, slicer = tiny
    one = slicer.from_ranked(["Order.total"], 1000, "the total of order 7")
    assert "Query.order" in one.fields and "Query.orders" not in one.fields
    many = slicer.from_ranked(["Order.total"], 1000, "totals of all orders")
    valid(many.sdl)
    assert {"Query.orders", "OrderConnection.nodes", "Order.total"} <= many.coordinates


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


def test_a_type_in_the_slice_brings_the_context_root_that_returns_it() -> None:
    schema = build_schema(GIT_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.user", "User.repos"]
    piece = Slicer.of(schema, corpus).from_ranked(ranked, 1000)
    valid(piece.sdl)
    # `viewer: User!` needs no argument and returns one object; `relay` returns the root.
    assert "Query.viewer" in piece.fields and "Query.relay" not in piece.fields


def test_the_subject_of_several_hits_also_gets_a_way_in_through_a_list(tiny: Any) -> None:
    _, slicer = tiny
    ranked = ["Order.total", "Order.number", "Order.status"]
    # No plural in the question; three hits on Order make it the question's subject.
    piece = slicer.from_ranked(ranked, 1000, "the total of order 7")
    valid(piece.sdl)
    assert {"Query.order", "Query.orders", "OrderConnection.nodes"} <= piece.coordinates
    # Two hits are not enough.
    assert "Query.orders" not in slicer.from_ranked(ranked[:2], 1000, "the total of order 7").fields


def test_fields_between_two_types_with_several_hits_are_shown() -> None:
    schema = build_schema(
        """
        type Query { team(id: ID!): Team  project(id: ID!): Project }
        type Team { id: ID!  name: String!  size: Int  lead: Person  projects: [Project!]! }
        type Project { id: ID!  title: String!  budget: Int  team: Team }
        type Person { id: ID! }
        """
    )
    slicer = Slicer.of(schema, build_corpus(schema))
    team = ["Query.team", "Team.name", "Team.size", "Team.id"]
    project = ["Query.project", "Project.title", "Project.budget", "Project.id"]

    def grown(ranked: list[str]) -> GrowingState:
        """The hits alone, before connectives (which would show both ways in any case)."""
        state = GrowingState(slicer, [0.0] * len(slicer.corpus), slicer.graph.static, frozenset())
        for coordinate in ranked:
            state.add_hit(slicer.corpus.coordinates.index(coordinate))
        return state

    # One object: Project.team is shown once both types have three hits; Team.lead is not.
    assert "team" in grown(team + project).fields["Project"]
    assert "lead" not in grown(team + project).fields["Team"]
    # Two hits on Project are not enough.
    assert "team" not in grown(team + project[:3]).fields["Project"]


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
    piece = Slicer.of(schema, corpus).from_ranked(ranked, 1000)
    valid(piece.sdl)
    # `object` returns one Blob and takes no required argument: its arguments choose which.
    assert {"Repo.object(expression:)", "Repo.object(oid:)"} <= piece.coordinates
    # `blobs` is a list: its optional `path` filter stays hidden (only the page size shows).
    assert "Repo.blobs(first:)" in piece.arguments and "Repo.blobs(path:)" not in piece.arguments


def test_the_first_hits_show_every_argument() -> None:
    schema = build_schema(LOOKUP_SDL)
    corpus = build_corpus(schema)
    slicer = Slicer.of(schema, corpus)
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
    params = SliceParams(fill_depth=0)
    reserved = Slicer.of(schema, corpus, params=params)
    plain = Slicer.of(schema, corpus, params=dataclasses.replace(params, reserve=0))
    connectives = {"Shop.flagship", "Shop.orders"}
    # A fifth of the budget goes to fields from a type in the slice to one with a hit (Order),
    # each a line: Shop.flagship and Shop.orders (the list too, its type being in), ranked
    # last, come before the hit ranked 7th; Shop.owner leads to a type not in.
    budget = next(
        b
        for b in range(30, 200)
        if connectives <= reserved.from_ranked(ranked, b).coordinates
    )
    piece = reserved.from_ranked(ranked, budget)
    valid(piece.sdl)
    assert piece.tokens <= budget
    assert "Shop.phone" not in piece.fields and "Shop.owner" not in piece.fields
    # Without the reserve, the hits take the budget first.
    assert "Shop.phone" in plain.from_ranked(ranked, budget).fields


LONG_ENUM_SDL = """
type Query { events(first: Int, kinds: [EventKind!]): [Event!]!  tags(by: EventKind = OPENED): [Tag!]! }
type Event { kind: EventKind!  at: String }
type Tag { name: String! }
enum EventKind { OPENED CLOSED MERGED LABELED UNLABELED ASSIGNED UNASSIGNED PINNED UNPINNED LOCKED UNLOCKED RENAMED REOPENED }
"""  # noqa: E501


def test_a_long_enum_an_argument_takes_shows_the_values_the_question_names() -> None:
    schema = build_schema(LONG_ENUM_SDL)
    corpus = build_corpus(schema)
    slicer = Slicer.of(schema, corpus, words=words)
    # Third (the first two hits show every argument); `Query.events` is on their way in.
    ranked = ["Event.at", "Event.kind", "Query.events"]
    piece = slicer.from_ranked(ranked, 1000, "events reopened or locked")
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


def test_a_hit_on_a_member_of_a_union_in_the_slice_goes_in_past_the_frontier(tiny: Any) -> None:
    _, slicer = tiny
    state = GrowingState(slicer, [0.0] * len(slicer.corpus), slicer.graph.static, frozenset())
    position = slicer.corpus.coordinates.index
    for coordinate in ("Query.search", "Shop.name"):
        state.add_hit(position(coordinate))
    # Customer is not in; it is a member of SearchResult, which is: one step beyond a line.
    assert "Customer" not in state.fields
    assert state.near(position("Customer.email")) == "SearchResult"
    assert state.near(position("Refund.amount")) is None  # a member of no union
    assert state.near(position("Customer.orders")) is None  # returns a type not in
    state.add_member_hit(position("Customer.email"), "SearchResult")
    assert "email" in state.fields["Customer"] and "Customer" in state.unions["SearchResult"]


def test_a_small_type_with_several_hits_shows_every_leaf(tiny: Any) -> None:
    _, slicer = tiny
    ranked = {"Query.order": 4.0, "Order.total": 3.0, "Order.number": 2.0, "Order.customer": 1.0}
    unscored = {"Order.status": -1.0, "Order.id": -1.0}
    piece = slicer.from_scores(scored(slicer, {**ranked, **unscored}), 1000)
    valid(piece.sdl)
    # Order's third hit makes it the question's subject; with 4 leaves it is small: all show,
    # `status` too though it scores below every other leaf.
    assert "Order.status" in piece.fields and "Order.id" in piece.fields
    ranked.pop("Order.customer")  # two hits: no subject
    fewer = slicer.from_scores(scored(slicer, {**ranked, **unscored}), 1000)
    assert "Order.status" not in fewer.fields
