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
"""

from __future__ import annotations

import heapq
import math
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any, NamedTuple

from schemanav.corpus.model import Corpus

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
