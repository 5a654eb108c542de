"""Load on `schemanav serve`: N clients while another sends the 5,000-alias document.

    python scripts/serve_load.py [--clients 50] [--requests 20] [--schema FILE]

Starts `schemanav serve --port 0` on 127.0.0.1 (the bundled Movie DB unless --schema), runs
`--clients` clients that each send `--requests` small requests (`__search` with first 5, and
`{ __typename }`) one after another, while one more client keeps sending a 0.9 MB document of
5,000 aliased `__search(first: 150)` calls with nested definitions. Prints one JSON object:
the small requests' latency (p50, p95, max, in seconds), how many failed, and what the costly
document got back. Loopback only; stops by itself (every request has a timeout, the whole run
`--deadline` seconds) and stops the server.
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


def start_server(schema: str | None) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src")}
    command = [sys.executable, "-m", "schemanav", "serve", "--port", "0", "--host", "127.0.0.1"]
    if schema:
        command += ["--schema", schema]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()
    if "listening on " not in line:
        process.kill()
        raise SystemExit(f"serve_load: the server did not start: {line.strip()}")
    return process, line.rsplit("listening on ", 1)[1].strip()


async def small_client(
    url: str, requests: int, latencies: list[float], failures: list[str]
) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        for number in range(requests):
            started = time.monotonic()
            try:
                response = await client.post(url, json=SMALL[number % len(SMALL)])
                if response.status_code != 200 or "errors" in response.json():
                    failures.append(response.text[:200])
            except httpx.HTTPError as err:
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
        "clients": clients,
        "requests": len(latencies),
        "failed": len(failures),
        "p50_s": round(percentile(latencies, 0.50), 3),
        "p95_s": round(percentile(latencies, 0.95), 3),
        "max_s": round(max(latencies), 3),
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
    args = parser.parse_args()
    process, url = start_server(args.schema)
    try:
        result = asyncio.run(load(url, args.clients, args.requests, args.deadline))
    finally:
        process.terminate()
        process.wait(timeout=10)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
