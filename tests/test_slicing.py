"""Schema slices: each mechanism worked by hand on a tiny schema, then properties on GitHub.

The properties: every slice parses and is a valid schema; a reference operation whose
coordinates are all in a slice validates against it; and operations built from a slice's
own fields validate against the full schema too (a slice never allows what the schema
forbids).
"""

from __future__ import annotations

import importlib.util
import itertools
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

from schemanav.corpus import build_corpus
from schemanav.retrieval.slicing import EMPTY_SLICE, SchemaSlice, SliceParams, Slicer
from schemanav.retrieval.slicing.params import EARLY_COMPLETION_FROM, OPERATION_ROOM_FROM
from slicing_support import GROWTH, TINY_SDL, scored, slicer_for, valid, words

# The named types that have fields.
FIELDED_TYPES = (GraphQLObjectType, GraphQLInterfaceType, GraphQLInputObjectType)


@pytest.fixture(scope="module")
def tiny() -> tuple[GraphQLSchema, Slicer]:
    schema = build_schema(TINY_SDL)
    return schema, Slicer.of(schema, build_corpus(schema), params=GROWTH, words=words)


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
    piece = slicer.from_ranked(ranked, 1000, "the open order with the largest total")
    # `first` pages a connection; `status` is named by the question through its enum value
    # OPEN; `sort` through its input field names? no: `sort` has `field`, `descending`,
    # `note` — none named — and `after` is not named either.
    assert "Query.orders(first:)" in piece.arguments
    assert "Query.orders(status:)" in piece.arguments
    assert "Query.orders(after:)" not in piece.arguments
    assert "OrderConnection.pageInfo" not in piece.fields
    assert "Query.orders(sort:)" not in piece.arguments
    everything = Slicer(slicer.schema_facts, slicer.corpus, params=SliceParams(arguments="all"))
    assert "Query.orders(after:)" in everything.from_ranked(["Query.orders"], 1000).arguments


TIME_SDL = """
type Query {
  repo(name: String!): Repo
}

type Repo {
  history(first: Int, author: String, since: DateTime, until: DateTime): [Commit!]!
  pulls(first: Int, createdAfter: DateTime, createdBefore: DateTime, mergedAfter: DateTime,
        mergedBefore: DateTime): [Commit!]!
}

type Commit {
  message: String!
}

"An ISO-8601 encoded UTC date string."
scalar DateTime
"""


def test_a_question_in_time_shows_a_lists_time_bounds() -> None:
    schema = build_schema(TIME_SDL)
    slicer = Slicer.of(schema, build_corpus(schema), params=GROWTH, words=words)
    ranked = ["Query.repo", "Repo.history", "Repo.pulls", "Commit.message"]
    # Past the first hits (which show every argument), a list shows its time bounds when the
    # question is in time, though it names neither `since` nor `until`.
    late = ["Commit.message", "Query.repo", *ranked[1:3]]
    in_time = slicer.from_ranked(late, 1000, "commit messages of the past two weeks")
    assert {"Repo.history(since:)", "Repo.history(until:)"} <= set(in_time.arguments)
    assert "Repo.history(author:)" not in in_time.arguments
    # Four time arguments are a choice the question's own words make ("merged after").
    assert not {a for a in in_time.arguments if a.startswith("Repo.pulls(") and "ed" in a}
    merged = slicer.from_ranked(late, 1000, "pulls merged after 2025-01-01")
    assert "Repo.pulls(mergedAfter:)" in merged.arguments
    assert "Repo.pulls(createdBefore:)" not in merged.arguments
    # Out of time, no bound is offered.
    timeless = slicer.from_ranked(late, 1000, "commit messages")
    assert "Repo.history(since:)" not in timeless.arguments
    valid(in_time.sdl)


def test_a_first_hit_with_dozens_of_filters_shows_those_the_question_names() -> None:
    filters = ", ".join(f"filter{n}: Boolean" for n in range(1, 17))
    few_and_many = "few(a: Int, b: Int): Int\n many(first: Int, {}, state: Int): Int"
    schema = build_schema(f"type Query {{ {few_and_many.format(filters)} }}")
    slicer = Slicer.of(schema, build_corpus(schema), params=GROWTH, words=words)
    # The first two hits show every argument they take, up to 16 of them…
    few = slicer.from_ranked(["Query.few"], 1000, "few")
    assert {"Query.few(a:)", "Query.few(b:)"} <= set(few.arguments)
    # …past that (18 here) only the ones the question's words choose, as for any hit.
    many = slicer.from_ranked(["Query.many"], 1000, "many by state")
    assert [a for a in many.arguments if a.startswith("Query.many(")] == ["Query.many(state:)"]


def test_a_list_and_its_count_show_the_same_filters() -> None:
    schema = build_schema(
        """
        type Query { shop: Shop }
        type Shop {
          id: ID!  name: String!  url: String  currency: String
          orders(first: Int, status: Status, tag: String, since: String): [Order!]!
          ordersCount(status: Status, tag: String, since: String, mine: Boolean): Int!
          customersCount(tag: String): Int!
        }
        type Order { number: Int }
        enum Status { OPEN CLOSED }
        """
    )
    slicer = Slicer.of(schema, build_corpus(schema), params=GROWTH, words=words)
    ranked = ["Shop.orders", "Order.number", "Shop.ordersCount", "Shop.customersCount"]
    # The first hit shows every argument; the count, named after it, takes its filters
    # (the question names none of them), but not the one the list does not take. (An entry
    # field, a root's, shows every argument it offers anyway.)
    piece = slicer.from_ranked(ranked, 1000, "the orders and how many there are")
    shown = set(piece.arguments)
    assert {f"Shop.ordersCount({a}:)" for a in ("status", "tag", "since")} <= shown
    assert "Shop.ordersCount(mine:)" not in shown
    # Another list's count is not its companion.
    assert "Shop.customersCount(tag:)" not in shown
    valid(piece.sdl)


def test_a_value_shows_the_unit_it_comes_in() -> None:
    schema = build_schema(
        """
        type Query { parcel(id: ID!): Parcel }
        type Parcel {
          label: String
          length(unit: LengthUnit = METERS): Float
          weight(unit: MassUnit, precision: Int = 2): Float
        }
        enum LengthUnit { METERS FEET }
        enum MassUnit { KILOGRAM POUND }
        """
    )
    slicer = Slicer.of(schema, build_corpus(schema), params=GROWTH, words=words)
    ranked = ["Query.parcel", "Parcel.label", "Parcel.weight", "Parcel.length"]
    # Past the first two hits (which show every argument), "centimetres" names no value of
    # the unit; its default tells the agent what it reads without one.
    piece = slicer.from_ranked(ranked, 1000, "the parcel's length in centimetres and its weight")
    assert "Parcel.length(unit:)" in piece.arguments
    # Only an enum with a default shapes a value: the others follow the question's words.
    assert not {"Parcel.weight(unit:)", "Parcel.weight(precision:)"} & set(piece.arguments)
    valid(piece.sdl)


def test_the_first_or_last_of_a_set_is_reached_through_its_list(tiny: Any) -> None:
    _, slicer = tiny
    assert "Query.order" in slicer.from_ranked(["Order.total"], 1000, "the order's total").fields
    last = slicer.from_ranked(["Order.total"], 1000, "the total of the last big order")
    assert "Query.orders" in last.fields and "Query.order" not in last.fields


def test_a_connection_the_question_asks_a_set_of_can_be_paged(tiny: Any) -> None:
    _, slicer = tiny
    # "orders" names Order in the plural: the next page starts `after` pageInfo's endCursor.
    piece = slicer.from_ranked(["Query.orders"], 1000, "open orders")
    assert {"Query.orders(first:)", "Query.orders(after:)"} <= set(piece.arguments)
    assert {"OrderConnection.pageInfo", "PageInfo.hasNextPage", "PageInfo.endCursor"} <= set(
        piece.fields
    )
    valid(piece.sdl)



ORDERS_SDL = """
type Query { customer(id: ID!): Customer }
type Customer { id: ID!  email: String  orders(first: Int, after: String): OrderConnection! }
type OrderConnection { nodes: [Order]  pageInfo: PageInfo! }
type PageInfo { hasNextPage: Boolean!  endCursor: String }
type Order { id: ID!  total: Float }
"""


def test_from_a_roomy_rung_the_lists_of_the_hits_types_are_paged_unasked() -> None:
    # "order" names one: within 1,000 tokens the customer's orders show no cursor;
    # from `OPERATION_ROOM_FROM` a client's operation reads them page by page all the same.
    slicer = slicer_for(ORDERS_SDL)
    question, ranked = "the order total of customer 7", ["Order.total"]
    small = slicer.from_ranked(ranked, 1000, question)
    assert "Customer.orders(after:)" not in small.arguments
    roomy = slicer.from_ranked(ranked, 8000, question)
    assert "Customer.orders(after:)" in roomy.arguments
    assert {"OrderConnection.pageInfo", "PageInfo.endCursor"} <= set(roomy.fields)
    valid(roomy.sdl)


def test_a_list_whose_connection_shows_its_page_info_shows_its_cursor() -> None:
    # "order" names one: the customer's orders are no set the question asks, but the slice
    # shows `pageInfo { endCursor }` on their connection, which is read back through `after`.
    slicer = slicer_for(ORDERS_SDL)
    question = "the order total of customer 7"
    plain = slicer.from_ranked(["Order.total"], 1000, question)
    assert "Customer.orders(after:)" not in plain.arguments
    ranked = ["Order.total", "OrderConnection.pageInfo", "PageInfo.endCursor"]
    piece = slicer.from_ranked(ranked, 1000, question)
    assert "Customer.orders(after:)" in piece.arguments
    valid(piece.sdl)


AVATAR_SDL = """
type Query { user(login: String!): User }
type User { login: String!  name: String  avatarUrl(size: Int, format: ImageFormat): String }
enum ImageFormat { PNG JPG }
"""


def test_from_a_roomy_rung_a_leaf_shows_the_arguments_shaping_its_value() -> None:
    # No size asked: within 1,000 tokens the avatar shows none; from `OPERATION_ROOM_FROM` a
    # client's operation passes its size and format all the same.
    slicer = slicer_for(AVATAR_SDL)
    question, ranked = "the avatar of user octocat", ["Query.user", "User.login", "User.avatarUrl"]
    small = slicer.from_ranked(ranked, 1000, question)
    assert "User.avatarUrl" in small.fields and "User.avatarUrl(size:)" not in small.arguments
    roomy = slicer.from_ranked(ranked, 8000, question)
    assert {"User.avatarUrl(size:)", "User.avatarUrl(format:)"} <= set(roomy.arguments)
    valid(roomy.sdl)


CAPABILITY_SDL = """
type Query { account(slug: String!): Account }
interface Account { id: ID!  name: String! }
interface AccountWithHost { host: Host  hostFeePercent: Float  isApproved: Boolean }
interface Profile { id: ID!  name: String!  host: Host  slug: String  description: String }
type Collective implements Account & AccountWithHost & Profile {
  id: ID!  name: String!  host: Host  hostFeePercent: Float  isApproved: Boolean
  slug: String  description: String  currency: String
}
type Host implements Account { id: ID!  name: String! }
"""


def test_a_field_shows_on_the_interfaces_no_field_returns_when_named_or_roomy() -> None:
    # `account` returns `Account`; no field returns `AccountWithHost`: an operation reads a
    # collective's host as `... on AccountWithHost { host }`, a fragment on the interface.
    slicer = slicer_for(CAPABILITY_SDL)
    question, ranked = "which host does collective tidy-streets have", ["Collective.host"]
    small = slicer.from_ranked(ranked, 1000, question)
    assert "Collective.host" in small.fields and "AccountWithHost" not in small.types
    named = slicer.from_ranked(ranked, EARLY_COMPLETION_FROM, question)
    assert "AccountWithHost.host" in named.fields
    valid(named.sdl)
    assert "type Collective implements Account & AccountWithHost" in named.sdl
    # `Profile` declares most of a collective's fields: another view of it, not a capability.
    assert "Profile" not in named.types
    # A field the question does not name shows on the interface only from a roomy rung.
    unnamed = "what share of its income does collective tidy-streets pay"
    fee = ["Collective.hostFeePercent"]
    assert "AccountWithHost" not in slicer.from_ranked(fee, EARLY_COMPLETION_FROM, unnamed).types
    roomy = slicer.from_ranked(fee, OPERATION_ROOM_FROM, unnamed)
    assert "AccountWithHost.hostFeePercent" in roomy.fields
    # The question's function words name nothing: "Is …" does not name `isApproved`.
    asked = "Is collective tidy-streets still hosted there?"
    approved = slicer.from_ranked(["Collective.isApproved"], EARLY_COMPLETION_FROM, asked)
    assert "Collective.isApproved" in approved.fields and "AccountWithHost" not in approved.types


JOBS_SDL = """
type Query { org(slug: String!): Org }
type Org { name: String!  jobs(first: Int, after: String, state: String): JobConnection }
type JobConnection { edges: [JobEdge]  pageInfo: PageInfo! }
type JobEdge { cursor: String!  node: Job }
type PageInfo { hasNextPage: Boolean!  endCursor: String }
union Job = CommandJob | WaitJob
type CommandJob { id: ID!  command: String  state: String }
type WaitJob { id: ID!  state: String }
"""


def test_a_union_the_question_names_in_the_plural_is_a_set_as_an_object_type_is() -> None:
    # "jobs" names `union Job`, though a union owns no field: its connection can be paged.
    piece = slicer_for(JOBS_SDL).from_ranked(
        ["Org.jobs", "CommandJob.command"], 1000, "failed jobs"
    )
    valid(piece.sdl)
    assert "Org.jobs(after:)" in piece.arguments and "JobConnection.pageInfo" in piece.fields


NODE_SDL = """
type Query { org(slug: String!): Org  node(id: ID!): Node }
interface Node { id: ID! }
type Org implements Node { id: ID!  name: String!  suite(slug: String!): Suite }
type Suite implements Node { id: ID!  name: String!  emoji: String  slug: String! }
"""


def test_a_read_giving_a_global_identifier_shows_the_lookup_of_any_object_by_it() -> None:
    slicer = slicer_for(NODE_SDL)
    ranked = ["Query.org", "Org.suite", "Suite.name"]  # the ranking's way in: through the org
    piece = slicer.from_ranked(ranked, 1000, "Show test suite U3VpdGUtLS03Nzc=: its name.")
    valid(piece.sdl)
    assert "Query.node(id:)" in piece.arguments and "type Suite implements Node" in piece.sdl
    # A slug is no global identifier: the way the ranking took is enough.
    by_slug = slicer.from_ranked(ranked, 1000, "Show test suite ios-unit-tests: its name.")
    assert "Query.node" not in by_slug.fields


PAGED_SDL = """
type Query {
  tags(first: Int, after: String, last: Int, before: String, offset: Int): TagConnection!
  shop(id: ID!): Shop
}
type Shop { name: String!  tags(first: Int, after: String, last: Int, before: String): TagConnection! }
type TagConnection { nodes: [Tag]  pageInfo: PageInfo! }
type PageInfo { hasNextPage: Boolean!  hasPreviousPage: Boolean!  startCursor: String  endCursor: String }
type Tag { id: ID!  name: String! }
"""  # noqa: E501


def test_a_question_that_pages_shows_every_paging_argument_of_its_list() -> None:
    slicer = slicer_for(PAGED_SDL)
    ranked = ["Query.shop", "Shop.name", "Tag.name", "Query.tags"]  # past the first hits
    paged = slicer.from_ranked(ranked, 1000, "the tags, 20 per page, with their names")
    valid(paged.sdl)
    # `offset` goes with `first` on every list taking it: the schema's paging arguments.
    assert {f"Query.tags({a}:)" for a in ("first", "after", "last", "before", "offset")} <= set(
        paged.arguments
    )
    assert {"PageInfo.hasNextPage", "PageInfo.endCursor"} <= set(paged.fields)
    # Not named, but the type of a hit: its list is what the question pages through.
    unnamed = slicer.from_ranked(ranked, 1000, "every name, 20 per page")
    assert "Query.tags(offset:)" in unnamed.arguments
    # Asked as a set but not by the page: forward, by the cursor, as Relay reads a set.
    plain = slicer.from_ranked(ranked, 1000, "the tags with their names")
    assert "Query.tags(after:)" in plain.arguments
    assert not {"Query.tags(before:)", "Query.tags(offset:)"} & set(plain.arguments)


REVIEWS_SDL = """
type Query { product(id: ID!): Product  products(limit: Int, offset: Int): [Product!]! }
type Product { id: ID!  title: String  reviews(limit: Int, offset: Int, author: String): [Review!]! }
type Review { id: ID!  rating: Int }
"""  # noqa: E501


def test_a_question_that_pages_shows_a_lists_limit_and_offset() -> None:
    slicer = slicer_for(REVIEWS_SDL)
    ranked = ["Query.product", "Product.title", "Review.rating", "Product.reviews"]
    piece = slicer.from_ranked(ranked, 1000, "the reviews of product 12, ten at a time")
    valid(piece.sdl)
    assert {"Product.reviews(limit:)", "Product.reviews(offset:)"} <= set(piece.arguments)
    assert "Product.reviews(author:)" not in piece.arguments
    unpaged = slicer.from_ranked(ranked, 1000, "the ratings of product 12's reviews")
    assert "Product.reviews(offset:)" not in unpaged.arguments


@pytest.mark.parametrize(
    ("connection", "node_way"),
    [
        # The Relay specification's connection: edges only.
        ("edges: [OrderEdge]\n  pageInfo: PageInfo!", {"OrderConnection.edges", "OrderEdge.node"}),
        # A list of the nodes named after them beside the edges: one line cheaper.
        (
            "edges: [OrderEdge]\n  orders: [Order]\n  pageInfo: PageInfo!",
            {"OrderConnection.orders"},
        ),
    ],
    ids=["edges", "named-list"],
)
def test_a_connection_without_nodes_is_read_and_paged_through_its_other_way_to_them(
    connection: str, node_way: set[str]
) -> None:
    with_nodes = "edges: [OrderEdge]\n  nodes: [Order]\n  pageInfo: PageInfo!"
    sdl = TINY_SDL.replace(with_nodes, connection)
    assert sdl != TINY_SDL
    schema = build_schema(sdl)
    slicer = Slicer.of(schema, build_corpus(schema), params=GROWTH, words=words)
    piece = slicer.from_ranked(["Query.orders"], 1000, "open orders")
    assert node_way <= set(piece.fields) and "Order.status" in piece.fields
    assert ("OrderConnection.edges" in piece.fields) == ("OrderEdge.node" in node_way)
    assert "Query.orders(after:)" in piece.arguments and "PageInfo.endCursor" in piece.fields
    valid(piece.sdl)


def test_argument_types_come_with_required_input_fields_and_all_enum_values(tiny: Any) -> None:
    _, slicer = tiny
    piece = slicer.from_ranked(["Query.orders"], 1000, "orders sorted descending")
    schema = valid(piece.sdl)
    sort = schema.type_map["OrderSort"]
    assert set(sort.fields) == {"field", "descending"}  # type: ignore[attr-defined]
    assert set(schema.type_map["OrderSortField"].values) == {"NUMBER", "TOTAL"}  # type: ignore[attr-defined]


def test_an_input_object_never_offers_a_deprecated_field() -> None:
    schema = build_schema(
        """
        type Query { orders(filter: Filter): [Order!]! }
        type Order { number: Int }
        input Filter {
          status: String
          reviewer: String @deprecated(reason: "Use `reviewers`, which takes several.")
          reviewers: [String!]
        }
        """
    )
    slicer = Slicer.of(schema, build_corpus(schema), words=words)
    piece = slicer.from_ranked(["Query.orders"], 1000, "orders by status and reviewer")
    valid(piece.sdl)
    assert "status: String" in piece.sdl and "reviewer: String" not in piece.sdl


def test_an_output_enum_shows_the_values_the_question_names(tiny: Any) -> None:
    _, slicer = tiny
    piece = slicer.from_ranked(["Order.status"], 1000, "is it cancelled")
    schema = valid(piece.sdl)
    assert list(schema.type_map["OrderStatus"].values) == ["CANCELLED"]  # type: ignore[attr-defined]


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


OFFSET_SDL = """
type Query {
  job(name: String!): Job
  jobs(limit: Int, offset: Int): [Job!]!
  sensors(limit: Int): [Sensor!]!
  ticks(cursor: String, limit: Int = 10, dayRange: Int): [Tick!]!
}
type Job { name: String! runs(cursor: String, limit: Int): [Run!]! }
type Run { status: String! sizes(ids: [Int!]): [Int!]! }
type Sensor { name: String! }
type Tick { status: String! }
"""


def test_a_schema_without_relay_paging_pages_by_its_own_convention() -> None:
    schema = build_schema(OFFSET_SDL)
    slicer = Slicer.of(schema, build_corpus(schema), params=GROWTH, words=words)
    # Its lists take `limit` before any other integer (a list of them does not count).
    assert slicer.page_size == "limit"
    # Past the first hits (which show every argument), a list shows it when the question
    # orders: it reads a page ("the last 5 runs").
    ranked = ["Job.name", "Run.status", "Query.job", "Job.runs"]
    ordered = slicer.from_ranked(ranked, 1000, "the status of the last 5 runs of job etl")
    assert "Job.runs(limit:)" in ordered.arguments
    assert "Job.runs(cursor:)" not in ordered.arguments
    plain = slicer.from_ranked(ranked, 1000, "the status of the runs of job etl")
    assert "Job.runs(limit:)" not in plain.arguments
    valid(ordered.sdl)
    # Relay's `first` wherever a list takes it; no convention where none holds most lists.
    relay = build_schema(OFFSET_SDL.replace("sensors(limit:", "sensors(first:"))
    assert Slicer.of(relay, build_corpus(relay), words=words).page_size == "first"
    split_sdl = OFFSET_SDL.replace("jobs(limit:", "jobs(top:")
    split = build_schema(split_sdl.replace("(cursor: String, limit:", "(size:"))
    assert Slicer.of(split, build_corpus(split), words=words).page_size == "first"


def test_interfaces_are_declared_when_a_path_passes_through_them_or_with_room_left(
    tiny: Any,
) -> None:
    schema, _ = tiny
    plain = Slicer.of(schema, build_corpus(schema))
    piece = plain.from_ranked(["Query.shop", "Shop.name"], 100)
    assert "implements" not in piece.sdl and "Node" not in piece.types
    # Once the types in the slice are whole, the room left declares what they implement.
    roomy = plain.from_ranked(["Query.shop", "Shop.name"], 1000)
    valid(roomy.sdl)
    assert "type Shop implements Node" in roomy.sdl and "Node.id" in roomy.fields
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


def test_writes_only_when_one_ranks_first(tiny: Any) -> None:
    _, slicer = tiny
    late = slicer.from_ranked(
        ["Query.shop", "Mutation.cancelOrder", "Shop.name", "Order.total"], 1000
    )
    assert "Mutation.cancelOrder" not in late.fields
    early = slicer.from_ranked(["Mutation.cancelOrder", "Query.order"], 1000)
    schema = valid(early.sdl)
    assert schema.mutation_type is not None and "Query.order" in early.fields
    assert set(schema.type_map["CancelOrderInput"].fields) == {"orderId"}  # type: ignore[attr-defined]


def test_a_request_to_change_something_lets_its_write_in_wherever_it_ranks(tiny: Any) -> None:
    _, slicer = tiny
    ranked = ["Query.shop", "Shop.name", "Order.total", "Mutation.cancelOrder"]
    asked = slicer.from_ranked(ranked, 1000, "Cancel that order.")
    assert "Mutation.cancelOrder" in asked.fields
    valid(asked.sdl)
    read = slicer.from_ranked(ranked, 1000, "which order was cancelled?")
    assert "Mutation.cancelOrder" not in read.fields


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


def test_a_ranking_with_its_corpus_positions_slices_as_its_coordinates_do(tiny: Any) -> None:
    """`from_ranked(..., entries)` (a structural `Ranking`'s positions) gives the slice the
    coordinates give; positions that are not theirs (another corpus's) are not trusted."""
    _, slicer = tiny
    ranked = ["Order.total", "Query.order", "Customer.email", "Shop.owner"]
    entries = [slicer.corpus.coordinates.index(c) for c in ranked]
    plain = slicer.from_ranked(ranked, 1000, "the total of order 7")
    assert slicer.from_ranked(ranked, 1000, "the total of order 7", entries) == plain
    shifted = [(e + 1) % len(slicer.corpus) for e in entries]
    assert slicer.from_ranked(ranked, 1000, "the total of order 7", shifted) == plain
    assert slicer.from_ranked(ranked, 1000, "the total of order 7", entries[:2]) == plain
    assert slicer.from_ranked([], 1000, None, []) == EMPTY_SLICE


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
    return {
        "schema": schema,
        "questions": questions,
        "slices": slices,
        "slicer": slicer,
        "searcher": searcher,
    }


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


@pytest.mark.slow
def test_every_github_slice_is_a_valid_schema_within_budget(github: dict[str, Any]) -> None:
    for piece in github["slices"]:
        assert isinstance(piece, SchemaSlice) and 0 < piece.tokens <= 3000
        valid(piece.sdl)


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_write_asked_for_comes_with_the_read_that_finds_its_object(
    github: dict[str, Any],
) -> None:
    question = "Close issue 42 in the octocat/example repository"
    scores = github["searcher"].search_scores(question)
    piece = github["slicer"].from_scores(scores, 2000, question)
    sliced = valid(piece.sdl)
    # The issue's `id` is read first, then handed to the write that takes it.
    read = 'query { repository(owner: "octocat", name: "example") { issue(number: 42) { id } } }'
    write = 'mutation { closeIssue(input: {issueId: "I_1"}) { issue { closed } } }'
    for operation in (read, write):
        assert validate(sliced, parse(operation)) == [], operation
        assert validate(github["schema"], parse(operation)) == [], operation


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


def test_a_cut_enum_or_union_says_how_much_it_leaves_out(tiny: Any) -> None:
    _, slicer = tiny
    # An output enum shows the values the question names, a union the members in the slice:
    # each says how many more there are and that `define` returns them all.
    piece = slicer.from_ranked(["Query.order", "Order.status"], 1000, "is the order open")
    assert '"2 more: define OrderStatus"\nenum OrderStatus {\n OPEN\n}' in piece.sdl
    found = slicer.from_ranked(["Query.search"], 1000, "search shops")
    members = [line for line in found.sdl.splitlines() if line.startswith("union SearchResult")]
    shown = members[0].split("=")[1].count("|") + 1
    assert f'"{3 - shown} more: define SearchResult"\n{members[0]}' in found.sdl
    union = valid(found.sdl).get_type("SearchResult")
    assert union is not None and union.description == f"{3 - shown} more: define SearchResult"
