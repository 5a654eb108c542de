"""The completion (`completion.Completion.complete`): the budget a slice has left once its
ranked hits are in fills the types in the slice, their leaves and the values they hold first,
then further types, then the other members of the slice's unions, then the interfaces its
objects implement, then every field's other arguments; and from the rung of 4,000 tokens the
writes a read ranked and the gate kept out."""

from __future__ import annotations

import pytest

from schemanav.retrieval.slicing import SliceParams, completion
from schemanav.retrieval.slicing.params import (
    EARLY_COMPLETION_FROM,
    FILL_MEMBER_CAP,
    GATED_WRITES_FROM,
)
from slicing_support import GROWTH, TINY_SDL, filled_query, scored, slicer_for, valid

COMPLETION_SDL = """
type Query {
  order(id: ID!): Order
  shops: [Shop!]!
}

type Order {
  id: ID!
  number: Int!
  note: String
  oldNote: String @deprecated(reason: "Use note.")
  customer: Customer
}

type Customer {
  email: String
  phone: String
}

type Shop {
  name: String
}
"""


def test_a_budget_left_once_every_hit_is_in_completes_the_types_in_the_slice() -> None:
    slicer = slicer_for(COMPLETION_SDL, SliceParams())
    hits = {"Query.order": 2.0, "Order.number": 1.0}
    roomy = slicer.from_scores(scored(slicer, hits), 2000)
    valid(roomy.sdl)
    # Order shows every field but the deprecated one; `customer` brings Customer, which is
    # completed in turn; the query root is not (its `shops` leads elsewhere).
    assert {"Order.note", "Order.customer", "Customer.email", "Customer.phone"} <= set(
        roomy.fields
    )
    assert "Order.oldNote" not in roomy.fields and "Query.shops" not in roomy.fields
    assert roomy.tokens <= 2000
    tight = slicer.from_scores(scored(slicer, hits), roomy.tokens - 1)
    assert tight.tokens <= roomy.tokens - 1 and set(tight.fields) < set(roomy.fields)


def test_a_budget_the_fill_leaves_completes_the_types_in_the_slice() -> None:
    # A ranked hit too dear for the budget (a report taking twenty required arguments) stops
    # the main hits and the fill finds nothing cheaper: what is left completes the types in.
    arguments = ", ".join(f"a{n}: String!" for n in range(20))
    report = f"shops: [Shop!]!\n  report({arguments}): String"
    sdl = COMPLETION_SDL.replace("shops: [Shop!]!", report)
    hits = {"Query.order": 3.0, "Query.report": 2.0, "Order.number": 1.0}
    budget = 100
    for params, completed in ((SliceParams(), True), (GROWTH, False)):
        slicer = slicer_for(sdl, params)
        piece = slicer.from_scores(scored(slicer, hits), budget, ladder=budget)
        valid(piece.sdl)
        assert "Query.report" not in piece.fields and piece.tokens <= budget
        assert ({"Customer.email", "Customer.phone"} <= set(piece.fields)) is completed


VALUE_SDL = """
type Query {
  order(id: ID!): Order
}

type Order {
  number: Int!
  customer: Customer
  pickup: Point
}

"A point on the map."
type Point {
  x: Float!
  y: Float!
}

type Customer {
  id: ID!
  email: String
  phone: String
}
"""


def test_the_completion_shows_the_values_a_type_holds_before_further_types() -> None:
    # `Point` is a value (two leaves, nothing identifies one): an answer reads it whole with
    # the order. `customer` comes first in the schema, yet at no budget does it enter before
    # `pickup`, and some budget has room for the value alone.
    slicer = slicer_for(VALUE_SDL, SliceParams())
    assert slicer.value_types == frozenset({"Point"})
    hits = scored(slicer, {"Query.order": 2.0, "Order.number": 1.0})
    pieces = [slicer.from_scores(hits, budget) for budget in range(26, 120, 2)]
    for piece in pieces:
        valid(piece.sdl)
        assert "Order.customer" not in piece.fields or "Order.pickup" in piece.fields
    assert any("Order.pickup" in p.fields and "Order.customer" not in p.fields for p in pieces)
    assert "Order.customer" in pieces[-1].fields


TWO_TYPES_SDL = (
    VALUE_SDL.replace("order(id: ID!): Order", "order(id: ID!): Order\n  shop: Shop")
    + """
type Shop {
  name: String
  phone: String
  address: String
  city: String
  country: String
  currency: String
}
"""
)


def test_a_value_comes_with_its_types_leaves_before_the_next_types_leaves() -> None:
    # Order and Shop are both in; the value Order holds is as much Order's as its leaves,
    # so some budget shows `pickup` and not yet the whole of Shop (whose leaves cost more).
    slicer = slicer_for(TWO_TYPES_SDL, SliceParams())
    ranked = {"Query.order": 4.0, "Order.number": 3.0, "Query.shop": 2.0, "Shop.name": 1.0}
    hits = scored(slicer, ranked)
    pieces = [slicer.from_scores(hits, budget) for budget in range(30, 160, 2)]
    assert any("Order.pickup" in p.fields and "Shop.currency" not in p.fields for p in pieces)
    assert {"Order.pickup", "Shop.currency"} <= set(pieces[-1].fields)


def _filled_sdl() -> str:
    """An order, a report too dear for any budget (so the fill begins past it), and a shop
    with hundreds of cheap fields the fill takes by score."""
    leaves = "\n".join(f"  l{n}: String" for n in range(8))
    return filled_query("order(id: ID!): Order", 400) + f"""
type Order {{
  number: Int!
{leaves}
}}
"""


def test_from_a_rung_of_two_thousand_tokens_the_types_leaves_come_before_the_fill(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slicer = slicer_for(_filled_sdl(), SliceParams())
    ranked = {"Query.order": 5.0, "Order.number": 4.0, "Query.shop": 3.0, "Query.report": 2.0}
    ranked |= {f"Shop.s{n}": 1.0 - n / 1000 for n in range(400)}
    hits = scored(slicer, ranked)
    piece = slicer.from_scores(hits, EARLY_COMPLETION_FROM)
    valid(piece.sdl)
    assert "Query.report" not in piece.fields and "Shop.s399" not in piece.fields  # filled
    assert {f"Order.l{n}" for n in range(8)} <= set(piece.fields)
    # Below the floor, and with no share, the fill takes the room first (a new type shows a
    # few of its leaves, `FILLER_LEAVES`, however it fills).
    small = slicer.from_scores(hits, EARLY_COMPLETION_FROM // 2)
    assert "Shop.s0" in small.fields and "Order.l7" not in small.fields
    monkeypatch.setattr(completion, "EARLY_COMPLETION_SHARE", 0.0)
    # `Query.order`'s tree is Order's leaves: its share off too.
    monkeypatch.setattr(completion, "ANSWER_TREE_SHARE", 0.0)
    slicer = slicer_for(_filled_sdl(), SliceParams())
    assert "Order.l7" not in slicer.from_scores(hits, EARLY_COMPLETION_FROM).fields


def test_a_question_listing_many_things_gets_its_types_leaves_at_every_rung() -> None:
    slicer = slicer_for(_filled_sdl(), SliceParams())
    ranked = {"Query.order": 5.0, "Order.number": 4.0, "Query.shop": 3.0, "Query.report": 2.0}
    ranked |= {f"Shop.s{n}": 1.0 - n / 1000 for n in range(400)}
    hits = scored(slicer, ranked)
    listing = "Show order 7: its number, its status, its total and its date."
    asked = "Show order 7 with its number."
    # Below the rung where every question's types show their leaves first (the fill takes the
    # room otherwise, as the test above shows).
    piece = slicer.from_scores(hits, EARLY_COMPLETION_FROM // 2, listing)
    valid(piece.sdl)
    assert {f"Order.l{n}" for n in range(8)} <= set(piece.fields)
    assert "Order.l7" not in slicer.from_scores(hits, EARLY_COMPLETION_FROM // 2, asked).fields


def _outcomes(members: int) -> str:
    failures = "\n".join(f"type Failure{n} {{\n  reason{n}: String\n}}" for n in range(members))
    union = " | ".join(["Reacted", *(f"Failure{n}" for n in range(members))])
    return f"""
type Query {{
  post(id: ID!): Post
  reaction(post: ID!): ReactResult
}}

union ReactResult = {union}

type Reacted {{
  post: Post
}}

type Post {{
  id: ID!
  text: String
  reactions: [Reacted!]
}}

{failures}
"""


def test_a_union_in_a_slice_shows_its_other_members_with_the_budget_left() -> None:
    # An operation reading `reaction` selects every outcome (`... on Failure0 { reason0 }`);
    # the question names only the one it hopes for. (A write's union shows its members
    # before the fill: tests/test_slicing_writes.py; so does a read's union that alone
    # reaches its members, which `Post.reactions` makes this one not:
    # test_a_reads_union_of_the_kinds_of_one_answer_shows_every_kind_that_fits.)
    hits = {"Query.reaction": 2.0, "Reacted.post": 1.0}
    for params, shown in ((SliceParams(), True), (GROWTH, False)):
        slicer = slicer_for(_outcomes(2), params)
        piece = slicer.from_scores(scored(slicer, hits), 1000)
        valid(piece.sdl)
        assert ({"Failure0.reason0", "Failure1.reason1"} <= set(piece.fields)) is shown
    # A union of more possible types than a fill may enter by members keeps to its hits.
    slicer = slicer_for(_outcomes(FILL_MEMBER_CAP), SliceParams())
    piece = slicer.from_scores(scored(slicer, hits), 4000)
    assert "Reacted.post" in piece.fields and "Failure0.reason0" not in piece.fields


INTERFACES_SDL = """
type Query {
  config: Config
}

type Config {
  fields: [FieldConfig!]!
}

union FieldConfig = TextConfig | NumberConfig

interface CustomField {
  name: String!
  label: String
}

type TextConfig implements CustomField {
  name: String!
  label: String
  pattern: String
}

type NumberConfig implements CustomField {
  name: String!
  label: String
  min: Int
}
"""


def test_the_budget_left_once_the_types_are_whole_declares_the_interfaces_they_implement() -> None:
    # An operation reading a union may select its members' shared fields once, through the
    # interface they implement (`... on CustomField { name label }`), though no field of the
    # schema returns it.
    slicer = slicer_for(INTERFACES_SDL, SliceParams())
    hits = {"Query.config": 2.0, "Config.fields": 1.5, "TextConfig.pattern": 1.0}
    roomy = slicer.from_scores(scored(slicer, hits), 2000)
    valid(roomy.sdl)
    assert {"CustomField.name", "CustomField.label"} <= set(roomy.fields)
    assert "type TextConfig implements CustomField" in roomy.sdl
    # It comes once the types in the slice are whole: a budget short of it shows them all.
    smaller = [slicer.from_scores(scored(slicer, hits), b) for b in range(roomy.tokens)]
    assert all("NumberConfig.min" in p.fields for p in smaller if "CustomField" in p.types)
    assert any("NumberConfig.min" in p.fields and "CustomField" not in p.types for p in smaller)


ARGUMENTS_SDL = """
type Query {
  customer(id: ID!): Customer
}

type Customer {
  email: String
  avatar(size: Int): String
  orders(first: Int, status: OrderStatus, sort: OrderSort): [Order!]!
}

type Order {
  number: Int!
  total: Float
}

enum OrderStatus {
  OPEN
  CLOSED
}

input OrderSort {
  field: String!
  descending: Boolean = false
}
"""


def test_the_budget_left_once_the_types_are_whole_shows_every_fields_arguments() -> None:
    slicer = slicer_for(ARGUMENTS_SDL, SliceParams())
    hits = {"Query.customer": 2.0, "Customer.orders": 1.0}
    roomy = slicer.from_scores(scored(slicer, hits), 2000)
    valid(roomy.sdl)
    shown = set(roomy.coordinates)
    # No word of the question names them: the room left shows them.
    assert {"Customer.orders(status:)", "Customer.orders(sort:)", "Customer.avatar(size:)"} <= shown
    assert "input OrderSort" in roomy.sdl
    # Arguments come last: a budget short of them shows every field, not every argument.
    tight = slicer.from_scores(scored(slicer, hits), roomy.tokens - 1)
    valid(tight.sdl)
    assert set(tight.fields) == set(roomy.fields) and set(tight.coordinates) < shown


def test_from_four_thousand_tokens_a_reads_room_left_shows_the_writes_it_ranked() -> None:
    slicer = slicer_for(TINY_SDL, SliceParams())
    # A read whose first hits are reads keeps its later-ranked write out (the write gate)...
    ranked = ["Query.shop", "Shop.name", "Order.total", "Mutation.cancelOrder"]
    question = "which order was cancelled?"
    below = slicer.from_ranked(ranked, GATED_WRITES_FROM // 2, question)  # the rung below
    assert "Mutation.cancelOrder" not in below.fields
    # ...until the rung of 4,000 tokens, with room left once the slice is complete.
    roomy = slicer.from_ranked(ranked, GATED_WRITES_FROM, question)
    valid(roomy.sdl)
    assert {"Mutation.cancelOrder", "CancelOrderInput"} <= roomy.coordinates
    assert set(below.coordinates) < set(roomy.coordinates)
    # A write the ranking did not give stays out however much room is left.
    unranked = slicer.from_ranked(ranked[:3], GATED_WRITES_FROM, question)
    assert "Mutation.cancelOrder" not in unranked.fields
