"""Schema slices: each mechanism that follows from GraphQL's schema shape, worked by hand
(the growth of `schemanav.retrieval.slicing`: ways in, subjects, connectives, the fill)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from graphql import GraphQLSchema, build_schema, parse, validate

from schemanav.corpus import build_corpus
from schemanav.retrieval.slicing import SliceParams, Slicer, build
from schemanav.retrieval.slicing.growth import GrowingState
from schemanav.retrieval.slicing.params import CONNECTIVES_PER_PAIR, TOP_ARGUMENTS_CAP
from slicing_support import GROWTH, TINY_SDL, scored, slicer_for, valid, words


@pytest.fixture(scope="module")
def tiny() -> tuple[GraphQLSchema, Slicer]:
    schema = build_schema(TINY_SDL)
    return schema, Slicer.of(schema, build_corpus(schema), params=GROWTH, words=words)


def test_a_new_type_brings_the_leaves_that_identify_its_objects(tiny: Any) -> None:
    _, slicer = tiny
    # `order(id: ID!)` selects one Order by `id`, so `Order.id` names an order in answers,
    # though it scores below every other leaf.
    scores = scored(slicer, {"Order.total": 1.0, "Order.id": -1.0})
    assert {"Order.total", "Order.id"} <= slicer.from_scores(scores, 1000).coordinates


REVIEWER_SDL = """
type Query { user(id: ID, username: String): UserCore  mergeRequest(id: ID!): MergeRequest }
interface User { username: String  name: String! }
type UserCore implements User { username: String  name: String!  bio: String }
type Reviewer implements User {
  state: String  note: String  at: String  name: String!  username: String
}
type MergeRequest { id: ID!  reviewers: [Reviewer!]! }
"""


def test_an_identifier_an_interface_declares_identifies_every_implementation() -> None:
    slicer = slicer_for(REVIEWER_SDL)
    # `user(username:)` makes `username` identify a UserCore; the interface both implement
    # declares it, so it identifies a Reviewer too, though the question names neither.
    ranked = ["Query.mergeRequest", "MergeRequest.reviewers", "Reviewer.state"]
    piece = slicer.from_ranked(ranked, 1000, "review states on merge request 1")
    valid(piece.sdl)
    assert "Reviewer.username" in piece.fields


TWINS_SDL = """
type Query { me: Me  team(slug: String!): Team }
interface Person { login: String!  projects(first: Int): [Project!]! }
type Me implements Person { login: String!  projects(first: Int): [Project!]!  email: String }
type Member implements Person { login: String!  projects(first: Int): [Project!]! }
type Team { slug: String!  lead: Member  projects(first: Int): [Project!]! }
type Project { name: String!  stars: Int }
"""


def test_a_field_shown_on_one_implementation_is_not_added_again_through_another() -> None:
    slicer = slicer_for(TWINS_SDL)
    # `Member.projects` means what `Me.projects` means (both implement `Person.projects`):
    # a second way in (`team(slug:) { lead }`) would add a path and nothing new.
    ranked = ["Query.me", "Me.projects", "Member.projects", "Project.stars"]
    piece = slicer.from_ranked(ranked, 1000, "stars of my projects")
    valid(piece.sdl)
    assert {"Me.projects", "Project.stars"} <= set(piece.fields)
    assert not {"Member.projects", "Team.lead"} & set(piece.fields)
    # A field of the same name that no interface declares for both is another thing.
    ranked = ["Query.me", "Me.projects", "Team.projects"]
    assert "Team.projects" in slicer.from_ranked(ranked, 1000, "stars of my projects").fields


VALUE_SDL = """
type Query { project(path: ID!): Project  repository(path: ID!): Repository }
type Project {
  pipelines(
    "Filter pipelines by the ref they are run for."
    ref: String
    "Filter pipelines by the sha of the commit they are run for."
    sha: String
    first: Int
  ): [Pipeline!]!
}
type Repository {
  commits("Branch or tag to search for commits." ref: String, first: Int): [Pipeline!]!
  tree("Commit ref to read." ref: String): String
  branch("Name of the branch." ref: String): String
}
type Pipeline { coverage: Float  sha: String }
"""


def test_a_quoted_value_shows_the_argument_whose_descriptions_call_it_by_the_word_after_it() -> (
    None
):
    slicer = slicer_for(VALUE_SDL)
    ranked = ["Query.project", "Pipeline.coverage", "Pipeline.sha", "Project.pipelines"]
    # `ref`'s own description says nothing of branches; two of the schema's `ref` arguments
    # do ("Branch or tag …", "Name of the branch").
    piece = slicer.from_ranked(ranked, 1000, "pipeline coverage for the 'main' branch of p")
    valid(piece.sdl)
    assert "Project.pipelines(ref:)" in piece.arguments
    assert "Project.pipelines(sha:)" not in piece.arguments
    unquoted = slicer.from_ranked(ranked, 1000, "pipeline coverage for the main branch of p")
    assert "Project.pipelines(ref:)" not in unquoted.arguments


SET_SDL = """
type Query { board(key: String!): Board }
type Board { key: String!  lists(first: Int): [BoardList!]!  owner: Person }
type Person { name: String  email: String  phone: String  id: ID! }
type BoardList { position: Int  color: String  size: Int  title: String  id: ID! }
"""


def test_a_type_asked_as_a_set_shows_its_id() -> None:
    slicer = slicer_for(SET_SDL)
    ranked = ["Query.board", "Board.lists", "BoardList.position"]
    many = slicer.from_ranked(ranked, 1000, "positions of the board lists of board b")
    valid(many.sdl)
    assert "BoardList.id" in many.fields
    # An object not read through a list nor asked as a set: its id stays out (opaque).
    one = slicer.from_ranked(["Query.board", "Board.owner", "Person.name"], 1000, "owner's name")
    assert "Person.id" not in one.fields


def test_a_lists_items_show_their_id_unless_something_else_identifies_them() -> None:
    slicer = slicer_for(
        """
        type Query {
          labels: [Label!]! order(number: Int!): Order orders: [Order!]! meetings: [Meeting!]!
        }
        type Label { name: String slug: String color: String hidden: Boolean _id: ID! }
        type Order { total: Float placed: String paid: Boolean status: String id: ID! number: Int! }
        interface Meeting { id: ID! name: String endedAt: String }
        type Retro implements Meeting { id: ID! name: String endedAt: String topics: Int }
        """
    )
    # A client tells a list's items apart by their id, whatever it is called…
    labels = slicer.from_ranked(["Query.labels", "Label.name"], 1000, "what are the labels called")
    assert "Label._id" in labels.fields
    # …and so are items of an interface type (`... on Meeting { id }`).
    meetings = slicer.from_ranked(["Query.meetings", "Meeting.name"], 1000, "meeting names")
    valid(meetings.sdl)
    assert "Meeting.id" in meetings.fields
    # …unless they have another identifier (`number`, by which `order` looks one up).
    orders = slicer.from_ranked(["Query.orders", "Order.total"], 1000, "the order totals")
    assert "Order.number" in orders.fields
    assert "Order.id" not in orders.fields


def test_a_deprecated_id_gives_way_to_the_identifier_its_reason_names() -> None:
    slicer = slicer_for(
        """
        type Query { products: [Product!]! stores: [Store!]! carts: [Cart!]! }
        type Product {
          id: Int @deprecated(reason: "Use the `uid` field instead.")
          name: String  sku: String  price: Float  weight: Float  color: String  uid: ID!
        }
        type Store {
          id: Int @deprecated(reason: "Use `code` instead.")
          name: String  phone: String  city: String  country: String  code: String
        }
        type Cart {
          id: Int @deprecated(reason: "Not for the storefront.")
          total: Float  items: Int  email: String  note: String  token: ID!
        }
        """
    )
    # A client reads the replacement its deprecation names: an agent should not select `id`.
    products = slicer.from_ranked(["Query.products", "Product.name"], 1000, "product names")
    valid(products.sdl)
    assert "Product.uid" in products.fields
    stores = slicer.from_ranked(["Query.stores", "Store.name"], 1000, "store names")
    assert "Store.code" in stores.fields
    # A reason naming no field: the one non-deprecated `ID!` leaf identifies the objects.
    carts = slicer.from_ranked(["Query.carts", "Cart.total"], 1000, "cart totals")
    assert "Cart.token" in carts.fields


STATE_SDL = """
type Query { repo(name: String!): Repo }
type Repo { name: String!  state: RepoState!  pulls(first: Int): [Pull!]! }
type Pull {
  title: String  additions: Int  deletions: Int  body: String  size: Size!  state: PullState!
}
enum RepoState { ACTIVE ARCHIVED }
enum PullState { OPEN MERGED CLOSED }
enum Size { SMALL LARGE }
"""


def test_a_type_asked_as_a_set_shows_its_state() -> None:
    slicer = slicer_for(STATE_SDL)
    ranked = ["Query.repo", "Repo.pulls", "Pull.additions"]
    many = slicer.from_ranked(ranked, 1000, "additions of the pulls of repo r")
    valid(many.sdl)
    # Of Pull's non-null enum leaves, `state` is the one most types have (Repo has one too).
    assert "Pull.state" in many.fields and "Pull.size" not in many.fields
    one = slicer.from_ranked(ranked, 1000, "additions of pull 3 of repo r")
    assert "Pull.state" not in one.fields


def test_cheap_hits_past_the_first_that_does_not_fit_still_go_in(tiny: Any) -> None:
    schema, _ = tiny
    corpus = build_corpus(schema)
    params = SliceParams(complete=False)
    filled = Slicer.of(schema, corpus, params=params)
    leaves = ["Order.total", "Order.id", "Order.status", "Order.number"]
    budget = filled.from_ranked(["Query.order", *leaves], 1000).tokens
    # Query.orders brings a connection: it does not fit; Order.number (one line on a type
    # already in: the three leaves ranked before it came with Order) still does, and is four
    # hits further down.
    ranked = ["Query.order", "Query.orders", *leaves]
    # One growth within the budget (a ladder starting at it): the fill at a few dozen tokens.
    piece = filled.from_ranked(ranked, budget, ladder=budget)
    assert piece.tokens <= budget and "Order.number" in piece.fields
    assert "Query.orders" not in piece.fields
    strict = Slicer.of(schema, corpus, params=dataclasses.replace(params, fill=False))
    assert "Order.number" not in strict.from_ranked(ranked, budget, ladder=budget).fields


def test_the_fill_serves_the_set_the_question_asks_for_first() -> None:
    # Twenty leaves each: neither type is small enough to show them all as a subject.
    shop, order = (" ".join(f"{letter}{i}: Int" for i in range(1, 21)) for letter in "so")
    slicer = slicer_for(
        f"""type Query {{ shop(handle: String!): Shop }}
        type Shop {{ {shop} orders: [Order!]! report: Report }}
        type Order {{ {order} }}
        type Report {{ a: String b: String c: String d: String e: String }}""",
        params=SliceParams(complete=False),
    )
    head = ["Query.shop", "Shop.s1", "Shop.s2", "Shop.s3", "Shop.orders", "Order.o1", "Order.o2"]
    head.append("Order.o3")
    # Shop.report brings a type: it does not fit, and of the two cheap lines past it, which
    # cost alike, there is room for one: the rank's (Shop.s4), unless the question asks for
    # a set of orders, whose objects an answer lists (Order.o4).
    ranked = [*head, "Shop.report", "Shop.s4", "Order.o4"]
    for question, shown, left in (
        ("which orders of shop s", "Order.o4", "Shop.s4"),
        ("the order 3 of shop s", "Shop.s4", "Order.o4"),
    ):
        budget = slicer.from_ranked([*head, shown], 1000, question).tokens
        piece = slicer.from_ranked(ranked, budget, question, ladder=budget)
        assert shown in piece.fields and left not in piece.fields, question


@pytest.mark.parametrize("grouped", [False, True])
def test_the_fill_adds_no_field_of_the_query_root(grouped: bool) -> None:
    # Nor of a namespace of it (`corpus.groups.namespaces`), whose fields are reads too.
    leaves = " ".join(f"s{i}: Int" for i in range(1, 21))
    fillers = " ".join(f"{name}(x: Int): Int" for name in "abc")  # a namespace's best leaves
    reads = f"shop(handle: String!): Shop  {fillers}  status(verbose: Boolean): String"
    root = "Query { shops: ShopQuery }\ntype ShopQuery" if grouped else "Query"
    slicer = slicer_for(
        f"""type {root} {{ {reads} }}
        type Shop {{ {leaves} t: Int  report: Report }}
        type Report {{ a: String b: String c: String d: String e: String }}""",
        params=SliceParams(complete=False),
    )
    owner = "ShopQuery" if grouped else "Query"
    question = "the s1 of shop s"
    head = [*(["Query.shops"] if grouped else []), f"{owner}.shop"]
    head += [f"{owner}.{name}" for name in "abc"] + [f"Shop.s{i}" for i in range(1, 21)]
    budget = slicer.from_ranked([*head, "Shop.t", f"{owner}.status"], 16000, question).tokens
    # Past `Shop.report`, which does not fit, both lines would: another of the root's fields
    # is a way to what the question did not reach, not a line of its answer.
    ranked = [*head, "Shop.report", f"{owner}.status", "Shop.t"]
    piece = slicer.from_ranked(ranked, budget, question, ladder=budget)
    assert "Shop.t" in piece.fields and f"{owner}.status" not in piece.fields


@pytest.mark.parametrize("grouped", [False, True])
def test_from_a_rung_of_two_thousand_tokens_the_fill_adds_no_write(grouped: bool) -> None:
    # Nor one of a namespace of the mutation root (`corpus.groups.write_owners`).
    owner = "ShopMutation" if grouped else "Mutation"
    root = "Mutation { shops: ShopMutation }\ntype ShopMutation" if grouped else "Mutation"
    way = ["Mutation.shops"] if grouped else []

    def fill_takes_the_other_write(leaves: int) -> tuple[int, bool]:
        """Whether `closeShop`, ranked past a hit that does not fit, comes in by the fill."""
        shop = " ".join(f"s{i}: Int" for i in range(1, leaves + 1))
        slicer = slicer_for(
            f"""type Query {{ shop(handle: String!): Shop }}
            type Shop {{ {shop} report: Report }}
            type Report {{ a: String b: String c: String d: String e: String }}
            type {root} {{ renameShop(handle: String!, name: String!): Shop
              closeShop(handle: String!): Shop }}""",
            params=SliceParams(complete=False),
        )
        question = "Rename shop s to t."
        head = ["Query.shop", *way, f"{owner}.renameShop"]
        head += [f"Shop.s{i}" for i in range(1, leaves + 1)]
        budget = slicer.from_ranked([*head, f"{owner}.closeShop"], 16000, question).tokens
        ranked = [*head, "Shop.report", f"{owner}.closeShop"]
        piece = slicer.from_ranked(ranked, budget, question, ladder=budget)
        return budget, f"{owner}.closeShop" in piece.fields

    # Below the rung the fill is how a write ranked past the main hits comes in; from it, the
    # main hits reach that far, and a write needs only the one it asks for.
    small, taken = fill_takes_the_other_write(50)
    assert small < 2000 and taken
    large, taken = fill_takes_the_other_write(400)
    assert large >= 2000 and not taken


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
    slicer = Slicer.of(schema, build_corpus(schema), params=GROWTH)
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
type Repo { name: String!  head: Ref  object(expression: String): GitObject  tip: GitObject }
type Ref { name: String!  target: GitObject }
interface GitObject { oid: ID! }
type Commit implements GitObject { oid: ID!  message: String! }
type Tree implements GitObject { oid: ID!  entries: [String!] }
"""


def test_a_hit_type_reached_through_an_interface_shows_a_way_through_it_from_each_type() -> None:
    schema = build_schema(GIT_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.repo", "Repo.head", "Commit.message"]
    linked = Slicer.of(schema, corpus, params=GROWTH).from_ranked(ranked, 1000)
    valid(linked.sdl)
    # Ref and Repo are in the slice, Commit has a hit: a field of each into GitObject is
    # shown, and one way from a type is a way (Repo's second one stays out).
    assert {"Ref.target", "Repo.object", "Commit.message", "GitObject"} <= linked.coordinates
    assert "Tree" not in linked.types and "Repo.tip" not in linked.fields


def test_a_type_in_the_slice_brings_the_context_root_that_returns_it() -> None:
    schema = build_schema(GIT_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.user", "User.repos"]
    piece = Slicer.of(schema, corpus).from_ranked(ranked, 1000)
    valid(piece.sdl)
    # `viewer: User!` needs no argument and returns one object; `relay` returns the root.
    assert "Query.viewer" in piece.fields and "Query.relay" not in piece.fields


ROOT_LOOKUP_SDL = """
type Query {
  assetOrError(key: String!): AssetOrError
  assetNodeOrError(key: String!): AssetNodeOrError
  assets: [Asset!]!
}
type Mutation { wipeAsset(key: String!): AssetNode }
union AssetOrError = Asset | AssetNotFound
union AssetNodeOrError = AssetNode | AssetNotFound
type Asset { key: String! definition: AssetNode }
type AssetNode { description: String groupName: String }
type AssetNotFound { message: String! }
"""


def test_a_type_with_hits_brings_the_roots_lookup_of_its_objects() -> None:
    slicer = slicer_for(ROOT_LOOKUP_SDL)
    ranked = ["Query.assetOrError", "Asset.definition", "AssetNode.description"]
    # The slice reached `AssetNode` through `Asset.definition`; from 2,000 tokens a read also
    # shows the root's lookup of it (through the union of it and its failure).
    read = slicer.from_ranked(ranked, 2000, "the description of the orders asset")
    assert "Query.assetNodeOrError" in read.fields
    valid(read.sdl)
    # Below that, every token goes to ranked hits; a write returns what it changed.
    small = slicer.from_ranked(ranked, 1000, "the description of the orders asset")
    assert "Query.assetNodeOrError" not in small.fields
    wipe = slicer.from_ranked(ranked, 2000, "Wipe the orders asset.")
    assert "Query.assetNodeOrError" not in wipe.fields


def test_a_reads_union_of_one_object_and_its_failures_shows_every_failure() -> None:
    slicer = slicer_for(ROOT_LOOKUP_SDL)
    ranked = ["Query.assetNodeOrError", "AssetNode.description"]
    # From 2,000 tokens a read selects each way its lookup can end, as a write does.
    read = slicer.from_ranked(ranked, 2000, "the description of the orders asset")
    assert "AssetNotFound.message" in read.fields
    valid(read.sdl)
    small = slicer.from_ranked(ranked, 1000, "the description of the orders asset")
    assert "AssetNotFound.message" not in small.fields


def test_a_reads_union_of_values_shows_every_shape_the_value_takes() -> None:
    slicer = slicer_for(
        "type Query { search(term: String!): [Result!]! }\n"
        "type Result { name: String! price: Price floor: Single }\n"
        "union Price = Range | Single\n"
        "type Range { min: Int! max: Int! } type Single { value: Int! }"
    )
    ranked = ["Query.search", "Result.price", "Range.min"]
    # A price is a range or a single value: from 2,000 tokens a read selects both. (A field
    # returns `Single`, so the union is not the only way to its members, whose kinds a read
    # would select at every rung.)
    read = slicer.from_ranked(ranked, 2000, "search results with their prices")
    assert {"Range.min", "Single.value"} <= set(read.fields)
    valid(read.sdl)
    small = slicer.from_ranked(ranked, 1000, "search results with their prices")
    assert "Single.value" not in small.fields


def test_a_reads_union_of_the_kinds_of_one_answer_shows_every_kind_that_fits() -> None:
    def slicer_with(kinds: int) -> Slicer:
        others = [f"Unknown{n}" for n in range(kinds)]
        return slicer_for(
            "type Query { account(id: ID!): Account }\n"
            "type Account { name: String! canFollow: FollowCheck! }\n"
            f"union FollowCheck = {' | '.join(['Allowed', 'Refused', *others])}\n"
            "type Allowed { id: ID! passed: Boolean! } type Refused { id: ID! reason: String! }\n"
            + "\n".join(f"type {n} {{ id: ID! checksStillRequired: [String!]! }}" for n in others)
        )

    ranked = ["Query.account", "Account.canFollow", "Refused.reason"]
    question = "can I follow this account, and if not why"
    # Only the union reaches its members (entities, not values: each has an `ID`): a read
    # selects every kind.
    read = slicer_with(1).from_ranked(ranked, 2000, question)
    assert {"Allowed.passed", "Unknown0.checksStillRequired"} <= set(read.fields)
    valid(read.sdl)
    # At every rung: the cap is a share of the budget (one other kind fits 2% of 1,000).
    assert "Allowed.passed" in slicer_with(0).from_ranked(ranked, 1000, question).fields
    # Kinds costing more than their share of the budget wait for the completion, all of them.
    costly = slicer_with(12).from_ranked(ranked, 2000, question)
    assert "Allowed.passed" not in costly.fields


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
    indented = SliceParams(indent=2, complete=False)
    two = Slicer.of(schema, slicer.corpus, params=indented).from_ranked(ranked, 1000)
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
    piece = Slicer.of(schema, corpus, params=GROWTH).from_ranked(ranked, 1000)
    valid(piece.sdl)
    # `object` returns one Blob and takes no required argument: its arguments choose which.
    assert {"Repo.object(expression:)", "Repo.object(oid:)"} <= piece.coordinates
    # `blobs` is a list: its optional `path` filter stays hidden (only the page size shows).
    assert "Repo.blobs(first:)" in piece.arguments and "Repo.blobs(path:)" not in piece.arguments


def test_a_single_object_field_with_dozens_of_optional_filters_shows_those_named() -> None:
    # A search resolver returning its first match: past TOP_ARGUMENTS_CAP optional
    # arguments, the question's words choose them, as for a list.
    filters = ", ".join(f"filter{n}: String" for n in range(TOP_ARGUMENTS_CAP))
    schema = build_schema(LOOKUP_SDL.replace("oid: ID)", f"oid: ID, {filters})"))
    ranked = ["Query.repo", "Repo.name", "Blob.text", "Repo.object"]
    slicer = Slicer.of(schema, build_corpus(schema), params=GROWTH)
    piece = slicer.from_ranked(ranked, 1000, "the blob's oid")
    valid(piece.sdl)
    assert "Repo.object(oid:)" in piece.arguments
    assert not {"Repo.object(expression:)", "Repo.object(filter0:)"} & set(piece.arguments)


def test_the_first_hits_show_every_argument() -> None:
    schema = build_schema(LOOKUP_SDL)
    corpus = build_corpus(schema)
    slicer = Slicer.of(schema, corpus, params=GROWTH)
    # The second hit: `path` shows although the question does not name it.
    assert "Repo.blobs(path:)" in slicer.from_ranked(["Query.repo", "Repo.blobs"], 1000).arguments
    # The third hit: only the page size.
    late = slicer.from_ranked(["Query.repo", "Repo.name", "Repo.blobs"], 1000)
    assert "Repo.blobs(first:)" in late.arguments and "Repo.blobs(path:)" not in late.arguments


DEPRECATED_SDL = """
type Query { repo(name: String!): Repo }
type Repo {
  object(expression: String, oid: ID @deprecated(reason: "Use expression."), at: Int!): Blob
  blobs(first: Int, path: String, glob: String @deprecated): [Blob!]!
}
type Blob { oid: ID!  text: String }
"""


def test_a_deprecated_optional_argument_is_never_offered() -> None:
    schema = build_schema(DEPRECATED_SDL)
    corpus = build_corpus(schema)
    slicer = Slicer.of(schema, corpus)
    for ranked in (["Query.repo", "Repo.object"], ["Query.repo", "Repo.blobs"]):
        piece = slicer.from_ranked(ranked, 1000, "object blob by oid or glob path")
        valid(piece.sdl)
        # The first hits show every argument, and `oid` and `glob` are named, but an agent
        # should not write a deprecated argument.
        assert not {"Repo.object(oid:)", "Repo.blobs(glob:)"} & piece.coordinates
    assert "Repo.blobs(path:)" in piece.arguments
    everything = Slicer.of(schema, corpus, params=SliceParams(arguments="all"))
    whole = everything.from_ranked(["Query.repo", "Repo.blobs"], 1000)
    assert "Repo.blobs(glob:)" in whole.arguments


KIND_SDL = """
type Query { repo(name: String!): Repo }
type Repo { name: String!  blobs(first: Int, kind: BlobKind): [Blob!]! }
type Blob { oid: ID!  text: String }
enum BlobKind { BLOB_FILE TREE }
"""


def test_an_argument_is_not_chosen_by_the_words_of_its_own_field() -> None:
    slicer = slicer_for(KIND_SDL)
    ranked = ["Query.repo", "Repo.name", "Blob.text", "Repo.blobs"]  # past the first hits
    # `kind`'s value `BLOB_FILE` says "blob", but so does `blobs` itself: not a filter asked.
    assert "Repo.blobs(kind:)" not in slicer.from_ranked(ranked, 1000, "repo blobs").arguments
    assert "Repo.blobs(kind:)" in slicer.from_ranked(ranked, 1000, "file blobs").arguments


SEARCH_SDL = """
type Query { shop(id: ID!): Shop }
type Shop {
  name: String!
  tags(first: Int, filter: String, locale: String, q: String, sort: [SortOption!]): [Tag!]!
}
type Tag { id: ID!  name: String! }
"How a list is sorted: by a key, one way."
input SortOption { key: String!  value: SortDirection! }
enum SortDirection { ASC DESC }
"""
SEARCH_RANKED = ["Query.shop", "Shop.name", "Tag.name", "Shop.tags"]  # past the first hits


def test_a_question_looking_for_text_shows_the_lists_text_search_arguments() -> None:
    slicer = slicer_for(SEARCH_SDL.replace("q: String", '"A regex search on the name" q: String'))
    found = slicer.from_ranked(SEARCH_RANKED, 1000, 'shop tags whose name contains "summer"')
    valid(found.sdl)
    # `filter: String` by its name, `q` by its description; `locale` is a String, no search.
    assert {"Shop.tags(filter:)", "Shop.tags(q:)"} <= set(found.arguments)
    assert "Shop.tags(locale:)" not in found.arguments
    quoted = slicer.from_ranked(SEARCH_RANKED, 1000, 'the shop\'s "summer" tags')
    assert not {"Shop.tags(filter:)", "Shop.tags(q:)"} & set(quoted.arguments)


def test_a_question_asking_for_an_order_shows_the_argument_that_takes_a_direction() -> None:
    slicer = slicer_for(SEARCH_SDL)
    # `sort`'s input holds a value of ASC or DESC: it orders the list.
    ordered = slicer.from_ranked(SEARCH_RANKED, 1000, "the shop's tags, newest first")
    valid(ordered.sdl)
    assert "Shop.tags(sort:)" in ordered.arguments
    assert "SortDirection" in ordered.types
    assert "Shop.tags(sort:)" not in slicer.from_ranked(SEARCH_RANKED, 1000, "shop tags").arguments


PIPELINE_SDL = """
type Query { project(path: ID!): Project  pipeline(id: ID!): Pipeline }
type Project { name: String!  pipelines(first: Int): PipelineConnection }
type PipelineConnection { nodes: [Pipeline] }
type Pipeline { id: ID!  status: String }
"""


def test_a_type_named_in_the_plural_gets_a_list_from_the_slice_though_no_hit_on_it_fitted() -> (
    None
):
    slicer = slicer_for(PIPELINE_SDL)
    ranked = ["Query.project", "Project.name"]
    piece = slicer.from_ranked(ranked, 1000, "the pipelines of project p")
    valid(piece.sdl)
    assert {"Project.pipelines", "PipelineConnection.nodes"} <= piece.coordinates
    assert "Project.pipelines" not in slicer.from_ranked(ranked, 1000, "project p").fields


SHORT_FORM_SDL = """
type Query { project(fullPath: ID!): Project  mergeRequest(id: ID!): MergeRequest }
type Project { name: String  mergeRequests(first: Int): [MergeRequest!]!  pipelines: [Pipeline!]! }
type MergeRequest { title: String  state: String }
type Pipeline { status: String }
"""


def test_a_slice_reads_the_question_as_its_ranking_read_it() -> None:
    """One reading (`Ranking.reading`): the ranking expands the short form ("MRs" → merge
    requests), and the slice of its ranking takes that reading, so the set the question asks
    for gets its list though no hit on it was handed over; read again from the raw words, it
    would not."""
    from schemanav.corpus import Format
    from schemanav.retrieval.structural import StructuralBackend

    slicer = slicer_for(SHORT_FORM_SDL)
    searcher = StructuralBackend(Format.DOT_PLUS_GLOSS, max_paths=0).index(slicer.corpus)
    question = "open MRs of project p"
    reading = searcher.ranking(question, 50).reading
    assert reading is not None and "merge requests" in reading.text
    ranked = ["Query.project", "Project.name"]
    shown = slicer.from_ranked(ranked, 1000, question, reading=reading)
    valid(shown.sdl)
    assert "Project.mergeRequests" in shown.fields
    assert "Project.mergeRequests" not in slicer.from_ranked(ranked, 1000, question).fields


REF_SDL = """
type Query { repo(name: String!): Repo }
type Repo {
  name: String!
  ref(name: String!): Ref
  refs(
    "Returns the first n elements."
    first: Int
    "A ref name prefix like `refs/heads/`, `refs/tags/`, etc."
    prefix: String!
  ): [Ref!]!
  %s
}
type Ref { name: String!  target: GitObject }
interface GitObject { oid: String! }
type Tag implements GitObject { oid: String!  message: String }
type Commit implements GitObject { oid: String!  message: String }
"""


@pytest.mark.parametrize(
    ("extra", "question", "listed"),
    [
        ("", "the tags of repo r", True),
        ("", "the name of repo r", False),
        # A list returns tags: that is their way in, not a list whose arguments name them.
        ("tags(first: Int): [Tag!]!", "the tags of repo r", False),
    ],
)
def test_a_set_no_list_returns_is_reached_by_the_list_whose_arguments_describe_it(
    extra: str, question: str, listed: bool
) -> None:
    slicer = slicer_for(REF_SDL % extra)
    piece = slicer.from_ranked(["Query.repo", "Repo.name"], 1000, question)
    valid(piece.sdl)
    assert ("Repo.refs(prefix:)" in piece.arguments) is listed


def test_a_list_whose_items_do_not_lead_to_the_set_is_no_way_to_it() -> None:
    notes = 'notes("Notes on protected tags only" protected: Boolean): [Note!]!  '
    sdl = (REF_SDL % "").replace("ref(name: String!): Ref", notes + "ref(name: String!): Ref")
    slicer = slicer_for(sdl.replace("`refs/tags/`", "`refs/other/`") + "type Note { text: String }")
    piece = slicer.from_ranked(["Query.repo", "Repo.name"], 1000, "the tags of repo r")
    valid(piece.sdl)
    assert "Repo.notes" not in piece.fields  # its items (notes) lead to no tag


TIMELINE_SDL = """
type Query { pull(number: Int!): Pull }
type Pull { title: String!  items(first: Int, itemTypes: [ItemType!]): ItemConnection! }
type ItemConnection { nodes: [Item] }
union Item = ClosedEvent | ReopenedEvent | Comment
enum ItemType { CLOSED_EVENT  REOPENED_EVENT  COMMENT }
type ClosedEvent { actor: String  createdAt: String }
type ReopenedEvent { actor: String  createdAt: String }
type Comment { body: String }
"""


def test_a_filter_value_that_names_a_type_of_the_list_brings_that_type() -> None:
    slicer = slicer_for(TIMELINE_SDL)
    ranked = ["Query.pull", "Pull.items", "ItemConnection.nodes", "Comment.body"]
    reopened = slicer.from_ranked(ranked, 1000, "when was pull 3 reopened")
    valid(reopened.sdl)
    # REOPENED_EVENT is told from the other values by "reopened" ("event" half of them say).
    assert "Pull.items(itemTypes:)" in reopened.arguments
    assert "ReopenedEvent" in reopened.types and "ClosedEvent" not in reopened.types
    plain = slicer.from_ranked(ranked, 1000, "comments on pull 3")
    assert "ReopenedEvent" not in plain.types


ALERT_SDL = """
type Query { repo(name: String!): Repo }
type Repo {
  name: String!
  alert(number: Int!): Alert
  recentAlerts(first: Int): AlertConnection!
  alerts(first: Int, states: [AlertState!]): AlertConnection!
}
type AlertConnection { nodes: [Alert!]! }
type Alert { number: Int!  state: AlertState!  severity: String }
enum AlertState { OPEN  FIXED  DISMISSED }
"""


def test_a_value_a_list_filters_by_brings_that_list_beside_a_lookup() -> None:
    slicer = slicer_for(ALERT_SDL)
    ranked = ["Query.repo", "Repo.alert", "Alert.severity"]
    # "open": a value `alerts` filters by, so the question asks which alerts are open.
    stated = slicer.from_ranked(ranked, 1000, "severity of open scanning results in repo r")
    valid(stated.sdl)
    assert "Repo.alerts(states:)" in stated.arguments
    assert "Repo.recentAlerts" not in stated.fields  # it filters by nothing named
    # No value named; or one alert, named by its number.
    for question in ("severity of scanning results in repo r", "is alert 3 of repo r open"):
        assert "Repo.alerts" not in slicer.from_ranked(ranked, 1000, question).fields, question


def test_a_connection_between_types_in_the_slice_goes_in_when_the_question_names_its_nodes() -> (
    None
):
    slicer = slicer_for(PIPELINE_SDL)
    ranked = ["Query.project", "Project.name", "Query.pipeline", "Pipeline.status"]
    named = slicer.from_ranked(ranked, 1000, "the pipeline status of project p")
    valid(named.sdl)
    assert "Project.pipelines" in named.fields and "PipelineConnection.nodes" in named.fields
    # Unnamed, the connection is not a connective (its type is not in the slice yet).
    assert "Project.pipelines" not in slicer.from_ranked(ranked, 1000, "the status of p").fields


CONNECTIVE_SDL = """
type Query { shop(id: ID!): Shop  order(id: ID!): Order }
type Shop { name: String!  flagship: Order  orders: [Order!]!  owner: Person  rating: Int  city: String  zip: String  phone: String }
type Order { number: Int!  total: Float  shop: Shop }
type Person { name: String! }
"""  # noqa: E501


def test_fields_between_types_with_hits_use_the_reserved_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    schema = build_schema(CONNECTIVE_SDL)
    corpus = build_corpus(schema)
    ranked = ["Query.shop", "Query.order", "Order.total", "Shop.rating", "Shop.city", "Shop.zip",
              "Shop.phone", "Shop.owner", "Shop.flagship", "Shop.orders"]  # fmt: skip
    params = SliceParams(fill=False)
    reserved = Slicer.of(schema, corpus, params=params)
    connectives = {"Shop.flagship", "Shop.orders"}
    # A fifth of the budget goes to fields from a type in the slice to one with a hit (Order),
    # each a line: Shop.flagship and Shop.orders (the list too, its type being in), ranked
    # last, come before the hit ranked 7th; Shop.owner leads to a type not in.
    budget = next(
        b
        for b in range(30, 200)
        if connectives <= reserved.from_ranked(ranked, b, ladder=b).coordinates
    )
    piece = reserved.from_ranked(ranked, budget, ladder=budget)
    valid(piece.sdl)
    assert piece.tokens <= budget
    assert "Shop.phone" not in piece.fields and "Shop.owner" not in piece.fields
    # Without the reserve, the hits take the budget first.
    monkeypatch.setattr(build, "RESERVE", 0.0)
    plain = Slicer.of(schema, corpus, params=params)
    assert "Shop.phone" in plain.from_ranked(ranked, budget, ladder=budget).fields


def test_two_types_are_related_by_at_most_a_few_connectives() -> None:
    ways = [f"order{n}" for n in range(CONNECTIVES_PER_PAIR + 1)]
    schema = build_schema(
        "type Query { shop(id: ID!): Shop  order(id: ID!): Order }\n"
        f"type Shop {{ name: String!  rating: Int  {' '.join(f'{w}: Order' for w in ways)} }}\n"
        "type Order { number: Int!  total: Float }"
    )
    unfilled = SliceParams(fill=False, complete=False)
    slicer = Slicer.of(schema, build_corpus(schema), params=unfilled)
    ranked = ["Query.shop", "Query.order", "Order.total", "Shop.rating"]
    between = {f"Shop.{w}" for w in ways}
    # The first CONNECTIVES_PER_PAIR fields from Shop to Order (by score, then by place)
    # relate them, though the budget would hold one more.
    shown = set(slicer.from_ranked(ranked, 1000).fields)
    assert between & shown == {f"Shop.{w}" for w in ways[:-1]}
    # A field between them that ranked counts among them.
    shown = set(slicer.from_ranked([*ranked, f"Shop.{ways[-1]}"], 1000).fields)
    assert len(between & shown) == CONNECTIVES_PER_PAIR and f"Shop.{ways[-1]}" in shown


OUTCOMES_SDL = """
type Query {{ run(id: ID!): RunOrError  job(name: String!): JobOrError
  asset(key: String!): AssetOrError  sensor(name: String!): SensorOrError }}
type Run {{ id: ID!  status: String }}
type Job {{ name: String!  runs: [Run!]! }}
type Asset {{ key: String!  stale: Boolean }}
type Sensor {{ name: String!  running: Boolean }}
type NotFound {{ message: String! }}
type PythonError {{ message: String!  stack: [String!]!  className: String
  chain: [ChainLink!]!  cause: String @deprecated(reason: "Use chain.") }}
type ChainLink {{ explicit: Boolean!  error: PythonError!  note: String }}
union RunOrError = Run | PythonError | NotFound
union JobOrError = Job | PythonError
union AssetOrError = Asset | PythonError
union SensorOrError = Sensor | {sensor_error}
"""


@pytest.mark.parametrize("sensor_error", ["PythonError", "NotFound"])
def test_a_union_shows_the_outcome_most_of_the_schemas_unions_share_whole(
    sensor_error: str,
) -> None:
    # `PythonError` is a member of four of the four unions (or of three of four: not
    # enough): how the schema reports failure wherever it may occur, read whole by every
    # operation on such a union; `NotFound`, in one union, is that union's own (a read's
    # failures come in whole only from 2,000 tokens: `add_read_outcomes`).
    slicer = slicer_for(OUTCOMES_SDL.format(sensor_error=sensor_error))
    piece = slicer.from_ranked(["Query.run", "Run.status"], 1000, "What is run 7's status?")
    valid(piece.sdl)
    whole = {
        "PythonError.message", "PythonError.stack", "PythonError.className",
        "PythonError.chain", "ChainLink.explicit", "ChainLink.error", "ChainLink.note",
    }  # fmt: skip
    shown = set(piece.fields)
    if sensor_error == "PythonError":
        assert whole <= shown and "NotFound.message" not in shown
        assert "PythonError.cause" not in shown  # deprecated: not to be selected
    else:
        assert not whole & shown


def test_the_shared_outcome_needs_no_way_of_its_own() -> None:
    # Every union may return `PythonError`: in the slice as the outcome of `run`, it is no
    # hit a way must reach, or each field of the slice into such a union would come with it.
    sdl = OUTCOMES_SDL.format(sensor_error="PythonError").replace(
        "type Run { id: ID!  status: String }",
        "type Run { id: ID!  status: String  job: JobOrError  asset: AssetOrError }",
    )
    piece = slicer_for(sdl).from_ranked(["Query.run", "Run.status"], 2000, "Run 7's status?")
    assert "PythonError.message" in piece.fields
    assert not {"Run.job", "Run.asset"} & set(piece.fields)


def test_the_shared_outcome_comes_with_its_parts_at_any_depth() -> None:
    # A chain link's frame, and the frame's source, exist only to make up the error: a
    # client's one fragment for it selects them all.
    sdl = OUTCOMES_SDL.format(sensor_error="PythonError").replace(
        "note: String }", "note: String  frame: Frame }\n"
        "type Frame { file: String  line: Int  source: Source }\n"
        "type Source { text: String  lines: Int }",
    )
    piece = slicer_for(sdl).from_ranked(["Query.run", "Run.status"], 2000, "Run 7's status?")
    valid(piece.sdl)
    assert {"ChainLink.frame", "Frame.source", "Source.text", "Source.lines"} <= set(piece.fields)


ENVELOPE_SDL = """
type Query { pages: PageQuery  forms: FormQuery }
type PageQuery { page(id: ID!): PageResponse  pages: PageListResponse
  category(slug: String!): CategoryResponse }
type FormQuery { form(id: ID!): FormResponse }
type Page { id: ID!  title: String!  path: String }
type Category { slug: String!  name: String! }
type Form { id: ID!  name: String! }
type Error { code: String  message: String  data: String }
type PageResponse { data: Page  error: Error }
type PageListResponse { data: [Page!]  error: Error }
type CategoryResponse { data: Category  error: Error }
type FormResponse { data: Form  error: Error }
"""


@pytest.mark.parametrize("carriers", [4, 3])
def test_an_envelope_most_answers_carry_is_shown_whole(carriers: int) -> None:
    # `error: Error` beside every answer's `data`, on the four types the entry fields
    # return (those of `PageQuery` and `FormQuery`, which group them): how the schema
    # reports an outcome, selected alike by every operation. `data` is each answer's own;
    # three carriers are too few to tell an envelope.
    sdl = ENVELOPE_SDL
    if carriers == 3:
        sdl = sdl.replace("{ data: Form  error: Error }", "{ data: Form }")
    piece = slicer_for(sdl).from_ranked(["PageQuery.page", "Page.title"], 2000, "Page 7's title?")
    valid(piece.sdl)
    whole = {"PageResponse.error", "Error.code", "Error.message", "Error.data"}
    assert (whole <= set(piece.fields)) is (carriers == 4)


ENTRY_SDL = """
type Query { shop: Shop  orders(status: String, sort: String, limit: Int, offset: Int): [Order!]! }
type Shop { name: String!  orders(status: String, sort: String, limit: Int, offset: Int): [Order!]! }
type Order { id: ID!  total: Int!  placed: String  shop: Shop }
"""  # noqa: E501


def test_an_entry_field_shows_every_argument_it_offers_while_they_cost_little() -> None:
    # A client operation states its filters, order and page on the field it enters by,
    # though the question names none of them.
    slicer = slicer_for(ENTRY_SDL)
    question = "Which orders were placed?"
    offered = {"status", "sort", "limit", "offset"}
    ranked = ["Order.placed", "Order.total", "Shop.name", "Query.orders", "Shop.orders"]
    piece = slicer.from_ranked(ranked, 4000, question)
    valid(piece.sdl)
    assert {f"Query.orders({a}:)" for a in offered} <= set(piece.arguments)
    # Within 500 tokens they cost more than half a percent of the budget: not shown.
    small = slicer.from_ranked(ranked, 500, question)
    assert not offered & {a.split("(")[1][:-2] for a in small.arguments}


def test_an_entry_field_returning_a_value_shows_what_it_counts_by() -> None:
    # A count answered at the root (`productsCount(tags:, includeDrafts:)`) is a value, and
    # its arguments say what it counts; a third hit, it shows them as a list entering does.
    sdl = ENTRY_SDL.replace(
        "type Query { shop: Shop ",
        "type Query { shop: Shop  ordersCount(placedAfter: String, drafts: Boolean): Int! ",
    )
    ranked = ["Order.total", "Order.placed", "Query.ordersCount"]
    piece = slicer_for(sdl).from_ranked(ranked, 2000, "How many orders?")
    valid(piece.sdl)
    assert {"Query.ordersCount(placedAfter:)", "Query.ordersCount(drafts:)"} <= set(piece.arguments)

def test_a_list_further_in_shows_its_arguments_from_2000_tokens_within_a_smaller_share() -> None:
    # A list further in (`Shop`, which an order returns too, groups no entry fields) is paged,
    # sorted and filtered where the operation reads it (`shop { orders(sort:) }`): from 2,000
    # tokens it shows its arguments too, while they cost 1% of the budget in all.
    slicer = slicer_for(ENTRY_SDL)
    question = "Which orders were placed?"
    ranked = ["Order.placed", "Order.total", "Shop.name", "Query.orders", "Shop.orders"]
    offered = {f"Shop.orders({a}:)" for a in ("status", "sort", "limit", "offset")}
    assert not offered & set(slicer.from_ranked(ranked, 1000, question).arguments)
    piece = slicer.from_ranked(ranked, 4000, question)
    valid(piece.sdl)
    assert offered <= set(piece.arguments)
    # A list of values too (`tags(prefix:)`).
    tags = "tags(prefix: String): [String!]! "
    tagged = ENTRY_SDL.replace("placed: String ", f"placed: String  {tags}")
    listed = slicer_for(tagged).from_ranked([*ranked, "Order.tags"], 4000, question)
    assert "Order.tags(prefix:)" in listed.arguments
    # Twelve more arguments cost more than that within 2,000 tokens: none shown there.
    many = ", ".join(f"filter{n}: String" for n in range(12))
    shop = "Shop { name: String!  orders("
    wide = slicer_for(ENTRY_SDL.replace(shop, f"{shop}{many}, "))
    assert not offered & set(wide.from_ranked(ranked, 2000, question).arguments)


_SLICE_IN_A_PROCESS = """
import sys
sys.path.insert(0, "tests")
from slicing_support import slicer_for
from test_slicing_growth import OUTCOMES_SDL
sdl = OUTCOMES_SDL.format(sensor_error="PythonError").replace(
    "union RunOrError = Run | PythonError | NotFound",
    "union RunOrError = Run | PythonError | NotFound | Timeout",
) + "type Timeout { after: Int }  union JobOrError2 = Job | Timeout  union A2 = Asset | Timeout"
sdl = sdl.replace("union SensorOrError = Sensor | PythonError", "union SensorOrError = Sensor | PythonError | Timeout")
for budget in (120, 160, 200, 400):
    print(slicer_for(sdl).from_ranked(["Query.run", "Run.status"], budget, "Run 7?").sdl)
from test_slicing_writes import OUTCOME_SDL
errors = [f"E{n}" for n in range(8)]
sdl = OUTCOME_SDL.replace("| Unauthorized", "| Unauthorized | " + " | ".join(errors))
sdl += "".join(f" type {e} {{ reason: String }}" for e in errors)
for budget in (100, 120, 140, 160):
    print(slicer_for(sdl).from_ranked(["Mutation.startSensor"], budget, "Start it.").sdl)
from schemanav.retrieval.slicing import SliceParams
sdl = sdl.replace("| SensorNotFound\\n", "| SensorNotFound | " + " | ".join(errors) + "\\n", 1)
for budget in (100, 120, 140, 160):
    piece = slicer_for(sdl, SliceParams()).from_ranked(["Query.sensor"], budget, "Is it on?")
    print(piece.sdl)
"""  # noqa: E501


def test_a_slice_is_the_same_whatever_the_process_hash_seed() -> None:
    # Sets of names iterate in an order each process draws anew: the members a union
    # brings (a read's shared outcome, a write's every outcome), the envelopes a type
    # shows, are taken in the schema's order instead.
    root = Path(__file__).resolve().parents[1]
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _SLICE_IN_A_PROCESS],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(6)
    }
    assert len(outputs) == 1


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
    lean = Slicer.of(schema, corpus, params=GROWTH).from_ranked(ranked, 1000)
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


FOLLOWING_SDL = """
type Query { ticket(id: ID!): Ticket }
type Mutation { ticketUpdate(id: ID!, title: String): Ticket }
type Subscription { ticketUpdates(id: ID!): Ticket }
type Ticket { id: ID! title: String state: String }
"""


def test_a_question_following_changes_takes_the_subscription_wherever_it_ranks() -> None:
    slicer = slicer_for(FOLLOWING_SDL, SliceParams())
    ranked = ["Query.ticket", "Ticket.title", "Subscription.ticketUpdates", "Mutation.ticketUpdate"]
    following = slicer.from_ranked(ranked, 1000, "Tell me live when ticket 5 changes.")
    valid(following.sdl)
    assert "Subscription.ticketUpdates" in following.fields
    # The subscription root only: the write ranked after it stays behind the write gate...
    assert "Mutation.ticketUpdate" not in following.fields
    # ...as the subscription does for a question that reads.
    read = slicer.from_ranked(ranked, 1000, "Which ticket changed its title?")
    assert not {"Subscription.ticketUpdates", "Mutation.ticketUpdate"} & set(read.fields)


ASSOCIATION_SDL = """
type Query { product(id: ID!): Product  pinnedMedia: PinnedMedia }
type Product { id: ID!  title: String  media: [ProductMedia!]! }
type ProductMedia { id: ID!  sortKey: Int!  tags: [String!]  file: Media }
type PinnedMedia { id: ID!  file: Media }
type Media { id: ID!  url: String!  size: Int }
"""


def test_an_association_object_shows_what_it_holds() -> None:
    # `ProductMedia` is named for `Product` and `Media`: its one field returning a `Media` is
    # what it is about, its sort key and tags only place it.
    slicer = slicer_for(ASSOCIATION_SDL)
    assert slicer.associations == {"ProductMedia": "file"}  # "Pinned" names no type
    ranked = ["Query.product", "Product.media", "ProductMedia.sortKey"]
    piece = slicer.from_ranked(ranked, 500, "the pictures of product 12 in their order")
    assert "ProductMedia.file" in piece.fields and "Media.url" in piece.fields
    valid(piece.sdl)
