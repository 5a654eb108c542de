"""The one way tests run an HTTP server on 127.0.0.1: a free port, a daemon thread, and a
shutdown that waits for the thread, so no test leaves a server behind.

Every hand-written test server (the Movie DB GraphQL server, the Ollama- and OpenAI-protocol
servers, the hostile servers, one-off error pages) is a `LoopbackServer` with its own request
handler, started by `serving`; schemanav's own ASGI apps (`serve`'s endpoint) run under uvicorn
through `serve_asgi_app`.

    with serving(LoopbackServer(Handler)) as server:
        httpx.get(server.url + "/path")
    with serve_asgi_app(endpoint.app()) as base_url:
        httpx.post(base_url + "/graphql", json={"query": "{ __typename }"})
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar


class LoopbackServer(ThreadingHTTPServer):
    """A threading HTTP server on 127.0.0.1, on a free port unless given one (a script that
    serves by hand, `scripts/moviedb_server.py`)."""

    daemon_threads = True
    allow_reuse_address = True
    # Servers whose clients hang up on purpose (caps, deadlines) swallow every handler error.
    quiet_errors = False

    def __init__(self, handler: type[BaseHTTPRequestHandler], port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (a timeout test) is expected, not an error: socketserver would
        print its traceback to whatever `sys.stderr` is at that moment, which may be a later
        test's `CliRunner` capture."""
        if self.quiet_errors or isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


Server = TypeVar("Server", bound=LoopbackServer)


@contextmanager
def serving(server: Server, *, name: str = "loopback-server") -> Iterator[Server]:
    """Serve `server` in a daemon thread until the block ends, then shut it down and close it."""
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, name=name, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def serve_asgi_app(app: Any, *, startup_timeout: float = 20.0) -> Iterator[str]:
    """Serve an ASGI app with uvicorn until the block ends; yields its base URL."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="asgi-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test ASGI server did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def send_body(
    handler: BaseHTTPRequestHandler,
    status: int,
    payload: Any,
    content_type: str = "application/json",
) -> None:
    """One whole answer: bytes or text as given, anything else as JSON, with its length; a
    client that already gave up (a timeout test) is not an error."""
    if isinstance(payload, bytes):
        data = payload
    elif isinstance(payload, str):
        data = payload.encode()
    else:
        data = json.dumps(payload).encode()
    try:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
    except (BrokenPipeError, ConnectionResetError):
        pass
