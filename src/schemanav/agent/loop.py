"""The agent loop, driven by hand so that every model call is visible and counted.

Each call sends the whole conversation (the server keeps no state between calls), runs the tool
calls the model asks for, appends their results and goes again, until the model answers
without a tool call or `max_calls` is reached. What it cost lands in a `Receipt`.

Tool executions are bounded too: at most `MAX_TOOL_CALLS_PER_REPLY` of one reply's calls run
(one reply asking for 500 `executeGraphql` calls must not send 500 requests), and at most
`MAX_TOOL_CALLS_PER_RUN` in the whole run; the model is told, in a tool message, what was not run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from schemanav.agent.chat import (
    Chat,
    ChatReply,
    OllamaChat,
    PromptRefused,
    Sampling,
    ToolCallRequest,
)
from schemanav.agent.prompts import (
    NAVIGATE_SYSTEM_PROMPT,
    inline_system_prompt,
    oracle_system_prompt,
    slice_system_prompt,
    tool_definitions,
)
from schemanav.agent.receipt import (
    Mode,
    Receipt,
    Stopped,
    ToolCallRecord,
    TruncationWarning,
)
from schemanav.agent.tools import SchemaTools
from schemanav.corpus import Format
from schemanav.errors import InputError, SchemanavError
from schemanav.events import Events, SilentEvents
from schemanav.limits import MAX_TOOL_CALLS_PER_REPLY, MAX_TOOL_CALLS_PER_RUN
from schemanav.navigator import Navigator
from schemanav.retrieval.pipeline import parse_format
from schemanav.settings import single
from schemanav.text import one_line
from schemanav.tokens import ENCODING_NAME, count_tokens

if TYPE_CHECKING:
    from schemanav.settings import Settings

# Ollama evaluates at most about half of num_ctx and drops the front of a longer prompt. Its
# prompt_eval_count is the prompt's length after that cut (a KV-cache hit does not lower it).
# Our sent-token count is o200k_base, an estimate of the model's own tokenizer that cannot see
# the chat template, so only a clear shortfall counts as truncation.
TRUNCATION_RATIO = 0.85
FALLBACK_NUM_CTX = 4096


@dataclass(frozen=True)
class AgentRun:
    """A finished run: its receipt, and the whole conversation for `--transcript`."""

    receipt: Receipt
    transcript: dict[str, Any] = field(repr=False)


def open_chat(settings: Settings, seed: int | None = None) -> Chat:
    """The model server of `--chat-api`, sending `--temperature` and `seed` on every call."""
    sampling = Sampling(settings.temperature, seed)
    refuse_secret_routing_from_file(settings)
    if settings.chat_api == "openai":
        from schemanav.agent.openai_chat import OpenAIChat

        return OpenAIChat(
            settings.chat_url,
            settings.model,
            settings.chat_timeout,
            key_env=settings.chat_key_env,
            sampling=sampling,
        )
    host = settings.chat_url or settings.ollama_host
    return OllamaChat(host, settings.model, settings.chat_timeout, sampling)


def refuse_secret_routing_from_file(settings: Settings) -> None:
    """A schemanav.toml in the working directory may come with a checked-out repository: it
    alone never chooses where a secret goes. It cannot name the variable whose value is sent
    as the chat key (`chat_key_env`: `AWS_SECRET_ACCESS_KEY` would go out as a Bearer token),
    nor, for the protocol that sends the key, the server it goes to (`chat_url`). Both must
    come from a flag or the user's environment."""
    from schemanav.settings import CONFIG_FILE

    routed = ["chat_key_env"]
    if settings.chat_api == "openai":
        routed.append("chat_url")
    for key in routed:
        if key in settings.from_file:
            flag = "--" + key.replace("_", "-")
            raise InputError(
                f"{key} in {CONFIG_FILE} cannot choose where the chat key goes (a file that came "
                f"with a repository must not send your secrets): remove it and pass {flag}, "
                f"or set SCHEMANAV_{key.upper()} in the environment"
            )


def run_agent(
    task: str,
    settings: Settings,
    *,
    inline: bool = False,
    events: Events | None = None,
    seed: int | None = None,
) -> AgentRun:
    """Run one task against the configured schema, model and endpoint.

    Raises `SchemanavError` when nothing could start (bad input, Ollama unreachable, model
    missing); a failure after the first call ends the run with `stopped="error"` instead,
    so that what was spent still gets its receipt.
    """
    events = events or SilentEvents()
    if not task.strip():
        raise InputError("the task is empty: say what the agent should find out")
    parse_format(single(settings, "format"))  # a bad --format fails before anything is loaded
    chat = open_chat(settings, seed)
    try:
        # The model server and the model first: an unreachable host fails in a moment, not after the
        # schema has been parsed.
        num_ctx = context_window(chat, settings, events)
        navigator = Navigator(settings, events)
        return run_task(
            task, navigator, chat, num_ctx, mode="inline" if inline else "navigate", events=events
        )
    finally:
        chat.close()


def run_task(
    task: str,
    navigator: Navigator,
    chat: Chat,
    num_ctx: int | None,
    *,
    mode: Mode,
    events: Events | None = None,
    oracle_coordinates: tuple[str, ...] = (),
) -> AgentRun:
    """One run with an open navigator and chat (what `agent-bench` repeats per task).

    `navigate` offers the search tools; `inline` puts the whole SDL in the system message;
    `slice` puts there the task's schema slice at `--slice-budget` tokens (the setup of the
    WG's agent board); `oracle` only the definitions of `oracle_coordinates` (the expected
    ones: the ceiling). The last three offer only `executeGraphql` (which validates).
    """
    settings = navigator.settings
    events = events or SilentEvents()
    loaded = navigator.loaded
    corpus = navigator.corpus
    tools = SchemaTools(
        loaded.schema,
        search=partial(navigator.search_blocks, k=settings.k) if mode == "navigate" else None,
        operations=navigator.operations,
        search_budget=settings.budget,
    )
    context: str | None = None
    shown: tuple[str, ...] = ()
    if mode == "inline":
        context = loaded.sdl
    elif mode == "slice":
        piece = navigator.slice(task, budget=settings.slice_budget)
        context, shown = piece.sdl, piece.fields
    elif mode == "oracle":
        definitions = navigator.define(list(oracle_coordinates))
        context = "\n\n".join(d.sdl for d in definitions if d.sdl is not None)
    loop = _Loop(
        task=task,
        chat=chat,
        tools=tools,
        mode=mode,
        num_ctx=num_ctx,
        max_calls=settings.max_calls,
        events=events,
        whole_corpus_tokens=corpus.total_tokens(Format.DOT_PLUS_GLOSS),
        schema_sdl=context,
        shown_fields=shown,
    )
    return loop.run()


def context_window(chat: Chat, settings: Settings, events: Events) -> int | None:
    """num_ctx: the setting, else the model's context length as the server reports it; for a
    server that cuts prompts silently (Ollama) a fallback, else None (only a refusal tells)."""
    reported = chat.context_length()  # also fails early when the model is missing
    if settings.num_ctx is not None:
        events.note(f"model {chat.model} at {chat.host}, num_ctx {settings.num_ctx:,} (set)")
        return settings.num_ctx
    if reported is None and not chat.drops_prompt_front:
        events.note(
            f"model {chat.model} at {chat.host}: the server reports no context window; a prompt "
            "over it is caught when the server refuses it (set --num-ctx to check before)"
        )
        return None
    if reported is None:
        events.warning(
            f"Ollama reports no context length for {chat.model}; using num_ctx "
            f"{FALLBACK_NUM_CTX:,} (set --num-ctx to the model's real window)"
        )
        return FALLBACK_NUM_CTX
    events.note(f"model {chat.model} at {chat.host}, num_ctx {reported:,} (the model's length)")
    return reported


class _Conversation:
    """The messages as sent, their token estimates, and the transcript (which also keeps the
    model's thinking and unparsed arguments, neither of which is sent back)."""

    def __init__(self, tools: list[Any]) -> None:
        self.sent: list[dict[str, Any]] = []
        self.transcript: list[dict[str, Any]] = []
        self._tokens: list[int] = []
        self._tools_tokens = count_tokens(json.dumps(tools, ensure_ascii=False))

    @property
    def sent_tokens(self) -> int:
        """o200k_base tokens of everything the next call sends: tool definitions and messages."""
        return self._tools_tokens + sum(self._tokens)

    def add(self, message: dict[str, Any], transcript: dict[str, Any] | None = None) -> None:
        self.sent.append(message)
        self.transcript.append(transcript or message)
        text = str(message.get("content") or "")
        for call in message.get("tool_calls", ()):
            function = call["function"]
            text += "\n" + function["name"] + json.dumps(function["arguments"], ensure_ascii=False)
        self._tokens.append(count_tokens(text))

    def add_reply(self, reply: ChatReply) -> None:
        sent_calls = [
            {"function": {"name": c.name, "arguments": {} if c.arguments_unparsed else c.arguments}}
            for c in reply.tool_calls
        ]
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        recorded: dict[str, Any] = dict(message)
        if reply.thinking:
            recorded["thinking"] = reply.thinking
        if sent_calls:
            message["tool_calls"] = sent_calls
            recorded["tool_calls"] = [
                {"function": {"name": c.name, "arguments": c.arguments}} for c in reply.tool_calls
            ]
        self.add(message, recorded)


class _Loop:
    def __init__(
        self,
        *,
        task: str,
        chat: Chat,
        tools: SchemaTools,
        mode: Mode,
        num_ctx: int | None,
        max_calls: int,
        events: Events,
        whole_corpus_tokens: int,
        schema_sdl: str | None,
        shown_fields: tuple[str, ...] = (),
    ) -> None:
        self.task = task
        self.chat = chat
        self.tools = tools
        self.mode: Mode = mode
        self.num_ctx = num_ctx
        self.max_calls = max_calls
        self.events = events
        self.whole_corpus_tokens = whole_corpus_tokens
        self.schema_sdl = schema_sdl
        self.shown_fields = shown_fields
        self.definitions = tool_definitions(inline=schema_sdl is not None)
        self.warnings: list[TruncationWarning] = []
        self.records: list[ToolCallRecord] = []
        self.calls: list[dict[str, Any]] = []

    def run(self) -> AgentRun:
        conversation = _Conversation(self.definitions)
        schema_tokens = 0
        if self.schema_sdl is None:
            conversation.add({"role": "system", "content": NAVIGATE_SYSTEM_PROMPT})
        else:
            schema_tokens = count_tokens(self.schema_sdl)
            self._warn_schema_over_half(schema_tokens)
            prompts = {"oracle": oracle_system_prompt, "slice": slice_system_prompt}
            prompt = prompts.get(self.mode, inline_system_prompt)(self.schema_sdl)
            conversation.add({"role": "system", "content": prompt})
        conversation.add({"role": "user", "content": self.task})

        prompt_tokens = completion_tokens = 0
        answer: str | None = None
        stopped: Stopped = "max_calls"
        error: str | None = None
        for number in range(1, self.max_calls + 1):
            sent = conversation.sent_tokens
            try:
                reply = self.chat.chat(conversation.sent, self.definitions, self.num_ctx)
            except PromptRefused as err:
                stopped, error = "refused", err.message
                self._report_refusal(number, sent, err.message)
                break
            except SchemanavError as err:
                stopped, error = "error", err.message
                break
            prompt_tokens += reply.prompt_eval_count or 0
            completion_tokens += reply.eval_count or 0
            self.calls.append(
                {
                    "call": number,
                    "sent_tokens": sent,
                    "prompt_eval_count": reply.prompt_eval_count,
                    "eval_count": reply.eval_count,
                    "tool_calls": len(reply.tool_calls),
                }
            )
            self._check_truncation(number, sent, reply.prompt_eval_count)
            conversation.add_reply(reply)
            if not reply.tool_calls:
                stopped, answer = "answered", self.tools.redact(reply.content)
                break
            if number == self.max_calls:
                wanted = ", ".join(call.name for call in reply.tool_calls)
                self.events.warning(
                    f"stopped after {number} model calls (--max-calls {self.max_calls}) "
                    f"without an answer; the model still asked for {wanted}"
                )
                break
            for request in self._runnable(number, reply, conversation):
                result = self.tools.call(request.name, request.arguments)
                tokens = count_tokens(result.text)
                conversation.add(
                    {"role": "tool", "tool_name": request.name, "content": result.text}
                )
                self.records.append(
                    ToolCallRecord(request.name, _bounded(request.arguments), tokens, result.ok)
                )
                status = "" if result.ok else ", error"
                self.events.note(
                    f"call {number}: {request.name} {_short(request.arguments)} "
                    f"→ {tokens:,} tokens{status}"
                )

        receipt = Receipt(
            task=self.task,
            model=self.chat.model,
            mode=self.mode,
            num_ctx=self.num_ctx,
            model_calls=len(self.calls),
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            tool_payload_tokens=sum(record.payload_tokens for record in self.records),
            whole_corpus_tokens=self.whole_corpus_tokens,
            schema_in_prompt_tokens=schema_tokens,
            tool_calls=tuple(self.records),
            answer=answer,
            stopped=stopped,
            truncation_warnings=tuple(self.warnings),
            error=error,
            chat_api=self.chat.api,
            temperature=self.chat.sampling.temperature,
            seed=self.chat.sampling.seed,
        )
        transcript = {
            "task": self.task,
            "model": self.chat.model,
            "mode": self.mode,
            "num_ctx": self.num_ctx,
            "chat_api": self.chat.api,
            "encoding": ENCODING_NAME,
            "shown_fields": list(self.shown_fields),
            "tools": self.definitions,
            "messages": conversation.transcript,
            "calls": self.calls,
            "stopped": stopped,
        }
        return AgentRun(receipt, transcript)

    def _runnable(
        self, number: int, reply: ChatReply, conversation: _Conversation
    ) -> list[ToolCallRequest]:
        """The calls of `reply` that may run; the model is told about the others."""
        left = MAX_TOOL_CALLS_PER_RUN - len(self.records)
        allowed = min(MAX_TOOL_CALLS_PER_REPLY, left)
        runnable = list(reply.tool_calls[:allowed])
        skipped = len(reply.tool_calls) - len(runnable)
        if skipped:
            if left <= MAX_TOOL_CALLS_PER_REPLY and left < len(reply.tool_calls):
                why = (
                    f"this run's {MAX_TOOL_CALLS_PER_RUN} tool executions are spent; "
                    "answer now with what you have"
                )
            else:
                why = (
                    f"at most {MAX_TOOL_CALLS_PER_REPLY} tool calls of one reply are run; "
                    "ask for the rest in your next reply"
                )
            text = f"{skipped} of your {len(reply.tool_calls)} tool calls were not run: {why}"
            conversation.add({"role": "tool", "tool_name": "schemanav", "content": text})
            self.events.warning(f"call {number}: {text}")
        return runnable

    def _limit(self) -> int | None:
        """Sent tokens above which a prompt is at risk: half the window where the server cuts
        silently (Ollama), the whole window elsewhere, None when no window is known."""
        if self.num_ctx is None:
            return None
        return self.num_ctx // 2 if self.chat.drops_prompt_front else self.num_ctx

    def _remedy(self) -> str:
        if self.mode == "inline":
            return "navigate instead of inlining (drop --inline)"
        if self.mode == "slice":
            return "lower --slice-budget"
        return "lower --budget"

    def _warn_schema_over_half(self, schema_tokens: int) -> None:
        limit = self._limit()
        if limit is None or schema_tokens <= limit:
            return
        self.warnings.append(TruncationWarning(0, schema_tokens, None))
        share = "more than half of" if self.chat.drops_prompt_front else "more than"
        fate = (
            "Ollama will silently drop the front of the prompt, system message first"
            if self.chat.drops_prompt_front
            else "the server will probably refuse the prompt"
        )
        self.events.warning(
            f"the schema alone is about {schema_tokens:,} tokens ({ENCODING_NAME} estimate), "
            f"{share} num_ctx {self.num_ctx:,}: {fate}. Raise --num-ctx, or {self._remedy()}."
        )

    def _check_truncation(self, number: int, sent: int, evaluated: int | None) -> None:
        cut = evaluated is not None and evaluated < TRUNCATION_RATIO * sent
        limit = self._limit()
        over = limit is not None and sent > limit
        if not (cut or over):
            return
        self.warnings.append(TruncationWarning(number, sent, evaluated))
        seen = "did not report" if evaluated is None else f"evaluated {evaluated:,}"
        window = "unknown" if self.num_ctx is None else f"{self.num_ctx:,}"
        if cut:
            what = "the front of the conversation (system message first) was probably dropped"
        elif self.chat.drops_prompt_front:
            what = (
                "the prompt exceeds half the context window, where Ollama starts dropping "
                "its front without an error"
            )
        else:
            what = "the prompt exceeds the context window"
        self.events.warning(
            f"call {number}: sent about {sent:,} tokens ({ENCODING_NAME} estimate), the server "
            f"{seen}, num_ctx {window}: {what}. Raise --num-ctx, or {self._remedy()}."
        )

    def _report_refusal(self, number: int, sent: int, message: str) -> None:
        """A prompt the server refused as over the window: a truncation warning like a cut."""
        self.warnings.append(TruncationWarning(number, sent, None, refused=True))
        self.events.warning(
            f"call {number}: sent about {sent:,} tokens ({ENCODING_NAME} estimate) and {message}. "
            f"Use a model with a longer window, or {self._remedy()}."
        )


def _bounded(arguments: Any, limit: int = 4096) -> Any:
    """Arguments as recorded in the receipt: in full, or cut with a count when huge."""
    try:
        text = (
            arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        )
    except (TypeError, ValueError, RecursionError):
        return "[arguments that cannot be written as JSON]"
    if len(text) <= limit:
        return arguments
    return f"{text[:limit]}… [{len(text) - limit:,} more characters not shown]"


def _short(arguments: Any, limit: int = 80) -> str:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    if isinstance(arguments, Mapping) and len(arguments) == 1:
        text = json.dumps(next(iter(arguments.values())), ensure_ascii=False)
    text = one_line(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
