"""Both chat protocols behind one test handle, so that one scenario suite runs on each: the
Ollama test server (`ollama` client) and the OpenAI chat-completions test server (`openai`
client), each a real HTTP server on 127.0.0.1 replaying the same scripted replies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from servers.ollama_server import CHAT_MODEL, FakeModel, FakeOllama, serve_ollama
from servers.openai_server import FakeOpenAI, serve_openai

CHAT_APIS = ("ollama", "openai")


@dataclass
class ModelServer:
    """One running test server and what differs between the protocols on the wire."""

    api: str
    handle: FakeOllama | FakeOpenAI

    @property
    def url(self) -> str:
        return self.handle.url

    def settings(self) -> dict[str, Any]:
        """The settings that point the agent at this server."""
        if self.api == "ollama":
            return {"ollama_host": self.url}
        return {"chat_api": "openai", "chat_url": self.url}

    def script_chat(self, *replies: Any) -> None:
        self.handle.script_chat(*replies)

    def reset_requests(self) -> None:
        self.handle.reset_requests()

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        return self.handle.chat_requests

    def window_queries(self) -> int:
        """How often the client asked for the model's window (Ollama's show, the model list)."""
        return self.handle.calls("/api/show" if self.api == "ollama" else "/v1/models")

    def sent_num_ctx(self, body: dict[str, Any]) -> int | None:
        """num_ctx as sent (Ollama); the chat-completions protocol has no such field."""
        return body["options"].get("num_ctx") if self.api == "ollama" else None

    def sampling(self, body: dict[str, Any]) -> tuple[Any, Any]:
        """(temperature, seed) as the request carried them."""
        where = body.get("options", {}) if self.api == "ollama" else body
        return where.get("temperature"), where.get("seed")

    def arguments(self, call: dict[str, Any]) -> Any:
        """A resent tool call's arguments as an object (the protocol sends them as text)."""
        arguments = call["function"]["arguments"]
        return json.loads(arguments) if self.api == "openai" else arguments


@contextmanager
def serve_chat(api: str, context_length: int, key: str | None = None) -> Iterator[ModelServer]:
    """A server of protocol `api` whose chat model reports `context_length`."""
    if api == "ollama":
        with serve_ollama(models=[FakeModel(CHAT_MODEL, context_length=context_length)]) as ollama:
            yield ModelServer(api, ollama)
    else:
        with serve_openai({CHAT_MODEL: context_length}, key=key) as openai_server:
            yield ModelServer(api, openai_server)
