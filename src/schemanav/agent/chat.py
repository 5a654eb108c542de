"""Talking to Ollama through the official `ollama` client, with one-line errors.

Ollama's chat API sends a tool call's arguments as a JSON object, and the client refuses a
response where they are anything else. Some servers and model templates send a JSON string
instead (which may not even parse); one such reply must become a tool error the model can
act on, not a crashed run. A small transport under the client therefore turns string
arguments into an object before the client sees them: the parsed object when the string is
JSON, else a marker carrying the raw text (`RAW_ARGUMENTS_KEY`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from schemanav.defaults import DEFAULT_OLLAMA_HOST
from schemanav.errors import SchemanavError

RAW_ARGUMENTS_KEY = "__schemanav_unparsed_arguments__"


def ollama_host(configured: str | None) -> str:
    """The host the client will use: the setting, else $OLLAMA_HOST, else Ollama's default."""
    return configured or os.environ.get("OLLAMA_HOST") or DEFAULT_OLLAMA_HOST


@dataclass(frozen=True)
class ToolCallRequest:
    """A tool call as the model asked for it; `arguments` is raw text when it was not JSON."""

    name: str
    arguments: Any

    @property
    def arguments_unparsed(self) -> bool:
        return isinstance(self.arguments, str)


@dataclass(frozen=True)
class ChatReply:
    content: str
    thinking: str | None
    tool_calls: tuple[ToolCallRequest, ...]
    prompt_eval_count: int | None
    eval_count: int | None
    raw_message: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


class OllamaChat:
    """One Ollama host and model; every failure becomes a one-line `SchemanavError`."""

    def __init__(self, host: str | None, model: str, timeout: float) -> None:
        import ollama

        self.host = ollama_host(host)
        self.model = model
        self.timeout = timeout
        self._client = ollama.Client(
            host=self.host,
            timeout=timeout,
            transport=_ToolArgumentsTransport(httpx.HTTPTransport()),
        )

    def context_length(self) -> int | None:
        """The model's context length from `/api/show`; also proves the model is there."""
        response = self._guarded(lambda: self._client.show(self.model))
        info: Mapping[str, Any] = response.modelinfo or {}
        architecture = info.get("general.architecture")
        candidates = [f"{architecture}.context_length"] if architecture else []
        candidates += [key for key in info if key.endswith(".context_length")]
        for key in candidates:
            value = info.get(key)
            if isinstance(value, int) and value > 0:
                return value
        return None

    def chat(
        self, messages: Sequence[Mapping[str, Any]], tools: Sequence[Any], num_ctx: int
    ) -> ChatReply:
        response = self._guarded(
            lambda: self._client.chat(
                model=self.model,
                messages=list(messages),
                tools=list(tools),
                options={"num_ctx": num_ctx},
            )
        )
        message = response.message
        calls = tuple(
            ToolCallRequest(
                call.function.name,
                _unmarked(call.function.arguments),
            )
            for call in message.tool_calls or ()
        )
        return ChatReply(
            content=message.content or "",
            thinking=message.thinking or None,
            tool_calls=calls,
            prompt_eval_count=response.prompt_eval_count,
            eval_count=response.eval_count,
        )

    def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]

    def _guarded(self, request: Any) -> Any:
        import ollama
        import pydantic

        try:
            return request()
        except ConnectionError:
            # The client raises the builtin ConnectionError when the host refuses the connection.
            raise SchemanavError(
                f"cannot reach Ollama at {self.host}: is `ollama serve` running? "
                "(set the address with --ollama-host or OLLAMA_HOST)"
            ) from None
        except ollama.ResponseError as err:
            if _not_ollama(err.error):
                raise SchemanavError(
                    f"{self.host} answered HTTP {err.status_code} with a page that is not "
                    "Ollama's: is --ollama-host (or OLLAMA_HOST) the address of Ollama?"
                ) from None
            if err.status_code == 404:
                raise SchemanavError(
                    f"model {self.model} is not available in Ollama at {self.host}: "
                    f"run `ollama pull {self.model}`"
                ) from None
            raise SchemanavError(
                f"Ollama at {self.host} answered HTTP {err.status_code}: {err.error}"
            ) from None
        except httpx.TimeoutException:
            raise SchemanavError(
                f"Ollama at {self.host} did not answer within {self.timeout:g} s "
                "(raise SCHEMANAV_CHAT_TIMEOUT, or use a smaller model or prompt)"
            ) from None
        except httpx.HTTPError as err:
            raise SchemanavError(
                f"lost the connection to Ollama at {self.host} ({type(err).__name__})"
            ) from None
        except pydantic.ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise SchemanavError(
                f"Ollama at {self.host} sent a response the client cannot read ({where}: "
                f"{first['msg']})"
            ) from None
        except ValueError:
            # A 200 reply that is not JSON (a proxy's or another server's HTML page).
            raise SchemanavError(
                f"{self.host} answered with something that is not Ollama's JSON: is "
                "--ollama-host (or OLLAMA_HOST) the address of Ollama?"
            ) from None


def _not_ollama(body: str) -> bool:
    """Whether an error body is a web page (a proxy's, another server's), not Ollama's."""
    start = body.lstrip()[:200].lower()
    return start.startswith("<") or "<html" in start


def _unmarked(arguments: Mapping[str, Any]) -> Any:
    """The raw text for arguments our transport could not parse, else a plain dict."""
    if set(arguments) == {RAW_ARGUMENTS_KEY}:
        return str(arguments[RAW_ARGUMENTS_KEY])
    return dict(arguments)


def _normalise_tool_arguments(payload: Any) -> bool:
    """Turn string tool-call arguments into objects in place; True when anything changed."""
    if not isinstance(payload, dict):
        return False
    message = payload.get("message")
    calls = message.get("tool_calls") if isinstance(message, dict) else None
    changed = False
    for call in calls if isinstance(calls, list) else ():
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            continue
        arguments = function.get("arguments")
        if isinstance(arguments, dict):
            continue
        if arguments is None:
            function["arguments"] = {}
        else:
            text = arguments if isinstance(arguments, str) else json.dumps(arguments)
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError:
                parsed = None
            function["arguments"] = (
                parsed if isinstance(parsed, dict) else {RAW_ARGUMENTS_KEY: text}
            )
        changed = True
    return changed


class _ToolArgumentsTransport(httpx.BaseTransport):
    """Wraps the real transport; rewrites `/api/chat` bodies whose tool arguments are text."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self._inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._inner.handle_request(request)
        if request.url.path.rstrip("/") != "/api/chat" or response.status_code != 200:
            return response
        response.read()
        try:
            payload = json.loads(response.content)
        except ValueError:
            return response
        if not _normalise_tool_arguments(payload):
            return response
        dropped = {"content-length", "content-encoding", "transfer-encoding"}
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in dropped]
        return httpx.Response(
            response.status_code,
            headers=headers,
            content=json.dumps(payload).encode("utf-8"),
            request=request,
        )

    def close(self) -> None:
        self._inner.close()
