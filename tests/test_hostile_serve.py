"""Hostile input to `schemanav serve`: costly requests, deep JSON and a hostile upstream.

`schemanav serve` runs as a subprocess under a memory and CPU limit (`setrlimit`, as
`test_hostile` does), forwarding to a hostile upstream on 127.0.0.1 that picks its misdeed
by the operation's name: a gzip bomb, an endless body, a drip, a body over the cap, JSON
3,000 deep, or the credential it got echoed back escaped or decoded.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import python_path
from schemanav.servers.request_limits import (
    MAX_SELECTION_DEPTH,
    MAX_SEMANTIC_SELECTIONS,
    MAX_TOTAL_FIRST,
    RESOLVED_FIELDS_VARIABLE,
)
from servers.hostile import Handler, drip, endless, gzip_bomb, send, serving

# Slow tier: `schemanav serve` and `mcp` as processes under hostile load.
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 3 * 1024**3
SECRET = "sk-Zq9Hf3Kp7Lm2Nb8Vc4Xz6Qw1Er5Ty0Ui9Op3As7Df2"
BASIC_PAIR = "alice:w0nderl4nd-pass"
LAUNCHER = (
    "import os, resource, sys\n"
    f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_LIMIT}, {MEMORY_LIMIT}))\n"
    "resource.setrlimit(resource.RLIMIT_CPU, (120, 120))\n"
    "os.execv(sys.executable, [sys.executable, '-m', 'schemanav', *sys.argv[1:]])\n"
)
DEEP = "[" * 3000 + "]" * 3000
TYPES, FIELDS = 20, 30
MAX_FIELDS = 20_000  # lowered from 500,000 through the environment: seconds, not a minute


def wide_schema() -> str:
    """20 types of 30 fields, each field returning another of them: introspection of a
    search hit's type, its fields' types and their fields multiplies fast."""
    types = "".join(
        f"type T{i} {{ "
        + " ".join(f"f{k}: T{(i + k) % TYPES}" for k in range(FIELDS))
        + " name: String }\n"
        for i in range(TYPES)
    )
    return "type Query { t: T0 movies: [T1] movie: T2 }\n" + types


def escaped(text: str) -> str:
    """`text` with every character written as a JSON `\\uXXXX` escape."""
    return "".join(f"\\u{ord(char):04x}" for char in text)


def hostile_upstream(handler: Handler, body: bytes) -> None:
    """The misdeed the operation's name asks for."""
    name = json.loads(body).get("operationName")
    if name == "Bomb":
        send(handler, gzip_bomb(64), gzipped=True)
    elif name == "Endless":
        endless(handler, body)
    elif name == "Drip":
        drip(handler, body)
    elif name == "Huge":
        send(handler, b'{"data": {"movies": [' + b'{"title": "x"},' * 1_500_000 + b"{}]}}")
    elif name == "Deep":
        send(handler, ('{"data": {"movies": ' + DEEP + "}}").encode())
    elif name == "Escaped":
        token = escaped(handler.headers.get("Authorization", ""))
        raw = f'{{"data": {{"t": {{"name": "{token}"}}}}, "errors": [{{"message": "{token}"}}]}}'
        send(handler, raw.encode())
    elif name == "Basic":
        encoded = handler.headers.get("Proxy-Authorization", "").split(" ", 1)[1]
        decoded = base64.b64decode(encoded).decode()
        send(handler, {"errors": [{"message": f"user {decoded} is not allowed"}]})
    elif name == "Redirect":
        payload = b'{"data": {"movie": {"title": "moved"}}}'
        handler.send_response(302)
        handler.send_header("Location", "http://127.0.0.1:9/elsewhere")
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
    else:
        send(handler, {"data": {"movie": {"title": "fine"}}})


class Served:
    """`schemanav serve` in a limited subprocess; `url` is its GraphQL endpoint."""

    def __init__(self, workdir: Path, *args: str, max_fields: int = MAX_FIELDS) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMANAV_")}
        env["PYTHONPATH"] = python_path(str(REPO_ROOT / "src"))
        env["SCHEMANAV_CACHE_DIR"] = str(workdir / "cache")
        env[RESOLVED_FIELDS_VARIABLE] = str(max_fields)
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, "serve", "--port", "0", *args],
            env=env,
            cwd=workdir,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        assert "listening on http://127.0.0.1:" in line, line
        self.url = line.rsplit("listening on ", 1)[1].strip()

    def post(self, payload: Any, timeout: float = 30) -> httpx.Response:
        return httpx.post(self.url, json=payload, timeout=timeout)

    def stop(self) -> str:
        self.process.terminate()
        _, rest = self.process.communicate(timeout=10)
        return rest


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    workdir = tmp_path_factory.mktemp("serve")
    (workdir / "wide.graphqls").write_text(wide_schema())
    with serving({"/graphql": hostile_upstream}) as upstream:
        basic = base64.b64encode(BASIC_PAIR.encode()).decode()
        server = Served(
            workdir,
            "--schema",
            "wide.graphqls",
            "--upstream",
            f"{upstream.url}/graphql",
            "--timeout",
            "5",
            "--header",
            f"Authorization: Bearer {SECRET}",
            "--header",
            f"Proxy-Authorization: Basic {basic}",
        )
        yield server
        log = server.stop()
    assert "Traceback" not in log and "RecursionError" not in log, log[-3000:]
    assert SECRET not in log and BASIC_PAIR not in log


def only_error(response: httpx.Response, *fragments: str) -> str:
    """A GraphQL error (HTTP 200 or 4xx, never 500) with no data; its message."""
    assert response.status_code < 500, response.text[:2000]
    payload = response.json()
    assert payload.get("data") is None, str(payload)[:2000]
    (error,) = payload["errors"]
    for fragment in fragments:
        assert fragment in error["message"], (fragment, error["message"])
    return str(error["message"])


def search_aliases(count: int, first: int = 150) -> str:
    hit = "coordinate definition { ... on __Field { name type { name } args { name } } }"
    return (
        "{ "
        + " ".join(
            f'a{i}: __search(query: "movie rating {i}", first: {first}) {{ {hit} }}'
            for i in range(count)
        )
        + " }"
    )


# --- the cost of one request ---------------------------------------------------------------


def test_a_costly_document_is_refused_and_never_holds_the_others(served: Served) -> None:
    costly = search_aliases(5_000)
    assert len(costly) > 500_000
    with ThreadPoolExecutor(max_workers=2) as pool:
        big = pool.submit(served.post, {"query": costly}, 120)
        time.sleep(0.2)
        started = time.monotonic()
        small = served.post({"query": "{ __typename }"})
        waited = time.monotonic() - started
        refused_after = big.result()
    assert small.json() == {"data": {"__typename": "Query"}}
    assert waited < 2, waited
    only_error(refused_after, "more than 100,000 characters")


def test_each_per_request_bound_is_a_clear_graphql_error(served: Served) -> None:
    # Short enough to be lexed, too many tokens to be parsed whole.
    dense = "{ " + "a " * 25_000 + "}"
    assert len(dense) < 100_000
    only_error(served.post({"query": dense}), "more than 20,000 tokens")
    message = only_error(served.post({"query": search_aliases(MAX_SEMANTIC_SELECTIONS + 1, 5)}))
    assert f"at most {MAX_SEMANTIC_SELECTIONS} __search and __definitions" in message
    over_first = search_aliases(MAX_TOTAL_FIRST // 150 + 1)
    only_error(served.post({"query": over_first}), f"{MAX_TOTAL_FIRST} results in all")
    deep = "{ __schema { types { " + "fields { type { " * 20 + "name" + " } }" * 20 + " } } }"
    only_error(served.post({"query": deep}), f"more than {MAX_SELECTION_DEPTH} levels deep")
    # Within the other bounds, nesting that multiplies the answer runs into the field budget.
    nested = "... on __Field { type { fields { type { fields { name type { name } } } } } }"
    wide = search_aliases(2, 150).replace("type { name } args { name }", nested)
    only_error(served.post({"query": wide}), f"more than {MAX_FIELDS:,} fields")
    fine = served.post({"query": search_aliases(MAX_SEMANTIC_SELECTIONS, 30)}).json()
    assert "errors" not in fine and len(fine["data"]) == MAX_SEMANTIC_SELECTIONS


# --- deep JSON -----------------------------------------------------------------------------


def test_deep_json_in_any_part_of_a_request_is_a_graphql_error(served: Served) -> None:
    only_error(
        httpx.post(served.url, content=b'{"query": ' + DEEP.encode() + b"}", timeout=30),
        "nested more than 64 levels deep",
    )
    variables = {"query": "query Q($v: String) { __typename }", "variables": {"v": "x"}}
    raw = json.dumps(variables).replace('"x"', DEEP)
    only_error(
        httpx.post(served.url, content=raw.encode(), timeout=30), "nested more than 64 levels"
    )
    only_error(
        httpx.get(
            served.url,
            params={"query": "{ __typename }", "variables": '{"v": ' + DEEP + "}"},
            timeout=30,
        ),
        "nested more than 64 levels",
    )
    nested = "{ __typename " + "... on Query { " * 1500 + "__typename" + " }" * 1500 + " }"
    only_error(served.post({"query": nested}), "nested")
    only_error(
        forward(served, "Deep"),
        "upstream API answered with JSON nested more than 64 levels deep",
    )


# --- the upstream path ---------------------------------------------------------------------


def forward(served: Served, name: str) -> httpx.Response:
    return served.post({"query": f"query {name} {{ t {{ name }} }}", "operationName": name})


def test_the_upstream_answer_is_capped_after_decompression(served: Served) -> None:
    for name in ("Bomb", "Endless", "Huge"):
        only_error(forward(served, name), "upstream API answered with more than 16 MiB")
    assert forward(served, "Fine").json() == {"data": {"movie": {"title": "fine"}}}


def test_a_redirect_from_upstream_is_an_upstream_error(served: Served) -> None:
    """A 302's body is not the upstream's answer (and the redirect is not followed)."""
    message = only_error(forward(served, "Redirect"), "upstream API answered HTTP 302")
    assert "moved" not in message


def test_secrets_echoed_upstream_in_any_form_are_redacted(served: Served) -> None:
    answer = forward(served, "Escaped").text
    assert "[redacted]" in answer
    assert SECRET not in answer and escaped(SECRET)[:48] not in answer
    message = only_error(forward(served, "Basic"), "[redacted]")
    assert BASIC_PAIR not in message and "w0nderl4nd" not in message


def test_a_dripping_upstream_meets_one_total_deadline_and_holds_no_one(served: Served) -> None:
    """5 s in all, not 5 s per byte; the drip holds a worker thread, not the event loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        started = time.monotonic()
        dripping = pool.submit(forward, served, "Drip")
        time.sleep(0.3)
        asked = time.monotonic()
        answer = served.post({"query": "{ __typename }"}).json()
        assert time.monotonic() - asked < 1
        assert answer == {"data": {"__typename": "Query"}}
        only_error(dripping.result(), "did not answer within 5 s")
    assert time.monotonic() - started < 7


def test_concurrent_clients_meet_the_latency_bound(served: Served) -> None:
    """A small version of `scripts/serve_load.py`: 4 clients while one sends the costly
    document; the others' p95 stays under a second."""
    latencies: list[float] = []
    lock = threading.Lock()
    search = {"query": '{ __search(query: "movie rating", first: 5) { coordinate } }'}
    queries = [search, {"query": "{ __typename }"}]  # as scripts/serve_load.py sends them

    def client() -> None:
        with httpx.Client(timeout=30) as session:
            for number in range(10):
                started = time.monotonic()
                sent = session.post(served.url, json=queries[number % 2])
                assert sent.status_code == 200
                with lock:
                    latencies.append(time.monotonic() - started)

    with ThreadPoolExecutor(max_workers=5) as pool:
        costly = pool.submit(served.post, {"query": search_aliases(5_000)}, 120)
        for future in [pool.submit(client) for _ in range(4)]:
            future.result()
        only_error(costly.result(), "characters")
    latencies.sort()
    assert latencies[int(len(latencies) * 0.95) - 1] < 1, latencies[-10:]


# --- MCP over stdio --------------------------------------------------------------------------


def test_mcp_answers_a_message_nested_too_deeply_with_a_json_rpc_error(tmp_path: Path) -> None:
    import select

    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMANAV_")}
    env |= {"PYTHONPATH": python_path(str(REPO_ROOT / "src")), "SCHEMANAV_CACHE_DIR": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, "mcp"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None

    def ask(line: str) -> dict[str, Any] | None:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 30)
        return json.loads(process.stdout.readline()) if ready else None

    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}}
        hello["clientInfo"] = {"name": "test", "version": "1"}
        start = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}
        assert ask(json.dumps(start)) is not None
        process.stdin.write('{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        nested = "[" * 900 + "]" * 900
        call = '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": '
        call += '{"name": "search_schema", "arguments": {"query": ' + nested + "}}}"
        answer = ask(call)
        assert answer is not None, "no answer at all"
        assert answer["error"]["code"] == -32700 and "nested too deeply" in str(answer)
        assert answer["id"] == 2  # read from the line's flat start: the caller's call fails
        wrong = ask('{"jsonrpc": "2.0", "id": "seven", "method": 5}')  # JSON, not JSON-RPC
        assert wrong is not None and wrong["id"] == "seven" and wrong["error"]["code"] == -32700
        garbage = ask("not json at all")
        assert garbage is not None and garbage["id"] is None  # no id to read
        listed = ask('{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}')
        assert listed is not None and listed["id"] == 3  # the session goes on
    finally:
        process.terminate()
        process.communicate(timeout=10)


def test_an_unreadable_call_from_the_mcp_client_fails_at_once(tmp_path: Path) -> None:
    """The SDK's client sends arguments nested 220 deep (it serializes them; the server's
    parser stops at 200): the answer names the call's id, so the client's call fails at once
    instead of waiting forever, and the session goes on."""
    import anyio
    from mcp import Client, MCPError
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {"PYTHONPATH": str(REPO_ROOT / "src"), "SCHEMANAV_CACHE_DIR": str(tmp_path)}
    params = StdioServerParameters(command=sys.executable, args=["-m", "schemanav", "mcp"], env=env)
    deep: list[Any] = []
    for _ in range(220):
        deep = [deep]

    async def main() -> None:
        with anyio.fail_after(30), (tmp_path / "server.log").open("w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                with pytest.raises(MCPError, match="nested too deeply"):
                    await client.call_tool("search_schema", {"query": deep})
                found = await client.call_tool("search_schema", {"query": "movie title"})
                assert not found.is_error

    anyio.run(main)


# --- fairness: costly clients take turns -------------------------------------------------------


def test_small_requests_stay_fast_while_four_clients_loop_costly_ones(tmp_path: Path) -> None:
    """A small `scripts/serve_load.py --costly-clients 4`: four clients loop the costliest
    accepted requests (ten `__definitions` of 150 coordinates, the standard introspection
    query) on a schema of 60 types of 40 fields; two clients' small requests keep a p95 under
    0.3 s (each costly request alone takes about a second here)."""
    from graphql import get_introspection_query

    types = "".join(
        f"type T{i} {{ "
        + " ".join(f"f{k}(a: Int, b: String): T{(i + k) % 60}" for k in range(40))
        + " }\n"
        for i in range(60)
    )
    (tmp_path / "big.graphqls").write_text("type Query { t: T0 }\n" + types)
    coordinates = json.dumps([f"T{i % 60}.f{i % 40}" for i in range(150)])
    definition = "... on __Field { name description args { name type { name } } type { name } }"
    calls = " ".join(
        f"d{i}: __definitions(coordinates: {coordinates}) {{ {definition} }}" for i in range(10)
    )
    costly = [{"query": "{ " + calls + " }"}, {"query": get_introspection_query()}]
    small = [
        {"query": '{ __search(query: "t f1", first: 5) { coordinate } }'},
        {"query": "{ __typename }"},
    ]
    server = Served(tmp_path, "--schema", "big.graphqls", max_fields=500_000)
    stop = threading.Event()
    latencies: list[float] = []
    costly_seconds: list[float] = []

    def loop_costly() -> None:
        with httpx.Client(timeout=120) as session:
            number = 0
            while not stop.is_set():
                started = time.monotonic()
                answer = session.post(server.url, json=costly[number % 2])
                assert answer.status_code == 200 and "data" in answer.json(), answer.text[:500]
                costly_seconds.append(time.monotonic() - started)
                number += 1

    def small_client() -> None:
        with httpx.Client(timeout=60) as session:
            for number in range(15):
                started = time.monotonic()
                answer = session.post(server.url, json=small[number % 2])
                assert answer.status_code == 200, answer.text[:500]
                latencies.append(time.monotonic() - started)

    try:
        with ThreadPoolExecutor(max_workers=6) as pool:
            loops = [pool.submit(loop_costly) for _ in range(4)]
            time.sleep(1.0)  # the costly requests are in flight first
            for future in [pool.submit(small_client) for _ in range(2)]:
                future.result()
            stop.set()
            for future in loops:
                future.result()
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-3000:]
    latencies.sort()
    p95 = latencies[int(len(latencies) * 0.95) - 1]
    assert costly_seconds, "no costly request was answered"
    assert p95 < 0.3, (p95, latencies[-5:], sorted(costly_seconds)[len(costly_seconds) // 2])
