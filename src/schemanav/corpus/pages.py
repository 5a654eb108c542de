"""List pages: the non-Relay way many schemas return a set, read by its shape.

A Relay connection is known by its `edges`, `nodes` and `pageInfo`. Many schemas wrap a set
otherwise: an object holding the items and a few numbers or tokens about the page
(`ProductList { items: [Product!]! totalItems: Int! }`, `{ items nextToken }`,
`{ results count next }`), returned by a field that takes the set's options. Such a page
is a set of its items as a connection is of its nodes: a field returning it lists them.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemanav.corpus.model import Corpus

PAGE_LEAVES = 3
"""A page holds at most this many leaves beside its items (a total, a cursor or token, a page
number): an object with more says more of itself than of a page."""


def list_pages(corpus: Corpus) -> dict[str, str]:
    """Each list page of the schema and the field holding its items: an object type (no root,
    no mutation's payload) with exactly one field, without required arguments, that is a
    list of objects (or interfaces, or unions), every other field a leaf without arguments,
    at most `PAGE_LEAVES` of them and none an `ID` (a page is no object of its own), and
    returned by a field whose arguments are all optional (the options that choose the page;
    a required one looks an object up)."""
    objects = corpus.output_types
    fields = defaultdict(list)
    returned_with_options: set[str] = set()
    payloads: set[str] = set()
    for entry in corpus.entries:
        fields[entry.owner].append(entry)
        if entry.arguments and not entry.takes_required_argument:
            returned_with_options.add(entry.named_return_type)
        if entry.owner == corpus.mutation_root:
            payloads.add(entry.named_return_type)
    roots = {corpus.query_root, corpus.mutation_root, corpus.subscription_root}
    leaves_not = objects | {"ID"}  # what no leaf of a page returns
    pages: dict[str, str] = {}
    for owner, entries in fields.items():
        if owner in roots or owner in payloads or owner not in returned_with_options:
            continue
        if entries[0].owner_is_interface:
            continue
        items = [
            entry
            for entry in entries
            if entry.named_return_type in objects
            and entry.returns_list
            and not entry.takes_required_argument
        ]
        others = [entry for entry in entries if entry not in items]
        if (
            len(items) == 1
            and len(others) <= PAGE_LEAVES
            and all(e.named_return_type not in leaves_not and not e.arguments for e in others)
        ):
            pages[owner] = items[0].field
    return pages
