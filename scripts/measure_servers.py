"""Speed of the two front ends on GitHub, for docs/speed.md (medians; not a test).

    bash scripts/fetch-wg-benchmark.sh --from ../shared/wg
    python scripts/measure_servers.py [--seconds 20] [--clients 50] [--json PATH]

Measures, with the 200 working-group questions, warm (index built, one warm-up pass):
- per request, in one long-running process: `search_schema` (ToolBox.call, default budget)
  and `__search` (the endpoint's GraphQL execution, first: 10);
- per request over HTTP on loopback: `__search` POSTed to `schemanav serve`, and
  `search_schema` called through the MCP SDK client on `schemanav mcp --http`;
- start-up to first answer with a warm cache (`schemanav serve` → first `__search`;
  `schemanav mcp` over stdio → first `search_schema`), median of 3; resident memory (RSS);
- 50 concurrent clients for 20 s against `serve`: requests, errors, p50 / p95.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
GITHUB = ROOT / "schemas" / "github-wg.graphqls"
QUESTIONS = ROOT / "benchmarks" / "github-wg.tsv"
SEARCH = "query($q: String!) { __search(query: $q, first: 10) { coordinate score pathsToRoot } }"


def questions() -> list[str]:
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    return [line.split("\t", 1)[0] for line in lines if line and not line.startswith("#")]


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(samples), "p50_ms": statistics.median(ordered) * 1e3, "p95_ms": p95 * 1e3}


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def in_process(asked: list[str]) -> dict[str, Any]:
    from schemanav.navigator import Navigator
    from schemanav.servers.graphql_endpoint import SemanticEndpoint
    from schemanav.servers.tools import ToolBox

    navigator = Navigator.open(str(GITHUB))
    tools = ToolBox(navigator)
    tools.warm()
    endpoint = SemanticEndpoint(navigator)

    def search_schema(question: str) -> None:
        assert tools.call("search_schema", {"query": question}).ok

    loop = asyncio.new_event_loop()

    def graphql_search(question: str) -> None:
        answer = loop.run_until_complete(endpoint.answer(SEARCH, {"q": question}, None))
        assert "errors" not in answer, answer

    results: dict[str, Any] = {}
    for name, call in (("search_schema", search_schema), ("__search", graphql_search)):
        for question in asked[:20]:
            call(question)
        samples, cpu = [], []
        for question in asked:
            started, cpu_started = time.perf_counter(), time.process_time()
            call(question)
            samples.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        results[name] = {**summary(samples), "cpu": summary(cpu)}
    results["rss_mb"] = rss_mb(os.getpid())
    return results


def start(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """A `schemanav` server process and the URL from its `listening on` line."""
    command = [sys.executable, "-m", "schemanav", *args]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if "listening on " in line:
            return process, line.rsplit("listening on ", 1)[1].strip()
    raise RuntimeError(f"{' '.join(args)} did not start")


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.wait(timeout=10)


def serve_over_http(asked: list[str], env: dict[str, str], clients: int, seconds: float) -> Any:
    import httpx

    process, url = start(["serve", "--schema", str(GITHUB), "--port", "0"], env)
    try:
        with httpx.Client() as client:

            def ask(question: str) -> None:
                body = {"query": SEARCH, "variables": {"q": question}}
                response = client.post(url, json=body)
                assert response.status_code == 200 and "errors" not in response.json()

            for question in asked[:20]:
                ask(question)
            samples = []
            cpu_started = cpu_s(process.pid)
            for question in asked:
                started = time.perf_counter()
                ask(question)
                samples.append(time.perf_counter() - started)
            server_cpu = cpu_s(process.pid) - cpu_started
        sequential = {**summary(samples), "server_cpu_ms_mean": server_cpu / len(asked) * 1e3}
        cpu_started = cpu_s(process.pid)
        load = asyncio.run(hammer(url, asked, clients, seconds))
        load["server_cpu_ms_mean"] = (cpu_s(process.pid) - cpu_started) / load["requests"] * 1e3
        return {"__search": sequential, "load": load, "rss_mb": rss_mb(process.pid)}
    finally:
        stop(process)


async def hammer(url: str, asked: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """`clients` concurrent clients, each asking the questions in turn for `seconds`."""
    import httpx

    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.perf_counter() + seconds

    async def client_loop(number: int) -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            turn = number
            while time.perf_counter() < deadline:
                question = asked[turn % len(asked)]
                turn += clients
                started = time.perf_counter()
                try:
                    response = await client.post(
                        url, json={"query": SEARCH, "variables": {"q": question}}
                    )
                    ok = response.status_code == 200 and "errors" not in response.json()
                    if not ok:
                        errors.append(f"HTTP {response.status_code}: {response.text[:200]}")
                except httpx.HTTPError as err:
                    errors.append(repr(err))
                    continue
                latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(client_loop(n) for n in range(clients)))
    elapsed = time.perf_counter() - started
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "requests": len(latencies),
        "per_second": round(len(latencies) / elapsed, 1),
        "errors": len(errors),
        "first_errors": errors[:3],
        **summary(latencies),
    }


def mcp_over_http(asked: list[str], env: dict[str, str]) -> Any:
    from mcp import Client

    process, url = start(["mcp", "--schema", str(GITHUB), "--http", "127.0.0.1:0"], env)

    async def run() -> dict[str, float]:
        async with Client(url) as client:
            for question in asked[:20]:
                await client.call_tool("search_schema", {"query": question})
            samples = []
            cpu_started = cpu_s(process.pid)
            for question in asked:
                started = time.perf_counter()
                result = await client.call_tool("search_schema", {"query": question})
                samples.append(time.perf_counter() - started)
                assert not result.is_error
            server_cpu = cpu_s(process.pid) - cpu_started
            return {**summary(samples), "server_cpu_ms_mean": server_cpu / len(asked) * 1e3}

    try:
        return {"search_schema": asyncio.run(run()), "rss_mb": rss_mb(process.pid)}
    finally:
        stop(process)


def startup_serve(env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawning `schemanav serve` to the first answer, and the CPU it used."""
    import httpx

    started = time.perf_counter()
    process, url = start(["serve", "--schema", str(GITHUB), "--port", "0"], env)
    try:
        body = {"query": SEARCH, "variables": {"q": "open pull requests of a repository"}}
        assert "errors" not in httpx.post(url, json=body).json()
        return time.perf_counter() - started, cpu_s(process.pid)
    finally:
        stop(process)


def startup_mcp_stdio(env: dict[str, str]) -> float:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "schemanav", "mcp", "--schema", str(GITHUB)],
        env={key: env[key] for key in ("PYTHONPATH", "SCHEMANAV_CACHE_DIR")},
    )

    async def run() -> float:
        started = time.perf_counter()
        with open(os.devnull, "w") as quiet:
            async with Client(stdio_client(params, errlog=quiet)) as client:
                result = await client.call_tool("search_schema", {"query": "open pull requests"})
                assert not result.is_error
                return time.perf_counter() - started

    return asyncio.run(run())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    if not GITHUB.is_file() or not QUESTIONS.is_file():
        print("error: run bash scripts/fetch-wg-benchmark.sh --from ../shared/wg first")
        return 2
    asked = questions()
    cache = tempfile.mkdtemp(prefix="schemanav-servers-")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "SCHEMANAV_CACHE_DIR": cache}
    os.environ["SCHEMANAV_CACHE_DIR"] = cache
    report: dict[str, Any] = {
        "questions": len(asked),
        "cpus": os.cpu_count(),
        "load_average_before": os.getloadavg(),
    }
    report["in_process"] = in_process(asked)  # also fills the on-disk cache: later starts are warm
    serve_starts = [startup_serve(env) for _ in range(3)]
    report["startup_warm_s"] = {
        "serve": statistics.median(wall for wall, _ in serve_starts),
        "serve_cpu": statistics.median(cpu for _, cpu in serve_starts),
        "mcp_stdio": statistics.median(startup_mcp_stdio(env) for _ in range(3)),
    }
    report["serve_http"] = serve_over_http(asked, env, options.clients, options.seconds)
    report["mcp_http"] = mcp_over_http(asked, env)
    report["load_average_after"] = os.getloadavg()
    text = json.dumps(report, indent=2)
    print(text)
    if options.json is not None:
        options.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
