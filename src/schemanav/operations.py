"""Checking and running an operation: what the agent's `executeGraphql`, the MCP server and the
GraphQL endpoint all do with a query an agent wrote.

Every outcome is text an agent can act on, never an exception: a syntax error, a refused
mutation, validation errors (compacted to their messages plus a hint), an unreachable
endpoint. Header values and the endpoint's URL credentials are secrets: every text that leaves
`OperationRunner` is redacted in every form (raw, JSON-escaped, percent-encoded) BEFORE it is cut
to the token cap, so neither a whole nor a partial secret reaches the model or a transcript. The
endpoint's answer is bounded in size (`MAX_RESPONSE_BYTES`) and in total time (`timeout`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from schemanav.cost import CostLimits, OperationCost, cost_problem, operation_cost
from schemanav.limits import (
    MAX_RESPONSE_BYTES,
    MAX_TOOL_ARGUMENT_CHARS,
    DeadlineExceeded,
    TooDeep,
    TooLarge,
    decoded_chunks,
    describe_bytes,
    loads_json,
    read_capped,
    run_with_deadline,
)
from schemanav.redaction import MIN_SECRET_LENGTH, Redactor
from schemanav.text import strip_control
from schemanav.tokens import ENCODING_NAME, encoding

if TYPE_CHECKING:
    from graphql import DocumentNode, GraphQLError, GraphQLSchema

VALIDATION_HINT = "introspect the types named in the errors before retrying"
MAX_ERROR_MESSAGES = 8
__all__ = [
    "MIN_SECRET_LENGTH",
    "OperationOutcome",
    "OperationRunner",
    "Redactor",
    "compact_errors",
    "cut_to_tokens",
    "validate_operation",
    "with_forwarded",
]


def with_forwarded(static: Mapping[str, str], forwarded: Mapping[str, str]) -> dict[str, str]:
    """The headers of a request that carries a caller's own (`forwarded`): a static header of
    the same name, in any case, gives way to the caller's, so the API never gets both."""
    if not forwarded:
        return dict(static)
    named = {name.lower() for name in forwarded}
    return {**{k: v for k, v in static.items() if k.lower() not in named}, **forwarded}


@dataclass(frozen=True)
class OperationOutcome:
    """What happened to one operation; `text` is what an agent is shown. `cost` is the
    operation's once it was measured (it validated), `valid` whether it passed every check
    before sending (validation and the cost limits): a front end tells bad input (it did not)
    from a failure of the endpoint (it did)."""

    ok: bool
    text: str
    executed: bool = False
    cost: OperationCost | None = None
    valid: bool = False


def cut_to_tokens(text: str, cap: int) -> tuple[str, int]:
    """The first `cap` o200k_base tokens of `text`, and how many tokens the whole text has."""
    ids = encoding().encode_ordinary(text)
    if len(ids) <= cap:
        return text, len(ids)
    return encoding().decode(ids[:cap]), len(ids)


def validate_operation(
    schema: GraphQLSchema,
    query: str,
    variables: Mapping[str, Any] | None = None,
    *,
    allow_mutations: bool = False,
    limits: CostLimits | None = None,
) -> OperationOutcome:
    """Parse, refuse what must not run (mutations unless allowed, subscriptions), validate
    against `schema`, coerce `variables` and check the cost against `limits` (default
    `CostLimits()`). `ok` means the operation may be sent."""
    from graphql import GraphQLSyntaxError, OperationDefinitionNode, OperationType, parse

    if len(query) > MAX_TOOL_ARGUMENT_CHARS:
        return OperationOutcome(
            False,
            f"the operation is {len(query):,} characters long; the limit is "
            f"{MAX_TOOL_ARGUMENT_CHARS:,}: select fewer fields",
        )
    try:
        document = parse(query)
    except RecursionError:
        return OperationOutcome(False, "the operation is nested too deeply to parse")
    except GraphQLSyntaxError as err:
        where = ""
        if err.locations:
            where = f" at line {err.locations[0].line}, column {err.locations[0].column}"
        return OperationOutcome(False, f"syntax error{where}: {err.message}")
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if len(operations) != 1:
        return OperationOutcome(
            False,
            f"send exactly one operation per call (this document has {len(operations)})",
        )
    operation = operations[0]
    if operation.operation is OperationType.MUTATION and not allow_mutations:
        return OperationOutcome(
            False,
            "mutations are refused in this run (the user did not pass --allow-mutations); "
            "read data with a query instead",
        )
    if operation.operation is OperationType.SUBSCRIPTION:
        return OperationOutcome(False, "subscriptions cannot be run here; use a query")
    try:
        problems = _problems(schema, document, variables)
    except RecursionError:
        return OperationOutcome(False, "the operation or its variables are nested too deeply")
    if problems:
        return OperationOutcome(False, compact_errors(problems))
    try:
        cost = operation_cost(document, operation, variables)
    except RecursionError:
        return OperationOutcome(False, "the operation is nested too deeply")
    refused = cost_problem(cost, limits or CostLimits())
    if refused is not None:
        return OperationOutcome(False, f"{refused} ({cost.describe()})", cost=cost)
    return OperationOutcome(
        True,
        f"valid: the operation validates against the schema ({cost.describe()})",
        cost=cost,
        valid=True,
    )


def _problems(
    schema: GraphQLSchema, document: DocumentNode, variables: Mapping[str, Any] | None
) -> Sequence[GraphQLError]:
    from graphql import OperationDefinitionNode, get_variable_values, validate

    errors = validate(schema, document)
    if errors:
        return errors
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    coerced = get_variable_values(
        schema,
        operation.variable_definitions or (),
        dict(variables or {}),
        max_errors=MAX_ERROR_MESSAGES,
    )
    return coerced if isinstance(coerced, list) else []


def compact_errors(errors: Sequence[GraphQLError]) -> str:
    """Messages only (no locations, no source excerpts), each once, then the hint."""
    messages: list[str] = []
    for error in errors:
        message = " ".join(error.message.split())
        if message not in messages:
            messages.append(message)
    shown = messages[:MAX_ERROR_MESSAGES]
    lines = [f"invalid operation ({len(messages)} error{'s' if len(messages) != 1 else ''}):"]
    lines.extend(f"- {message}" for message in shown)
    if len(messages) > len(shown):
        lines.append(f"- … and {len(messages) - len(shown)} more")
    lines.append(f"Hint: {VALIDATION_HINT}.")
    return "\n".join(lines)


def post_bounded(
    endpoint: str,
    body: Mapping[str, Any],
    headers: Mapping[str, str],
    timeout: float,
    max_bytes: int = MAX_RESPONSE_BYTES,
) -> tuple[int, bytes, str]:
    """POST `body` as JSON: (status, body decompressed, charset), within `timeout` seconds in
    all (`DeadlineExceeded`, or httpx's `TimeoutException`) and `max_bytes` after
    decompression (`TooLarge`). Blocking: the GraphQL endpoint calls it in a worker thread."""
    import threading

    import httpx

    sent = {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Accept-Encoding": "gzip, identity",
        **headers,
    }

    def fetch(cancelled: threading.Event) -> tuple[int, bytes, str]:
        with (
            httpx.Client(timeout=timeout) as client,
            client.stream("POST", endpoint, json=dict(body), headers=sent) as response,
        ):
            content = read_capped(decoded_chunks(response), max_bytes, cancelled)
            return response.status_code, content, response.encoding or "utf-8"

    return run_with_deadline(fetch, timeout)


class OperationRunner:
    """Validates an operation, then POSTs it to `endpoint` (if any) with the secret headers.

    The response is cut to `response_token_cap` tokens; every text it returns is redacted.
    """

    def __init__(
        self,
        schema: GraphQLSchema,
        *,
        endpoint: str | None = None,
        headers: Mapping[str, str] | None = None,
        allow_mutations: bool = False,
        response_token_cap: int = 2000,
        timeout: float = 30.0,
        limits: CostLimits | None = None,
    ) -> None:
        self.schema = schema
        self.endpoint = endpoint
        self._headers = dict(headers or {})
        self.allow_mutations = allow_mutations
        self.response_token_cap = response_token_cap
        self.timeout = timeout
        self.limits = limits or CostLimits()
        self.redact = Redactor(self._headers, urls=[endpoint] if endpoint else ())

    def validate(self, query: str, variables: Mapping[str, Any] | None = None) -> OperationOutcome:
        outcome = validate_operation(
            self.schema,
            query,
            variables,
            allow_mutations=self.allow_mutations,
            limits=self.limits,
        )
        return replace(outcome, text=self.redact(outcome.text))

    def run(
        self,
        query: str,
        variables: Mapping[str, Any] | None = None,
        forwarded: Mapping[str, str] | None = None,
    ) -> OperationOutcome:
        """Validate, then POST; `forwarded` headers (a caller's own credentials, passed on by
        a server) go with this request only and are redacted from what it answers."""
        redact = self.redact
        if forwarded:
            urls = [self.endpoint] if self.endpoint else ()
            redact = Redactor({**self._headers, **forwarded}, urls=urls)
        checked = self.validate(query, variables)
        if not checked.ok:
            return replace(checked, text=redact(checked.text))
        if self.endpoint is None:
            return replace(
                checked,
                text="valid: the operation validates against the schema; it was not executed "
                "because no endpoint is configured",
            )
        outcome = self._post(self.endpoint, query, variables, forwarded or {}, redact)
        return replace(
            checked, ok=outcome.ok, text=redact(outcome.text), executed=outcome.executed
        )

    def _post(
        self,
        endpoint: str,
        query: str,
        variables: Mapping[str, Any] | None,
        forwarded: Mapping[str, str],
        redact: Callable[[str], str],
    ) -> OperationOutcome:
        import httpx

        body: dict[str, Any] = {"query": query}
        if variables:
            body["variables"] = dict(variables)
        try:
            status, content, charset = post_bounded(
                endpoint, body, with_forwarded(self._headers, forwarded), self.timeout
            )
        except (httpx.TimeoutException, DeadlineExceeded):
            return OperationOutcome(
                False, f"the endpoint did not answer within {self.timeout:g} s; try a smaller query"
            )
        except TooLarge:
            return OperationOutcome(
                False,
                f"the endpoint answered with more than {describe_bytes(MAX_RESPONSE_BYTES)}; "
                "select fewer fields or ask for fewer items",
                executed=True,
            )
        except (httpx.HTTPError, httpx.InvalidURL, UnicodeError, ValueError) as err:
            return OperationOutcome(
                False, f"cannot reach the endpoint ({type(err).__name__}); the query was not run"
            )
        try:
            text = content.decode(charset, errors="replace")
        except LookupError:  # a charset Python does not know
            text = content.decode("utf-8", errors="replace")
        ok = 200 <= status < 300  # a redirect is not the answer (it is not followed)
        try:
            payload = loads_json(content)
            text = json.dumps(payload, ensure_ascii=False)
        except TooDeep:
            text, ok = "the endpoint answered with JSON nested too deeply to read", False
        except (ValueError, RecursionError):
            # Not JSON: its text as read, without the escapes that would drive a terminal.
            text = strip_control(text)
        else:
            if isinstance(payload, dict) and payload.get("errors"):
                ok = False
        if 300 <= status < 400:
            text = (
                f"the endpoint answered HTTP {status} (a redirect, which is not followed: use "
                f"the URL it points to): {text}"
            )
        elif not 200 <= status < 300:
            text = f"the endpoint answered HTTP {status}: {text}"
        # Redact first: a cut can leave a prefix of a secret that no longer matches.
        return OperationOutcome(ok, self._capped(redact(text)), executed=True)

    def _capped(self, text: str) -> str:
        kept, total = cut_to_tokens(text, self.response_token_cap)
        if total <= self.response_token_cap:
            return text
        return (
            f"{kept}\n[response cut to {self.response_token_cap} of {total} tokens "
            f"({ENCODING_NAME}); select fewer fields or ask for fewer items]"
        )
