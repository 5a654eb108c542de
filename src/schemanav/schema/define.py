"""`__definitions` from the semantic-introspection RFC, as a library call.

Coordinates in (`Type`, `Type.field`, `Type.field(arg:)`, `Enum.VALUE`, `@directive`,
`@directive(arg:)`), their definitions out in the same order: as SDL cut down to the named
element, or as the records the standard introspection query returns for it.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.cache import DEFINITION_CACHE, read_matching, sha256_hex, write_checked
from schemanav.schema.stored_schema import StoredIntrospection, decode, encode
from schemanav.wording import closest

if TYPE_CHECKING:
    from graphql import GraphQLSchema


NOT_A_COORDINATE = (
    "not a schema coordinate (write Type, Type.field, Type.field(arg:), Enum.VALUE or @directive)"
)


@dataclass(frozen=True)
class Definition:
    """One coordinate's definition; `error` is set (and the rest empty) when it is unknown."""

    coordinate: str
    kind: str | None
    sdl: str | None
    record: dict[str, Any] | None
    error: str | None = None
    did_you_mean: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        if self.error:
            return {
                "coordinate": self.coordinate,
                "error": self.error,
                "did_you_mean": list(self.did_you_mean),
            }
        return {"coordinate": self.coordinate, "kind": self.kind, "definition": self.record}


def define(schema: GraphQLSchema, coordinates: list[str]) -> list[Definition]:
    return [define_one(schema, coordinate.strip()) for coordinate in coordinates]


def define_one(schema: GraphQLSchema, coordinate: str) -> Definition:
    from graphql import GraphQLError, GraphQLSyntaxError, resolve_schema_coordinate

    try:
        resolved: Any = resolve_schema_coordinate(schema, coordinate)
    except GraphQLSyntaxError:
        return _unknown(schema, coordinate, NOT_A_COORDINATE)
    except (GraphQLError, TypeError):
        resolved = None
    if resolved is None:
        return _unknown(schema, coordinate, "no such element in the schema")
    kind = resolved.kind
    try:
        sdl = without_empty_descriptions(_sdl(resolved))
        record = _record(schema, resolved)
    except StopIteration:  # the member is not among the type's own: a meta-field
        return _unknown(
            schema, coordinate, "a meta-field GraphQL adds to every type, not part of its SDL"
        )
    except (TypeError, ValueError, KeyError, RuntimeError, RecursionError) as err:
        # Never a crash for one coordinate: report it and go on with the others.
        return _unknown(schema, coordinate, f"cannot be printed ({type(err).__name__})")
    return Definition(coordinate=coordinate, kind=kind, sdl=sdl, record=record)


def introspection_item(schema: GraphQLSchema, coordinate: str) -> Any:
    """The object graphql-core's introspection types resolve for `coordinate`: a named type
    (`__Type`), a directive (`__Directive`), or a `(name, member)` pair for a field
    (`__Field`), an argument or input field (`__InputValue`) or an enum value (`__EnumValue`).

    Raises `LookupError` whose message says why, with the closest coordinates.
    """
    from graphql import GraphQLError, GraphQLSyntaxError, resolve_schema_coordinate

    coordinate = coordinate.strip()
    error = "no such element in the schema"
    try:
        resolved: Any = resolve_schema_coordinate(schema, coordinate)
    except GraphQLSyntaxError:
        resolved, error = None, NOT_A_COORDINATE
    except (GraphQLError, TypeError):
        resolved = None
    if resolved is None:
        closest = closest_coordinates(schema, coordinate)
        hint = f" (did you mean {', '.join(closest)}?)" if closest else ""
        raise LookupError(f"{coordinate}: {error}{hint}")
    kind = resolved.kind
    if kind == "NamedType":
        return resolved.type
    if kind == "Directive":
        return resolved.directive
    if kind == "DirectiveArgument":
        arg = resolved.directive_argument
        return (_member_name(resolved.directive.args, arg), arg)
    if kind == "EnumValue":
        return (_member_name(resolved.type.values, resolved.enum_value), resolved.enum_value)
    if kind == "InputField":
        return (_member_name(resolved.type.fields, resolved.input_field), resolved.input_field)
    if kind == "FieldArgument":
        arg = resolved.field_argument
        return (_member_name(resolved.field.args, arg), arg)
    return (_member_name(resolved.type.fields, resolved.field), resolved.field)


def _unknown(schema: GraphQLSchema, coordinate: str, error: str) -> Definition:
    return Definition(
        coordinate=coordinate,
        kind=None,
        sdl=None,
        record=None,
        error=error,
        did_you_mean=tuple(closest_coordinates(schema, coordinate)),
    )


def closest_coordinates(schema: GraphQLSchema, coordinate: str, limit: int = 3) -> list[str]:
    """Existing coordinates that look most like `coordinate` (for "did you mean"): for an
    argument (`Query.movie(idd:)`), the arguments (`Query.movie(id:)`), not the fields."""
    if "(" in coordinate:
        return closest(coordinate, _argument_coordinates(schema), limit)
    return closest(coordinate, _all_coordinates(schema), limit)


@lru_cache(maxsize=4)
def _argument_coordinates(schema: GraphQLSchema) -> list[str]:
    names: list[str] = []
    for type_name, graphql_type in schema.type_map.items():
        if type_name.startswith("__"):
            continue
        for field_name, field in (getattr(graphql_type, "fields", None) or {}).items():
            arguments = getattr(field, "args", None) or {}  # an input field has none
            names.extend(f"{type_name}.{field_name}({arg}:)" for arg in arguments)
    for directive in schema.directives:
        names.extend(f"@{directive.name}({arg}:)" for arg in directive.args)
    return names


@lru_cache(maxsize=4)
def _all_coordinates(schema: GraphQLSchema) -> list[str]:
    names: list[str] = []
    for type_name, graphql_type in schema.type_map.items():
        if type_name.startswith("__"):
            continue
        names.append(type_name)
        for member in (
            getattr(graphql_type, "fields", None) or getattr(graphql_type, "values", None) or {}
        ):
            names.append(f"{type_name}.{member}")
    names.extend(f"@{directive.name}" for directive in schema.directives)
    return names


# An empty description as graphql-core prints it: a line of its own holding `""""""` (or
# `""`), which no block string's text can be (its quotes would be escaped).
_EMPTY_DESCRIPTION = re.compile(r'^[ \t]*(?:""""""|"")[ \t]*\n', re.MULTILINE)


def without_empty_descriptions(sdl: str) -> str:
    """SDL without the empty descriptions of a schema introspected from a server that sends
    `"description": ""` for every element (Magento's has 709): lines that say nothing and
    cost an agent tokens."""
    return _EMPTY_DESCRIPTION.sub("", sdl)


def _sdl(resolved: Any) -> str:
    """The element printed as SDL, inside its type or directive but without its siblings."""
    from graphql import (
        GraphQLArgument,
        GraphQLDirective,
        GraphQLEnumType,
        GraphQLField,
        GraphQLInputObjectType,
        GraphQLInterfaceType,
        GraphQLObjectType,
        print_directive,
        print_type,
    )

    kind = resolved.kind
    if kind == "NamedType":
        return str(print_type(resolved.type))
    if kind == "Directive":
        return str(print_directive(resolved.directive))
    if kind == "DirectiveArgument":
        directive = resolved.directive
        only: dict[str, GraphQLArgument] = {
            name: arg for name, arg in directive.args.items() if arg is resolved.directive_argument
        }
        return str(
            print_directive(
                GraphQLDirective(
                    name=directive.name,
                    locations=directive.locations,
                    args=only,
                    is_repeatable=directive.is_repeatable,
                    description=directive.description,
                )
            )
        )
    owner = resolved.type
    if kind == "EnumValue":
        values = {
            name: value for name, value in owner.values.items() if value is resolved.enum_value
        }
        return _printed(GraphQLEnumType, owner.name, values)
    if kind == "InputField":
        fields = {
            name: value for name, value in owner.fields.items() if value is resolved.input_field
        }
        return _printed(GraphQLInputObjectType, owner.name, fields)
    field = resolved.field
    if kind == "FieldArgument":
        args = {name: arg for name, arg in field.args.items() if arg is resolved.field_argument}
        field = GraphQLField(
            field.type,
            args=args,
            description=field.description,
            deprecation_reason=field.deprecation_reason,
        )
    cls = GraphQLInterfaceType if isinstance(owner, GraphQLInterfaceType) else GraphQLObjectType
    name = _member_name(owner.fields, resolved.field)
    return _printed(cls, owner.name, {name: field})


# graphql-core refuses to build a type named like an introspection type (`__Type`), so the
# cut-down copy of one is built under this stand-in name and renamed in the printed text.
_STAND_IN = "SchemanavStandIn"


def _printed(cls: Any, name: str, members: dict[str, Any]) -> str:
    """The type `name` with only `members`, printed as SDL."""
    from graphql import print_type

    if not name.startswith("__"):
        return str(print_type(cls(name, members, description=None)))
    text = str(print_type(cls(_STAND_IN, members, description=None)))
    return text.replace(f" {_STAND_IN} ", f" {name} ", 1)


@lru_cache(maxsize=1)
def _fragments() -> dict[str, str]:
    """The standard introspection query's fragments (FullType, InputValue, TypeRef) by name."""
    import re

    from graphql import get_introspection_query

    text = get_introspection_query(descriptions=True, input_value_deprecation=True)
    parts = re.split(r"(?=\bfragment \w+ on )", text[text.index("fragment ") :])
    return {part.split()[1]: part for part in parts if part.strip()}


def _introspect(schema: GraphQLSchema, operation: str, variables: dict[str, Any]) -> Any:
    from graphql import graphql_sync

    fragments = _fragments()
    used = ["InputValue", "TypeRef"] if "FullType" not in operation else list(fragments)
    document = "\n".join([operation, *(fragments[name] for name in used)])
    result = graphql_sync(schema, document, variable_values=variables)
    if result.errors:
        raise RuntimeError(f"introspection failed: {result.errors[0].message}")
    return result.data


def _record(schema: GraphQLSchema, resolved: Any) -> dict[str, Any]:
    """The introspection record of the element (what `__type` / `__schema` would answer)."""
    kind = resolved.kind
    if kind in ("Directive", "DirectiveArgument"):
        data = _introspect(
            schema,
            "query { __schema { directives { name description isRepeatable locations "
            "args(includeDeprecated: true) { ...InputValue } } } }",
            {},
        )
        record = next(
            d for d in data["__schema"]["directives"] if d["name"] == resolved.directive.name
        )
        if kind == "DirectiveArgument":
            arg_name = _member_name(resolved.directive.args, resolved.directive_argument)
            return dict(next(a for a in record["args"] if a["name"] == arg_name))
        return dict(record)
    data = _introspect(
        schema,
        "query ($name: String!) { __type(name: $name) { ...FullType } }",
        {"name": resolved.type.name},
    )
    type_record: dict[str, Any] = data["__type"]
    if kind == "NamedType":
        return type_record
    if kind == "EnumValue":
        return _member(type_record["enumValues"], resolved.type.values, resolved.enum_value)
    if kind == "InputField":
        return _member(type_record["inputFields"], resolved.type.fields, resolved.input_field)
    field_record = _member(type_record["fields"], resolved.type.fields, resolved.field)
    if kind == "FieldArgument":
        return _member(field_record["args"], resolved.field.args, resolved.field_argument)
    return field_record


def _member_name(members: dict[str, Any], target: Any) -> str:
    """The key under which `target` sits (graphql-core's resolved elements carry no name)."""
    return next(name for name, member in members.items() if member is target)


def _member(records: list[dict[str, Any]], members: dict[str, Any], target: Any) -> dict[str, Any]:
    name = _member_name(members, target)
    return dict(next(record for record in records if record["name"] == name))


_UNREAD: Any = object()


class DefinitionCache:
    """Definitions printed earlier for one schema file, one checked file per coordinate.

    Printing a definition needs the parsed schema (seconds for GitHub's); what `define`
    printed for a coordinate depends only on the schema file's bytes and graphql-core, so a
    later `define` of the same coordinates reads it back without parsing. The spec violations
    of the schema are kept with each definition, so the warning a parse gives is given alike.
    """

    def __init__(self, cache_dir: Path, schema_sha256: str) -> None:
        from schemanav.schema.loading import graphql_core_version

        self.folder = DEFINITION_CACHE.path(cache_dir, schema_sha256)
        self.header = DEFINITION_CACHE.header(
            schema_sha256=schema_sha256, graphql_core=graphql_core_version()
        )
        self._kept: StoredIntrospection | str | None = _UNREAD

    def _path(self, coordinate: str) -> Path:
        return self.folder / f"{sha256_hex(coordinate.encode('utf-8'))[:40]}.json"

    def get(self, coordinate: str) -> tuple[Definition, tuple[str, ...]] | str | None:
        """The definition and the schema's violations; None when there is none; why not
        when the file cannot be trusted."""
        found = read_matching(
            self._path(coordinate),
            {**self.header, "coordinate": coordinate},
            "coordinate, schema or graphql-core",
        )
        if not isinstance(found, tuple):
            return found
        data = found[1]
        try:
            payload = json.loads(data)
        except (ValueError, RecursionError):
            return "not valid JSON"
        definition = _definition_from_payload(coordinate, payload)
        return definition if definition is not None else "a malformed definition"

    def put(self, definition: Definition, violations: tuple[str, ...]) -> None:
        payload = {
            "kind": definition.kind,
            "sdl": definition.sdl,
            "record": definition.record,
            "error": definition.error,
            "did_you_mean": list(definition.did_you_mean),
            "violations": list(violations),
        }
        header = {**self.header, "coordinate": definition.coordinate}
        with contextlib.suppress(OSError, TypeError, ValueError):  # only costs speed
            write_checked(
                self._path(definition.coordinate),
                header,
                json.dumps(payload, ensure_ascii=False).encode("utf-8"),
            )

    def schema(self) -> tuple[GraphQLSchema, tuple[str, ...]] | str | None:
        """The schema rebuilt from its cached introspection JSON, with its violations; None
        when there is none; why not when the file cannot be trusted.

        `build_client_schema` takes a tenth of an SDL parse, and every definition printed
        from it equals the one printed from the parsed SDL (checked for every type, field and
        argument of GitHub's schema): introspection holds all that `define` prints.
        """
        from graphql import GraphQLError

        stored = self._stored()
        self._kept = _UNREAD  # the whole schema holds all the file holds
        if not isinstance(stored, StoredIntrospection):
            return stored
        try:
            schema = _client_schema(stored.whole())
        except (ValueError, TypeError, KeyError, GraphQLError, RecursionError):
            return "not an introspection result"
        return schema, stored.violations

    def part_schema(self, coordinates: list[str]) -> tuple[GraphQLSchema, tuple[str, ...]] | None:
        """A schema holding the types that `coordinates` name, and as much of the types they
        reach as their definitions show, built from that part of the cached introspection
        JSON only (`stored_schema`), with the schema's violations; None when there is no
        trusted file or a part cannot serve them (a coordinate that is not one, or names no
        type of the schema, or an introspection type).

        Every definition it prints equals the one printed from the whole schema (checked
        for every coordinate of GitHub's schema: `scripts/check_define_parts.py`), except
        for an unknown coordinate's "did you mean", which needs every name: print those from
        `schema()`.
        """
        from graphql import GraphQLError

        stored = self._stored()
        names = _type_names(coordinates)
        if not isinstance(stored, StoredIntrospection) or names is None:
            return None
        try:
            part = stored.part(names)
            if part is None:
                return None
            schema = _client_schema(part)
        except (ValueError, TypeError, KeyError, GraphQLError, RecursionError):
            return None
        return schema, stored.violations

    def _stored(self) -> StoredIntrospection | str | None:
        """The checked introspection file's index, read once (until `schema()` reads it
        whole); None when there is none; why not when the file cannot be trusted."""
        if self._kept is _UNREAD:
            found = read_matching(
                self._schema_path, {**self.header, "part": "schema"}, "schema or graphql-core"
            )
            if isinstance(found, tuple):
                try:
                    self._kept = decode(found[1])
                except ValueError:
                    self._kept = "not an introspection result"
            else:
                self._kept = found
        return self._kept

    @property
    def _schema_path(self) -> Path:
        return self.folder / "schema.json"

    def has_schema(self) -> bool:
        return self._schema_path.is_file()

    def put_schema(self, schema: GraphQLSchema, violations: tuple[str, ...]) -> None:
        from graphql import introspection_from_schema

        introspection = introspection_from_schema(schema)
        with contextlib.suppress(OSError, TypeError, ValueError):  # only costs speed
            payload = encode(introspection, violations)
            write_checked(self._schema_path, {**self.header, "part": "schema"}, payload)


def _client_schema(introspection: dict[str, Any]) -> GraphQLSchema:
    from graphql import build_client_schema

    schema = build_client_schema(introspection, assume_valid=True)  # type: ignore[arg-type]
    schema._validation_errors = []  # checked when it was parsed: the stored violations
    return schema


def _type_names(coordinates: list[str]) -> list[str] | None:
    """The types that `coordinates` name (none for a directive's), in order; None when one
    is not a schema coordinate."""
    from graphql import GraphQLError, parse_schema_coordinate
    from graphql.language import DirectiveArgumentCoordinateNode, DirectiveCoordinateNode

    names: dict[str, None] = {}
    for coordinate in coordinates:
        try:
            node = parse_schema_coordinate(coordinate)
        except GraphQLError:
            return None
        if not isinstance(node, (DirectiveCoordinateNode, DirectiveArgumentCoordinateNode)):
            names[node.name.value] = None
    return list(names)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _optional_str(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _definition_from_payload(
    coordinate: str, payload: Any
) -> tuple[Definition, tuple[str, ...]] | None:
    if not isinstance(payload, dict):
        return None
    kind, sdl, record, error = (payload.get(key) for key in ("kind", "sdl", "record", "error"))
    if not (
        _optional_str(kind)
        and _optional_str(sdl)
        and _optional_str(error)
        and (record is None or isinstance(record, dict))
        and _strings(payload.get("did_you_mean"))
        and _strings(payload.get("violations"))
        and (error is None) == (kind is not None and sdl is not None and record is not None)
    ):
        return None
    definition = Definition(
        coordinate=coordinate,
        kind=kind,
        sdl=sdl,
        record=record,
        error=error,
        did_you_mean=tuple(payload["did_you_mean"]),
    )
    return definition, tuple(payload["violations"])
