"""The schema as a graph an agent walks: root types, fields as edges, paths to root.

Pure graph code over a `Corpus`: no retrieval imports, so every backend and front end can use it.

An agent cannot write an operation from a field it found; it needs a way down from the root.
Edges are fields (owner type → named return type). Passing through an interface or union
reaches each of its possible types (an inline fragment, no coordinate of its own) but costs
log2(1 + n) extra for n possible types, so that generic lookups such as `node(id:)`, which
reach every type in one hop, do not shadow the real entry points (`repository`, `viewer`).

That fragment hop is its own edge, out of the abstract type's node, rather than one edge per
field and possible type: a schema whose n types each have a field returning an interface they
all implement would otherwise hold n² edges (a million at n = 1,000). Costs are the same
either way: reaching a possible type through a field costs the field's hop plus the fragment's.

The package: `SchemaGraph` here, its records in `edges`, and the walk from the roots that
answers for one type at a time in `walk` (`ShortestPaths`).
"""

from __future__ import annotations

import heapq
import math
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import Any

from schemanav.corpus.model import Corpus
from schemanav.graph.edges import (
    FRAGMENT,
    NO_PATH_COST,
    Edge,
    EdgeArrays,
    HopCosts,
    Path,
    Way,
)
from schemanav.graph.walk import ShortestPaths

__all__ = [
    "FRAGMENT",
    "NO_PATH_COST",
    "Edge",
    "EdgeArrays",
    "HopCosts",
    "Path",
    "SchemaGraph",
    "ShortestPaths",
    "Way",
]


class SchemaGraph:
    @classmethod
    def of(
        cls, corpus: Corpus, abstract_penalty: float = 1.0, other_root_cost: float = 3.0
    ) -> SchemaGraph:
        """The graph of this corpus object, shared while anyone holds it (a searcher and a
        slicer of one schema): it and its caches are the schema's alone, and building it
        takes a tenth of a second on GitLab. A graph holds its corpus, so no other corpus
        can take that corpus's id while the graph is kept."""
        key = (id(corpus), abstract_penalty, other_root_cost)
        graph = _SHARED_GRAPHS.get(key)
        if graph is None or graph.corpus is not corpus:
            graph = _SHARED_GRAPHS[key] = cls(corpus, abstract_penalty, other_root_cost)
        return graph

    def __init__(
        self, corpus: Corpus, abstract_penalty: float = 1.0, other_root_cost: float = 3.0
    ) -> None:
        self.corpus = corpus
        self.abstract_penalty = abstract_penalty
        self.other_root_cost = other_root_cost
        # From two columns, not a record per field (26,000 on a schema 4 times GitHub's): a
        # warm search builds the graph in every process. A field's `edge` is made when read.
        owners, targets = corpus.owner_column, corpus.target_column
        fields = len(owners)
        # Fragment edges from the abstract types a field leads to, to their possible types.
        self._fragment_cost: dict[str, float] = {}
        self._abstract_over: dict[str, list[str]] = defaultdict(list)
        self._fragments: list[Edge] = []
        named = set(targets)
        for abstract in sorted(named):
            possible = corpus.possible_types.get(abstract, ())
            if not possible:
                continue
            extra = abstract_penalty * math.log2(1 + len(possible))
            self._fragment_cost[abstract] = extra
            for concrete in possible:
                self._fragments.append(Edge(FRAGMENT, abstract, concrete, extra))
                self._abstract_over[concrete].append(abstract)
        roots = (corpus.query_root, corpus.mutation_root, corpus.subscription_root)
        self.roots = [root for root in roots if root]
        # Types numbered in name order, so the queue's (cost, number) order is (cost, name).
        fragment_targets = [edge.target for edge in self._fragments]
        self.type_names = sorted({*self.roots, *owners, *named, *fragment_targets})
        self.type_ids = type_ids = {name: number for number, name in enumerate(self.type_names)}
        owner_ids = list(map(type_ids.__getitem__, owners))
        self._target_ids = target_ids = list(map(type_ids.__getitem__, targets))
        fragment_sources = [type_ids[edge.source] for edge in self._fragments]
        # Leaves: types no edge leads out of (scalars, enums), roots excepted.
        has_out = {*owner_ids, *fragment_sources, *(type_ids[root] for root in self.roots)}
        self.is_leaf = is_leaf = [number not in has_out for number in range(len(type_ids))]
        # The inner walk's `step_adjacency` from the columns, not from `adjacency` (made when
        # read): a warm search walks only inner types, and built every edge thrice before.
        inner: list[list[tuple[int, int, int]]] = [[] for _ in type_ids]
        self.inner_entries: list[int] = []  # the fields the inner walk hops through
        inner_entries = self.inner_entries
        for number, (source, target) in enumerate(zip(owner_ids, target_ids, strict=True)):
            if not is_leaf[target]:
                inner[source].append((target, len(inner_entries), number))
                inner_entries.append(number)
        fragment_step = len(inner_entries) - fields  # a fragment's step: its edge + this
        for number, concrete in enumerate(fragment_targets, start=fields):
            if not is_leaf[target := type_ids[concrete]]:
                inner[fragment_sources[number - fields]].append(
                    (target, number + fragment_step, number)
                )
        self.fragment_extras = [edge.extra_cost for edge in self._fragments]
        self._step_adjacency: dict[bool, list[list[tuple[int, int, int]]]] = {False: inner}
        self.edge_entry = [*range(fields), *(FRAGMENT for _ in self._fragments)]
        self.edge_source = owner_ids + fragment_sources
        self._unit_hops = [1.0] * fields
        self._edge_arrays: dict[bool, EdgeArrays] = {}
        self.static = self.shortest_paths().settle_all()
        self._ranked: dict[str, list[tuple[float, int, int, str]]] = {}
        self._ways: dict[tuple[str, int | None], list[list[int]]] = {}
        self._by_target: dict[bool, dict[int, list[int]]] = {}  # leaf or not: fields into

    def fragment_cost(self, abstract: str) -> float:
        """What passing through `abstract` to one of its possible types costs (0 for a type
        with none)."""
        return self._fragment_cost.get(abstract, 0.0)

    def edge(self, number: int) -> Edge:
        """Edge `number`: a field's (by its corpus position), then the fragments'."""
        owners, targets = self.corpus.owner_column, self.corpus.target_column
        if number < len(owners):
            return Edge(number, owners[number], targets[number], 0.0)
        return self._fragments[number - len(owners)]

    def _fields_into(self, target: str) -> list[int]:
        """The fields (corpus entries) into `target`, in corpus order (filed by the type
        they return when first asked: a BM25 search reads paths but never imports numpy):
        those into inner types, which a search's ways lead into, apart from a leaf's."""
        number = self.type_ids.get(target, -1)
        if number < 0:
            return []
        leaf = self.is_leaf[number]
        filed = self._by_target.get(leaf)
        if filed is None:
            filed = self._by_target[leaf] = defaultdict(list)
            targets, is_leaf = self._target_ids, self.is_leaf
            into = (p for p, t in enumerate(targets) if is_leaf[t]) if leaf else self.inner_entries
            for position in into:
                filed[targets[position]].append(position)
        return filed.get(number, [])

    @cached_property
    def adjacency(self) -> list[list[tuple[int, int, float, int]]]:
        """Each type's edges out as (target, entry or FRAGMENT, extra cost, edge), fields then
        fragments: made when first read (walks through leaves or in arrays, `cheapest_way`)."""
        fields, type_ids = len(self._target_ids), self.type_ids
        adjacency: list[list[tuple[int, int, float, int]]] = [[] for _ in self.type_names]
        sources = self.edge_source
        for number, target in enumerate(self._target_ids):
            adjacency[sources[number]].append((target, number, 0.0, number))
        for number, edge in enumerate(self._fragments, start=fields):
            hop = (type_ids[edge.target], FRAGMENT, edge.extra_cost, number)
            adjacency[sources[number]].append(hop)
        return adjacency

    @cached_property
    def inner_adjacency(self) -> list[list[tuple[int, int, float, int]]]:
        """`adjacency` without the edges into leaves."""
        is_leaf = self.is_leaf
        return [[hop for hop in out if not is_leaf[hop[0]]] for out in self.adjacency]

    def step_adjacency(self, *, with_leaves: bool) -> list[list[tuple[int, int, int]]]:
        """The adjacency `ShortestPaths` walks, as (target, step, edge): `step` indexes the
        walk's steps, its fields' hops (every entry's, or `inner_entries`') followed by
        `fragment_extras`. The inner walk's is made with the graph; the other, through leaves
        (where a step is the edge's number), when first walked."""
        known = self._step_adjacency.get(with_leaves)
        if known is None:
            known = self._step_adjacency[with_leaves] = [
                [(target, edge, edge) for target, _entry, _extra, edge in out]
                for out in self.adjacency
            ]
        return known

    def cheapest_way(
        self,
        sources: Sequence[tuple[str, float]],
        arrived: Callable[[str], bool],
        hops: HopCosts | None = None,
    ) -> Way | None:
        """The cheapest way from any of `sources` (type, start cost) to the first type, at
        least one field away, that `arrived` accepts; None if no way leads to one.

        Unlike `ShortestPaths` (which walks from the roots, through fragment edges, and settles
        ties by type name), this walk serves a caller that extends an operation from what it
        already selected: a field's hop costs `hops[entry]` (default 1), and a field returning
        an interface or union reaches each possible type at once (hop plus the fragment's extra
        cost) but a type reached on its own is never left through a fragment, since an inline
        fragment needs a field to stand under. Equal costs go to the way found first (sources
        in the order given, fields in schema order), so a caller's order decides ties, which
        whole-number costs make common. Types without fields are left out: no way goes on
        from one, and `arrived` never wants one."""
        hop_cost = self._unit_hops if hops is None else hops
        moves = self._field_moves
        best = [math.inf] * len(self.type_names)
        # Every way found: (type, source index, the way it extends or -1, entry, the fragment's
        # type or -1).
        found: list[tuple[int, int, int, int, int]] = []
        queue: list[tuple[float, int]] = []
        for index, (name, start) in enumerate(sources):
            number = self.type_ids.get(name)
            if number is None or best[number] <= start:
                continue
            best[number] = start
            found.append((number, index, -1, FRAGMENT, -1))
            heapq.heappush(queue, (start, len(found) - 1))
        while queue:
            cost, way = heapq.heappop(queue)
            number, source, before, _, _ = found[way]
            if cost > best[number]:
                continue
            if before >= 0 and arrived(self.type_names[number]):
                return self._way(found, way, cost)
            for entry, target, fragments in moves[number]:
                reached = cost + hop_cost[entry]
                if reached < best[target]:
                    best[target] = reached
                    found.append((target, source, way, entry, -1))
                    heapq.heappush(queue, (reached, len(found) - 1))
                for concrete, extra in fragments:
                    through = reached + extra
                    if through < best[concrete]:
                        best[concrete] = through
                        found.append((concrete, source, way, entry, concrete))
                        heapq.heappush(queue, (through, len(found) - 1))
        return None

    def _way(self, found: list[tuple[int, int, int, int, int]], last: int, cost: float) -> Way:
        """The `Way` that ends with `found[last]`, its hops read back to its source."""
        hops: list[tuple[int, str | None]] = []
        way = last
        while (before := found[way][2]) >= 0:
            _, _, _, entry, fragment = found[way]
            hops.append((entry, None if fragment < 0 else self.type_names[fragment]))
            way = before
        number, source = found[last][0], found[way][1]
        return Way(source, self.type_names[number], cost, tuple(reversed(hops)))

    @cached_property
    def _field_moves(self) -> list[list[tuple[int, int, list[tuple[int, float]]]]]:
        """For `cheapest_way`, each type's fields between inner types as (entry, target, the
        target's fragments as (possible type, extra cost)), in schema order; each interface's
        or union's fragment list is shared by every field returning it."""
        fragments: list[list[tuple[int, float]]] = [
            [(target, extra) for target, entry, extra, _ in out if entry == FRAGMENT]
            for out in self.adjacency
        ]
        return [
            [(entry, target, fragments[target]) for target, entry, _, _ in out if entry != FRAGMENT]
            for out in self.inner_adjacency
        ]

    def inner_hop_costs(self, hops: HopCosts) -> list[float]:
        """The costs of the fields the inner walk hops through (`inner_entries`), in order."""
        if hasattr(hops, "tolist"):
            picked: list[float] = hops[self._inner_entry_array].tolist()
            return picked
        return [hops[entry] for entry in self.inner_entries]

    @cached_property
    def _inner_entry_array(self) -> Any:
        import numpy as np

        return np.asarray(self.inner_entries, dtype=np.intp)

    @cached_property
    def edge_columns(self) -> tuple[Any, Any]:
        """`edge_source` and `edge_entry` as arrays (for `ShortestPaths._chain_rows`)."""
        import numpy as np

        return np.asarray(self.edge_source, dtype=np.intp), np.asarray(
            self.edge_entry, dtype=np.intp
        )

    def edge_arrays(self, *, with_leaves: bool) -> EdgeArrays:
        """The walk's edges as arrays, in the order the queue relaxes them (by source type,
        then as listed), grouped by target type for `ShortestPaths.settle_all_at_once`."""
        cached = self._edge_arrays.get(with_leaves)
        if cached is None:
            import numpy as np

            adjacency = self.adjacency if with_leaves else self.inner_adjacency
            rows = [
                (source, target, entry, extra, edge)
                for source, out in enumerate(adjacency)
                for target, entry, extra, edge in out
            ]
            columns = list(zip(*rows, strict=True)) if rows else [(), (), (), (), ()]
            source, target, entry, extra, edge = (np.asarray(c) for c in columns)
            by_target = np.argsort(target, kind="stable")
            sorted_targets = target[by_target]
            starts = np.flatnonzero(np.r_[True, sorted_targets[1:] != sorted_targets[:-1]])
            starts = starts[: len(sorted_targets)]  # no edges: no group
            # Every array is in relaxation order but the grouped ones, which follow
            # `by_target`: `source` and the rest are permuted alike, below.
            cached = self._edge_arrays[with_leaves] = EdgeArrays(
                source=source[by_target].astype(np.intp),
                target=sorted_targets.astype(np.intp),
                entry=entry[by_target].astype(np.intp),
                extra=extra[by_target].astype(float),
                edge=edge[by_target].astype(np.intp),
                group_starts=starts.astype(np.intp),
                target_of_group=sorted_targets[starts].astype(np.intp),
            )
        return cached

    def root_costs(self) -> dict[str, float]:
        """Start costs: the query root is free; mutation and subscription roots cost more.
        Most questions read; the types only a mutation returns (its payloads) are many and
        rarely what a reader wants, so they start `other_root_cost` hops behind."""
        costs: dict[str, float] = {}
        for number, root in enumerate(self.roots):
            costs.setdefault(root, 0.0 if number == 0 else self.other_root_cost)
        return costs

    def shortest_paths(self, field_cost: HopCosts | None = None) -> ShortestPaths:
        """Cheapest way to every type; a field hop costs `field_cost[entry]` (default 1). The
        walk runs lazily, as far as the types asked about (see `ShortestPaths`)."""
        return ShortestPaths(self, self._unit_hops if field_cost is None else field_cost)

    def owner_costs(self) -> list[float]:
        """For each corpus entry, how far its owner type lies from a root (static costs)."""
        owners, static = self.corpus.owner_column, self.static
        costs = {name: static.cost(name) for name in set(owners)}
        return [NO_PATH_COST if (cost := costs[owner]) is None else cost for owner in owners]

    def chain_to(self, type_name: str, paths: ShortestPaths | None = None) -> list[int]:
        """Corpus entries (root first) along the cheapest way to `type_name`."""
        return (paths or self.static).chain_to(type_name)

    def paths_to_root(
        self, coordinate_entry: int, limit: int, preferred: ShortestPaths | None = None
    ) -> tuple[Path, ...]:
        """Up to `limit` root-first coordinate lists ending in the entry, cheapest first.
        Alternatives differ in their last hop into the owner type: the cheapest way in
        through each incoming field, so a user sees distinct routes rather than one route
        with small detours. `preferred` (a question's own routes) goes first when given.
        A field of a root type is its own path."""
        if limit < 1:
            return ()
        owner = self.corpus.owner_column[coordinate_entry]
        chains: list[list[int]] = []  # read, not changed: the walks' and ways' own lists
        if owner in self.roots:
            chains.append([])
        else:
            if preferred is not None and preferred.reaches(owner):
                chains.append(preferred.shared_chain(self.type_ids[owner]))
            chains.extend(self._ways_into(owner, limit))
        coordinate = self.corpus.coordinates.__getitem__
        paths: list[Path] = []
        for chain in chains:
            path = (*map(coordinate, chain), coordinate(coordinate_entry))
            if path not in paths:
                paths.append(path)
            if len(paths) == limit:
                break
        return tuple(paths)

    def ways_into(self, type_name: str, limit: int | None = None) -> list[list[int]]:
        """Cheapest route through each field that leads into `type_name`, cheapest first
        (then fewest hops, then corpus order); the first `limit` of them when given.
        The fields into an interface or union are ranked once and merged lazily into each
        of its possible types' ways, so a wide interface (thousands of implementations, each
        reached through every field returning it) costs each type only the routes it uses.
        The ways depend on the schema alone, so each type's are found once (a search asks
        for its hits' owners' ways on every question)."""
        return [list(way) for way in self._ways_into(type_name, limit)]

    def _ways_into(self, type_name: str, limit: int | None) -> list[list[int]]:
        """`ways_into`'s own lists, kept per type and limit (not to be changed)."""
        key = (type_name, limit)
        known = self._ways.get(key)
        if known is None:
            known = self._ways[key] = self._find_ways_into(type_name, limit)
        return known

    def _find_ways_into(self, type_name: str, limit: int | None) -> list[list[int]]:
        streams = [self._ranked_into(type_name, 0.0)] + [
            self._ranked_into(abstract, self._fragment_cost[abstract])
            for abstract in self._abstract_over.get(type_name, ())
        ]
        owners = self.corpus.owner_column
        ways: list[list[int]] = []
        for _, _, entry, source in heapq.merge(*streams):
            if limit is not None and len(ways) >= limit:
                break
            if source == type_name:
                continue
            chain = self.chain_to(source)
            if any(owners[i] == type_name for i in chain):
                continue  # a route through the type itself is a cycle
            ways.append([*chain, entry])
        return ways

    def _ranked_into(self, target: str, extra: float) -> Iterator[tuple[float, int, int, str]]:
        """The fields returning `target` whose owner a root reaches, as (cost of the way
        through them plus `extra`, its hops, entry, owner), cheapest first."""
        ranked = self._ranked.get(target)
        if ranked is None:
            ranked = []
            owners = self.corpus.owner_column
            for entry in self._fields_into(target):
                source = owners[entry]
                source_cost = self.static.cost(source)
                if source_cost is not None:
                    hops = self.static.hops(source) + 1
                    ranked.append((source_cost + 1.0, hops, entry, source))
            ranked.sort()
            self._ranked[target] = ranked
        for cost, hops, entry, source in ranked:
            yield cost + extra, hops, entry, source


_SHARED_GRAPHS: weakref.WeakValueDictionary[tuple[int, float, float], SchemaGraph] = (
    weakref.WeakValueDictionary()
)
