"""Where an input field sits inside an argument's value.

A slice shows `input ProductAttributeFilterInput { sku: FilterEqualTypeInput }`, and an agent
names `ProductAttributeFilterInput.sku` among the coordinates of the operation it wants. An
input field is never selected: it is a key of the value a variable sends. So the question a
builder asks is which argument's value can hold it, and under which keys; alike for an enum
value (`SortEnum.DESC`), a value sent at a key of its enum's type.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphql import GraphQLSchema, GraphQLType

MAX_INPUT_DEPTH = 8
"""Keys deep a value is searched (`where: { _and: [{ author: { name: { _eq } } }] }` is four):
input types nest recursively (`_and`, `_or`, `AND`), so the search needs an end."""


def input_path(
    schema: GraphQLSchema, argument_type: GraphQLType, coordinate: str
) -> tuple[str, ...] | None:
    """The fewest keys, inside a value of `argument_type`, down to the input field
    `coordinate` (`Type.field`, its last key): `("sku",)` when the argument's own type owns
    it, `("category_uid", "eq")` for `FilterEqualTypeInput.eq` inside a product filter. For an
    enum value (`SortEnum.DESC`), down to the first key holding that enum (`("price",)`), or
    `()` when the argument is of the enum itself. None when no value of that type holds it
    within `MAX_INPUT_DEPTH` keys. Lists are looked through: an element of `[SortInput!]` is
    a `SortInput`."""
    from graphql import get_named_type, is_enum_type, is_input_object_type

    owner, _, name = coordinate.partition(".")
    target = schema.get_type(owner)
    start = get_named_type(argument_type)
    if is_enum_type(target) and start is target:
        return ()
    if not is_input_object_type(start):
        return None
    seen = {start.name}
    queue: deque[tuple[str, tuple[str, ...]]] = deque([(start.name, ())])
    while queue:
        type_name, keys = queue.popleft()
        fields = getattr(schema.get_type(type_name), "fields", {})
        if is_enum_type(target):
            key = next((k for k, f in fields.items() if get_named_type(f.type) is target), None)
            if key is not None:
                return (*keys, key)
        elif type_name == owner and name in fields:
            return (*keys, name)
        if len(keys) + 1 >= MAX_INPUT_DEPTH:
            continue
        for key, input_field in fields.items():
            inner = get_named_type(input_field.type)
            if is_input_object_type(inner) and inner.name not in seen:
                seen.add(inner.name)
                queue.append((inner.name, (*keys, key)))
    return None
