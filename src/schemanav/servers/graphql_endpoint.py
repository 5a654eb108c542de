"""`schemanav serve`: the user's schema plus Semantic Introspection, over GraphQL-over-HTTP.

The query root gains the two fields of the Semantic Introspection RFC (graphql/ai-wg
`rfcs/semantic-introspection.md`), with its types to the letter:

    __search(query: String!, first: Int! = 10, after: String, minScore: Float): [__SearchResult!]!
    __definitions(coordinates: [String!]!): [__SchemaDefinition!]!

    type __SearchResult {
      coordinate: String!                 # a type, field, argument, enum value or directive
      definition: __SchemaDefinition!     # the matched member
      pathsToRoot: [[String!]!]!          # root-first coordinate lists, best first
      score: Float                        # 0–1, relative to the best field of this search
      cursor: String!                     # pass as `after` for the results after this one
    }
    union __SchemaDefinition = __Type | __Field | __InputValue | __EnumValue | __Directive

Paging and scores: `schemanav.servers.semantic_search`. `__definitions` answers the known
coordinates in order; an unknown one is left out of the list (as Hot Chocolate does) and named
in an `errors` entry with the closest coordinates, so the list stays `[__SchemaDefinition!]!`
and one typo does not null the whole answer.

`definition` and `__definitions` answer with graphql-core's own introspection types, so
`... on __Field { name type { name } args { name } }` reads exactly like `__type`.
Introspection (`__schema`, `__type`) is answered here and shows the new fields and types.

Any other operation is validated locally against the user's schema (mutations refused unless
allowed) and forwarded to the upstream endpoint with the configured headers; its JSON answer
is passed back (header values redacted). Without an upstream, or when it cannot be reached,
the answer is a GraphQL error, never an HTTP 500. The upstream call has the CLI's bounds: one
total deadline (`--timeout`), `MAX_RESPONSE_BYTES` after decompression, `MAX_JSON_DEPTH`.

Every answer, local or forwarded, is redacted after its JSON is parsed, so an escaped form of a
header value is caught too. The schema, the corpus and the search index are built once, in
`SemanticEndpoint(...)`; a request parses only its own document, and all its work (parsing,
the bounds of `request_limits`, validation, search, execution) runs in a worker thread, so one
costly request never blocks the event loop that answers the others.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from schemanav.errors import InputError, MissingExtra
from schemanav.limits import MAX_JSON_DEPTH, MAX_RESPONSE_BYTES, loads_json
from schemanav.redaction import Redactor
from schemanav.schema import headers_from, schema_source
from schemanav.servers.fair_share import (
    COSTLY_WEIGHT,
    Busy,
    CostlyTurns,
    request_weight,
    root_field_nodes,
)
from schemanav.servers.forwarding import pick_forwarded
from schemanav.servers.metrics import RequestOutcome
from schemanav.servers.request_limits import (
    MAX_DOCUMENT_CHARS,
    MAX_DOCUMENT_TOKENS,
    BudgetSpent,
    RequestBudget,
    RequestTooCostly,
    answer_too_large,
    check_document,
    resolved_field_cap,
)
from schemanav.servers.semantic_search import MAX_FIRST, search_results
from schemanav.servers.tools import MAX_COORDINATES

if TYPE_CHECKING:
    from graphql import DocumentNode, GraphQLSchema, OperationDefinitionNode
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from schemanav.navigator import Navigator

GRAPHQL_PATH = "/graphql"
DEFAULT_FIRST = 10
MAX_BODY_BYTES = 1_000_000
DOCUMENT_CACHE = 512
CACHED_CHARS = 20_000
SEARCH = "__search"
DEFINITIONS = "__definitions"
INTROSPECTION_ROOTS = frozenset({"__schema", "__type", "__typename"})
SEMANTIC_ROOTS = frozenset({SEARCH, DEFINITIONS})
TOKENS_REFUSED = "tokens; send a smaller document"
CHARS_REFUSED = "characters; send a smaller document"
INLINE_QUERY_CHARS = 2_000
"""A request whose document is at most this long, with no variables but short scalars, is
answered on the event loop: parsing and validating it, and any answer the cost bounds leave
uncostly (a page of `__search`), take less than the hop to a worker thread and back (0.5 ms on
a busy machine). A longer document is parsed in a thread, so the loop never waits on it, and a
costly answer waits for its turn on threads of its own (`fair_share`) either way."""
INLINE_VARIABLE_CHARS = 1_000
MISSING_EXTRA = ("the GraphQL server needs Starlette and uvicorn", "serve")

SEMANTIC_SDL = f"""
extend type {{query}} {{
  "Schema members ranked for a question in plain words, best first."
  {SEARCH}(
    "What you need, in plain words."
    query: String!
    "How many results at most (1 to {MAX_FIRST})."
    first: Int! = {DEFAULT_FIRST}
    "The cursor of a result: the page starts after it."
    after: String
    "Only results scoring at least this (scores lie from 0 to 1)."
    minScore: Float
  ): [__SearchResult!]!
  "Definitions of schema coordinates, in order; unknown ones are left out and named in errors."
  {DEFINITIONS}(coordinates: [String!]!): [__SchemaDefinition!]!
}}

"One hit of __search."
type __SearchResult {{
  "The hit: Type, Type.field, Type.field(arg:), Input.field, Enum.VALUE or @directive."
  coordinate: String!
  "The matched member."
  definition: __SchemaDefinition!
  "Ways to reach the hit from the root: root-first coordinate lists, best first."
  pathsToRoot: [[String!]!]!
  "Relevance from 0 to 1, relative to the best field of this search."
  score: Float
  "Pass as after to get the results after this one."
  cursor: String!
}}

"A schema member, as introspection describes it."
union __SchemaDefinition = __Type | __Field | __InputValue | __EnumValue | __Directive
"""


def semantic_schema(schema: GraphQLSchema) -> GraphQLSchema:
    """`schema` with `__search` and `__definitions` on its query root (resolvers attached
    by `SemanticEndpoint`). Names starting with `__` are reserved by the spec for
    introspection, so graphql-core's schema validation is switched off for this schema, as
    the proposal asks of servers that implement it."""
    from graphql import extend_schema, parse

    if schema.query_type is None:
        raise InputError("the schema has no query type, so there is nothing to serve")
    extension = parse(SEMANTIC_SDL.replace("{query}", schema.query_type.name))
    extended = extend_schema(schema, extension, assume_valid=True, assume_valid_sdl=True)
    extended._validation_errors = []
    return extended


class _Request(RequestBudget):
    """One request's budget (`request_limits`), and the errors it reports beside its data
    (unknown `__definitions` coordinates)."""

    def __init__(self, max_fields: int) -> None:
        super().__init__(max_fields)
        self.notes: list[Any] = []


def _definition_type(value: Any, _info: Any, _union: Any) -> str:
    from graphql import GraphQLDirective, GraphQLEnumValue, GraphQLField, GraphQLNamedType

    if isinstance(value, GraphQLNamedType):
        return "__Type"
    if isinstance(value, GraphQLDirective):
        return "__Directive"
    member = value[1]
    if isinstance(member, GraphQLField):
        return "__Field"
    if isinstance(member, GraphQLEnumValue):
        return "__EnumValue"
    return "__InputValue"


class SemanticEndpoint:
    """One schema served: the semantic schema, the warm index and the upstream client."""

    def __init__(
        self,
        navigator: Navigator,
        *,
        upstream: str | None = None,
        timeout: float | None = None,
        forward: tuple[str, ...] = (),
    ) -> None:
        from graphql import GraphQLUnionType

        self.navigator = navigator
        self.upstream = upstream
        self.forward = forward
        """Header names passed from the caller to the upstream (`servers.forwarding`)."""
        self.timeout = timeout or navigator.settings.timeout
        self._headers = headers_from(navigator.settings)
        # The header values and the credentials of every URL this endpoint knows.
        urls = (upstream, schema_source(navigator.settings), navigator.settings.endpoint)
        self.redact = Redactor(self._headers, urls=[url for url in urls if url])
        self.schema = semantic_schema(navigator.loaded.schema)
        query_type = self.schema.query_type
        assert query_type is not None
        query_type.fields[SEARCH].resolve = self._resolve_search
        query_type.fields[DEFINITIONS].resolve = self._resolve_definitions
        union = self.schema.get_type("__SchemaDefinition")
        assert isinstance(union, GraphQLUnionType)
        union.resolve_type = _definition_type
        navigator.searcher().search("warm up", 1)
        navigator.members.page("warm up", count=1)
        self.version = hashlib.sha256(navigator.corpus.fingerprint().encode()).hexdigest()[:16]
        """The schema a cursor was given out for (a cursor of another is refused)."""
        # Requests run in worker threads (a small one on the event loop, when no search holds
        # the index); searches take turns on the one warm index.
        self._search_lock = threading.Lock()
        self._max_fields = resolved_field_cap()
        # Agents send the same documents with new variables: parse and validate each once
        # (documents up to CACHED_CHARS long, so the cache stays small).
        self._parse_cached = lru_cache(maxsize=DOCUMENT_CACHE)(self._parse_uncached)
        self._validate_cached = lru_cache(maxsize=DOCUMENT_CACHE)(self._validate_uncached)
        # Costly requests answered here take turns, per client and in all (`fair_share`).
        self._turns = CostlyTurns()

    def _parse(self, query: str) -> DocumentNode | dict[str, Any]:
        if len(query) > MAX_DOCUMENT_CHARS:  # refused before a single token is lexed
            return _error(f"the document has more than {MAX_DOCUMENT_CHARS:,} {CHARS_REFUSED}")
        if len(query) > CACHED_CHARS:
            return self._parse_uncached(query)
        return self._parse_cached(query)

    def _validate(self, query: str) -> list[Any]:
        if len(query) > CACHED_CHARS:
            return self._validate_uncached(query)
        return self._validate_cached(query)

    def _parse_uncached(self, query: str) -> DocumentNode | dict[str, Any]:
        from graphql import GraphQLSyntaxError, parse

        try:
            return parse(query, max_tokens=MAX_DOCUMENT_TOKENS)
        except GraphQLSyntaxError as err:
            # graphql-core's own words for its token and nesting limits.
            if "tokens. Parsing aborted" in err.message:
                return _error(
                    f"the document has more than {MAX_DOCUMENT_TOKENS:,} {TOKENS_REFUSED}"
                )
            if "nested too deeply" in err.message:
                return _error("the document is nested too deeply to parse")
            return {"errors": [err.formatted]}
        except RecursionError:
            return _error("the document is nested too deeply to parse")

    def _validate_uncached(self, query: str) -> list[Any]:
        from graphql import validate

        document = self._parse(query)
        assert not isinstance(document, dict)
        return [error.formatted for error in validate(self.schema, document)]

    # resolvers -------------------------------------------------------------------------------

    def _item(self, coordinate: str) -> Any:
        from schemanav.schema.define import introspection_item

        return introspection_item(self.schema, coordinate)

    def _resolve_search(self, _root: Any, info: Any, **args: Any) -> list[Any]:
        from graphql import GraphQLError

        if isinstance(info.context, RequestBudget) and 1 <= args["first"] <= MAX_FIRST:
            info.context.spend_first(args["first"])
        try:
            with self._search_lock:
                results = search_results(
                    self.navigator.members,
                    self.version,
                    args["query"],
                    args["first"],
                    args.get("after"),
                    args.get("minScore"),
            )
        except ValueError as err:
            raise GraphQLError(f"__search: {err}") from None
        for result in results:
            # Resolved only when selected.
            result["definition"] = lambda _info, c=result["coordinate"]: self._item(c)
        return results

    def _resolve_definitions(self, _root: Any, info: Any, coordinates: list[str]) -> list[Any]:
        from graphql import GraphQLError

        if len(coordinates) > MAX_COORDINATES:
            raise GraphQLError(
                f"__definitions: at most {MAX_COORDINATES} coordinates per request, "
                f"got {len(coordinates)}"
            )
        items: list[Any] = []
        for coordinate in coordinates:
            try:
                items.append(self._item(coordinate))
            except LookupError as err:
                # Left out of the non-null list, and said in `errors` (see the module doc).
                if isinstance(info.context, _Request):
                    info.context.notes.append(
                        GraphQLError(f"__definitions: {err}", path=[*info.path.as_list()])
                    )
        return items

    # HTTP ------------------------------------------------------------------------------------

    def app(self, current: Callable[[], SemanticEndpoint] | None = None) -> Starlette:
        """The ASGI app: POST (JSON) and GET (queries only) on `/graphql`; each request is
        answered by `current()` (default this endpoint), read once, so by one schema only."""
        try:
            from starlette.applications import Starlette
            from starlette.routing import Route
        except ImportError:
            raise MissingExtra(*MISSING_EXTRA) from None
        serving = current or (lambda: self)

        async def handle(request: Request) -> Response:
            return await serving().handle(request)

        return Starlette(routes=[Route(GRAPHQL_PATH, handle, methods=["GET", "POST"])])

    async def handle(self, request: Request, outcome: RequestOutcome | None = None) -> Response:
        """The HTTP answer to one request; `outcome` (when given) says what it was."""
        outcome = outcome or RequestOutcome()
        params, problem = await _request_params(request)
        if problem is not None:
            if problem.status_code == 413:
                outcome.refused("body_bytes")
            else:
                outcome.outcome = "error"
            return problem
        query, variables, operation_name = params
        if request.method == "GET" and not await asyncio.to_thread(
            self._is_query, query, operation_name
        ):
            message = "only queries may be sent with GET; send mutations with POST"
            outcome.outcome = "error"
            return _json(_error(message), 405)
        forwarded = pick_forwarded(request.headers, self.forward)
        client = request.client.host if request.client is not None else ""
        answer = await self.answer(
            query, variables, operation_name, forwarded=forwarded, client=client, outcome=outcome
        )
        if outcome.outcome == "ok" and answer.get("errors"):
            outcome.outcome = "error"
        return _json(answer)

    def _is_query(self, query: str, operation_name: str | None) -> bool:
        """False only for a document whose operation is surely not a query."""
        from graphql import OperationType

        document = self._parse(query)
        if isinstance(document, dict):
            return True  # the syntax error is answered as such
        operation = _operation(document, operation_name)
        return isinstance(operation, str) or operation.operation is OperationType.QUERY

    async def answer(
        self,
        query: str,
        variables: Mapping[str, Any] | None,
        operation_name: str | None,
        *,
        forwarded: Mapping[str, str] | None = None,
        client: str = "",
        outcome: RequestOutcome | None = None,
    ) -> dict[str, Any]:
        """The GraphQL response (a dict with `data` and/or `errors`) to one request;
        `forwarded` headers go to the upstream with it, and are redacted from its answer;
        `outcome` (when given) is told the operation's kind, and a bound that refused it. A
        costly request answered here waits for its turn (`fair_share`): one per `client` at a
        time, a few in all, on threads of their own."""
        outcome = outcome or RequestOutcome()
        # A small request is answered here, on the event loop (`INLINE_QUERY_CHARS`); any
        # other in a worker thread.
        arguments = (query, variables, operation_name, forwarded, True, outcome)
        if _answered_inline(query, variables) and not self._search_lock.locked():
            # Small, and no search holds the index (one would make the loop wait for it).
            local = self._answer_here(*arguments)
        else:
            local = await asyncio.to_thread(self._answer_here, *arguments)
        if local is _COSTLY:
            try:
                local = await self._turns.run(
                    client,
                    lambda: self._answer_here(
                        query, variables, operation_name, forwarded, False, outcome
                    ),
                )
            except Busy:
                outcome.refused("costly_queue")
                return _error(
                    "the server is answering many costly requests (introspection, many "
                    "__definitions or __search results); send this one again in a moment"
                )
        if local is not None:
            # The caller's forwarded headers are secrets here too: a local error may quote
            # the request that carried them (a syntax error, an unknown coordinate).
            return Redactor(forwarded).json(local) if forwarded else local
        return await self._forward(query, variables, operation_name, forwarded or {}, outcome)

    def _answer_here(
        self,
        query: str,
        variables: Mapping[str, Any] | None,
        operation_name: str | None,
        forwarded: Mapping[str, str] | None = None,
        defer_costly: bool = False,
        outcome: RequestOutcome | None = None,
    ) -> dict[str, Any] | None:
        """The answer when this endpoint gives it, redacted; None when the operation is valid
        and goes upstream; `_COSTLY` (with `defer_costly`) when it would be answered here and
        is costly, to be run in its turn. Blocking (parsing, validation, search): run in a
        worker thread, or on the event loop for a small request (`INLINE_QUERY_CHARS`)."""
        outcome = outcome or RequestOutcome()
        document = self._parse(query)
        if isinstance(document, dict):
            message = str(document["errors"][0].get("message", ""))
            if TOKENS_REFUSED in message:
                outcome.refused("document_tokens")
            elif CHARS_REFUSED in message:
                outcome.refused("document_chars")
            return document
        operation = _operation(document, operation_name)
        if isinstance(operation, str):
            return _error(operation)
        try:
            check_document(document, operation, SEMANTIC_ROOTS)
        except RequestTooCostly as err:
            outcome.refused(err.limit)
            return _error(err.message)
        roots = _root_fields(document, operation)
        semantic = roots & SEMANTIC_ROOTS
        outcome.kind = (
            ("search" if SEARCH in semantic else "definitions")
            if semantic
            else "introspection"
            if roots <= INTROSPECTION_ROOTS
            else "forwarded"
        )
        if semantic or roots <= INTROSPECTION_ROOTS:
            if roots - SEMANTIC_ROOTS - INTROSPECTION_ROOTS:
                return _error(
                    f"ask {' and '.join(sorted(semantic))} in a request of their own: the "
                    "other fields are forwarded to the API, which does not know them"
                )
            if defer_costly and request_weight(document, operation, variables) >= COSTLY_WEIGHT:
                return _COSTLY
            answered: dict[str, Any] = self.redact.json(
                self._execute_here(query, document, variables, operation_name, outcome)
            )
            return answered
        if self.upstream is None:
            return _error(
                "this endpoint answers __search, __definitions and introspection only; "
                "start it with --upstream URL to run other operations"
            )
        checked = self.navigator.validate(query, variables)
        if not checked.ok:
            return _error(checked.text)
        return None

    def _execute_here(
        self,
        query: str,
        document: DocumentNode,
        variables: Mapping[str, Any] | None,
        operation_name: str | None,
        outcome: RequestOutcome,
    ) -> dict[str, Any]:
        from graphql import ExecutionResult, execute

        from schemanav.servers.leaf_lists import LeafListExecutor

        errors = self._validate(query)
        if errors:
            return {"errors": errors}
        budget = _Request(self._max_fields)
        try:
            result = execute(
                self.schema,
                document,
                context_value=budget,
                variable_values=dict(variables) if variables else None,
                operation_name=operation_name,
                middleware=[budget],
                executor_class=LeafListExecutor,
            )
        except BudgetSpent as spent:
            outcome.refused(spent.limit)
            return _error(spent.message)
        assert isinstance(result, ExecutionResult)  # every resolver here is synchronous
        if budget.notes:
            result.errors = [*(result.errors or []), *budget.notes]
        formatted = dict(result.formatted)
        too_large = answer_too_large(len(json.dumps(formatted, ensure_ascii=False)))
        if too_large:
            outcome.refused("answer_bytes")
            return _error(too_large)
        return formatted

    async def _forward(
        self,
        query: str,
        variables: Mapping[str, Any] | None,
        operation_name: str | None,
        forwarded: Mapping[str, str],
        outcome: RequestOutcome,
    ) -> dict[str, Any]:
        """The upstream's answer, bounded like the CLI's (`post_bounded`) and redacted."""
        assert self.upstream is not None
        body: dict[str, Any] = {"query": query}
        if variables:
            body["variables"] = dict(variables)
        if operation_name:
            body["operationName"] = operation_name
        return await asyncio.to_thread(
            self._post_upstream, self.upstream, body, forwarded, outcome
        )

    def _post_upstream(
        self,
        upstream: str,
        body: dict[str, Any],
        forwarded: Mapping[str, str],
        outcome: RequestOutcome | None = None,
    ) -> dict[str, Any]:
        import httpx

        from schemanav.limits import DeadlineExceeded, TooDeep, TooLarge, describe_bytes
        from schemanav.operations import post_bounded, with_forwarded

        try:
            status, content, _charset = post_bounded(
                upstream, body, with_forwarded(self._headers, forwarded), self.timeout
            )
        except (httpx.TimeoutException, DeadlineExceeded):
            _upstream_failed(outcome, "timeout")
            return _error(f"the upstream API did not answer within {self.timeout:g} s")
        except TooLarge:
            _upstream_failed(outcome, "too_large")
            return _error(
                "the upstream API answered with more than "
                f"{describe_bytes(MAX_RESPONSE_BYTES)}; select fewer fields or ask for fewer items"
            )
        except (httpx.HTTPError, httpx.InvalidURL, UnicodeError, ValueError) as err:
            _upstream_failed(outcome, "unreachable")
            return _error(
                f"cannot reach the upstream API ({type(err).__name__}); the operation was not run"
            )
        if 300 <= status < 400:  # its body is not the answer, and a redirect is not followed
            return _error(
                f"the upstream API answered HTTP {status} (a redirect, which is not followed); "
                "the operation was not answered"
            )
        try:
            payload = loads_json(content, max_depth=MAX_JSON_DEPTH)
        except TooDeep as err:
            _upstream_failed(outcome, "not_graphql")
            return _error(f"the upstream API answered with JSON {err.message}")
        except ValueError:
            payload = None
        if isinstance(payload, dict) and ("data" in payload or "errors" in payload):
            redacted: dict[str, Any] = self.redact.json(payload)
            if forwarded:
                redacted = Redactor(forwarded).json(redacted)
            return redacted
        _upstream_failed(outcome, "not_graphql")
        return _error(f"the upstream API answered HTTP {status} without a GraphQL result")


def _upstream_failed(outcome: RequestOutcome | None, reason: str) -> None:
    if outcome is not None:
        outcome.upstream_error = reason


async def _request_params(
    request: Request,
) -> tuple[tuple[str, Mapping[str, Any] | None, str | None], Response | None]:
    """query, variables and operationName from a GET query string or a POST JSON body."""
    nothing = ("", None, None)
    if request.method == "GET":
        raw: Mapping[str, Any] = dict(request.query_params)
        variables_text = raw.get("variables")
        if variables_text:
            try:
                raw = {**raw, "variables": loads_json(variables_text, max_depth=MAX_JSON_DEPTH)}
            except ValueError as err:
                return nothing, _json(_error(f"variables is not valid JSON{_deep(err)}"), 400)
    else:
        body = await _body_capped(request)
        if body is None:
            return nothing, _json(_error(f"the request is over {MAX_BODY_BYTES:,} bytes"), 413)
        try:
            raw = loads_json(body, max_depth=MAX_JSON_DEPTH)
        except ValueError as err:
            return nothing, _json(_error(f'send a JSON body: {{"query": "…"}}{_deep(err)}'), 400)
    if not isinstance(raw, Mapping) or not isinstance(raw.get("query"), str):
        return nothing, _json(_error('the request has no "query" string'), 400)
    variables = raw.get("variables")
    if variables is not None and not isinstance(variables, Mapping):
        return nothing, _json(_error("variables must be a JSON object"), 400)
    name = raw.get("operationName")
    return (raw["query"], variables, name if isinstance(name, str) else None), None


async def _body_capped(request: Request) -> bytes | None:
    """The POST body, or None once it passes `MAX_BODY_BYTES` (read no further)."""
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        parts.append(chunk)
    return b"".join(parts)


def _deep(err: ValueError) -> str:
    """', nested more than N levels deep' for JSON refused for its depth, else ''."""
    from schemanav.limits import TooDeep

    return f" ({err.message})" if isinstance(err, TooDeep) else ""


def _operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode | str:
    from graphql import OperationDefinitionNode

    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if name is not None:
        named = [op for op in operations if op.name is not None and op.name.value == name]
        return named[0] if named else f"no operation named {name!r} in the document"
    if len(operations) != 1:
        return "the document has several operations: say which one with operationName"
    return operations[0]


def _root_fields(document: DocumentNode, operation: OperationDefinitionNode) -> set[str]:
    """The root field names the operation selects, through fragments."""
    return {field.name.value for field in root_field_nodes(document, operation)}


def _answered_inline(query: str, variables: Mapping[str, Any] | None) -> bool:
    """Whether a request is small enough to answer on the event loop (`INLINE_QUERY_CHARS`):
    a short document, and variables (if any) that are short strings, numbers, booleans or null,
    whose coercion costs nothing."""
    if len(query) > INLINE_QUERY_CHARS:
        return False
    return all(
        value is None
        or isinstance(value, bool | int | float)
        or (isinstance(value, str) and len(value) <= INLINE_VARIABLE_CHARS)
        for value in (variables or {}).values()
    )


_COSTLY: dict[str, Any] = {"errors": [{"message": "costly: answered in its turn"}]}
"""`_answer_here`'s answer for a costly request it was asked to defer (never sent)."""


def _error(message: str) -> dict[str, Any]:
    """A request that did not run: `errors` and no `data` (GraphQL over HTTP)."""
    return {"errors": [{"message": message}]}


def _json(payload: dict[str, Any], status: int = 200) -> Response:
    from starlette.responses import Response

    return Response(
        json.dumps(payload, ensure_ascii=False, separators=(",", ":")),
        status_code=status,
        media_type="application/json",
    )

