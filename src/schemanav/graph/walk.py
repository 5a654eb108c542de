"""Shortest ways from the roots (`ShortestPaths`): Dijkstra over a `SchemaGraph`, run only as
far as a question asks."""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from schemanav.graph.edges import FRAGMENT, Edge, HopCosts

if TYPE_CHECKING:
    from schemanav.graph import SchemaGraph


class ShortestPaths:
    """Dijkstra from the roots, run only as far as a question asks: cost to each type and the
    edge that reached it.

    A type's cost and edge are final once it leaves the queue (every hop costs more than
    nothing), and the queue pops in the same order whether the walk stops early or not (by
    cost, then type name), so stopping once the types asked about are settled gives exactly
    the answers of the full walk. A search asks about a few dozen owner types; the whole
    graph has thousands. Types without fields (scalars, enums) lead nowhere, so they change
    no other type's answer: the walk leaves them out until one of them is asked about."""

    def __init__(self, graph: SchemaGraph, hops: HopCosts, *, with_leaves: bool = False) -> None:
        self._graph = graph
        self._field_cost = hops
        # What each edge adds to a cost: a field its hop, a fragment its extra cost (the other
        # is 0.0 for each, so `cost + step` is the sum `cost + extra + hop` exactly). Steps
        # are listed per walk: the fields' hops (an array's own floats: the queue's sums are
        # Python floats either way), then the fragments' extras (`SchemaGraph.step_adjacency`).
        if with_leaves:
            field_steps = hops.tolist() if hasattr(hops, "tolist") else list(hops)
        else:
            # Only the fields between inner types are hopped through: their costs alone (a
            # question's walk converts 2,576 of GitHub's 6,640 costs, not all).
            field_steps = graph.inner_hop_costs(hops)
        self._steps = [*field_steps, *graph.fragment_extras]
        self._adjacency = graph.step_adjacency(with_leaves=with_leaves)
        self._with_leaves: ShortestPaths | None = self if with_leaves else None
        size = len(graph.type_names)
        self._cost = [math.inf] * size
        self._via: list[int] = [-1] * size
        self._settled = [False] * size
        self._queue: list[tuple[float, int]] = []
        self._chains: dict[int, list[int]] = {}
        self._hops_to: dict[int, int] = {}
        self._reaches: dict[str, bool] = {}  # `reaches` answers, final once known
        for root, start in graph.root_costs().items():
            number = graph.type_ids[root]
            self._cost[number] = start
            heapq.heappush(self._queue, (start, number))

    def _find(self, type_name: str) -> tuple[ShortestPaths, int] | None:
        """The walk that answers for `type_name` and its number, once settled; None if no
        way leads there."""
        number = self._graph.type_ids.get(type_name)
        return None if number is None else self._found(number)

    def _found(self, number: int) -> tuple[ShortestPaths, int] | None:
        """`_find` by the type's number."""
        walk = self
        if self._graph.is_leaf[number]:
            if self._with_leaves is None:
                self._with_leaves = ShortestPaths(self._graph, self._field_cost, with_leaves=True)
            walk = self._with_leaves
        return (walk, number) if walk._settled[number] or walk._settle(number) else None

    def reaches(self, type_name: str) -> bool:
        """Whether any way leads from a root to `type_name` (walking until that is known);
        kept, as a slice asks it of the schema's static walk for every hit."""
        known = self._reaches.get(type_name)
        if known is None:
            known = self._reaches[type_name] = self._find(type_name) is not None
        return known

    def cost(self, type_name: str) -> float | None:
        """The cheapest cost of reaching `type_name`, None if nothing leads there."""
        found = self._find(type_name)
        return None if found is None else found[0]._cost[found[1]]

    def via(self, type_name: str) -> Edge | None:
        """The last edge on the cheapest way to `type_name`; None for a root or no way."""
        found = self._find(type_name)
        if found is None:
            return None
        edge = found[0]._via[found[1]]
        return self._graph.edge(edge) if edge >= 0 else None

    def chain_to(self, type_name: str) -> list[int]:
        """Corpus entries (root first) along the cheapest way to `type_name`; [] if none."""
        number = self._graph.type_ids.get(type_name)
        return [] if number is None else list(self.shared_chain(number))

    def shared_chain(self, number: int) -> list[int]:
        """`chain_to` of the type numbered `number` (`SchemaGraph.type_ids`) as the list this
        walk keeps, not a copy: for a ranking that reads hundreds a question and changes none."""
        found = self._found(number)
        if found is None:
            return []
        walk, target = found
        chains = walk._chains
        cached = chains.get(target)
        if cached is None:
            # Up to the nearest type whose chain is known (or a root), then down again,
            # keeping each chain on the way: every type on a settled type's way is settled
            # (its edge was relaxed from there), so its way is final too.
            graph, via = self._graph, walk._via
            pending: list[tuple[int, int]] = []
            current = target
            while (edge := via[current]) >= 0 and current not in chains:
                pending.append((current, edge))
                current = graph.edge_source[edge]
            cached = chains.get(current, [])
            for node, edge in reversed(pending):
                if (entry := graph.edge_entry[edge]) != FRAGMENT:
                    cached = [*cached, entry]
                chains[node] = cached
        return cached

    def hops(self, type_name: str) -> int:
        """How many fields the cheapest way to `type_name` takes (len of `chain_to`); 0 for a
        root or no way."""
        found = self._find(type_name)
        if found is None:
            return 0
        walk, target = found
        graph, via, known = self._graph, walk._via, walk._hops_to
        unknown: list[int] = []
        current = target
        while current not in known and (edge := via[current]) >= 0:
            unknown.append(current)
            current = graph.edge_source[edge]
        count = known.get(current, 0)
        for node in reversed(unknown):
            count += graph.edge_entry[via[node]] != FRAGMENT
            known[node] = count
        return known.get(target, 0)

    def settle_all(self) -> ShortestPaths:
        self._settle(-1)
        return self

    def settle_all_at_once(self) -> ShortestPaths:
        """Settle every type, as `settle_all` does, in array rounds: for a ranking thousands
        deep, which asks about nearly every type, a third of the time of the queue.

        The answers are the queue's exactly. Costs: rounds of relaxing every edge at once
        (the same float sums, cost + extra + hop) until none falls. Edges: every hop costs
        more than nothing, so a type's cheapest way was set by the first relaxation that
        reached its final cost, and the queue relaxes from types in (cost, number) order and
        from each type in edge order; a root keeps its start cost when a way only ties it.
        With a hop that costs nothing that argument fails: then the queue walks instead."""
        import numpy as np

        edges = self._graph.edge_arrays(with_leaves=self._with_leaves is self)
        hop = np.append(np.asarray(self._field_cost, dtype=float), 0.0)[edges.entry]
        if not len(hop) or float((edges.extra + hop).min()) <= 1e-9:
            return self.settle_all()
        start = np.full(len(self._cost), math.inf)
        for root, cost in self._graph.root_costs().items():
            start[self._graph.type_ids[root]] = cost
        costs = start.copy()
        sources, extra, targets = edges.source, edges.extra, edges.target_of_group
        while True:
            best = np.minimum.reduceat((costs[sources] + extra) + hop, edges.group_starts)
            fell = best < costs[targets]
            if not fell.any():
                break
            costs[targets[fell]] = best[fell]
        reached = (costs[sources] + extra) + hop
        tight = np.flatnonzero((reached == costs[edges.target]) & np.isfinite(reached))
        tight = tight[start[edges.target[tight]] != costs[edges.target[tight]]]
        tight = tight[np.lexsort((tight, costs[sources[tight]], edges.target[tight]))]
        first = np.ones(len(tight), dtype=bool)
        first[1:] = edges.target[tight[1:]] != edges.target[tight[:-1]]
        via = np.full(len(self._cost), -1)
        via[edges.target[tight[first]]] = edges.edge[tight[first]]
        self._cost = costs.tolist()
        self._via = via.tolist()
        self._settled = np.isfinite(costs).tolist()
        self._queue.clear()
        return self

    def listed_after_ways_in(
        self, best: Iterable[tuple[Any, Any]], owners: Any, k: int
    ) -> tuple[list[int], list[float]]:
        """The first `k` of the entries `best` yields (chunks of entries and their scores,
        best first, arrays or lists), each owner type's `shared_chain` listed just before its
        first entry with that entry's score, every entry once (where first listed): a
        ranking's list, for one so deep that it meets nearly every type (call it once every
        type is settled, by `settle_all_at_once`). `owners` holds each entry's owner type
        number (an array).

        The list a loop over the entries makes, in array operations: each entry becomes a
        row, its owner's chain (in the row of the owner's first entry only) then itself, read
        row by row; an entry listed again keeps its first place."""
        import numpy as np

        # The first k entries are all listed once the k-th is: none after it is needed.
        picked: list[tuple[Any, Any]] = []
        wanted = k
        for chunk, scores in best:  # a later chunk is sorted only when the first falls short
            picked.append((np.asarray(chunk, dtype=np.intp)[:wanted], np.asarray(scores)[:wanted]))
            wanted -= len(picked[-1][0])
            if wanted <= 0:
                break
        positions = np.concatenate([chunk for chunk, _ in picked])
        if not len(positions):
            return [], []
        values = np.concatenate([scores for _, scores in picked]).astype(float)
        chains = self._chain_rows()
        types = owners[positions]
        first = _first_places(types, len(chains))
        rows = np.where(first[:, None], chains[types], FRAGMENT)
        listed = np.concatenate([rows, positions[:, None]], axis=1)
        kept = listed >= 0
        entries = listed[kept]  # row by row: a chain, then its entry
        places = np.flatnonzero(_first_places(entries, len(owners)))[:k]
        scores = np.broadcast_to(values[:, None], listed.shape)[kept]
        return entries[places].tolist(), scores[places].tolist()

    def _chain_rows(self) -> Any:
        """Every type's `shared_chain` as a row of corpus entries, root first, padded and
        interleaved with -1 (`FRAGMENT`): for a walk with every type settled."""
        import numpy as np

        via = np.asarray(self._via, dtype=np.intp)
        sources, fields = self._graph.edge_columns
        hops: list[Any] = []  # each type's last hop, then the one before, …
        edge = via
        while (alive := edge >= 0).any():
            hops.append(np.where(alive, fields[edge], FRAGMENT))
            edge = np.where(alive, via[sources[edge]], -1)
        if not hops:
            return np.full((len(via), 0), FRAGMENT, dtype=np.intp)
        return np.stack(hops[::-1], axis=1)

    def _settle(self, target: int) -> bool:
        """Pop the queue until `target` is settled (or, for -1, until it is empty)."""
        settled = self._settled
        if target >= 0 and settled[target]:
            return True
        queue, costs, via, steps = self._queue, self._cost, self._via, self._steps
        adjacency = self._adjacency
        pop, push = heapq.heappop, heapq.heappush
        while queue:
            cost, node = pop(queue)
            if cost > costs[node]:
                continue
            settled[node] = True
            for next_node, step, edge in adjacency[node]:
                new_cost = cost + steps[step]
                if new_cost < costs[next_node]:
                    costs[next_node] = new_cost
                    via[next_node] = edge
                    push(queue, (new_cost, next_node))
            if node == target:
                return True
        return target >= 0 and settled[target]


def _first_places(values: Any, size: int) -> Any:
    """Where each value of an array of numbers below `size` first occurs, as a mask: an
    assignment through repeated indices keeps the last value assigned, so assigning the
    places in reverse leaves each value's first."""
    import numpy as np

    places = np.arange(len(values))
    first = np.empty(size, dtype=np.intp)
    first[values[::-1]] = places[::-1]
    return first[values] == places
