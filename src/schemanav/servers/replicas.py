"""`schemanav serve` as a replica behind a load balancer: probes, metrics, access log, workers.

One replica process serves

- `POST|GET /graphql`: the schema with Semantic Introspection (`graphql_endpoint`); a request
  that comes while the schema is still loading waits for it (up to `LOAD_WAIT_S`, then 503);
- `GET /healthz`: 200 while the process answers at all (liveness);
- `GET /readyz`: 200 once the schema and its index are loaded, 503 while they load or while a
  changed schema is rebuilt (readiness: a load balancer sends no traffic meanwhile);
- `GET /metrics`: Prometheus' text format (`servers.metrics`).

The socket is bound and answers the probes at once; the schema loads in a background thread
(`ActiveSchema(later=True)`), and the `listening on …` line is printed when it is served.
SIGTERM (and Ctrl-C) is uvicorn's graceful shutdown: the socket stops accepting, the requests in
flight are answered (for at most `http.DRAIN_TIMEOUT_S`), then the process exits.

With `--workers N`, uvicorn's own process manager runs N processes on the one socket. The
parent loads the schema first, so every cache is on disk and warm, then spawns the workers;
each opens the schema from those caches (`worker_app`, the settings handed over in
`SPEC_VARIABLE`), and the metrics of all of them are added up (`PROMETHEUS_MULTIPROC_DIR`).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from schemanav.errors import InputError, MissingExtra
from schemanav.servers.graphql_endpoint import GRAPHQL_PATH, MISSING_EXTRA, SemanticEndpoint
from schemanav.servers.metrics import MULTIPROCESS_VARIABLE, RequestOutcome, ServeMetrics

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from schemanav.events import Events
    from schemanav.navigator import Navigator
    from schemanav.servers.active import ActiveSchema

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
METRICS_PATH = "/metrics"
LOAD_WAIT_S = 120.0
SPEC_VARIABLE = "_SCHEMANAV_SERVE_SPEC"
ACCESS_LOGS = ("off", "json")


@dataclass(frozen=True)
class ServeOptions:
    """What `schemanav serve` was asked for beyond the settings (handed to every worker)."""

    upstream: str | None = None
    refresh: float | None = None
    forward: tuple[str, ...] = ()
    access_log: str = "off"


class Replica:
    """One serving process: the active schema (loading in the background), its probes, its
    metrics and its access log."""

    def __init__(
        self,
        navigator: Navigator,
        options: ServeOptions,
        events: Events | None,
        *,
        build: Callable[[Navigator, SemanticEndpoint | None], SemanticEndpoint] | None = None,
    ) -> None:
        """`build` makes the served endpoint from a navigator (default: a `SemanticEndpoint`
        with `options`' upstream and forwarded headers)."""
        from schemanav.servers.active import ActiveSchema

        if options.access_log not in ACCESS_LOGS:
            raise InputError(
                f"--access-log: {options.access_log!r} is not one of {', '.join(ACCESS_LOGS)}"
            )
        self.options = options
        self.navigator = navigator
        self.metrics = ServeMetrics()

        def endpoint(fresh: Navigator, _previous: SemanticEndpoint | None) -> SemanticEndpoint:
            return SemanticEndpoint(fresh, upstream=options.upstream, forward=options.forward)

        self.active: ActiveSchema[SemanticEndpoint] = ActiveSchema(
            navigator, build or endpoint, refresh=options.refresh, events=events, later=True
        )
        self._log_lock = threading.Lock()

    def start(self) -> None:
        """Load the schema in the background (and watch it for changes)."""
        self.active.start()

    def wait_loaded(self) -> None:
        """Block until the schema is served; raise what stopped it from loading."""
        self.active.wait_loaded()
        if self.active.failed is not None:
            raise self.active.failed

    def app(self) -> Starlette:
        try:
            from starlette.applications import Starlette
            from starlette.responses import PlainTextResponse
            from starlette.routing import Route
        except ImportError:
            raise MissingExtra(*MISSING_EXTRA) from None
        active = self.active

        async def graphql(request: Request) -> Response:
            started = time.perf_counter()
            outcome = RequestOutcome()
            if not active.wait_loaded(0):
                loaded = await asyncio.to_thread(active.wait_loaded, LOAD_WAIT_S)
                if not loaded or active.failed is not None:
                    from starlette.responses import JSONResponse

                    outcome.outcome = "error"
                    self._observe(request, outcome, 503, started)
                    message = "the schema is not loaded yet; try again shortly"
                    return JSONResponse({"errors": [{"message": message}]}, status_code=503)
            response = await active.current.handle(request, outcome)
            self._observe(request, outcome, response.status_code, started)
            return response

        async def healthz(_request: Request) -> Response:
            return PlainTextResponse("ok\n")

        async def readyz(_request: Request) -> Response:
            if active.ready:
                return PlainTextResponse("ready\n")
            state = "reloading" if active.reloading else "loading"
            return PlainTextResponse(f"{state}\n", status_code=503)

        async def metrics(_request: Request) -> Response:
            from starlette.responses import Response

            if active.wait_loaded(0) and active.failed is None:
                self.metrics.serving(active.current.version, active.generation)
            self.metrics.ready.set(1 if active.ready else 0)
            body, content_type = await asyncio.to_thread(self.metrics.render)
            return Response(body, media_type=content_type)

        return Starlette(
            routes=[
                Route(GRAPHQL_PATH, graphql, methods=["GET", "POST"]),
                Route(HEALTH_PATH, healthz, methods=["GET"]),
                Route(READY_PATH, readyz, methods=["GET"]),
                Route(METRICS_PATH, metrics, methods=["GET"]),
            ]
        )

    def _observe(
        self, request: Request, outcome: RequestOutcome, status: int, started: float
    ) -> None:
        seconds = time.perf_counter() - started
        self.metrics.observe(outcome, seconds)
        if self.options.access_log != "json":
            return
        client = request.client
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "method": request.method,
            "path": request.url.path,
            "status": status,
            "ms": round(seconds * 1000, 3),
            "kind": outcome.kind,
            "outcome": outcome.outcome,
            "limit": outcome.limit,
            "upstream_error": outcome.upstream_error,
            "client": f"{client.host}:{client.port}" if client else None,
            "pid": os.getpid(),
        }
        text = json.dumps(line, separators=(",", ":")) + "\n"
        with self._log_lock:
            sys.stderr.write(text)
            sys.stderr.flush()


def run_serve(
    navigator: Navigator,
    *,
    upstream: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    events: Events | None = None,
    refresh: float | None = None,
    forward_headers: tuple[str, ...] = (),
    workers: int = 1,
    access_log: str = "off",
) -> None:
    """Serve GraphQL (and the probes) on host:port until the process is stopped; the schema
    loads in the background and is re-read when it changes (`schemanav.servers.active`)."""
    from importlib.util import find_spec

    from schemanav.servers.forwarding import forwarded_names
    from schemanav.servers.http import bind_listener, serve_asgi

    if find_spec("starlette") is None or find_spec("uvicorn") is None:
        raise MissingExtra(*MISSING_EXTRA)  # before minutes of indexing, not after
    if find_spec("prometheus_client") is None:
        raise MissingExtra("serve's /metrics needs prometheus-client", "serve")
    if workers < 1:
        raise InputError(f"--workers takes at least 1 process; got {workers}")
    forward = forwarded_names(forward_headers)
    if forward and upstream is None:
        raise InputError("--forward-header needs --upstream, the API the headers are for")
    options = ServeOptions(upstream, refresh, forward, access_log)
    # A busy port is bad input found before the schema loads, not after.
    listener = bind_listener(host, port, host_flag="--host", port_flag="--port")
    note = events.note if events is not None else (lambda _message: None)
    forwarding = f"forwarding other operations to {upstream}" if upstream else "no upstream"

    def ready_line(url: str) -> None:
        note(
            f"schemanav serve: {navigator.label}, {len(navigator.corpus):,} coordinates, "
            f"{forwarding}; listening on {url}{GRAPHQL_PATH}"
        )

    if workers > 1:
        _run_workers(navigator, options, listener, workers, ready_line)
        return
    replica = Replica(navigator, options, events)
    replica.start()
    serve_asgi(replica.app(), listener, ready_line, until_ready=replica.wait_loaded)


def _run_workers(
    navigator: Navigator,
    options: ServeOptions,
    listener: Any,
    workers: int,
    ready_line: Any,
) -> None:
    """uvicorn's process manager: `workers` processes on `listener`, each running
    `worker_app`, after this process has loaded the schema (so the caches are warm)."""
    import tempfile

    from schemanav.servers.http import serve_workers

    SemanticEndpoint(navigator, upstream=options.upstream, forward=options.forward)
    spec = {"settings": navigator.settings.model_dump(mode="json"), "options": asdict(options)}
    with tempfile.TemporaryDirectory(prefix="schemanav-metrics-") as metrics_dir:
        os.environ[MULTIPROCESS_VARIABLE] = metrics_dir
        os.environ[SPEC_VARIABLE] = json.dumps(spec)
        serve_workers(f"{__name__}:worker_app", listener, workers, ready_line, READY_PATH)


def worker_app() -> Starlette:
    """The app of one `--workers` process (uvicorn calls it in the new process): the settings
    from `SPEC_VARIABLE`, the schema from the caches the parent left warm."""
    from schemanav.events import SilentEvents
    from schemanav.navigator import Navigator
    from schemanav.settings import Settings

    spec = json.loads(os.environ[SPEC_VARIABLE])
    options = spec["options"]
    options["forward"] = tuple(options["forward"])
    settings = Settings(**spec["settings"])
    replica = Replica(Navigator(settings, SilentEvents()), ServeOptions(**options), None)
    replica.start()
    return replica.app()
