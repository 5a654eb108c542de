"""The arguments of an agent tool, checked against the tool's JSON schema: one validator for
the agent's tools and the servers' (MCP, the GraphQL endpoint's operations).

A tool declares its input as a small subset of JSON Schema, so what the schema tells a model
and what is refused never drift apart; every refusal is one sentence a model can act on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "object": (dict,),
    "array": (list,),
}


def check_arguments(tool: str, schema: Mapping[str, Any], arguments: Any) -> str | None:
    """Why `arguments` do not fit the tool's input `schema` (in words an agent can act on), or
    None.

    Enforces the subset of JSON Schema the tools' schemas use: type, required,
    additionalProperties, minLength/maxLength, minimum/maximum, minItems/maxItems, items, enum.
    """
    properties: dict[str, Any] = schema["properties"]
    example = example_arguments(schema)
    if not isinstance(arguments, Mapping):
        return f"the arguments of {tool} must be a JSON object such as {example}"
    for name in schema["required"]:
        if arguments.get(name) is None:
            return f"{tool} needs the argument {name!r}; send a JSON object such as {example}"
    for name, value in arguments.items():
        if name not in properties:
            if schema.get("additionalProperties", True):
                continue
            known = ", ".join(properties)
            return f"{tool} has no argument {name!r}; its arguments are {known}"
        if value is None:
            continue
        problem = _check_value(properties[name], value)
        if problem is not None:
            return f"argument {name!r} of {tool} {problem}"
    return None


def example_arguments(schema: Mapping[str, Any]) -> str:
    """The required arguments as a JSON object, each with its schema's first example (`…`
    when it has none), for a message that says what to send."""
    properties: dict[str, Any] = schema["properties"]
    shown = [
        f'"{name}": {json.dumps(properties[name]["examples"][0])}'
        if properties[name].get("examples")
        else f'"{name}": …'
        for name in schema["required"]
    ]
    return "{" + ", ".join(shown) + "}"


def _check_value(schema: dict[str, Any], given: Any) -> str | None:
    kind = schema["type"]
    value: Any = given  # (isinstance with a looked-up tuple would narrow it to `object`)
    if not isinstance(given, _JSON_TYPES[kind]) or (kind == "integer" and isinstance(given, bool)):
        article = "an" if kind[0] in "aeiou" else "a"
        return f"must be {article} {kind}, not {type(value).__name__}"
    if kind == "string":
        if len(value) < schema.get("minLength", 0):
            return "must not be empty"
        if len(value) > schema.get("maxLength", len(value)):
            return f"is {len(value):,} characters long; the most is {schema['maxLength']:,}"
        if "enum" in schema and value not in schema["enum"]:
            return f"must be one of {', '.join(schema['enum'])}, not {value!r}"
    if kind == "integer" and not schema.get("minimum", value) <= value <= schema.get(
        "maximum", value
    ):
        return f"must be from {schema['minimum']} to {schema['maximum']}, not {value}"
    if kind == "array":
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            return f"must hold from {schema['minItems']} to {schema['maxItems']} items"
        for item in value if "items" in schema else ():
            problem = _check_value(schema["items"], item)
            if problem is not None:
                return f"has an item that {problem}"
    return None
