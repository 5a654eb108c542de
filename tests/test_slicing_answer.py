"""The answer's tree (`answer.AnswerTrees`, `completion.Completion.complete_answer`): from the
rung of the early completion, the types under the way a question enters show their parts
before the fill spends the room on hits elsewhere in the schema."""

from __future__ import annotations

import pytest

from schemanav.retrieval.slicing import SliceParams, completion
from schemanav.retrieval.slicing.params import EARLY_COMPLETION_FROM
from slicing_support import filled_query, scored, slicer_for, valid


def _account_sdl() -> str:
    """An account whose parts nest four deep (its metadata, its rules, their settings: a
    union of two kinds), a report too dear for any budget (the fill begins past it), a shop
    with hundreds of cheap fields the fill takes by score, and a write returning a payload
    with the account."""
    return filled_query("account(id: ID!): Account", 1600) + """
type Mutation {
  renameAccount(id: ID!, name: String!): RenameAccountPayload
}

type RenameAccountPayload {
  account: Account
}

type Account {
  id: ID!
  name: String
  nickname: String
  pronouns: String
  motto: String
  bio: String
  metadata: Metadata
  rules: Rules
  secret(key: String!): Secret
  root: Query
}

type Metadata {
  bio: String
  picture: String
  cover: String
  website: String
  location: String
  pronouns: String
  timezone: String
}

type Rules {
  required: [Rule!]!
}

type Rule {
  kind: String
  config: [Setting!]!
}

union Setting = IntSetting | TextSetting

type IntSetting {
  key: String
  number: Int
}

type TextSetting {
  key: String
  text: String
}

type Secret {
  value: String
}
"""


RANKED = {"Query.account": 5.0, "Account.name": 4.0, "Query.shop": 3.0, "Query.report": 2.0}
RANKED |= {f"Shop.s{n}": 1.0 - n / 10_000 for n in range(1600)}
# Twice the early rung: the whole tree fits its share.
ROOMY = 2 * EARLY_COMPLETION_FROM
TREE = {"Account.metadata", "Metadata.location", "Account.rules", "Rules.required", "Rule.config"}


def test_a_root_fields_tree_is_what_fields_without_required_arguments_reach() -> None:
    slicer = slicer_for(_account_sdl(), SliceParams())
    depths = slicer.answer_trees.depths("Account")
    assert depths["Account"] == 0 and depths["Metadata"] == 1 and depths["Rule"] == 2
    # A union's members are as near as the union: a field into it may return any of them.
    assert depths["Setting"] == depths["IntSetting"] == depths["TextSetting"] == 3
    assert "Secret" not in depths  # only through a required argument
    assert "Query" not in depths  # a field back to a root relates nothing


def test_from_the_early_rung_a_read_shows_its_answers_tree_before_the_fill(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slicer = slicer_for(_account_sdl(), SliceParams())
    hits = scored(slicer, RANKED)
    piece = slicer.from_scores(hits, ROOMY)
    valid(piece.sdl)
    assert set(piece.fields) >= TREE
    assert {"IntSetting", "TextSetting"} <= set(piece.types)  # the union's other kinds
    assert "Shop.s0" in piece.fields and "Shop.s1599" not in piece.fields  # filled after
    # Below the rung, the fill takes the room first (the completion finds none left).
    small = slicer.from_scores(hits, EARLY_COMPLETION_FROM // 2)
    assert "Rule" not in small.types
    # On the rung itself the share holds part of the tree: its nearest types come first.
    narrow = slicer.from_scores(hits, EARLY_COMPLETION_FROM)
    assert "Metadata.location" in narrow.fields and "IntSetting" not in narrow.types
    monkeypatch.setattr(completion, "ANSWER_TREE_SHARE", 0.0)
    slicer = slicer_for(_account_sdl(), SliceParams())
    assert "Rule" not in slicer.from_scores(scored(slicer, RANKED), ROOMY).types


def test_a_read_through_a_namespace_grows_its_tree_from_the_namespaces_field() -> None:
    # `Query.accounts` only leads into the namespace (`corpus.groups.namespaces`): the way
    # the question enters is `AccountQuery.account`, and the tree is the account's.
    sdl = _account_sdl().replace("account(id: ID!): Account", "accounts: AccountQuery")
    sdl += "type AccountQuery { account(id: ID!): Account  search(text: String!): [Account!]! }\n"
    slicer = slicer_for(sdl, SliceParams())
    ranked = {k: v for k, v in RANKED.items() if k != "Query.account"}
    ranked |= {"Query.accounts": 5.5, "AccountQuery.account": 5.0}
    piece = slicer.from_scores(scored(slicer, ranked), ROOMY)
    valid(piece.sdl)
    assert set(piece.fields) >= TREE


GROUPED_WRITES = """
type Mutation {
  accounts: AccountMutation
}

type AccountMutation {
  renameAccount(id: ID!, name: String!): RenameAccountPayload
  closeAccount(id: ID!): Boolean
}
"""


@pytest.mark.parametrize("grouped", [False, True])
def test_a_writes_tree_is_its_payloads(grouped: bool) -> None:
    # Also when the schema groups its writes (`corpus.groups.namespaces`): the tree grows
    # from the write's payload, not from the type grouping the writes.
    sdl, write = _account_sdl(), "Mutation.renameAccount"
    ranked = {k: v for k, v in RANKED.items() if k != "Query.account"}
    if grouped:
        old = sdl[sdl.index("type Mutation {") : sdl.index("type RenameAccountPayload")]
        sdl, write = sdl.replace(old, GROUPED_WRITES), "AccountMutation.renameAccount"
        ranked |= {"Mutation.accounts": 6.5}
    slicer = slicer_for(sdl, SliceParams())
    # No query field leads to the account: only the write's payload does.
    ranked |= {write: 6.0, "RenameAccountPayload.account": 5.5}
    piece = slicer.from_scores(scored(slicer, ranked), ROOMY, "Rename my account to Mira.")
    valid(piece.sdl)
    assert write in piece.fields and set(piece.fields) >= TREE


def test_from_the_early_rung_the_fill_takes_the_answers_tree_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No share for the tree's own fields or the types' leaves: only the fill's order is left.
    monkeypatch.setattr(completion, "ANSWER_TREE_SHARE", 0.0)
    monkeypatch.setattr(completion, "EARLY_COMPLETION_SHARE", 0.0)
    slicer = slicer_for(_account_sdl(), SliceParams())
    # Below every field of the shop, and below the leaves a new account shows first.
    fillers = {f"Account.{name}": 0.6 for name in ("nickname", "pronouns", "motto")}
    hits = scored(slicer, RANKED | fillers | {"Account.bio": 0.5})
    piece = slicer.from_scores(hits, EARLY_COMPLETION_FROM)
    valid(piece.sdl)
    assert "Account.bio" in piece.fields and "Shop.s1599" not in piece.fields
    # Below the rung the fill reads by score alone, and the shop's fields take the room.
    assert "Account.bio" not in slicer.from_scores(hits, EARLY_COMPLETION_FROM // 2).fields
