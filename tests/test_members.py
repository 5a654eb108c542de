"""Hits of five kinds on the field ranking's scale (`schemanav.retrieval.members`), in process:
each kind with its paths, the fields untouched, paging and filters exact, the MCP kind filter."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemanav.navigator import Navigator
from schemanav.retrieval.members import (
    ARGUMENT,
    DIRECTIVE,
    ENUM_VALUE,
    FIELD,
    KINDS,
    TYPE,
    MemberHit,
)
from schemanav.servers.tools import SEARCH_SCHEMA, ToolBox

SHOP_SDL = """
"Caches an answer for a while."
directive @cacheFor(seconds: Int!) on FIELD_DEFINITION
type Query {
  "A shelf of the shop by its code."
  shelf(code: String!): Shelf
  "Orders, optionally only those in one status."
  orders(status: OrderStatus, filter: OrderFilter): [Order!]! @cacheFor(seconds: 5)
}
type Shelf { code: String! books: [Book!]! }
type Book { isbn: String! price: Float author: String }
"An order a customer placed."
type Order { id: ID! status: OrderStatus! books: [Book!]! }
"Where an order stands."
enum OrderStatus {
  OPEN
  "Handed to the carrier."
  SHIPPED
}
input OrderFilter { placedAfter: String customerEmail: String }
"""

QUESTIONS = (
    "which pull requests of a repository are still open",
    "the labels of an issue",
    "who starred a repository and when",
)


@pytest.fixture
def shop(cache_dir: Path, workdir: Path) -> Navigator:
    path = workdir / "shop.graphql"
    path.write_text(SHOP_SDL, encoding="utf-8")
    return Navigator.open(str(path))


def _by_coordinate(navigator: Navigator, question: str) -> dict[str, MemberHit]:
    return {hit.coordinate: hit for hit in navigator.members.page(question, count=100).hits}


def test_each_kind_is_a_hit_with_its_paths(shop: Navigator) -> None:
    hits = _by_coordinate(shop, "orders shipped to the carrier")
    shipped = hits["OrderStatus.SHIPPED"]
    assert shipped.kind == ENUM_VALUE and shipped.description == "Handed to the carrier."
    assert shipped.paths_to_root == (("Query.orders",),)
    order = _by_coordinate(shop, "an order a customer placed")
    assert order["Order"].kind == TYPE
    assert order["Order"].paths_to_root == (("Query.orders",),)
    assert order["OrderFilter.placedAfter"].kind == ARGUMENT  # an input field: an __InputValue
    status = _by_coordinate(shop, "orders in one status")["Query.orders(status:)"]
    assert status.kind == ARGUMENT and status.paths_to_root == (("Query.orders",),)
    cache = _by_coordinate(shop, "cache an answer for a while")["@cacheFor"]
    assert cache.kind == DIRECTIVE and cache.paths_to_root == ()
    book = _by_coordinate(shop, "the price of a book")
    assert book["Book"].kind == TYPE
    assert ("Query.shelf", "Shelf.books") in book["Book"].paths_to_root


def test_no_member_outranks_its_anchor_and_scores_fall(shop: Navigator) -> None:
    page = shop.members.page("orders shipped to the carrier", count=100)
    scores = [hit.score for hit in page.hits]
    assert scores == sorted(scores, reverse=True)
    assert scores[0] == page.top
    by_coordinate = {hit.coordinate: hit for hit in page.hits}
    assert by_coordinate["OrderStatus.SHIPPED"].score <= by_coordinate["Query.orders"].score


def test_kind_and_score_filters_keep_the_order_of_the_whole(shop: Navigator) -> None:
    question = "orders shipped to the carrier"
    whole = shop.members.page(question, count=100)
    only = shop.members.page(question, count=100, kinds=[ENUM_VALUE, TYPE])
    assert [h.coordinate for h in only.hits] == [
        h.coordinate for h in whole.hits if h.kind in (ENUM_VALUE, TYPE)
    ]
    floor = shop.members.page(question, count=100, min_score=0.5)
    assert [h.coordinate for h in floor.hits] == [
        h.coordinate for h in whole.hits if h.score / whole.top >= 0.5
    ]


@pytest.mark.slow
def test_on_github_the_fields_are_the_field_ranking_and_pages_are_exact(
    github_slice: object, github_cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(github_cache_dir))
    navigator = Navigator.open(str(github_slice.schema))  # type: ignore[attr-defined]
    searcher = navigator.searcher()
    kinds_seen: set[str] = set()
    for question in QUESTIONS:
        whole = navigator.members.page(question, count=120).hits
        kinds_seen.update(hit.kind for hit in whole)
        fields = [hit for hit in whole if hit.kind == FIELD]
        ranked = searcher.search(question, len(fields))
        assert [(h.coordinate, h.score, h.paths_to_root) for h in fields] == [
            (h.coordinate, h.score, h.paths_to_root) for h in ranked
        ]
        paged = [
            hit
            for offset in range(0, 120, 17)
            for hit in navigator.members.page(question, offset=offset, count=17).hits
        ]
        assert paged[:120] == list(whole)
    assert kinds_seen >= {FIELD, TYPE, ARGUMENT, ENUM_VALUE}


def test_the_search_tool_lists_the_kinds_asked_for(shop: Navigator) -> None:
    tools = ToolBox(shop)
    listed = tools.call(SEARCH_SCHEMA, {"query": "orders shipped", "kinds": ["enum_value", "type"]})
    assert listed.ok
    kinds = {hit["kind"] for hit in listed.data["hits"]}
    assert kinds and kinds <= {"enum_value", "type"}
    assert "OrderStatus.SHIPPED (enum value): Handed to the carrier." in listed.text
    assert (
        "OrderStatus (type): Where an order stands.\n   from the root: Query.orders > Order.status"
        in listed.text
    )
    plain = tools.call(SEARCH_SCHEMA, {"query": "orders shipped"})
    assert all("kind" not in hit for hit in plain.data["hits"])
    bad = tools.call(SEARCH_SCHEMA, {"query": "orders", "kinds": ["table"]})
    assert not bad.ok and "must be one of " + ", ".join(KINDS) in bad.text
