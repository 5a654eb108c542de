"""The schema as a graph an agent walks: root types, fields as edges, paths to root.

Pure graph code over a `Corpus`: no retrieval imports, so every backend and front end can use it.

An agent cannot write an operation from a field it found; it needs a way down from the root.
Edges are fields (owner type → named return type). Passing through an interface or union
reaches each of its possible types (an inline fragment, no coordinate of its own) but costs
log2(1 + n) extra for n possible types, so that generic lookups such as `node(id:)`, which
reach every type in one hop, do not shadow the real entry points (`repository`, `viewer`).
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from schemanav.corpus.model import Corpus

Path = tuple[str, ...]
NO_PATH_COST = 20.0


@dataclass(frozen=True)
class Edge:
    """A field seen as an edge: `entry` indexes the corpus, `target` is a type it leads to."""

    entry: int
    source: str
    target: str
    extra_cost: float


@dataclass
class ShortestPaths:
    """Dijkstra's result from the roots: cost to each type and the edge that reached it."""

    cost: dict[str, float] = field(default_factory=dict)
    via: dict[str, Edge | None] = field(default_factory=dict)


class SchemaGraph:
    def __init__(
        self, corpus: Corpus, abstract_penalty: float = 1.0, other_root_cost: float = 3.0
    ) -> None:
        self.corpus = corpus
        self.abstract_penalty = abstract_penalty
        self.other_root_cost = other_root_cost
        self.outgoing: dict[str, list[Edge]] = defaultdict(list)
        self.incoming: dict[str, list[Edge]] = defaultdict(list)
        for position, entry in enumerate(corpus.entries):
            target = entry.named_return_type
            edges = [Edge(position, entry.owner, target, 0.0)]
            possible = corpus.possible_types.get(target, ())
            if possible:
                extra = abstract_penalty * math.log2(1 + len(possible))
                edges += [Edge(position, entry.owner, concrete, extra) for concrete in possible]
            for edge in edges:
                self.outgoing[edge.source].append(edge)
                self.incoming[edge.target].append(edge)
        self.roots = [
            root
            for root in (corpus.query_root, corpus.mutation_root, corpus.subscription_root)
            if root
        ]
        self.static = self.shortest_paths()
        self._ways_cache: dict[str, list[list[int]]] = {}

    def root_costs(self) -> dict[str, float]:
        """Start costs: the query root is free; mutation and subscription roots cost more.

        Most questions read; the types only a mutation returns (its payloads) are many and
        rarely what a reader wants, so they start `other_root_cost` hops behind.
        """
        costs: dict[str, float] = {}
        for number, root in enumerate(self.roots):
            costs.setdefault(root, 0.0 if number == 0 else self.other_root_cost)
        return costs

    def shortest_paths(self, field_cost: Sequence[float] | None = None) -> ShortestPaths:
        """Cheapest way to every type; a field hop costs `field_cost[entry]` (default 1)."""
        result = ShortestPaths()
        queue: list[tuple[float, str]] = []
        for root, start in self.root_costs().items():
            result.cost[root] = start
            result.via[root] = None
            heapq.heappush(queue, (start, root))
        while queue:
            cost, type_name = heapq.heappop(queue)
            if cost > result.cost.get(type_name, math.inf):
                continue
            for edge in self.outgoing.get(type_name, ()):
                hop = 1.0 if field_cost is None else field_cost[edge.entry]
                new_cost = cost + hop + edge.extra_cost
                if new_cost < result.cost.get(edge.target, math.inf):
                    result.cost[edge.target] = new_cost
                    result.via[edge.target] = edge
                    heapq.heappush(queue, (new_cost, edge.target))
        return result

    def owner_costs(self) -> list[float]:
        """For each corpus entry, how far its owner type lies from a root (static costs)."""
        return [self.static.cost.get(entry.owner, NO_PATH_COST) for entry in self.corpus.entries]

    def chain_to(self, type_name: str, paths: ShortestPaths | None = None) -> list[int]:
        """Corpus entries (root first) along the cheapest way to `type_name`."""
        paths = paths or self.static
        chain: list[int] = []
        seen: set[str] = set()
        current = type_name
        while (edge := paths.via.get(current)) is not None and current not in seen:
            seen.add(current)
            chain.append(edge.entry)
            current = edge.source
        chain.reverse()
        return chain

    def paths_to_root(
        self, coordinate_entry: int, limit: int, preferred: ShortestPaths | None = None
    ) -> tuple[Path, ...]:
        """Up to `limit` root-first coordinate lists ending in the entry, cheapest first.

        Alternatives differ in their last hop into the owner type: the cheapest way in
        through each incoming field, so a user sees distinct routes rather than one route
        with small detours. `preferred` (a question's own routes) goes first when given.
        A field of a root type is its own path.
        """
        if limit < 1:
            return ()
        owner = self.corpus.entries[coordinate_entry].owner
        chains: list[list[int]] = []
        if owner in self.roots:
            chains.append([])
        else:
            if preferred is not None and owner in preferred.cost:
                chains.append(self.chain_to(owner, preferred))
            chains.extend(self._ways_into(owner))
        coordinates = self.corpus.coordinates
        paths: list[Path] = []
        for chain in chains:
            path = tuple(coordinates[i] for i in [*chain, coordinate_entry])
            if path not in paths:
                paths.append(path)
            if len(paths) == limit:
                break
        return tuple(paths)

    def _ways_into(self, type_name: str) -> list[list[int]]:
        """Cheapest route through each field that leads into `type_name`, cheapest first."""
        cached = self._ways_cache.get(type_name)
        if cached is not None:
            return cached
        candidates: list[tuple[float, list[int]]] = []
        for edge in self.incoming.get(type_name, ()):
            if edge.source not in self.static.cost or edge.source == type_name:
                continue
            chain = self.chain_to(edge.source)
            if type_name in {self.corpus.entries[i].owner for i in chain}:
                continue  # a route through the type itself is a cycle
            cost = self.static.cost[edge.source] + 1.0 + edge.extra_cost
            candidates.append((cost, [*chain, edge.entry]))
        candidates.sort(key=lambda item: (item[0], len(item[1])))
        ways = [chain for _, chain in candidates]
        self._ways_cache[type_name] = ways
        return ways
