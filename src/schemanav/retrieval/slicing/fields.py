"""What slicing needs of one output field (`FieldFacts`), computed once per schema by
`SchemaTables` and read by every slice."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class FieldFacts:
    """What slicing needs of one output field, computed once per schema."""

    position: int
    arguments: tuple[str, ...]
    required: tuple[str, ...]
    argument_types: tuple[str, ...]
    argument_texts: tuple[str, ...]
    defaults: tuple[bool, ...]
    offered: tuple[str, ...]
    return_type: str
    named: str
    many: bool
    free: bool
    leaf: bool
    description: str | None
    line: str  # its SDL line without arguments (most fields show none)


# A name in code marks inside a text: a deprecation reason's replacement ("Use `uid` instead.").
_CODE_NAME = re.compile(r"`(\w+)`")


def object_id(
    fields: Mapping[str, FieldFacts], deprecation: Callable[[int], str | None]
) -> str | None:
    """The field that identifies a type's objects for a client's cache and a write's
    arguments: `id` (Relay's object identification), unless it is deprecated (an agent should
    not select it), when the field its reason names in code marks replaces it (Magento's
    `id: Int @deprecated(reason: "Use the `uid` field instead.")`); else the type's one
    non-null `ID` leaf without arguments that is not deprecated, whatever its name (`_id`,
    `uuid`). None when there is no such field."""

    own = fields.get("id")
    if own is not None and own.free and own.leaf:
        reason = deprecation(own.position)
        if not reason:
            return "id"
        named: list[str] = [
            name
            for name in _CODE_NAME.findall(reason)
            if (facts := fields.get(name)) is not None
            and facts.free
            and facts.leaf
            and not deprecation(facts.position)
        ]
        if named:
            return named[0]
    ids = [
        name
        for name, facts in fields.items()
        if facts.free and facts.return_type == "ID!" and not deprecation(facts.position)
    ]
    return ids[0] if len(ids) == 1 else None
