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


def serve_asgi(app: Any, listener: socket.socket, on_ready: Callable[[str], None]) -> None:
    """Serve `app` on the bound `listener` until interrupted (uvicorn's own logging at warning
    level)."""
    try:
        import uvicorn
    except ImportError:
        listener.close()
        raise MissingExtra("serving over HTTP needs uvicorn", "serve") from None

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    server = uvicorn.Server(config)
    host, bound = listener.getsockname()[:2]

    async def main() -> None:
        task = asyncio.create_task(server.serve(sockets=[listener]))
        while not server.started:
            if task.done():
                await task
                raise InputError(f"cannot serve on {host}:{bound}")
            await asyncio.sleep(0.01)
        shown = f"[{host}]" if ":" in host else host
        on_ready(f"http://{shown}:{bound}")
        await task

    try:
        asyncio.run(main())
    finally:
        listener.close()
