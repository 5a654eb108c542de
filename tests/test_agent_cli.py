"""`schemanav agent` end to end: fake Ollama and the Movie DB server on 127.0.0.1, the real CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from schemanav.cli import app
from servers.graphql_server import serve_moviedb
from servers.ollama_server import FakeOllama, serve_ollama
from test_agent import (
    AUTH_HEADER,
    DIRECTOR_QUERY,
    SDL_PATH,
    SECRET,
    Script,
    closed_port_url,
    full_run_script,
    tool_messages,
)

RECEIPT_KEYS = {
    "task",
    "model",
    "mode",
    "num_ctx",
    "model_calls",
    "prompt_tokens",
    "completion_tokens",
    "tool_payload_tokens",
    "whole_corpus_tokens",
    "schema_in_prompt_tokens",
    "tool_calls",
    "answer",
    "stopped",
    "truncation_warnings",
    "error",
    "chat_api",
    "temperature",
    "seed",
}


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with serve_ollama() as server:
        yield server


def invoke(args: list[str], tmp_path: Path) -> Result:
    env = {"SCHEMANAV_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "200"}
    return CliRunner().invoke(app, ["agent", *args], env=env)


def test_agent_command_prints_the_answer_and_receipt_and_writes_both_files(
    ollama: FakeOllama, tmp_path: Path
) -> None:
    script = Script()
    ollama.script_chat(*full_run_script(script))
    receipt_path, transcript_path = tmp_path / "receipt.json", tmp_path / "transcript.json"
    with serve_moviedb(token=SECRET) as graphql:
        result = invoke(
            [
                "Who directed Paper Moons?",
                "--schema",
                str(SDL_PATH),
                "--ollama-host",
                ollama.url,
                "--endpoint",
                graphql.url,
                "--header",
                AUTH_HEADER,
                "--budget",
                "120",
                "--receipt-json",
                str(receipt_path),
                "--transcript",
                str(transcript_path),
            ],
            tmp_path,
        )
    assert result.exit_code == 0, result.stderr
    stdout, stderr = result.stdout, result.stderr
    # piped: plain columns, as docs/usage.md promises, never a box
    assert not any(char in stdout for char in "┃│━┏")
    assert "prompt tokens (provider, summed over calls)  " in stdout

    receipt = json.loads(receipt_path.read_text(encoding="utf-8"))
    assert set(receipt) == RECEIPT_KEYS
    assert receipt["mode"] == "navigate" and receipt["stopped"] == "answered"
    assert receipt["model_calls"] == 4
    assert receipt["prompt_tokens"] == sum(script.prompt_counts)
    assert receipt["completion_tokens"] == sum(script.completion_counts)
    assert [c["name"] for c in receipt["tool_calls"]] == [
        "searchSchema",
        "introspectType",
        "executeGraphql",
    ]
    assert receipt["tool_calls"][2]["arguments"] == {"query": DIRECTOR_QUERY}

    transcript = json.loads(transcript_path.read_text(encoding="utf-8"))
    assert [m["role"] for m in transcript["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    injected = [m["content"] for m in tool_messages(ollama.chat_requests[-1])]
    assert [m["content"] for m in transcript["messages"] if m["role"] == "tool"] == injected
    # The --budget dial reached searchSchema.
    assert injected[0].splitlines()[0].endswith("of 120 budget tokens), best first:")

    assert "Paper Moons was directed by Ada Moreno and Lena Okafor." in stdout
    assert f"{receipt['prompt_tokens']:,}" in stdout
    assert f"{receipt['tool_payload_tokens']:,}" in stdout
    assert f"{receipt['whole_corpus_tokens']:,}" in stdout
    assert "ended: the model answered" in stdout
    assert "call 1: searchSchema" in stderr and "num_ctx 40,960" in stderr
    outputs = [stdout, stderr, receipt_path.read_text(), transcript_path.read_text()]
    assert all(SECRET not in text for text in outputs)


def test_agent_command_checks_ollama_before_loading_the_schema(tmp_path: Path) -> None:
    host = closed_port_url()
    absent = tmp_path / "absent.graphql"  # would be an error of its own, later
    result = invoke(["anything", "--ollama-host", host, "--schema", str(absent)], tmp_path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"error: cannot reach Ollama at {host}: is `ollama serve` running? "
        "(set the address with --ollama-host or OLLAMA_HOST)\n"
    )


def test_agent_command_when_the_host_is_not_ollama(tmp_path: Path) -> None:
    from http.server import BaseHTTPRequestHandler

    from servers.loopback import LoopbackServer, serving

    class ErrorPage(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = b"<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1>\n</body></html>\n"
            self.send_response(502)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with serving(LoopbackServer(ErrorPage)) as server:
        host = server.url
        result = invoke(["anything", "--ollama-host", host], tmp_path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"error: {host} answered HTTP 502 with a page that is not Ollama's: "
        "is --ollama-host (or OLLAMA_HOST) the address of Ollama?\n"
    )


def test_agent_command_when_the_model_is_missing(ollama: FakeOllama, tmp_path: Path) -> None:
    result = invoke(["anything", "--ollama-host", ollama.url, "--model", "nope:7b"], tmp_path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"error: model nope:7b is not available in Ollama at {ollama.url}: "
        "run `ollama pull nope:7b`\n"
    )


def test_agent_command_prints_the_receipt_before_a_mid_run_error(
    ollama: FakeOllama, tmp_path: Path
) -> None:
    script = Script()
    ollama.script_chat(script.reply(tool_calls=[("introspectType", {"name": "Studio"})]))
    receipt_path = tmp_path / "receipt.json"
    result = invoke(
        ["Studios?", "--ollama-host", ollama.url, "--receipt-json", str(receipt_path)], tmp_path
    )
    assert result.exit_code == 1
    assert "ended: stopped by an error" in result.stdout
    assert result.stderr.splitlines()[-1].startswith("error: Ollama at ")
    receipt = json.loads(receipt_path.read_text(encoding="utf-8"))
    assert receipt["stopped"] == "error" and receipt["model_calls"] == 1
