"""`listFields`: one type, one line per field, for agents that cannot afford `introspectType`.

A line holds the field's name, its required arguments with their types, its return type and,
when deprecated, the reason. Optional arguments and descriptions are left out: that is what
makes it cheap, and `introspectType` has them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphql import GraphQLNamedType


def list_fields(named: GraphQLNamedType) -> str:
    """The type as `listFields` shows it (objects, interfaces, unions, enums, inputs, scalars)."""
    from graphql import (
        GraphQLEnumType,
        GraphQLInputObjectType,
        GraphQLInterfaceType,
        GraphQLObjectType,
        GraphQLUnionType,
        Undefined,
        is_non_null_type,
    )

    if isinstance(named, GraphQLUnionType):
        members = ", ".join(member.name for member in named.types)
        return f"union {named.name} = {members} (select their fields with `... on Type`)"
    if isinstance(named, GraphQLEnumType):
        values = [
            name + (" (deprecated)" if value.deprecation_reason else "")
            for name, value in named.values.items()
        ]
        return f"enum {named.name}: {', '.join(values)}"
    if isinstance(named, GraphQLInputObjectType):
        lines = [f"input {named.name}:"]
        for name, input_field in named.fields.items():
            needed = is_non_null_type(input_field.type) and input_field.default_value is Undefined
            lines.append(f"  {name}: {input_field.type}" + (" (required)" if needed else ""))
        return "\n".join(lines)
    if not isinstance(named, GraphQLObjectType | GraphQLInterfaceType):
        return f"scalar {named.name} (a leaf value: it has no fields)"
    kind = "interface" if isinstance(named, GraphQLInterfaceType) else "type"
    implements = ""
    if named.interfaces:
        implements = " implements " + " & ".join(i.name for i in named.interfaces)
    lines = [f"{kind} {named.name}{implements} (required arguments only):"]
    for name, definition in named.fields.items():
        required = [
            f"{arg_name}: {arg.type}"
            for arg_name, arg in definition.args.items()
            if is_non_null_type(arg.type) and arg.default_value is Undefined
        ]
        arguments = f"({', '.join(required)})" if required else ""
        line = f"  {name}{arguments}: {definition.type}"
        if definition.deprecation_reason:
            line += f"  DEPRECATED: {' '.join(definition.deprecation_reason.split())}"
        lines.append(line)
    return "\n".join(lines)
