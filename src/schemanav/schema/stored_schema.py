"""The introspection JSON that `define` keeps beside its definitions, laid out so that the
types one definition needs can be read without decoding the others.

The payload is one line of JSON (the index: the schema's root types and directives, its spec
violations, and each type's name, kind, byte span and interfaces, in the schema's order),
then the types as one JSON array whose elements sit at those spans. The whole schema is the
array decoded at once; a part of it is the few spans one definition needs.

A part is an introspection result graphql-core's `build_client_schema` accepts: the types
asked for whole; every scalar, enum and input object they reach through fields, arguments
and input fields whole too (a default value may be coerced and printed through them); every
other type they name (field types, interfaces, union members, the implementations of an
interface asked for, the root types) as a stub of its kind with no fields and no members,
since a printed definition and an introspection record only show such a type's name and
kind. The types are listed in the schema's order, which graphql-core keeps (`GraphQLSchema`
places the types it is given first, in their order), so an interface's possible types come
in the same order as from the whole schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_WHOLE_KINDS = frozenset({"SCALAR", "ENUM", "INPUT_OBJECT"})
_ROOTS = ("queryType", "mutationType", "subscriptionType")


@dataclass(frozen=True)
class _Entry:
    kind: str
    start: int
    end: int
    interfaces: tuple[str, ...]


@dataclass(frozen=True)
class StoredIntrospection:
    """A decoded index over the stored types (which stay bytes until asked for)."""

    schema: dict[str, Any]
    """`__schema` without its types: the root types, the directives, the description."""
    order: tuple[str, ...]
    entries: dict[str, _Entry]
    body: bytes
    violations: tuple[str, ...]

    def whole(self) -> dict[str, Any]:
        """The complete introspection result, as `introspection_from_schema` gave it."""
        return {"__schema": {**self.schema, "types": json.loads(self.body)}}

    def part(self, type_names: list[str]) -> dict[str, Any] | None:
        """An introspection result holding `type_names` whole and what they name as stubs
        (see the module's docstring); None when one of them is not a type of the schema or
        is an introspection type (`__Type`: graphql-core supplies those itself)."""
        if any(name not in self.entries or name.startswith("__") for name in type_names):
            return None
        whole: dict[str, dict[str, Any]] = {}
        named: dict[str, None] = {}

        def take(name: str) -> None:
            entry = self.entries[name]
            record = json.loads(self.body[entry.start : entry.end])
            whole[name] = record
            for reached in _named_types(record):
                if reached in whole or reached in named:
                    continue
                if self.entries[reached].kind in _WHOLE_KINDS:
                    take(reached)
                else:
                    named[reached] = None

        for name in type_names:
            if name not in whole:
                take(name)
        for directive in self.schema.get("directives") or ():
            for arg in directive.get("args") or ():
                reached = _named(arg["type"])
                if reached not in whole and self.entries[reached].kind in _WHOLE_KINDS:
                    take(reached)
        for root in _ROOTS:
            ref = self.schema.get(root)
            if ref and ref["name"] not in whole:
                named[ref["name"]] = None
        interfaces = [name for name in whole if self.entries[name].kind == "INTERFACE"]
        if interfaces:
            held = set(interfaces)
            for name in self.order:
                if name not in whole and not held.isdisjoint(self.entries[name].interfaces):
                    named[name] = None
        types = [
            whole[name] if name in whole else self._stub(name, interfaces)
            for name in self.order
            if name in whole or name in named
        ]
        return {"__schema": {**self.schema, "types": types}}

    def _stub(self, name: str, interfaces: list[str]) -> dict[str, Any]:
        """The type `name` with its kind and no members; it implements those of `interfaces`
        (the interfaces held whole) it implements in the schema."""
        entry = self.entries[name]
        stub: dict[str, Any] = {"kind": entry.kind, "name": name, "description": None}
        if entry.kind in ("OBJECT", "INTERFACE"):
            stub["fields"] = []
            stub["interfaces"] = [
                {"kind": "INTERFACE", "name": interface, "ofType": None}
                for interface in entry.interfaces
                if interface in interfaces
            ]
        if entry.kind in ("INTERFACE", "UNION"):
            stub["possibleTypes"] = []
        return stub


def _named(ref: dict[str, Any]) -> str:
    while ref.get("ofType"):
        ref = ref["ofType"]
    name: str = ref["name"]
    return name


def _named_types(record: dict[str, Any]) -> list[str]:
    """Every type `record` names: interfaces, union members, field, argument and input types."""
    refs = [*(record.get("interfaces") or ()), *(record.get("possibleTypes") or ())]
    for field in record.get("fields") or ():
        refs.append(field["type"])
        refs.extend(arg["type"] for arg in field.get("args") or ())
    refs.extend(value["type"] for value in record.get("inputFields") or ())
    return [_named(ref) for ref in refs]


def encode(introspection: Mapping[str, Any], violations: tuple[str, ...]) -> bytes:
    """The payload for `introspection` (from `introspection_from_schema`) and `violations`."""
    schema = dict(introspection["__schema"])
    types = schema.pop("types")
    parts = [json.dumps(record, ensure_ascii=False).encode("utf-8") for record in types]
    entries: list[list[Any]] = []
    offset = 1  # past the array's "["
    for record, part in zip(types, parts, strict=True):
        interfaces = [_named(ref) for ref in record.get("interfaces") or ()]
        entries.append([record["name"], record["kind"], offset, offset + len(part), interfaces])
        offset += len(part) + 1  # and the "," or "]" after it
    index = {"schema": schema, "types": entries, "violations": list(violations)}
    line = json.dumps(index, ensure_ascii=False).encode("utf-8")
    return line + b"\n[" + b",".join(parts) + b"]"


def decode(payload: bytes) -> StoredIntrospection:
    """The index of a payload `encode` wrote; `ValueError` when it is not one."""
    end = payload.find(b"\n")
    if end <= 0:
        raise ValueError("not an introspection index")
    try:
        index = json.loads(payload[:end])
        schema, rows, violations = index["schema"], index["types"], index["violations"]
        body = payload[end + 1 :]
        entries = {
            name: _Entry(kind, start, stop, tuple(interfaces))
            for name, kind, start, stop, interfaces in rows
        }
    except (KeyError, TypeError, ValueError, RecursionError) as err:
        raise ValueError("not an introspection index") from err
    if not (
        isinstance(schema, dict)
        and isinstance(violations, list)
        and all(isinstance(item, str) for item in violations)
        and len(entries) == len(rows)
        and all(
            isinstance(entry.kind, str)
            and isinstance(entry.start, int)
            and isinstance(entry.end, int)
            and 0 < entry.start < entry.end < len(body)
            and all(isinstance(item, str) for item in entry.interfaces)
            for entry in entries.values()
        )
    ):
        raise ValueError("not an introspection index")
    return StoredIntrospection(
        schema=schema,
        order=tuple(entries),
        entries=entries,
        body=body,
        violations=tuple(violations),
    )
