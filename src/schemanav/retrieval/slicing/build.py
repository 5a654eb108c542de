"""The growth of one slice within a token budget, from nothing or from the slice of the rung
below (`ladder`): ranked hits while they fit the main budget, then connectives, then (from 2,000
tokens) the leaves of the slice's types within a small share and the answer's tree within
another, then the fill past the frontier, then the completion of the slice's types with what
budget is left (those steps: `completion`), then trimmed until the SDL fits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from schemanav.question.vocabulary import GLOBAL_ID_MARK
from schemanav.retrieval.slicing.completion import Completion
from schemanav.retrieval.slicing.growth import GrowingState
from schemanav.retrieval.slicing.ladder import Rung, counted_hits, finished
from schemanav.retrieval.slicing.params import (
    EARLY_COMPLETION_FROM,
    EMPTY_SLICE,
    ENTRY_ARGUMENTS_SHARE,
    ENTRY_ARGUMENTS_TOTAL,
    FILL_MEMBER_SHARE,
    LIST_ARGUMENTS_TOTAL,
    OPERATION_ROOM_FROM,
    RESERVE,
    SNAPSHOT_FROM,
    WRITE_RESERVE,
    WRITE_RESERVE_UNTIL,
    SchemaSlice,
)
from schemanav.retrieval.slicing.state import Step

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from schemanav.question.vocabulary import SliceReading
    from schemanav.retrieval.slicing.answer import AnswerTrees
    from schemanav.retrieval.slicing.arguments import ArgumentTables
    from schemanav.retrieval.slicing.tables import SchemaTables


_FILL_STRETCH = 64
"""The fill reads the ranking this many hits at a time, each stretch first cut to the hits
whose bare line fits what is left (the slice only grows, so none cut would have fitted)."""


class Growth(Completion):
    """One slice as the steps that grew it from its start (empty, or the slice of the rung
    below); replaying them on the start rebuilds it exactly, so a slice over its budget is
    cut back by dropping steps from the end, never below the start."""

    def __init__(
        self,
        slicer: SchemaTables,
        arguments: ArgumentTables,
        trees: AnswerTrees,
        values: list[float],
        budget: int,
        reading: SliceReading,
        below: Rung | None = None,
    ) -> None:
        self.s = slicer
        self.arguments = arguments  # what the schema's lists' arguments say (`Slicer.arguments`)
        self.trees = trees  # the types under each root field (`Slicer.answer_trees`)
        self.values = values
        self.budget = budget
        self.routes = slicer.graph.static
        # The question as the slicer reads it (`SliceReading`): its words (with the time and
        # quoted-value marks); the types it asks a set of, every type it names but those it
        # names as one object (once, beside a literal identifier), and those. A request to
        # change something opens the way to its write, wherever it ranks.
        self.words = reading.words
        self.many, self.named, self.one = reading.many, reading.named, reading.one
        self.writes = reading.writes
        self.write_first = False  # set with the main hits (`_write_first`)
        self.lists = reading.lists
        self.steps: list[Step] = []
        # The state the growth starts from: the rung below's slice, read with this rung's
        # scores and budget (its steps replayed on it would make it again), or an empty one.
        if below is not None:
            start = below.state.copy()
            start.values, start.budget = values, budget
        else:
            start = GrowingState(
                slicer, values, self.routes, self.words, self.many, budget, self.writes,
                follows=reading.streams,
            )
        self.start, self.below, self.seeded = start, below, below is not None
        # The hits the rungs below took: not ranked again (a hit counts once).
        self.taken_below = below.taken if below is not None else frozenset()
        # A copy of the state as it was after the first n steps (the start, then where the
        # fill begins): a slice trimmed to fit replays only the steps after it.
        self.kept_at: tuple[int, GrowingState] = (0, start)

    def replayed(self, upto: int | None = None) -> GrowingState:
        """A slice state holding the first `upto` steps (all by default)."""
        upto = len(self.steps) if upto is None else upto
        start, kept = self.kept_at if self.kept_at[0] <= upto else (0, self.start)
        fresh = kept.copy()
        for step in self.steps[start:upto]:
            fresh.apply(step)
        return fresh

    def add_main_hits(self, order: list[int]) -> tuple[GrowingState | None, int, int]:
        """Ranked hits, each with its way in, while the running estimate fits the main
        budget (`RESERVE` keeps a share for connectives and the fill): the state (None when
        the hit that did not fit came before any copy was kept), how many hits of `order`
        fitted, and the corpus position of the first that did not (-1 if all fitted). The
        hits a rung below took are passed over as in (a hit counts once: `SUBJECT_HITS`);
        the slice they are in counts against the main budget like this rung's hits.

        The estimate sums each line's tokens, as exact as the final count of the rendered
        SDL, which `trimmed` checks."""
        state: GrowingState | None = self.replayed()
        assert state is not None
        fitted, failed = 0, -1
        main_budget = self.budget * (1.0 - RESERVE)
        near = main_budget * SNAPSHOT_FROM
        below = self.taken_below
        self.write_first = self._write_first(order)
        if self.write_first:
            # A request whose write ranks first wants the write's answer (its payload, what
            # it changes) more than the reads ranked after it: more room for the completion.
            main_budget = self.budget * (1.0 - WRITE_RESERVE)
            near = main_budget * SNAPSHOT_FROM
        for number, position in enumerate(order):
            # Near the budget, keep a copy to fall back on if this hit does not fit.
            if position in below or state.shows_twin(position):
                fitted = number + 1  # passed over, as if in: the fill starts after it
                continue
            snapshot = state.copy() if state.total >= near else None
            state.add_hit(position)
            if state.total > main_budget:
                return snapshot, fitted, position
            self.steps.append(("hit", position))
            fitted = number + 1
        return state, fitted, failed

    def _write_first(self, order: list[int]) -> bool:
        """Whether the question asks for a write, the ranking's first hit is one and the
        budget is at most `WRITE_RESERVE_UNTIL` (`WRITE_RESERVE`)."""
        if not (self.writes and order and self.budget <= WRITE_RESERVE_UNTIL):
            return False
        return self.s.names[order[0]][0] in self.s.write_owners

    def add_steps(self, steps: Sequence[Step]) -> GrowingState:
        """Another growth's steps from this one's start, in their order, each while the slice
        fits; a hit already in is passed over."""
        state, names = self.replayed(), self.s.names
        for step in steps:
            if step[0] == "hit" and names[step[1]][1] in state.fields.get(names[step[1]][0], {}):
                continue
            state = self.tried(state, step)
        return state

    def add_connectives(self, state: GrowingState) -> GrowingState:
        """Fields between types with hits that cost only their line, while they fit (see
        `GrowingState.connectives`): spent from the reserve, before the fill, as the way
        between two types the question names is worth more than a further leaf. A
        connection into a type the question names (`Project.pipelines` once a pipeline is
        in) goes in too, with its connection's `nodes`, if it fits: "the jobs of a pipeline
        of project p" reads them as a set of that object's."""
        named = self.named
        roots = self.s.root_like  # a list from the root is a way in, not a relation
        for owner, name in state.connectives():
            if state.costs_line(owner, name):
                if state.total + state.line_cost_of(owner, name) <= self.budget:
                    state.add_field(owner, name)
                    self.steps.append(("link", owner, name))
            elif owner not in roots and self.s.connection_nodes(owner, name) in named:
                state = self.tried(state, ("link", owner, name))
        return state

    def add_set_ways(self, state: GrowingState) -> GrowingState:
        """A type the question names in the plural asks for a set of its objects: when the
        slice shows no list or connection into it, the best such field from a type in the
        slice goes in (with its connection's `nodes`, and the type itself if it was not in),
        if it fits; a lookup alone cannot answer "which …", and "issues of the projects I
        contribute to" needs `Project.issues` though no hit on an issue fitted."""
        position = self.s.position
        for target in sorted(state.many):
            leading = self.s.leading_to.get(target, ())
            if any(many and name in state.fields.get(source, {}) for source, name, many in leading):
                continue  # a way to the set is in already
            ways = [
                (source, name) for source, name, many in leading if many and source in state.fields
            ]
            if not ways and not any(many for _, _, many in leading):
                # No list returns the set: a list whose arguments name it selects it.
                described = self.arguments.described_lists(target)
                ways = [way for way in described if way[0] in state.fields]
            if not ways:
                continue
            source, name = self.s.names[self._best([position[way] for way in ways])]
            state = self.tried(state, ("link", source, name))
        return state

    def add_filtering_lists(self, state: GrowingState) -> GrowingState:
        """A question that names a value a list filters by ("open code scanning errors":
        `vulnerabilityAlerts(states: [OPEN])`; "the last successful pipeline's artifacts":
        `jobs(statuses: [SUCCESS])`) asks which of the list's objects have it, a set: beside a
        lookup of one of them by required arguments (`vulnerabilityAlert(number:)`), the best
        such list from the lookup's owner into that type goes in too, if it fits; not for a
        type the question names beside an identifier ("is alert 3 open?"), nor beside a root
        lookup, the way in to the object the question starts from ("is the order open?")."""
        facts = self.s.facts
        roots, filters = self.s.root_like, self.arguments.names_a_filter
        for owner, shown in list(state.fields.items()):
            if owner in roots:
                continue
            for name in list(shown):
                field = facts[owner][name]
                target = field.named
                if field.many or not field.required or target in self.one:
                    continue
                leading = self.s.leading_between.get(owner, {}).get(target, ())
                lists = [n for n, many in leading if many and filters(owner, n, self.words)]
                state = self._link_best(state, owner, lists)
        return state

    def add_root_lookups(self, state: GrowingState) -> GrowingState:
        """From a rung of `EARLY_COMPLETION_FROM` tokens, a read's types with hits show the
        query root's lookup of their objects (`SchemaTables.root_lookups`, the best-ranked one)
        while it fits, however the slice reached them: an operation about an object asks for it
        by its key (`assetNodeOrError(assetKey:)`) rather than through another object's field
        (`Asset.definition`), the way in the slice took. A write returns what it changed."""
        root = self.s.corpus.query_root
        if self.budget < EARLY_COMPLETION_FROM or self.writes or root is None:
            return state
        lookups = self.s.root_lookups
        for type_name in list(state.hit_types):
            state = self._link_best(state, root, lookups.get(type_name, ()))
        return state

    def add_global_lookup(self, state: GrowingState) -> GrowingState:
        """A read that gives an object by its opaque global identifier ("test suite
        U3VpdGUtLS03Nzc=") shows the root's lookup of any object by it (Relay's `node(id:)`,
        `SchemaTables.global_lookup`) while it fits, when a type it names beside that literal
        is in the slice and may be what the lookup returns: the identifier is that lookup's
        argument, whatever way in the ranking took."""
        lookup = self.s.global_lookup
        if lookup is None or self.writes or GLOBAL_ID_MARK not in self.words:
            return state
        root, name = self.s.names[lookup]
        possible = self.s.possible.get(self.s.facts[root][name].named, frozenset())
        if any(t in state.fields and t in possible for t in self.one):
            state = self._link_best(state, root, (name,))
        return state

    def _link_best(self, state: GrowingState, owner: str, names: Sequence[str]) -> GrowingState:
        """The best-ranked of `names` (fields of `owner`) goes in while it fits, unless one of
        them is in the slice already: one way of a kind is enough."""
        shown = state.fields.get(owner, {})
        if not names or any(name in shown for name in names):
            return state
        best = self._best([self.s.position[owner, name] for name in names])
        return self.tried(state, ("link", owner, self.s.names[best][1]))

    def add_read_outcomes(self, state: GrowingState) -> GrowingState:
        """From a rung of `EARLY_COMPLETION_FROM` tokens, a read's unions of one object and its
        failures (`SchemaTables.result_unions`), and its unions of values (every member one of
        `SchemaTables.value_types`: `SearchResultPrice = PriceRange | SinglePrice`), show every
        member, each with its best-ranked field, while they fit, as a write's outcomes do: an
        operation reading such a union selects each failure it may return (`... on
        PipelineNotFoundError { message }`), or cannot tell "not found" from an empty answer,
        and each shape its value may take. At every rung, so does a union naming the kinds of
        one answer (`SchemaTables.kind_unions`), when all its members cost at most
        `FILL_MEMBER_SHARE` of the budget: a query reaches them only through it. Other unions
        of a read wait for the completion."""
        if self.writes:
            return state
        early = self.budget < EARLY_COMPLETION_FROM
        results, values = self.s.result_unions, self.s.value_types
        possible, kinds = self.s.corpus.possible_types, self.s.kind_unions
        for union in list(state.unions):
            if not early and (union in results or values.issuperset(possible.get(union, ()))):
                state = self._other_members_of(state, union)
            elif union in kinds:
                state = self._all_members_within(state, union, FILL_MEMBER_SHARE * self.budget)
        return state

    def _all_members_within(self, state: GrowingState, union: str, most: float) -> GrowingState:
        """`union`'s other members (`_other_members_of`) if together they add at most
        `most` tokens, else none: some kinds of an answer tell no more than the one shown."""
        snapshot, before, steps = state.copy(), state.total, len(self.steps)
        state = self._other_members_of(state, union)
        if state.total - before > most:
            del self.steps[steps:]
            return snapshot
        return state

    def add_paging(self, state: GrowingState) -> GrowingState:
        """Paging for the connections whose nodes the question asks a set of
        (`ClosedState.pageable`), each while it fits: spent from the reserve, before the
        fill, as a set read one page at a time needs its cursor."""
        for owner, name in state.pageable():
            state = self.tried(state, ("page", owner, name))
        return state

    def add_fragment_interfaces(self, state: GrowingState) -> GrowingState:
        """The fields the slice shows on objects read through an interface show on the
        interfaces no field returns that declare them (`ClosedState.fragment_reads`: from a
        rung of `EARLY_COMPLETION_FROM` those the question names, from `OPERATION_ROOM_FROM`
        all), each while it fits: the rung below's slice, which this one holds, had no room
        for them."""
        if self.budget < EARLY_COMPLETION_FROM:
            return state  # no field shows on them yet
        for owner, name in state.fragment_reads():
            state = self.tried(state, ("fragment", owner, name))
        return state

    def add_associations(self, state: GrowingState) -> GrowingState:
        """Each association object in the slice shows the field to what it holds
        (`SchemaTables.associations`: `ProductMedia.file: Media`), each while it fits: a
        product's pictures are their files, whatever the question calls them."""
        associations = self.s.associations
        for owner in list(state.fields):
            name = associations.get(owner)
            if name is not None and name not in state.fields[owner]:
                state = self.tried(state, ("link", owner, name))
        return state

    def add_value_arguments(self, state: GrowingState) -> GrowingState:
        """From a rung of `OPERATION_ROOM_FROM`, each leaf the slice shows shows the optional
        arguments it offers, each leaf's while they fit: a client's operation passes a value's
        size, format or unit (`imageUrl(height:, format:)`) whatever the question says."""
        if self.budget < OPERATION_ROOM_FROM:
            return state
        return self._complete_arguments(state, leaves=True)

    def add_entry_arguments(self, state: GrowingState) -> GrowingState:
        """Each entry field in the slice (`SchemaTables.entry_owners`: a root's field, or a
        field of a type grouping them) shows every argument it offers, while those cost at
        most `ENTRY_ARGUMENTS_SHARE` of the budget a field and `ENTRY_ARGUMENTS_TOTAL` in
        all: an operation states its filters, order and page on the field it enters by,
        though the question names few ("the orders paid by invoice, newest first"), and what
        a value answered at the root counts or computes (`productsCount(tags:,
        includeDrafts:)`)."""
        entries = self.s.entry_owners
        return self._offered_arguments(
            state,
            [owner for owner in state.fields if owner in entries],
            self.budget * ENTRY_ARGUMENTS_SHARE,
            self.budget * ENTRY_ARGUMENTS_TOTAL,
        )

    def add_list_arguments(self, state: GrowingState) -> GrowingState:
        """From a rung of `EARLY_COMPLETION_FROM` tokens, each list further in than the entry
        fields (one returning many objects or values, of a type that is no root's and groups
        none) shows the arguments it offers, in the order the slice holds the lists, while
        those cost at most `LIST_ARGUMENTS_TOTAL` of the budget in all: an operation pages,
        sorts and filters a list where it reads it (`team { teamMembers(sortBy:) }`), though
        the question names none of it."""
        if self.budget < EARLY_COMPLETION_FROM:
            return state
        entries, share = self.s.entry_owners, self.budget * LIST_ARGUMENTS_TOTAL
        return self._offered_arguments(
            state,
            [owner for owner in state.fields if owner not in entries],
            share,
            share,
            lists_only=True,
        )

    def _offered_arguments(
        self,
        state: GrowingState,
        owners: list[str],
        each: float,
        total: float,
        lists_only: bool = False,
    ) -> GrowingState:
        """The fields `owners` show (only their lists with `lists_only`) show the optional
        arguments they offer and do not show yet, field by field in the order the slice holds
        them, while those cost at most `each` tokens a field and `total` in all. A field whose
        line alone would grow past that is passed over untried: the types its arguments take
        only add."""
        facts, start = self.s.facts, state.total
        for owner in owners:
            own = facts[owner]
            for name, arguments in list(state.fields[owner].items()):
                field = own[name]
                missing = tuple(a for a in field.offered if a not in arguments)
                if not missing or (lists_only and not field.many):
                    continue
                most = min(each, start + total - state.total, self.budget - state.total)
                if self._line_growth(owner, name, arguments, missing) <= most:
                    state = self.tried(state, ("args", owner, name, missing), most)
        return state

    def _line_growth(
        self, owner: str, name: str, shown: Sequence[str], more: Sequence[str]
    ) -> int:
        """What a field's line grows by when it shows the arguments `more` beside `shown`."""
        tables = self.s
        order = tables.facts[owner][name].arguments.index
        before = tables.field_line(owner, name, tuple(sorted(shown, key=order)))
        after = tables.field_line(owner, name, tuple(sorted((*shown, *more), key=order)))
        return tables.cost(after) - tables.cost(before)

    def add_envelopes(self, state: GrowingState) -> GrowingState:
        """A type in the slice carrying one of the schema's envelope fields
        (`SchemaTables.envelopes`: the `error` beside every response's `data`) shows that
        field, and its type shows every field, each while it fits: every operation selects
        the envelope alike (its code, message and data), though the question says nothing
        of failure."""
        envelopes = self.s.envelopes
        if not envelopes:
            return state  # most schemas: no object field is carried by half their answers
        facts = self.s.facts
        for owner in list(state.fields):
            own = facts[owner]
            for name in envelopes:
                field = own.get(name)
                if field is None:
                    continue
                if name not in state.fields[owner]:
                    state = self.tried(state, ("link", owner, name))
                if field.named in state.fields:
                    state = self._whole(state, field.named, further=False)
        return state

    def add_shared_outcomes(self, state: GrowingState) -> GrowingState:
        """A union in the slice that may return one of the schema's shared outcomes
        (`SchemaTables.shared_outcomes`: the error every `…OrError` union returns) shows it
        whole, each field while it fits, with the leaves of the types those lead to: every
        operation reading such a union selects it the same way (one fragment, its message and
        its chain of causes), though the question says nothing of failure."""
        shared = self.s.shared_outcomes
        if not shared:
            return state  # most schemas: no member is shared by half their unions
        for union, members in list(state.unions.items()):
            for member in self.s.corpus.possible_types[union]:  # declaration order
                if member not in shared:
                    continue
                if member not in members and member not in state.fields:
                    best = self._best_field(member)
                    if best is None:
                        continue
                    state = self.tried(state, ("member", best, union))
                if member in state.fields:
                    state = self._whole(state, member, further=True)
        return state

    def add_write_outcomes(self, state: GrowingState) -> GrowingState:
        """A write in the slice that returns a union (of at most `FILL_MEMBER_CAP` types)
        shows every member, each with its best-ranked field, while they fit: the union is
        how the write reports each way it can end (`Sensor | UnauthorizedError |
        PythonError`), and an operation making the change selects every one, or never
        learns that it was refused. A read's unions wait for the completion."""
        facts, owners = self.s.facts, self.s.write_owners
        for owner in [o for o in state.fields if o in owners]:  # the slice's order, not a set's
            for name in list(state.fields[owner]):
                union = facts[owner][name].named
                if union in state.unions:
                    state = self._other_members_of(state, union)
        return state

    def _whole(
        self,
        state: GrowingState,
        type_name: str,
        further: bool,
        parts: frozenset[str] | None = None,
        seen: set[str] | None = None,
    ) -> GrowingState:
        """Every field of `type_name` that takes no required argument and is not deprecated
        (an agent should not select it), each while it fits. With `further`, the types they
        bring in are shown whole too: its `parts` (`SchemaTables.parts`: the types only it
        and its parts return, a transaction request's raw request and that request's
        metadata) at any depth, each once, and a type a field brings in one level (an error's
        chain of causes, not what those lead to)."""
        facts, entries = self.s.facts[type_name], self.s.corpus.entries
        if further and parts is None:
            parts, seen = self.s.parts(type_name), {type_name}
        for name in self.s.fields_of.get(type_name, ()):
            field = facts[name]
            if field.required or entries[field.position].deprecation is not None:
                continue  # an argument it cannot be asked without, or not to be written
            shown = name in state.fields.get(type_name, {})
            entered = field.named in state.fields
            if not shown:
                state = self.tried(state, ("link", type_name, name))
            if not further or field.leaf or field.named not in state.fields:
                continue
            if parts and seen is not None and field.named in parts and field.named not in seen:
                seen.add(field.named)
                state = self._whole(state, field.named, True, parts, seen)
            elif not shown and not entered:
                state = self._whole(state, field.named, further=False)
        return state

    def add_filtered_members(self, state: GrowingState) -> GrowingState:
        """A list filtered by an enum argument whose value the question names, the value
        being one of the types the list returns (`timelineItems(itemTypes: [REOPENED_EVENT])`
        returns `ReopenedEvent`s): that type enters through its union or interface, with its
        best field, if it fits; an answer reads the filtered items through it."""
        for owner, shown in list(state.fields.items()):
            for name, arguments in list(shown.items()):
                if not arguments:
                    continue
                members = self.arguments.filtered_members(owner, name, arguments, state.words)
                for member, abstract in members:
                    best = None if member in state.fields else self._best_field(member)
                    if best is not None:
                        state = self.tried(state, ("member", best, abstract))
        return state

    def fill(self, state: GrowingState, order: list[int], fitted: int, failed: int) -> GrowingState:
        """Score per token: past the first hit that did not fit, hits that cost only their
        own line (a field of a type already in, whose return type is in too) still go in, as
        far down the ranking as the slice was given; so does a hit on a member of a small
        union in the slice, with its member, when it costs little. The hits on the types the
        question asks a set of go first: an answer listing a set's objects selects their
        fields (`Issue.url` for "which issues …"), though the question names few of them;
        then, from a rung of `EARLY_COMPLETION_FROM` tokens (at every rung for a request whose
        write ranks first), the hits on the answer's tree (`complete_answer`): the question's
        words choose among its parts first."""
        self.kept_at = (len(self.steps), state.copy())
        # The hits not taken: of the first `fitted` of `order`, those passed over (twins);
        # then every one after the hit that failed (`order` holds each position once).
        assert order[fitted] == failed
        taken = {step[1] for step in self.steps if step[0] == "hit"} | self.taken_below
        passed = [p for p in order[:fitted] if p not in taken]
        top = self.answer_top(state, order)
        ranked = self._fill_order([*passed, *order[fitted + 1 :]], top)
        # No step adds less than its hit's line, and no line costs less than its field
        # without arguments: once the slice is nearly full, most hits stop here, and a
        # stretch of the ranking is first cut to the hits whose bare line still fits.
        budget, cheapest, bare_costs = self.budget, self.s.cheapest_line, self.s.bare_line_costs
        _, costs, _ = self.s.fill_arrays  # each field's bare line cost, as an array
        names, member_of = self.s.names, self.s.member_of
        for start in range(0, len(ranked), _FILL_STRETCH):
            stretch = ranked[start : start + _FILL_STRETCH]
            for position in stretch[costs[stretch] <= budget - state.total].tolist():
                if state.total + cheapest > budget:
                    return state  # not even the cheapest line of the schema fits any more
                owner, name = names[position]
                fields = state.fields.get(owner)
                if fields is None:
                    if not member_of.get(owner):
                        continue  # neither cheap nor a union member (see `GrowingState.near`)
                elif name in fields:
                    continue  # in already
                if state.total + bare_costs[position] > budget:
                    continue
                if state.cheap(position):
                    if state.total + state.line_cost(position) <= budget:
                        state.add_hit(position)
                        self.steps.append(("hit", position))
                elif fields is None:
                    state = self._add_member(state, position)
        return state

    def _fill_order(self, hits: list[int], top: str | None = None) -> NDArray[np.intp]:
        """The hits the fill reads, in its order: those on the types the question asks a set
        of first, then those on the types of the answer's tree under `top` (when given: from
        a rung of `EARLY_COMPLETION_FROM` tokens, `complete_answer`), each part in rank order;
        none returning `ID`, which is opaque by the spec:
        past the frontier a hit on one is a line that answers nothing (identifiers and hits
        that fit still show it). No field of the query root or a namespace of it
        (`SchemaTables.read_owners`): a root field is a way in, which
        the main hits and the steps choosing ways bring; past them, another is a way to what
        the question did not reach. From a rung of `EARLY_COMPLETION_FROM` tokens, no write
        (`SchemaTables.write_owners`):
        a read needs none, and a write the one it asks for, which the main hits reach that
        far down the ranking (below it, the fill is how a write ranked past them comes in).
        Array operations: a ranking holds thousands of hits."""
        import numpy as np

        ranked = np.fromiter(hits, dtype=np.intp, count=len(hits))
        fillable, _, writes = self.s.fill_arrays
        if self.budget >= EARLY_COMPLETION_FROM:
            fillable = fillable & ~writes
        ranked = ranked[fillable[ranked]]
        if top is not None:
            inside = self.trees.within(top)[ranked]
            ranked = np.concatenate((ranked[inside], ranked[~inside]))
        if self.many:
            owned = np.zeros(len(self.s.names), dtype=bool)
            fields_of, position = self.s.fields_of, self.s.position
            for owner in self.many:
                owned[[position[owner, name] for name in fields_of.get(owner, ())]] = True
            first = owned[ranked]
            ranked = np.concatenate((ranked[first], ranked[~first]))
        return ranked

    def _add_member(self, state: GrowingState, position: int) -> GrowingState:
        """A hit on a member of a union in the slice goes in with its member when that costs
        at most `FILL_MEMBER_SHARE` of the budget; undone otherwise."""
        abstract = state.near(position)
        if abstract is None:
            return state
        owner = self.s.names[position][0]
        # At least the member's header and the hit's line: skip the copy when even those
        # cannot fit.
        least = self.s.cost(f"type {owner} {{\n}}\n\n") + state.line_cost(position)
        limit = self.budget * FILL_MEMBER_SHARE
        if state.total + least > self.budget or least > limit:
            return state
        snapshot = state.copy()
        before = state.total
        step: Step = ("member", position, abstract)
        state.apply(step)
        if state.total > self.budget or state.total - before > limit:
            return snapshot
        self.steps.append(step)
        return state

    def trimmed(self, state: GrowingState | None) -> tuple[GrowingState, int, SchemaSlice]:
        """The state of every step if its SDL fits the budget, else of fewer steps, with how
        many it keeps and its slice: each try drops a share of the steps as large as the
        share of tokens over. None kept, the start is the slice: the rung below's, which fits
        a smaller budget, or none."""
        steps, budget = self.steps, self.budget
        below = self.below.piece if self.below is not None else EMPTY_SLICE
        kept = len(steps)
        while kept:
            if state is None:
                state = self.replayed(kept)
            result = finished(state, below.hits + counted_hits(steps[:kept]))
            if result.tokens <= budget:
                return state, kept, result
            excess, state = result.tokens - budget, None
            kept -= max(1, kept * excess // max(result.tokens, 1))
        return self.start, 0, below
