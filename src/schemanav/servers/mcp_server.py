"""`schemanav mcp`: the agent tools over the Model Context Protocol (official `mcp` SDK).

The SDK's low-level `Server` is used rather than its decorator API so the tool list is
exactly the hand-written `ToolSpec`s (precise JSON schemas, no generated titles that would
cost tokens). Transports: stdio (what desktop agents launch; stdout is the protocol, so every
note goes to stderr) and streamable HTTP on host:port at `/mcp`.

    navigator = Navigator.open("schema.graphql", endpoint="https://api.example.com/graphql")
    run_mcp(navigator)                                # stdio
    run_mcp(navigator, http=("127.0.0.1", 8765))      # http://127.0.0.1:8765/mcp
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.errors import InputError, MissingExtra
from schemanav.servers.forwarding import forwarded_names, pick_forwarded
from schemanav.servers.operation_tools import OperationTool, load_operation_tools
from schemanav.servers.tools import ToolBox

if TYPE_CHECKING:
    from mcp.server import Server

    from schemanav.events import Events
    from schemanav.navigator import Navigator

MCP_PATH = "/mcp"
SERVER_NAME = "schemanav"
INSTRUCTIONS = (
    "Find what a task needs in a GraphQL schema without reading all of it: search_schema first, "
    "define for exact signatures, then validate (and execute, when offered) an operation."
)
MISSING_EXTRA = ("the MCP server needs the `mcp` package", "mcp")


def build_mcp_server(
    toolbox: ToolBox,
    current: Callable[[], ToolBox] | None = None,
    forward: tuple[str, ...] = (),
) -> Server[Any]:
    """A low-level MCP `Server` offering the toolbox's tools; each call is answered by
    `current()` (default `toolbox`: the one of the schema active now, same tool list), with
    the `forward` headers of the HTTP request that carried it passed on to `execute`."""
    try:
        import anyio
        import mcp_types as types
        from mcp.server import Server
    except ImportError:
        raise MissingExtra(*MISSING_EXTRA) from None
    from importlib.metadata import version

    tools = [
        types.Tool(
            name=spec.name,
            description=spec.description,
            input_schema=spec.input_schema,
            annotations=types.ToolAnnotations(
                read_only_hint=spec.read_only, open_world_hint=spec.name == "execute"
            ),
        )
        for spec in toolbox.specs
    ]
    schemas = {spec.name: spec.input_schema for spec in toolbox.specs}
    serving = current or (lambda: toolbox)

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        # Searches are CPU-bound and execute waits on the endpoint: off the event loop, so
        # one slow call never holds up the others.
        request = getattr(ctx, "request", None)
        forwarded = pick_forwarded(getattr(request, "headers", None), forward)
        output = await anyio.to_thread.run_sync(
            serving().call, params.name, params.arguments, forwarded
        )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=output.text)],
            structured_content=output.data,
            is_error=not output.ok,
        )

    return Server(
        SERVER_NAME,
        version=version("schemanav"),
        instructions=INSTRUCTIONS,
        get_tool_input_schema=schemas.get,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def run_mcp(
    navigator: Navigator,
    *,
    http: tuple[str, int] | None = None,
    events: Events | None = None,
    refresh: float | None = None,
    forward_headers: tuple[str, ...] = (),
    operations: str | None = None,
) -> None:
    """Build the index, then serve the tools until the client disconnects (stdio) or the
    process is stopped (HTTP); the schema is re-read when it changes (`servers.active`)."""
    from importlib.util import find_spec

    import anyio

    from schemanav.servers.active import ActiveSchema

    if find_spec("mcp") is None:
        raise MissingExtra(*MISSING_EXTRA)  # before the schema is loaded, not after
    forward = forwarded_names(forward_headers)
    if forward and http is None:
        raise InputError("--forward-header needs --http: over stdio no caller sends headers")
    if forward and navigator.settings.endpoint is None:
        raise InputError("--forward-header needs --endpoint, the API the headers are for")

    if operations is not None and navigator.settings.endpoint is None:
        raise InputError("--operations needs --endpoint, the API that runs the operations")
    if http is not None:
        from schemanav.servers.http import bind_listener

        # A busy port is bad input found before the schema loads, not after.
        listener = bind_listener(*http, host_flag="--http", port_flag="--http")

    def build(fresh: Navigator, _previous: ToolBox | None) -> ToolBox:
        curated: tuple[OperationTool, ...] = ()
        if operations is not None:
            curated = load_operation_tools(
                Path(operations),
                fresh.loaded.schema,
                allow_mutations=fresh.settings.allow_mutations,
                taken=[spec.name for spec in ToolBox(fresh).specs],
            )
        built = ToolBox(fresh, operations=curated)
        built.warm()
        return built

    active = ActiveSchema(navigator, build, refresh=refresh, events=events)
    toolbox = active.current
    server = build_mcp_server(toolbox, lambda: active.current, forward)
    active.start()
    note = events.note if events is not None else (lambda _message: None)
    summary = (
        f"schemanav mcp: {navigator.label}, {len(navigator.corpus):,} coordinates, "
        f"{len(toolbox.specs)} tools ({toolbox.tool_list_tokens()} tokens, o200k_base)"
    )
    if http is None:
        from mcp.server.stdio import stdio_server

        note(f"{summary}; serving on stdio")

        async def main() -> None:
            async with (
                stdio_server() as (read_stream, write_stream),
                anyio.create_task_group() as tasks,
            ):
                sink, readable = anyio.create_memory_object_stream[Any](16)
                tasks.start_soon(_answer_unreadable, read_stream, sink, write_stream)
                await server.run(readable, write_stream, server.create_initialization_options())

        anyio.run(main)
        return
    from schemanav.servers.http import serve_asgi

    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=http[0])
    serve_asgi(app, listener, lambda url: note(f"{summary}; listening on {url}{MCP_PATH}"))


async def _answer_unreadable(source: Any, sink: Any, write_stream: Any) -> None:
    """Relay the client's messages to the server; answer a line the SDK could not read
    (invalid JSON-RPC, or nested deeper than its JSON parser goes) with a JSON-RPC parse
    error, which the SDK would otherwise drop, leaving the client waiting forever. The
    error carries the message's id when it can be read (the client's call then fails at
    once), else null (JSON-RPC 2.0, section 5)."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    async with sink:
        async for item in source:
            if not isinstance(item, Exception):
                await sink.send(item)
                continue
            error = types.ErrorData(
                code=types.PARSE_ERROR,
                message="the message is not valid JSON-RPC, or is nested too deeply to read",
            )
            answer = types.JSONRPCError(jsonrpc="2.0", id=_message_id(item), error=error)
            await write_stream.send(SessionMessage(answer))


_FLAT_PREFIX_CHARS = 4096


def _message_id(failure: Exception) -> str | int | None:
    """The id of the message the SDK failed to read, from its validation error: the parsed
    object when the line was JSON, else the line's flat start (up to its first nested value,
    where a message nested too deeply to parse still names its id), parsed as partial JSON."""
    from pydantic_core import from_json

    errors = getattr(failure, "errors", None)
    try:
        details = errors() if callable(errors) else []
    except Exception:
        return None
    for detail in details[:16]:
        given = detail.get("input")
        if isinstance(given, str) and detail.get("type") == "json_invalid":
            start = given.find("{")
            later = (given.find("{", start + 1), given.find("[", start + 1))
            cut = min([at for at in later if at > 0], default=len(given))
            if start < 0 or cut > _FLAT_PREFIX_CHARS:
                return None
            try:
                given = from_json(given[start:cut], allow_partial=True)
            except ValueError:
                return None
        if not isinstance(given, dict):
            continue  # a field's value: a later error names the whole message
        ident = given.get("id")
        if isinstance(ident, int) and not isinstance(ident, bool):
            return ident
        if isinstance(ident, str) and len(ident) <= 200:
            return ident
        return None
    return None


def parse_host_port(value: str) -> tuple[str, int]:
    """`127.0.0.1:8765` (or `[::1]:8765`) → host and port; port 0 picks a free one."""
    host, sep, port = value.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise InputError(f"--http expects HOST:PORT such as 127.0.0.1:8765, got {value!r}")
    return host, int(port)
