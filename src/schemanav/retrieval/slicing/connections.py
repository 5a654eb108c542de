"""Relay connections, read by their shape rather than by the names one schema gives them.

The Relay cursor-connections specification requires a connection's `edges { node cursor }`
and `pageInfo`; many schemas add a list of the nodes beside the edges, most often `nodes`,
sometimes named after the type (`films: [Film]`), and many add nothing. A slice shows the
cheapest way a connection offers to its nodes, and pages and reaches sets through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from schemanav.retrieval.slicing.params import CONNECTION_FIELDS

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence


class Field(Protocol):
    """What this module reads of a field (`tables.FieldFacts` has it)."""

    @property
    def many(self) -> bool: ...  # a list or a connection
    @property
    def free(self) -> bool: ...  # no required arguments
    @property
    def named(self) -> str: ...  # its named return type


NodeWay = tuple[tuple[str, str], ...]
"""The (owner, field) steps from a connection to its node type."""


def relay_connections(
    fields_of: Mapping[str, Sequence[str]], kinds: Mapping[str, str]
) -> frozenset[str]:
    """Output types shaped like a Relay connection: they have `edges`, `nodes` or `pageInfo`."""
    return frozenset(
        name
        for name, fields in fields_of.items()
        if kinds.get(name) in ("object", "interface") and not CONNECTION_FIELDS.isdisjoint(fields)
    )


def node_ways(
    connections: frozenset[str], facts: Mapping[str, Mapping[str, Field]]
) -> dict[str, NodeWay]:
    """Each connection's fields to its node type: the list of its nodes it holds beside its
    edges (`nodes` wherever it stands, else a list of the edges' node type), a line cheaper
    to show, or else `edges { node }`."""
    ways: dict[str, NodeWay] = {}
    for connection in connections:
        own = facts[connection]
        if "nodes" in own:
            ways[connection] = ((connection, "nodes"),)
            continue
        edges = own.get("edges")
        node = facts.get(edges.named, {}).get("node") if edges is not None else None
        if edges is None or node is None:
            continue
        shorthand = [
            name
            for name, field in own.items()
            if field.many and field.free and field.named == node.named and name != "edges"
        ]
        if shorthand:
            ways[connection] = ((connection, shorthand[0]),)
        else:
            ways[connection] = ((connection, "edges"), (edges.named, "node"))
    return ways
