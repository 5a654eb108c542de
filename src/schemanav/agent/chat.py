"""The chat interface the agent loop talks to, and its Ollama side (the official `ollama`
client), with one-line errors. The OpenAI chat-completions side is `openai_chat`; the loop
sees only `Chat`, never which protocol is behind it.

Ollama's chat API sends a tool call's arguments as a JSON object, and the client refuses a
response where they are anything else. Some servers and model templates send a JSON string
instead (which may not even parse); one such reply must become a tool error the model can
act on, not a crashed run. A small transport under the client therefore turns string
arguments into an object before the client sees them: the parsed object when the string is
JSON, else a marker carrying the raw text (`RAW_ARGUMENTS_KEY`).

The same transport bounds every reply: the whole request (connect, generation, body) must end
within the chat timeout, the body may not exceed `MAX_RESPONSE_BYTES` (decompressed), and a
successful body must be a JSON object nested at most `MAX_JSON_DEPTH` levels (tool-call
arguments sent as text included). Anything else ends the run with one line naming the model
server and what was wrong with its reply, never a traceback from the client.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from schemanav.defaults import DEFAULT_OLLAMA_HOST
from schemanav.errors import SchemanavError
from schemanav.limits import (
    MAX_JSON_DEPTH,
    MAX_RESPONSE_BYTES,
    DeadlineExceeded,
    TooDeep,
    TooLarge,
    bounded_transport,
    describe_bytes,
    loads_json,
)
from schemanav.redaction import public_url
from schemanav.text import one_line

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
    """One model reply; the counts are the server's own (prompt and completion tokens)."""

    content: str
    thinking: str | None
    tool_calls: tuple[ToolCallRequest, ...]
    prompt_eval_count: int | None
    eval_count: int | None


class PromptRefused(SchemanavError):
    """The server refused a prompt as longer than the model's context window (an HTTP 400),
    where Ollama would have cut its front silently; the truncation guard reports it."""


@dataclass(frozen=True)
class Sampling:
    """What every call sends to make runs repeatable: a temperature, and a seed when set."""

    temperature: float = 0.0
    seed: int | None = None


class Chat(Protocol):
    """What the loop needs of a model server, whatever protocol it speaks.

    `api` names the protocol for the records; `host` is the server's address without
    credentials; `drops_prompt_front` says the server silently cuts a prompt over about half
    of `num_ctx` (Ollama) instead of refusing it (`PromptRefused`)."""

    api: str
    model: str
    host: str
    drops_prompt_front: bool
    sampling: Sampling

    def context_length(self) -> int | None: ...

    def chat(
        self, messages: Sequence[Mapping[str, Any]], tools: Sequence[Any], num_ctx: int | None
    ) -> ChatReply: ...

    def close(self) -> None: ...


class OllamaChat:
    """One Ollama host and model; every failure becomes a one-line `SchemanavError`."""

    api = "ollama"
    drops_prompt_front = True

    def __init__(
        self,
        host: str | None,
        model: str,
        timeout: float,
        sampling: Sampling | None = None,
    ) -> None:
        import ollama

        self.host = ollama_host(host)
        self.server = f"the model server at {public_url(self.host)}"
        self.model = model
        self.timeout = timeout
        self.sampling = sampling or Sampling()
        self._client = ollama.Client(
            host=self.host,
            timeout=timeout,
            transport=bounded_transport(
                httpx.HTTPTransport(),
                timeout=timeout,
                on_body=ReplyCheck(self.server),
            ),
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
        self, messages: Sequence[Mapping[str, Any]], tools: Sequence[Any], num_ctx: int | None
    ) -> ChatReply:
        response = self._guarded(
            lambda: self._client.chat(
                model=self.model,
                messages=list(messages),
                tools=list(tools),
                options=self._options(num_ctx),
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

    def _options(self, num_ctx: int | None) -> dict[str, Any]:
        """num_ctx (the loop always knows it for Ollama) and the temperature always; the seed
        only when one was set (agent-bench sets one)."""
        options: dict[str, Any] = {"temperature": self.sampling.temperature}
        if num_ctx is not None:
            options["num_ctx"] = num_ctx
        if self.sampling.seed is not None:
            options["seed"] = self.sampling.seed
        return options

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
                f"Ollama at {self.host} answered HTTP {err.status_code}: {short_text(err.error)}"
            ) from None
        except DeadlineExceeded:
            raise SchemanavError(
                f"{self.server} did not answer within {self.timeout:g} s "
                "(raise SCHEMANAV_CHAT_TIMEOUT, or use a smaller model or prompt)"
            ) from None
        except TooLarge:
            raise SchemanavError(
                f"{self.server} answered with more than {describe_bytes(MAX_RESPONSE_BYTES)}"
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
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as err:
            raise SchemanavError(
                f"the model server at {public_url(self.host)} sent a reply the client cannot "
                f"read ({type(err).__name__}: {short_text(str(err))})"
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


def short_text(text: str, limit: int = 200) -> str:
    """One line of at most `limit` characters, for a server's words in an error."""
    line = one_line(text)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _normalise_tool_arguments(payload: Any) -> bool:
    """Turn string tool-call arguments into objects in place; True when anything changed.

    Raises `TooDeep` when text arguments parse to JSON nested deeper than `MAX_JSON_DEPTH`.
    """
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
                parsed = loads_json(text, max_depth=MAX_JSON_DEPTH)
            except TooDeep:
                raise TooDeep(
                    f"tool-call arguments nested more than {MAX_JSON_DEPTH} levels deep"
                ) from None
            except json.JSONDecodeError:
                parsed = None
            function["arguments"] = (
                parsed if isinstance(parsed, dict) else {RAW_ARGUMENTS_KEY: text}
            )
        changed = True
    return changed


class ReplyCheck:
    """`on_body` of the bounded transport: a successful reply must be a JSON object of sane
    depth; `/api/chat` bodies whose tool arguments are text are rewritten. `server` names the
    model server in errors."""

    def __init__(self, server: str) -> None:
        self._server = server

    def __call__(self, request: httpx.Request, status: int, content: bytes) -> bytes:
        if status != 200:
            return content
        try:
            payload = loads_json(content, max_depth=MAX_JSON_DEPTH)
        except TooDeep as err:
            raise self._bad(f"JSON {err.message}") from None
        except json.JSONDecodeError as err:
            text = content.decode("utf-8", errors="replace")
            if not text.strip():
                raise self._bad("an empty body") from None
            cut = err.pos >= len(text.rstrip()) - 1 or err.msg.startswith("Unterminated")
            if cut and text.lstrip()[:1] in "{[":
                raise self._bad(f"truncated JSON ({err.msg})") from None
            raise self._bad(f"a body that is not JSON ({err.msg})") from None
        except ValueError:
            raise self._bad("a body that is not UTF-8 JSON") from None
        if not isinstance(payload, dict):
            raise self._bad(f"a JSON {_json_kind(payload)}, not an object")
        if request.url.path.rstrip("/") != "/api/chat":
            return content
        try:
            changed = _normalise_tool_arguments(payload)
        except TooDeep as err:
            raise self._bad(err.message) from None
        return json.dumps(payload).encode("utf-8") if changed else content

    def _bad(self, what: str) -> SchemanavError:
        return SchemanavError(f"{self._server} answered with {what}")


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "number"
