"""schemanav.corpus.groups: the types holding a schema's writes, its mutation root and the
types grouping the root's fields by feature, read from the corpus's columns."""

from __future__ import annotations

from graphql import build_schema

from schemanav.corpus import build_corpus
from schemanav.corpus.groups import namespaces, write_owners

GROUPED = """
type Query { forms: FormQuery  settings: Settings  form(id: ID!): Form }
type FormQuery { get(id: ID!): Form  list(limit: Int): [Form!]!  version: String }
type Settings { title: String  theme: String }
type Form { id: ID!  name: String }
type Mutation { forms: FormMutation  logout: Success }
type FormMutation { create(name: String!): Form  delete(id: ID!): Success  _empty: String }
type Success { ok: Boolean }
"""


def test_a_root_field_without_arguments_into_a_type_of_operations_is_a_namespace() -> None:
    corpus = build_corpus(build_schema(GROUPED))
    # Half or more of a namespace's fields take arguments; a write's payload (`logout:
    # Success`, also returned elsewhere here) or a settings object's take none.
    assert namespaces(corpus, "Query") == {"FormQuery"}
    assert write_owners(corpus) == {"Mutation", "FormMutation"}


def test_a_type_another_field_returns_or_a_list_of_it_is_no_namespace() -> None:
    shared = GROUPED.replace("type Form { id: ID!", "type Form { queries: FormQuery  id: ID!")
    assert namespaces(build_corpus(build_schema(shared)), "Query") == set()
    listed = GROUPED.replace("forms: FormMutation ", "forms: [FormMutation] ")
    assert write_owners(build_corpus(build_schema(listed))) == {"Mutation"}
    assert write_owners(build_corpus(build_schema("type Query { a: Int }"))) == frozenset()


def test_a_namespace_within_a_namespace_groups_writes_too() -> None:
    nested = GROUPED.replace(
        "type FormMutation { create",
        "type FormMutation { fields: FieldMutation  create",
    ) + "type FieldMutation { add(name: String!): Success  drop(id: ID!): Success }\n"
    corpus = build_corpus(build_schema(nested))
    assert write_owners(corpus) == {"Mutation", "FormMutation", "FieldMutation"}
    # Returned by another type too, it is an answer, not a group of operations.
    shared = nested.replace("type Form { id: ID!", "type Form { editing: FieldMutation  id: ID!")
    assert write_owners(build_corpus(build_schema(shared))) == {"Mutation", "FormMutation"}
