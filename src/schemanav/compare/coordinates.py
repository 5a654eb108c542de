"""What changed between two versions of a schema, coordinate by coordinate.

Every schema coordinate (the RFC's names: `Type`, `Type.field`, `Type.field(arg:)`,
`Input.field`, `Enum.VALUE`, `@directive`, `@directive(arg:)`) is reduced to the four facts an
agent reads of it: its type, its arguments, its deprecation and its description. Comparing
those facts gives the coordinates added, removed and changed. Whether a change breaks clients
is graphql-core's verdict (`find_breaking_changes`, `find_dangerous_changes`), not ours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import TYPE_CHECKING, Any

from schemanav.records import to_json

if TYPE_CHECKING:
    from graphql import GraphQLArgument, GraphQLInputField, GraphQLSchema

ASPECTS = ("type", "arguments", "deprecation", "description")
"""The facts of a coordinate that a change can touch, in the order they are reported."""


@dataclass(frozen=True)
class CoordinateFacts:
    """One coordinate as an agent reads it: `type` is a field's or argument's type (with its
    default value) or a named type's kind and members; `arguments` a field's or directive's
    argument list; `deprecation` the reason, or None when it is not deprecated."""

    coordinate: str
    kind: str
    type: str
    arguments: str
    deprecation: str | None
    description: str | None

    def aspect(self, name: str) -> str | None:
        value: str | None = getattr(self, name)
        return value


@dataclass(frozen=True)
class AspectChange:
    """One fact of a coordinate, before and after."""

    aspect: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class CoordinateChange:
    """A coordinate present in both versions whose facts differ."""

    coordinate: str
    kind: str
    changes: tuple[AspectChange, ...]

    @property
    def aspects(self) -> tuple[str, ...]:
        return tuple(change.aspect for change in self.changes)

    def as_dict(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class RemovedCoordinate:
    """A coordinate only the old version has; `renamed_to`: the one added coordinate of the
    same owner with the same type and arguments, when there is exactly one (a likely rename)."""

    coordinate: str
    kind: str
    renamed_to: str | None = None


@dataclass(frozen=True)
class SchemaChange:
    """graphql-core's finding: `severity` is `breaking` or `dangerous`, `type` its change type."""

    severity: str
    type: str
    description: str


@dataclass(frozen=True)
class CoordinateDiff:
    """Coordinates added, removed and changed (each sorted), and graphql-core's findings."""

    added: tuple[CoordinateFacts, ...]
    removed: tuple[RemovedCoordinate, ...]
    changed: tuple[CoordinateChange, ...]
    schema_changes: tuple[SchemaChange, ...]

    @property
    def breaking(self) -> tuple[SchemaChange, ...]:
        return tuple(c for c in self.schema_changes if c.severity == "breaking")

    @property
    def dangerous(self) -> tuple[SchemaChange, ...]:
        return tuple(c for c in self.schema_changes if c.severity == "dangerous")

    def touched(self) -> dict[str, str]:
        """Each removed or changed coordinate and how: `removed`, `renamed to X`, or the
        changed aspects (`deprecation, description`)."""
        how: dict[str, str] = {}
        for gone in self.removed:
            how[gone.coordinate] = (
                f"renamed to {gone.renamed_to}?" if gone.renamed_to else "removed"
            )
        for change in self.changed:
            how[change.coordinate] = "changed " + ", ".join(change.aspects)
        return how

    def redacted(self, redact: Callable[[str], str]) -> CoordinateDiff:
        """This diff with `redact` applied to every text in it (descriptions, types with their
        default values, deprecation reasons, graphql-core's findings): a live schema may echo
        a credential into any of them, and the tables cut them short, which must come after."""
        redacted: CoordinateDiff = _redacted(self, redact)
        return redacted

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": [{"coordinate": f.coordinate, "kind": f.kind} for f in self.added],
            "removed": [to_json(gone) for gone in self.removed],
            "changed": [change.as_dict() for change in self.changed],
            "breaking": [to_json(change) for change in self.breaking],
            "dangerous": [to_json(change) for change in self.dangerous],
        }


def diff_schemas(old: GraphQLSchema, new: GraphQLSchema) -> CoordinateDiff:
    """Every coordinate added, removed or changed from `old` to `new`, with graphql-core's
    breaking and dangerous changes."""
    from graphql import find_breaking_changes, find_dangerous_changes

    before, after = schema_facts(old), schema_facts(new)
    added = tuple(after[name] for name in sorted(after.keys() - before.keys()))
    removed = tuple(
        RemovedCoordinate(name, before[name].kind, _renamed_to(before[name], added))
        for name in sorted(before.keys() - after.keys())
    )
    changed = tuple(
        change
        for name in sorted(before.keys() & after.keys())
        if (change := _change(before[name], after[name])) is not None
    )
    findings = [
        SchemaChange("breaking", c.type.name, c.description)
        for c in find_breaking_changes(old, new)
    ]
    findings += [
        SchemaChange("dangerous", c.type.name, c.description)
        for c in find_dangerous_changes(old, new)
    ]
    return CoordinateDiff(added, removed, changed, tuple(findings))


def _change(before: CoordinateFacts, after: CoordinateFacts) -> CoordinateChange | None:
    changes = tuple(
        AspectChange(aspect, before.aspect(aspect), after.aspect(aspect))
        for aspect in ASPECTS
        if before.aspect(aspect) != after.aspect(aspect)
    )
    return CoordinateChange(after.coordinate, after.kind, changes) if changes else None


def _owner(coordinate: str) -> str:
    return coordinate.partition("(")[0].rpartition(".")[0]


def _renamed_to(gone: CoordinateFacts, added: tuple[CoordinateFacts, ...]) -> str | None:
    """The single added coordinate of the same owner and kind with the same type and
    arguments, if exactly one: a rename as a reader would guess it (a hint, not a fact)."""
    owner = _owner(gone.coordinate)
    if not owner:
        return None
    twins = [
        facts.coordinate
        for facts in added
        if facts.kind == gone.kind
        and _owner(facts.coordinate) == owner
        and (facts.type, facts.arguments) == (gone.type, gone.arguments)
    ]
    return twins[0] if len(twins) == 1 else None


def schema_facts(schema: GraphQLSchema) -> dict[str, CoordinateFacts]:
    """Every coordinate of `schema` (introspection types and specified directives left out)."""
    return {facts.coordinate: facts for facts in _all_facts(schema)}


def _all_facts(schema: GraphQLSchema) -> Iterator[CoordinateFacts]:
    from graphql import is_introspection_type, is_specified_directive

    for name, named in schema.type_map.items():
        if not is_introspection_type(named):
            yield from _type_facts(name, named)
    for directive in schema.directives:
        if is_specified_directive(directive):
            continue
        coordinate = f"@{directive.name}"
        yield CoordinateFacts(
            coordinate,
            "directive",
            " | ".join(sorted(location.name for location in directive.locations)),
            _argument_list(directive.args),
            None,
            directive.description,
        )
        yield from _argument_facts(coordinate, directive.args, "directive argument")


def _type_facts(name: str, named: Any) -> Iterator[CoordinateFacts]:
    from graphql import (
        is_enum_type,
        is_input_object_type,
        is_interface_type,
        is_object_type,
        is_union_type,
    )

    yield CoordinateFacts(name, "type", _type_shape(named), "", None, named.description)
    if is_object_type(named) or is_interface_type(named):
        for field_name, field in named.fields.items():
            coordinate = f"{name}.{field_name}"
            yield CoordinateFacts(
                coordinate,
                "field",
                str(field.type),
                _argument_list(field.args),
                field.deprecation_reason,
                field.description,
            )
            yield from _argument_facts(coordinate, field.args, "argument")
    elif is_input_object_type(named):
        for field_name, input_field in named.fields.items():
            yield _input_facts(f"{name}.{field_name}", "input field", input_field)
    elif is_enum_type(named):
        for value_name, value in named.values.items():
            yield CoordinateFacts(
                f"{name}.{value_name}",
                "enum value",
                name,
                "",
                value.deprecation_reason,
                value.description,
            )
    elif is_union_type(named):
        return


def _type_shape(named: Any) -> str:
    """`OBJECT implements Node`, `UNION = Movie | Person`, `ENUM`: what kind of type, and the
    types it is tied to."""
    from graphql import is_union_type

    kind: str = type(named).__name__.removeprefix("GraphQL").removesuffix("Type").upper()
    kind = {"INPUTOBJECT": "INPUT_OBJECT"}.get(kind, kind)
    if is_union_type(named):
        return f"{kind} = " + " | ".join(member.name for member in named.types)
    interfaces = getattr(named, "interfaces", ())
    if interfaces:
        return f"{kind} implements " + " & ".join(face.name for face in interfaces)
    return kind


def _argument_facts(
    owner: str, arguments: Mapping[str, GraphQLArgument], kind: str
) -> Iterator[CoordinateFacts]:
    for name, argument in arguments.items():
        yield _input_facts(f"{owner}({name}:)", kind, argument)


def _input_facts(
    coordinate: str, kind: str, value: GraphQLArgument | GraphQLInputField
) -> CoordinateFacts:
    return CoordinateFacts(
        coordinate,
        kind,
        _input_type(value),
        "",
        value.deprecation_reason,
        value.description,
    )


def _input_type(value: GraphQLArgument | GraphQLInputField) -> str:
    """`Int = 20`: an argument's or input field's type, with its default value if any."""
    from graphql import print_ast
    from graphql.utilities import get_default_value_ast

    default = get_default_value_ast(value)
    return f"{value.type} = {print_ast(default)}" if default else str(value.type)


def _argument_list(arguments: Mapping[str, GraphQLArgument]) -> str:
    return ", ".join(f"{name}: {_input_type(argument)}" for name, argument in arguments.items())


def _redacted(value: Any, redact: Callable[[str], str]) -> Any:
    """`value` (a string, a tuple, a frozen dataclass of them, or None) with every string
    redacted."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, tuple):
        return tuple(_redacted(item, redact) for item in value)
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _redacted(getattr(value, f.name), redact) for f in fields(value)}
        return replace(value, **changes)
    return value
