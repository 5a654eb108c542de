"""The fake Ollama speaks the API the real `ollama` client expects (shapes, status codes)."""

from __future__ import annotations

import math

import httpx
import ollama
import pytest

from servers.ollama_server import CHAT_MODEL, EMBEDDING_MODEL, FakeModel, serve_ollama


def test_version_and_tags_parse_in_the_real_client() -> None:
    with serve_ollama() as server:
        client = ollama.Client(host=server.url)
        listing = client.list()
        assert httpx.get(f"{server.url}/api/version").json()["version"]
        assert httpx.get(server.url).text == "Ollama is running"
    names = [model.model for model in listing.models]
    assert names == [f"{EMBEDDING_MODEL}:latest", CHAT_MODEL]
    for model in listing.models:
        assert model.digest is not None and len(model.digest) == 64
        assert model.details is not None and model.details.family == "qwen3"


def test_show_reports_model_info_and_capabilities() -> None:
    with serve_ollama(dims=48) as server:
        shown = ollama.Client(host=server.url).show(EMBEDDING_MODEL)
    assert shown.capabilities == ["embedding"]
    assert shown.modelinfo is not None
    assert shown.modelinfo["general.architecture"] == "qwen3"
    assert shown.modelinfo["qwen3.context_length"] == 40960
    assert shown.modelinfo["qwen3.embedding_length"] == 48


def test_unknown_models_are_404_with_ollamas_messages() -> None:
    with serve_ollama() as server:
        client = ollama.Client(host=server.url)
        with pytest.raises(ollama.ResponseError) as embed_error:
            client.embed(model="missing", input="x")
        with pytest.raises(ollama.ResponseError) as show_error:
            client.show("missing")
        with pytest.raises(ollama.ResponseError) as chat_error:
            client.chat(model="missing", messages=[{"role": "user", "content": "hi"}])
    assert embed_error.value.status_code == 404
    assert embed_error.value.error == 'model "missing" not found, try pulling it first'
    assert show_error.value.status_code == 404
    assert chat_error.value.status_code == 404


def test_embeddings_are_deterministic_normalised_and_word_based() -> None:
    with serve_ollama(dims=32) as server:
        client = ollama.Client(host=server.url)
        first = client.embed(model=EMBEDDING_MODEL, input=["release date", "Release  DATE!"])
        second = client.embed(model=EMBEDDING_MODEL, input="the birth date of a person")
        empty = client.embed(model=EMBEDDING_MODEL, input=[])
    a, b = first.embeddings
    (c,) = second.embeddings
    assert len(a) == 32
    assert a == b  # case and punctuation do not matter, words do
    assert math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-9)
    assert sum(x * y for x, y in zip(a, c, strict=True)) < 1.0
    assert first.model == f"{EMBEDDING_MODEL}:latest"
    assert first.prompt_eval_count is not None and first.prompt_eval_count > 0
    assert list(empty.embeddings) == []
    assert server.embed_inputs == [
        ["release date", "Release  DATE!"],
        ["the birth date of a person"],
        [],
    ]


def test_misbehaviour_switches() -> None:
    with serve_ollama(wrong_count=True) as server:
        client = ollama.Client(host=server.url)
        assert len(client.embed(model=EMBEDDING_MODEL, input=["a", "b", "c"]).embeddings) == 2
        server.options.wrong_count = False
        server.options.inconsistent_dims = True
        sizes = {len(v) for v in client.embed(model=EMBEDDING_MODEL, input=["a", "b"]).embeddings}
        assert sizes == {256, 257}
        server.options.inconsistent_dims = False
        server.options.embed_delay = 2.0
        with pytest.raises(httpx.ReadTimeout):
            ollama.Client(host=server.url, timeout=0.2).embed(model=EMBEDDING_MODEL, input="a")


def test_embedding_requires_an_embedding_model() -> None:
    with serve_ollama() as server, pytest.raises(ollama.ResponseError) as caught:
        ollama.Client(host=server.url).embed(model=CHAT_MODEL, input="x")
    assert caught.value.status_code == 400


def test_scripted_chat_answers_in_order_and_records_requests() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "search_schema",
                "description": "Search the schema.",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
            },
        }
    ]
    with serve_ollama() as server:
        server.script_chat(
            {
                "content": "",
                "tool_calls": [
                    {"function": {"name": "search_schema", "arguments": {"query": "movie"}}}
                ],
                "prompt_eval_count": 120,
                "eval_count": 17,
            },
            lambda request: {"content": f"saw {len(request['messages'])} messages"},
        )
        client = ollama.Client(host=server.url)
        messages = [{"role": "user", "content": "find movies"}]
        first = client.chat(model=CHAT_MODEL, messages=messages, tools=tools)
        second = client.chat(
            model=CHAT_MODEL,
            messages=[*messages, {"role": "tool", "content": "[]", "tool_name": "search_schema"}],
        )
        with pytest.raises(ollama.ResponseError) as exhausted:
            client.chat(model=CHAT_MODEL, messages=messages)
        recorded = server.chat_requests

    assert first.done and first.done_reason == "stop"
    assert (first.prompt_eval_count, first.eval_count) == (120, 17)
    assert first.message.tool_calls is not None
    call = first.message.tool_calls[0].function
    assert (call.name, dict(call.arguments)) == ("search_schema", {"query": "movie"})
    assert second.message.content == "saw 2 messages"
    assert exhausted.value.status_code == 500
    assert recorded[0]["tools"][0]["function"]["name"] == "search_schema"
    assert recorded[0]["stream"] is False
    assert len(recorded) == 3


def test_streaming_chat_ends_with_a_done_chunk() -> None:
    with serve_ollama() as server:
        server.script_chat({"content": "hello", "eval_count": 3})
        chunks = list(
            ollama.Client(host=server.url).chat(
                model=CHAT_MODEL, messages=[{"role": "user", "content": "hi"}], stream=True
            )
        )
    assert "".join(chunk.message.content or "" for chunk in chunks) == "hello"
    assert chunks[-1].done and chunks[-1].eval_count == 3


def test_tools_need_a_model_that_supports_them() -> None:
    plain = FakeModel("tiny:1b", capabilities=("completion",))
    with serve_ollama(models=[plain]) as server:
        server.script_chat({"content": "unused"})
        with pytest.raises(ollama.ResponseError) as caught:
            ollama.Client(host=server.url).chat(
                model="tiny:1b",
                messages=[{"role": "user", "content": "hi"}],
                tools=[{"type": "function", "function": {"name": "f", "parameters": {}}}],
            )
    assert caught.value.status_code == 400
    assert "does not support tools" in caught.value.error


def test_bad_requests_get_ollama_style_errors() -> None:
    with serve_ollama() as server:
        bad_json = httpx.post(f"{server.url}/api/embed", content=b"{not json")
        no_model = httpx.post(f"{server.url}/api/embed", json={"input": "x"})
        unknown = httpx.get(f"{server.url}/api/nothing")
    assert bad_json.status_code == 400 and "error" in bad_json.json()
    assert no_model.status_code == 400 and no_model.json() == {"error": "model is required"}
    assert unknown.status_code == 404
