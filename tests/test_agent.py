"""The agent loop against a real HTTP server speaking Ollama's chat API (replaying a script)
and a real GraphQL server over the Movie DB; nothing on the client side is patched."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from chat_servers import CHAT_APIS, ModelServer, serve_chat
from schemanav.agent import AgentRun, run_agent
from schemanav.corpus import Corpus, Format
from schemanav.errors import SchemanavError
from schemanav.operations import VALIDATION_HINT
from schemanav.schema import bundled_path
from schemanav.settings import Settings, load_settings
from schemanav.tokens import count_many, count_tokens
from servers.graphql_server import CATALOG, serve_moviedb
from servers.ollama_server import CHAT_MODEL, FakeModel, FakeOllama, serve_ollama

SDL_PATH = bundled_path("moviedb.graphqls")
SECRET = "tok-9f3c1e77a2b54d18"
AUTH_HEADER = f"Authorization: Bearer {SECRET}"
CONTEXT_LENGTH = 32768  # deliberately not qwen3's 40960: proves num_ctx came from /api/show


@dataclass
class Script:
    """Scripted model replies whose prompt_eval_count is what a provider would report for the
    body it received (its own serialisation, so always a little more than our estimate), and a
    record of every count reported, for exact receipt arithmetic."""

    prompt_counts: list[int] = field(default_factory=list)
    completion_counts: list[int] = field(default_factory=list)

    def reply(
        self,
        *,
        content: str = "",
        tool_calls: list[tuple[str, Any]] | None = None,
        eval_count: int = 25,
        evaluated: Callable[[dict[str, Any]], int] | None = None,
        thinking: str = "",
    ) -> Callable[[dict[str, Any]], dict[str, Any]]:
        def answer(body: dict[str, Any]) -> dict[str, Any]:
            prompt = evaluated(body) if evaluated else provider_count(body)
            self.prompt_counts.append(prompt)
            self.completion_counts.append(eval_count)
            return {
                "content": content,
                "tool_calls": [
                    {"function": {"name": name, "arguments": arguments}}
                    for name, arguments in tool_calls or []
                ],
                "prompt_eval_count": prompt,
                "eval_count": eval_count,
                "thinking": thinking,
            }

        return answer


def provider_count(body: dict[str, Any]) -> int:
    return count_tokens(json.dumps(body["messages"]) + json.dumps(body.get("tools") or []))


def tool_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in body["messages"] if m["role"] == "tool"]


def settings_for(server: FakeOllama | ModelServer, tmp_path: Path, **overrides: Any) -> Settings:
    pointing = server.settings() if isinstance(server, ModelServer) else {"ollama_host": server.url}
    values: dict[str, Any] = {
        "schema": str(SDL_PATH),
        "cache_dir": str(tmp_path / "cache"),
        **pointing,
    }
    values.update(overrides)
    return load_settings(**values)


@dataclass
class Recorder:
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def warning(self, message: str) -> None:
        self.warnings.append(message)

    def note(self, message: str) -> None:
        self.notes.append(message)

    def progress(self, description: str, done: int, total: int) -> None:
        pass


@pytest.fixture(params=CHAT_APIS)
def server(request: pytest.FixtureRequest) -> Iterator[ModelServer]:
    """The scenario suite runs on both protocols: the same script, the same assertions."""
    with serve_chat(request.param, CONTEXT_LENGTH) as model_server:
        yield model_server


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    chat_model = FakeModel(CHAT_MODEL, context_length=CONTEXT_LENGTH)
    with serve_ollama(models=[chat_model]) as server:
        yield server


def directors_of(title: str) -> list[str]:
    movie = next(m for m in CATALOG["movies"] if m["title"] == title)
    names = {p["id"]: p["name"] for p in CATALOG["people"]}
    return [
        names[c["personId"]]
        for c in CATALOG["crew"]
        if c["movieId"] == movie["id"] and c["job"] == "DIRECTOR"
    ]


DIRECTOR_QUERY = '{ movies(filter: {titleContains: "Paper Moons"}) { title directors { name } } }'


def full_run_script(script: Script) -> list[Callable[[dict[str, Any]], dict[str, Any]]]:
    return [
        script.reply(tool_calls=[("searchSchema", {"query": "directors of a movie"})]),
        script.reply(tool_calls=[("introspectType", {"name": "MovieFilter"})], eval_count=31),
        script.reply(tool_calls=[("executeGraphql", {"query": DIRECTOR_QUERY})], eval_count=48),
        script.reply(
            content="Paper Moons was directed by Ada Moreno and Lena Okafor.", eval_count=17
        ),
    ]


def test_full_run_search_introspect_execute_answer_with_exact_receipt(
    server: ModelServer, tmp_path: Path, moviedb_corpus: Corpus
) -> None:
    script = Script()
    server.script_chat(*full_run_script(script))
    recorder = Recorder()
    with serve_moviedb(token=SECRET) as graphql:
        settings = settings_for(server, tmp_path, endpoint=graphql.url, header=[AUTH_HEADER])
        run = run_agent("Who directed Paper Moons?", settings, events=recorder)
        assert graphql.last_request.headers["authorization"] == f"Bearer {SECRET}"
    receipt = run.receipt
    requests = server.chat_requests

    assert receipt.stopped == "answered"
    assert receipt.answer == "Paper Moons was directed by Ada Moreno and Lena Okafor."
    assert receipt.model_calls == len(requests) == 4
    assert receipt.prompt_tokens == sum(script.prompt_counts)
    assert receipt.completion_tokens == sum(script.completion_counts) == 25 + 31 + 48 + 17
    assert [call.name for call in receipt.tool_calls] == [
        "searchSchema",
        "introspectType",
        "executeGraphql",
    ]
    assert all(call.ok for call in receipt.tool_calls)
    # What the tools injected is exactly what the last call resent, counted with o200k_base.
    injected = [m["content"] for m in tool_messages(requests[-1])]
    assert [call.payload_tokens for call in receipt.tool_calls] == [
        count_tokens(text) for text in injected
    ]
    assert receipt.tool_payload_tokens == sum(count_tokens(text) for text in injected)
    assert receipt.whole_corpus_tokens == sum(
        count_many(moviedb_corpus.texts(Format.DOT_PLUS_GLOSS))
    )
    assert receipt.schema_in_prompt_tokens == 0
    assert receipt.truncation_warnings == ()
    assert not any("truncat" in w or "dropped" in w for w in recorder.warnings)

    # num_ctx: the model's context length from /api/show, sent on every call.
    assert server.window_queries() == 1
    expected_ctx = CONTEXT_LENGTH if server.api == "ollama" else None
    assert [server.sent_num_ctx(r) for r in requests] == [expected_ctx] * 4
    assert [server.sampling(r) for r in requests] == [(0.0, None)] * 4
    assert receipt.num_ctx == CONTEXT_LENGTH
    # The whole conversation is resent: each call carries every earlier message.
    assert [len(r["messages"]) for r in requests] == [2, 4, 6, 8]
    system = requests[0]["messages"][0]
    assert system["role"] == "system"
    assert "must have appeared in a tool result first" in system["content"]
    assert [t["function"]["name"] for t in requests[0]["tools"]] == [
        "searchSchema",
        "introspectType",
        "executeGraphql",
        "listFields",
        "buildQuery",
    ]

    search_text, introspect_text, execute_text = injected
    assert "Movie.directors" in search_text
    assert search_text.splitlines()[0].endswith("best first:")
    assert "input MovieFilter {" in introspect_text and "titleContains: String" in introspect_text
    data = json.loads(execute_text)["data"]["movies"]
    assert data == [
        {"title": "Paper Moons", "directors": [{"name": n} for n in directors_of("Paper Moons")]}
    ]
    assert run.transcript["messages"][-1] == {"role": "assistant", "content": receipt.answer}
    assert SECRET not in json.dumps(run.transcript) + json.dumps(receipt.as_dict())


def test_validation_errors_come_back_compact_with_the_hint(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    broken = '{ movies(first: "two", filter: {genre: DRAMAS}) { titel } }'
    server.script_chat(
        script.reply(tool_calls=[("executeGraphql", {"query": broken})]),
        script.reply(content="I could not run it."),
    )
    with serve_moviedb() as graphql:
        settings = settings_for(server, tmp_path, endpoint=graphql.url)
        run = run_agent("List drama titles", settings)
        assert graphql.requests == []  # an invalid operation never reaches the endpoint
    (result,) = tool_messages(server.chat_requests[-1])
    text = result["content"]
    lines = text.splitlines()
    assert lines[0] == "invalid operation (3 errors):"
    assert "Did you mean 'title'?" in text
    assert "DRAMAS" in text and "DRAMA" in text
    assert 'Int cannot represent non-integer value: "two"' in text
    assert lines[-1] == f"Hint: {VALIDATION_HINT}."
    # Messages only: no locations, source excerpts or syntax-tree dumps.
    for noise in ("GraphQL request", "line", "column", "kind", "loc", "ValueNode", "{'"):
        assert noise not in text
    assert [call.ok for call in run.receipt.tool_calls] == [False]


def test_unknown_tools_and_malformed_arguments_become_tool_errors(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    server.script_chat(
        script.reply(
            tool_calls=[
                ("runSql", {"query": "select 1"}),
                ("executeGraphql", '{"query": "{ movies { title }'),  # a string, cut short
                ("searchSchema", {}),
                ("introspectType", {"name": 7}),
                ("introspectType", '{"name": "Genre"}'),  # a string that is valid JSON
            ],
            thinking="Let me try everything at once.",
        ),
        script.reply(content="done"),
    )
    run = run_agent("What genres exist?", settings_for(server, tmp_path))
    results = [m["content"] for m in tool_messages(server.chat_requests[-1])]
    assert run.receipt.stopped == "answered"
    assert [c.ok for c in run.receipt.tool_calls] == [False, False, False, False, True]
    assert results[0] == (
        "unknown tool 'runSql': the tools you can call are "
        "searchSchema, introspectType, executeGraphql, listFields, buildQuery"
    )
    assert results[1].startswith("the arguments of executeGraphql are not valid JSON (")
    assert 'send a JSON object such as {"query":' in results[1]
    assert results[2].startswith("searchSchema needs the argument 'query'")
    assert results[3] == "argument 'name' of introspectType must be a string, not int"
    assert results[4].startswith('"""A kind of movie."""\nenum Genre {')
    # The receipt keeps what the model really sent; the transcript too.
    assert run.receipt.tool_calls[1].arguments == '{"query": "{ movies { title }'
    assert run.receipt.tool_calls[4].arguments == {"name": "Genre"}
    recorded = run.transcript["messages"][2]
    assert recorded["tool_calls"][1]["function"]["arguments"] == '{"query": "{ movies { title }'
    assert recorded["thinking"] == "Let me try everything at once."
    # Resent to the model: no thinking, and an object where the arguments did not parse.
    resent = server.chat_requests[1]["messages"][2]
    assert "thinking" not in resent
    assert server.arguments(resent["tool_calls"][1]) == {}
    assert server.arguments(resent["tool_calls"][4]) == {"name": "Genre"}


def test_max_calls_stops_the_loop_and_says_so(server: ModelServer, tmp_path: Path) -> None:
    script = Script()
    server.script_chat(
        *[script.reply(tool_calls=[("searchSchema", {"query": f"q{i}"})]) for i in range(3)]
    )
    recorder = Recorder()
    run = run_agent("Loop forever", settings_for(server, tmp_path, max_calls=2), events=recorder)
    assert run.receipt.stopped == "max_calls"
    assert run.receipt.answer is None
    assert run.receipt.model_calls == len(server.chat_requests) == 2
    # The second reply's tool call is not run: nobody would read its result.
    assert [c.arguments for c in run.receipt.tool_calls] == [{"query": "q0"}]
    assert run.receipt.prompt_tokens == sum(script.prompt_counts)
    assert any("--max-calls 2" in w for w in recorder.warnings)


def test_inline_mode_puts_the_schema_in_the_system_message_and_offers_one_tool(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    query = "{ movies(first: 1) { title } }"
    server.script_chat(
        script.reply(tool_calls=[("searchSchema", {"query": "movies"})]),
        script.reply(tool_calls=[("executeGraphql", {"query": query})]),
        script.reply(content="ok"),
    )
    run = run_agent("Name one movie", settings_for(server, tmp_path), inline=True)
    first = server.chat_requests[0]
    sdl = SDL_PATH.read_text(encoding="utf-8")
    assert first["messages"][0]["role"] == "system"
    assert first["messages"][0]["content"].endswith(sdl)
    assert [t["function"]["name"] for t in first["tools"]] == ["executeGraphql"]
    receipt = run.receipt
    assert receipt.mode == "inline"
    assert receipt.schema_in_prompt_tokens == count_tokens(sdl)
    assert receipt.prompt_tokens == sum(script.prompt_counts)
    assert [(c.name, c.ok) for c in receipt.tool_calls] == [
        ("searchSchema", False),
        ("executeGraphql", True),
    ]
    results = [m["content"] for m in tool_messages(server.chat_requests[-1])]
    assert results[0] == "unknown tool 'searchSchema': the tools you can call are executeGraphql"
    assert "it was not executed because no endpoint is configured" in results[1]


def test_a_prompt_the_provider_did_not_fully_evaluate_raises_a_truncation_warning(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    server.script_chat(
        script.reply(content="answer from a truncated prompt", evaluated=lambda body: 150),
    )
    recorder = Recorder()
    run = run_agent("Which movies are there?", settings_for(server, tmp_path), events=recorder)
    (warning,) = run.receipt.truncation_warnings
    assert warning.call == 1
    assert warning.evaluated_tokens == 150
    assert warning.sent_tokens > 150 / 0.85
    (message,) = [w for w in recorder.warnings if "call 1" in w]
    assert f"sent about {warning.sent_tokens:,} tokens" in message
    assert "evaluated 150" in message and "--num-ctx" in message


def test_inline_schema_over_half_the_window_warns_before_the_first_call(
    ollama: FakeOllama, tmp_path: Path
) -> None:
    num_ctx = 2048
    sdl_tokens = count_tokens(SDL_PATH.read_text(encoding="utf-8"))
    assert sdl_tokens > num_ctx // 2
    script = Script()
    # Ollama keeps at most about half the window of an oversized prompt.
    ollama.script_chat(script.reply(content="?", evaluated=lambda body: num_ctx // 2))
    recorder = Recorder()
    run = run_agent(
        "Name a studio",
        settings_for(ollama, tmp_path, num_ctx=num_ctx),
        inline=True,
        events=recorder,
    )
    before, first = run.receipt.truncation_warnings
    assert (before.call, before.sent_tokens, before.evaluated_tokens) == (0, sdl_tokens, None)
    assert (first.call, first.evaluated_tokens) == (1, num_ctx // 2)
    assert first.sent_tokens > sdl_tokens
    assert ollama.chat_requests[0]["options"]["num_ctx"] == num_ctx
    assert "navigate instead of inlining" in recorder.warnings[0]
    assert len(recorder.warnings) == 2


def test_mutations_are_refused_unless_allowed(server: ModelServer, tmp_path: Path) -> None:
    mutation = 'mutation { createMovie(input: {title: "New", releaseYear: 2001}) { id } }'
    for allowed in (False, True):
        script = Script()
        server.script_chat(
            script.reply(tool_calls=[("executeGraphql", {"query": mutation})]),
            script.reply(content="done"),
        )
        with serve_moviedb() as graphql:
            settings = settings_for(server, tmp_path, endpoint=graphql.url, allow_mutations=allowed)
            run = run_agent("Add a movie", settings)
            titles = [m["title"] for m in graphql.store.tables["movies"]]
        (call,) = run.receipt.tool_calls
        assert call.ok is allowed
        assert ("New" in titles) is allowed
        if not allowed:
            assert graphql.requests == []
            result = tool_messages(server.chat_requests[-1])[0]["content"]
            assert "--allow-mutations" in result


def test_long_responses_are_cut_to_the_token_cap_with_a_note(
    server: ModelServer, tmp_path: Path
) -> None:
    query = "{ movies { id title plot releaseYear genres reviews { body score } } }"
    script = Script()
    server.script_chat(
        script.reply(tool_calls=[("executeGraphql", {"query": query})]),
        script.reply(content="done"),
    )
    cap = 60
    with serve_moviedb() as graphql:
        settings = settings_for(server, tmp_path, endpoint=graphql.url, response_token_cap=cap)
        run_agent("Everything about every movie", settings)
        full = json.dumps(graphql_response(graphql.url, query), ensure_ascii=False)
    text = tool_messages(server.chat_requests[-1])[0]["content"]
    kept, note = text.rsplit("\n", 1)
    assert note == (
        f"[response cut to {cap} of {count_tokens(full)} tokens (o200k_base); "
        "select fewer fields or ask for fewer items]"
    )
    assert full.startswith(kept) and len(kept) < len(full)
    assert count_tokens(kept) <= cap


def graphql_response(url: str, query: str) -> Any:
    import httpx

    return httpx.post(url, json={"query": query}, timeout=10).json()


def test_header_values_never_leave_the_run(server: ModelServer, tmp_path: Path) -> None:
    catalog = json.loads(json.dumps(CATALOG))
    catalog["movies"][0]["plot"] = f"A plot that happens to contain {SECRET}."
    script = Script()
    query = "{ movies { title plot } }"
    server.script_chat(
        script.reply(tool_calls=[("executeGraphql", {"query": query})]),
        script.reply(content="done"),
    )
    with serve_moviedb(token=SECRET, catalog=catalog) as graphql:
        settings = settings_for(server, tmp_path, endpoint=graphql.url, header=[AUTH_HEADER])
        run = run_agent("Plots?", settings)
        assert graphql.last_request.headers["authorization"] == f"Bearer {SECRET}"
    result = tool_messages(server.chat_requests[-1])[0]["content"]
    assert "A plot that happens to contain [redacted]." in result
    everything = json.dumps(server.chat_requests) + json.dumps(run.transcript)
    assert SECRET not in everything + json.dumps(run.receipt.as_dict())


def test_a_model_server_failure_mid_run_ends_with_an_error_receipt(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    server.script_chat(script.reply(tool_calls=[("introspectType", {"name": "Studio"})]))
    run = run_agent("Studios?", settings_for(server, tmp_path))  # 2nd call: script is empty
    assert run.receipt.stopped == "error"
    assert run.receipt.model_calls == 1
    assert run.receipt.prompt_tokens == sum(script.prompt_counts)
    assert run.receipt.error is not None and "HTTP 500" in run.receipt.error
    assert [c.name for c in run.receipt.tool_calls] == ["introspectType"]


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_ollama_unreachable_is_one_line_error(tmp_path: Path) -> None:
    host = closed_port_url()
    settings = load_settings(schema=str(SDL_PATH), ollama_host=host, cache_dir=str(tmp_path))
    with pytest.raises(SchemanavError) as caught:
        run_agent("anything", settings)
    assert caught.value.message == (
        f"cannot reach Ollama at {host}: is `ollama serve` running? "
        "(set the address with --ollama-host or OLLAMA_HOST)"
    )
    assert caught.value.exit_code == 1


def test_missing_model_says_how_to_pull_it(ollama: FakeOllama, tmp_path: Path) -> None:
    settings = settings_for(ollama, tmp_path, model="llama9:1b")
    with pytest.raises(SchemanavError) as caught:
        run_agent("anything", settings)
    assert caught.value.message == (
        f"model llama9:1b is not available in Ollama at {ollama.url}: run `ollama pull llama9:1b`"
    )
    assert ollama.chat_requests == []


def test_an_explicit_num_ctx_wins_over_the_models_length(
    server: ModelServer, tmp_path: Path
) -> None:
    script = Script()
    server.script_chat(script.reply(content="hi"))
    run: AgentRun = run_agent("hi", settings_for(server, tmp_path, num_ctx=8192))
    assert run.receipt.num_ctx == 8192
    assert server.sent_num_ctx(server.chat_requests[0]) == (
        8192 if server.api == "ollama" else None
    )
