"""Scoring an agent run without a live API.

A task succeeds when the last operation the agent executed or returned is valid against the
schema and the field coordinates it selects (graphql-core's `TypeInfo`, see
`schemanav.build.field_coordinates`) include every expected coordinate. A failure is put in
the first stage that explains it:

1. `model_error` — the model call failed (the run stopped with an error);
2. `context_truncated` — a prompt was (probably) cut by the provider, or refused as over the
   model's window, or the schema alone was over the window's limit before the first call;
3. `call_limit` — the run hit `--max-calls` without answering;
4. `invalid_operation` — the last operation does not validate;
5. `search_missed` — an expected coordinate that the operation lacks never appeared in any
   tool result (navigate mode) or in the schema slice (slice mode); inline and oracle modes
   show the model everything up front;
6. `found_not_used` — every missing coordinate had been shown, but the operation lacks it
   (or the agent answered without an operation).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from schemanav.agent.prompts import EXECUTE_GRAPHQL, INTROSPECT_TYPE, LIST_FIELDS
from schemanav.build import field_coordinates

if TYPE_CHECKING:
    from graphql import GraphQLSchema

    from schemanav.agent.receipt import Receipt

Stage = Literal[
    "model_error",
    "context_truncated",
    "call_limit",
    "invalid_operation",
    "search_missed",
    "found_not_used",
]
STAGES: tuple[Stage, ...] = (
    "search_missed",
    "found_not_used",
    "invalid_operation",
    "context_truncated",
    "call_limit",
    "model_error",
)
OperationSource = Literal["executed", "answer"]

_FENCE = re.compile(r"```[^\n`]*\n(.*?)```", re.DOTALL)
_OPERATION_START = re.compile(r"^\s*(query|mutation|subscription|\{)", re.MULTILINE)
_TYPE_HEADER = re.compile(r"^\s*(?:type|interface|input)\s+([_A-Za-z][_0-9A-Za-z]*)")
_FIELD_LINE = re.compile(r"^\s+([_A-Za-z][_0-9A-Za-z]*)\s*[(:]", re.MULTILINE)


@dataclass(frozen=True)
class OperationCheck:
    """One operation against the schema: valid or not, what it selects, what it lacks."""

    valid: bool
    errors: tuple[str, ...]
    coordinates: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def success(self) -> bool:
        return self.valid and not self.missing


def check_operation(
    schema: GraphQLSchema, operation: str, expected: Sequence[str]
) -> OperationCheck:
    """Parse and validate `operation` (document rules only: variable values are not needed),
    then compare its field coordinates with `expected`."""
    from graphql import GraphQLSyntaxError, OperationDefinitionNode, parse, validate

    try:
        document = parse(operation)
    except GraphQLSyntaxError as err:
        return OperationCheck(False, (f"syntax error: {err.message}",), (), tuple(expected))
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    errors = [" ".join(e.message.split()) for e in validate(schema, document)]
    if len(operations) != 1:
        errors.insert(0, f"expected one operation, found {len(operations)}")
    present = field_coordinates(schema, document)
    missing = tuple(c for c in expected if c not in present)
    return OperationCheck(not errors, tuple(errors), present, missing)


def operation_in_text(text: str) -> str | None:
    """The last GraphQL operation written in an answer: a fenced block that parses, else the
    text from the first line starting with `query`/`mutation`/`{` to its end, else None."""
    from graphql import GraphQLSyntaxError, OperationDefinitionNode, parse

    candidates: list[str] = [str(block).strip() for block in _FENCE.findall(text)][::-1]
    start = _OPERATION_START.search(text)
    if start is not None:
        tail = text[start.start() :].strip()
        candidates.append(tail[: tail.rfind("}") + 1] if "}" in tail else tail)
    for candidate in candidates:
        try:
            document = parse(candidate)
        except GraphQLSyntaxError:
            continue
        if any(isinstance(d, OperationDefinitionNode) for d in document.definitions):
            return candidate
    return None


@dataclass(frozen=True)
class ToolExchange:
    """One tool call and the text its result put into the conversation."""

    name: str
    arguments: Any
    result: str


def exchanges(transcript: Mapping[str, Any]) -> list[ToolExchange]:
    """Tool calls and their results, in order, from an `AgentRun.transcript`."""
    calls: list[tuple[str, Any]] = []
    found: list[ToolExchange] = []
    for message in transcript.get("messages", ()):
        if message.get("role") == "assistant":
            calls.extend(
                (call["function"]["name"], call["function"]["arguments"])
                for call in message.get("tool_calls", ())
            )
        elif message.get("role") == "tool" and calls:
            name, arguments = calls.pop(0)
            found.append(ToolExchange(name, arguments, str(message.get("content") or "")))
    return found


def last_operation(
    receipt: Receipt, tool_exchanges: Sequence[ToolExchange]
) -> tuple[str, OperationSource] | None:
    """What the agent ended with: an operation in its answer, else the last it executed."""
    if receipt.answer:
        written = operation_in_text(receipt.answer)
        if written is not None:
            return written, "answer"
    for exchange in reversed(tool_exchanges):
        if exchange.name == EXECUTE_GRAPHQL and isinstance(exchange.arguments, Mapping):
            query = exchange.arguments.get("query")
            if isinstance(query, str):
                return query, "executed"
    return None


def surfaced(coordinate: str, tool_exchanges: Iterable[ToolExchange]) -> bool:
    """Whether a tool result showed the coordinate: named it (`Type.field`), or listed the
    field in a `listFields` / `introspectType` result for its type."""
    owner, _, name = coordinate.partition(".")
    for exchange in tool_exchanges:
        if coordinate in exchange.result:
            return True
        if exchange.name in (LIST_FIELDS, INTROSPECT_TYPE):
            header = _TYPE_HEADER.match(exchange.result)
            if header and header.group(1) == owner and name in _FIELD_LINE.findall(exchange.result):
                return True
    return False


@dataclass(frozen=True)
class TaskScore:
    success: bool
    stage: Stage | None
    operation: str | None
    operation_source: OperationSource | None
    valid: bool | None
    errors: tuple[str, ...]
    missing: tuple[str, ...]
    not_surfaced: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "stage": self.stage,
            "operation": self.operation,
            "operation_source": self.operation_source,
            "valid": self.valid,
            "errors": list(self.errors),
            "missing": list(self.missing),
            "not_surfaced": list(self.not_surfaced),
        }


def score_run(
    schema: GraphQLSchema,
    expected: Sequence[str],
    receipt: Receipt,
    transcript: Mapping[str, Any],
) -> TaskScore:
    """Success, or the stage of the failure (see the module docstring)."""
    tool_exchanges = exchanges(transcript)
    final = last_operation(receipt, tool_exchanges)
    check = check_operation(schema, final[0], expected) if final is not None else None
    missing = tuple(expected) if check is None else check.missing
    shown_up_front = receipt.mode in ("inline", "oracle")
    in_slice = set(transcript.get("shown_fields") or ())
    not_surfaced = (
        ()
        if shown_up_front
        else tuple(c for c in missing if c not in in_slice and not surfaced(c, tool_exchanges))
    )
    success = check is not None and check.success
    stage: Stage | None = None
    if not success:
        if receipt.stopped == "error":
            stage = "model_error"
        elif receipt.truncation_warnings:
            stage = "context_truncated"
        elif receipt.stopped == "max_calls":
            stage = "call_limit"
        elif check is not None and not check.valid:
            stage = "invalid_operation"
        elif not_surfaced:
            stage = "search_missed"
        else:
            stage = "found_not_used"
    return TaskScore(
        success=success,
        stage=stage,
        operation=None if final is None else final[0],
        operation_source=None if final is None else final[1],
        valid=None if check is None else check.valid,
        errors=() if check is None else check.errors,
        missing=missing,
        not_surfaced=not_surfaced,
    )
