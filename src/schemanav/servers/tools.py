"""The agent tools every front end serves, with no protocol in them.

`search_schema`, `define`, `validate` and `execute` over one `Navigator`: each tool has a JSON
schema (a small subset of JSON Schema that `tool_arguments.check_arguments` enforces, so what
the schema says and what is refused never drift apart) and a short description that names
nothing of any particular schema, so the tool list costs the same tokens whatever schema is
served.

Every call answers a `ToolOutput`, never an exception: bad arguments, unknown coordinates, an
invalid or refused operation and an unreachable endpoint are `ok=False` outputs whose text
says what to do. Every text ends with its own token cost (o200k_base) and goes through the
navigator's redactor, so a header value never reaches an agent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemanav.defaults import DEFAULT_SEARCH_BUDGET
from schemanav.limits import MAX_QUESTION_CHARS as MAX_QUERY_CHARS
from schemanav.redaction import Redactor
from schemanav.retrieval import fit_prefix, has_words
from schemanav.retrieval.base import MIN_BLOCK_DEPTH, TOKENS_PER_HIT
from schemanav.retrieval.members import FIELD, KINDS, MAX_RESULTS
from schemanav.tokens import ENCODING_NAME, count_tokens
from schemanav.tool_arguments import check_arguments

if TYPE_CHECKING:
    from schemanav.navigator import Navigator
    from schemanav.retrieval.members import MemberHit
    from schemanav.servers.operation_tools import OperationTool

SEARCH_SCHEMA = "search_schema"
DEFINE = "define"
VALIDATE = "validate"
EXECUTE = "execute"

MAX_SEARCH_BUDGET = 20_000
MAX_COORDINATES = 150
MAX_OPERATION_CHARS = 100_000

# A slice renderer (question, token budget) → SDL text. When one is given, search_schema
# offers `output: "slice"` beside the default ranked list.
Slicer = Callable[[str, int], str]


@dataclass(frozen=True)
class ToolSpec:
    """One tool as an MCP `tools/list` shows it."""

    name: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
        }


@dataclass(frozen=True)
class ToolOutput:
    """A tool's answer: `text` is what the agent reads (ending with its own token cost),
    `data` the same as a record (with `tokens` and `encoding`)."""

    ok: bool
    text: str
    tokens: int
    data: dict[str, Any] = field(default_factory=dict)


def _operation_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "operation": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_OPERATION_CHARS,
                "description": "One GraphQL query (or mutation) document",
            },
            "variables": {"type": "object", "description": "Values of its $variables"},
        },
        "required": ["operation"],
        "additionalProperties": False,
    }


class ToolBox:
    """The tools of one server, bound to its navigator (schema, backend, endpoint, limits)."""

    def __init__(
        self,
        navigator: Navigator,
        *,
        default_budget: int | None = None,
        slicer: Slicer | None = None,
        operations: tuple[OperationTool, ...] = (),
    ) -> None:
        self.navigator = navigator
        self.operations = {tool.name: tool for tool in operations}
        """Curated operations offered as tools of their own (`servers.operation_tools`)."""
        self.default_budget = default_budget or navigator.settings.budget or DEFAULT_SEARCH_BUDGET
        # By default the navigator's own slicer: what `search --slice` and `bench --output slice`
        # build and measure.
        self.slicer: Slicer = slicer or (
            lambda question, budget: navigator.slice(question, budget=budget).sdl
        )
        self.redact = navigator.operations.redact
        self.specs = self._specs()
        self._by_name = {spec.name: spec for spec in self.specs}

    def warm(self) -> None:
        """Load the schema, the corpus and the index now, so the first call is as fast as any.

        A first `output: "slice"` still loads what slices alone need (the schema they print
        from, the token counter: about half a second on GitHub's); warming it here too would
        hold up every start for a tool many sessions never call."""
        self.navigator.searcher().search("warm up", 1)

    # the tool list ---------------------------------------------------------------------------

    def _specs(self) -> tuple[ToolSpec, ...]:
        settings = self.navigator.settings
        search_properties: dict[str, Any] = {
            "query": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_QUERY_CHARS,
                "description": "What you need, in plain words",
            },
            "budget": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_SEARCH_BUDGET,
                "description": f"Most tokens of hits to return (default {self.default_budget})",
            },
        }
        search_properties["output"] = {
            "type": "string",
            "enum": ["list", "slice"],
            "description": "list: ranked fields (default); slice: a connected SDL excerpt",
        }
        search_properties["kinds"] = {
            "type": "array",
            "items": {"type": "string", "enum": list(KINDS)},
            "minItems": 1,
            "maxItems": len(KINDS),
            "description": "What to list (default [field])",
        }
        specs = [
            ToolSpec(
                SEARCH_SCHEMA,
                "Search the GraphQL schema for the fields a task needs. Returns ranked "
                "coordinates (Type.field) with their description and the path from the root "
                "type, as many as fit the token budget. Start here.",
                {
                    "type": "object",
                    "properties": search_properties,
                    "required": ["query"],
                    "additionalProperties": False,
                },
            ),
            ToolSpec(
                DEFINE,
                "Exact SDL definitions of schema coordinates: Type, Type.field, "
                "Type.field(arg:), Enum.VALUE or @directive. Use it for argument and return "
                "types before writing an operation.",
                {
                    "type": "object",
                    "properties": {
                        "coordinates": {
                            "type": "array",
                            "items": {"type": "string", "minLength": 1},
                            "minItems": 1,
                            "maxItems": MAX_COORDINATES,
                        }
                    },
                    "required": ["coordinates"],
                    "additionalProperties": False,
                },
            ),
            ToolSpec(
                VALIDATE,
                "Check a GraphQL operation against the schema without running it: 'valid', "
                "or the errors and a hint.",
                _operation_schema(),
            ),
        ]
        if settings.endpoint is not None:
            mutations = (
                "Mutations are allowed."
                if settings.allow_mutations
                else "Read-only: mutations are refused."
            )
            specs.append(
                ToolSpec(
                    EXECUTE,
                    "Validate, then run a GraphQL operation against the API; returns its JSON "
                    f"response, cut to {settings.response_token_cap} tokens. {mutations}",
                    _operation_schema(),
                    read_only=not settings.allow_mutations,
                )
            )
        specs.extend(
            ToolSpec(tool.name, tool.description, tool.input_schema, read_only=not tool.mutation)
            for tool in self.operations.values()
        )
        return tuple(specs)

    def tool_list_tokens(self) -> int:
        """Tokens (o200k_base) of the tool list as JSON: what a client puts in a prompt."""
        return count_tokens(json.dumps([spec.as_dict() for spec in self.specs]))

    # calls -----------------------------------------------------------------------------------

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        forwarded: Mapping[str, str] | None = None,
    ) -> ToolOutput:
        """Run one tool call; every text that leaves is redacted and stamped with its cost.
        `forwarded`: the caller's own headers, sent with `execute` only, redacted everywhere."""
        output = self._call(name, arguments, forwarded or {})
        return redacted(output, Redactor(forwarded)) if forwarded else output

    def _call(
        self, name: str, arguments: Mapping[str, Any] | None, forwarded: Mapping[str, str]
    ) -> ToolOutput:
        spec = self._by_name.get(name)
        if spec is None:
            names = ", ".join(self._by_name)
            return self._output(False, f"unknown tool {name!r}: the tools are {names}", {})
        if name in self.operations:
            return self._run_operation(self.operations[name], arguments, forwarded)
        problem = check_arguments(spec.name, spec.input_schema, arguments or {})
        if problem is not None:
            return self._output(False, problem, {})
        args = dict(arguments or {})
        if name == SEARCH_SCHEMA:
            return self.search_schema(
                args["query"], args.get("budget"), args.get("output", "list"), args.get("kinds")
            )
        if name == DEFINE:
            return self.define(args["coordinates"])
        variables = args.get("variables")
        if name == VALIDATE:
            outcome = self.navigator.validate(args["operation"], variables)
            return self._output(True, outcome.text, {"valid": outcome.ok})
        outcome = self.navigator.execute(args["operation"], variables, forwarded=forwarded)
        return self._output(outcome.ok, outcome.text, {"executed": outcome.executed})

    def _run_operation(
        self, tool: OperationTool, arguments: Any, forwarded: Mapping[str, str]
    ) -> ToolOutput:
        """A curated operation, its arguments as its variables (graphql-core coerces them)."""
        if not isinstance(arguments, Mapping | None):
            return self._output(False, f"the arguments of {tool.name} must be a JSON object", {})
        unknown = sorted(set(arguments or {}) - set(tool.input_schema["properties"]))
        if unknown:
            known = ", ".join(tool.input_schema["properties"]) or "none"
            return self._output(
                False, f"{tool.name} has no argument {unknown[0]!r}; its arguments are {known}", {}
            )
        outcome = self.navigator.execute(tool.document, arguments, forwarded=forwarded)
        return self._output(outcome.ok, outcome.text, {"executed": outcome.executed})

    def search_schema(
        self,
        query: str,
        budget: int | None = None,
        output: str = "list",
        kinds: list[str] | None = None,
    ) -> ToolOutput:
        """Ranked hits, each with its paths from the root, as many as fit `budget` tokens
        (the budget covers each hit's whole block: its text and its path lines). `kinds`
        other than fields alone lists members of those kinds on the same scale."""
        budget = budget or self.default_budget
        if not has_words(query):
            return self._output(
                False, "the query has no words to search for; describe what you need", {}
            )
        if output == "slice":
            sdl = self.slicer(query, budget)
            return self._output(True, sdl, {"query": query, "budget": budget, "output": "slice"})
        if kinds is not None and set(kinds) != {FIELD}:
            return self._search_members(query, budget, kinds)
        found = self.navigator.search_blocks(query, budget)
        hits, blocks, costs = found.hits, found.blocks, found.costs
        if not hits:
            if blocks:
                message = (
                    f"the best hit ({costs[0]} tokens) does not fit the budget of {budget} "
                    "tokens; ask again with a larger budget"
                )
            else:
                message = f"nothing in the schema matches {query!r}; try other words"
            return self._output(True, message, {"query": query, "budget": budget, "hits": []})
        text = "\n".join(
            [
                f"{len(hits)} hits ({found.spent} of {budget} budget tokens), best first:",
                *blocks[: len(hits)],
            ]
        )
        data = {
            "query": query,
            "budget": budget,
            "hits": [
                {
                    "coordinate": hit.coordinate,
                    "score": round(hit.score, 6),
                    "tokens": cost,
                    "paths_to_root": [list(path) for path in hit.paths_to_root],
                }
                for hit, cost in zip(hits, costs, strict=False)
            ],
        }
        return self._output(True, text, data)

    def _search_members(self, query: str, budget: int, kinds: list[str]) -> ToolOutput:
        """`search_schema` over the chosen kinds: each block says its kind, the paths follow."""
        members = self.navigator.members
        count = max(MIN_BLOCK_DEPTH, budget // TOKENS_PER_HIT + 1)
        while True:
            page = members.page(query, count=count, kinds=kinds)
            blocks = [member_block(hit, self.navigator.settings.max_paths) for hit in page.hits]
            costs = [count_tokens(block) for block in blocks]
            shown = fit_prefix(costs, budget)
            if shown < len(page.hits) or not page.more or count >= MAX_RESULTS:
                break
            count = min(count * 2, MAX_RESULTS)
        data: dict[str, Any] = {"query": query, "budget": budget, "kinds": kinds}
        if not shown:
            message = (
                f"the best hit ({costs[0]} tokens) does not fit the budget of {budget} tokens; "
                "ask again with a larger budget"
                if blocks
                else f"no {' or '.join(kinds)} in the schema matches {query!r}; try other words"
            )
            return self._output(True, message, {**data, "hits": []})
        spent = sum(costs[:shown])
        text = "\n".join(
            [f"{shown} hits ({spent} of {budget} budget tokens), best first:", *blocks[:shown]]
        )
        data["hits"] = [
            {
                "coordinate": hit.coordinate,
                "kind": hit.kind,
                "score": round(hit.score / page.top, 6) if page.top > 0 else 0.0,
                "tokens": cost,
                "paths_to_root": [list(path) for path in hit.paths_to_root],
            }
            for hit, cost in zip(page.hits[:shown], costs, strict=False)
        ]
        return self._output(True, text, data)

    def define(self, coordinates: list[str]) -> ToolOutput:
        definitions = self.navigator.define(coordinates)
        parts: list[str] = []
        unknown: list[dict[str, Any]] = []
        for definition in definitions:
            if definition.sdl is not None:
                parts.append(f"# {definition.coordinate}\n{definition.sdl}")
                continue
            hint = ""
            if definition.did_you_mean:
                hint = f" (did you mean {', '.join(definition.did_you_mean)}?)"
            parts.append(f"# {definition.coordinate}: {definition.error}{hint}")
            unknown.append(definition.as_dict())
        data = {
            "defined": [d.coordinate for d in definitions if d.sdl is not None],
            "unknown": unknown,
        }
        return self._output(len(unknown) < len(definitions), "\n\n".join(parts), data)

    def _output(self, ok: bool, text: str, data: dict[str, Any]) -> ToolOutput:
        text, tokens = stamp(self.redact(text))
        return ToolOutput(ok, text, tokens, {**data, "tokens": tokens, "encoding": ENCODING_NAME})


def redacted(output: ToolOutput, redact: Callable[[str], str]) -> ToolOutput:
    """`output` with `redact` applied to its text and its record (re-stamped if it changed)."""
    text = redact(output.text)
    try:
        data = json.loads(redact(json.dumps(output.data)))
    except ValueError:  # a secret that spanned JSON syntax: keep no record rather than leak
        data = {"tokens": output.tokens, "encoding": ENCODING_NAME}
    if text == output.text:
        return ToolOutput(output.ok, text, output.tokens, data)
    body = text.rsplit("\n[", 1)[0]
    stamped, tokens = stamp(body)
    return ToolOutput(output.ok, stamped, tokens, {**data, "tokens": tokens})


def member_block(hit: MemberHit, max_paths: int | None = None) -> str:
    """A hit of any kind as the search tool shows it: coordinate, kind and description, then
    one `from the root:` line per path (a root field, its own path, gets none)."""
    kind = hit.kind.replace("_", " ")
    head = f"{hit.coordinate} ({kind})"
    lines = [f"{head}: {hit.description}" if hit.description else head]
    lines.extend(
        "   from the root: " + " > ".join(path)
        for path in hit.paths_to_root[:max_paths]
        if len(path) > 1
    )
    return "\n".join(lines)


def stamp(text: str) -> tuple[str, int]:
    """`text` with a last line stating its own token count, and that count.

    The count includes the line itself: a fixed point, reached in two or three rounds because
    a number's tokens grow by at most one per three digits.
    """
    tokens = 0
    for _ in range(8):
        stamped = f"{text}\n[{tokens} tokens, {ENCODING_NAME}]"
        counted = count_tokens(stamped)
        if counted == tokens:
            return stamped, tokens
        tokens = counted
    return stamped, count_tokens(stamped)
