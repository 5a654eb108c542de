"""A schema's subtyping as slices read it: the unions each type is a member of, the interfaces
each type implements and the types implementing each interface, and each object's
capabilities that no field returns (`... on AccountWithHost { host }`); and the association
objects its names tell (`ProductMedia`, named for `Product` and `Media`, holds a `Media`);
computed once per schema.

`SchemaTables` takes these tables from `SubtypingTables`, which reads its field facts, kinds,
corpus and schema facts.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property

from schemanav.retrieval.slicing.conventions import ArgumentConventions
from schemanav.retrieval.slicing.params import CAPABILITY_SHARE


class SubtypingTables(ArgumentConventions):
    """The subtyping tables of one schema (see the module's docstring)."""

    def _subtyping(self) -> None:
        """Unions by member (`member_of`), interfaces by type and types by interface."""
        self.member_of: dict[str, list[str]] = defaultdict(list)
        self.interfaces_of: dict[str, list[str]] = {}
        self.implementors: dict[str, list[str]] = defaultdict(list)
        for name, kind in self.kinds.items():
            if kind == "union":
                # A union's possible types are its members, in declaration order.
                for member in self.corpus.possible_types.get(name, ()):
                    self.member_of[member].append(name)
            elif kind in ("object", "interface"):
                interfaces = list(self.schema_facts.interfaces.get(name, ()))
                self.interfaces_of[name] = interfaces
                for interface in interfaces:
                    self.implementors[interface].append(name)

    @cached_property
    def fragment_interfaces(self) -> dict[str, list[str]]:
        """Each object's capabilities (`CAPABILITY_SHARE`) that no field returns: an
        operation reads their fields only through a fragment on one (`... on AccountWithHost
        { host }`)."""
        returned = {field.named for own in self.facts.values() for field in own.values()}
        found = {
            name: [
                interface
                for interface in interfaces
                if interface not in returned
                and len(self.facts[interface]) <= CAPABILITY_SHARE * len(self.facts[name])
            ]
            for name, interfaces in self.interfaces_of.items()
            if self.kinds[name] == "object"
        }
        return {name: interfaces for name, interfaces in found.items() if interfaces}

    @cached_property
    def associations(self) -> dict[str, str]:
        """Per association object, the field to what it holds: a type named for two others
        (`ProductMedia` for `Product` and `Media`, `TeamPipeline`, `PullRequestCommit`) whose
        one field returning the second (`file: Media`) is what it is about; its own leaves
        (a sort key, tags) only place it."""
        kinds = self.kinds
        found: dict[str, str] = {}
        for owner, fields in self.facts.items():
            if kinds.get(owner) != "object":
                continue
            held = [
                (name, facts.named)
                for name, facts in fields.items()
                if facts.free
                and not facts.many
                and kinds.get(facts.named) == "object"
                and facts.named != owner
                and owner.endswith(facts.named)
                and kinds.get(owner[: -len(facts.named)]) in ("object", "interface")
            ]
            if len(held) == 1:
                name, target = held[0]
                if sum(facts.named == target for facts in fields.values()) == 1:
                    found[owner] = name
        return found
