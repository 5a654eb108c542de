"""The context receipt: what one agent run cost, call by call, in tokens.

Prompt and completion tokens are the provider's own counts (its tokenizer, summed over calls,
and the whole conversation is resent on every call); tool payloads and the schema figures
are o200k_base counts of the texts themselves, like everywhere else in schemanav.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from schemanav.records import to_json

Mode = Literal["navigate", "inline", "oracle", "slice"]
Stopped = Literal["answered", "max_calls", "error", "refused"]
"""`refused`: the server refused a prompt as longer than the model's window (a final outcome,
unlike `error`, which a rerun may clear)."""


@dataclass(frozen=True)
class ToolCallRecord:
    """One executed tool call: its arguments as the model sent them (an object, or the raw
    text when it was not JSON) and the tokens its result injected."""

    name: str
    arguments: Any
    payload_tokens: int
    ok: bool


@dataclass(frozen=True)
class TruncationWarning:
    """A call whose prompt Ollama may have cut, or a server refused (`refused`). `call` is
    1-based; 0 means before the first call (inline mode, schema alone over half the window),
    when nothing was evaluated yet."""

    call: int
    sent_tokens: int
    evaluated_tokens: int | None
    refused: bool = False


@dataclass(frozen=True)
class Receipt:
    """`num_ctx` is None where neither the setting nor the server gave a window (an
    OpenAI-compatible server that lists none); `chat_api`, `temperature` and `seed` say how
    the model was asked."""

    task: str
    model: str
    mode: Mode
    num_ctx: int | None
    model_calls: int
    prompt_tokens: int
    completion_tokens: int
    tool_payload_tokens: int
    whole_corpus_tokens: int
    schema_in_prompt_tokens: int
    tool_calls: tuple[ToolCallRecord, ...]
    answer: str | None
    stopped: Stopped
    truncation_warnings: tuple[TruncationWarning, ...] = ()
    error: str | None = None
    chat_api: str = "ollama"
    temperature: float = 0.0
    seed: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of `--receipt-json` (plus `num_ctx` and, on failure, `error`)."""
        return to_json(self)
