"""The completion: what a slice spends once its ranked hits are in (`Completion`, the part of
`build.Growth` that completes what the slice holds). From a rung of 2,000 tokens, before the
fill, the leaves and values of the slice's types within a small share and the answer's tree
within another (for a request whose write ranks first, the write's tree at every rung up to
4,000 tokens, within a larger share); after the fill, with whatever budget is left, the other
fields of the slice's types, then the other members of its unions, then every field's other
arguments; and, from a rung of 4,000, the writes a read ranked among its first hits and the
write gate kept out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from schemanav.retrieval.slicing.params import (
    ANSWER_TREE_SHARE,
    EARLY_COMPLETION_FROM,
    EARLY_COMPLETION_SHARE,
    FILL_MEMBER_CAP,
    GATED_WRITES_FROM,
    LISTING_COMPLETION_SHARE,
    WRITE_ANSWER_SHARE,
)

if TYPE_CHECKING:
    from schemanav.retrieval.slicing.answer import AnswerTrees
    from schemanav.retrieval.slicing.growth import GrowingState
    from schemanav.retrieval.slicing.state import Step
    from schemanav.retrieval.slicing.tables import SchemaTables


class Completion:
    """The steps of one growth (`build.Growth`) that complete what its slice holds, each kept
    only while the slice fits (`tried`)."""

    s: SchemaTables
    trees: AnswerTrees  # the types under each root field (`Slicer.answer_trees`)
    values: list[float]  # each corpus entry's score
    budget: int
    writes: bool  # the question asks for a write
    write_first: bool  # …and its ranking's first hit is one (`Growth.add_main_hits`)
    lists: bool  # the question lists many things it wants
    steps: list[Step]

    def tried(self, state: GrowingState, step: Step, most: float | None = None) -> GrowingState:
        """The state with `step` applied and kept when the slice still fits the budget (and
        the step added at most `most` tokens), else as it was before."""
        snapshot, before = state.copy(), state.total
        state.apply(step)
        if state.total > self.budget or (most is not None and state.total - before > most):
            return snapshot
        self.steps.append(step)
        return state

    def _best_field(self, type_name: str) -> int | None:
        """The corpus position of a type's best-ranked field that takes no required argument
        and does not return `ID` (opaque: it answers nothing alone)."""
        fields = [
            facts.position
            for facts in self.s.facts[type_name].values()
            if not facts.required and facts.named != "ID"
        ]
        return self._best(fields) if fields else None

    def _best(self, positions: list[int]) -> int:
        """Of these corpus positions, the best-ranked (the first in the corpus among ties)."""
        values = self.values
        return max(positions, key=lambda at: (values[at], -at))

    def complete_early(self, state: GrowingState) -> GrowingState:
        """Before the fill, from a rung of `EARLY_COMPLETION_FROM` tokens: the leaves and values
        of the types the slice holds, within `EARLY_COMPLETION_SHARE` of the budget. The fill
        takes hits by score wherever they are, and an answer about an object selects its
        leaves though the question names few (`Asset.name`, `Money.amount`); past the fill,
        the completion seldom finds room for them. A question listing many things it wants
        ("its status, tags, pictures, title and description") selects more of each object
        than its list names: at every rung, within `LISTING_COMPLETION_SHARE`."""
        share = LISTING_COMPLETION_SHARE if self.lists else EARLY_COMPLETION_SHARE
        if self.budget < EARLY_COMPLETION_FROM and not self.lists:
            return state
        roots = self.s.root_like
        owners = [owner for owner in state.fields if owner not in roots]
        limit = min(self.budget, state.total + int(share * self.budget))
        return self._complete_fields(state, owners, 0, limit)

    def complete_answer(self, state: GrowingState, order: list[int]) -> GrowingState:
        """After the types' leaves, from a rung of `EARLY_COMPLETION_FROM` tokens: the fields
        of the answer's tree (under `answer_top`), nearest types first, within `ANSWER_TREE_SHARE`
        of the budget: each type's leaves and values, then its fields leading on, which bring
        their types, then the other members of the tree's unions. An operation selects its
        answer's parts (an account's metadata, its rules and their settings) that no question
        word scores, and the fill would spend the room on hits anywhere in the schema. For a
        request whose write ranks first, at every rung the write reserve applies to, within
        `WRITE_ANSWER_SHARE`: the room the reserve keeps is for the write's answer."""
        top = self.answer_top(state, order)
        if top is None:
            return state
        depth = self.trees.depths(top)
        share = WRITE_ANSWER_SHARE if self.write_first else ANSWER_TREE_SHARE
        limit = min(self.budget, state.total + int(share * self.budget))
        done: set[str] = set()
        while state.total + self.s.cheapest_line <= limit:
            owners = sorted(
                (owner for owner in state.fields if owner in depth and owner not in done),
                key=depth.__getitem__,
            )
            if not owners:
                break
            for reach in range(2):
                state = self._complete_fields(state, owners, reach, limit)
            for union in sorted(state.unions.keys() & depth.keys()):
                state = self._other_members_of(state, union, limit)
            done.update(owners)
        return state

    def answer_top(self, state: GrowingState, order: list[int]) -> str | None:
        """The type the answer's tree grows from (`answer.AnswerTrees`): that of the way the
        question enters, the best-ranked field the slice shows of the query root or a
        namespace of it (`SchemaTables.read_owners`), for a write of the mutation root or a
        namespace of it (`write_owners`), no field leading into a namespace; None when the
        slice shows none, and under a rung of
        `EARLY_COMPLETION_FROM` tokens, where every token goes to ranked hits (but for a
        request whose write ranks first: `write_first`)."""
        if self.budget < EARLY_COMPLETION_FROM and not self.write_first:
            return None
        names, facts = self.s.names, self.s.facts
        roots = self.s.write_owners if self.writes else self.s.read_owners
        for at in order:
            owner, name = names[at]
            shown = owner in roots and name in state.fields.get(owner, ())
            if shown and (top := facts[owner][name].named) not in roots:
                return top
        return None

    def complete(self, state: GrowingState) -> GrowingState:
        """Budget is left once every ranked hit is in (a small schema, or one whose fields
        say little, so few score) or once the fill found nothing more that fits: the types
        in the slice show their other fields while they fit, first the leaves and the values
        they hold (`SchemaTables.value_types`: a focal point's `x` and `y` are as much the
        type's as its `width`), then those leading to further types, which enter and are
        completed in turn; then the unions in the slice show their other
        members (`_other_members`); once no type in the slice has a field left that fits,
        its objects declare the interfaces they implement (`_interfaces`), which are
        completed in turn; last, the fields shown show the arguments they offer
        (`_complete_arguments`). An operation selects more of a type than a question
        names (a fragment's whole object, every member of a union it reads), and a budget
        a slice does not spend answers nothing."""
        if state.total + self.s.cheapest_line > self.budget:
            return state  # not even the schema's cheapest line fits: most filled slices
        roots = self.s.root_like
        done: set[str] = set()
        declared: set[tuple[str, str]] = set()  # each tried once: a slice only grows
        while True:
            owners = [o for o in state.fields if o not in roots and o not in done]
            if not owners:
                before = len(state.fields)
                state = self._interfaces(state, declared)
                if len(state.fields) == before:
                    return self._complete_arguments(state)
                continue  # the interfaces that came in are completed in turn
            for reach in range(2):
                state = self._complete_fields(state, owners, reach)
            state = self._other_members(state)
            done.update(owners)

    def _interfaces(self, state: GrowingState, declared: set[tuple[str, str]]) -> GrowingState:
        """The types in the slice declare the interfaces they implement, each while it fits:
        an operation reading a union or a list of objects may select what they share once,
        through an interface no field returns (`... on CustomField { name label }` on a
        union of field configurations). `declared`: the (type, interface) pairs tried
        already, which a grown slice has no more room for."""
        for owner in list(state.fields):
            for interface in self.s.interfaces_of.get(owner, ()):
                if interface not in state.fields and (owner, interface) not in declared:
                    declared.add((owner, interface))
                    state = self.tried(state, ("implements", owner, interface))
        return state

    def _complete_arguments(self, state: GrowingState, leaves: bool = False) -> GrowingState:
        """Once every type in the slice shows every field that fits, each field shown shows
        the optional arguments it offers and the slice does not show yet, type by type in the
        order they came in, while they fit: an operation passes a list's filters, sort and
        paging and a value's options (`orders(queryString:, sort:, limit:, offset:)`,
        `contentUri(request:)`) though the question says none of them; an agent given
        room should see each field's whole signature before the room goes unspent. `leaves`:
        the leaves' only (`Growth.add_value_arguments`)."""
        facts = self.s.facts
        for owner in list(state.fields):
            own = facts[owner]
            for name, arguments in list(state.fields[owner].items()):
                field = own[name]
                if leaves and not field.leaf:
                    continue
                missing = tuple(a for a in field.offered if a not in arguments)
                if missing:
                    state = self.tried(state, ("args", owner, name, missing))
        return state

    def _complete_fields(
        self, state: GrowingState, owners: list[str], reach: int, limit: int | None = None
    ) -> GrowingState:
        """One pass of the completion over `owners`' fields not yet shown: those returning a
        leaf or a value (`reach` 0), or any other type (1); while the slice fits `limit`
        tokens (the budget by default)."""
        budget = self.budget if limit is None else limit
        facts, order = self.s.facts, self.s.fields_of
        entries, position = self.s.corpus.entries, self.s.position
        bare_costs, values = self.s.bare_line_costs, self.s.value_types
        cheapest = self.s.cheapest_line
        for owner in owners:
            if state.total + cheapest > budget:
                break  # no line of the schema fits any more
            for name in order.get(owner, ()):
                at = position[owner, name]
                field = facts[owner][name]
                if (
                    name in state.fields[owner]
                    or (0 if field.leaf or field.named in values else 1) != reach
                    or entries[at].deprecation is not None  # not to be written
                    or state.total + bare_costs[at] > budget
                ):
                    continue
                if state.costs_line(owner, name):
                    if state.total + state.line_cost_of(owner, name) <= budget:
                        state.add_field(owner, name)
                        self.steps.append(("link", owner, name))
                else:
                    state = self.tried(state, ("link", owner, name), budget - state.total)
        return state

    def _other_members(self, state: GrowingState) -> GrowingState:
        """The members of the slice's unions (of at most `FILL_MEMBER_CAP` possible types)
        not yet in, each with its best-ranked field, while they fit: an operation reading a
        union selects every member it may return (`... on AddReactionFailure { reason }`
        beside the success), though the question names only the outcome it hopes for."""
        for union in sorted(state.unions):
            state = self._other_members_of(state, union)
        return state

    def _other_members_of(
        self, state: GrowingState, union: str, limit: int | None = None
    ) -> GrowingState:
        """`union`'s members not yet in the slice, in declaration order (never a set's: a
        slice is the same in every process), each with its best-ranked field while the slice
        fits `limit` tokens (the budget by default); none for a union of more than
        `FILL_MEMBER_CAP` possible types."""
        members = self.s.corpus.possible_types.get(union, ())
        if len(members) > FILL_MEMBER_CAP:
            return state
        for member in members:
            at = None if member in state.fields else self._best_field(member)
            if at is not None:
                most = None if limit is None else limit - state.total
                state = self.tried(state, ("member", at, union), most)
        return state

    def add_gated_writes(self, state: GrowingState, main_hits: list[int]) -> GrowingState:
        """From a rung of `GATED_WRITES_FROM` tokens, once the completion has left room: the
        main hits the write gate kept out of a read's slice (`WRITE_GATE`: each way in from
        another root than the query's) go in, in rank order, each while it fits, and the
        completion then runs over the types they bring. A read may rank a write among its
        first hits ("Download the contact form's entries as a CSV file":
        `exportFormSubmissions`), and a slice with room to spare should not leave it out."""
        if state.other_roots is not False or self.budget < GATED_WRITES_FROM:
            return state  # a write, a slice whose first hits were writes, or a small budget
        roots, reads = self.s.root_like, self.s.read_owners
        names, entries, cheapest = self.s.names, self.s.corpus.entries, self.s.cheapest_line
        opened = False
        for position in main_hits:
            if state.total + cheapest > self.budget:
                break  # no line of the schema fits any more
            owner, name = names[position]
            if owner in reads or name in state.fields.get(owner, {}):
                continue
            if owner not in roots:
                chain = self.s.graph.chain_to(owner, state.routes)
                if not chain or entries[chain[0]].owner in reads:
                    continue  # a read's hit: the fill and the completion had their turn
            if not opened:
                state, opened = self.tried(state, ("gate",)), True
            state = self.tried(state, ("hit", position))
        return self.complete(state) if opened else state
