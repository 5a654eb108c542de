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
MAX_OPERATIONS = 500
"""Operations (tools) in all the files of one folder: each is validated at start and listed
in every `tools/list`."""
MAX_INPUT_DEPTH = 6
"""Input objects are spelled out inline this deep in a tool's input schema; a deeper one is
described by reference (`$defs`)."""
MAX_INPUT_TYPES = 100
"""Input object types described in one tool's `$defs`; past them a type is an open object."""
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
    files = _graphql_files(folder)
    if not files:
        raise InputError(f"--operations: {folder} holds no .graphql file")
    names = set(taken)
    tools: list[OperationTool] = []
    for path in files:
        for tool in _file_tools(path, schema, allow_mutations, MAX_OPERATIONS - len(tools)):
            if tool.name in names:
                raise InputError(
                    f"{path}: a tool named {tool.name} exists already; rename the operation"
                )
            names.add(tool.name)
            tools.append(tool)
    return tuple(tools)


def _graphql_files(folder: Path) -> list[Path]:
    """The `*.graphql` entries of `folder`, sorted; listing stops past `MAX_FILES`."""
    import os

    found: list[Path] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(".graphql"):
                found.append(Path(entry.path))
                if len(found) > MAX_FILES:
                    raise InputError(
                        f"--operations: {folder} holds more than {MAX_FILES} .graphql files; "
                        "keep the operations you offer in fewer files"
                    )
    return sorted(found)


def _file_tools(
    path: Path, schema: GraphQLSchema, allow_mutations: bool, room: int
) -> list[OperationTool]:
    """The tools of one file; at most `room` operations (what `MAX_OPERATIONS` leaves)."""
    from graphql import (
        GraphQLSyntaxError,
        OperationDefinitionNode,
        OperationType,
        parse,
        validate,
    )

    from schemanav.textfile import decode_text, read_bytes

    # A regular file (a link to one is followed), read up to the cap: a link to /dev/zero, a
    # FIFO, a directory or a dangling link named *.graphql is one error naming it.
    data = read_bytes(
        path,
        "GraphQL operation file",
        max_bytes=MAX_FILE_BYTES,
        too_large_hint="; split it",
        regular_only=True,
    )
    text = decode_text(data, path, "GraphQL operation file")
    try:
        document = parse(text)
    except (GraphQLSyntaxError, RecursionError) as err:
        raise InputError(f"{path}: not a GraphQL document ({_first_line(err)})") from None
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if not operations:
        raise InputError(f"{path}: holds no operation")
    if len(operations) > room:
        raise InputError(
            f"{path}: the folder holds more than {MAX_OPERATIONS} operations, the most one "
            "--operations folder may offer as tools; offer fewer"
        )
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
    variables: list[tuple[Any, GraphQLInputType]] = []
    for definition in operation.variable_definitions or ():
        graphql_type = type_from_ast(schema, definition.type)
        assert graphql_type is not None  # the document validated
        variables.append((definition, graphql_type))  # type: ignore[arg-type]
    shapes = InputShapes([graphql_type for _, graphql_type in variables])
    properties: dict[str, Any] = {}
    required: list[str] = []
    for definition, graphql_type in variables:
        name = definition.variable.name.value
        prop = shapes.of(graphql_type)
        description = described.get(name) or getattr(_named(graphql_type), "description", None)
        if description:
            prop["description"] = description.strip()
        if definition.default_value is not None:
            prop["default"] = value_from_ast_untyped(definition.default_value)
        elif isinstance(definition.type, NonNullTypeNode):
            required.append(name)
        properties[name] = prop
    result: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    if shapes.defs:
        result["$defs"] = shapes.defs
    return result


def _named(graphql_type: Any) -> Any:
    while hasattr(graphql_type, "of_type"):
        graphql_type = graphql_type.of_type
    return graphql_type


def json_schema(graphql_type: GraphQLInputType) -> dict[str, Any]:
    """The JSON Schema of values of an input type, with its `$defs` when it needs some."""
    shapes = InputShapes([graphql_type])
    found = shapes.of(graphql_type)
    return {**found, "$defs": shapes.defs} if shapes.defs else found


class InputShapes:
    """JSON Schemas of the values of input types (null allowed where GraphQL allows it).

    An input object is spelled out inline where it is used, field by field, when it is used
    once and cannot contain itself; one that is recursive (`input Wide { f0: Wide … }`), used
    in more than one place or nested deeper than `MAX_INPUT_DEPTH` is described once in
    `defs` (the tool's `$defs`) and referenced (`{"$ref": "#/$defs/Wide"}`), so the schema
    grows with the number of input types, never with the number of paths through them. Past
    `MAX_INPUT_TYPES` descriptions, a type is an open object."""

    def __init__(self, roots: Iterable[GraphQLInputType]) -> None:
        self.defs: dict[str, Any] = {}
        self._shared = _shared_input_types(roots)

    def of(self, graphql_type: GraphQLInputType, depth: int = 0) -> dict[str, Any]:
        from graphql import (
            GraphQLEnumType,
            GraphQLInputObjectType,
            GraphQLList,
            GraphQLNonNull,
            GraphQLScalarType,
        )

        if isinstance(graphql_type, GraphQLNonNull):
            inner = self.of(graphql_type.of_type, depth)
            if "anyOf" in inner:  # a reference, or null
                return dict(inner["anyOf"][0])
            return _strict(inner)
        if isinstance(graphql_type, GraphQLList):
            return _nullable({"type": "array", "items": self.of(graphql_type.of_type, depth)})
        if isinstance(graphql_type, GraphQLEnumType):
            return _nullable({"type": "string", "enum": list(graphql_type.values)})
        if isinstance(graphql_type, GraphQLInputObjectType):
            name = graphql_type.name
            if name not in self._shared and depth < MAX_INPUT_DEPTH:
                return _nullable(self._spelled(graphql_type, depth))
            if name not in self.defs:
                if len(self.defs) >= MAX_INPUT_TYPES:
                    return _nullable({"type": "object"})
                self.defs[name] = {}  # taken first: a recursive field refers to it
                self.defs[name] = self._spelled(graphql_type, 0)
            return {"anyOf": [{"$ref": f"#/$defs/{name}"}, {"type": "null"}]}
        assert isinstance(graphql_type, GraphQLScalarType)
        return _nullable(dict(_SCALARS.get(graphql_type.name, {})))

    def _spelled(self, graphql_type: Any, depth: int) -> dict[str, Any]:
        from graphql import GraphQLNonNull
        from graphql.pyutils import Undefined

        fields = graphql_type.fields
        properties = {}
        for name, field in fields.items():
            prop = self.of(field.type, depth + 1)
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
        return shape


def _shared_input_types(roots: Iterable[GraphQLInputType]) -> set[str]:
    """The input object types reachable from `roots` that are used in more than one place or
    reach themselves again (those are described once, by reference)."""
    from graphql import GraphQLInputObjectType

    uses: dict[str, int] = {}
    seen: set[str] = set()
    pending: list[Any] = []
    for root in roots:
        named = _named(root)
        if isinstance(named, GraphQLInputObjectType):
            uses[named.name] = uses.get(named.name, 0) + 1
            pending.append(named)
    while pending:
        current = pending.pop()
        if current.name in seen:
            continue
        seen.add(current.name)
        for field in current.fields.values():
            named = _named(field.type)
            if isinstance(named, GraphQLInputObjectType):
                uses[named.name] = uses.get(named.name, 0) + 1
                pending.append(named)
    # Every cycle has a type used from outside it and from inside it, so breaking the shared
    # types out leaves trees: each type left is used once, below its one parent.
    return {name for name, count in uses.items() if count > 1}


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
