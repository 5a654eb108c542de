"""Bounds on everything that comes from outside: sizes, nesting, counts and time.

Nothing a file, a server or a model sends may make schemanav grow without bound, run without
end or crash with a traceback. The limits (each says what it protects):

- `MAX_QUESTION_CHARS` (1,024): a search question, from the command line, the library or a
  model's `searchSchema` call; the same limit the Semantic Introspection servers put on `query`.
- `MAX_TOOL_ARGUMENT_CHARS` (32,768): any other string argument of a tool call (an operation
  for `executeGraphql`, its variables as JSON).
- `DEFAULT_MAX_SCHEMA_BYTES` (256 MiB): a schema file, checked before reading, and a live
  introspection response, counted after decompression while it streams in (GitLab's
  introspection JSON is tens of MB; a gzip bomb or an endless body stops here). The environment
  variable `SCHEMANAV_MAX_SCHEMA_BYTES` changes it (`schema_byte_cap`).
- `MAX_RESPONSE_BYTES` (16 MiB): a GraphQL endpoint's or a model server's answer.
- `MAX_JSON_DEPTH` (64): nesting of a model's tool-call arguments and of a model server's reply;
  deeper JSON anywhere else (a schema, a cache) is caught as Python's `RecursionError`.
- `MAX_TYPE_REF_DEPTH` (32): `ofType` wrappers of one type reference in introspection JSON.
- `MAX_TOOL_CALLS_PER_REPLY` (8) and `MAX_TOOL_CALLS_PER_RUN` (64): tool executions of the agent.

Time: `run_with_deadline` bounds a whole request (connect, headers and body), not each read,
so a server that sends one byte a second cannot hold a `--timeout 5` for minutes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import httpx

MAX_QUESTION_CHARS = 1024
MAX_TOOL_ARGUMENT_CHARS = 32 * 1024
DEFAULT_MAX_SCHEMA_BYTES = 256 * 1024 * 1024
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
MAX_JSON_DEPTH = 64
MAX_TYPE_REF_DEPTH = 32
MAX_TOOL_CALLS_PER_REPLY = 8
MAX_TOOL_CALLS_PER_RUN = 64
# An error answer is only ever quoted in part: this much of it is read.
ERROR_BODY_BYTES = 64 * 1024

T = TypeVar("T")


class LimitExceeded(Exception):
    """A bound was hit; `message` says which, in words for an error line."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DeadlineExceeded(LimitExceeded):
    pass


class TooLarge(LimitExceeded):
    pass


class TooDeep(LimitExceeded, ValueError):
    pass


SCHEMA_BYTES_VARIABLE = "SCHEMANAV_MAX_SCHEMA_BYTES"


def schema_byte_cap() -> int:
    """The largest schema file or live introspection response: `$SCHEMANAV_MAX_SCHEMA_BYTES`,
    else `DEFAULT_MAX_SCHEMA_BYTES`."""
    import os

    from schemanav.errors import InputError

    raw = os.environ.get(SCHEMA_BYTES_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_MAX_SCHEMA_BYTES
    try:
        value = int(raw.replace("_", ""))
    except ValueError:
        value = 0
    if value < 1024:
        raise InputError(f"{SCHEMA_BYTES_VARIABLE} must be a whole number of bytes, at least 1024")
    return value


def question_problem(question: str, *, what: str = "the question") -> str | None:
    """Why `question` is refused (too long), or None when it may be searched."""
    if len(question) > MAX_QUESTION_CHARS:
        return (
            f"{what} is {len(question):,} characters long; the limit is "
            f"{MAX_QUESTION_CHARS:,} characters: ask in fewer words"
        )
    return None


def describe_bytes(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):,.0f} MiB"
    if count >= 1024:
        return f"{count / 1024:,.0f} KiB"
    return f"{count:,} bytes"


def json_depth_problem(value: Any, limit: int = MAX_JSON_DEPTH) -> str | None:
    """'nested more than N levels deep' when `value` (parsed JSON) is, else None. Iterative."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return f"nested more than {limit} levels deep"
        stack.extend((child, depth + 1) for child in children)
    return None


def loads_json(data: str | bytes, *, max_depth: int | None = None) -> Any:
    """`json.loads`, with nesting that is too deep raised as `TooDeep` (a `ValueError`).

    Without `max_depth` only Python's own recursion limit applies (about 1,000 levels), which
    is caught; with it, the parsed value is checked too.
    """
    import json

    try:
        value = json.loads(data)
    except RecursionError:
        deep = f"nested more than {max_depth} levels deep" if max_depth else "nested too deeply"
        raise TooDeep(deep) from None
    if max_depth is not None:
        problem = json_depth_problem(value, max_depth)
        if problem:
            raise TooDeep(problem)
    return value


# Decompressed bytes produced per step: a gzip bomb never expands by more than this at once.
_DECODE_STEP = 256 * 1024


def decoded_chunks(response: httpx.Response) -> Iterator[bytes]:
    """The body of a streamed response, decompressed a bounded step at a time.

    gzip is decoded here with an output limit per step (httpx's own decoder would expand one
    64 KiB network read of a bomb into 64 MiB at once); other encodings go through httpx.
    """
    import zlib

    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding in ("", "identity"):
        yield from response.iter_raw()
        return
    if encoding not in ("gzip", "x-gzip"):
        yield from response.iter_bytes()
        return
    decoder = zlib.decompressobj(zlib.MAX_WBITS | 16)
    for raw in response.iter_raw():
        data = raw
        while data and not decoder.eof:
            try:
                out = decoder.decompress(data, _DECODE_STEP)
            except zlib.error:
                raise ValueError("the gzip body is damaged") from None
            if out:
                yield out
            data = decoder.unconsumed_tail
    tail = decoder.flush()
    if tail:
        yield tail


def read_capped(
    chunks: Iterable[bytes],
    max_bytes: int,
    cancelled: threading.Event,
    *,
    truncate: bool = False,
) -> bytes:
    """The joined chunks (decompressed, from `decoded_chunks`): `TooLarge` past `max_bytes`
    (or, with `truncate`, the first `max_bytes`), `DeadlineExceeded` once `cancelled` is set."""
    parts: list[bytes] = []
    total = 0
    for chunk in chunks:
        if cancelled.is_set():
            raise DeadlineExceeded("cancelled")
        if total + len(chunk) > max_bytes:
            if not truncate:
                raise TooLarge(f"the response is larger than {describe_bytes(max_bytes)}")
            parts.append(chunk[: max_bytes - total])
            break
        total += len(chunk)
        parts.append(chunk)
    return b"".join(parts)


def run_with_deadline(work: Callable[[threading.Event], T], seconds: float) -> T:
    """`work(cancelled)` in a worker thread, bounded in total by `seconds`.

    Raises `DeadlineExceeded` when time runs out (the worker is told through `cancelled` and
    stops at its next chunk; a socket blocked in a read is left to its own read timeout), and
    re-raises whatever `work` raised.
    """
    cancelled = threading.Event()
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = work(cancelled)
        except BaseException as err:  # handed to the caller below
            outcome["error"] = err

    worker = threading.Thread(target=target, name="schemanav-request", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        cancelled.set()
        raise DeadlineExceeded(f"no complete answer within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]


def bounded_transport(
    inner: httpx.BaseTransport,
    *,
    timeout: float,
    max_bytes: int = MAX_RESPONSE_BYTES,
    on_body: Callable[[httpx.Request, int, bytes], bytes] | None = None,
) -> httpx.BaseTransport:
    """A transport for any httpx-based client (the `ollama` client takes one): every request
    ends within `timeout` in total (`DeadlineExceeded`) and every body is read decompressed
    and capped (`TooLarge`; an error body is cut to `ERROR_BODY_BYTES` instead).
    `on_body(request, status, body)` may check or rewrite a body before the client sees it."""
    import httpx

    class _Bounded(httpx.BaseTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            status, headers, content = run_with_deadline(
                lambda cancelled: _fetch(request, cancelled), timeout
            )
            if on_body is not None:
                content = on_body(request, status, content)
            dropped = {"content-length", "content-encoding", "transfer-encoding"}
            kept = [(k, v) for k, v in headers if k.lower() not in dropped]
            return httpx.Response(status, headers=kept, content=content, request=request)

        def close(self) -> None:
            inner.close()

    def _fetch(
        request: httpx.Request, cancelled: threading.Event
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        response = inner.handle_request(request)
        try:
            ok = response.status_code < 400
            streamed = httpx.Response(
                response.status_code, headers=response.headers, stream=response.stream
            )
            cap = max_bytes if ok else ERROR_BODY_BYTES
            content = read_capped(decoded_chunks(streamed), cap, cancelled, truncate=not ok)
            return response.status_code, list(response.headers.items()), content
        finally:
            response.close()

    return _Bounded()
