"""The agent's three tools: search the schema, print one type, validate and run an operation.

Every tool answers with text the model can act on, never an exception: a bad tool name,
arguments that are not JSON, a misspelt field or an unreachable endpoint all come back as a
`ToolResult` with `ok=False` and a message that says what to do next. Header values are
secrets, so every text that leaves this module goes through a `Redactor`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from schemanav.agent.prompts import (
    BUILD_QUERY,
    EXECUTE_GRAPHQL,
    INTROSPECT_TYPE,
    LIST_FIELDS,
    SEARCH_SCHEMA,
)
from schemanav.defaults import DEFAULT_SEARCH_BUDGET
from schemanav.limits import (
    MAX_JSON_DEPTH,
    MAX_QUESTION_CHARS,
    MAX_TOOL_ARGUMENT_CHARS,
    TooDeep,
    loads_json,
)
from schemanav.operations import OperationRunner
from schemanav.tokens import count_tokens
from schemanav.tool_arguments import check_arguments, example_arguments
from schemanav.wording import closest as nearest
from schemanav.wording import counted

if TYPE_CHECKING:
    from graphql import GraphQLSchema

    from schemanav.retrieval import BlockSearch

# The navigator's budgeted search: a question and a token budget in, the hits' blocks out.
BlockSearcher = Callable[[str, int], "BlockSearch"]


@dataclass(frozen=True)
class ToolResult:
    """What a tool call puts into the conversation, and whether it did what was asked."""

    ok: bool
    text: str


def _input(name: str, kind: str, example: Any, **more: Any) -> dict[str, Any]:
    """A tool whose one required argument `name` is of JSON type `kind`."""
    return {
        "type": "object",
        "properties": {name: {"type": kind, "examples": [example]}, **more},
        "required": [name],
    }


# What each tool takes, as the JSON schema `tool_arguments.check_arguments` enforces (an
# argument no tool takes is ignored: models add some).
_INPUTS: dict[str, dict[str, Any]] = {
    SEARCH_SCHEMA: _input("query", "string", "what you are looking for"),
    INTROSPECT_TYPE: _input("name", "string", "TypeName"),
    EXECUTE_GRAPHQL: _input(
        "query", "string", "{ rootField { field } }", variables={"type": "object"}
    ),
    LIST_FIELDS: _input("name", "string", "TypeName"),
    BUILD_QUERY: _input("coordinates", "array", ["RootType.rootField", "TypeName.field"]),
}


class SchemaTools:
    """The tools of one run, bound to its schema, search, endpoint and limits.

    `search` is the navigator's budgeted search (`Navigator.search_blocks`: a question and a
    token budget in, the hits' blocks out); None in inline mode, where only `executeGraphql`
    is offered.
    """

    def __init__(
        self,
        schema: GraphQLSchema,
        *,
        search: BlockSearcher | None,
        operations: OperationRunner | None = None,
        search_budget: int | None = None,
    ) -> None:
        self.schema = schema
        self.search = search
        self.search_budget = search_budget or DEFAULT_SEARCH_BUDGET
        self.operations = operations or OperationRunner(schema)
        self.redact = self.operations.redact

    @property
    def names(self) -> tuple[str, ...]:
        """The tools offered to the model, in the order the system prompt lists them."""
        if self.search is None:
            return (EXECUTE_GRAPHQL,)
        return (SEARCH_SCHEMA, INTROSPECT_TYPE, EXECUTE_GRAPHQL, LIST_FIELDS, BUILD_QUERY)

    def call(self, name: str, arguments: Any) -> ToolResult:
        """Run one tool call as the model sent it; `arguments` may be a mapping or raw text."""
        result = self._call(name, arguments)
        return ToolResult(result.ok, self.redact(result.text))

    def _call(self, name: str, arguments: Any) -> ToolResult:
        if name not in self.names:
            return ToolResult(
                False,
                f"unknown tool {name!r}: the tools you can call are {', '.join(self.names)}",
            )
        parsed = _parse_arguments(name, arguments)
        if isinstance(parsed, ToolResult):
            return parsed
        if name == SEARCH_SCHEMA:
            return self.search_schema(parsed["query"])
        if name == INTROSPECT_TYPE:
            return self.introspect_type(parsed["name"])
        if name == LIST_FIELDS:
            return self.list_fields(parsed["name"])
        if name == BUILD_QUERY:
            return self.build_query(parsed["coordinates"])
        return self.execute_graphql(parsed["query"], parsed.get("variables"))

    # searchSchema ---------------------------------------------------------------------------

    def search_schema(self, query: str) -> ToolResult:
        """Hits of the run's backend, best first, as many as fit the token budget.

        The budget covers everything a hit injects, its path from the root included, so the
        dial caps the tool's payload and not only the hit texts.
        """
        if self.search is None:
            return ToolResult(False, f"{SEARCH_SCHEMA} is not offered in this run")
        found = self.search(query, self.search_budget)
        shown = len(found.hits)
        if not shown:
            if found.blocks:
                return ToolResult(
                    True,
                    f"the best hit ({found.costs[0]} tokens) does not fit the search budget "
                    f"of {self.search_budget} tokens; nothing to show",
                )
            return ToolResult(
                True,
                f"no field matches {query!r}; try other words for the thing you are "
                "looking for (plain words, not GraphQL syntax)",
            )
        lines = [
            f"{counted(shown, 'hit')} ({found.spent} of {self.search_budget} budget tokens), "
            "best first:"
        ]
        lines.extend(found.blocks[:shown])
        return ToolResult(True, "\n".join(lines))

    # introspectType -------------------------------------------------------------------------

    def introspect_type(self, name: str) -> ToolResult:
        """One type as SDL, with everything graphql-core's printer shows."""
        from graphql import print_type

        wanted = name.strip().strip("[]!").strip()
        named = self.schema.get_type(wanted)
        if named is None and "." in wanted:
            # A coordinate such as `Type.field`: the owner type holds what the model wants.
            named = self.schema.get_type(wanted.split(".", 1)[0])
        if named is not None:
            from schemanav.schema.define import without_empty_descriptions

            return ToolResult(True, without_empty_descriptions(print_type(named)))
        return ToolResult(False, self._unknown_type(wanted))

    def _unknown_type(self, name: str) -> str:
        names = [n for n in self.schema.type_map if not n.startswith("__")]
        closest = nearest(name, names, 5)
        if not closest:
            return (
                f"unknown type {name!r}, and no type has a similar name; "
                f"use {SEARCH_SCHEMA} to find the right one"
            )
        return f"unknown type {name!r}; the closest type names are: {', '.join(closest[:5])}"

    # listFields -----------------------------------------------------------------------------

    def list_fields(self, name: str) -> ToolResult:
        """One type in a line per field: return type, required arguments, deprecation."""
        from schemanav.schema.fields import list_fields

        wanted = name.strip().strip("[]!").strip()
        named = self.schema.get_type(wanted)
        if named is None and "." in wanted:
            named = self.schema.get_type(wanted.split(".", 1)[0])
        if named is None:
            return ToolResult(False, self._unknown_type(wanted))
        return ToolResult(True, list_fields(named))

    # buildQuery -----------------------------------------------------------------------------

    def build_query(self, coordinates: list[Any]) -> ToolResult:
        """One operation from the coordinates, validated; `ok` when it is valid and whole."""
        from schemanav.build import build_operation
        from schemanav.errors import InputError

        try:
            result = build_operation(self.schema, [str(c) for c in coordinates])
        except InputError as err:
            return ToolResult(False, err.message)
        return ToolResult(result.complete, result.summary())

    # executeGraphql -------------------------------------------------------------------------

    def execute_graphql(self, query: str, variables: Mapping[str, Any] | None) -> ToolResult:
        """Parse, refuse what must not run, validate, then POST to the endpoint (if any)."""
        outcome = self.operations.run(query, variables)
        return ToolResult(outcome.ok, outcome.text)


def _parse_arguments(name: str, arguments: Any) -> dict[str, Any] | ToolResult:
    """The arguments as a dict with the right types, or a tool error that says what to send.

    What a model sends is read leniently first (arguments as JSON text, one coordinate as a
    string, variables as a JSON string), then checked against the tool's schema."""
    schema = _INPUTS[name]
    if arguments is None or arguments == "":
        arguments = {}
    if isinstance(arguments, str):
        decoded = _decoded(name, arguments, example_arguments(schema))
        if isinstance(decoded, ToolResult):
            return decoded
        arguments = decoded
    if isinstance(arguments, Mapping):
        arguments = dict(arguments)
        coordinates = arguments.get("coordinates")
        if isinstance(coordinates, str):
            arguments["coordinates"] = [coordinates]  # buildQuery splits one string itself
        variables = arguments.get("variables")
        if name == EXECUTE_GRAPHQL and isinstance(variables, str):
            # Models often send variables as a JSON string; accept it when it parses.
            try:
                arguments["variables"] = (
                    loads_json(variables, max_depth=MAX_JSON_DEPTH) if variables.strip() else None
                )
            except (json.JSONDecodeError, TooDeep):
                return ToolResult(
                    False, f"argument 'variables' of {name} is not a valid JSON object"
                )
    problem = check_arguments(name, schema, arguments)
    if problem is not None:
        return ToolResult(False, problem)
    taken = {key: arguments[key] for key in schema["properties"] if arguments.get(key) is not None}
    for key, value in taken.items():
        too_long = _too_long(name, key, value)
        if too_long:
            return ToolResult(False, too_long)
    return taken


def _decoded(name: str, text: str, example: str) -> Any:
    """Arguments sent as JSON text, within the caps of tool input; a tool error if not JSON."""
    if len(text) > 2 * MAX_TOOL_ARGUMENT_CHARS:
        return ToolResult(
            False,
            f"the arguments of {name} are {len(text):,} characters long; the limit is "
            f"{2 * MAX_TOOL_ARGUMENT_CHARS:,}",
        )
    try:
        return loads_json(text, max_depth=MAX_JSON_DEPTH)
    except TooDeep:
        return ToolResult(False, f"the arguments of {name} are nested too deeply; send {example}")
    except json.JSONDecodeError as err:
        return ToolResult(
            False,
            f"the arguments of {name} are not valid JSON ({err.msg}, character "
            f"{err.pos}); send a JSON object such as {example}",
        )


def _too_long(tool: str, parameter: str, value: Any) -> str | None:
    """Tool arguments get the caps of command-line input: a search query or a type name at
    most `MAX_QUESTION_CHARS`, an operation or its variables at most `MAX_TOOL_ARGUMENT_CHARS`."""
    limit = MAX_TOOL_ARGUMENT_CHARS if tool == EXECUTE_GRAPHQL else MAX_QUESTION_CHARS
    try:
        size = len(value) if isinstance(value, str) else len(json.dumps(value))
    except (TypeError, ValueError, RecursionError):
        return f"argument {parameter!r} of {tool} cannot be read as JSON"
    if size <= limit:
        return None
    return (
        f"argument {parameter!r} of {tool} is {size:,} characters long; the limit is "
        f"{limit:,} characters"
    )


def payload_tokens(result: ToolResult) -> int:
    """Tokens a tool result puts into the conversation (o200k_base)."""
    return count_tokens(result.text)
