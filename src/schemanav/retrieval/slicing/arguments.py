"""What a list's arguments say of the objects it returns, in the schema's own words.

Ways into a set that no field's name or type shows:

- A set of objects no list returns is selected by an argument: git tags are the refs whose
  name starts `refs/tags/` (`Repository.refs(refPrefix:)`, described as taking "`refs/heads/`,
  `refs/tags/`, etc."). A list whose argument descriptions name a type is a way to that type's
  objects (`ArgumentTables.described_lists`).
- A question that names a value an enum argument of a list takes ("open", "successful") asks
  for the objects the list filters by it (`ArgumentTables.names_a_filter`).
- A list into a union or interface filtered by an enum whose values name its possible types
  (`timelineItems(itemTypes: [REOPENED_EVENT])`) returns objects of the types the chosen
  values name: a question naming the value asks for that type (`ArgumentTables.filtered_members`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemanav.retrieval.slicing.tables import SchemaTables

RELAY_PAGING = frozenset({"first", "after", "last", "before"})
"""The Relay cursor-connections specification's paging arguments: every connection describes
them alike, so their descriptions say nothing of the objects a list returns."""


class ArgumentTables:
    """The arguments' words and values of one schema's lists, each made once a slice asks."""

    def __init__(self, tables: SchemaTables) -> None:
        self.s = tables
        self._values: dict[tuple[str, str], tuple[tuple[str, str, frozenset[str]], ...]] = {}

    @cached_property
    def _described(self) -> dict[tuple[str, str], frozenset[str]]:
        """Each list's or connection's words of its arguments' descriptions, paging's aside
        (each distinct description analysed once: most repeat across the schema)."""
        s = self.s
        seen: dict[str, frozenset[str]] = {}
        found: dict[tuple[str, str], frozenset[str]] = {}
        for owner, fields in s.facts.items():
            for name, facts in fields.items():
                if not facts.many or not facts.arguments:
                    continue
                words: set[str] = set()
                for argument in s.corpus.entries[facts.position].arguments:
                    text = argument.description
                    if not text or argument.name in RELAY_PAGING:
                        continue
                    if text not in seen:
                        seen[text] = frozenset(s.words(text))
                    words |= seen[text]
                if words:
                    found[owner, name] = frozenset(words)
        return found

    def described_lists(self, target: str) -> list[tuple[str, str]]:
        """(owner, field) of every list whose arguments' descriptions say each word of
        `target`'s name and whose items lead to `target` by one of their fields: "tags" for
        `Tag` in `refs(refPrefix:)`'s "`refs/tags/`", as a `Ref`'s `target: GitObject` may be
        a `Tag`."""
        wanted = set(self.s.words(target))
        return [
            way
            for way, words in self._described.items()
            if wanted <= words and self._items_lead_to(*way, target)
        ]

    def _items_lead_to(self, owner: str, name: str, target: str) -> bool:
        """Whether a field of the items of the list `owner.name` returns `target`, or a
        union or interface that `target` is one of."""
        s = self.s
        returned = s.facts[owner][name].named
        items = s.facts.get(s.node_types.get(returned, returned), {})
        return any(
            field.named == target or target in s.possible.get(field.named, ())
            for field in items.values()
        )

    def filtered_members(
        self, owner: str, name: str, arguments: Collection[str], words: Collection[str]
    ) -> list[tuple[str, str]]:
        """(type, abstract type) for each value of an enum argument among `arguments` of the
        list `owner.name` that the question's `words` name (`_telling`) and that names one of
        the possible types of the union or interface the list returns (`REOPENED_EVENT`,
        `ReopenedEvent`)."""
        named = [
            value
            for argument, value, telling in self._telling(owner, name)
            if argument in arguments and telling.issubset(words)
        ]
        s = self.s
        returned = s.facts[owner][name].named
        abstract = s.node_types.get(returned, returned)
        possible = s.possible.get(abstract) if named else None
        if not possible:
            return []
        by_name = {type_name.lower(): type_name for type_name in possible}
        members = (by_name.get(value.replace("_", "").lower()) for value in named)
        return [(member, abstract) for member in members if member is not None]

    def names_a_filter(self, owner: str, name: str, words: Collection[str]) -> bool:
        """Whether the question's `words` name a value of one of the enum arguments of the
        list `owner.name` (`_telling`): "successful" for `jobs(statuses: [SUCCESS])`."""
        return any(telling.issubset(words) for _, _, telling in self._telling(owner, name))

    def _telling(self, owner: str, name: str) -> tuple[tuple[str, str, frozenset[str]], ...]:
        """(argument, value, telling words) for each value of the enum arguments of the list
        `owner.name` (none for a field returning one object). A value's telling words are
        its words but those of the list's own name and items' type and those half the
        enum's values share (`EVENT` in `REOPENED_EVENT`); a value with none is never named."""
        key = (owner, name)
        cached = self._values.get(key)
        if cached is None:
            s = self.s
            facts = s.facts[owner][name]
            enums = [
                (argument, enum)
                for argument, enum in zip(facts.arguments, facts.argument_types, strict=True)
                if facts.many and s.kinds.get(enum) == "enum"
            ]
            # The list's own words are analysed only for a list with an enum argument.
            own = (
                set(s.words(f"{name} {s.node_types.get(facts.named, facts.named)}"))
                if enums
                else set()
            )
            found = []
            for argument, enum in enums:
                values = s.enum_values[enum]
                shared = Counter(word for value in values for word in s.value_words(value))
                for value in values:
                    telling = frozenset(
                        w for w in s.value_words(value) - own if shared[w] * 2 < len(values)
                    )
                    if telling:
                        found.append((argument, value, telling))
            cached = self._values[key] = tuple(found)
        return cached
