"""What a schema slice needs of a schema beyond its corpus, kept in a checked cache.

A slice (`schemanav.retrieval.slicing`) prints arguments and input fields as graphql-core
prints them (default values, `@deprecated`), and needs every type's kind and the interfaces
each type declares, in order; the corpus holds the rest (fields in order, return types,
descriptions, union members, enum values). Reading these from a `GraphQLSchema` means a
warm process must first rebuild one from the cached introspection JSON (a fifth of a second
for GitHub's schema, more than everything else a slice needs before its first question), so
they are computed once per schema file and kept in a checked cache file keyed by the file's
bytes and graphql-core's version (the printing is graphql-core's). A cache file that cannot
be trusted is reported and rebuilt.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from schemanav.cache import SLICE_FACTS_CACHE, read_matching, write_checked
from schemanav.events import Events, SilentEvents
from schemanav.limits import TooDeep, loads_json, schema_byte_cap
from schemanav.records import filled
from schemanav.schema.loading import graphql_core_version, schema_file_sha256
from schemanav.schema.source import is_url, schema_source
from schemanav.settings import Settings

if TYPE_CHECKING:
    from graphql import GraphQLArgument, GraphQLInputField, GraphQLSchema

KINDS = ("object", "interface", "union", "enum", "input", "scalar", "other")


@dataclass(frozen=True)
class InputValue:
    """An argument or an input field: its name, its type as printed (`[String!]!`), its
    whole definition as graphql-core prints it (`first: Int = 10 @deprecated`) and whether it
    has a default value."""

    name: str
    type: str
    text: str
    has_default: bool

    @property
    def required(self) -> bool:
        """Non-null without a default: every operation must give it."""
        return self.type.endswith("!") and not self.has_default

    @property
    def deprecated(self) -> bool:
        """Marked `@deprecated`: an operation should not give it."""
        return "@deprecated" in self.text

    @property
    def named_type(self) -> str:
        """The type without list and non-null wrappers: `[Label!]!` → `Label`."""
        return self.type.strip("[]!")


@dataclass(frozen=True)
class SliceFacts:
    """The schema facts a slice needs that the corpus lacks, and the schema's spec
    violations (a slice read from the cache warns of them as a parsed schema would)."""

    kinds: dict[str, str]
    """Every named type's kind (one of `KINDS`), in the schema's order of types."""
    interfaces: dict[str, tuple[str, ...]]
    """The interfaces each object or interface type declares, in declaration order (types
    that declare none are left out)."""
    arguments: dict[str, tuple[InputValue, ...]]
    """The arguments of each field that has any, by coordinate (`Type.field`), in order."""
    inputs: dict[str, tuple[InputValue, ...]]
    """Each input object type's fields, in order."""
    violations: tuple[str, ...] = ()

    @classmethod
    def of(cls, schema: GraphQLSchema, violations: tuple[str, ...] = ()) -> SliceFacts:
        """The facts of a parsed (or rebuilt) schema."""
        from graphql import (
            GraphQLInputObjectType,
            GraphQLInterfaceType,
            GraphQLObjectType,
        )
        from graphql.utilities.print_schema import print_input_value

        def value(name: str, definition: GraphQLArgument | GraphQLInputField) -> InputValue:
            return InputValue(
                name=name,
                type=str(definition.type),
                # graphql-core types it for arguments; input fields print alike.
                text=print_input_value(name, definition),  # type: ignore[arg-type]
                has_default=_has_default(definition),
            )

        kinds: dict[str, str] = {}
        interfaces: dict[str, tuple[str, ...]] = {}
        arguments: dict[str, tuple[InputValue, ...]] = {}
        inputs: dict[str, tuple[InputValue, ...]] = {}
        for name, definition in schema.type_map.items():
            kinds[name] = _kind(definition)
            if isinstance(definition, GraphQLObjectType | GraphQLInterfaceType):
                if definition.interfaces:
                    interfaces[name] = tuple(i.name for i in definition.interfaces)
                if name.startswith("__"):  # the corpus leaves introspection types out
                    continue
                for field_name, field in definition.fields.items():
                    if field.args:
                        arguments[f"{name}.{field_name}"] = tuple(
                            value(a, d) for a, d in field.args.items()
                        )
            elif isinstance(definition, GraphQLInputObjectType):
                inputs[name] = tuple(value(f, d) for f, d in definition.fields.items())
        return cls(kinds, interfaces, arguments, inputs, tuple(violations))

    def to_payload(self) -> dict[str, Any]:
        """Everything `from_payload` needs, JSON-ready."""

        def values(table: dict[str, tuple[InputValue, ...]]) -> dict[str, list[list[Any]]]:
            return {
                key: [[v.name, v.type, v.text, v.has_default] for v in found]
                for key, found in table.items()
            }

        return {
            "kinds": self.kinds,
            "interfaces": {name: list(found) for name, found in self.interfaces.items()},
            "arguments": values(self.arguments),
            "inputs": values(self.inputs),
            "violations": list(self.violations),
        }

    @classmethod
    def from_payload(cls, payload: Any) -> SliceFacts:
        """The facts `to_payload` described; ValueError naming the first malformed part."""
        if not isinstance(payload, dict):
            raise ValueError("not a JSON object")
        kinds = payload.get("kinds")
        if not isinstance(kinds, dict) or not all(k in KINDS for k in kinds.values()):
            raise ValueError("malformed kinds")
        interfaces = payload.get("interfaces")
        if not isinstance(interfaces, dict) or not all(map(_strings, interfaces.values())):
            raise ValueError("malformed interfaces")
        violations = payload.get("violations")
        if not _strings(violations):
            raise ValueError("malformed violations")
        tables: dict[str, dict[str, tuple[InputValue, ...]]] = {}
        for key in ("arguments", "inputs"):
            table = payload.get(key)
            if not isinstance(table, dict) or not all(map(_values_ok, table.values())):
                raise ValueError(f"malformed {key}")
            # Thousands of records: `filled`, not constructed (their fields are checked).
            tables[key] = {
                name: tuple(
                    filled(InputValue, name=n, type=t, text=text, has_default=d)
                    for n, t, text, d in found
                )
                for name, found in table.items()
            }
        return cls(
            kinds=kinds,
            interfaces={name: tuple(found) for name, found in interfaces.items()},
            arguments=tables["arguments"],
            inputs=tables["inputs"],
            violations=tuple(violations),
        )


def open_slice_facts(
    settings: Settings,
    readable: Callable[[], tuple[GraphQLSchema, tuple[str, ...]]],
    events: Events | None = None,
    digest: str | None = None,
) -> SliceFacts:
    """The slice facts of the configured schema; for a file source from a checked cache
    keyed by its bytes, so a warm process builds no schema. `readable` gives the schema and
    its violations when the facts must be computed (a URL source's always are: it may change).

    A cache file that is there but cannot be trusted is reported to `events` and rebuilt;
    `digest` is the schema file's SHA-256 when the caller has it.
    """
    events = events or SilentEvents()
    source = schema_source(settings)
    if is_url(source):
        return SliceFacts.of(*readable())
    digest = digest or schema_file_sha256(Path(source), schema_byte_cap())
    header = SLICE_FACTS_CACHE.header(schema_sha256=digest, graphql_core=graphql_core_version())
    path = SLICE_FACTS_CACHE.path(settings.cache_dir, digest)
    cached = _read_cache(path, header)
    if isinstance(cached, SliceFacts):
        return cached
    if cached is not None:
        events.warning(f"the slice cache {path} is not usable ({cached}); rebuilding it")
    facts = SliceFacts.of(*readable())
    with contextlib.suppress(OSError):  # an unwritable cache only costs speed
        write_checked(path, header, json.dumps(facts.to_payload()).encode("utf-8"))
    return facts


def _read_cache(path: Path, header: dict[str, Any]) -> SliceFacts | str | None:
    """The cached facts; None when there are none; why not when they cannot be trusted."""
    found = read_matching(path, header, "version, schema or graphql-core")
    if not isinstance(found, tuple):
        return found
    try:
        return SliceFacts.from_payload(loads_json(found[1]))
    except TooDeep:
        return "nested too deeply"
    except ValueError as err:  # JSONDecodeError is one
        return "not valid JSON" if isinstance(err, json.JSONDecodeError) else str(err)


def _strings(value: Any) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _values_ok(found: Any) -> bool:
    return isinstance(found, list) and all(
        isinstance(v, list)
        and len(v) == 4
        and isinstance(v[0], str)
        and isinstance(v[1], str)
        and isinstance(v[2], str)
        and isinstance(v[3], bool)
        for v in found
    )


def _kind(graphql_type: Any) -> str:
    from graphql import (
        GraphQLEnumType,
        GraphQLInputObjectType,
        GraphQLInterfaceType,
        GraphQLObjectType,
        GraphQLScalarType,
        GraphQLUnionType,
    )

    for cls, kind in (
        (GraphQLObjectType, "object"),
        (GraphQLInterfaceType, "interface"),
        (GraphQLUnionType, "union"),
        (GraphQLEnumType, "enum"),
        (GraphQLInputObjectType, "input"),
        (GraphQLScalarType, "scalar"),
    ):
        if isinstance(graphql_type, cls):
            return kind
    return "other"


def _has_default(value: GraphQLArgument | GraphQLInputField | Any) -> bool:
    """graphql-core 3.2 keeps a default in `default_value`, 3.3 in `default`."""
    from graphql import Undefined

    return value.default_value is not Undefined or getattr(value, "default", None) is not None
