"""Ranked hits entering a slice, each with a way in from the root and what the schema's shape
says comes with it: a list way into a type the question is about, fields between the types
the question names, the ways through a union or interface to a hit's type."""

from __future__ import annotations

from schemanav.retrieval.slicing.closure import ClosedState
from schemanav.retrieval.slicing.params import (
    BUILTIN_SCALARS,
    CONNECTIVES_PER_PAIR,
    FILL_MEMBER_CAP,
    PLURAL_WAY_FIELDS,
    SUBJECT_HITS,
    SUBJECT_LEAVES,
    SUBJECT_LEAVES_SHARE,
    TOP_ARGUMENTS,
    TOP_ARGUMENTS_CAP,
    WRITE_GATE,
)
from schemanav.retrieval.slicing.state import Step


class GrowingState(ClosedState):
    """A slice that grows by steps (see `build.py`): a ranked hit with its way in, a union
    member's hit past the frontier, a connective field."""

    def apply(self, step: Step) -> None:
        """Replay one step of a slice's growth."""
        if step[0] == "hit":
            self.add_hit(step[1])
        elif step[0] == "member":
            self.add_member_hit(step[1], step[2])
        elif step[0] == "page":
            self.add_paging(step[1], step[2])
        elif step[0] == "gate":
            self.other_roots = True  # the write gate opened (`Growth.add_gated_writes`)
        elif step[0] == "implements":
            self.add_implements(step[1], step[2])
        elif step[0] == "fragment":
            self.add_fragment_interfaces(step[1], step[2])
        elif step[0] == "args":
            self.add_field(step[1], step[2], step[3])
        else:
            self.add_field(step[1], step[2])

    # --- ranked hits ----------------------------------------------------------------------

    def add_hit(self, position: int) -> bool:
        """Add a ranked field with its way in from the root; False when no path reaches it."""
        owner, field = self.s.names[position]
        if not self.routes.reaches(owner):
            return False
        roots = self.s.root_like
        self.hits += 1
        self.hit_counts[owner] += 1
        subject = self.hit_counts[owner] == SUBJECT_HITS and owner not in roots
        if (owner in self.many or subject) and owner not in self.listed:
            # Named in the plural (or the subject of several hits): the question may want
            # many of them, so the slice also gets the best way in through a list or
            # connection (not only a lookup by identifier).
            self.listed.add(owner)
            way = self.list_way_in(owner)
            if way is not None:
                self.add_path([*way, position])
        if owner not in self.fields:  # a type the slice reaches needs no way of its own
            if owner in self.s.graph.roots:  # a namespace is entered by its root's field
                chain: list[int] = []
            else:
                best = self.best_way_in(owner)
                chain = best if best is not None else self.s.graph.chain_to(owner, self.routes)
            if not self.add_path([*chain, position]):
                return False
        else:
            self.add_field(owner, field)
        self._hit_type(owner)
        if self.hits <= TOP_ARGUMENTS:
            # One of the first hits: every argument it takes (filters, ordering) may matter.
            # Past `TOP_ARGUMENTS_CAP` of them (a search resolver's dozens of filters) the
            # question's words choose, as for any hit.
            offered = self.s.facts[owner][field].offered
            if len(offered) <= TOP_ARGUMENTS_CAP:
                self.add_field(owner, field, offered)
        return True

    def shows_twin(self, position: int) -> bool:
        """Whether a ranked field on a type not yet in the slice is one an interface of that
        type declares, and the slice shows it already on the interface or on another of its
        implementations (`contributedProjects` on each of GitLab's five user types, all
        implementing `User`). Implementations of one interface field mean the same thing:
        the slice has a way to it, and a second way in would spend a path on nothing new."""
        owner, name = self.s.names[position]
        if owner in self.fields:
            return False  # a line on a type in already: cheap, and maybe the one wanted
        facts, shown = self.s.facts, self.fields
        for interface in self.s.interfaces_of.get(owner, ()):
            if name not in facts.get(interface, ()):
                continue
            if name in shown.get(interface, ()) or any(
                name in shown.get(other, ()) for other in self.s.implementors.get(interface, ())
            ):
                return True
        return False

    def _hit_type(self, owner: str) -> None:
        """What a ranked hit's type brings: for the subject of several hits, its leaves and
        its fields to the other subjects; for a new hit type, the fields of types in the
        slice into a union or interface through which it is reached; but not for one of
        the schema's shared outcomes (`SchemaTables.shared_outcomes`): every union may return
        it, so its ways in are everywhere and none is needed (the error of `run`'s union is
        no reason to show every field of the slice into an `…OrError` union)."""
        if self.hit_counts[owner] == SUBJECT_HITS and owner not in self.s.root_like:
            self._subject_leaves(owner)
            self._links_between_subjects(owner)
        if owner in self.hit_types or owner in self.s.shared_outcomes:
            return
        self.hit_types[owner] = None
        self._abstract_ways_in(owner)

    def _subject_leaves(self, owner: str) -> None:
        """A small type that is the subject of several hits shows every leaf, within a small
        share of the budget: the question is about it, and a small type's leaves are few."""
        shown = self.fields[owner]
        leaves = self.s.free_leaves(owner)[0]
        if len(leaves) <= SUBJECT_LEAVES:
            new = [n for n in leaves if n not in shown]
            cost = sum(self.s.cost(self.s.field_line(owner, n, ())) for n in new)
            if cost <= self.budget * SUBJECT_LEAVES_SHARE:
                for name in new:
                    self.add_field(owner, name)

    def _links_between_subjects(self, owner: str) -> None:
        """Single-object fields between two subjects of several hits (`Deployment.ref` once
        Deployment and Ref both have them) show how the question's types relate."""
        self.linked[owner] = None
        pairs: list[tuple[str, str]] = []
        between = self.s.leading_between.get(owner, {})
        for other in list(self.linked):
            if other == owner:  # into it, from a linked type (itself included)
                pairs += [
                    (source, name)
                    for source, name, many in self.s.leading_to.get(owner, ())
                    if not many and source in self.linked
                ]
            else:  # out of it, into another linked type
                pairs += [(owner, name) for name, many in between.get(other, ()) if not many]
        for source, name in pairs:
            if name not in self.fields[source]:
                self.add_field(source, name)

    def _abstract_ways_in(self, owner: str) -> None:
        """A hit's type may be reached through a union or interface from a type already in
        the slice (`Ref.target: GitObject` to `Commit`): show the best-scoring such field of
        each type, unless one is in already (Vendure's `CustomFields` has 25 fields into one
        union, one for each kind of entity: one way is a way). Not a root's: a
        root's field is an operation of its own, and a type many unions may return
        (`UnauthorizedError`) would bring every write in the slice's root into one
        (`best_way_in` gives the hit its own way in)."""
        fields, sources = self.fields, self.s.abstract_sources
        for abstract in (*self.s.member_of.get(owner, ()), *self.s.interfaces_of.get(owner, ())):
            if owner not in self.s.possible.get(abstract, ()):
                continue
            if sources.get(abstract, frozenset()).isdisjoint(fields):
                continue  # no field into it from the slice (and none enters in this loop)
            ways: dict[str, list[str]] = {}
            for source, name in self.s.abstract_fields[abstract]:
                if source in fields and source not in self.s.root_like:
                    ways.setdefault(source, []).append(name)
            for source, names in ways.items():
                shown = fields[source]
                if any(name in shown for name in names):
                    continue  # reached through it already
                own = self.s.facts[source]
                best = max(names, key=lambda name: self.values[own[name].position])
                self.add_field(source, best)
                self.link(abstract, owner)

    # --- ways in --------------------------------------------------------------------------

    def missing(self, steps: list[tuple[str, str]]) -> int:
        """How many of a way's (owner, field) steps the slice does not show yet."""
        fields = self.fields
        new = 0
        for step_owner, step_field in steps:
            shown = fields.get(step_owner)
            if shown is None or step_field not in shown:
                new += 1
        return new

    def best_way_in(self, owner: str) -> list[int] | None:
        """The way from the query root into `owner` that adds the fewest fields not yet in
        the slice (a hop into a union or interface member counts as the graph's abstract
        penalty more; the schema's cheapest way breaks ties), None if all are in. Ways are
        tried by penalty, and one that could not beat the best so far even adding a single
        field is skipped (a type can have hundreds of ways in)."""
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

    def list_way_in(self, owner: str) -> list[int] | None:
        """The best way in (as `best_way_in`) through a list or connection, unless one adding
        more than `PLURAL_WAY_FIELDS` fields comes first (then None)."""
        limit = PLURAL_WAY_FIELDS
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

    def add_path(self, steps: list[int]) -> bool:
        """Show every field of a way (corpus positions), linking each hop into a union or
        interface member; False for a way from another root than the query's once the write
        gate has closed (the subscription root's is open to a question following changes)."""
        corpus = self.s.corpus
        entries = corpus.entries
        root = entries[steps[0]].owner
        if root != corpus.query_root and not (self.follows and root == corpus.subscription_root):
            # Questions read unless a write ranks among the first hits: a mutation's input
            # objects and payloads are costly and useless to a reader.
            if self.other_roots is None:
                self.other_roots = self.hits <= WRITE_GATE
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

    # --- connectives ----------------------------------------------------------------------

    def connectives(self) -> list[tuple[str, str]]:
        """Fields not yet shown, without required arguments, from a type in the slice to a
        non-root object type with a ranked hit (directly or through a connection's nodes):
        how the question's types relate, best score first. At most `CONNECTIVES_PER_PAIR`
        fields between two types, counting those shown: one relation is what a question
        reads, and a type leads to a central one many ways (a user to repositories by
        `repositories`, `watching`, `starredRepositories`, …), each a line of arguments."""
        roots = self.s.root_like  # a field back to a root (`relay: Query!`) relates nothing
        wanted = {t for t, n in self.hit_counts.items() if n >= 1 and t not in roots}
        values, position = self.values, self.s.position

        def best_first(item: tuple[str, str]) -> tuple[float, int]:
            return -values[position[item]], position[item]

        # From the types in the slice (fewer than the fields into the hits' types); the
        # order they are found in does not matter, as each field's place breaks every tie.
        found: list[tuple[str, str]] = []
        leading_between = self.s.leading_between
        for source, shown in self.fields.items():
            into = leading_between.get(source)
            if into is None:
                continue
            for target in wanted.intersection(into):
                names = [name for name, _ in into[target]]
                room = CONNECTIVES_PER_PAIR - sum(name in shown for name in names)
                if room > 0:
                    fresh = [(source, name) for name in names if name not in shown]
                    found.extend(sorted(fresh, key=best_first)[:room])
        return sorted(found, key=best_first)

    def costs_line(self, owner: str, name: str) -> bool:
        """Whether adding the field costs only its line: nothing implements its owner in the
        slice (which would copy it), and its return type is an object in the slice, or it is
        a leaf without arguments whose scalar or enum the slice needs no line for (a built-in
        scalar, or one shown already), where fields show no description. The completion then
        adds it without a copy of the slice to fall back on."""
        if self.implemented_by.get(owner):
            return False
        facts = self.s.facts[owner][name]
        named = facts.named
        if named in self.fields:
            return True
        return facts.leaf and not facts.arguments and not self.s.described and self.holds(named)

    def holds(self, leaf_type: str) -> bool:
        """Whether a field returning this scalar or enum adds no line for it: a built-in
        scalar, or one the slice shows already (an output enum keeps the values it shows)."""
        return leaf_type in BUILTIN_SCALARS or leaf_type in self.scalars or leaf_type in self.enums

    # --- the fill past the frontier -----------------------------------------------------

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

    def cheap(self, position: int) -> bool:
        """Whether the hit would add only its own field line: its owner and return type
        are in the slice and it shows no argument of a type not yet in."""
        owner, name, named, required = self.s.line_needs[position]
        fields = self.fields.get(owner)
        if fields is None or name in fields:
            return False
        if not (self.holds(named) or named in self.fields or named in self.unions):
            return False
        return all(t in self.inputs or t in self.enums or t in self.scalars for t in required)

    def near(self, position: int) -> str | None:
        """For a hit on a union member not yet in the slice whose union is (of at most
        `FILL_MEMBER_CAP` possible types), when the hit takes no required argument and
        returns a leaf or a type in the slice: that union (the member is one step beyond a
        line); None otherwise."""
        entry = self.s.corpus.entries[position]
        owner = entry.owner
        unions = self.s.member_of.get(owner, ())
        if owner in self.fields or not unions:
            return None
        facts = self.s.facts[owner][entry.field]
        if facts.required:
            return None
        named = facts.named
        if not (facts.leaf or named in self.fields or named in self.unions):
            return None
        for union in unions:
            if union in self.unions and len(self.s.possible[union]) <= FILL_MEMBER_CAP:
                return union
        return None

    def add_member_hit(self, position: int, abstract: str) -> None:
        """A hit on a member of `abstract`, a union already in the slice."""
        entry = self.s.corpus.entries[position]
        self.hits += 1
        self.hit_counts[entry.owner] += 1
        self.link(abstract, entry.owner)
        self.add_field(entry.owner, entry.field)
        self._hit_type(entry.owner)
