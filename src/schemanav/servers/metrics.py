"""What `schemanav serve` counts for `GET /metrics`, in Prometheus' text format
(`prometheus-client`, in the `serve` extra).

- `schemanav_requests_total{kind, outcome}`: GraphQL requests by operation kind (`search`,
  `definitions`, `introspection`, `forwarded`, `invalid`: a request that never named an
  operation that could run) and outcome (`ok`; `error`: an answer with GraphQL errors;
  `refused`: a bound of `request_limits` refused it);
- `schemanav_request_seconds{kind}`: their latency, a histogram;
- `schemanav_refused_total{limit}`: requests refused, by the bound that refused them
  (`document_chars`, `document_tokens`, `selection_depth`, `expanded_selections`,
  `semantic_selections`, `total_first`, `resolved_fields`, `answer_bytes`, `body_bytes`);
- `schemanav_upstream_errors_total{reason}`: forwarded operations the upstream API did not
  answer (`timeout`, `too_large`, `unreachable`, `not_graphql`);
- `schemanav_schema_info{version}`: 1 for the schema version served (the digest cursors
  carry), and `schemanav_schema_generation`: how many times it was loaded (1, then +1 per
  reload);
- `schemanav_ready`: 1 while the replica answers from a whole schema, 0 while it loads or
  reloads.

With `--workers N` every worker process writes its figures to files in one folder
(`PROMETHEUS_MULTIPROC_DIR`, set by `serve` for its workers) and `/metrics`, whichever worker
answers it, adds up all of them (the gauges per process, with a `pid` label).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


@dataclass
class RequestOutcome:
    """What one GraphQL request turned out to be, filled in as it is answered."""

    kind: str = "invalid"
    outcome: str = "ok"
    limit: str | None = None
    upstream_error: str | None = None

    def refused(self, limit: str) -> None:
        self.outcome, self.limit = "refused", limit


class ServeMetrics:
    """The figures of one server process (a private registry: several apps in one process,
    as in the tests, never share counters)."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.multiprocess = bool(os.environ.get(MULTIPROCESS_VARIABLE))
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.requests = Counter(
            "schemanav_requests",
            "GraphQL requests by operation kind and outcome.",
            ["kind", "outcome"],
            registry=registry,
        )
        self.latency = Histogram(
            "schemanav_request_seconds",
            "Time to answer a GraphQL request, by operation kind.",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.refused = Counter(
            "schemanav_refused",
            "Requests refused, by the bound that refused them.",
            ["limit"],
            registry=registry,
        )
        self.upstream_errors = Counter(
            "schemanav_upstream_errors",
            "Forwarded operations the upstream API did not answer, by reason.",
            ["reason"],
            registry=registry,
        )
        self.schema_info = Gauge(
            "schemanav_schema_info",
            "1 for the schema version served.",
            ["version"],
            registry=registry,
            multiprocess_mode="liveall",
        )
        self.generation = Gauge(
            "schemanav_schema_generation",
            "How many times the served schema was loaded.",
            registry=registry,
            multiprocess_mode="liveall",
        )
        self.ready = Gauge(
            "schemanav_ready",
            "1 while the replica answers from a whole schema, 0 while it loads or reloads.",
            registry=registry,
            multiprocess_mode="liveall",
        )
        self._version: str | None = None

    def observe(self, outcome: RequestOutcome, seconds: float) -> None:
        self.requests.labels(outcome.kind, outcome.outcome).inc()
        self.latency.labels(outcome.kind).observe(seconds)
        if outcome.limit is not None:
            self.refused.labels(outcome.limit).inc()
        if outcome.upstream_error is not None:
            self.upstream_errors.labels(outcome.upstream_error).inc()

    def refused_body(self) -> None:
        """A request refused before it was read whole (`body_bytes`)."""
        self.observe(RequestOutcome(outcome="refused", limit="body_bytes"), 0.0)

    def serving(self, version: str, generation: int) -> None:
        """The schema `version` is served now (its `generation`-th load)."""
        if self._version is not None and self._version != version:
            self.schema_info.labels(self._version).set(0)
        self._version = version
        self.schema_info.labels(version).set(1)
        self.generation.set(generation)

    def render(self) -> tuple[bytes, str]:
        """The text `/metrics` answers, and its content type."""
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        registry: Any = self.registry
        if self.multiprocess:
            from prometheus_client import CollectorRegistry
            from prometheus_client.multiprocess import MultiProcessCollector

            registry = CollectorRegistry()
            MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
