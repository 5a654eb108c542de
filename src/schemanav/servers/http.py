"""Running an ASGI app with uvicorn, telling the caller the address it really bound.

Port 0 binds a free port; `on_ready` gets the URL once the socket listens (tests and scripts
read it from the `listening on …` line on stderr).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from schemanav.errors import InputError


def serve_asgi(app: Any, host: str, port: int, on_ready: Callable[[str], None]) -> None:
    """Serve `app` on host:port until interrupted (uvicorn's own logging at warning level)."""
    try:
        import uvicorn
    except ImportError:
        raise InputError(
            "serving over HTTP needs uvicorn: pip install 'schemanav[serve]'"
        ) from None

    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", access_log=False, lifespan="on"
    )
    server = uvicorn.Server(config)

    async def main() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            if task.done():
                await task
                raise InputError(f"cannot listen on {host}:{port} (is the port in use?)")
            await asyncio.sleep(0.01)
        bound = server.servers[0].sockets[0].getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        on_ready(f"http://{shown}:{bound}")
        await task

    asyncio.run(main())
