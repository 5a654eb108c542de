"""What the model is told: the system prompts of both modes and the tool definitions.

The two modes share every sentence except where schema knowledge comes from, so that their
receipts differ only in that.
"""

from __future__ import annotations

from typing import Any

SEARCH_SCHEMA = "searchSchema"
INTROSPECT_TYPE = "introspectType"
EXECUTE_GRAPHQL = "executeGraphql"
LIST_FIELDS = "listFields"
BUILD_QUERY = "buildQuery"

HARD_RULE_NAVIGATE = (
    "Hard rule: every type, field and argument name you write must have appeared in a tool "
    "result first. Never guess a name; search or introspect instead."
)
HARD_RULE_INLINE = (
    "Hard rule: every type, field and argument name you write must appear in the schema "
    "below or in a tool result. Never guess a name."
)

_ROLE = (
    "You answer questions about the data behind a GraphQL API by writing GraphQL operations "
    "and running them with tools."
)
_FINISH = (
    "When you have what the question asks for, answer in plain words without calling a tool. "
    "If an operation was validated but not executed (no endpoint), answer with that operation."
)

NAVIGATE_SYSTEM_PROMPT = f"""{_ROLE} You do not know the API's schema; you discover it with \
three tools:
- {SEARCH_SCHEMA}(query): finds the schema fields that match a description in plain words and \
returns their coordinates (Type.field) with a short text, and how to reach them from the root.
- {INTROSPECT_TYPE}(name): the full definition of one type: its fields with arguments, \
argument types and defaults, enum values, input fields, interfaces, union members.
- {EXECUTE_GRAPHQL}(query, variables): validates one operation against the schema and runs it.
- {LIST_FIELDS}(name): one type's fields with return types and required arguments; far \
cheaper than {INTROSPECT_TYPE}, so prefer it.
- {BUILD_QUERY}(coordinates): writes a valid operation from the coordinates you found (a \
path from the root, or any set of them), with a variable for every required argument.
Work in small steps: search, list the fields of the types you will use, build the operation \
with {BUILD_QUERY}, then execute it with the variables it names.
{HARD_RULE_NAVIGATE}
{_FINISH}"""

_INLINE_SYSTEM_PROMPT_HEAD = f"""{_ROLE} The complete schema of the API, in GraphQL SDL, is at \
the end of this message. You have one tool:
- {EXECUTE_GRAPHQL}(query, variables): validates one operation against the schema and runs it.
{HARD_RULE_INLINE}
{_FINISH}

SCHEMA:
"""


_ORACLE_SYSTEM_PROMPT_HEAD = f"""{_ROLE} The definitions of the schema fields this task \
needs, in GraphQL SDL, are at the end of this message (the rest of the schema is not shown). \
You have one tool:
- {EXECUTE_GRAPHQL}(query, variables): validates one operation against the schema and runs it.
{HARD_RULE_INLINE}
{_FINISH}

DEFINITIONS:
"""


_SLICE_SYSTEM_PROMPT_HEAD = f"""{_ROLE} A slice of the API's schema chosen for this \
question, in GraphQL SDL, is at the end of this message: the types and fields most likely to \
answer it, connected to the root (the rest of the schema is not shown). You have one tool:
- {EXECUTE_GRAPHQL}(query, variables): validates one operation against the schema and runs it.
{HARD_RULE_INLINE}
{_FINISH}

SCHEMA SLICE:
"""


def slice_system_prompt(sdl: str) -> str:
    """The slice-mode system message (the setup of the WG's agent board): the shared
    instructions, then the question's schema slice."""
    return _SLICE_SYSTEM_PROMPT_HEAD + sdl


def oracle_system_prompt(definitions: str) -> str:
    """The oracle-mode system message (agent-bench's ceiling): the shared instructions, then
    the definitions of the fields the task needs."""
    return _ORACLE_SYSTEM_PROMPT_HEAD + definitions


def inline_system_prompt(sdl: str) -> str:
    """The inline-mode system message: the shared instructions, then the whole SDL."""
    return _INLINE_SYSTEM_PROMPT_HEAD + sdl


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> Any:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


SEARCH_TOOL = _tool(
    SEARCH_SCHEMA,
    "Find schema fields matching a description in plain words; returns coordinates "
    "(Type.field) with a short text, best first.",
    {"query": {"type": "string", "description": "What you are looking for, in plain words."}},
    ["query"],
)
INTROSPECT_TOOL = _tool(
    INTROSPECT_TYPE,
    "The full SDL definition of one type: fields, arguments with types and defaults, "
    "descriptions, deprecations, enum values, input fields, interfaces, union members.",
    {"name": {"type": "string", "description": "A type name exactly as a tool result showed it."}},
    ["name"],
)
EXECUTE_TOOL = _tool(
    EXECUTE_GRAPHQL,
    "Validate one GraphQL operation against the schema and run it; returns the JSON "
    "response, or the validation errors.",
    {
        "query": {"type": "string", "description": "One GraphQL operation."},
        "variables": {
            "type": "object",
            "description": "Values for the operation's variables, if it declares any.",
        },
    },
    ["query"],
)


LIST_FIELDS_TOOL = _tool(
    LIST_FIELDS,
    "One type's fields: name, return type, required arguments, deprecation. Cheaper than "
    f"{INTROSPECT_TYPE}; enums list their values, input types their fields.",
    {"name": {"type": "string", "description": "A type name as a search hit showed it."}},
    ["name"],
)
BUILD_QUERY_TOOL = _tool(
    BUILD_QUERY,
    "Write one valid operation containing the given field coordinates: nested from the root, "
    "a typed variable for every required argument, leaf fields under object types; "
    "deprecated fields are replaced where the schema names a replacement.",
    {
        "coordinates": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Field coordinates (Type.field) from your searches; "
            "Type.field(arg:) also declares that optional argument; an input type's field "
            "(Input.field) or an enum value (Enum.VALUE) is listed as a key of the variable "
            "whose value holds it.",
        }
    },
    ["coordinates"],
)


def tool_definitions(inline: bool) -> list[Any]:
    """The tools offered to the model: all of them, or only execution when the schema is
    inline."""
    if inline:
        return [EXECUTE_TOOL]
    return [SEARCH_TOOL, INTROSPECT_TOOL, EXECUTE_TOOL, LIST_FIELDS_TOOL, BUILD_QUERY_TOOL]
