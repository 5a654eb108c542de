"""Schema slices: the smallest connected piece of a schema that answers a question, as SDL.

A ranked list of coordinates leaves the agent to find the way from the root, the arguments and
the types those need. A slice hands over a schema of its own instead: the root fields, the
object types on the way, the fields the question needs with the arguments that select (required
ones, a connection's page size, the ones the question's words name, every argument of a field
returning one object whose arguments are all optional, every argument of the first two hits),
and the input, enum and scalar types those arguments and fields need (an enum of more than 12
values that an argument takes shows the values the question names). Hits are added in rank
order, each with a way in from the root (the one adding the fewest fields not yet in the
slice), until the next one would exceed 80% of the token budget; the rest goes first to
connectives (fields not yet shown from a type in the slice to a type with a hit, each costing
only its line), then to hits further down (twelve times as many as fitted, none of type `ID`)
that cost only their own line, or that lie on a member of a union in the slice (of at most 16
members) and bring it in for at most 2% of the budget. A type entering the slice brings its
best leaves by the question's scores (an interface, whose fields every implementation in the
slice repeats, brings none of those), the leaves that identify its objects (named like a lookup
field's required argument) and its labels (the `String!` leaves most types share); a type of at
most 12 leaves that gets its third hit shows them all, when they cost at most 2% of the budget;
a connection shows `nodes` once its node type is in. Ways in are closed over the schema's
shape: fields into a union or interface through which a hit's type is reached, a query field
without arguments returning a type in the slice (a viewer), a list way into a type with several
hits, and the single-object fields between types with several hits each. Fields are indented by
one space (tokens are the budget).

A slice is a subset of the schema in the sense that matters to an agent: it parses with
graphql-core, and every operation valid against it is valid against the full schema.
That holds because fields keep their exact return types, required arguments are always
shown (an optional argument may be hidden: an operation then cannot use it), input objects
keep their required fields, an object type declares an interface only when a path passes
through that interface (and then carries all the interface's fields in the slice), and
unions keep only the members that are in the slice.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import islice
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from graphql import GraphQLSchema

    from schemanav.corpus import Corpus, CorpusEntry
    from schemanav.corpus.facts import InputValue, SliceFacts
    from schemanav.graph import SchemaGraph, ShortestPaths

BUILTIN_SCALARS = frozenset({"String", "Int", "Float", "Boolean", "ID"})
DEFAULT_ROOT_NAMES = ("Query", "Mutation", "Subscription")
# The Relay cursor-connections specification names the page-size argument `first`.
PAGE_SIZE_ARGUMENT = "first"
CONNECTION_FIELDS = frozenset({"edges", "nodes", "pageInfo"})
# How many of a type's cheapest ways in a slice weighs: bounds the work for a type that
# thousands of fields lead into (every implementation of a wide interface); the widest
# type of the bundled schemas has a few hundred.
MAX_WAYS_IN = 512
# A way into a type: (penalty, number, corpus entries, (owner, field) steps, through a list).
_Way = tuple[float, int, list[int], list[tuple[str, str]], bool]
# Past this share of the budget, a slice keeps a copy of itself before each hit, so a hit
# that does not fit is undone without replaying the others.
SNAPSHOT_FROM = 0.9
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


@dataclass(frozen=True)
class SliceParams:
    """The knobs, with the values chosen in benchmarks/slice-experiments.md."""

    arguments: Literal["all", "selected", "required"] = "selected"
    input_fields: Literal["all", "required"] = "required"
    descriptions: Literal["none", "first-sentence", "full"] = "none"
    path_relevance: float = 0.0
    page_size: bool = True
    connection_extras: bool = False
    enum_values: Literal["all", "arguments"] = "arguments"
    leaves: int = 3
    other_roots_within: int = 3
    closed_subtypes: bool = True
    reuse_reached_types: bool = True
    identifiers: bool = True
    fill_depth: float = 12.0
    routes: int = 1
    routed_hits: int = 0
    shared_routes: bool = True
    route_new_fields: int = 99
    connection_nodes: Literal["off", "known", "always"] = "always"
    plural_ways: float = 3.0
    labels: int = 2
    abstract_links: bool = True
    context_roots: bool = True
    leaf_rank: int = 0
    pull_ahead: int = 0
    subject_hits: int = 3
    hit_links: Literal["off", "single", "all"] = "single"
    link_hits: int = 3
    edge_nodes: bool = False
    pull: Literal["cheap", "owner"] = "cheap"
    indent: int = 1
    optional_lookups: bool = True
    top_arguments: int = 2
    connectives: Literal["off", "single", "lines", "all"] = "lines"
    connective_hits: int = 1
    reserve: float = 0.2
    connectives_first: bool = True
    shared_leaves: int = 0
    abstract_connectives: bool = False
    bare_fill: bool = False
    argument_enum_cap: int = 12
    retry_failed: Literal["off", "before", "after"] = "off"
    fill_leaf_types: bool = False
    fill_members: Literal["off", "bare", "one", "full", "unions"] = "unions"
    connective_sources: int = 0
    fill_spread: float = 0.0
    retry_share: float = 1.0
    interface_leaves: int = 0
    connection_leaves: int = -1
    lookup_leaves: bool = False
    id_fillers: bool = True
    fill_owner_rank: float = 0.0
    fill_flags: bool = True
    fill_ids: bool = False
    relay_plumbing: bool = True
    wide_abstract: int = 0
    fill_connections: bool = False
    fill_member_cap: int = 16
    fill_member_share: float = 0.02
    fill_leaf_share: float = 1.0
    subject_leaves: int = 12
    subject_leaves_share: float = 0.02


@dataclass(frozen=True)
class SchemaSlice:
    """A slice: its SDL, what it costs (o200k_base) and every coordinate it shows.

    `fields` are `Type.field`, `arguments` are `Type.field(arg:)`, `types` are the names it
    defines (built-in scalars excluded); `hits` is how many ranked hits went in.
    """

    sdl: str
    tokens: int
    fields: tuple[str, ...]
    arguments: tuple[str, ...]
    types: tuple[str, ...]
    hits: int

    @property
    def coordinates(self) -> frozenset[str]:
        return frozenset((*self.fields, *self.arguments, *self.types))


EMPTY_SLICE = SchemaSlice("", 0, (), (), (), 0)


@dataclass(frozen=True)
class _Field:
    """What slicing needs of one output field, computed once per schema."""

    position: int
    arguments: tuple[str, ...]
    required: tuple[str, ...]
    argument_types: tuple[str, ...]
    argument_texts: tuple[str, ...]
    defaults: tuple[bool, ...]
    return_type: str
    named: str
    many: bool
    free: bool
    leaf: bool
    description: str | None


class Slicer:
    """Builds slices of one schema; build once, slice many questions (caches line costs)."""

    def __init__(
        self,
        schema_facts: SliceFacts,
        corpus: Corpus,
        graph: SchemaGraph | None = None,
        params: SliceParams | None = None,
        words: Callable[[str], list[str]] | None = None,
    ) -> None:
        """A slicer of the schema that `corpus` and `schema_facts` (`SliceFacts.of(schema)`, or
        the cached facts of a schema file) describe: it needs no `GraphQLSchema`."""
        from schemanav.graph import SchemaGraph
        from schemanav.retrieval.analyzer import Stemmer

        self.schema_facts = schema_facts
        self.corpus = corpus
        self.graph = graph or SchemaGraph(corpus)
        self.params = params or SliceParams()
        self.indent = " " * self.params.indent
        # The question's words pick optional arguments and enum values: the same analyzer as
        # the backends, so `states`/"open" match `state: [PullRequestState!]`/`OPEN`.
        self._words = words if words is not None else Stemmer()
        self.names = [(e.owner, e.field) for e in corpus.entries]  # by corpus position
        self.position = {name: i for i, name in enumerate(self.names)}
        self._index = {c: i for i, c in enumerate(corpus.coordinates)}
        self._costs: dict[str, int] = {}
        self._plurals: dict[tuple[str, ...], list[str]] | None = None
        self._longest_plural = 0
        self._static_ways: dict[str, list[tuple[list[int], list[tuple[str, str]], float]]] = {}
        self._argument_words: dict[tuple[str, str, str], frozenset[str]] = {}
        self._value_words: dict[str, frozenset[str]] = {}
        self._union_members: dict[str, list[tuple[str, list[int]]]] = {}
        self._free_leaves: dict[str, list[tuple[str, int]]] = {}
        self._ways_by_penalty: dict[str, list[_Way]] = {}
        self._field_order: dict[str, dict[str, int]] = {}
        self._kinds = schema_facts.kinds
        # Each owner's fields in definition order (the corpus keeps the schema's order).
        fields_of: dict[str, list[str]] = {}
        for owner, name in self.names:
            fields_of.setdefault(owner, []).append(name)
        self._fields_of = fields_of
        # Output types shaped like a Relay connection (`is_connection`).
        self.connections = frozenset(
            name
            for name, fields in fields_of.items()
            if self._kinds.get(name) in ("object", "interface")
            and not CONNECTION_FIELDS.isdisjoint(fields)
        )
        self.enum_values = corpus.enum_values
        self._input_fields: dict[str, dict[str, InputValue]] = {}
        self._lines: dict[tuple[str, str, tuple[str, ...]], str] = {}
        self.facts: dict[str, dict[str, _Field]] = {}
        self.member_of: dict[str, list[str]] = defaultdict(list)
        self.interfaces_of: dict[str, list[str]] = {}
        self.implementors: dict[str, list[str]] = defaultdict(list)
        for name, kind in self._kinds.items():
            if kind == "union":
                # A union's possible types are its members, in declaration order.
                for member in corpus.possible_types.get(name, ()):
                    self.member_of[member].append(name)
            elif kind in ("object", "interface"):
                interfaces = list(schema_facts.interfaces.get(name, ()))
                self.interfaces_of[name] = interfaces
                for interface in interfaces:
                    self.implementors[interface].append(name)
        arguments = schema_facts.arguments
        coordinates = corpus.coordinates
        for position, entry in enumerate(corpus.entries):
            given = arguments.get(coordinates[position], ())
            if len(given) != len(entry.arguments):
                raise ValueError(
                    f"the slice facts do not match the corpus: {coordinates[position]} has "
                    f"{len(entry.arguments)} arguments, the facts {len(given)}"
                )
            self.facts.setdefault(entry.owner, {})[entry.field] = self._field_facts(
                position, entry, given
            )
        self.identifiers = self._identifiers()
        # Relay pagination plumbing (a connection's `pageInfo` and its type's fields, an
        # edge's `cursor`): not added as hits unless `relay_plumbing`.
        self.plumbing: frozenset[int] = frozenset()
        if not self.params.relay_plumbing:
            found: set[int] = set()
            for owner, fields in self.facts.items():
                if self.is_connection(owner) and "pageInfo" in fields:
                    found.add(fields["pageInfo"].position)
                    found.update(f.position for f in self.facts[fields["pageInfo"].named].values())
                if "cursor" in fields and "node" in fields:
                    found.add(fields["cursor"].position)
            self.plumbing = frozenset(found)
        if self.params.wide_abstract:
            # Fields into an interface or union with more possible types than this (`Node`)
            # reach nothing in particular; a hit on one is not added.
            wide = {
                n for n, t in corpus.possible_types.items() if len(t) > self.params.wide_abstract
            }
            self.plumbing = self.plumbing | frozenset(
                f.position for fields in self.facts.values() for f in fields.values()
                if f.named in wide
            )
        self.labels = self._labels()
        self.shared_leaves = self._shared_leaves()
        # Query root fields without required arguments that return one object (not a list,
        # not the root itself): the caller's own context (a viewer), by the type returned.
        self.context_roots: dict[str, list[str]] = defaultdict(list)
        query_root = corpus.query_root
        for name, facts in self.facts.get(query_root or "", {}).items():
            if (
                facts.free
                and not facts.many
                and self._kinds.get(facts.named) == "object"
                and facts.named != query_root
            ):
                self.context_roots[facts.named].append(name)
        # Fields without required arguments by the object type they lead to (directly, or
        # through a list or a connection's nodes), with whether they lead to many.
        self.leading_to: dict[str, list[tuple[str, str, bool]]] = defaultdict(list)
        for owner, fields in self.facts.items():
            for name, facts in fields.items():
                if not facts.free or facts.leaf:
                    continue
                target = facts.named
                nodes = self.facts.get(target, {}).get("nodes")
                if nodes is not None and self.is_connection(target):
                    target = nodes.named
                self.leading_to[target].append((owner, name, facts.many))
        # The same fields by their owner, then the type they lead to: (field, many), in
        # `leading_to`'s order.
        self.leading_between: dict[str, dict[str, list[tuple[str, bool]]]] = {}
        for target, leading in self.leading_to.items():
            for owner, name, many in leading:
                self.leading_between.setdefault(owner, {}).setdefault(target, []).append(
                    (name, many)
                )
        # Fields without required arguments that return a union or an interface, by that
        # abstract type.
        self.abstract_fields: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.possible = {n: frozenset(t) for n, t in corpus.possible_types.items()}
        # …and by their owner: (field, abstract type).
        self.abstract_out: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for owner, fields in self.facts.items():
            for name, facts in fields.items():
                if facts.free and self._kinds.get(facts.named) in ("union", "interface"):
                    self.abstract_fields[facts.named].append((owner, name))
                    self.abstract_out[owner].append((name, facts.named))

    @classmethod
    def of(
        cls,
        schema: GraphQLSchema,
        corpus: Corpus,
        graph: SchemaGraph | None = None,
        params: SliceParams | None = None,
        words: Callable[[str], list[str]] | None = None,
    ) -> Slicer:
        """A slicer of a parsed schema and its corpus (`build_corpus(schema)`)."""
        from schemanav.corpus.facts import SliceFacts

        return cls(SliceFacts.of(schema), corpus, graph, params, words)

    def _labels(self) -> dict[str, list[str]]:
        """Per type, its label: of its non-null `String!` leaves without arguments, the one
        whose name the most object types share (a name or a title, shown to name a result)."""
        shared: dict[str, int] = defaultdict(int)
        candidates: dict[str, list[str]] = {}
        for owner, fields in self.facts.items():
            names = [n for n, f in fields.items() if f.return_type == "String!" and f.free]
            candidates[owner] = names
            for name in names:
                shared[name] += 1
        return {
            owner: sorted(names, key=lambda n: -shared[n])[: self.params.labels]
            for owner, names in candidates.items()
            if names
        }

    def _shared_leaves(self) -> dict[str, list[str]]:
        """Per type, its `shared_leaves` non-null leaves without arguments (not `ID!`, not
        `Boolean!`, not `String!`: those are identifiers, flags and labels) whose names the
        most object types share: the timestamps, states and addresses results are read by."""
        wanted = self.params.shared_leaves
        if not wanted:
            return {}
        shared: dict[str, int] = defaultdict(int)
        candidates: dict[str, list[str]] = {}
        skipped = {"ID!", "Boolean!", "String!"}
        for owner, fields in self.facts.items():
            names = [
                n
                for n, f in fields.items()
                if f.leaf and f.free and f.return_type.endswith("!")
                and f.return_type not in skipped and not f.return_type.startswith("[")
            ]
            candidates[owner] = names
            for name in names:
                shared[name] += 1
        return {
            owner: sorted(names, key=lambda n: -shared[n])[:wanted]
            for owner, names in candidates.items()
            if names
        }

    def _identifiers(self) -> dict[str, list[str]]:
        """Per type, the leaf fields that identify one of its objects: those named like a
        required argument of a single-object field returning the type (`issue(number:)`
        makes `Issue.number` an identifier), the values an agent reads to name a result."""
        found: dict[str, list[str]] = defaultdict(list)
        for fields in self.facts.values():
            for field in fields.values():
                if field.many or not field.required:
                    continue
                own = self.facts.get(field.named, {})
                for argument in field.required:
                    facts = own.get(argument)
                    if facts and facts.leaf and facts.free and argument not in found[field.named]:
                        found[field.named].append(argument)
        return dict(found)

    def _field_facts(
        self, position: int, entry: CorpusEntry, arguments: tuple[InputValue, ...]
    ) -> _Field:
        return_type = entry.return_type
        named = return_type.strip("[]!")
        names: tuple[str, ...] = ()
        required: tuple[str, ...] = ()
        types: tuple[str, ...] = ()
        texts: tuple[str, ...] = ()
        defaults: tuple[bool, ...] = ()
        if arguments:  # most fields have none
            names = tuple(a.name for a in arguments)
            required = tuple(a.name for a in arguments if a.required)
            types = tuple(a.named_type for a in arguments)
            texts = tuple(a.text for a in arguments)
            defaults = tuple(a.has_default for a in arguments)
        # Constructed, not `filled`: slicing reads these records' attributes hundreds of
        # thousands of times, faster from the instance layout `__init__` gives.
        return _Field(
            position=position,
            arguments=names,
            required=required,
            argument_types=types,
            argument_texts=texts,
            defaults=defaults,
            return_type=return_type,
            named=named,
            many=return_type.lstrip("!").startswith("[") or named in self.connections,
            free=not required,
            leaf=self._kinds.get(named) in ("scalar", "enum"),
            description=entry.description,
        )

    def field_line(self, owner: str, name: str, shown: tuple[str, ...]) -> str:
        key = (owner, name, shown)
        line = self._lines.get(key)
        if line is None:
            facts = self.facts[owner][name]
            if shown:
                texts = ", ".join(facts.argument_texts[facts.arguments.index(a)] for a in shown)
                line = f"{self.indent}{name}({texts}): {facts.return_type}\n"
            else:
                line = f"{self.indent}{name}: {facts.return_type}\n"
            self._lines[key] = line
        return line

    # --- public API -----------------------------------------------------------------------

    def from_scores(
        self, scores: Sequence[float] | Any, budget: int, question: str | None = None
    ) -> SchemaSlice:
        """A slice from one score per corpus entry (higher is better; ≤ 0 is never added).

        Paths from the root are chosen per question: a hop through a field costs
        1 − path_relevance · score/max, so routes through relevant fields win.
        """
        import numpy as np

        array = np.asarray(scores, dtype=float)
        if array.shape != (len(self.corpus),):
            raise ValueError(f"{array.size} scores for {len(self.corpus)} corpus entries")
        ranked = np.argsort(-array, kind="stable")
        order = ranked[: int((array > 0.0).sum())].tolist()
        values = array.tolist()
        return self._build(order, values, budget, question)

    def from_ranked(
        self, coordinates: Sequence[str], budget: int, question: str | None = None
    ) -> SchemaSlice:
        """A slice from any backend's ranked coordinates (unknown ones are skipped).

        Rank r (1-based) stands in for a score of 1/r, so paths prefer listed fields.
        """
        positions = dict.fromkeys(map(self._index.get, coordinates))  # first rank of each
        positions.pop(None, None)
        order: list[int] = list(positions)  # type: ignore[arg-type]
        values = [0.0] * len(self.corpus)
        for rank, position in enumerate(order, start=1):
            values[position] = 1.0 / rank
        return self._build(order, values, budget, question)

    # --- internals ------------------------------------------------------------------------

    def cost(self, text: str) -> int:
        cached = self._costs.get(text)
        if cached is None:
            from schemanav.tokens import count_tokens

            cached = self._costs[text] = count_tokens(text)
        return cached

    def _routes(self, values: list[float]) -> ShortestPaths:
        if not self.params.path_relevance:
            return self.graph.static
        best = max(values, default=0.0)
        if best <= 0.0:
            return self.graph.static
        relevance = self.params.path_relevance / best
        return self.graph.shortest_paths(field_cost=[1.0 - relevance * v for v in values])

    def _build(
        self, order: list[int], values: list[float], budget: int, question: str | None
    ) -> SchemaSlice:
        if budget <= 0 or not order:
            return EMPTY_SLICE
        routes = self._routes(values)
        words = frozenset(self._words(question)) if question else frozenset()
        many = self.many_named(question) if question and self.params.plural_ways else frozenset()
        cap = self.params.leaf_rank
        floor = values[order[cap - 1]] if 0 < cap <= len(order) else 0.0

        # A slice is grown by steps: a ranked hit with its way in, a cheap hit's line alone,
        # a connective field. Replaying the steps into a fresh state rebuilds it exactly.
        steps: list[_Step] = []
        # A copy of the state as it was after the first n steps, kept where the cheap steps
        # begin: a slice trimmed to fit replays only the steps after it.
        kept_at: tuple[int, _State] | None = None

        def replayed(upto: int | None = None) -> _State:
            """A slice state holding the first `upto` steps (all by default)."""
            upto = len(steps) if upto is None else upto
            if kept_at is not None and kept_at[0] <= upto:
                start, fresh = kept_at[0], kept_at[1].copy()
            else:
                start, fresh = 0, _State(self, values, routes, words, many, floor, budget)
            for step in steps[start:upto]:
                fresh.apply(step)
            return fresh

        # Add hits while the running estimate fits (`reserve` keeps a share of the budget
        # for connectives and cheap hits); the estimate sums each line's tokens, as exact as
        # the final count of the rendered SDL, which drops steps from the end while over.
        state: _State | None = replayed()
        assert state is not None
        end = 0
        sequence = self._sequence(order, state) if self.params.pull_ahead else iter(order)
        failed = -1
        main_budget = budget * (1.0 - self.params.reserve)
        for number, position in enumerate(sequence):
            # Near the budget, keep a copy to fall back on if this hit does not fit.
            near = state.total >= main_budget * SNAPSHOT_FROM
            snapshot = state.copy() if near else None
            state.add_hit(position)
            if state.total > main_budget:
                state, failed = snapshot, position
                break
            steps.append(("hit", position))
            end = number + 1

        def connect(state: _State) -> _State:
            """Fields between types with hits, while they fit (see `_State.connectives`):
            first those that cost only their line, then (`connectives="all"`) the others,
            each undone when it does not fit."""
            later = []
            for owner, name, members in state.connectives():
                if members or not state.costs_line(owner, name):
                    later.append((owner, name, members))
                elif state.total + state.line_cost_of(owner, name) <= budget:
                    state.connect(owner, name, members)
                    steps.append(("link", owner, name, members))
            if self.params.connectives != "all":
                return state
            for owner, name, members in later:
                snapshot = state.copy()
                state.connect(owner, name, members)
                if state.total > budget:
                    state = snapshot
                else:
                    steps.append(("link", owner, name, members))
            return state

        def retry(state: _State | None) -> _State:
            """The hit that did not fit the main budget, if it fits the whole budget."""
            state = state or replayed()
            if failed == -1:
                return state
            snapshot = state.copy()
            before = state.total
            state.add_hit(failed)
            limit = self.params.retry_share * (budget - main_budget)
            if state.total > budget or state.total - before > limit:
                return snapshot
            steps.append(("hit", failed))
            return state

        connectives = self.params.connectives != "off" and bool(steps)
        if self.params.retry_failed == "before" and steps:
            state = retry(state)
        if connectives and self.params.connectives_first:
            state = connect(state or replayed())
        if self.params.retry_failed == "after" and steps:
            state = retry(state)
        if end and self.params.fill_depth > 0 and failed != -1:
            # Score per token: past the first hit that does not fit, hits that cost only
            # their own line (a field of a type already in, whose return type is in too)
            # still go in, as far down the ranking as `fill_depth` times the hits that fit.
            if state is None:
                state = replayed()
            kept_at = (len(steps), state.copy())
            taken = {step[1] for step in steps if step[0] == "hit"} | {failed}
            depth = int(end * self.params.fill_depth)
            rest = list(islice((p for p in order if p not in taken), depth))
            bare = self.params.bare_fill
            spread = self.params.fill_spread
            if spread:
                # A type's many fields in the slice make its next one less likely needed:
                # each field its owner already shows (or that ranks before it in the fill)
                # moves a hit `fill_spread` places down.
                entries = self.corpus.entries
                seen: dict[str, int] = defaultdict(int)
                keys = {}
                for number, position in enumerate(rest):
                    owner = entries[position].owner
                    shown = len(state.fields.get(owner, ()))
                    keys[position] = number + spread * (shown + seen[owner])
                    seen[owner] += 1
                rest.sort(key=keys.__getitem__)
            beyond_lines = (
                self.params.fill_leaf_types
                or self.params.fill_members != "off"
                or self.params.fill_connections
            )
            lift = self.params.fill_owner_rank
            if lift:
                # A hit on the type of a better-ranked hit goes first: each place down the
                # ranking of its owner's best hit moves it `fill_owner_rank` places down.
                entries = self.corpus.entries
                best: dict[str, int] = {}
                for number, position in enumerate(order):
                    best.setdefault(entries[position].owner, number)
                keys = {p: n + lift * best[entries[p].owner] for n, p in enumerate(rest)}
                rest.sort(key=keys.__getitem__)
            if not (self.params.fill_flags and self.params.fill_ids):
                # `ID` is opaque by the spec: past the frontier, a hit on one is a line that
                # answers nothing (identifiers and hits that fit still show it).
                skipped = {"ID"} if self.params.fill_flags else {"Boolean", "ID"}
                entries = self.corpus.entries
                facts = self.facts
                rest = [
                    p
                    for p in rest
                    if facts[entries[p].owner][entries[p].field].named not in skipped
                ]
            names, member_of, members = self.names, self.member_of, self.params.fill_members
            # `_State.near` answers for a type in the slice only with these knobs.
            near_within = self.params.fill_leaf_types or self.params.fill_connections
            # No step adds less than its hit's line, and no line costs less than its field
            # without arguments: once the slice is nearly full, most hits stop here.
            bare_costs = self.bare_line_costs
            cheapest = self.cheapest_line
            for position in rest:
                if state.total + cheapest > budget:
                    break  # not even the cheapest line of the schema fits any more
                owner, name = names[position]
                fields = state.fields.get(owner)
                if fields is None:
                    if members == "off" or (members == "unions" and not member_of.get(owner)):
                        continue  # neither cheap nor one step beyond (see `_State.near`)
                elif name in fields:
                    continue  # in already
                if state.total + bare_costs[position] > budget:
                    continue
                if not state.cheap(position):
                    if fields is not None and not near_within:
                        continue
                    beyond = state.near(position) if beyond_lines else None
                    if beyond is None:
                        continue
                    # One step beyond a line: a leaf whose enum or scalar is not yet in, or
                    # a field of a union member or interface implementation not yet in
                    # whose abstract type is; undone when it does not fit.
                    if beyond:
                        # At least the member's header and the hit's line: skip the copy
                        # when even those cannot fit.
                        least = self.cost(f"type {owner} {{\n}}\n\n") + state.line_cost(position)
                        limit = budget * self.params.fill_member_share
                        if state.total + least > budget or least > limit:
                            continue
                    snapshot = state.copy()
                    before = state.total
                    step: _Step = ("member", position, beyond) if beyond else ("hit", position)
                    state.apply(step)
                    if state.total > budget or (
                        state.total - before
                        > budget
                        * (self.params.fill_member_share if beyond else self.params.fill_leaf_share)
                    ):
                        state = snapshot
                    else:
                        steps.append(step)
                    continue
                if state.total + state.line_cost(position) > budget:
                    continue
                if bare:
                    if state.add_line(position):
                        steps.append(("line", position))
                else:
                    state.add_hit(position)
                    steps.append(("hit", position))
        if connectives and not self.params.connectives_first:
            state = connect(state or replayed())
        kept = len(steps)
        while kept:
            if state is None:
                state = replayed(kept)
            result = state.result(sum(1 for step in steps[:kept] if step[0] != "link"))
            if result.tokens <= budget:
                return result
            excess, state = result.tokens - budget, None
            kept -= max(1, kept * excess // max(result.tokens, 1))
        return EMPTY_SLICE

    def _sequence(self, order: list[int], state: _State) -> Iterator[int]:
        """Hits in rank order, except that a hit which would open a new type waits while
        one of the next `pull_ahead` hits costs only its own line (`pull="cheap"`) or lies
        on a type already in the slice (`pull="owner"`)."""
        entries = self.corpus.entries
        window = self.params.pull_ahead
        roots = set(self.graph.roots)
        taken: set[int] = set()
        start = 0
        while start < len(order):
            if order[start] in taken:
                start += 1
                continue
            pick = order[start]
            if entries[pick].owner not in state.fields:
                for position in order[start + 1 : start + 1 + window]:
                    if position in taken:
                        continue
                    owner = entries[position].owner
                    if self.params.pull == "cheap":
                        ahead = state.cheap(position)
                    else:
                        ahead = owner in state.fields and owner not in roots
                    if ahead:
                        pick = position
                        break
            taken.add(pick)
            yield pick

    def static_ways(self, owner: str) -> list[tuple[list[int], list[tuple[str, str]], float]]:
        """The schema's ways from the query root into `owner` (at most `MAX_WAYS_IN`), each
        with its steps as (owner, field) and its penalty for hops into a union or interface
        member (the graph's abstract penalty, growing with the number of possible types);
        computed once per type."""
        cached = self._static_ways.get(owner)
        if cached is None:
            entries = self.corpus.entries
            query_root = self.corpus.query_root
            cached = []
            for way in self.graph.ways_into(owner, MAX_WAYS_IN):
                if not way or entries[way[0]].owner != query_root:
                    continue
                penalty = 0.0
                for step, arrival in zip(
                    way, [*(entries[i].owner for i in way[1:]), owner], strict=True
                ):
                    target = entries[step].named_return_type
                    if target != arrival:
                        possible = self.corpus.possible_types.get(target, ())
                        penalty += self.graph.abstract_penalty * math.log2(1 + len(possible))
                steps = [(entries[i].owner, entries[i].field) for i in way]
                cached.append((way, steps, penalty))
            self._static_ways[owner] = cached
        return cached

    def ways_by_penalty(self, owner: str) -> list[_Way]:
        """`static_ways(owner)` as (penalty, number, way, steps, through a list or
        connection), lowest penalty first."""
        cached = self._ways_by_penalty.get(owner)
        if cached is None:
            facts = self.facts
            cached = self._ways_by_penalty[owner] = sorted(
                (penalty, number, way, steps, any(facts[o][f].many for o, f in steps))
                for number, (way, steps, penalty) in enumerate(self.static_ways(owner))
            )
        return cached

    def free_leaves(self, type_name: str) -> list[tuple[str, int]]:
        """A type's leaf fields without required arguments, with their corpus positions."""
        cached = self._free_leaves.get(type_name)
        if cached is None:
            cached = self._free_leaves[type_name] = [
                (name, f.position) for name, f in self.facts[type_name].items() if f.free and f.leaf
            ]
        return cached

    def field_order(self, type_name: str) -> dict[str, int]:
        """A type's field names by their place in its definition (slices print in that order)."""
        cached = self._field_order.get(type_name)
        if cached is None:
            fields = self._fields_of.get(type_name, ())
            cached = self._field_order[type_name] = {name: n for n, name in enumerate(fields)}
        return cached

    def union_members(self, union: str) -> list[tuple[str, list[int]]]:
        """A union's members in declaration order, each with its fields' corpus positions
        (a union entering a slice shows the member whose best field scores highest)."""
        cached = self._union_members.get(union)
        if cached is None:
            position = self.position
            cached = self._union_members[union] = [
                (member, [position[(member, name)] for name in self._fields_of.get(member, ())])
                for member in self.corpus.possible_types.get(union, ())
            ]
        return cached

    def input_fields(self, type_name: str) -> dict[str, InputValue]:
        """An input object type's fields by name, in order."""
        cached = self._input_fields.get(type_name)
        if cached is None:
            values = self.schema_facts.inputs[type_name]
            cached = self._input_fields[type_name] = {value.name: value for value in values}
        return cached

    def argument_words(self, owner: str, field: str, argument: str) -> frozenset[str]:
        """Words an argument answers to: its name, its input fields, its enum values."""
        key = (owner, field, argument)
        cached = self._argument_words.get(key)
        if cached is None:
            facts = self.facts[owner][field]
            named = facts.argument_types[facts.arguments.index(argument)]
            parts = [argument]
            kind = self._kinds.get(named)
            if kind == "input":
                parts.extend(self.input_fields(named))
            if kind == "enum":
                parts.extend(value.replace("_", " ").lower() for value in self.enum_values[named])
            cached = frozenset(self._words(" ".join(parts)))
            self._argument_words[key] = cached
        return cached

    def value_words(self, value: str) -> frozenset[str]:
        """The words of an enum value or an input field name (`SQUASH_MERGE`, `createdAt`)."""
        cached = self._value_words.get(value)
        if cached is None:
            text = value.replace("_", " ").lower() if value.isupper() else value
            words = self._words(text)
            cached = self._value_words[value] = frozenset(words)
        return cached

    def many_named(self, question: str) -> frozenset[str]:
        """Object types the question names in the plural (`pull requests` for PullRequest):
        it asks about many of them, so a way in through a list or connection fits better
        than a lookup by identifier."""
        words = re.findall(r"[a-z0-9]+", question.lower())
        if self._plurals is None:
            # Each type's plural forms as word sequences (`pull requests` → PullRequest),
            # looked up by the question's runs of words.
            self._plurals = defaultdict(list)
            for name in self.facts:
                base = " ".join(re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)).lower()
                forms = {base + "s", base + "es"}
                if base.endswith("y"):
                    forms.add(base[:-1] + "ies")
                for form in forms:
                    self._plurals[tuple(form.split(" "))].append(name)
            self._longest_plural = max(map(len, self._plurals), default=0)
        longest = self._longest_plural
        found: set[str] = set()
        for start in range(len(words)):
            for end in range(start + 1, min(start + longest, len(words)) + 1):
                found.update(self._plurals.get(tuple(words[start:end]), ()))
        return frozenset(found)

    def is_connection(self, type_name: str) -> bool:
        """A type shaped like a Relay connection: it has `edges`, `nodes` or `pageInfo`."""
        return type_name in self.connections

    @cached_property
    def bare_line_costs(self) -> list[int]:
        """By corpus position: what the field's line costs without arguments, the least any
        line of it costs (arguments only add text: a test checks this on both bundled schemas)."""
        from schemanav.tokens import count_many

        return count_many([self.field_line(owner, name, ()) for owner, name in self.names])

    @cached_property
    def cheapest_line(self) -> int:
        """The fewest tokens any field line of the schema costs."""
        return min(self.bare_line_costs, default=0)

    @cached_property
    def line_needs(self) -> list[tuple[str, str, str, tuple[str, ...]]]:
        """By corpus position: the field's owner, name, named return type and the named
        types of its required arguments other than built-in scalars (what `_State.cheap`
        asks of the slice, read for every hit the fill passes)."""
        needs = []
        for owner, name in self.names:
            facts = self.facts[owner][name]
            required = tuple(
                t
                for a, t in zip(facts.arguments, facts.argument_types, strict=True)
                if a in facts.required and t not in BUILTIN_SCALARS
            )
            needs.append((owner, name, facts.named, required))
        return needs


def _description(text: str | None, mode: str) -> str | None:
    if not text or mode == "none":
        return None
    text = " ".join(text.split())
    if mode == "first-sentence":
        text = _SENTENCE_END.split(text, maxsplit=1)[0]
    return text.replace("\\", "\\\\").replace('"', '\\"')


_Step = tuple[Any, ...]  # ("hit" | "line", position) or ("link", owner, field, members)


class _State:
    """One slice while it grows: what is in it and a running token estimate."""

    def __init__(
        self,
        slicer: Slicer,
        values: list[float],
        routes: ShortestPaths,
        words: frozenset[str],
        many: frozenset[str] = frozenset(),
        floor: float = 0.0,
        budget: int = 0,
    ) -> None:
        self.s = slicer
        self.budget = budget
        self.floor = floor
        self.many = many
        self.listed: set[str] = set()
        self.values = values
        self.routes = routes
        self.words = words
        self.fields: dict[str, dict[str, list[str]]] = {}
        self.implements: dict[str, list[str]] = defaultdict(list)
        self.implemented_by: dict[str, list[str]] = defaultdict(list)
        self.unions: dict[str, list[str]] = {}
        self.inputs: dict[str, list[str]] = {}
        self.enums: list[str] = []
        self.full_enums: set[str] = set()
        self.scalars: list[str] = []
        self.lines: dict[tuple[str, ...], str] = {}
        self.total = 0
        self.hits = 0
        self.other_roots: bool | None = None
        # Connections in the slice whose node type is not (yet): `nodes` when it enters.
        self.waiting: dict[str, list[tuple[str, str]]] = defaultdict(list)
        # Types a ranked hit belongs to (not those entering only on the way or as fillers).
        self.hit_types: dict[str, None] = {}  # insertion-ordered: slices are deterministic
        self.hit_counts: dict[str, int] = defaultdict(int)
        self.linked: dict[str, None] = {}  # insertion-ordered: slices are deterministic
        self.line_costs: dict[int, int] = {}  # shared by copies (see `line_cost`)

    def copy(self) -> _State:
        """An independent copy (cheaper than replaying the hits into a fresh state)."""
        twin = object.__new__(_State)
        twin.__dict__.update(self.__dict__)
        twin.listed = set(self.listed)
        twin.fields = {t: dict(names) for t, names in self.fields.items()}
        twin.implements = defaultdict(list, {t: list(v) for t, v in self.implements.items()})
        twin.implemented_by = defaultdict(
            list, {t: list(v) for t, v in self.implemented_by.items()}
        )
        twin.unions = {t: list(v) for t, v in self.unions.items()}
        twin.inputs = dict(self.inputs)
        twin.enums = list(self.enums)
        twin.full_enums = set(self.full_enums)
        twin.scalars = list(self.scalars)
        twin.lines = dict(self.lines)
        twin.waiting = defaultdict(list, {t: list(v) for t, v in self.waiting.items()})
        twin.hit_types = dict(self.hit_types)
        twin.hit_counts = defaultdict(int, self.hit_counts)
        twin.linked = dict(self.linked)
        return twin

    # --- accounting -----------------------------------------------------------------------

    def _set_line(self, key: tuple[str, ...], text: str) -> None:
        old = self.lines.get(key)
        if old == text:
            return
        if old is not None:
            self.total -= self.s.cost(old)
        self.lines[key] = text
        self.total += self.s.cost(text)

    def _header(self, type_name: str) -> None:
        kind = self.s._kinds[type_name]
        keyword = "interface" if kind == "interface" else "type"
        interfaces = self.implements.get(type_name)
        implements = f" implements {' & '.join(interfaces)}" if interfaces else ""
        self._set_line(("h", type_name), f"{keyword} {type_name}{implements} {{\n}}\n\n")

    # --- growing --------------------------------------------------------------------------

    def reachable(self, position: int) -> bool:
        owner = self.s.corpus.entries[position].owner
        return self.routes.reaches(owner)

    def cheap(self, position: int) -> bool:
        """Whether the hit would add only its own field line: its owner and return type
        are in the slice and it shows no argument of a type not yet in."""
        owner, name, named, required = self.s.line_needs[position]
        fields = self.fields.get(owner)
        if fields is None or name in fields:
            return False
        if not (
            named in BUILTIN_SCALARS
            or named in self.fields
            or named in self.scalars
            or named in self.enums
            or named in self.unions
        ):
            return False
        return all(t in self.inputs or t in self.enums or t in self.scalars for t in required)

    def near(self, position: int) -> str | None:
        """For a hit one step beyond a line (see `fill_leaf_types`, `fill_members`): "" when
        its owner is in and it returns an enum or scalar not yet in, the abstract type in the
        slice through which its owner is reached when the owner is a union member or an
        interface implementation not yet in (and it returns a leaf or a type in the slice);
        None otherwise."""
        params = self.s.params
        entry = self.s.corpus.entries[position]
        owner = entry.owner
        fields = self.fields.get(owner)
        if fields is None:
            if params.fill_members == "off":
                return None
            unions = self.s.member_of.get(owner, ())
            if not unions and params.fill_members == "unions":
                return None
        facts = self.s.facts[owner][entry.field]
        if facts.required:
            return None
        named = facts.named
        if fields is not None:
            if entry.field in fields:
                return None
            if params.fill_leaf_types and facts.leaf:
                return ""
            if params.fill_connections and self.s.is_connection(named):
                nodes = self.s.facts[named].get("nodes")
                if nodes is not None and nodes.named in self.fields:
                    return ""
            return None
        if not (facts.leaf or named in self.fields or named in self.unions):
            return None
        cap = params.fill_member_cap
        for union in unions:
            if union in self.unions and (not cap or len(self.s.possible[union]) <= cap):
                return union
        if params.fill_members == "unions":
            return None
        for interface in self.s.interfaces_of.get(owner, ()):
            if (
                interface in self.fields
                and self.s._kinds.get(interface) == "interface"
                and (not cap or len(self.s.possible[interface]) <= cap)
            ):
                return interface
        return None

    def add_member_hit(self, position: int, abstract: str) -> None:
        """A hit on a type reached through `abstract`, already in the slice."""
        entry = self.s.corpus.entries[position]
        self.hits += 1
        self.hit_counts[entry.owner] += 1
        if self.s.params.fill_members in ("bare", "one"):
            # The member enters with the hit's field alone (no filler leaves), or with its
            # best leaf by the question's scores too (`one`).
            new = entry.owner not in self.fields
            self.add_field(entry.owner, entry.field)
            self.link(abstract, entry.owner)
            if new and self.s.params.fill_members == "one":
                facts = self.s.facts[entry.owner]
                leaves = [f for f in facts.values() if f.free and f.leaf]
                if leaves:
                    best = max(leaves, key=lambda f: (self.values[f.position], -f.position))
                    self.add_field(entry.owner, self.s.corpus.entries[best.position].field)
        else:
            self.link(abstract, entry.owner)
            self.add_field(entry.owner, entry.field)
        self._hit_type(entry.owner)

    def costs_line(self, owner: str, name: str) -> bool:
        """Whether adding the field costs only its line: its return type is in the slice and
        nothing implements its owner in the slice (which would copy it)."""
        named = self.s.facts[owner][name].named
        return named in self.fields and not self.implemented_by.get(owner)

    def line_cost_of(self, owner: str, name: str) -> int:
        facts = self.s.facts[owner][name]
        shown = sorted(self.shown_arguments(owner, name, facts), key=facts.arguments.index)
        return self.s.cost(self.s.field_line(owner, name, tuple(shown)))

    def line_cost(self, position: int) -> int:
        """What a cheap hit's own field line costs (the same all through one slice: the
        arguments it shows depend on the question's words only)."""
        cost = self.line_costs.get(position)
        if cost is None:
            owner, name = self.s.names[position]
            if self.s.facts[owner][name].arguments:
                cost = self.line_costs[position] = self.line_cost_of(owner, name)
            else:  # the same line in every slice, counted once for the schema
                cost = self.s.bare_line_costs[position]
        return cost

    def apply(self, step: _Step) -> None:
        """Replay one step of a slice's growth (see `Slicer._build`)."""
        if step[0] == "hit":
            self.add_hit(step[1])
        elif step[0] == "line":
            self.add_line(step[1])
        elif step[0] == "member":
            self.add_member_hit(step[1], step[2])
        else:
            self.connect(step[1], step[2], step[3])

    def add_line(self, position: int) -> bool:
        """Add a cheap hit as its line alone (no ways in, links or copies into
        implementations); False when it would cost more than its line."""
        entry = self.s.corpus.entries[position]
        if self.implemented_by.get(entry.owner):
            return False
        self.hits += 1
        self.hit_counts[entry.owner] += 1
        self.add_field(entry.owner, entry.field)
        return True

    def add_hit(self, position: int) -> bool:
        """Add a ranked field with its path from the root; False when no path reaches it."""
        if not self.reachable(position) or position in self.s.plumbing:
            return False
        entries = self.s.corpus.entries
        owner = entries[position].owner
        self.hits += 1
        params = self.s.params
        top = self.hits <= params.routed_hits and owner not in self.s.graph.roots
        self.hit_counts[owner] += 1
        subject = self.hit_counts[owner] == params.subject_hits and owner not in self.s.graph.roots
        if (owner in self.many or subject) and owner not in self.listed:
            # Named in the plural (or the subject of many hits): the question may want many
            # of them, so the slice also gets the best way in through a list or connection
            # (not only a lookup by identifier).
            self.listed.add(owner)
            way = self.list_way_in(owner)
            if way is not None:
                self.add_path([*way, position])
        if params.reuse_reached_types and owner in self.fields and not top:
            # The slice already reaches this type: the field needs no path of its own.
            self.add_field(owner, entries[position].field)
            self._hit_type(owner)
            self._top_arguments(owner, entries[position].field)
            return True
        if owner in self.s.graph.roots or (top and owner in self.fields):
            chain: list[int] = []
        elif params.shared_routes or top:
            best = self.best_way_in(owner)
            chain = best if best is not None else self.s.graph.chain_to(owner, self.routes)
        else:
            chain = self.s.graph.chain_to(owner, self.routes)
        if not self.add_path([*chain, position]):
            return False
        if top:
            # A top hit's type gets more than one way in: the same type is often reached
            # from several parents (a branch's target and a pull request's merge commit),
            # and the question may mean either.
            extra = [w for w, new in self.ways_in(owner) if new <= params.route_new_fields]
            for way in extra[: params.routes - 1]:
                self.add_path([*way, position])
        self._hit_type(owner)
        self._top_arguments(owner, entries[position].field)
        return True

    def _top_arguments(self, owner: str, field: str) -> None:
        if self.hits <= self.s.params.top_arguments:
            # One of the first hits: every argument it takes (filters, ordering) may matter.
            self.add_field(owner, field, self.s.facts[owner][field].arguments)

    def connectives(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """Fields not yet shown, without required arguments, from a type in the slice to an
        object type with a ranked hit (directly or through a connection's nodes; with
        `abstract_connectives`, also a connection of a union or interface such a type belongs
        to): how the question's types relate, best score first. Each comes with the hit types
        it reaches through a union or interface (to declare as fragment targets)."""
        params = self.s.params
        mode = params.connectives
        roots = self.s.graph.roots  # a field back to a root (`relay: Query!`) relates nothing
        wanted = [
            t for t, n in self.hit_counts.items() if n >= params.connective_hits and t not in roots
        ]
        found: dict[tuple[str, str], list[str]] = {}
        sources = params.connective_sources
        counts = self.hit_counts
        for target in wanted:
            for source, name, many in self.s.leading_to.get(target, ()):
                shown = self.fields.get(source)
                if (
                    (mode != "single" or not many)
                    and shown is not None
                    and name not in shown
                    and (not sources or counts.get(source, 0) >= sources)
                ):
                    found.setdefault((source, name), [])
            if not params.abstract_connectives:
                continue
            over = (*self.s.member_of.get(target, ()), *self.s.interfaces_of.get(target, ()))
            for abstract in over:
                if target not in self.s.possible.get(abstract, ()):
                    continue
                for source, name, many in self.s.leading_to.get(abstract, ()):
                    if many and source in self.fields and name not in self.fields[source]:
                        found.setdefault((source, name), []).append(target)
        values = self.values
        position = self.s.position
        ordered = sorted(found, key=lambda item: (-values[position[item]], position[item]))
        return [(source, name, tuple(found[source, name])) for source, name in ordered]

    def connect(self, source: str, name: str, members: Sequence[str]) -> None:
        """Add a connective field; one into a union or interface shows the way to `members`."""
        self.add_field(source, name)
        if not members:
            return
        named = self.s.facts[source][name].named
        abstract = named
        if self.s.is_connection(named) and "nodes" in self.s.facts[named]:
            abstract = self.s.facts[named]["nodes"].named
            self.add_field(named, "nodes")
        for member in members:
            self.link(abstract, member)

    def _hit_type(self, owner: str) -> None:
        """A ranked hit's type may be reached through a union or interface from a type
        already in the slice (`Ref.target: GitObject` to `Commit`): show those fields."""
        wanted = self.s.params.subject_leaves
        if (
            wanted
            and self.hit_counts[owner] == self.s.params.subject_hits
            and owner not in self.s.graph.roots
        ):
            # A small type that is the subject of several hits shows every leaf.
            shown = self.fields[owner]
            leaves = [n for n, f in self.s.facts[owner].items() if f.free and f.leaf]
            if len(leaves) <= wanted:
                new = [n for n in leaves if n not in shown]
                cost = sum(self.s.cost(self.s.field_line(owner, n, ())) for n in new)
                if cost <= self.budget * self.s.params.subject_leaves_share:
                    for name in new:
                        self.add_field(owner, name)
        links = self.s.params.hit_links
        if (
            links != "off"
            and self.hit_counts[owner] == self.s.params.link_hits
            and owner not in self.s.graph.roots
        ):
            # Fields between two types with hits (`Deployment.ref` once Deployment and Ref
            # both have hits) show how the question's types relate.
            self.linked[owner] = None
            pairs: list[tuple[str, str]] = []
            between = self.s.leading_between.get(owner, {})
            for other in list(self.linked):
                if other == owner:  # into it, from a linked type (itself included)
                    pairs += [
                        (source, name)
                        for source, name, many in self.s.leading_to.get(owner, ())
                        if (links == "all" or not many) and source in self.linked
                    ]
                else:  # out of it, into another linked type
                    pairs += [
                        (owner, name)
                        for name, many in between.get(other, ())
                        if links == "all" or not many
                    ]
            for source, name in pairs:
                if name not in self.fields[source]:
                    self.add_field(source, name)
        if owner in self.hit_types:
            return
        self.hit_types[owner] = None
        if not self.s.params.abstract_links:
            return
        for abstract in (*self.s.member_of.get(owner, ()), *self.s.interfaces_of.get(owner, ())):
            if owner not in self.s.possible.get(abstract, ()):
                continue
            for source, name in self.s.abstract_fields.get(abstract, ()):
                if source in self.fields and name not in self.fields[source]:
                    self.add_field(source, name)
                    self.link(abstract, owner)

    def _abstract_ways_out(self, type_name: str) -> None:
        """A type entering the slice shows its fields into a union or interface through
        which a ranked hit's type in the slice is reached."""
        for name, abstract in self.s.abstract_out.get(type_name, ()):
            possible = self.s.possible.get(abstract, frozenset())
            members = [m for m in self.hit_types if m in possible]
            if members and name not in self.fields[type_name]:
                self.add_field(type_name, name)
                for member in members:
                    self.link(abstract, member)

    def ways_in(self, owner: str) -> list[tuple[list[int], int]]:
        """Ways from the query root into `owner` not yet all in the slice, with the number of
        fields each would add: fewest new fields first (a hop into a union or interface
        member counts as the graph's abstract penalty more), then cheapest in the schema."""
        scored = []
        for number, (way, steps, penalty) in enumerate(self.s.static_ways(owner)):
            new = self.missing(steps)
            if new:
                scored.append((new + penalty, number, way, new))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [(way, new) for _, _, way, new in scored]

    def missing(self, steps: list[tuple[str, str]]) -> int:
        """How many of a way's (owner, field) steps the slice does not show yet."""
        fields = self.fields
        new = 0
        for step_owner, step_field in steps:
            shown = fields.get(step_owner)
            if shown is None or step_field not in shown:
                new += 1
        return new

    def list_way_in(self, owner: str) -> list[int] | None:
        """The first of `ways_in(owner)` through a list or connection, unless one adding more
        than `plural_ways` fields comes first (then None); scored lazily as `best_way_in`."""
        limit = self.s.params.plural_ways
        best: tuple[float, int] | None = None
        found: tuple[list[int], bool] | None = None
        for penalty, number, way, steps, many in self.s.ways_by_penalty(owner):
            if not many and len(steps) <= limit:
                continue  # it neither goes through a list nor could add too many fields
            if best is not None:
                if 1 + penalty > best[0]:
                    break
                if (1 + penalty, number) > best:
                    continue
            new = self.missing(steps)
            if new and (many or new > limit) and (best is None or (new + penalty, number) < best):
                best, found = (new + penalty, number), (way, new > limit)
        return None if found is None or found[1] else found[0]

    def best_way_in(self, owner: str) -> list[int] | None:
        """The first of `ways_in(owner)` (None if there is none), without scoring every way:
        ways are tried by penalty, and one that could not beat the best so far even adding a
        single field is skipped (a type can have hundreds of ways in)."""
        best: tuple[float, int] | None = None
        found = None
        for penalty, number, way, steps, _ in self.s.ways_by_penalty(owner):
            if best is not None:
                if 1 + penalty > best[0]:
                    break  # every way after this one has at least this penalty
                if (1 + penalty, number) > best:
                    continue
            new = self.missing(steps)
            if new and (best is None or (new + penalty, number) < best):
                best, found = (new + penalty, number), way
        return found

    def add_path(self, steps: list[int]) -> bool:
        entries = self.s.corpus.entries
        if entries[steps[0]].owner != self.s.corpus.query_root:
            # Questions read unless a write ranks among the first hits: a mutation's input
            # objects and payloads are costly and useless to a reader.
            if self.other_roots is None:
                self.other_roots = self.hits <= self.s.params.other_roots_within
            if not self.other_roots:
                return False
        for number, step in enumerate(steps):
            entry = entries[step]
            self.add_field(entry.owner, entry.field)
            if number + 1 < len(steps):
                arrival = entries[steps[number + 1]].owner
                if arrival != entry.named_return_type:
                    self.link(entry.named_return_type, arrival)
        return True

    def shown_arguments(self, owner: str, name: str, facts: _Field) -> list[str]:
        """Required arguments always; a list's page size; the ones the question names."""
        mode = self.s.params.arguments
        if mode == "all":
            return list(facts.arguments)
        shown = list(facts.required)
        if mode == "required" or len(shown) == len(facts.arguments):
            return shown
        params = self.s.params
        if (
            params.optional_lookups
            and not facts.many
            and not facts.required
            and (params.lookup_leaves or not facts.leaf)
        ):
            # A field returning one object whose arguments are all optional: they choose the
            # object. A leaf's optional arguments only shape its value (`avatarUrl(size:)`):
            # they follow the question's words like a list's (`lookup_leaves`).
            return list(facts.arguments)
        for argument in facts.arguments:
            if argument in shown:
                continue
            page_size = self.s.params.page_size and facts.many and argument == PAGE_SIZE_ARGUMENT
            named = bool(self.words) and not self.words.isdisjoint(
                self.s.argument_words(owner, name, argument)
            )
            if page_size or named:
                shown.append(argument)
        return shown

    def add_field(self, owner: str, name: str, extra: Sequence[str] = ()) -> None:
        fields = self.fields.get(owner)
        if fields is None:
            fields = self.fields[owner] = {}
            self._header(owner)
            self._entered(owner)
        facts = self.s.facts[owner][name]
        shown = fields.get(name)
        new = shown is None
        if shown is None:
            arguments = self.shown_arguments(owner, name, facts)
            arguments += [a for a in extra if a not in arguments]
            description = facts.description and _description(
                facts.description, self.s.params.descriptions
            )
            if description:
                self._set_line(("d", owner, name), f'{self.s.indent}"{description}"\n')
        else:
            arguments = [a for a in extra if a not in shown]
            if not arguments:
                return
            arguments += shown
        order = facts.arguments
        fields[name] = sorted(arguments, key=order.index)
        if not new:
            arguments = [a for a in arguments if a not in shown]  # type: ignore[operator]
        self._set_line(("f", owner, name), self.s.field_line(owner, name, tuple(fields[name])))
        for argument in arguments:
            number = order.index(argument)
            self.ensure_input(
                facts.argument_types[number], every=facts.defaults[number], capped=True
            )
        if new:
            self.ensure_output(facts.named)
            self._connection_extras(facts.named)
        for implementor in list(self.implemented_by.get(owner, ())):
            self._copy_field(owner, implementor, name)

    def _connection_extras(self, type_name: str) -> None:
        mode = self.s.params.connection_nodes
        if mode != "off" and self.s.is_connection(type_name):
            fields = self.s.facts[type_name]
            nodes = fields.get("nodes")
            if nodes is not None:
                if mode == "always" or nodes.named in self.fields:
                    self.add_field(type_name, "nodes")
                else:
                    self.waiting[nodes.named].append((type_name, "nodes"))
        fields = self.s.facts.get(type_name, {}) if self.s.params.edge_nodes else {}
        if "cursor" in fields and "node" in fields:
            # A Relay edge (`cursor`, `node`) shows its `node` once the node type is in.
            named = fields["node"].named
            if named in self.fields:
                self.add_field(type_name, "node")
            else:
                self.waiting[named].append((type_name, "node"))
        if not self.s.params.connection_extras or not self.s.is_connection(type_name):
            return
        fields = self.s.facts[type_name]
        for extra in ("totalCount", "pageInfo"):
            if extra in fields:
                self.add_field(type_name, extra)

    def _copy_field(self, interface: str, implementor: str, name: str) -> None:
        """An implementor carries the interface's field with at least its arguments."""
        self.add_field(implementor, name, self.fields[interface][name])
        wanted = self.s.facts[interface][name].named
        actual = self.s.facts[implementor][name].named
        if wanted != actual:
            self.link(wanted, actual)  # a covariant return type must stay a subtype

    def link(self, abstract: str, concrete: str) -> None:
        """`concrete` is reached through `abstract` (an inline fragment): make that valid."""
        kind = self.s._kinds[abstract]
        if kind == "union":
            self.ensure_output(abstract)
            if concrete not in self.unions[abstract]:
                self.unions[abstract].append(concrete)
                self._union_line(abstract)
                self.ensure_output(concrete)
        elif kind == "interface":
            self.add_implements(concrete, abstract)

    def _entered(self, type_name: str) -> None:
        """Keep the slice closed under subtyping: a type that is in the slice with a union or
        interface it belongs to is declared so, so any fragment valid in the full schema
        between two types of the slice is valid in the slice too; connections waiting for
        this type as their node type show their `nodes`."""
        for owner, name in self.waiting.pop(type_name, ()):
            self.add_field(owner, name)
        if self.s.params.abstract_links and self.hit_types:
            self._abstract_ways_out(type_name)
        if self.s.params.context_roots and type_name in self.s.context_roots:
            # The caller's own entry point to a type in the slice (`viewer: User!`) costs a
            # line and is how a question without an identifier reaches it.
            query_root = self.s.corpus.query_root
            for name in self.s.context_roots[type_name]:
                if query_root and name not in self.fields.get(query_root, {}):
                    self.add_field(query_root, name)
        if not self.s.params.closed_subtypes:
            return
        for union in self.s.member_of.get(type_name, ()):
            if union in self.unions and type_name not in self.unions[union]:
                self.unions[union].append(type_name)
                self._union_line(union)
        for interface in self.s.interfaces_of.get(type_name, ()):
            if self.fields.get(interface):
                self.add_implements(type_name, interface)
        for implementor in self.s.implementors.get(type_name, ()):
            if implementor in self.fields and self.fields[type_name]:
                self.add_implements(implementor, type_name)

    def add_implements(self, type_name: str, interface: str) -> None:
        if interface in self.implements[type_name]:
            return
        self.ensure_output(interface)
        self.ensure_output(type_name)
        if interface in self.implements[type_name]:
            return
        self.implements[type_name].append(interface)
        self.implemented_by[interface].append(type_name)
        self._header(type_name)
        for name in list(self.fields[interface]):
            self._copy_field(interface, type_name, name)
        for inherited in list(self.implements.get(interface, ())):
            self.add_implements(type_name, inherited)
        for implementor in list(self.implemented_by.get(type_name, ())):
            self.add_implements(implementor, interface)

    def ensure_output(self, type_name: str) -> None:
        kind = self.s._kinds.get(type_name, "other")
        if kind in ("object", "interface"):
            if type_name not in self.fields:
                self.fields[type_name] = {}
                self._header(type_name)
                for name in self._fillers(type_name):
                    self.add_field(type_name, name)
                self._entered(type_name)
        elif kind == "union":
            if type_name not in self.unions:
                self.unions[type_name] = []
                members = self.s.union_members(type_name)
                values = self.values
                member = max(
                    members, key=lambda item: max(map(values.__getitem__, item[1]), default=0.0)
                )[0]
                self.unions[type_name].append(member)
                self._union_line(type_name)
                self.ensure_output(member)
                if self.s.params.closed_subtypes:
                    others = [name for name, _ in members if name in self.fields]
                    for other in others:
                        if other not in self.unions[type_name]:
                            self.unions[type_name].append(other)
                    self._union_line(type_name)
        else:
            self._leaf(type_name, kind)

    def _fillers(self, type_name: str) -> list[str]:
        """The fields a type shows when it enters the slice: its best leaves (at least one).

        Leaves without required arguments first, best by the question's scores, then in
        declaration order; `leaves` sets how many a new type brings.
        """
        values = self.values
        facts = self.s.facts[type_name]
        leaves = self.s.free_leaves(type_name)
        if leaves:
            ranked = sorted(leaves, key=lambda item: -values[item[1]])
            floor = self.floor
            scored = [name for name, position in ranked if values[position] >= floor]
            if not self.s.params.id_fillers:
                # `ID` is opaque by the spec: no answer reads it, so it is no best leaf.
                scored = [name for name in scored if facts[name].named != "ID"]
            wanted = self.s.params.leaves
            if self.s.params.interface_leaves >= 0 and self.s._kinds[type_name] == "interface":
                # Every implementation in the slice repeats an interface's fields.
                wanted = self.s.params.interface_leaves
            elif self.s.params.connection_leaves >= 0 and self.s.is_connection(type_name):
                wanted = self.s.params.connection_leaves
            chosen = scored[:wanted]
            if self.s.params.identifiers:
                chosen += [n for n in self.s.identifiers.get(type_name, ()) if n not in chosen]
            chosen += [n for n in self.s.labels.get(type_name, ()) if n not in chosen]
            chosen += [n for n in self.s.shared_leaves.get(type_name, ()) if n not in chosen]
            if (
                not chosen
                and wanted == 0
                and self.s.params.connection_nodes == "always"
                and "nodes" in facts
                and self.s.is_connection(type_name)
            ):
                # A connection's `nodes` is its field (`_connection_extras` adds it).
                return []
            return chosen or [ranked[0][0]]
        free = [name for name, f in facts.items() if f.free]
        return free[:1] or list(facts)[:1]

    def _union_line(self, union: str) -> None:
        self._set_line(("u", union), f"union {union} = {' | '.join(self.unions[union])}\n\n")

    def _leaf(self, type_name: str, kind: str, argument: bool = False) -> None:
        if type_name in BUILTIN_SCALARS:
            return
        if kind == "scalar" and type_name not in self.scalars:
            self.scalars.append(type_name)
            self._set_line(("s", type_name), f"scalar {type_name}\n\n")
        elif kind == "enum" and (type_name not in self.enums or argument):
            if type_name not in self.enums:
                self.enums.append(type_name)
            values = list(self.s.enum_values[type_name])
            if self.s.params.enum_values == "arguments" and not argument:
                # An output enum needs one value to be valid; show those the question names.
                # Arguments take every value (operations and default values use them).
                named = [v for v in values if not self.words.isdisjoint(self.s.value_words(v))]
                values = named or values[:1]
            body = "".join(f"{self.s.indent}{v}\n" for v in values)
            self._set_line(("e", type_name), f"enum {type_name} {{\n{body}}}\n\n")

    def ensure_input(self, type_name: str, every: bool = False, capped: bool = False) -> None:
        """An argument's type; input objects keep their required fields and those the
        question names, or `every` field when a default value may name any of them. An enum
        that a field's argument without a default takes directly (`capped`) and that has
        more than `argument_enum_cap` values shows those the question names (or one), as an
        output enum does: an operation can use only those, each a value of the full enum."""
        kind = self.s._kinds.get(type_name, "other")
        if kind != "input":
            if type_name not in self.full_enums:
                cap = self.s.params.argument_enum_cap
                if (
                    capped
                    and cap
                    and not every
                    and kind == "enum"
                    and len(self.s.enum_values[type_name]) > cap
                ):
                    self._leaf(type_name, kind)
                    return
                if kind == "enum":
                    self.full_enums.add(type_name)
                self._leaf(type_name, kind, argument=True)
            return
        fields = self.s.input_fields(type_name)
        had = self.inputs.get(type_name)
        if had is not None and (not every or len(had) == len(fields)):
            return
        chosen = [
            name
            for name, value in fields.items()
            if every
            or self.s.params.input_fields == "all"
            or value.required
            or not self.words.isdisjoint(self.s.value_words(name))
            or (had is not None and name in had)
        ] or list(fields)[:1]
        self.inputs[type_name] = chosen
        body = "".join(f"{self.s.indent}{fields[n].text}\n" for n in chosen)
        self._set_line(("i", type_name), f"input {type_name} {{\n{body}}}\n\n")
        for name in chosen:
            if had is None or name not in had:
                self.ensure_input(fields[name].named_type, every=fields[name].has_default)

    # --- output ---------------------------------------------------------------------------

    def result(self, hits: int) -> SchemaSlice:
        from schemanav.tokens import count_tokens

        query_root = self.s.corpus.query_root
        if query_root and query_root not in self.fields:
            self.ensure_output(query_root)  # a schema needs its query type
        sdl = self.render()
        fields = [f"{t}.{f}" for t, names in self.fields.items() for f in names]
        arguments = [
            f"{t}.{f}({a}:)"
            for t, names in self.fields.items()
            for f, args in names.items()
            for a in args
        ]
        types = [*self.fields, *self.unions, *self.inputs, *self.enums, *self.scalars]
        return SchemaSlice(
            sdl, count_tokens(sdl), tuple(fields), tuple(arguments), tuple(types), hits
        )

    def render(self) -> str:
        corpus = self.s.corpus
        roots = [
            (operation, root)
            for operation, root in (
                ("query", corpus.query_root),
                ("mutation", corpus.mutation_root),
                ("subscription", corpus.subscription_root),
            )
            if root and root in self.fields
        ]
        included = [root for _, root in roots]
        defined = [*self.fields, *self.unions, *self.inputs, *self.enums, *self.scalars]
        explicit = any(
            root != DEFAULT_ROOT_NAMES[("query", "mutation", "subscription").index(operation)]
            for operation, root in roots
        ) or any(name in DEFAULT_ROOT_NAMES and name not in included for name in defined)
        parts: list[str] = []
        if explicit:
            body = "".join(f"{self.s.indent}{operation}: {root}\n" for operation, root in roots)
            parts.append(f"schema {{\n{body}}}\n\n")
        ordered = included + [t for t in self.fields if t not in included]
        described = self.s.params.descriptions != "none"
        lines = self.lines
        for type_name in ordered:
            opening, closing = lines[("h", type_name)].split("\n", 1)
            place = self.s.field_order(type_name)
            names = sorted(self.fields[type_name], key=place.__getitem__)
            if described:
                field_lines = [
                    lines.get(("d", type_name, n), "") + lines[("f", type_name, n)] for n in names
                ]
            else:
                field_lines = [lines[("f", type_name, name)] for name in names]
            parts.append(f"{opening}\n{''.join(field_lines)}{closing}")
        tails: dict[str, list[str]] = {"u": [], "i": [], "e": [], "s": []}
        for key, text in self.lines.items():
            tail = tails.get(key[0])
            if tail is not None:
                tail.append(text)
        for tail in tails.values():
            parts.extend(tail)
        return "".join(parts).rstrip("\n") + "\n"
