"""Load on `schemanav serve`: N clients while another sends the 5,000-alias document.

    python scripts/serve_load.py [--clients 50] [--requests 20] [--schema FILE]
    python scripts/serve_load.py --costly-clients 4 [--clients 50] [--requests 20]
    python scripts/serve_load.py --src OTHER_CHECKOUT/src   (the code before a change)

Starts `schemanav serve --port 0` on 127.0.0.1 (the bundled Movie DB unless --schema), runs
`--clients` clients that each send `--requests` small requests (`__search` with first 5, and
`{ __typename }`) one after another, while one more client keeps sending a 0.9 MB document of
5,000 aliased `__search(first: 150)` calls with nested definitions. Prints one JSON object:
the small requests' latency (p50, p95, max, in seconds), how many failed, and what the costly
document got back. With `--costly-clients N`, N clients instead loop the costliest requests
serve accepts, in turn: ten `__definitions` of 150 coordinates each, and the standard
introspection query (graphql-core's `get_introspection_query`). Loopback only; stops by
itself (every request has a timeout, the whole run `--deadline` seconds) and stops the
server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

REPO_ROOT = Path(__file__).resolve().parents[1]
SMALL = [
    {"query": '{ __search(query: "movies with a high rating", first: 5) { coordinate score } }'},
    {"query": "{ __typename }"},
]


def costly_document(aliases: int = 5_000) -> str:
    hit = (
        "coordinate score pathsToRoot "
        "definition { ... on __Field { name description type { name } } }"
    )
    calls = (
        f'a{i}: __search(query: "movies with a high rating and many reviews {i}", '
        f"first: 150) {{ {hit} }}"
        for i in range(aliases)
    )
    return "{ " + " ".join(calls) + " }"


def start_server(
    schema: str | None, source: Path = REPO_ROOT / "src"
) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(source)}
    command = [sys.executable, "-m", "schemanav", "serve", "--port", "0", "--host", "127.0.0.1"]
    if schema:
        command += ["--schema", schema]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()
    while line.startswith("warning: "):  # a schema that breaks spec rules is loaded anyway
        line = process.stderr.readline()
    if "listening on " not in line:
        process.kill()
        raise SystemExit(f"serve_load: the server did not start: {line.strip()}")
    return process, line.rsplit("listening on ", 1)[1].strip()


async def small_client(
    url: str, requests: int, latencies: list[float], failures: list[str]
) -> None:
    """One client sending its small requests one after another, on one kept-alive connection.
    aiohttp, whose parser is compiled: httpx spent about 1.7 ms of this process's CPU on each
    small request, over three times what the server spends answering it, so 50 httpx clients
    in one process measured their own queue more than the server."""
    import aiohttp

    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        for number in range(requests):
            started = time.monotonic()
            try:
                async with session.post(url, json=SMALL[number % len(SMALL)]) as response:
                    text = await response.text()
                if response.status != 200 or "errors" in json.loads(text):
                    failures.append(text[:200])
            except (aiohttp.ClientError, TimeoutError) as err:
                failures.append(type(err).__name__)
            latencies.append(time.monotonic() - started)


async def costly_client(url: str, stop: asyncio.Event, answers: list[dict[str, Any]]) -> None:
    document = {"query": costly_document()}
    async with httpx.AsyncClient(timeout=180) as client:
        while not stop.is_set():
            started = time.monotonic()
            response = await client.post(url, json=document)
            answers.append(
                {
                    "seconds": round(time.monotonic() - started, 3),
                    "status": response.status_code,
                    "bytes": len(response.content),
                    "error": (response.json().get("errors") or [{}])[0].get("message"),
                }
            )


def costliest_accepted(coordinates: list[str]) -> list[dict[str, Any]]:
    """What `--costly-clients` loop: ten `__definitions` of 150 coordinates each (the most
    one request may ask), and the standard introspection query."""
    from graphql import get_introspection_query

    picked = [coordinates[i % len(coordinates)] for i in range(150)]
    definition = "... on __Field { name description type { name kind ofType { name } } }"
    calls = " ".join(
        f"d{i}: __definitions(coordinates: {json.dumps(picked)}) {{ {definition} "
        "... on __Type { kind description fields { name } } }"
        for i in range(10)
    )
    return [{"query": "{ " + calls + " }"}, {"query": get_introspection_query()}]


async def coordinates_of(url: str) -> list[str]:
    """Every field coordinate the server's schema has (from a plain introspection)."""
    query = "{ __schema { types { name kind fields { name } } } }"
    async with httpx.AsyncClient(timeout=60) as client:
        types = (await client.post(url, json={"query": query})).json()["data"]["__schema"]
    return [
        f"{kind['name']}.{field['name']}"
        for kind in types["types"]
        if not kind["name"].startswith("__") and kind["kind"] == "OBJECT"
        for field in kind["fields"] or ()
    ]


async def looping_client(
    url: str, requests: list[dict[str, Any]], stop: asyncio.Event, answers: list[dict[str, Any]]
) -> None:
    async with httpx.AsyncClient(timeout=180) as client:
        number = 0
        while not stop.is_set():
            started = time.monotonic()
            response = await client.post(url, json=requests[number % len(requests)])
            number += 1
            answers.append(
                {
                    "seconds": round(time.monotonic() - started, 3),
                    "status": response.status_code,
                    "bytes": len(response.content),
                    "error": (response.json().get("errors") or [{}])[0].get("message"),
                }
            )


async def load_costly(
    url: str, costly_clients: int, clients: int, requests: int, deadline: float
) -> dict[str, Any]:
    """Small requests' latency while `costly_clients` loop the costliest accepted requests."""
    latencies: list[float] = []
    failures: list[str] = []
    answers: list[dict[str, Any]] = []
    stop = asyncio.Event()
    costly = costliest_accepted(await coordinates_of(url))
    loops = [
        asyncio.create_task(looping_client(url, costly, stop, answers))
        for _ in range(costly_clients)
    ]
    await asyncio.sleep(0.5)  # the costly requests are in flight first
    smalls = [small_client(url, requests, latencies, failures) for _ in range(clients)]
    await asyncio.wait_for(asyncio.gather(*smalls), deadline)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*loops), 180)
    return {
        "costly_clients": costly_clients,
        **small_figures(clients, latencies, failures),
        "costly_answered": len(answers),
        "costly_refused": sum(1 for answer in answers if answer["error"]),
        "costly_p50_s": round(percentile([a["seconds"] for a in answers], 0.50), 3),
        "costly_slowest_s": max(answer["seconds"] for answer in answers),
        "costly_errors": sorted({str(a["error"])[:120] for a in answers if a["error"]}),
    }


def small_figures(clients: int, latencies: list[float], failures: list[str]) -> dict[str, Any]:
    """What the small clients saw: how many answered, failed, and their latencies."""
    return {
        "clients": clients,
        "requests": len(latencies),
        "failed": len(failures),
        "p50_s": round(percentile(latencies, 0.50), 3),
        "p95_s": round(percentile(latencies, 0.95), 3),
        "max_s": round(max(latencies), 3),
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


async def load(url: str, clients: int, requests: int, deadline: float) -> dict[str, Any]:
    latencies: list[float] = []
    failures: list[str] = []
    answers: list[dict[str, Any]] = []
    stop = asyncio.Event()
    costly = asyncio.create_task(costly_client(url, stop, answers))
    await asyncio.sleep(0.2)  # the costly document is in flight first
    smalls = [small_client(url, requests, latencies, failures) for _ in range(clients)]
    await asyncio.wait_for(asyncio.gather(*smalls), deadline)
    stop.set()
    await asyncio.wait_for(costly, 180)
    return {
        **small_figures(clients, latencies, failures),
        "costly_document_bytes": len(costly_document()),
        "costly_sent": len(answers),
        "costly_slowest_s": max(answer["seconds"] for answer in answers),
        "costly_answer": answers[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--schema", default=None)
    parser.add_argument("--deadline", type=float, default=300.0)
    parser.add_argument(
        "--src",
        type=Path,
        default=REPO_ROOT / "src",
        help="the package's source folder to serve from (another checkout's, to compare)",
    )
    parser.add_argument(
        "--costly-clients",
        type=int,
        default=0,
        help="clients looping the costliest accepted requests, instead of the 5,000 aliases",
    )
    args = parser.parse_args()
    process, url = start_server(args.schema, args.src)
    try:
        if args.costly_clients:
            run = load_costly(
                url, args.costly_clients, args.clients, args.requests, args.deadline
            )
        else:
            run = load(url, args.clients, args.requests, args.deadline)
        result = asyncio.run(run)
    finally:
        process.terminate()
        process.wait(timeout=10)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
