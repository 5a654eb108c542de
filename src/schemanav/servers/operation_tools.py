"""`mcp --operations DIR`: operations an API owner curates, each one an MCP tool.

Every named operation in a `.graphql` file of DIR becomes a tool of the same name; its input
schema is built from the operation's variables (JSON types from GraphQL's, `required` for a
non-null variable without a default, defaults, enum values, input objects field by field, and
each variable's description from the argument it is passed to, else from its type). Comment
lines (`# …`) just above an operation are its tool's description.

Everything is checked at start, against the schema: a file that does not parse, an operation
without a name or that does not validate, two operations of one name, a name a built-in tool
has, a subscription, or a mutation without `--allow-mutations` is one `InputError` naming the
file. A tool call runs the operation (alone, with the fragments it uses) through the
navigator's `execute`: validated again with the caller's variables, then sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.errors import InputError

if TYPE_CHECKING:
    from graphql import (
        DocumentNode,
        GraphQLInputType,
        GraphQLSchema,
        OperationDefinitionNode,
    )

MAX_FILES = 200
MAX_FILE_BYTES = 200_000
MAX_INPUT_DEPTH = 6
"""Input objects are spelled out this deep in a tool's input schema, then left open."""
TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True)
class OperationTool:
    """One curated operation as a tool: what `tools/list` shows and the document it runs."""

    name: str
    description: str
    input_schema: dict[str, Any]
    document: str
    mutation: bool
    source: str
    """The file it came from, for messages."""


def load_operation_tools(
    folder: Path, schema: GraphQLSchema, *, allow_mutations: bool, taken: Iterable[str] = ()
) -> tuple[OperationTool, ...]:
    """The tools of every `.graphql` file in `folder` (sorted by file name), checked."""
    if not folder.is_dir():
        raise InputError(f"--operations: {folder} is not a folder of .graphql files")
    files = sorted(folder.glob("*.graphql"))
    if not files:
        raise InputError(f"--operations: {folder} holds no .graphql file")
    if len(files) > MAX_FILES:
        raise InputError(
            f"--operations: {folder} holds {len(files)} files; the most is {MAX_FILES}"
        )
    names = set(taken)
    tools: list[OperationTool] = []
    for path in files:
        for tool in _file_tools(path, schema, allow_mutations):
            if tool.name in names:
                raise InputError(
                    f"{path}: a tool named {tool.name} exists already; rename the operation"
                )
            names.add(tool.name)
            tools.append(tool)
    return tuple(tools)


def _file_tools(path: Path, schema: GraphQLSchema, allow_mutations: bool) -> list[OperationTool]:
    from graphql import (
        GraphQLSyntaxError,
        OperationDefinitionNode,
        OperationType,
        parse,
        validate,
    )

    if path.stat().st_size > MAX_FILE_BYTES:
        raise InputError(f"{path}: over {MAX_FILE_BYTES:,} bytes; split it")
    try:
        text = path.read_text(encoding="utf-8")
        document = parse(text)
    except (UnicodeDecodeError, GraphQLSyntaxError, RecursionError) as err:
        raise InputError(f"{path}: not a GraphQL document ({_first_line(err)})") from None
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if not operations:
        raise InputError(f"{path}: holds no operation")
    tools = []
    for operation in operations:
        if operation.name is None:
            raise InputError(f"{path}: every operation needs a name (the tool is named after it)")
        name = operation.name.value
        if not TOOL_NAME.match(name):
            raise InputError(f"{path}: {name} is longer than a tool name may be (64)")
        if operation.operation is OperationType.SUBSCRIPTION:
            raise InputError(f"{path}: {name} is a subscription; only queries and mutations run")
        mutation = operation.operation is OperationType.MUTATION
        if mutation and not allow_mutations:
            raise InputError(
                f"{path}: {name} is a mutation; pass --allow-mutations to offer it as a tool"
            )
        single = _alone(document, operation)
        errors = validate(schema, single)
        if errors:
            raise InputError(f"{path}: {name} does not validate: {_first_line(errors[0])}")
        from graphql import print_ast

        tools.append(
            OperationTool(
                name=name,
                description=_description(text, operation, mutation),
                input_schema=_input_schema(schema, single, operation),
                document=print_ast(single),
                mutation=mutation,
                source=str(path),
            )
        )
    return tools


def _first_line(err: Exception) -> str:
    return str(getattr(err, "message", err)).splitlines()[0]


def _alone(document: DocumentNode, operation: OperationDefinitionNode) -> DocumentNode:
    """The operation with the fragments it uses (at any depth), as a document of its own."""
    from graphql import DocumentNode, FragmentDefinitionNode, FragmentSpreadNode, visit
    from graphql.language import Visitor

    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    used: dict[str, FragmentDefinitionNode] = {}
    pending: list[Any] = [operation]

    class Spreads(Visitor):
        def enter_fragment_spread(self, node: FragmentSpreadNode, *_: Any) -> None:
            fragment = fragments.get(node.name.value)
            if fragment is not None and node.name.value not in used:
                used[node.name.value] = fragment
                pending.append(fragment)

    while pending:
        visit(pending.pop(), Spreads())
    return DocumentNode(definitions=(operation, *used.values()))


def _description(text: str, operation: OperationDefinitionNode, mutation: bool) -> str:
    """The comment lines right above the operation, else what it is and what it selects."""
    lines = text[: operation.loc.start if operation.loc else 0].splitlines()
    comments: list[str] = []
    for line in reversed(lines):
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        comments.insert(0, stripped.lstrip("#").strip())
    if any(comments):
        return " ".join(c for c in comments if c)
    from graphql import FieldNode

    selections = operation.selection_set.selections
    fields = [s.name.value for s in selections if isinstance(s, FieldNode)]
    kind = "Changes data (a mutation)" if mutation else "Reads"
    return f"{kind}: {', '.join(fields)}."


def _input_schema(
    schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode
) -> dict[str, Any]:
    from graphql import NonNullTypeNode, type_from_ast, value_from_ast_untyped

    described = _variable_descriptions(schema, document)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        graphql_type = type_from_ast(schema, definition.type)
        assert graphql_type is not None  # the document validated
        prop = json_schema(graphql_type, MAX_INPUT_DEPTH)  # type: ignore[arg-type]
        description = described.get(name) or getattr(_named(graphql_type), "description", None)
        if description:
            prop["description"] = description.strip()
        if definition.default_value is not None:
            prop["default"] = value_from_ast_untyped(definition.default_value)
        elif isinstance(definition.type, NonNullTypeNode):
            required.append(name)
        properties[name] = prop
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _named(graphql_type: Any) -> Any:
    while hasattr(graphql_type, "of_type"):
        graphql_type = graphql_type.of_type
    return graphql_type


def json_schema(graphql_type: GraphQLInputType, depth: int) -> dict[str, Any]:
    """The JSON Schema of values of an input type (null allowed where GraphQL allows it)."""
    from graphql import (
        GraphQLEnumType,
        GraphQLInputObjectType,
        GraphQLList,
        GraphQLNonNull,
        GraphQLScalarType,
    )
    from graphql.pyutils import Undefined

    if isinstance(graphql_type, GraphQLNonNull):
        return _strict(json_schema(graphql_type.of_type, depth))
    if isinstance(graphql_type, GraphQLList):
        return _nullable({"type": "array", "items": json_schema(graphql_type.of_type, depth)})
    if isinstance(graphql_type, GraphQLEnumType):
        return _nullable({"type": "string", "enum": list(graphql_type.values)})
    if isinstance(graphql_type, GraphQLInputObjectType):
        if depth <= 0:
            return _nullable({"type": "object"})
        fields = graphql_type.fields
        properties = {}
        for name, field in fields.items():
            prop = json_schema(field.type, depth - 1)
            if field.description:
                prop["description"] = field.description.strip()
            properties[name] = prop
        needed = [
            name
            for name, field in fields.items()
            if isinstance(field.type, GraphQLNonNull) and field.default_value is Undefined
        ]
        shape: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "additionalProperties": False,
        }
        if needed:
            shape["required"] = needed
        return _nullable(shape)
    assert isinstance(graphql_type, GraphQLScalarType)
    return _nullable(dict(_SCALARS.get(graphql_type.name, {})))


_SCALARS: Mapping[str, dict[str, Any]] = {
    "Int": {"type": "integer"},
    "Float": {"type": "number"},
    "String": {"type": "string"},
    "Boolean": {"type": "boolean"},
    "ID": {"type": ["string", "integer"]},
}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if kind is None:
        return schema  # a custom scalar: any JSON value
    kinds = kind if isinstance(kind, list) else [kind]
    nullable = {**schema, "type": [*kinds, "null"]}
    if "enum" in schema:
        nullable["enum"] = [*schema["enum"], None]
    return nullable


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if not isinstance(kind, list):
        return schema
    kinds = [k for k in kind if k != "null"]
    strict = {**schema, "type": kinds[0] if len(kinds) == 1 else kinds}
    if "enum" in schema:
        strict["enum"] = [value for value in schema["enum"] if value is not None]
    return strict


def _variable_descriptions(schema: GraphQLSchema, document: DocumentNode) -> dict[str, str]:
    """Each variable's description: that of the first argument it is passed to."""
    from graphql import TypeInfo, TypeInfoVisitor, VariableNode, visit
    from graphql.language import Visitor

    info = TypeInfo(schema)
    found: dict[str, str] = {}

    class Uses(Visitor):
        def enter_argument(self, node: Any, *_: Any) -> None:
            argument = info.get_argument()
            if isinstance(node.value, VariableNode) and argument and argument.description:
                found.setdefault(node.value.name.value, argument.description)

        def enter_object_field(self, node: Any, *_: Any) -> None:
            if isinstance(node.value, VariableNode):
                parent = _named(info.get_parent_input_type())
                member = getattr(parent, "fields", {}).get(node.name.value)
                if member is not None and member.description:
                    found.setdefault(node.value.name.value, member.description)

    visit(document, TypeInfoVisitor(info, Uses()))
    return found
