"""Running an ASGI app with uvicorn, telling the caller the address it really bound.

The socket is bound first (`bind_listener`), before the schema is loaded, so a busy port or
an address this machine does not have is bad input reported at once, not after minutes of
indexing; uvicorn then serves on that very socket, so nothing can take the port meanwhile.
Port 0 binds a free port; `on_ready` gets the URL once the socket listens (tests and scripts
read it from the `listening on …` line on stderr).
"""

from __future__ import annotations

import asyncio
import errno
import socket
from collections.abc import Callable
from typing import Any

from schemanav.errors import InputError, MissingExtra


def bind_listener(host: str, port: int, *, host_flag: str, port_flag: str) -> socket.socket:
    """A TCP socket bound to host:port and listening; `InputError` naming the option the user
    typed the host or the port with when that address cannot be had."""
    where = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
    if not 0 <= port <= 65535:
        raise InputError(f"{port_flag}: port {port} is not in 0-65535 (0: a free one)")
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as err:
        reason = err.strerror if isinstance(err, socket.gaierror) else str(err)
        raise InputError(f"cannot listen on {where}: {reason}; check {host_flag}") from None
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen()
    except OSError as err:
        listener.close()
        if err.errno == errno.EADDRINUSE:
            raise InputError(
                f"cannot listen on {where}: the port is in use; pick another port with "
                f"{port_flag} (0: a free one) or stop what holds it"
            ) from None
        raise InputError(
            f"cannot listen on {where}: {err.strerror}; check {host_flag} and {port_flag}"
            if host_flag != port_flag
            else f"cannot listen on {where}: {err.strerror}; check {host_flag}"
        ) from None
    return listener


DRAIN_TIMEOUT_S = 30
"""On SIGTERM or Ctrl-C, how long the requests in flight may take to finish before the
process exits anyway (uvicorn's `timeout_graceful_shutdown`)."""
_UVICORN_SETTINGS: dict[str, Any] = {
    "log_level": "warning",  # the server's own lines are the reporter's
    "access_log": False,
    "lifespan": "on",
    "timeout_graceful_shutdown": DRAIN_TIMEOUT_S,
}
"""What every server schemanav starts shares, one process or several."""


def serve_asgi(
    app: Any,
    listener: socket.socket,
    on_ready: Callable[[str], None],
    *,
    until_ready: Callable[[], None] | None = None,
) -> None:
    """Serve `app` on the bound `listener` until interrupted (uvicorn's own logging at warning
    level). `on_ready` gets the URL once the socket serves and `until_ready` (run in a thread
    meanwhile) has returned; when it raises, the server stops and its error is raised here.
    SIGTERM and Ctrl-C drain: no new connection is taken, the requests in flight are answered
    (for up to `DRAIN_TIMEOUT_S`), then this returns."""
    try:
        import uvicorn
    except ImportError:
        listener.close()
        raise MissingExtra("serving over HTTP needs uvicorn", "serve") from None

    config = uvicorn.Config(app, **_UVICORN_SETTINGS)
    server = uvicorn.Server(config)
    host, bound = listener.getsockname()[:2]

    async def main() -> None:
        task = asyncio.create_task(server.serve(sockets=[listener]))
        while not server.started:
            if task.done():
                await task
                raise InputError(f"cannot serve on {host}:{bound}")
            await asyncio.sleep(0.01)
        if until_ready is not None:
            loading = asyncio.ensure_future(asyncio.to_thread(until_ready))
            await asyncio.wait({task, loading}, return_when=asyncio.FIRST_COMPLETED)
            if not loading.done():
                await task  # stopped (SIGTERM) while loading
                return
            if loading.exception() is not None:
                server.should_exit = True
                await task
                loading.result()  # raises what stopped the schema from loading
        shown = f"[{host}]" if ":" in host else host
        on_ready(f"http://{shown}:{bound}")
        await task

    try:
        asyncio.run(main())
    finally:
        listener.close()


def serve_workers(
    factory: str,
    listener: socket.socket,
    workers: int,
    on_ready: Callable[[str], None],
    ready_path: str,
) -> None:
    """uvicorn's process manager: `workers` processes serving on `listener`, each calling
    `factory` (`module:function`) for its app; `on_ready` gets the URL once one of them
    answers `ready_path` with 200. SIGTERM drains every worker (uvicorn's graceful shutdown)."""
    import threading
    import urllib.request

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(factory, factory=True, workers=workers, **_UVICORN_SETTINGS)
    server = uvicorn.Server(config)
    host, bound = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    probe_host = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, shown)
    url = f"http://{shown}:{bound}"
    import inspect

    manager: Any = Multiprocess
    if "target" in inspect.signature(manager).parameters:  # uvicorn before 0.35
        supervisor = manager(config, target=server.run, sockets=[listener])
    else:
        supervisor = manager(config, sockets=[listener])

    def announce() -> None:
        import time

        while not supervisor.should_exit.is_set():
            try:
                with urllib.request.urlopen(
                    f"http://{probe_host}:{bound}{ready_path}", timeout=2
                ) as answer:
                    if answer.status == 200:
                        on_ready(url)
                        return
            except OSError:
                pass
            time.sleep(0.1)

    threading.Thread(target=announce, name="ready-probe", daemon=True).start()
    try:
        supervisor.run()
    finally:
        listener.close()
