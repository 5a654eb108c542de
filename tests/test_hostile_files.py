"""Hostile files and every form of a secret (issue 24): cache files that are links, FIFOs,
directories or sparse giants; `agent-bench --results` on special files; Basic credentials and
schema descriptions that echo a header.

The cache cases run the CLI in a subprocess under a memory limit (`test_hostile.cli`): a cache
file read whole would pass it.
"""

from __future__ import annotations

import base64
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from schemanav.agentbench.runner import read_results
from schemanav.cache import MAGIC
from schemanav.errors import InputError
from schemanav.events import SilentEvents
from servers.hostile import Handler, send, serving
from test_hostile import SECRET, cli, inline, introspection, no_secret, refused

BASIC_PAIR = "alice:w0nderl4nd-pass"


def _cache_files(cache: Path) -> list[Path]:
    return sorted(path for path in cache.rglob("*") if path.is_file() and not path.is_symlink())


def _link_to_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _sparse_giant(path: Path) -> None:
    with path.open("wb") as handle:
        handle.write(MAGIC + b'{"payload_bytes": 3000000000}\n')
        handle.truncate(3 * 1024**3)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _directory(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text("x")


PLANTS: list[Callable[[Path], None]] = [_link_to_zero, _sparse_giant, _fifo, _directory]


@pytest.mark.slow
def test_a_cache_file_that_is_not_a_plausible_file_is_replaced(tmp_path: Path) -> None:
    """Every cache file (corpus, structural index, token table, define entries: five or
    more) replaced by one of the four kinds in turn; at most one warning each, every file
    rebuilt as a regular file."""
    for args in (("search", "movie rating"), ("define", "Movie")):
        assert cli(tmp_path, *args).returncode == 0
    planted = _cache_files(tmp_path / "cache")
    assert {path.parent.name for path in planted} >= {"corpus", "structural", "tokens"}
    assert len(planted) >= len(PLANTS)
    for number, path in enumerate(planted):
        path.unlink()
        PLANTS[number % len(PLANTS)](path)
    warnings: list[str] = []
    commands: list[tuple[str, ...]] = [("search", "movie rating", "--json"), ("define", "Movie")]
    for command in commands:
        run = cli(tmp_path, *command, timeout=60)
        assert run.returncode == 0, run.stderr[-2000:]
        assert "Traceback" not in run.stderr
        warnings += [line for line in run.stderr.splitlines() if line.startswith("warning:")]
    for path in planted:  # rebuilt as regular files
        assert stat.S_ISREG(os.lstat(path).st_mode), path
    assert len(warnings) <= len(planted), warnings


@pytest.mark.slow
def test_a_schema_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "schema.graphqls"
    os.mkfifo(fifo)
    run = cli(tmp_path, "corpus", "--schema", str(fifo), timeout=20)
    refused(run, 2, "FIFO")


# --- agent-bench --results ------------------------------------------------------------------


@pytest.mark.slow
def test_results_files_obey_the_output_file_rules(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.tsv"
    tasks.write_text("what is a movie's rating?\tMovie.rating\n")
    target = tmp_path / "target.jsonl"
    target.write_text("kept\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    refused(inline(tmp_path, "agent-bench", str(tasks), "--results", str(link)), 2, "link")
    # Subprocesses: before the fix, these waited on the FIFO and read /dev/zero to 3 GB.
    for results, kind in ((fifo, "FIFO"), ("/dev/zero", "device")):
        run = cli(tmp_path, "agent-bench", str(tasks), "--results", str(results), timeout=30)
        refused(run, 2, kind)
    assert target.read_text() == "kept\n"


def test_a_resume_file_nested_thousands_deep_is_a_warning(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text("[" * 100_000 + "\n")
    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    assert read_results(results, {}, Collect()) == {}
    assert warnings and "not a result record" in warnings[0]
    link = tmp_path / "link.jsonl"
    link.symlink_to(results)
    with pytest.raises(InputError, match="symbolic link"):
        read_results(link, {}, Collect())


# --- every form of a secret ------------------------------------------------------------------


def _echo_basic(handler: Handler, _body: bytes) -> None:
    encoded = handler.headers.get("Authorization", "").split(" ", 1)[-1]
    decoded = base64.b64decode(encoded).decode()
    send(handler, {"errors": [{"message": f"user {decoded} may not read the schema"}]})


def _described(handler: Handler, _body: bytes) -> None:
    """A usable introspection whose Query description echoes the credential."""
    payload = introspection()
    query = next(t for t in payload["data"]["__schema"]["types"] if t["name"] == "Query")
    query["description"] = f"Served to {handler.headers.get('Authorization')}"
    send(handler, payload)


def test_basic_credentials_are_redacted_decoded(tmp_path: Path) -> None:
    basic = base64.b64encode(BASIC_PAIR.encode()).decode()
    with serving({"/basic": _echo_basic}) as server:
        run = inline(
            tmp_path,
            "corpus",
            "--schema",
            f"{server.url}/basic",
            "--header",
            f"Authorization: Basic {basic}",
        )
    line = refused(run, 2, "[redacted]")
    assert BASIC_PAIR not in line and "w0nderl4nd" not in line, line


def test_define_redacts_a_description_that_echoes_a_header(tmp_path: Path) -> None:
    with serving({"/described": _described}) as server:
        url = f"{server.url}/described"
        header = f"Authorization: Bearer {SECRET}"
        run = inline(tmp_path, "define", "Query", "--schema", url, "--header", header)
        as_json = inline(tmp_path, "define", "Query", "--json", "--schema", url, "--header", header)
    assert run.returncode == 0 and as_json.returncode == 0, run.stderr
    assert "Served to [redacted]" in run.stdout
    assert json.loads(as_json.stdout)[0]["definition"]["description"] == "Served to [redacted]"
    for text in (run.stdout, run.stderr, as_json.stdout):
        no_secret(text)


def _described_every_way(handler: Handler, _body: bytes) -> None:
    """Query's description echoes the credential raw, JSON-quoted, and Basic-decoded."""
    payload = introspection()
    credential = handler.headers.get("Authorization", "")
    try:
        decoded = base64.b64decode(credential.split(" ", 1)[-1]).decode(errors="replace")
    except ValueError:  # a Bearer token is not base64
        decoded = "(none)"
    query = next(t for t in payload["data"]["__schema"]["types"] if t["name"] == "Query")
    query["description"] = f"Served to {credential}, {json.dumps(credential)}, user {decoded}"
    query["fields"][0]["description"] = f"Token: {credential.split(' ', 1)[-1]!r}"
    send(handler, payload)


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["Bearer", "Basic"])
def test_diff_redacts_a_description_that_echoes_a_header(tmp_path: Path, scheme: str) -> None:
    """The live schema on either side of `diff`: the table, --json and --markdown show no form
    of the header's value."""
    from schemanav.schema import bundled_path

    credential = SECRET if scheme == "Bearer" else base64.b64encode(BASIC_PAIR.encode()).decode()
    header = f"Authorization: {scheme} {credential}"
    local = str(bundled_path("moviedb.graphqls"))
    with serving({"/described": _described_every_way}) as server:
        url = f"{server.url}/described"
        old_md, new_md = str(tmp_path / "old.md"), str(tmp_path / "new.md")
        runs = [
            inline(tmp_path, "diff", local, url, "--header", header, "--markdown", old_md),
            inline(tmp_path, "diff", url, local, "--header", header, "--markdown", new_md),
            inline(tmp_path, "diff", local, url, "--header", header, "--json"),
        ]
    written = (tmp_path / "old.md").read_text() + (tmp_path / "new.md").read_text()
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert "[redacted]" in runs[0].stdout and "[redacted]" in runs[2].stdout
    assert "[redacted]" in written
    for text in [written, *(run.stdout + run.stderr for run in runs)]:
        no_secret(text)
        for piece in (BASIC_PAIR, *BASIC_PAIR.split(":"), credential):
            assert piece not in text, piece


# --- low: what reaches the terminal, when paths are checked, redirects ----------------------


def test_define_and_build_name_the_problem_in_one_clean_line(tmp_path: Path) -> None:
    run = inline(tmp_path, "define", "Query.__typename")
    assert run.returncode == 2 and "meta-field" in run.stderr, run.stderr
    assert "StopIteration" not in run.stderr
    run = inline(tmp_path, "define", "Mo\x1b]0;owned\x07vie\x1b[31m.title")
    assert run.returncode == 2 and "\x1b" not in run.stderr and "owned" not in run.stderr
    line = refused(inline(tmp_path, "build", "Query." + "a" * 100_000), 2)
    assert len(line) < 1_000 and "more characters" in line


def _redirect(handler: Handler, _body: bytes) -> None:
    payload = json.dumps(introspection()).encode()
    handler.send_response(302)
    handler.send_header("Location", "http://127.0.0.1:9/elsewhere")
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    handler.wfile.write(payload)


def test_a_redirect_is_not_loaded_as_the_schema(tmp_path: Path) -> None:
    with serving({"/moved": _redirect}) as server:
        run = inline(tmp_path, "corpus", "--schema", f"{server.url}/moved")
    refused(run, 2, "HTTP 302", "redirect to http://127.0.0.1:9/elsewhere")


def test_execute_treats_a_redirect_as_an_endpoint_error(tmp_path: Path) -> None:
    """A 302 with a JSON body is not the answer: exit 1, the status named, never exit 0."""
    operation = tmp_path / "op.graphql"
    operation.write_text("{ movies { title } }")
    with serving({"/moved": _redirect}) as server:
        run = inline(tmp_path, "execute", str(operation), "--endpoint", f"{server.url}/moved")
    line = refused(run, 1, "the endpoint answered HTTP 302", alone=False)
    assert "check --endpoint" in line
    assert "redirect, which is not followed" in run.stdout


def _escapes(handler: Handler, _body: bytes) -> None:
    payload = "Service down\x1b]0;owned\x07\x1b[2J\x9b31m: try later".encode()
    handler.send_response(503)
    handler.send_header("Content-Type", "text/plain; charset=utf-8")
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    handler.wfile.write(payload)


def test_execute_prints_a_non_json_answer_without_terminal_escapes(tmp_path: Path) -> None:
    operation = tmp_path / "op.graphql"
    operation.write_text("{ movies { title } }")
    with serving({"/down": _escapes}) as server:
        run = inline(tmp_path, "execute", str(operation), "--endpoint", f"{server.url}/down")
    assert run.returncode == 1
    assert "Service down" in run.stdout and "try later" in run.stdout
    for text in (run.stdout, run.stderr):
        assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text


def test_security_notices_print_under_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serving({"/echo": _echo_basic}) as server:
        url = f"{server.url}/echo"
        (tmp_path / "schemanav.toml").write_text(f'schema = "{url}"\n')
        monkeypatch.chdir(tmp_path)
        run = inline(tmp_path, "corpus", "-q", "--header", f"Authorization: Bearer {SECRET}")
    assert f"your headers go to {url}" in run.stderr, run.stderr


def test_the_agent_checks_its_output_paths_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    for flag in ("--transcript", "--receipt-json"):
        run = inline(
            tmp_path,
            "agent",
            "what is a movie's rating?",
            "--model",
            "fake",
            "--ollama-host",
            "http://127.0.0.1:9",
            flag,
            str(tmp_path / "folder"),
        )
        refused(run, 2, "directory")


def test_every_form_of_a_header_value_is_redacted() -> None:
    from schemanav.redaction import Redactor

    basic = base64.b64encode(BASIC_PAIR.encode()).decode()
    redact = Redactor(
        {"Authorization": f"Bearer {SECRET}", "Proxy-Authorization": f"Basic {basic}"}
    )
    whole = "".join(f"\\u{ord(char):04x}" for char in SECRET)
    every_other = "".join(f"\\u{ord(char):04X}" if n % 2 else char for n, char in enumerate(SECRET))
    inside_json = json.dumps({"message": f"token {whole}"})
    for text in (whole, every_other, inside_json, BASIC_PAIR, "alice", "w0nderl4nd-pass"):
        cleaned = redact(f"echo {text} end")
        assert "[redacted]" in cleaned, text
        no_secret(json.loads(json.dumps(cleaned)))
        assert "w0nderl4nd" not in cleaned
    assert redact.json({"k": [json.loads(f'"{whole}"')]}) == {"k": ["[redacted]"]}
