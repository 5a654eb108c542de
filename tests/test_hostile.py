"""Hostile input, bounded resources: every class of bad input ends in one clean line.

Most classes run through the CLI. Those whose memory or time is the point (files and live
responses past the byte cap, a gzip bomb, an endless body, a long question for BM25, a
multi-megabyte tool argument, four concurrent cold `bench` runs) run in subprocesses under a
memory and CPU limit set in the child (`setrlimit`, then exec), all started at once when the
module begins; the others (depth, redaction, headers, URLs, caps on tool calls) run the same CLI
in this process, where a run costs milliseconds instead of an interpreter start. Servers are
real HTTP servers on 127.0.0.1 started here; inputs are sized just past each limit, the large
limits lowered through the environment.
"""

from __future__ import annotations

import base64
import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from schemanav.cache import read_checked
from schemanav.errors import InputError, SchemanavError
from schemanav.events import SilentEvents
from schemanav.limits import (
    MAX_QUESTION_CHARS,
    MAX_TOOL_CALLS_PER_REPLY,
    MAX_TOOL_CALLS_PER_RUN,
)
from schemanav.navigator import Navigator
from schemanav.outputs import write_output_file
from schemanav.text import strip_control
from servers.hostile import (
    HostileServer,
    Route,
    drip,
    echo_authorization,
    endless,
    gzip_bomb,
    reply,
    send,
    serving,
)

# Slow tier: hostile servers, limited subprocesses and property tests.
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]
MOVIEDB = REPO_ROOT / "src" / "schemanav" / "data" / "moviedb.graphqls"
MEMORY_LIMIT = 3 * 1024**3  # address space of each CLI process
CPU_SECONDS = 60
SECRET = 'sk-Zq9"Xw\\' + "Hf3Kp7Lm2Nb8Vc4Xz6Qw1Er5Ty0Ui9Op3As7Df2Gh6Jk4Lz8Xc1Vb5Nm0Qa2Ws"
URL_PASSWORD = "s3cr3t-pass-4u"
SMALL_SDL = '"The root."\ntype Query { movie: Movie }\ntype Movie { title: String rating: Float }\n'


def introspection() -> dict[str, Any]:
    from schemanav.schema import load_schema

    result: dict[str, Any] = json.loads(load_schema(str(MOVIEDB)).introspection_json())
    return result


def model_show() -> Route:
    return reply(
        {
            "modelfile": "FROM fake",
            "details": {"family": "fake", "format": "gguf"},
            "model_info": {"general.architecture": "fake", "fake.context_length": 32768},
            "capabilities": ["completion", "tools"],
        }
    )


def chat_message(content: str = "", tool_calls: list[dict[str, Any]] | None = None) -> Any:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [{"function": call} for call in tool_calls]
    return {
        "model": "fake",
        "created_at": "2026-01-01T00:00:00Z",
        "message": message,
        "done": True,
        "prompt_eval_count": 10,
        "eval_count": 5,
    }


SEARCH_CALL = {"name": "searchSchema", "arguments": {"query": "movie rating"}}


# --- running the CLI ----------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    workdir: Path


# The limits are set in the child before it runs the CLI: a small launcher calls setrlimit and
# then execs the CLI (a preexec_fn is unsafe here, where threads start processes at once).
LAUNCHER = (
    "import os, resource, sys\n"
    f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_LIMIT}, {MEMORY_LIMIT}))\n"
    f"resource.setrlimit(resource.RLIMIT_CPU, ({CPU_SECONDS}, {CPU_SECONDS}))\n"
    "os.execv(sys.executable, [sys.executable, '-m', 'schemanav', *sys.argv[1:]])\n"
)


def cli(
    workdir: Path,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 60,
) -> Run:
    workdir.mkdir(parents=True, exist_ok=True)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SCHEMANAV_", "OLLAMA_"))}
    base["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    base.setdefault("SCHEMANAV_CACHE_DIR", str(workdir / "cache"))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", LAUNCHER, *args],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
        cwd=workdir,
        env={**base, **(env or {})},
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr, time.monotonic() - started, workdir)


def inline(workdir: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    """The CLI in this process (for the cases whose cost no limit needs to watch)."""
    from typer.testing import CliRunner

    from schemanav.cli import app

    clean: dict[str, str | None] = {k: None for k in os.environ if k.startswith("SCHEMANAV_")}
    clean["SCHEMANAV_CACHE_DIR"] = str(workdir / "cache")
    started = time.monotonic()
    result = CliRunner().invoke(app, list(args), env={**clean, **(env or {})})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr, time.monotonic() - started, workdir)


def refused(run: Run, exit_code: int, *fragments: str, alone: bool = True) -> str:
    """Exit code, no traceback, the `error:` line last on stderr (the only line when `alone`)."""
    everything = run.stdout + run.stderr
    assert "Traceback" not in everything, everything[-3000:]
    assert run.returncode == exit_code, (run.returncode, run.stderr[-2000:])
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1 and lines[-1] == errors[0], run.stderr[-2000:]
    if alone:
        assert len(lines) == 1, run.stderr[-2000:]
    for fragment in fragments:
        assert fragment in errors[0], (fragment, errors[0])
    assert strip_control(errors[0]) == errors[0]
    return errors[0]


def no_secret(text: str) -> None:
    escaped = json.dumps(SECRET)[1:-1]
    for i in range(0, len(SECRET) - 8):
        assert SECRET[i : i + 8] not in text, SECRET[i : i + 8]
        assert escaped[i : i + 8] not in text, escaped[i : i + 8]


# --- the cases, all started at once --------------------------------------------------------


class Cases:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.pool = ThreadPoolExecutor(max_workers=8)
        self.futures: dict[str, Future[Any]] = {}

    def start(self, name: str, work: Callable[[Path], Any]) -> None:
        self.futures[name] = self.pool.submit(work, self.root / name)

    def cli(self, name: str, *args: str, **options: Any) -> None:
        self.start(name, lambda workdir: cli(workdir, *args, **options))

    def __getitem__(self, name: str) -> Any:
        return self.futures[name].result(timeout=120)


def wide_interface_schema(implementations: int) -> str:
    types = "".join(
        f"type T{i} implements Node {{ id: ID! other: Node label{i}: String }}\n"
        for i in range(implementations)
    )
    root = "interface Node { id: ID! other: Node }\ntype Query { node(id: ID!): Node }\n"
    return root + types


def _write(path: Path, data: str | bytes) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return str(path)


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, HostileServer]]:
    """The live schema server: a gzip bomb, an endless body, a drip, credential echoes."""
    with serving(
        {
            "/bomb": reply(gzip_bomb(64), gzipped=True),
            "/endless": endless,
            "/drip": drip,
            "/echo": echo_authorization("token {} is not allowed"),
            "/record": lambda handler, _body: send(
                handler,
                {
                    "data": {
                        "__schema": {
                            "queryType": {"name": "Query"},
                            "types": [
                                {
                                    "kind": "OBJECT",
                                    "name": "Query",
                                    "fields": handler.headers.get("Authorization"),
                                }
                            ],
                            "directives": [],
                        }
                    }
                },
            ),
        }
    ) as schema_server:
        yield {"schema": schema_server}


def agent_args(server: HostileServer, workdir: Path, *args: str) -> list[str]:
    return [
        "agent",
        "what is the rating of a movie?",
        "--model",
        "fake",
        "--ollama-host",
        server.url,
        "--receipt-json",
        str(workdir / "receipt.json"),
        "--transcript",
        str(workdir / "transcript.json"),
        *args,
    ]


def model_server(replies: list[Route]) -> AbstractContextManager[HostileServer]:
    """An Ollama-speaking server that answers each chat call with the next of `replies`."""
    return serving({"/api/show": model_show(), "/api/chat": replies})


@pytest.fixture(scope="module")
def cases(
    tmp_path_factory: pytest.TempPathFactory, servers: dict[str, HostileServer]
) -> Iterator[Cases]:
    """The cases whose memory or time is the point, each in a limited subprocess, at once."""
    root = tmp_path_factory.mktemp("hostile")
    inputs = root / "inputs"
    started = Cases(root)
    small = {"SCHEMANAV_MAX_SCHEMA_BYTES": "4096"}

    over = _write(inputs / "over.graphqls", SMALL_SDL + "#" * (4097 - len(SMALL_SDL)) + "\n")
    started.cli("file_over_cap", "corpus", "--schema", over, "--json", env=small)
    started.cli("device_over_cap", "corpus", "--schema", "/dev/zero", env=small)

    # One argv string is at most 128 KiB on Linux; the agent case below sends megabytes.
    long_question = "movie rating " * 9_000
    started.cli("question_long_bm25", "search", long_question, "--backend", "bm25")

    url = servers["schema"].url
    one_mib = {"SCHEMANAV_MAX_SCHEMA_BYTES": str(1024 * 1024)}
    started.cli("gzip_bomb", "corpus", "--schema", f"{url}/bomb", env=one_mib)
    started.cli("endless_body", "corpus", "--schema", f"{url}/endless", env=one_mib)

    # One interface that 3,000 types implement, each with a field returning it: a graph with
    # a fragment edge per implementation, not one per field and implementation (9 million).
    wide = _write(inputs / "wide.graphqls", wide_interface_schema(3_000))
    started.cli("wide_interface", "search", "label 7 of type 7", "--slice", "--schema", wide)

    huge = {"name": "searchSchema", "arguments": {"query": "movie rating " * 160_000}}
    with model_server(
        [reply(chat_message(tool_calls=[huge])), reply(chat_message("Movie.rating"))]
    ) as model:
        started.cli("huge_tool_argument", *agent_args(model, root / "huge_tool_argument"))
        yield started
        started.pool.shutdown(wait=False, cancel_futures=True)


# --- schema files -------------------------------------------------------------------------


def test_a_schema_file_over_the_byte_cap_is_refused(cases: Cases, tmp_path: Path) -> None:
    refused(cases["file_over_cap"], 2, "larger than 4 KiB", "SCHEMANAV_MAX_SCHEMA_BYTES")
    # A device has no size to check first: the read itself stops at the cap.
    refused(cases["device_over_cap"], 2, "/dev/zero", "larger than 4 KiB")
    under = _write(tmp_path / "under.graphqls", SMALL_SDL + "#" * (4000 - len(SMALL_SDL)) + "\n")
    run = inline(tmp_path, "corpus", "--schema", under, env={"SCHEMANAV_MAX_SCHEMA_BYTES": "4096"})
    assert run.returncode == 0, run.stderr


def test_an_interface_with_thousands_of_implementations_is_sliced(cases: Cases) -> None:
    run = cases["wide_interface"]
    assert run.returncode == 0, run.stderr[-2000:]
    assert "T7" in run.stdout and "label7" in run.stdout


def test_json_nested_thousands_deep_is_one_line(tmp_path: Path) -> None:
    deep = _write(tmp_path / "deep.json", '{"data": {"__schema": ' + "[" * 5000 + "]" * 5000 + "}}")
    refused(inline(tmp_path, "corpus", "--schema", deep), 2, "deep.json", "nested too deeply")


def test_an_oftype_chain_past_the_limit_is_one_line(tmp_path: Path) -> None:
    chain = introspection()
    query_type = next(t for t in chain["data"]["__schema"]["types"] if t["name"] == "Query")
    ref: dict[str, Any] = {"kind": "OBJECT", "name": "Movie", "ofType": None}
    for _ in range(40):
        ref = {"kind": "LIST", "name": None, "ofType": ref}
    query_type["fields"][0]["type"] = ref
    chain_file = _write(tmp_path / "chain.json", json.dumps(chain))
    run = inline(tmp_path, "corpus", "--schema", chain_file)
    refused(run, 2, "chain.json", "more than 32 ofType wrappers")


def test_sdl_nested_thousands_deep_is_one_line(tmp_path: Path) -> None:
    deep = _write(
        tmp_path / "deep.graphqls", "type Query { a: " + "[" * 5000 + "Int" + "]" * 5000 + " }"
    )
    refused(inline(tmp_path, "corpus", "--schema", deep), 2, "deep.graphqls", "nested too deeply")


def test_duplicate_definitions_are_warned_about(tmp_path: Path) -> None:
    dup = "type Query { a: Int a: String b: T }\ntype T { x: Int }\ntype T { y: Int }\n"
    run = inline(tmp_path, "corpus", "--schema", _write(tmp_path / "dup.graphqls", dup), "--json")
    assert run.returncode == 0, run.stderr
    warned = [line for line in run.stderr.splitlines() if line.startswith("warning:")]
    assert len(warned) == 1, run.stderr
    assert "breaks 2 GraphQL spec rules" in warned[0]  # type T twice, field Query.a twice
    assert "type T is defined 2 times; only the last definition is used" in warned[0]
    assert json.loads(run.stdout)["coordinates"] == 3  # Query.a, Query.b, T.y: the last wins


def test_terminal_escapes_in_user_text_are_stripped(tmp_path: Path) -> None:
    hostile = "\x1b]0;owned\x07\x1b[2Jmissing.graphqls"
    run = inline(tmp_path, "corpus", "--schema", hostile)
    line = refused(run, 2, "schema file not found", "missing.graphqls")
    assert "\x1b" not in line and "\x07" not in line and "owned" not in line


# --- questions and tool arguments ---------------------------------------------------------


def test_questions_are_capped_at_the_documented_length(cases: Cases, tmp_path: Path) -> None:
    assert inline(tmp_path, "search", "r" * MAX_QUESTION_CHARS, "--json").returncode == 0
    run = inline(tmp_path, "search", "r" * (MAX_QUESTION_CHARS + 1))
    refused(run, 2, "1,025 characters", "limit is 1,024")
    refused(cases["question_long_bm25"], 2, "117,000 characters", "limit is 1,024")


def test_invalid_url_and_header_are_bad_input(tmp_path: Path) -> None:
    run = inline(tmp_path, "corpus", "--schema", "http://127.0.0.1:notaport/graphql")
    refused(run, 2, "invalid schema URL", "port")
    header = "Authorization: Bearer sk-\u00e9t\u00e9-secret"
    run = inline(tmp_path, "corpus", "--schema", "http://127.0.0.1:9/", "--header", header)
    line = refused(run, 2, "Authorization", "non-ASCII")
    assert "secret" not in line and "sk-" not in line


def test_define_prints_introspection_coordinates(tmp_path: Path) -> None:
    run = inline(tmp_path, "define", "__Type.fields", "__TypeKind.OBJECT")
    assert run.returncode == 0, run.stderr
    assert "type __Type {\n  fields(includeDeprecated: Boolean! = false): [__Field!]\n}" in (
        run.stdout
    )
    assert "enum __TypeKind {" in run.stdout and "  OBJECT\n}" in run.stdout


def test_schemanav_toml_cannot_allow_mutations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path / "schemanav.toml", "allow_mutations = true\n")
    monkeypatch.chdir(tmp_path)
    refused(
        inline(tmp_path, "corpus"), 2, "cannot set allow_mutations", "SCHEMANAV_ALLOW_MUTATIONS=1"
    )
    # The environment variable stays an explicit way to allow them (said on stderr).
    monkeypatch.delenv("SCHEMANAV_ALLOW_MUTATIONS", raising=False)
    (tmp_path / "schemanav.toml").unlink()
    monkeypatch.setenv("SCHEMANAV_ALLOW_MUTATIONS", "1")
    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    assert Navigator.open(events=Collect()).operations.allow_mutations
    assert warnings and "mutations are allowed" in warnings[0]


def test_headers_bound_for_a_url_that_schemanav_toml_chose_are_announced(
    servers: dict[str, HostileServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = servers["schema"].url + "/echo"
    _write(tmp_path / "schemanav.toml", f'schema = "{url}"\nendpoint = "{url}"\n')
    monkeypatch.chdir(tmp_path)
    header = ("--header", "Authorization: Bearer " + SECRET)
    said = f"your headers go to {url}, which schemanav.toml set (schema)"
    run = inline(tmp_path, "corpus", *header)
    refused(run, 2, alone=False)
    assert said in run.stderr
    assert "your headers go to" not in inline(tmp_path, "corpus", "--schema", url, *header).stderr
    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    _write(tmp_path / "schemanav.toml", f'endpoint = "{url}"\n')  # the bundled schema
    assert Navigator.open(events=Collect(), header=["X-Key: 1"]).operations
    assert warnings == [
        f"your headers go to {url}, which schemanav.toml set (endpoint), "
        "not a flag or the environment: pass --endpoint to choose it yourself"
    ]


# --- live schema URLs ---------------------------------------------------------------------


def test_a_gzip_bomb_stops_at_the_decompressed_cap(cases: Cases) -> None:
    refused(cases["gzip_bomb"], 2, "/bomb answered the introspection query with more than 1 MiB")


def test_an_endless_body_stops_at_the_cap(cases: Cases) -> None:
    refused(cases["endless_body"], 2, "/endless answered", "more than 1 MiB")


def test_a_slow_drip_meets_one_total_deadline(servers: dict[str, HostileServer]) -> None:
    from schemanav.schema import load_schema

    started = time.monotonic()
    with pytest.raises(InputError, match="timed out after 1 s"):
        load_schema(f"{servers['schema'].url}/drip", timeout=1)
    assert time.monotonic() - started < 3  # 1 s in all, not 1 s per byte


def test_secrets_echoed_by_the_schema_server_are_redacted(
    servers: dict[str, HostileServer], tmp_path: Path
) -> None:
    url, auth = servers["schema"].url, f"Authorization: Bearer {SECRET}"
    run = inline(tmp_path, "corpus", "--schema", f"{url}/echo", "--header", auth)
    no_secret(refused(run, 2, "refused the introspection query", "[redacted]"))
    run = inline(tmp_path, "corpus", "--schema", f"{url}/record", "--header", auth)
    no_secret(refused(run, 2, "not a usable introspection result", "[redacted]"))


def test_url_credentials_never_appear(servers: dict[str, HostileServer], tmp_path: Path) -> None:
    port = servers["schema"].server_address[1]
    url = f"http://alice:{URL_PASSWORD}@127.0.0.1:{port}/echo"
    line = refused(inline(tmp_path, "corpus", "--schema", url), 2, "refused the introspection")
    basic = base64.b64encode(f"alice:{URL_PASSWORD}".encode()).decode()
    assert URL_PASSWORD not in line and basic not in line and "alice" not in line, line
    assert f"http://127.0.0.1:{port}/echo" in line and "[redacted]" in line


# --- the agent and its model server -------------------------------------------------------


def test_a_bad_model_reply_ends_the_run_with_its_receipt(tmp_path: Path) -> None:
    good = reply(chat_message(tool_calls=[SEARCH_CALL]))
    with model_server([good, reply(b"<html>502 Bad Gateway</html>")]) as server:
        run = inline(tmp_path, *agent_args(server, tmp_path))
    line = refused(run, 1, f"the model server at {server.url}", "not JSON", alone=False)
    receipt = json.loads((tmp_path / "receipt.json").read_text())
    assert receipt["stopped"] == "error" and receipt["error"] in line
    assert receipt["model_calls"] == 1
    assert [call["name"] for call in receipt["tool_calls"]] == ["searchSchema"]


DEEP_ARGUMENTS = '{"query": ' + "[" * 5000 + "]" * 5000 + "}"


@pytest.mark.parametrize(
    ("body", "what"),
    [
        (json.dumps(chat_message("half an answer")).encode()[:60], "with truncated JSON"),
        (json.dumps([chat_message("in a list")]).encode(), "with a JSON list, not an object"),
        (b'{"message": ' + b"[" * 5000 + b"]" * 5000 + b"}", "JSON nested more than 64 levels"),
        (
            json.dumps(
                chat_message(tool_calls=[{"name": "searchSchema", "arguments": DEEP_ARGUMENTS}])
            ).encode(),
            "with tool-call arguments nested more than 64 levels deep",
        ),
        (b"", "with an empty body"),
    ],
)
def test_every_bad_model_reply_is_one_line_naming_the_server(body: bytes, what: str) -> None:
    from schemanav.agent.chat import OllamaChat

    with serving({"/api/show": model_show(), "/api/chat": reply(body)}) as server:
        chat = OllamaChat(server.url, "fake", 10)
        assert chat.context_length() == 32768
        with pytest.raises(SchemanavError) as raised:
            chat.chat([{"role": "user", "content": "hi"}], [], 4096)
        chat.close()
    assert raised.value.message.startswith(f"the model server at {server.url} answered ")
    assert what in raised.value.message and raised.value.exit_code == 1


def test_a_dripping_model_server_meets_the_chat_deadline() -> None:
    from schemanav.agent.chat import OllamaChat

    with serving({"/api/show": drip}) as server:
        chat = OllamaChat(server.url, "fake", 1)
        started = time.monotonic()
        with pytest.raises(SchemanavError, match="did not answer within 1 s"):
            chat.context_length()
        chat.close()
    assert time.monotonic() - started < 3


def test_tool_calls_are_capped_per_reply(tmp_path: Path) -> None:
    flood = [{"name": "introspectType", "arguments": {"name": "Movie"}}] * 500
    replies = [reply(chat_message(tool_calls=flood)), reply(chat_message("done"))]
    with model_server(replies) as server:
        run = inline(tmp_path, *agent_args(server, tmp_path))
    assert run.returncode == 0, run.stderr
    receipt = json.loads((tmp_path / "receipt.json").read_text())
    assert len(receipt["tool_calls"]) == MAX_TOOL_CALLS_PER_REPLY
    assert f"492 of your 500 tool calls were not run: at most {MAX_TOOL_CALLS_PER_REPLY}" in (
        run.stderr
    )
    transcript = json.loads((tmp_path / "transcript.json").read_text())
    assert len([m for m in transcript["messages"] if m.get("tool_name") == "schemanav"]) == 1


def test_tool_calls_are_capped_per_run(tmp_path: Path) -> None:
    eight = [{"name": "introspectType", "arguments": {"name": "Movie"}}] * MAX_TOOL_CALLS_PER_REPLY
    rounds = MAX_TOOL_CALLS_PER_RUN // MAX_TOOL_CALLS_PER_REPLY + 1
    replies = [reply(chat_message(tool_calls=eight)) for _ in range(rounds)]
    with model_server([*replies, reply(chat_message("done"))]) as server:
        run = inline(tmp_path, *agent_args(server, tmp_path), "--max-calls", str(rounds + 1))
    assert run.returncode == 0, run.stderr
    receipt = json.loads((tmp_path / "receipt.json").read_text())
    assert len(receipt["tool_calls"]) == MAX_TOOL_CALLS_PER_RUN
    assert f"this run's {MAX_TOOL_CALLS_PER_RUN} tool executions are spent" in run.stderr


def test_a_huge_tool_argument_is_a_tool_error_and_cut_in_the_receipt(cases: Cases) -> None:
    run = cases["huge_tool_argument"]
    assert run.returncode == 0, run.stderr
    receipt = json.loads((run.workdir / "receipt.json").read_text())
    (call,) = receipt["tool_calls"]
    assert call["ok"] is False
    assert isinstance(call["arguments"], str) and "more characters not shown" in call["arguments"]
    assert len(call["arguments"]) < 5000
    assert "the limit is 1,024 characters" in (run.workdir / "transcript.json").read_text()


def test_an_echoed_secret_never_reaches_the_model_or_the_files(tmp_path: Path) -> None:
    # The credential sits across the 50-token cut: cutting first would leave a part of it.
    template = "padding " * 35 + "token {} is not allowed" + " for this query" * 40
    execute = {"name": "executeGraphql", "arguments": {"query": "{ movies { title } }"}}
    replies = [reply(chat_message(tool_calls=[execute])), reply(chat_message("no"))]
    leaking: dict[str, Route | list[Route]] = {"/graphql": echo_authorization(template)}
    with model_server(replies) as server, serving(leaking) as leak:
        run = inline(
            tmp_path,
            *agent_args(server, tmp_path),
            "--endpoint",
            f"{leak.url}/graphql",
            "--header",
            f"Authorization: Bearer {SECRET}",
            "--response-token-cap",
            "50",
        )
    assert run.returncode == 0, run.stderr
    transcript = (tmp_path / "transcript.json").read_text()
    assert "[redacted]" in transcript and "response cut to 50" in transcript
    for text in (transcript, (tmp_path / "receipt.json").read_text(), run.stdout, run.stderr):
        no_secret(text)


# --- output files and printed text --------------------------------------------------------


def test_output_files_are_regular_files_or_new_paths(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    target = tmp_path / "target.md"
    target.write_text("kept\n")
    link.symlink_to(target)
    folder = tmp_path / "folder"
    folder.mkdir()
    for path, kind in ((fifo, "FIFO"), (link, "symbolic link"), (folder, "directory")):
        with pytest.raises(InputError, match=kind):
            write_output_file(path, "x")
    if Path("/dev/null").exists():
        with pytest.raises(InputError, match="device"):
            write_output_file("/dev/null", "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and link.is_symlink()
    assert target.read_text() == "kept\n"

    private = tmp_path / "private.json"
    private.write_text("old")
    private.chmod(0o600)
    write_output_file(private, "new")
    assert private.read_text() == "new" and stat.S_IMODE(private.stat().st_mode) == 0o600

    fresh = tmp_path / "fresh.md"
    old_umask = os.umask(0o022)
    try:
        write_output_file(fresh, b"bytes")
    finally:
        os.umask(old_umask)
    assert fresh.read_bytes() == b"bytes" and stat.S_IMODE(fresh.stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    with pytest.raises(InputError, match="cannot write"):
        write_output_file(tmp_path / "missing" / "out.md", "x")


def test_strip_control_removes_escapes_and_keeps_layout() -> None:
    hostile = "a\x1b[31mred\x1b[0m \x1b]0;title\x07b\x9b2Jc\u202eevil\x00\r\n\td\x7f"
    assert strip_control(hostile) == "ared bcevil\n\td"
    assert strip_control("plain — text ✓") == "plain — text ✓"


# --- the fetch script ---------------------------------------------------------------------


def test_fetch_script_quotes_the_mirror_url(tmp_path: Path) -> None:
    script = REPO_ROOT / "scripts" / "fetch-wg-benchmark.sh"
    injected = 'file:///nowhere"\noutput = "/tmp/owned'
    done = subprocess.run(
        ["bash", str(script), "--out-dir", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "WG_BASE_URL": injected, "PYTHON": sys.executable},
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "fetch-wg-benchmark: WG_BASE_URL and the paths must not contain control characters "
        "(a newline would add curl options)"
    ]
    assert not (tmp_path / "out").exists()


# --- property tests -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def navigators(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from schemanav.navigator import Navigator

    cache = tmp_path_factory.mktemp("navigator-cache")
    return {
        backend: Navigator.open(cache_dir=cache, backend=backend)
        for backend in ("structural", "bm25")
    }


@settings(
    max_examples=60,
    deadline=None,
    database=None,  # no .hypothesis folder in the checkout
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    question=st.text(max_size=MAX_QUESTION_CHARS + 40),
    backend=st.sampled_from(["structural", "bm25"]),
)
def test_search_answers_or_refuses_any_question(
    navigators: dict[str, Any], question: str, backend: str
) -> None:
    navigator = navigators[backend]
    if len(question) > MAX_QUESTION_CHARS:
        with pytest.raises(InputError, match="limit is 1,024"):
            navigator.search(question)
        return
    result = navigator.search(question)
    assert result.query == question
    known = set(navigator.corpus.coordinates)
    assert all(hit.coordinate in known for hit in result.hits)
    assert [hit.rank for hit in result.hits] == list(range(1, len(result.hits) + 1))


_NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)
_COORDINATE = st.builds(lambda owner, name: f"{owner}.{name}", _NAMES, _NAMES)


@settings(
    max_examples=80,
    deadline=None,
    database=None,  # no .hypothesis folder in the checkout
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    question=st.text(
        alphabet=st.characters(codec="utf-8", exclude_characters="\t\n\r"), min_size=1
    ),
    coordinates=st.lists(_COORDINATE, min_size=1, max_size=4),
    junk=st.text(max_size=60),
)
def test_the_tsv_loader_reads_good_lines_and_names_bad_ones(
    tmp_path: Path, question: str, coordinates: list[str], junk: str
) -> None:
    from schemanav.bench.labelled import load_labelled

    # Every line with a tab is a question, one starting with '#' included.
    assume(question.strip())
    path = tmp_path / "questions.tsv"
    path.write_text(f"{question}\t{','.join(coordinates)}\n", encoding="utf-8")
    (loaded,) = load_labelled(path)
    assert loaded.question == question.strip()
    assert list(loaded.expected_coordinates) == list(dict.fromkeys(coordinates))

    # Any other line is either read or refused with file:line, never a crash.
    path.write_bytes(junk.encode("utf-8", errors="surrogatepass"))
    try:
        load_labelled(path)
    except InputError as err:
        assert str(path) in err.message
    except UnicodeError:
        pytest.fail("a non-UTF-8 file must be an InputError")


# --- concurrent cold bench runs -----------------------------------------------------------


def without_seconds(report: dict[str, Any]) -> dict[str, Any]:
    """The report as JSON, less the wall-clock seconds of each row (which always differ)."""
    payload: dict[str, Any] = json.loads(json.dumps(report))
    for row in payload["rows"]:
        row.pop("seconds", None)
    return payload


def test_concurrent_cold_bench_runs_agree_and_leave_a_valid_cache(tmp_path: Path) -> None:
    from schemanav.bench.runner import run_bench
    from schemanav.corpus import open_corpus
    from schemanav.settings import Settings

    backends = ["bm25", "structural"]
    args = ("bench", "--backend", ",".join(backends), "--json")
    shared = tmp_path / "shared-cache"
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = [
            pool.submit(cli, tmp_path / f"p{i}", *args, env={"SCHEMANAV_CACHE_DIR": str(shared)})
            for i in range(4)
        ]
        runs = [future.result() for future in together]
    # One cold run alone, in this process, with its own cache.
    alone = run_bench(Settings(cache_dir=tmp_path / "alone-cache", backend=backends))
    expected = without_seconds(alone.as_dict())
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert without_seconds(json.loads(run.stdout)) == expected

    # The cache they left is whole: every file checks out and the next run uses it as it is.
    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    settings = Settings(cache_dir=shared, backend=backends)
    assert open_corpus(settings, Collect()).from_cache
    again = run_bench(settings, events=Collect())
    assert without_seconds(again.as_dict()) == expected
    assert warnings == []
    (corpus_file,) = (shared / "corpus").iterdir()
    assert read_checked(corpus_file)[0]["kind"] == "corpus"
    assert not [p for p in shared.rglob("*.tmp")]
