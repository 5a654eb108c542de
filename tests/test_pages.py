"""List pages read by their shape (`schemanav.corpus.pages`)."""

from __future__ import annotations

from graphql import build_schema

from schemanav.corpus import build_corpus
from schemanav.corpus.pages import list_pages

PAGES_SDL = """
type Query {
  customers(options: ListOptions): CustomerList!
  customer(id: ID!): Customer
  summary: Summary
  search(text: String!): SearchPage!
}

type Mutation {
  deleteCustomers(ids: [ID!]!): DeletionResult!
}

type CustomerList {
  items: [Customer!]!
  totalItems: Int!
}

type SearchPage {
  items: [Customer!]!
  facets: [Facet!]!
  total: Int!
}

type Summary {
  items: [Customer!]!
  total: Int!
}

type DeletionResult {
  deleted: [Customer!]!
  count: Int!
}

type Customer {
  id: ID!
  name: String!
  orders(options: ListOptions): OrderList!
}

type OrderList {
  items: [Order!]!
  totalItems: Int!
  lastOrder: Order
}

type Order {
  id: ID!
}

type Facet {
  name: String!
}

input ListOptions {
  skip: Int
  take: Int
}
"""


def test_a_page_is_one_list_of_objects_and_a_few_leaves_returned_by_a_field_with_options() -> None:
    # SearchPage holds two lists, Summary is returned by a field without arguments,
    # DeletionResult is a mutation's payload, OrderList holds an object besides its items.
    assert list_pages(build_corpus(build_schema(PAGES_SDL))) == {"CustomerList": "items"}
