"""Hostile HTTP servers on 127.0.0.1 for the hostile-input tests: routes by path that answer
with a gzip bomb, an endless body, a one-byte drip or an echo of the credential they got.

    with serving({"/bomb": reply(gzip_bomb(64), gzipped=True)}) as server:
        ...  # server.url + "/bomb"
"""

from __future__ import annotations

import json
import threading
import time
import zlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from http.server import BaseHTTPRequestHandler
from typing import Any

from servers.loopback import LoopbackServer
from servers.loopback import serving as serving_server

Route = Callable[["Handler", bytes], None]


class HostileServer(LoopbackServer):
    quiet_errors = True  # clients hang up on purpose (caps, deadlines)

    def __init__(self, routes: dict[str, Route | list[Route]]) -> None:
        super().__init__(Handler)
        self.routes = routes
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    server: HostileServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._route(b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._route(self.rfile.read(length))

    def _route(self, body: bytes) -> None:
        with self.server.lock:
            route = self.server.routes.get(self.path)
            if isinstance(route, list):
                route = route.pop(0) if route else None
        if route is None:
            send(self, {"error": f"no route for {self.path}"}, status=404)
            return
        route(self, body)


def send(handler: Handler, payload: Any, *, status: int = 200, gzipped: bool = False) -> None:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    if gzipped:
        handler.send_header("Content-Encoding", "gzip")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def reply(payload: Any, **options: Any) -> Route:
    return lambda handler, _body: send(handler, payload, **options)


def endless(handler: Handler, _body: bytes) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b"[" * 65536
    frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    for _ in range(100_000):  # 6 GB, unless the client hangs up first (it must)
        handler.wfile.write(frame)


def drip(handler: Handler, _body: bytes) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    for _ in range(100_000):
        handler.wfile.write(b" ")
        handler.wfile.flush()
        time.sleep(0.2)


def echo_authorization(template: str) -> Route:
    def route(handler: Handler, _body: bytes) -> None:
        credential = handler.headers.get("Authorization", "")
        send(handler, {"errors": [{"message": template.format(credential)}]})

    return route


def gzip_bomb(decompressed_mib: int) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip framing
    block = b" " * (1024 * 1024)
    parts = [compressor.compress(b'{"data": ')]
    parts += [compressor.compress(block) for _ in range(decompressed_mib)]
    parts.append(compressor.flush())
    return b"".join(parts)


def serving(routes: dict[str, Route | list[Route]]) -> AbstractContextManager[HostileServer]:
    return serving_server(HostileServer(routes), name="hostile-server")
