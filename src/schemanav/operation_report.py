"""`schemanav validate` and `schemanav execute`: one operation a person or a script wrote,
checked and run exactly as the agent's and the MCP server's `validate` and `execute` tools do
(through `Navigator.validate` and `Navigator.execute`), reported for a terminal or as JSON.

- The operation comes from a file or `-` (stdin), at most `MAX_OPERATION_BYTES`; its variables
  from `--variables JSON` (an object, at most `MAX_TOOL_ARGUMENT_CHARS` long and `MAX_JSON_DEPTH`
  deep).
- `validate`: graphql-core parses and validates it against the schema and coerces the variables;
  then its cost (`schemanav.cost`: depth, aliases, estimated nodes from `first`/`last`) is
  measured against `--max-depth`, `--max-aliases` and `--max-nodes`.
- `execute`: the same checks, then a POST to `--endpoint` with the static `--header` values
  (`OperationRunner`: one deadline, `--timeout`; at most `MAX_RESPONSE_BYTES` read, cut to
  `--response-token-cap` tokens; header values and URL credentials redacted from all it says).

Exit codes: 0 valid (and, for `execute`, answered without errors); 2 bad input (an unreadable
file, bad variables, an invalid operation or one over a limit, no endpoint), with one `error:`
line that says what to do; 1 the endpoint failed (unreachable, too slow, an HTTP error status,
GraphQL errors in its answer).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from schemanav.cost import CostLimits, OperationCost, cost_problem
from schemanav.errors import InputError
from schemanav.limits import MAX_JSON_DEPTH, MAX_TOOL_ARGUMENT_CHARS, TooDeep, loads_json
from schemanav.records import to_json
from schemanav.textfile import decode_text, read_bytes

if TYPE_CHECKING:
    from rich.console import Console

    from schemanav.navigator import Navigator
    from schemanav.operations import OperationOutcome

STDIN = "-"
MAX_OPERATION_BYTES = 4 * MAX_TOOL_ARGUMENT_CHARS
"""Read at most this much (the longest operation the checks accept, in 4-byte characters)."""
ENDPOINT_ERRORS = 1
BAD_INPUT = 2


@dataclass(frozen=True)
class OperationReport:
    """What `validate` or `execute` found: `valid` (it passed every check before sending),
    `executed` (the endpoint ran it), `ok` (valid, and answered without errors when run),
    `message` (the checks' words, or the endpoint's answer), its `cost` once it validated."""

    source: str
    valid: bool
    executed: bool
    ok: bool
    message: str
    cost: OperationCost | None
    limits: CostLimits

    json_fields: ClassVar[tuple[str, ...]] = (
        "source",
        "valid",
        "executed",
        "ok",
        "cost",
        "limits",
        "message",
    )

    def as_dict(self) -> dict[str, Any]:
        return to_json(self)

    @classmethod
    def of(cls, source: str, outcome: OperationOutcome, limits: CostLimits) -> OperationReport:
        return cls(
            source,
            outcome.valid,
            outcome.executed,
            outcome.ok,
            outcome.text,
            outcome.cost,
            limits,
        )


def read_operation(source: str) -> str:
    """The operation in the file `source`, or on stdin for `-`; an `InputError` otherwise."""
    what = "operation file"
    if source == STDIN:
        data = sys.stdin.buffer.read(MAX_OPERATION_BYTES + 1)
        if len(data) > MAX_OPERATION_BYTES:
            raise InputError(
                f"the operation on stdin is over {MAX_OPERATION_BYTES:,} bytes; send a smaller one"
            )
        text = decode_text(data, Path("<stdin>"), "operation")
    else:
        path = Path(source)
        hint = " (pass a .graphql file, or - for stdin)"
        data = read_bytes(path, what, hint=hint, max_bytes=MAX_OPERATION_BYTES)
        text = decode_text(data, path, what)
    if not text.strip():
        where = "stdin" if source == STDIN else source
        raise InputError(f"{where}: the operation is empty; write a query in it")
    return text


def parse_variables(text: str | None) -> dict[str, Any] | None:
    """`--variables` as a JSON object; an `InputError` that never quotes it (it may hold a
    secret) otherwise."""
    if text is None:
        return None
    if len(text) > MAX_TOOL_ARGUMENT_CHARS:
        raise InputError(
            f"--variables is {len(text):,} characters long; the limit is "
            f"{MAX_TOOL_ARGUMENT_CHARS:,}"
        )
    try:
        value = loads_json(text, max_depth=MAX_JSON_DEPTH)
    except TooDeep as err:
        raise InputError(f"--variables is {err.message}; flatten it") from None
    except ValueError:
        raise InputError(
            '--variables is not valid JSON; write an object, e.g. --variables \'{"n": 5}\''
        ) from None
    if not isinstance(value, dict):
        raise InputError('--variables must be a JSON object, e.g. --variables \'{"n": 5}\'')
    return value


def check_operation(navigator: Navigator, source: str, variables: str | None) -> OperationReport:
    """`schemanav validate`: the checks alone, nothing sent."""
    operation, values = read_operation(source), parse_variables(variables)
    outcome = navigator.validate(operation, values)
    return OperationReport.of(source, outcome, navigator.operations.limits)


def execute_operation(
    navigator: Navigator, source: str, variables: str | None
) -> OperationReport:
    """`schemanav execute`: the checks, then the POST to the configured endpoint."""
    if navigator.settings.endpoint is None:
        raise InputError(
            "execute needs the GraphQL URL to run the operation at: pass --endpoint URL "
            "(or set SCHEMANAV_ENDPOINT)"
        )
    operation, values = read_operation(source), parse_variables(variables)
    outcome = navigator.execute(operation, values)
    return OperationReport.of(source, outcome, navigator.operations.limits)


def cost_lines(report: OperationReport) -> list[str]:
    """The cost against each limit, one line each (nothing before the operation validated)."""
    cost, limits = report.cost, report.limits
    if cost is None:
        return []
    rows = (
        ("depth", cost.depth, limits.max_depth, "--max-depth"),
        ("aliases", cost.aliases, limits.max_aliases, "--max-aliases"),
        ("estimated nodes", cost.nodes, limits.max_nodes, "--max-nodes"),
    )
    return [
        f"{label:<16}{value:>12,}   limit {limit:,} ({flag}){'  OVER' if value > limit else ''}"
        for label, value, limit, flag in rows
    ]


def problem_line(report: OperationReport) -> tuple[str, int] | None:
    """The one `error:` line and exit code of a report that failed, or None."""
    if report.ok:
        return None
    message = report.message
    if not report.valid:
        refused = cost_problem(report.cost, report.limits) if report.cost else None
        if refused is not None:  # names the limit, the way to raise it and what to change
            return f"error: {refused}", BAD_INPUT
        if "\n" in message:  # graphql-core's validation errors, listed on stdout
            count = message.split("\n", 1)[0].removeprefix("invalid operation ").strip("():")
            return (
                f"error: the operation does not validate against the schema ({count}); "
                "fix what the list above names and run it again",
                BAD_INPUT,
            )
        if message.startswith("syntax error"):
            return f"error: {message} Fix the operation's syntax.", BAD_INPUT
        return f"error: {message}", BAD_INPUT
    if report.executed and message.startswith("the endpoint answered HTTP"):
        status = message.removeprefix("the endpoint answered HTTP ").split(":", 1)[0]
        return (
            f"error: the endpoint answered HTTP {status} (printed above); "
            "check --endpoint and --header",
            ENDPOINT_ERRORS,
        )
    if report.executed:
        return (
            "error: the endpoint answered with errors (printed above); "
            "fix the operation or its variables",
            ENDPOINT_ERRORS,
        )
    return f"error: {message}", ENDPOINT_ERRORS


def render_report(out: Console, err: Console, report: OperationReport, *, executing: bool) -> int:
    """Print `report` for a terminal and return the exit code. `validate` prints the verdict
    (or graphql-core's errors) and the cost on stdout; `execute` prints the endpoint's answer
    alone on stdout (for a pipe) and the cost on stderr."""
    failed = problem_line(report)
    cost = cost_lines(report)
    if executing:
        for line in cost:
            err.print(line)
        if report.executed:
            out.print(report.message, soft_wrap=True)
    else:
        if report.valid:
            out.print("valid: the operation validates against the schema")
        elif "\n" in report.message:
            out.print(report.message)
        for line in cost:
            out.print(line)
    return _finish(err, failed)


def json_exit(err: Console, report: OperationReport) -> int:
    """The exit code of a report printed as JSON; its `error:` line on stderr when it failed."""
    return _finish(err, problem_line(report))


def _finish(err: Console, failed: tuple[str, int] | None) -> int:
    if failed is None:
        return 0
    err.print(failed[0])
    return failed[1]
