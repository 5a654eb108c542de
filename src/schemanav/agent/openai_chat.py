"""The OpenAI chat-completions side of `Chat`, through the official `openai` client.

vLLM, llama.cpp's server, LM Studio, Ollama's `/v1` and hosted APIs all speak this protocol.
The loop keeps its conversation in one shape (Ollama's: tool-call arguments as objects, a tool
result named by its tool); this module translates it on the way out (ids pairing each tool
result with its call, arguments as JSON text) and the reply on the way back.

The API key is read from the environment variable named by `--chat-key-env`, never from the
command line, and every error text goes through a `Redactor` holding it (a server may echo a
bad key back). The same bounded transport as the Ollama side caps the time and size of every
reply. A prompt refused as longer than the context window (HTTP 400) raises `PromptRefused`,
which the loop's truncation guard reports.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import httpx

from schemanav.agent.chat import ChatReply, PromptRefused, ReplyCheck, Sampling, ToolCallRequest
from schemanav.agent.chat import short_text as _short
from schemanav.defaults import DEFAULT_OPENAI_BASE_URL
from schemanav.errors import MissingExtra, SchemanavError
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
from schemanav.redaction import Redactor, public_url

if TYPE_CHECKING:
    from openai import OpenAI

# How servers word a prompt over the window: OpenAI and vLLM ("maximum context length"),
# llama.cpp ("exceeds the available context size"), LM Studio and others ("context window",
# "context length", "too many tokens").
_OVER_WINDOW = re.compile(
    r"context[ _](length|size|window)|maximum context|too many tokens|prompt is too long", re.I
)
_OVER_WINDOW_CODES = {"context_length_exceeded", "exceed_context_size_error"}
NOT_RUN = "not run"
"""The result sent for a tool call the loop did not run (the protocol wants one per call)."""


def openai_base_url(configured: str | None) -> str:
    """The address the client will use: the setting, else $OPENAI_BASE_URL, else OpenAI's."""
    return configured or os.environ.get("OPENAI_BASE_URL") or DEFAULT_OPENAI_BASE_URL


class OpenAIChat:
    """One OpenAI-compatible server and model; every failure is a one-line `SchemanavError`
    with the key redacted."""

    api = "openai"
    drops_prompt_front = False

    def __init__(
        self,
        url: str | None,
        model: str,
        timeout: float,
        *,
        key_env: str,
        sampling: Sampling | None = None,
    ) -> None:
        try:
            import openai
        except ImportError:
            raise MissingExtra("--chat-api openai needs the openai client", "openai") from None
        self.base_url = openai_base_url(url)
        self.host = public_url(self.base_url)
        self.server = f"the model server at {self.host}"
        self.model = model
        self.timeout = timeout
        self.key_env = key_env
        self.sampling = sampling or Sampling()
        key = os.environ.get(key_env) or ""
        self._has_key = bool(key)
        self._redact = Redactor({"Authorization": key} if key else {}, urls=[self.base_url])
        http_client = httpx.Client(
            transport=bounded_transport(
                httpx.HTTPTransport(), timeout=timeout, on_body=ReplyCheck(self.server)
            ),
            timeout=timeout,
        )
        self._client: OpenAI = openai.OpenAI(
            # Local servers take any key; the client insists on one.
            api_key=key or "no-key",
            base_url=self.base_url,
            timeout=timeout,
            max_retries=0,  # a retry would hide a failure from the receipt and double the cost
            # The 1.x/2.x clients take an httpx client; 3.x types an httpx2 one but still
            # accepts httpx's (its `_httpx2` module bridges them), which our transport is.
            http_client=http_client,  # type: ignore[arg-type,unused-ignore]
        )

    def context_length(self) -> int | None:
        """The window the server lists for the model (vLLM's `max_model_len`, or a
        `context_length`), else None; listing the models also proves the server and the key
        work. A server without `/models` (some proxies) is not an error: the first call will
        tell."""
        import openai

        try:
            window: int | None = self._guarded(
                lambda: self._listed_window(self._client.models.list().data)
            )
            return window
        except SchemanavError as err:
            if isinstance(err.__cause__, openai.NotFoundError):
                return None
            raise

    def _listed_window(self, listed: Sequence[Any]) -> int | None:
        models = {model.id: model for model in listed}
        if models and self.model not in models:
            names = ", ".join(sorted(str(name) for name in models)[:8])
            raise SchemanavError(
                f"model {self.model} is not served at {self.host} (it serves: {names}): "
                "pass one of those with --model"
            )
        found = models.get(self.model)
        extra = dict(found.model_extra or {}) if found is not None else {}
        for value in (extra.get("max_model_len"), extra.get("context_length")):
            window = _count(value)
            if window:
                return window
        return None

    def chat(
        self, messages: Sequence[Mapping[str, Any]], tools: Sequence[Any], num_ctx: int | None
    ) -> ChatReply:
        """One completion; `num_ctx` has no place in this protocol (the server owns the
        window), so it is not sent. Reading the reply is guarded too: a body the client
        accepted may still lack what a completion has."""
        extra: dict[str, Any] = {}
        if tools:
            extra["tools"] = list(tools)
        if self.sampling.seed is not None:
            extra["seed"] = self.sampling.seed
        return self._guarded(  # type: ignore[no-any-return]
            lambda: self._reply(
                self._client.chat.completions.create(
                    model=self.model,
                    messages=list(wire_messages(messages)),  # type: ignore[arg-type]
                    temperature=self.sampling.temperature,
                    stream=False,
                    **extra,
                )
            )
        )

    def _reply(self, response: Any) -> ChatReply:
        if not response.choices:
            raise SchemanavError(f"{self.server} answered with no choices")
        message = response.choices[0].message
        calls = tuple(self._tool_call(call) for call in message.tool_calls or ())
        usage = response.usage
        thinking = (message.model_extra or {}).get("reasoning_content")
        # The key is redacted from all the model says (a server may echo it, a model may
        # repeat it) before the loop sees it: the answer, the tool-call table, the notes, the
        # transcript and the receipt are all made from this reply, and a tool call never
        # sends the key on.
        return ChatReply(
            content=self._redact(str(message.content or "")),
            thinking=self._redact(thinking) if isinstance(thinking, str) and thinking else None,
            tool_calls=calls,
            prompt_eval_count=_count(getattr(usage, "prompt_tokens", None)),
            eval_count=_count(getattr(usage, "completion_tokens", None)),
        )

    def _tool_call(self, call: Any) -> ToolCallRequest:
        """A call the loop can run; one without a function name ends the run (as the ollama
        client refuses it on the other side)."""
        function = getattr(call, "function", None)
        name = getattr(function, "name", None)
        if not isinstance(name, str) or not name:
            raise SchemanavError(
                f"{self.server} sent a reply the client cannot read (a tool call without a "
                "function name)"
            )
        arguments = self._arguments(getattr(function, "arguments", None))
        return ToolCallRequest(self._redact(name), self._redact.json(arguments))

    def _arguments(self, text: str | None) -> Any:
        """A JSON object's arguments as a dict; anything else stays raw text (a tool error)."""
        if not text:
            return {}
        try:
            parsed = loads_json(text, max_depth=MAX_JSON_DEPTH)
        except TooDeep:
            raise SchemanavError(
                f"{self.server} answered with tool-call arguments nested more than "
                f"{MAX_JSON_DEPTH} levels deep"
            ) from None
        except ValueError:
            return text
        return parsed if isinstance(parsed, dict) else text

    def close(self) -> None:
        self._client.close()

    def _guarded(self, request: Any) -> Any:
        """Run one client call; its failures become one line with the key redacted."""
        try:
            return request()
        except SchemanavError as err:
            raise SchemanavError(self._redact(err.message)) from None
        except Exception as err:  # the client's and the transport's, mapped below
            failure = self._failure(err)
            raise type(failure)(self._redact(failure.message)) from err

    def _failure(self, err: Exception) -> SchemanavError:
        import openai

        cause = err.__cause__
        if isinstance(cause, SchemanavError):  # the reply check, wrapped by the client
            return cause
        if isinstance(err, DeadlineExceeded | openai.APITimeoutError) or isinstance(
            cause, DeadlineExceeded
        ):
            return SchemanavError(
                f"{self.server} did not answer within {self.timeout:g} s "
                "(raise SCHEMANAV_CHAT_TIMEOUT, or use a smaller model or prompt)"
            )
        if isinstance(err, TooLarge) or isinstance(cause, TooLarge):
            return SchemanavError(
                f"{self.server} answered with more than {describe_bytes(MAX_RESPONSE_BYTES)}"
            )
        if isinstance(err, openai.APIConnectionError):
            return SchemanavError(
                f"cannot reach {self.server}: is it running? (set the address with --chat-url "
                "or OPENAI_BASE_URL)"
            )
        if isinstance(err, openai.APIStatusError):
            return self._status_failure(err)
        if isinstance(err, openai.OpenAIError | ValueError | TypeError | AttributeError):
            return SchemanavError(
                f"{self.server} sent a reply the client cannot read "
                f"({type(err).__name__}: {_short(self._redact(str(err)))})"
            )
        raise err

    def _status_failure(self, err: Any) -> SchemanavError:
        status: int = err.status_code
        # Redacted before it is cut: a cut could leave a prefix of the key that no longer
        # matches it.
        said = _short(self._redact(_error_message(err)))
        if status in (401, 403):
            fix = (
                f"set {self.key_env} to a valid key"
                if self._has_key
                else f"set {self.key_env} to the key"
            )
            return SchemanavError(
                f"{self.server} refused the request (HTTP {status}: {said}): {fix}, or name "
                "the variable that holds it with --chat-key-env"
            )
        if status == 404:
            return SchemanavError(
                f"{self.server} answered HTTP 404 for model {self.model} ({said}): check "
                "--model and --chat-url (an OpenAI-compatible server's URL usually ends in /v1)"
            )
        if status == 400 and (
            err.code in _OVER_WINDOW_CODES or _OVER_WINDOW.search(_error_message(err))
        ):
            return PromptRefused(
                f"{self.server} refused the prompt as longer than the context window of "
                f"{self.model} (HTTP 400: {said})"
            )
        return SchemanavError(f"{self.server} answered HTTP {status}: {said}")


def _count(value: Any) -> int | None:
    """A token count or window as the server sent it, if it is one (a non-negative integer)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


def _error_message(err: Any) -> str:
    """The server's own words: `{"error": {"message": …}}`, else the client's message."""
    body = err.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str) and message:
            return message
    return str(err.message)


def wire_messages(messages: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The loop's conversation in the chat-completions shape.

    Each assistant tool call gets an id (`call_<message>_<n>`) and its arguments as JSON text;
    each tool result answers the next unanswered call of the last assistant message, in order.
    A notice from schemanav itself (tool name `schemanav`: calls that were not run) answers
    every call still unanswered, and any call left without a result gets `NOT_RUN`: the
    protocol wants exactly one result per call.
    """
    pending: list[str] = []
    notice: str | None = None

    def unanswered() -> Iterator[dict[str, Any]]:
        for call_id in pending:
            yield {"role": "tool", "tool_call_id": call_id, "content": notice or NOT_RUN}
        pending.clear()

    for number, message in enumerate(messages):
        role = message.get("role")
        if role == "tool":
            if message.get("tool_name") == "schemanav":
                notice = str(message.get("content") or "")
                yield from unanswered()
            elif pending:
                yield {
                    "role": "tool",
                    "tool_call_id": pending.pop(0),
                    "content": str(message.get("content") or ""),
                }
            continue
        yield from unanswered()
        notice = None
        calls = message.get("tool_calls") or ()
        if role != "assistant" or not calls:
            yield {"role": role, "content": message.get("content") or ""}
            continue
        sent = []
        for index, call in enumerate(calls):
            call_id = f"call_{number}_{index}"
            function = call["function"]
            sent.append(
                {
                    "id": call_id,
                    "type": "function",
                    "function": {
                        "name": function["name"],
                        "arguments": json.dumps(function["arguments"], ensure_ascii=False),
                    },
                }
            )
            pending.append(call_id)
        yield {"role": "assistant", "content": message.get("content") or None, "tool_calls": sent}
    yield from unanswered()
