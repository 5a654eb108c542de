"""`schemanav serve` as a replica: /healthz, /readyz, /metrics, the JSON access log, SIGTERM's
drain and `--workers N`, each against a real server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import httpx
import pytest

from schemanav.navigator import Navigator
from schemanav.servers.graphql_endpoint import GRAPHQL_PATH, SemanticEndpoint
from schemanav.servers.replicas import Replica, ServeOptions
from servers.loopback import LoopbackServer, serve_asgi_app, serving

REPO_ROOT = Path(__file__).resolve().parents[1]
SEARCH = '{ __search(query: "movie title", first: 3) { coordinate } }'
FORWARDED = '{ movie(id: "movie-1") { title } }'
TOO_MANY = "{ " + " ".join(f'a{n}: __search(query: "x") {{ coordinate }}' for n in range(11)) + " }"
DEFINITIONS = '{ __definitions(coordinates: ["Movie"]) { __typename } }'
UNREACHABLE = "http://127.0.0.1:9/graphql"


def _navigator(tmp: Path) -> Navigator:
    return Navigator.open(cache_dir=str(tmp))


class _Gate:
    """A build that waits until it is let through: the replica stays loading (or reloading)
    for as long as the test wants."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.calls = 0

    def __call__(self, navigator: Navigator, _previous: SemanticEndpoint | None) -> Any:
        self.calls += 1
        assert self.open.wait(30)
        return SemanticEndpoint(navigator, upstream=UNREACHABLE)


@pytest.fixture
def gated(tmp_path: Path) -> Iterator[tuple[str, Replica, _Gate]]:
    gate = _Gate()
    replica = Replica(_navigator(tmp_path), ServeOptions(upstream=UNREACHABLE), None, build=gate)
    replica.start()
    try:
        with serve_asgi_app(replica.app()) as base:
            yield base, replica, gate
    finally:
        gate.open.set()
        replica.active.stop()


@pytest.mark.slow
def test_readyz_is_503_until_the_schema_is_loaded_and_while_it_reloads(
    gated: tuple[str, Replica, _Gate],
) -> None:
    base, replica, gate = gated
    assert httpx.get(base + "/healthz").status_code == 200
    loading = httpx.get(base + "/readyz")
    assert (loading.status_code, loading.text) == (503, "loading\n")
    gate.open.set()
    assert replica.active.wait_loaded(30)
    assert httpx.get(base + "/readyz").status_code == 200
    # A reload that has not finished: not ready, while the old schema still answers.
    gate.open.clear()
    reloading = threading.Thread(target=replica.active.reload, daemon=True)
    reloading.start()
    deadline = time.monotonic() + 10
    while gate.calls < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    answer = httpx.get(base + "/readyz")
    assert (answer.status_code, answer.text) == (503, "reloading\n")
    searched = httpx.post(base + GRAPHQL_PATH, json={"query": SEARCH})
    assert searched.json()["data"]["__search"]
    assert httpx.get(base + "/healthz").status_code == 200
    gate.open.set()
    reloading.join(10)
    assert httpx.get(base + "/readyz").status_code == 200
    assert replica.active.generation == 2


@pytest.mark.slow
def test_a_request_sent_while_loading_waits_for_the_schema(
    gated: tuple[str, Replica, _Gate],
) -> None:
    base, _replica, gate = gated
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(httpx.post, base + GRAPHQL_PATH, json={"query": SEARCH}, timeout=30)
        time.sleep(0.3)
        assert not pending.done()
        gate.open.set()
        assert pending.result().json()["data"]["__search"]


def _metric(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    line_start = f"{name}{{{wanted}}} " if labels else f"{name} "
    for line in text.splitlines():
        if line.startswith(line_start):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{line_start!r} not in /metrics:\n{text}")


@pytest.mark.slow
def test_metrics_count_requests_refusals_upstream_errors_and_the_version(tmp_path: Path) -> None:
    replica = Replica(_navigator(tmp_path), ServeOptions(upstream=UNREACHABLE), None)
    replica.start()
    replica.wait_loaded()
    try:
        with serve_asgi_app(replica.app()) as base:
            for query in (
                SEARCH,
                SEARCH,
                TOO_MANY,
                FORWARDED,
                '{ __definitions(coordinates: ["Movie"]) { __typename } }',
                "{ " + "a " * 60_000 + "}",  # over 100,000 characters: refused unparsed
            ):
                httpx.post(base + GRAPHQL_PATH, json={"query": query})
            httpx.post(base + GRAPHQL_PATH, content=b"not json")
            answer = httpx.get(base + "/metrics")
    finally:
        replica.active.stop()
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    text = answer.text
    assert _metric(text, "schemanav_requests_total", kind="search", outcome="ok") == 2
    assert _metric(text, "schemanav_requests_total", kind="definitions", outcome="ok") == 1
    assert _metric(text, "schemanav_requests_total", kind="invalid", outcome="refused") == 2
    assert _metric(text, "schemanav_requests_total", kind="forwarded", outcome="error") == 1
    assert _metric(text, "schemanav_requests_total", kind="invalid", outcome="error") == 1
    assert _metric(text, "schemanav_refused_total", limit="semantic_selections") == 1
    assert _metric(text, "schemanav_refused_total", limit="document_chars") == 1
    assert _metric(text, "schemanav_upstream_errors_total", reason="unreachable") == 1
    assert _metric(text, "schemanav_request_seconds_count", kind="search") == 2
    assert _metric(text, "schemanav_request_seconds_bucket", kind="search", le="+Inf") == 2
    version = replica.active.current.version
    assert _metric(text, "schemanav_schema_info", version=version) == 1
    assert _metric(text, "schemanav_schema_generation") == 1
    assert _metric(text, "schemanav_ready") == 1


class _SlowUpstream(BaseHTTPRequestHandler):
    """Answers every POST after `DELAY_S`, as an API with a slow operation would."""

    DELAY_S = 1.5

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(self.DELAY_S)
        body = json.dumps({"data": {"movie": {"title": "slow"}}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _start(args: list[str], cache: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src"), "SCHEMANAV_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "schemanav", "serve", "--port", "0", *args]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()
    assert "listening on http://127.0.0.1:" in line, line
    return process, line.rsplit("listening on ", 1)[1].strip().removesuffix(GRAPHQL_PATH)


@pytest.mark.slow
def test_sigterm_answers_the_requests_in_flight_then_exits(tmp_path: Path) -> None:
    with serving(LoopbackServer(_SlowUpstream)) as upstream:
        process, base = _start(["--upstream", upstream.url + "/graphql"], tmp_path)
        try:
            assert httpx.get(base + "/readyz").status_code == 200
            with ThreadPoolExecutor(1) as pool:
                in_flight = pool.submit(
                    httpx.post, base + GRAPHQL_PATH, json={"query": FORWARDED}, timeout=30
                )
                time.sleep(0.5)  # the request is with the upstream now
                process.send_signal(signal.SIGTERM)
                answer = in_flight.result()
            assert answer.status_code == 200
            assert answer.json() == {"data": {"movie": {"title": "slow"}}}
            process.wait(timeout=20)
            with pytest.raises(httpx.ConnectError):
                httpx.get(base + "/healthz")
        finally:
            if process.poll() is None:
                process.kill()
            process.communicate(timeout=10)


@pytest.mark.slow
def test_workers_share_the_port_the_caches_and_the_metrics(tmp_path: Path) -> None:
    process, base = _start(["--workers", "2", "--access-log", "json"], tmp_path)
    try:
        assert httpx.get(base + "/healthz").status_code == 200
        sent = 12
        with ThreadPoolExecutor(4) as pool:
            answers = list(
                pool.map(
                    lambda _n: httpx.post(base + GRAPHQL_PATH, json={"query": SEARCH}),
                    range(sent),
                )
            )
        assert all(answer.json()["data"]["__search"] for answer in answers)
        # Whichever worker answers /metrics, it adds up every worker's counts.
        deadline = time.monotonic() + 10
        while True:
            text = httpx.get(base + "/metrics").text
            if _metric(text, "schemanav_requests_total", kind="search", outcome="ok") == sent:
                break
            assert time.monotonic() < deadline, text
            time.sleep(0.1)
        assert "schemanav_schema_info{" in text
        process.send_signal(signal.SIGTERM)
        _, rest = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=10)
    logged = [json.loads(line) for line in rest.splitlines() if line.startswith("{")]
    searches = [line for line in logged if line["kind"] == "search"]
    assert len(searches) == sent
    assert {line["status"] for line in searches} == {200}
    assert {line["outcome"] for line in searches} == {"ok"}
    assert all(line["path"] == GRAPHQL_PATH and line["ms"] >= 0 for line in searches)
    # The two workers loaded the schema from the caches the parent left: no worker rebuilt one.
    assert "building" not in rest.lower()
