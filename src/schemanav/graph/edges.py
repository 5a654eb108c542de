"""The records of a schema graph: its edges (fields, and fragments into an interface's or a
union's possible types), the ways found through them, and a walk's edges as arrays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

Path = tuple[str, ...]
HopCosts = Sequence[float] | Any
"""What each field's hop costs, by corpus entry: a list, or a float array (numpy's)."""
NO_PATH_COST = 20.0


class Edge(NamedTuple):
    """A field seen as an edge: `entry` indexes the corpus, `target` is a type it leads to. A
    fragment edge (`entry` FRAGMENT) leads from an interface or union to one of its possible
    types; it has no coordinate and costs only `extra_cost` (`SchemaGraph.edge`)."""

    entry: int
    source: str
    target: str
    extra_cost: float


FRAGMENT = -1


class Way(NamedTuple):
    """What `SchemaGraph.cheapest_way` found: the source it leaves from (its index among the
    sources given), the type it arrives at, its cost, and its hops, each a field (its corpus
    entry) and, where the way goes on into one possible type of the interface or union the
    field returns, that type (an inline fragment), else None."""

    source: int
    target: str
    cost: float
    hops: tuple[tuple[int, str | None], ...]


class EdgeArrays(NamedTuple):
    """A walk's edges as parallel arrays, sorted by target type (stable: within one target,
    in the order the queue would relax them), with where each target's group starts."""

    source: Any
    target: Any
    entry: Any
    extra: Any
    edge: Any
    group_starts: Any
    target_of_group: Any
