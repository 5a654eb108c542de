"""A real HTTP server that speaks the OpenAI chat-completions API, for tests.

vLLM, llama.cpp's server, LM Studio and hosted APIs cannot run in CI, and patching the
`openai` client would test our guesses about it rather than the client. This is a small
stdlib server on 127.0.0.1 (a free port, a daemon thread) answering the documented routes with
the documented JSON shapes and status codes, so the real client goes through its real HTTP,
parsing and error paths:

    GET  /v1/models, /v1/models/{id}        POST /v1/chat/completions

It checks a request the way the hosted API does: a bearer key (401 with the key echoed, as a
careless server would, so tests can prove it is redacted), a known model (404), each tool
result answering a tool call of the assistant message before it and every tool call answered
(400), and a prompt within the model's window (400, `context_length_exceeded`). Replies come
from a per-test script in the shape the Ollama test server takes (`content`, `tool_calls` of
`{"function": {"name", "arguments"}}`, `prompt_eval_count`, `eval_count`, `thinking`), turned
into a completion (or, with `stream: true`, server-sent chunks with tool-call deltas and, when
asked for, a usage chunk). The prompt is measured as o200k_base tokens of the messages and
tools, a stand-in for the model's own tokenizer. A reply `{"raw": …}` is sent as it is, for
tests of servers that answer what a completion is not.

    with serve_openai(key="sk-test") as server:
        openai.OpenAI(api_key="sk-test", base_url=server.url).models.list()
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from schemanav.tokens import count_tokens
from servers.loopback import LoopbackServer, send_body, serving

CHAT_MODEL = "qwen3:8b"
CREATED = 1_748_779_200

ChatReply = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class FakeOpenAI:
    """The handle `serve_openai` yields: base URL (ending in /v1), key, models with their
    windows (None: not listed), the chat script and every request received."""

    url: str = ""
    key: str | None = None
    models: dict[str, int | None] = field(default_factory=dict)
    chat_script: list[ChatReply] = field(default_factory=list)
    lists_models: bool = True  # False: no /v1/models route, like some proxies
    chat_delay: float = 0.0  # seconds before a completion is answered
    denial_padding: int = 0  # words before the echoed key in a 401 (a long-winded server)
    bodies: list[tuple[str, str, Any]] = field(default_factory=list)
    authorizations: list[str | None] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [b for m, p, b in self.bodies if p == "/v1/chat/completions" and b is not None]

    def calls(self, path: str) -> int:
        with self._lock:
            return sum(1 for _, p, _ in self.bodies if p == path)

    def reset_requests(self) -> None:
        with self._lock:
            self.bodies.clear()

    def script_chat(self, *replies: ChatReply) -> None:
        self.chat_script.extend(replies)

    def next_reply(self, body: dict[str, Any]) -> dict[str, Any] | None:
        with self._lock:
            source = self.chat_script.pop(0) if self.chat_script else None
        if source is None:
            return None
        return source(body) if callable(source) else dict(source)


def _error(message: str, kind: str, code: str | None, param: str | None = None) -> Any:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def _conversation_problem(messages: list[Any]) -> str | None:
    """What the hosted API says of tool results that do not pair with tool calls."""
    pending: list[str] = []
    for message in messages:
        if not isinstance(message, dict):
            return "Invalid type for 'messages': expected an object."
        role = message.get("role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in pending:
                return (
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'."
                )
            pending.remove(call_id)
            continue
        if pending:
            return (
                "An assistant message with 'tool_calls' must be followed by tool messages "
                "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                f"response messages: {', '.join(pending)}"
            )
        if role == "assistant":
            for call in message.get("tool_calls") or ():
                arguments = call.get("function", {}).get("arguments")
                if not isinstance(arguments, str):
                    return (
                        "Invalid type for 'messages.tool_calls.function.arguments': "
                        "expected a string."
                    )
                pending.append(call["id"])
    if pending:
        return f"tool_call_ids did not have response messages: {', '.join(pending)}"
    return None


def prompt_tokens(body: dict[str, Any]) -> int:
    """The prompt as this server measures it: o200k_base of the messages and tools."""
    return count_tokens(json.dumps(body.get("messages")) + json.dumps(body.get("tools") or []))


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        pass

    @property
    def state(self) -> FakeOpenAI:
        return self.server.state

    def _send(self, status: int, payload: Any, content_type: str = "application/json") -> None:
        send_body(self, status, payload, content_type)

    def _authorised(self) -> bool:
        sent = self.headers.get("Authorization")
        with self.state._lock:
            self.state.authorizations.append(sent)
        if self.state.key is None or sent == f"Bearer {self.state.key}":
            return True
        given = (sent or "").removeprefix("Bearer ")
        self._send(
            401,
            _error(
                "Sorry, "
                * self.state.denial_padding
                + f"Incorrect API key provided: {given}. You can find your API key in your "
                "account settings.",
                "invalid_request_error",
                "invalid_api_key",
            ),
        )
        return False

    def _model_record(self, name: str) -> dict[str, Any]:
        record: dict[str, Any] = {
            "id": name,
            "object": "model",
            "created": CREATED,
            "owned_by": "schemanav-tests",
        }
        window = self.state.models[name]
        if window is not None:
            record["max_model_len"] = window  # as vLLM lists it
        return record

    def do_GET(self) -> None:
        with self.state._lock:
            self.state.bodies.append(("GET", self.path, None))
        if not self._authorised():
            return
        if self.path == "/v1/models" and self.state.lists_models:
            data = [self._model_record(name) for name in self.state.models]
            self._send(200, {"object": "list", "data": data})
        elif self.path.startswith("/v1/models/") and self.path[11:] in self.state.models:
            self._send(200, self._model_record(self.path[11:]))
        else:
            self._send(404, _error("Not found", "invalid_request_error", "not_found"))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        with self.state._lock:
            self.state.bodies.append(("POST", self.path, body))
        if not self._authorised():
            return
        if self.path != "/v1/chat/completions":
            self._send(404, _error("Not found", "invalid_request_error", "not_found"))
            return
        if not isinstance(body, dict):
            self._send(
                400, _error("We could not parse the JSON body.", "invalid_request_error", None)
            )
            return
        self._chat(body)

    def _chat(self, body: dict[str, Any]) -> None:
        model = body.get("model")
        if model not in self.state.models:
            message = f"The model `{model}` does not exist or you do not have access to it."
            self._send(404, _error(message, "invalid_request_error", "model_not_found"))
            return
        problem = _conversation_problem(body.get("messages") or [])
        if problem is not None:
            self._send(400, _error(problem, "invalid_request_error", None, "messages"))
            return
        window = self.state.models[model]
        used = prompt_tokens(body)
        if window is not None and used > window:
            message = (
                f"This model's maximum context length is {window} tokens. However, your "
                f"messages resulted in {used} tokens. Please reduce the length of the messages."
            )
            self._send(
                400, _error(message, "invalid_request_error", "context_length_exceeded", "messages")
            )
            return
        if self.state.chat_delay:
            time.sleep(self.state.chat_delay)
        reply = self.state.next_reply(body)
        if reply is None:
            self._send(500, _error("fake openai: no scripted reply left", "server_error", None))
            return
        if "raw" in reply:  # a misbehaving server: this body, verbatim, with a 200
            raw = reply["raw"]
            self._send(200, raw.encode() if isinstance(raw, str) else raw)
            return
        if body.get("stream"):
            self._stream(
                str(model), reply, bool((body.get("stream_options") or {}).get("include_usage"))
            )
        else:
            self._send(200, _completion(str(model), reply))

    def _stream(self, model: str, reply: dict[str, Any], include_usage: bool) -> None:
        """Server-sent events: a role chunk, content, one delta per tool call, the finish
        reason, then (when asked) a usage chunk with no choices, then `[DONE]`."""
        head = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": CREATED}
        head["model"] = model
        deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
        if reply.get("content"):
            deltas.append({"content": reply["content"]})
        for index, call in enumerate(_tool_calls(reply)):
            deltas.append({"tool_calls": [{"index": index, **call}]})
        chunks = [
            {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
            for delta in deltas
        ]
        chunks.append(
            {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": _finish(reply)}]}
        )
        if include_usage:
            chunks.append({**head, "choices": [], "usage": _usage(reply)})
        events = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"
        self._send(200, events.encode(), "text/event-stream")


def _tool_calls(reply: dict[str, Any]) -> list[dict[str, Any]]:
    calls = []
    for call in reply.get("tool_calls") or ():
        function = call.get("function", call)
        arguments = function.get("arguments")
        calls.append(
            {
                # Random like the hosted API's: the client must pair results by its own ids.
                "id": f"call_{uuid.uuid4().hex[:12]}",
                "type": "function",
                "function": {
                    "name": function.get("name"),
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
        )
    return calls


def _finish(reply: dict[str, Any]) -> str:
    return "tool_calls" if reply.get("tool_calls") else str(reply.get("done_reason", "stop"))


def _usage(reply: dict[str, Any]) -> dict[str, int]:
    prompt = int(reply.get("prompt_eval_count", 0))
    completion = int(reply.get("eval_count", 0))
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _completion(model: str, reply: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.get("content") or None}
    calls = _tool_calls(reply)
    if calls:
        message["tool_calls"] = calls
    if reply.get("thinking"):
        message["reasoning_content"] = reply["thinking"]  # as vLLM and llama.cpp send it
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "choices": [
            {"index": 0, "message": message, "finish_reason": _finish(reply), "logprobs": None}
        ],
        "usage": _usage(reply),
    }


class _Server(LoopbackServer):
    def __init__(self, state: FakeOpenAI) -> None:
        super().__init__(_Handler)
        self.state = state


@contextmanager
def serve_openai(
    models: dict[str, int | None] | None = None, key: str | None = None
) -> Iterator[FakeOpenAI]:
    """Run the server for the `with` block; by default it serves `qwen3:8b` with a listed
    window of 32,768 tokens and takes any key (`key` set: only that one)."""
    state = FakeOpenAI(key=key, models=dict(models or {CHAT_MODEL: 32768}))
    with serving(_Server(state), name="fake-openai") as server:
        state.url = f"{server.url}/v1"
        yield state
