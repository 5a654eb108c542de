"""The tiny schema the slicing tests work by hand, and their helpers."""

from __future__ import annotations

import re

from graphql import GraphQLSchema, build_schema
from graphql.type import validate_schema

from schemanav.corpus import build_corpus
from schemanav.retrieval.slicing import SliceParams, Slicer

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


GROWTH = SliceParams(complete=False)
"""The default options but the completion of a slice's types, so that a test of one way a
slice grows sees that way alone (a tiny schema fits whole in most budgets)."""


def slicer_for(sdl: str, params: SliceParams = GROWTH) -> Slicer:
    """The slicer of a schema written as SDL (by default without completion: `GROWTH`)."""
    schema = build_schema(sdl)
    return Slicer.of(schema, build_corpus(schema), params=params)


def words(text: str) -> list[str]:
    """A stand-in for the stemmer: camelCase and snake_case split, lower-cased."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ")
    return [w.lower() for w in re.findall(r"[A-Za-z]+", spaced)]


def valid(sdl: str) -> GraphQLSchema:
    schema = build_schema(sdl)
    assert validate_schema(schema) == [], sdl
    return schema


def scored(slicer: Slicer, scores: dict[str, float]) -> list[float]:
    """One score per corpus entry: those given, 0 for the others."""
    values = [0.0] * len(slicer.corpus)
    for coordinate, score in scores.items():
        values[slicer.corpus.coordinates.index(coordinate)] = score
    return values


def filled_query(entry: str, shop_fields: int) -> str:
    """A query root with `entry`, a report too dear for any budget (so the fill begins past
    the hits) and a shop with `shop_fields` cheap fields the fill takes by score: the query
    and the shop's SDL, to which a test adds the types `entry` needs."""
    report = ", ".join(f"a{n}: String!" for n in range(600))
    shop = "\n".join(f"  s{n}: String" for n in range(shop_fields))
    return f"""
type Query {{
  {entry}
  report({report}): String
  shop: Shop
}}

type Shop {{
{shop}
}}
"""
