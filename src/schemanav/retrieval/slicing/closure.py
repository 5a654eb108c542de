"""Fields and types entering a slice, with all that keeps the slice a valid piece of the schema.

A slice is a subset of the schema in the sense that matters to an agent: it parses with
graphql-core, and every operation valid against it is valid against the full schema. That
holds because fields keep their exact return types, required arguments are always shown (an
optional argument may be hidden: an operation then cannot use it), input objects keep their
required fields, an object type declares an interface only when a path passes through that
interface (and then carries all the interface's fields in the slice), and unions keep only
the members that are in the slice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from schemanav.question.vocabulary import PAGING_MARK
from schemanav.retrieval.slicing.params import (
    ARGUMENT_ENUM_CAP,
    BUILTIN_SCALARS,
    EARLY_COMPLETION_FROM,
    FILLER_LEAVES,
    OPERATION_ROOM_FROM,
    PAGE_CURSOR_ARGUMENT,
    PAGE_INFO_FIELDS,
    PAGE_SIZE_ARGUMENT,
    TOP_ARGUMENTS,
    TOP_ARGUMENTS_CAP,
)
from schemanav.retrieval.slicing.render import description
from schemanav.retrieval.slicing.state import SliceState, cut_mark

if TYPE_CHECKING:
    from schemanav.retrieval.slicing.fields import FieldFacts


class ClosedState(SliceState):
    """A slice that stays closed: every type a field or argument needs is in it."""

    # --- fields ---------------------------------------------------------------------------

    def shown_arguments(self, owner: str, name: str, facts: FieldFacts) -> list[str]:
        """Required arguments always; a list's page size (`SchemaTables.page_size`); the ones
        the question names; all of a field returning one object whose arguments are all
        optional (they choose it); all of a write (`SchemaTables.write_owners`): its optional
        arguments are inputs the user gives ("with my answers", "as a draft"), not filters a
        question names. A deprecated optional argument is never offered: an agent should not
        write it. A leaf's enum argument with a default says how its value comes
        (`length(unit: LengthUnit = METERS)`): shown whatever the question's words, it costs a
        few tokens and tells the agent what it reads without it, or how to ask for another
        unit. (`add_field` then adds those the field's companions show: `_share_arguments`.)"""
        if not facts.arguments:  # most fields take none
            return []
        mode = self.s.params.arguments
        if mode == "all":
            return list(facts.arguments)
        shown = list(facts.required)
        if mode == "required" or len(shown) == len(facts.arguments):
            return shown
        if owner in self.s.write_owners:
            return [a for a in facts.arguments if a in shown or a in facts.offered]
        if (
            not facts.many
            and not facts.required
            and not facts.leaf
            and len(facts.offered) <= TOP_ARGUMENTS_CAP
        ):
            # A field returning one object whose arguments are all optional: they choose the
            # object (`object(expression:, oid:)`). A leaf's optional arguments only shape its
            # value (`avatarUrl(size:)`): they follow the question's words like a list's, and
            # so do more than `TOP_ARGUMENTS_CAP` of them: a search resolver's filters, that
            # returns its first match (GitLab's `Project.issue` offers 42).
            return list(facts.offered)
        words, many, quoted = self.words, facts.many, self.quoted
        # The schema's page size (`SchemaTables.page_size`): Relay's `first` always, as a
        # connection cannot be read without it; another convention's (`limit: Int = 10`)
        # when the question orders ("its last 5 runs", "the latest tick"): it reads a page.
        page_size = self.s.page_size if many else None
        if page_size != PAGE_SIZE_ARGUMENT and words.isdisjoint(self.s.order_words):
            page_size = None
        for argument, answers in self.s.offered_words(owner, name):
            if facts.leaf and self.s.shapes_value(facts, argument):
                shown.append(argument)
                continue
            if (
                argument == page_size
                or (words and not words.isdisjoint(answers))
                or (quoted and not quoted.isdisjoint(self.s.value_nouns(owner, name, argument)))
            ):
                shown.append(argument)
        return shown

    def add_field(self, owner: str, name: str, extra: Sequence[str] = ()) -> None:
        """Show a field (with `extra` arguments besides those `shown_arguments` picks), its
        owner, its return type and its arguments' types; implementations of its owner in the
        slice repeat it."""
        fields = self.fields.get(owner)
        if fields is None:
            fields = self.fields[owner] = {}
            self._header(owner)
            self._entered(owner)
        shown = fields.get(name)
        if shown is not None and not extra:
            return  # in already, and nothing to add to it
        facts = self.s.facts[owner][name]
        new = shown is None
        if shown is None:
            arguments = self.shown_arguments(owner, name, facts) if facts.arguments else []
            if extra:
                arguments += [a for a in extra if a not in arguments]
            if self.s.described and facts.description:
                text = description(facts.description, self.s.params.descriptions)
                if text:
                    self._set_line(("d", owner, name), f'{self.s.indent}"{text}"\n')
        else:
            arguments = [a for a in extra if a not in shown]
            if not arguments:
                return
            arguments += shown
        order = facts.arguments
        fields[name] = sorted(arguments, key=order.index) if len(arguments) > 1 else arguments
        if not new:
            arguments = [a for a in arguments if a not in shown]  # type: ignore[operator]
        chosen = fields[name]
        line = self.s.field_line(owner, name, tuple(chosen)) if chosen else facts.line
        self._set_line(("f", owner, name), line)
        for argument in arguments:
            number = order.index(argument)
            self.ensure_input(
                facts.argument_types[number], every=facts.defaults[number], capped=True
            )
        if new and facts.named not in BUILTIN_SCALARS:  # a built-in scalar needs nothing
            if facts.leaf:  # most fields: a scalar or enum, and no connection
                self._leaf(facts.named, self.s.kinds[facts.named])
            else:
                self.ensure_output(facts.named)
                self._connection_nodes(facts.named)
                if facts.many:
                    self._item_id(facts.named)
        if new and self.implements.get(owner) and self._reads_fragment(name):
            self.add_fragment_interfaces(owner, name)
        implementors = self.implemented_by.get(owner)
        if implementors:
            for implementor in list(implementors):
                self._copy_field(owner, implementor, name)
        if (arguments or new) and facts.offered and self.s.companions(owner, name):
            self._share_arguments(owner, name, arguments)
        if new and owner in self.s.write_owners:
            for taken in self.s.writes.references.get(name, ()):
                object_id = self.s.object_ids.get(taken)
                if taken in self.fields and object_id is not None:
                    self.add_field(taken, object_id)

    def add_fragment_interfaces(self, owner: str, name: str) -> None:
        """An object read through an interface (`account: Account` → `Collective`) shows its
        field on the other interfaces it implements that declare it and no field returns
        (`SchemaTables.fragment_interfaces`): `... on AccountWithHost { host }` is how an
        operation reads the host of whichever account it gets."""
        for interface in self._capabilities_without(owner, name):
            self.add_implements(owner, interface)
            self.add_field(interface, name)

    def _reads_fragment(self, name: str) -> bool:
        """Whether a field shown on an object shows on its capability interfaces too: from a
        rung of `OPERATION_ROOM_FROM` every one (an operation selects them whatever the
        question says), from `EARLY_COMPLETION_FROM` one the question names by a word of its
        name ("which fiscal host does collective pixel-parade have": `host`), a function word
        none ("Is …" names no `isApproved`)."""
        if self.budget >= OPERATION_ROOM_FROM:
            return True
        return self.budget >= EARLY_COMPLETION_FROM and not self.words.isdisjoint(
            self.s.naming_words(name)
        )

    def _capabilities_without(self, owner: str, name: str) -> list[str]:
        """The capability interfaces of `owner` that declare its field `name` and do not
        show it yet."""
        return [
            interface
            for interface in self.s.fragment_interfaces.get(owner, ())
            if name in self.s.facts[interface] and name not in self.fields.get(interface, {})
        ]

    def fragment_reads(self) -> list[tuple[str, str]]:
        """The fields shown on objects read through an interface that an interface no field
        returns declares and does not show yet (`add_fragment_interfaces`)."""
        capable = self.s.fragment_interfaces
        return [
            (owner, name)
            for owner, shown in self.fields.items()
            if owner in capable and self.implements.get(owner)
            for name in shown
            if self._reads_fragment(name) and self._capabilities_without(owner, name)
        ]

    def _share_arguments(self, owner: str, name: str, added: Sequence[str]) -> None:
        """A field and its companions (`SchemaTables.companions`) show the same optional
        arguments: the ones just `added` to this field go to its companions in the slice that
        take them, and this field takes those its companions show."""
        shown = self.fields[owner]
        pulled: list[str] = []
        for sibling, shared in self.s.companions(owner, name):
            arguments = shown.get(sibling)
            if arguments is None:
                continue  # not in the slice
            pushed = [a for a in added if a in shared and a not in arguments]
            if pushed:
                self.add_field(owner, sibling, pushed)
            pulled += [
                a for a in arguments if a in shared and a not in shown[name] and a not in pulled
            ]
        if pulled:
            self.add_field(owner, name, pulled)

    def _item_id(self, type_name: str) -> None:
        """The objects a list or connection field returns show their `id` (`object_ids`)
        when their type has no other identifier (`SchemaTables.identifiers`: a number, a
        path): a client tells a list's items apart, and caches them, by it. Items of an
        interface type (`[NewMeeting!]`) show the interface's, which every implementation
        in the slice then repeats."""
        item = self.s.node_types.get(type_name, type_name)
        object_id = self.s.object_ids.get(item)
        if (
            object_id is not None
            and item in self.fields
            and self.s.kinds.get(item) in ("object", "interface")
            and not self.s.identifiers.get(item)
        ):
            self.add_field(item, object_id)

    def _connection_nodes(self, type_name: str) -> None:
        """A Relay connection shows its way to its nodes (`nodes`, another list of them, or
        `edges { node }`: `connections.node_ways`): with its node type in, the next hits on
        that type cost only their lines."""
        for owner, name in self.s.node_ways.get(type_name, ()):
            self.add_field(owner, name)

    def pageable(self) -> list[tuple[str, str]]:
        """Lists in the slice, not yet paged (`page_arguments` not all shown, or no
        `pageInfo` on their connection), whose items the question asks a set of (it names
        their type in the plural): it may need more than one page of them. A question that
        pages ("20 per page", "ten at a time") pages the lists of its hits' types too
        (`_hit_items`), and so does any question from a rung of `OPERATION_ROOM_FROM`: a
        client reads a list it shows page by page though the question does not say so. A
        list whose connection's `pageInfo` the slice shows already (a hit, or another list
        of that connection paged) shows its cursor too: the end cursor shown is read back
        through it; not for a question that pages, which pages its hits' lists alone, by
        every paging argument."""
        found = []
        pages = PAGING_MARK in self.words or self.budget >= OPERATION_ROOM_FROM
        for owner, shown in list(self.fields.items()):
            own = self.s.facts[owner]
            for name, arguments in shown.items():
                facts = own[name]
                wanted = self.page_arguments(facts)
                if not wanted:
                    continue
                items = self.s.node_types.get(facts.named, facts.named)
                page_info = self.s.facts.get(facts.named, {}).get("pageInfo")
                info_shown = "pageInfo" in self.fields.get(facts.named, {})
                asked = items in self.many or (pages and self._hit_items(items))
                if not asked and not (info_shown and PAGING_MARK not in self.words):
                    continue
                if any(a not in arguments for a in wanted) or (
                    page_info is not None and not info_shown
                ):
                    found.append((owner, name))
        return found

    def _hit_items(self, items: str) -> bool:
        """Whether a list's items are of a ranked hit's type, or may be (a union or interface
        one of whose types is)."""
        hits = self.hit_types
        return items in hits or any(t in hits for t in self.s.possible.get(items, ()))

    def page_arguments(self, facts: FieldFacts) -> tuple[str, ...]:
        """The arguments a list is paged by: Relay's cursor (`after`); for a question that
        pages, every paging argument the list takes (`SchemaTables.paging_arguments`: back
        as well as forward, `limit` and `offset`)."""
        if PAGING_MARK not in self.words:
            cursor = facts.many and PAGE_CURSOR_ARGUMENT in facts.arguments
            return (PAGE_CURSOR_ARGUMENT,) if cursor else ()
        if self.s.page_size not in facts.arguments:
            return ()
        paging = self.s.paging_arguments
        return tuple(a for a in facts.arguments if a in paging)

    def add_paging(self, owner: str, name: str) -> None:
        """A list shows its paging arguments (`page_arguments`) and its connection `pageInfo
        { hasNextPage endCursor }`: the next page starts after the end cursor (Relay's cursor
        connections)."""
        facts = self.s.facts[owner][name]
        self.add_field(owner, name, self.page_arguments(facts))
        connection = facts.named
        page_info = self.s.facts.get(connection, {}).get("pageInfo")
        if page_info is None:
            return
        self.add_field(connection, "pageInfo")
        own = self.s.facts.get(page_info.named, {})
        for field in PAGE_INFO_FIELDS:
            if field in own:
                self.add_field(page_info.named, field)

    def _copy_field(self, interface: str, implementor: str, name: str) -> None:
        """An implementor carries the interface's field with at least its arguments."""
        self.add_field(implementor, name, self.fields[interface][name])
        wanted = self.s.facts[interface][name].named
        actual = self.s.facts[implementor][name].named
        if wanted != actual:
            self.link(wanted, actual)  # a covariant return type must stay a subtype

    # --- subtyping ------------------------------------------------------------------------

    def link(self, abstract: str, concrete: str) -> None:
        """`concrete` is reached through `abstract` (an inline fragment): make that valid."""
        kind = self.s.kinds[abstract]
        if kind == "union":
            self.ensure_output(abstract)
            if concrete not in self.unions[abstract]:
                self.unions[abstract].append(concrete)
                self._union_line(abstract)
                self.ensure_output(concrete)
        elif kind == "interface":
            self.add_implements(concrete, abstract)

    def _entered(self, type_name: str) -> None:
        """A type entering the slice shows its fields into a union or interface through which
        a ranked hit's type is reached, and the caller's context root that returns it; the
        slice stays closed under subtyping: a type in the slice with a union or interface it
        belongs to is declared so, so any fragment valid in the full schema between two types
        of the slice is valid in the slice too."""
        if self.hit_types:
            self._abstract_ways_out(type_name)
        if type_name in self.s.context_roots:
            # The caller's own entry point to a type in the slice (`viewer: User!`) costs a
            # line and is how a question without an identifier reaches it.
            query_root = self.s.corpus.query_root
            for name in self.s.context_roots[type_name]:
                if query_root and name not in self.fields.get(query_root, {}):
                    self.add_field(query_root, name)
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

    def _abstract_ways_out(self, type_name: str) -> None:
        """A type entering the slice shows its fields into a union or interface through
        which a ranked hit's type in the slice is reached (`Ref.target: GitObject` once
        `Commit` has a hit): the way an operation takes is among them whatever the ranking."""
        hit_types = self.hit_types
        for name, abstract in self.s.abstract_out.get(type_name, ()):
            possible = self.s.possible.get(abstract, frozenset())
            # Most abstract types lead to no hit's type: one set operation tells.
            if possible.isdisjoint(hit_types) or name in self.fields[type_name]:
                continue
            self.add_field(type_name, name)
            for member in [m for m in hit_types if m in possible]:
                self.link(abstract, member)

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

    # --- types ----------------------------------------------------------------------------

    def ensure_output(self, type_name: str) -> None:
        """An output type in the slice: an object or interface with its filler leaves, a
        union with its best-scoring member and every member already in, a leaf type."""
        kind = self.s.kinds.get(type_name, "other")
        if kind in ("object", "interface"):
            if type_name not in self.fields:
                self.fields[type_name] = {}
                self._header(type_name)
                for name in self._fillers(type_name):
                    self.add_field(type_name, name)
                self._entered(type_name)
        elif kind == "union":
            if type_name not in self.unions:
                self._enter_union(type_name)
        else:
            self._leaf(type_name, kind)

    def _enter_union(self, union: str) -> None:
        """A union needs one member to be valid: the one whose best field scores highest."""
        self.unions[union] = []
        members = self.s.union_members(union)
        values = self.values
        member = max(
            members, key=lambda item: max(map(values.__getitem__, item[1]), default=0.0)
        )[0]
        self.unions[union].append(member)
        self._union_line(union)
        self.ensure_output(member)
        for other in [name for name, _ in members if name in self.fields]:
            if other not in self.unions[union]:
                self.unions[union].append(other)
        self._union_line(union)

    def _fillers(self, type_name: str) -> list[str]:
        """The fields a type shows when it enters the slice (at least one): its best leaves
        by the question's scores (an interface none: every implementation in the slice
        repeats its fields), its identifiers and its labels, which reference operations
        select to name a result though the question does not, and for a type the question
        asks a set of, its `id` and its state (`SchemaTables.states`)."""
        values = self.values
        facts = self.s.facts[type_name]
        leaves, positions = self.s.free_leaves(type_name)
        if leaves:
            # Best score first, in definition order among ties (the sort is stable, reversed
            # too); the scores and the key are C calls, not Python code per leaf.
            scores = list(map(values.__getitem__, positions))
            ranked = sorted(range(len(leaves)), key=scores.__getitem__, reverse=True)
            wanted = 0 if self.s.kinds[type_name] == "interface" else FILLER_LEAVES
            chosen = [leaves[i] for i in ranked[:wanted] if scores[i] >= 0.0]
            chosen += [n for n in self.s.identifiers.get(type_name, ()) if n not in chosen]
            chosen += [n for n in self.s.labels.get(type_name, ()) if n not in chosen]
            object_id = self.s.object_ids.get(type_name)
            if type_name in self.many and object_id is not None and object_id not in chosen:
                # A set's objects are told apart by their `id` (Relay's object identification),
                # though it is opaque: an answer listing them selects it.
                chosen.append(object_id)
            state = self.s.states.get(type_name)
            if type_name in self.many and state is not None and state not in chosen:
                # …and a set is read by its objects' state (open, merged, failed).
                chosen.append(state)
            chosen += [n for n in self._for_writes(type_name) if n not in chosen]
            if not chosen and wanted == 0 and type_name in self.s.node_ways:
                # A connection's way to its nodes is its field (`_connection_nodes` adds it).
                return []
            return chosen or [leaves[ranked[0]]]
        free = [name for name, f in facts.items() if f.free][:1]
        chosen = [*free, *(n for n in self._for_writes(type_name) if n not in free)]
        return chosen or list(facts)[:1]

    def _for_writes(self, type_name: str) -> list[str]:
        """What a type shows for the slice's writes (`schemanav.retrieval.slicing.writes`):
        its `id` when a write in the slice takes its objects by it, the list through which a
        payload reports failure (`errors`), the field through which it returns the object
        its write changes, and an edge returning that object its `node`."""
        writes = {name for owner in self.s.write_owners for name in self.fields.get(owner, ())}
        if not writes:  # most slices: the tables below are made only once a write is in one
            return []
        found = []
        takers = self.s.writes.id_takers.get(type_name)
        object_id = self.s.object_ids.get(type_name)
        if object_id is not None and takers and not takers.isdisjoint(writes):
            found.append(object_id)
        errors = self.s.writes.payload_errors.get(type_name)
        if errors is not None:
            found.append(errors)
        if self.hits <= TOP_ARGUMENTS:
            found += self.s.writes.payload_objects.get(type_name, ())
        if type_name in self.s.writes.answer_edges:
            found.append("node")
        return found

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
            if not argument:
                # An output enum needs one value to be valid; show those the question names.
                # Arguments take every value (operations and default values use them).
                named = [v for v in values if not self.words.isdisjoint(self.s.value_words(v))]
                values = named or values[:1]
            body = "".join(f"{self.s.indent}{v}\n" for v in values)
            mark = cut_mark(type_name, len(self.s.enum_values[type_name]) - len(values))
            self._set_line(("e", type_name), f"{mark}enum {type_name} {{\n{body}}}\n\n")

    def ensure_input(self, type_name: str, every: bool = False, capped: bool = False) -> None:
        """An argument's type; input objects keep their required fields and those the
        question names (not a deprecated one: an operation should not give it), or `every`
        field when a default value may name any of them. An enum
        that a field's argument without a default takes directly (`capped`) and that has
        more than `ARGUMENT_ENUM_CAP` values shows those the question names (or one), as an
        output enum does: an operation can use only those, each a value of the full enum."""
        kind = self.s.kinds.get(type_name, "other")
        if kind != "input":
            if type_name not in self.full_enums:
                if (
                    capped
                    and not every
                    and kind == "enum"
                    and len(self.s.enum_values[type_name]) > ARGUMENT_ENUM_CAP
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
            or value.required
            or (not value.deprecated and not self.words.isdisjoint(self.s.value_words(name)))
            or (had is not None and name in had)
        ] or list(fields)[:1]
        self.inputs[type_name] = chosen
        body = "".join(f"{self.s.indent}{fields[n].text}\n" for n in chosen)
        self._set_line(("i", type_name), f"input {type_name} {{\n{body}}}\n\n")
        for name in chosen:
            if had is None or name not in had:
                self.ensure_input(fields[name].named_type, every=fields[name].has_default)
