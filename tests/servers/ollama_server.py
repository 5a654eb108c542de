"""A real HTTP server that speaks Ollama's API, for tests.

Ollama cannot run in CI, and mocking the `ollama` client would test our guesses about it
rather than the client itself. This is a small stdlib server on 127.0.0.1 (a free port,
a daemon thread) answering the documented endpoints with Ollama's JSON shapes and status
codes, so the real client goes through its real HTTP, parsing and error paths:

    GET  /api/version, /api/tags        POST /api/show, /api/embed, /api/chat

Embeddings are deterministic: a hashed bag of lower-case words, so texts that share words
get similar vectors and tests can assert a sensible ranking. Switches make it misbehave
(wrong number of vectors, inconsistent sizes, slow answers, an error status); it records
every request so tests can check batching and that prefixes were really sent. Chat answers
come from a per-test script.

    with serve_ollama(dims=32) as ollama:
        ollama.Client(host=ollama.url).embed(model="qwen3-graphql-embedder", input=["a b"])
        assert ollama.embed_calls == 1
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from servers.loopback import LoopbackServer, send_body, serving

EMBEDDING_MODEL = "qwen3-graphql-embedder"
CHAT_MODEL = "qwen3:8b"
OLLAMA_VERSION = "0.12.6"
MODIFIED_AT = "2025-06-01T12:00:00.000000+00:00"

_WORD = re.compile(r"[a-z0-9]+")

ChatReply = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


def canonical_name(name: str) -> str:
    """Ollama's own rule: a name without a tag means `:latest`."""
    return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"


@dataclass
class FakeModel:
    """One model the server has "pulled"."""

    name: str
    digest: str = ""
    capabilities: tuple[str, ...] = ()
    family: str = "qwen3"
    parameter_size: str = "595.78M"
    quantization_level: str = "Q8_0"
    context_length: int = 40960
    size: int = 639_150_000

    def __post_init__(self) -> None:
        self.name = canonical_name(self.name)
        if not self.digest:
            self.digest = hashlib.sha256(self.name.encode()).hexdigest()
        if not self.capabilities:
            embeds = "embed" in self.name
            self.capabilities = ("embedding",) if embeds else ("completion", "tools")

    def details(self) -> dict[str, Any]:
        return {
            "parent_model": "",
            "format": "gguf",
            "family": self.family,
            "families": [self.family],
            "parameter_size": self.parameter_size,
            "quantization_level": self.quantization_level,
        }


@dataclass
class FakeOllamaOptions:
    """Behaviour switches; tests may change them while the server runs."""

    dims: int = 256
    wrong_count: bool = False  # answer /api/embed with one vector too few
    inconsistent_dims: bool = False  # alternate vector sizes within and across calls
    embed_delay: float = 0.0  # seconds to wait before answering /api/embed
    chat_delay: float = 0.0
    embed_error: tuple[int, str] | None = None  # (status, message) for every /api/embed


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    body: Any


@dataclass
class FakeOllama:
    """The handle `serve_ollama` yields: address, records, models, options and chat script."""

    url: str = ""
    options: FakeOllamaOptions = field(default_factory=FakeOllamaOptions)
    models: dict[str, FakeModel] = field(default_factory=dict)
    requests: list[RecordedRequest] = field(default_factory=list)
    chat_script: list[ChatReply] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _closing: threading.Event = field(default_factory=threading.Event, repr=False)
    _embed_counter: int = 0

    @property
    def host(self) -> str:
        return self.url.removeprefix("http://")

    # -- what tests read --------------------------------------------------------------

    def calls(self, path: str) -> int:
        with self._lock:
            return sum(1 for request in self.requests if request.path == path)

    @property
    def embed_calls(self) -> int:
        return self.calls("/api/embed")

    @property
    def embed_inputs(self) -> list[list[str]]:
        """The texts of each /api/embed request, in order."""
        with self._lock:
            bodies = [r.body for r in self.requests if r.path == "/api/embed"]
        return [_inputs_of(body) for body in bodies if isinstance(body, dict)]

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r.body for r in self.requests if r.path == "/api/chat"]

    # -- what tests set ---------------------------------------------------------------

    def add_model(self, model: FakeModel | str) -> FakeModel:
        entry = model if isinstance(model, FakeModel) else FakeModel(model)
        self.models[entry.name] = entry
        return entry

    def set_digest(self, name: str, digest: str) -> None:
        """Simulate a re-pulled model: same name, new digest."""
        self.models[canonical_name(name)].digest = digest

    def script_chat(self, *replies: ChatReply) -> None:
        """Queue chat answers: message dicts (`content`, `tool_calls`, `prompt_eval_count`,
        `eval_count`, `thinking`, `done_reason`) or callables from request body to one."""
        self.chat_script.extend(replies)

    def reset_requests(self) -> None:
        with self._lock:
            self.requests.clear()

    # -- server side ------------------------------------------------------------------

    def record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append(RecordedRequest(method, path, body))

    def find(self, name: Any) -> FakeModel | None:
        if not isinstance(name, str) or not name:
            return None
        return self.models.get(canonical_name(name))

    def next_embed_call_number(self) -> int:
        with self._lock:
            self._embed_counter += 1
            return self._embed_counter

    def wait(self, seconds: float) -> None:
        if seconds > 0:
            self._closing.wait(seconds)


def _inputs_of(body: dict[str, Any]) -> list[str]:
    raw = body.get("input", [])
    if isinstance(raw, str):
        return [raw] if raw else []
    return [str(item) for item in raw]


def hashed_embedding(text: str, dims: int) -> list[float]:
    """Bag of lower-case words hashed into `dims` buckets, L2-normalised like Ollama's."""
    vector = [0.0] * dims
    for word in _WORD.findall(text.lower()):
        bucket = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big") % dims
        vector[bucket] += 1.0
    norm = math.sqrt(sum(value * value for value in vector))
    if norm == 0:
        return [1.0 / math.sqrt(dims)] * dims
    return [value / norm for value in vector]


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out as separate writes

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    # -- plumbing ---------------------------------------------------------------------

    def _send(self, status: int, payload: Any, content_type: str = "application/json") -> None:
        send_body(self, status, payload, content_type)

    def _error(self, status: int, message: str) -> None:
        self._send(status, {"error": message})

    def _read_json(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"null")
        except ValueError:
            return _INVALID

    @property
    def state(self) -> FakeOllama:
        return self.server.state

    # -- routes -----------------------------------------------------------------------

    def do_GET(self) -> None:
        self.state.record("GET", self.path, None)
        if self.path == "/":
            self._send(200, "Ollama is running", "text/plain; charset=utf-8")
        elif self.path == "/api/version":
            self._send(200, {"version": OLLAMA_VERSION})
        elif self.path == "/api/tags":
            self._send(200, {"models": [self._tag(model) for model in self.state.models.values()]})
        else:
            self._send(404, "404 page not found", "text/plain")

    def do_HEAD(self) -> None:
        self._send(200, b"", "text/plain")

    def do_POST(self) -> None:
        body = self._read_json()
        self.state.record("POST", self.path, None if body is _INVALID else body)
        if body is _INVALID or not isinstance(body, dict):
            self._error(400, "invalid character in request body: expected a JSON object")
            return
        routes = {"/api/embed": self._embed, "/api/show": self._show, "/api/chat": self._chat}
        route = routes.get(self.path)
        if route is None:
            self._send(404, "404 page not found", "text/plain")
            return
        route(body)

    def _tag(self, model: FakeModel) -> dict[str, Any]:
        return {
            "name": model.name,
            "model": model.name,
            "modified_at": MODIFIED_AT,
            "size": model.size,
            "digest": model.digest,
            "details": model.details(),
        }

    def _show(self, body: dict[str, Any]) -> None:
        name = body.get("model") or body.get("name")
        model = self.state.find(name)
        if model is None:
            self._error(404, f"model '{name}' not found")
            return
        arch = model.family
        self._send(
            200,
            {
                "license": "Apache License 2.0",
                "modelfile": f'# Modelfile generated by "ollama show"\nFROM {model.name}\n',
                "parameters": 'stop "<|im_end|>"',
                "template": "{{ .Prompt }}",
                "details": model.details(),
                "model_info": {
                    "general.architecture": arch,
                    "general.parameter_count": 595_776_512,
                    f"{arch}.context_length": model.context_length,
                    f"{arch}.embedding_length": self.state.options.dims,
                },
                "capabilities": list(model.capabilities),
                "modified_at": MODIFIED_AT,
            },
        )

    def _embed(self, body: dict[str, Any]) -> None:
        options = self.state.options
        name = body.get("model")
        if not name:
            self._error(400, "model is required")
            return
        model = self.state.find(name)
        if model is None:
            self._error(404, f'model "{name}" not found, try pulling it first')
            return
        if "embedding" not in model.capabilities:
            self._error(400, f'"{model.name}" does not support embeddings')
            return
        raw_input = body.get("input", [])
        if not isinstance(raw_input, str | list):
            self._error(400, "invalid input type")
            return
        call_number = self.state.next_embed_call_number()
        self.state.wait(options.embed_delay)
        if options.embed_error is not None:
            status, message = options.embed_error
            self._error(status, message)
            return
        texts = _inputs_of(body)
        dims = int(body.get("dimensions") or options.dims)
        vectors = []
        for position, text in enumerate(texts):
            size = dims + ((call_number + position) % 2 if options.inconsistent_dims else 0)
            vectors.append(hashed_embedding(text, size))
        if options.wrong_count and vectors:
            vectors.pop()
        self._send(
            200,
            {
                "model": model.name,
                "embeddings": vectors,
                "total_duration": 14_143_917 + 1000 * len(texts),
                "load_duration": 1_019_500,
                "prompt_eval_count": sum(len(_WORD.findall(t.lower())) + 2 for t in texts),
            },
        )

    def _chat(self, body: dict[str, Any]) -> None:
        name = body.get("model")
        model = self.state.find(name)
        if model is None:
            self._error(404, f'model "{name}" not found, try pulling it first')
            return
        if body.get("tools") and "tools" not in model.capabilities:
            self._error(400, f"registry.ollama.ai/library/{model.name} does not support tools")
            return
        if "completion" not in model.capabilities:
            self._error(400, f'"{model.name}" does not support chat')
            return
        self.state.wait(self.state.options.chat_delay)
        with self.state._lock:
            reply_source = self.state.chat_script.pop(0) if self.state.chat_script else None
        if reply_source is None:
            self._error(500, "fake ollama: no scripted chat response left")
            return
        reply = reply_source(body) if callable(reply_source) else dict(reply_source)
        message: dict[str, Any] = {"role": "assistant", "content": reply.get("content", "")}
        if reply.get("thinking"):
            message["thinking"] = reply["thinking"]
        if reply.get("tool_calls"):
            message["tool_calls"] = [
                {"function": {"index": i, **call.get("function", call)}}
                for i, call in enumerate(reply["tool_calls"])
            ]
        stats = {
            "total_duration": 512_000_000,
            "load_duration": 12_000_000,
            "prompt_eval_count": int(reply.get("prompt_eval_count", 0)),
            "prompt_eval_duration": 100_000_000,
            "eval_count": int(reply.get("eval_count", 0)),
            "eval_duration": 400_000_000,
        }
        created_at = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())
        final = {
            "model": model.name,
            "created_at": created_at,
            "message": message,
            "done": True,
            "done_reason": reply.get("done_reason", "stop"),
            **stats,
        }
        if body.get("stream", True):
            # Ollama streams by default: NDJSON chunks, the last one with `done` and stats.
            first = {"model": model.name, "created_at": created_at, "message": message}
            last = {**final, "message": {"role": "assistant", "content": ""}}
            lines = json.dumps({**first, "done": False}) + "\n" + json.dumps(last) + "\n"
            self._send(200, lines, "application/x-ndjson")
            return
        self._send(200, final)


_INVALID = object()


class _Server(LoopbackServer):
    quiet_errors = True  # a client that hung up mid-request (timeout tests) is expected

    def __init__(self, state: FakeOllama) -> None:
        super().__init__(_Handler)
        self.state = state


@contextmanager
def serve_ollama(
    models: Iterable[FakeModel | str] | None = None, **options: Any
) -> Iterator[FakeOllama]:
    """Run a fake Ollama for the `with` block; by default it has the embedding model
    `qwen3-graphql-embedder` and the chat model `qwen3:8b`. `options` are
    `FakeOllamaOptions` fields."""
    state = FakeOllama(options=FakeOllamaOptions(**options))
    defaults: tuple[FakeModel | str, ...] = (
        EMBEDDING_MODEL,
        FakeModel(
            CHAT_MODEL, parameter_size="8.2B", quantization_level="Q4_K_M", size=5_225_388_164
        ),
    )
    for model in models if models is not None else defaults:
        state.add_model(model)
    with serving(_Server(state), name="fake-ollama") as server:
        state.url = server.url
        try:
            yield state
        finally:
            state._closing.set()
