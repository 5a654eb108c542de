"""The OpenAI chat-completions side: the test server checked against the real `openai` client
(tool calls, usage, streaming off and on, 400 and 401), then what only this protocol has: the
key from an environment variable and never shown, a refused oversized prompt reported by the
truncation guard, tool results paired with their calls, the server's address from
`OPENAI_BASE_URL`."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openai
import pytest
from typer.testing import CliRunner

from schemanav.agent import run_agent
from schemanav.agent.chat import Sampling
from schemanav.agent.openai_chat import NOT_RUN, OpenAIChat
from schemanav.agentbench.scoring import score_run
from schemanav.cli import app
from schemanav.errors import SchemanavError
from schemanav.limits import MAX_TOOL_CALLS_PER_REPLY
from schemanav.schema import bundled_path, load_schema
from schemanav.settings import Settings, load_settings
from servers.openai_server import CHAT_MODEL, FakeOpenAI, prompt_tokens, serve_openai

KEY = "sk-test-5d1e0c7a9b3f4e21"
KEY_ENV = "SCHEMANAV_TEST_CHAT_KEY"
SDL = str(bundled_path("moviedb.graphqls"))


def tool_reply(name: str, arguments: Any, **extra: Any) -> dict[str, Any]:
    call = {"function": {"name": name, "arguments": arguments}}
    return {"content": "", "tool_calls": [call], **extra}


def settings_for(server: FakeOpenAI, tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "schema": SDL,
        "chat_api": "openai",
        "chat_url": server.url,
        "chat_key_env": KEY_ENV,
        "cache_dir": str(tmp_path / "cache"),
    }
    values.update(overrides)
    return load_settings(**values)


@pytest.fixture
def key_in_env(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, KEY)
    return KEY


# -- the test server, as the real client sees it ------------------------------------------


def test_the_server_speaks_the_protocol_the_client_reads() -> None:
    with serve_openai(key=KEY) as server:
        client = openai.OpenAI(api_key=KEY, base_url=server.url, max_retries=0)
        assert [m.id for m in client.models.list().data] == [CHAT_MODEL]
        server.script_chat(
            tool_reply("searchSchema", {"query": "movies"}, prompt_eval_count=41, eval_count=6)
        )
        messages: Any = [{"role": "user", "content": "Which movies?"}]
        completion = client.chat.completions.create(model=CHAT_MODEL, messages=messages)
        choice = completion.choices[0]
        assert choice.finish_reason == "tool_calls"
        (call,) = choice.message.tool_calls or []
        assert call.type == "function" and call.function.name == "searchSchema"
        assert json.loads(call.function.arguments) == {"query": "movies"}
        assert completion.usage is not None
        assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (41, 6)

        # Streaming on: the same reply as chunks, usage in a last chunk when asked for.
        server.script_chat({"content": "Paper Moons.", "prompt_eval_count": 9, "eval_count": 3})
        stream = client.chat.completions.create(
            model=CHAT_MODEL,
            messages=messages,
            stream=True,
            stream_options={"include_usage": True},
        )
        text, finish, usage = "", None, None
        for chunk in stream:
            if chunk.usage is not None:
                usage = chunk.usage
            for streamed in chunk.choices:
                text += streamed.delta.content or ""
                finish = streamed.finish_reason or finish
        assert (text, finish) == ("Paper Moons.", "stop")
        assert usage is not None and usage.total_tokens == 12

        server.script_chat(tool_reply("introspectType", {"name": "Movie"}))
        streamed_calls = client.chat.completions.create(
            model=CHAT_MODEL, messages=messages, stream=True
        )
        deltas = [
            tool_call
            for chunk in streamed_calls
            for streamed in chunk.choices
            for tool_call in streamed.delta.tool_calls or ()
        ]
        assert [(d.index, d.function and d.function.name) for d in deltas] == [
            (0, "introspectType")
        ]

        # 400: a prompt over the model's window; 401: a wrong key.
        with serve_openai({CHAT_MODEL: 20}) as small:
            tiny = openai.OpenAI(api_key="any", base_url=small.url, max_retries=0)
            long_prompt: Any = [{"role": "user", "content": "word " * 100}]
            with pytest.raises(openai.BadRequestError) as refused:
                tiny.chat.completions.create(model=CHAT_MODEL, messages=long_prompt)
            assert refused.value.code == "context_length_exceeded"
        wrong = openai.OpenAI(api_key="sk-wrong-key", base_url=server.url, max_retries=0)
        with pytest.raises(openai.AuthenticationError) as denied:
            wrong.models.list()
        assert denied.value.status_code == 401 and "sk-wrong-key" in denied.value.message


# -- the key ---------------------------------------------------------------------------------


def test_the_key_comes_from_the_named_variable_and_is_sent_as_a_bearer(
    key_in_env: str, tmp_path: Path
) -> None:
    with serve_openai(key=KEY) as server:
        server.script_chat({"content": "hi", "prompt_eval_count": 30, "eval_count": 2})
        run = run_agent("hi", settings_for(server, tmp_path), seed=5)
        assert set(server.authorizations) == {f"Bearer {KEY}"}
        (body,) = server.chat_requests
    assert (body["temperature"], body["seed"]) == (0.0, 5)
    assert "num_ctx" not in json.dumps(body)
    receipt = run.receipt
    assert (receipt.chat_api, receipt.temperature, receipt.seed) == ("openai", 0.0, 5)
    assert (receipt.prompt_tokens, receipt.completion_tokens) == (30, 2)


def test_a_refused_key_is_one_line_and_never_shown(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    wrong = "sk-wrong-0b9e6a2c4d8f1357"
    monkeypatch.setenv(KEY_ENV, wrong)
    # The server echoes the wrong key in its 401.
    with serve_openai(key=KEY) as server, pytest.raises(SchemanavError) as caught:
        run_agent("hi", settings_for(server, tmp_path))
    message = caught.value.message
    assert wrong not in message and "[redacted]" in message
    assert message.startswith(f"the model server at {server.url} refused the request (HTTP 401")
    assert message.endswith(
        f"set {KEY_ENV} to a valid key, or name the variable that holds it with --chat-key-env"
    )
    # The key straddles the 200th character, where the server's words are cut: redacted
    # before the cut, no prefix of it is left.
    with serve_openai(key=KEY) as server, pytest.raises(SchemanavError) as straddled:
        server.denial_padding = 22  # "Sorry, " × 22: the key spans characters 182 to 207
        run_agent("hi", settings_for(server, tmp_path))
    assert wrong[:6] not in straddled.value.message
    monkeypatch.delenv(KEY_ENV)
    with serve_openai(key=KEY) as server, pytest.raises(SchemanavError) as missing:
        run_agent("hi", settings_for(server, tmp_path))
    assert f"set {KEY_ENV} to the key" in missing.value.message


def test_the_command_never_prints_the_key(
    runner: CliRunner,
    cache_dir: Path,
    workdir: Path,
    user_error: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    with serve_openai(key="sk-another-key-entirely") as server:
        args = ["agent", "hi", "--chat-api", "openai", "--chat-url", server.url]
        result = runner.invoke(app, [*args, "--chat-key-env", KEY_ENV])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: the model server at")
    assert KEY not in result.output and "[redacted]" in result.stderr
    # A value that is not a variable's name may be the key itself: refused, not repeated.
    refused = user_error(runner.invoke(app, [*args, "--chat-key-env", KEY]), "--chat-key-env")
    assert KEY not in refused and "never the key itself" in refused


# -- the window, and a prompt over it ---------------------------------------------------------


def test_a_refused_prompt_is_reported_by_the_truncation_guard(
    key_in_env: str, tmp_path: Path
) -> None:
    with serve_openai({CHAT_MODEL: 1100}) as server:
        server.script_chat(
            tool_reply("introspectType", {"name": "Movie"}, prompt_eval_count=900, eval_count=5)
        )
        warnings: list[str] = []

        class Recorder:
            def warning(self, message: str) -> None:
                warnings.append(message)

            def note(self, message: str) -> None:
                pass

            def progress(self, description: str, done: int, total: int) -> None:
                pass

        run = run_agent("Tell me about movies", settings_for(server, tmp_path), events=Recorder())
        first, second = server.chat_requests  # the second carries the type: too long
        assert prompt_tokens(first) <= 1100 < prompt_tokens(second)
    receipt = run.receipt
    assert receipt.num_ctx == 1100  # listed by the server (max_model_len)
    assert receipt.stopped == "refused" and receipt.model_calls == 1
    (warning,) = receipt.truncation_warnings
    assert (warning.call, warning.refused, warning.evaluated_tokens) == (2, True, None)
    assert receipt.error is not None
    assert "refused the prompt as longer than the context window of qwen3:8b" in receipt.error
    assert "maximum context length is 1100 tokens" in receipt.error
    assert [w for w in warnings if w.startswith("call 2: sent about")]
    # agent-bench scores it as a truncation.
    schema = load_schema(SDL).schema
    score = score_run(schema, ("Query.movies",), receipt, run.transcript)
    assert score.stage == "context_truncated"


def test_a_server_that_lists_no_window_leaves_it_unknown(key_in_env: str, tmp_path: Path) -> None:
    with serve_openai({CHAT_MODEL: None}) as server:
        server.script_chat(lambda body: {"content": "ok", "prompt_eval_count": prompt_tokens(body)})
        run = run_agent("hi", settings_for(server, tmp_path))
    assert run.receipt.num_ctx is None and run.receipt.truncation_warnings == ()


def test_a_server_without_a_model_list_is_asked_anyway(key_in_env: str, tmp_path: Path) -> None:
    with serve_openai() as server:
        server.lists_models = False
        server.script_chat({"content": "ok", "prompt_eval_count": 900, "eval_count": 1})
        run = run_agent("hi", settings_for(server, tmp_path, num_ctx=4096))
    assert (run.receipt.stopped, run.receipt.num_ctx) == ("answered", 4096)


def test_a_slow_server_is_cut_off_at_the_chat_timeout(key_in_env: str, tmp_path: Path) -> None:
    with serve_openai() as server:
        server.chat_delay = 3.0
        server.script_chat({"content": "too late"})
        run = run_agent("hi", settings_for(server, tmp_path, chat_timeout=0.5))
    assert run.receipt.stopped == "error"
    assert run.receipt.error == (
        f"the model server at {server.url} did not answer within 0.5 s "
        "(raise SCHEMANAV_CHAT_TIMEOUT, or use a smaller model or prompt)"
    )


# -- the conversation on the wire -----------------------------------------------------------


def test_calls_that_were_not_run_still_get_a_result(key_in_env: str, tmp_path: Path) -> None:
    """The server refuses (400) a conversation where a tool call has no result; the calls
    over the per-reply limit are answered with schemanav's notice."""
    many = [
        {"function": {"name": "listFields", "arguments": {"name": "Movie"}}}
        for _ in range(MAX_TOOL_CALLS_PER_REPLY + 2)
    ]
    with serve_openai() as server:
        server.script_chat(
            {"content": "", "tool_calls": many, "prompt_eval_count": 50, "eval_count": 5},
            {"content": "done", "prompt_eval_count": 80, "eval_count": 1},
        )
        run = run_agent("Movie fields?", settings_for(server, tmp_path))
        last = server.chat_requests[-1]["messages"]
    assert run.receipt.stopped == "answered"
    results = [m for m in last if m["role"] == "tool"]
    assistant = next(m for m in last if m.get("tool_calls"))
    assert [r["tool_call_id"] for r in results] == [c["id"] for c in assistant["tool_calls"]]
    skipped = results[MAX_TOOL_CALLS_PER_REPLY:]
    assert len(skipped) == 2
    assert all("tool calls were not run" in r["content"] for r in skipped)
    assert NOT_RUN not in {r["content"] for r in results}


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({"object": "chat.completion"}, "answered with no choices"),
        ({"choices": [{"index": 0}]}, "sent a reply the client cannot read (AttributeError"),
        ("<html>busy</html>", "answered with a body that is not JSON"),
        ('{"choices": [', "answered with truncated JSON"),
    ],
)
def test_a_reply_that_is_no_completion_ends_the_run_with_its_receipt(
    key_in_env: str, tmp_path: Path, raw: Any, said: str
) -> None:
    with serve_openai() as server:
        server.script_chat(
            tool_reply("listFields", {"name": "Movie"}, prompt_eval_count=70, eval_count=4),
            {"raw": raw if isinstance(raw, str) else json.dumps(raw)},
        )
        run = run_agent("Movie fields?", settings_for(server, tmp_path))
    receipt = run.receipt
    assert (receipt.stopped, receipt.model_calls, receipt.prompt_tokens) == ("error", 1, 70)
    assert receipt.error is not None
    assert receipt.error.startswith(f"the model server at {server.url} ")
    assert said in receipt.error


def test_openai_base_url_is_honoured_and_a_dead_server_is_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with serve_openai() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        chat = OpenAIChat(None, CHAT_MODEL, 10, key_env=KEY_ENV, sampling=Sampling(0.0, 1))
        assert chat.context_length() == 32768
        chat.close()
        with pytest.raises(SchemanavError, match=r"model gpt-x is not served at .*qwen3:8b"):
            run_agent("hi", load_settings(schema=SDL, chat_api="openai", model="gpt-x"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    with pytest.raises(SchemanavError) as caught:
        run_agent("hi", load_settings(schema=SDL, chat_api="openai", chat_url=dead))
    assert caught.value.message == (
        f"cannot reach the model server at {dead}: is it running? "
        "(set the address with --chat-url or OPENAI_BASE_URL)"
    )


def test_agent_bench_command_on_the_openai_protocol(
    runner: CliRunner, cache_dir: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    tasks = workdir / "tasks.tsv"
    tasks.write_text("List the movie titles.\tQuery.movies,Movie.title\n", encoding="utf-8")
    with serve_openai(key=KEY) as server:
        server.script_chat(
            {"content": "```graphql\n{ movies { title } }\n```", "prompt_eval_count": 300}
        )
        flags = ["--chat-api", "openai", "--chat-url", server.url, "--chat-key-env", KEY_ENV]
        sampling = ["--temperature", "0.3", "--seed", "4", "--slice-budget", "500", "--json"]
        result = runner.invoke(
            app, ["agent-bench", str(tasks), "--mode", "slice", *flags, "--schema", SDL, *sampling]
        )
        (body,) = server.chat_requests
    assert result.exit_code == 0, result.output
    assert (body["temperature"], body["seed"]) == (0.3, 4)
    assert "SCHEMA SLICE:" in body["messages"][0]["content"]
    payload = json.loads(result.stdout)
    (row,) = payload["results"]
    assert row["success"] and row["mode"] == "slice" and row["prompt_tokens"] == 300
    config = row["config"]
    assert (config["chat_api"], config["temperature"], config["seed"]) == ("openai", 0.3, 4)
    assert (config["model"], config["slice_budget"]) == (CHAT_MODEL, 500)
    assert KEY not in result.output


def test_a_key_the_server_or_the_model_repeats_is_never_printed_or_written(
    runner: CliRunner, cache_dir: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server echoes the key in the reply's content, its reasoning and a tool call's
    arguments: the answer, the tool-call table, the transcript and the receipt show none."""
    monkeypatch.setenv(KEY_ENV, KEY)
    with serve_openai(key=KEY) as server:
        server.script_chat(
            tool_reply(
                "searchSchema",
                {"query": f"movies for {KEY}"},
                thinking=f"the caller's key is {KEY}",
            ),
            {"content": f"Your key is {KEY} (as JSON: {json.dumps(KEY)})", "thinking": KEY},
        )
        flags = ["--chat-api", "openai", "--chat-url", server.url, "--chat-key-env", KEY_ENV]
        files = ["--transcript", "run.json", "--receipt-json", "receipt.json"]
        result = runner.invoke(app, ["agent", "hi", "--schema", SDL, *flags, *files])
        resent = json.dumps(server.chat_requests[-1]["messages"])
    assert result.exit_code == 0, result.output
    assert "Your key is [redacted]" in result.stdout
    written = (workdir / "run.json").read_text() + (workdir / "receipt.json").read_text()
    assert "[redacted]" in written
    for text in (result.output, written, resent):
        assert KEY not in text


def test_a_settings_file_alone_never_chooses_where_the_key_goes(
    runner: CliRunner,
    cache_dir: Path,
    workdir: Path,
    user_error: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """schemanav.toml naming the key's variable, or the server a key goes to, is refused with
    one line naming the setting, and nothing reaches the server; the same from a flag or the
    environment is the user's choice."""
    monkeypatch.setenv("RTKEY_SECRET", KEY)
    monkeypatch.setenv(KEY_ENV, KEY)
    with serve_openai() as server:
        server.script_chat({"content": "done"}, {"content": "done"})
        toml = workdir / "schemanav.toml"
        toml.write_text(
            f'chat-api = "openai"\nchat-url = "{server.url}"\nchat-key-env = "RTKEY_SECRET"\n'
        )
        named = runner.invoke(app, ["agent", "hi", "--schema", SDL])
        assert "chat_key_env in schemanav.toml cannot choose" in user_error(named, "--chat-key-env")
        toml.write_text(f'chat-api = "openai"\nchat-url = "{server.url}"\n')
        routed = runner.invoke(app, ["agent", "hi", "--schema", SDL, "--chat-key-env", KEY_ENV])
        assert "chat_url in schemanav.toml cannot choose" in user_error(routed, "--chat-url")
        assert server.authorizations == [], "nothing was sent"
        # The destination from a flag (or SCHEMANAV_CHAT_URL) is the user's own choice.
        monkeypatch.setenv("SCHEMANAV_CHAT_URL", server.url)
        chosen = runner.invoke(app, ["agent", "hi", "--schema", SDL, "--chat-key-env", KEY_ENV])
        assert chosen.exit_code == 0, chosen.output
        assert set(server.authorizations) == {f"Bearer {KEY}"}
    for result in (named, routed, chosen):
        assert KEY not in result.output
