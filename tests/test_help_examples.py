"""Every command's help ends with two or three real examples, and those that need nothing
but the bundled Movie DB run as written (exit 0); the help texts issue 42 found wrong."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from schemanav.cli import app
from schemanav.defaults import COMMAND_EXAMPLES

COMMANDS = sorted(COMMAND_EXAMPLES)
# Examples naming the user's own files, servers or task stand for them and are not run here.
PLACEHOLDERS = (
    "schema.graphqls",
    "questions.tsv",
    "old.graphqls",
    "query.graphql",
    "URL",
    "TASK",
    "ops/",
    "http",
    "agent ",
    "agent-bench",
    "|",
    "<",
    "serve",
    "mcp",
)  # fmt: skip (servers run until stopped)


def _help(command: str) -> str:
    result = CliRunner().invoke(app, [command, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_command_has_examples() -> None:
    registered = {
        command.name or (command.callback.__name__ if command.callback else "")
        for command in app.registered_commands
    }
    assert registered == set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_the_help_ends_with_its_examples(command: str) -> None:
    text = _help(command).rstrip("\n")
    examples = COMMAND_EXAMPLES[command]
    assert 2 <= len(examples) <= 3
    tail = text.split("\n")[-len(examples) - 1 :]
    assert tail[0].strip() == "Examples:"
    assert [line.strip() for line in tail[1:]] == [f"$ {example}" for example in examples]
    assert all(example.startswith(f"schemanav {command}") or "|" in example for example in examples)


RUNNABLE = [
    example
    for examples in COMMAND_EXAMPLES.values()
    for example in examples
    if not any(mark in example for mark in PLACEHOLDERS)
]


@pytest.mark.parametrize("example", RUNNABLE)
def test_an_example_on_the_bundled_schema_runs(
    example: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    result = CliRunner().invoke(app, shlex.split(example)[1:])
    assert result.exit_code == 0, result.output


def test_the_texts_issue_42_found_wrong() -> None:
    assert "Movie DB" not in _help("diff").split("--bench-file", 1)[1].split("--", 1)[0]
    for command in ("serve", "validate", "corpus"):
        header = _help(command).split("--header", 1)[1].split("\n  -", 1)[0]
        assert "--endpoint" not in header, command
    agent = " ".join(_help("agent").split())
    for tool in ("searchSchema", "introspectType", "listFields", "buildQuery", "executeGraphql"):
        assert tool in agent
    assert "agent default" not in _help("search")
