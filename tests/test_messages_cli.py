"""One rule for a missing extra (exit 2, one `error:` line, the install command that fits how
schemanav was installed), settings errors that name where the value was set (flag, variable,
schemanav.toml and its line), and the smaller messages of issue 42."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from schemanav import errors
from schemanav.cli import app
from schemanav.errors import MissingExtra, install_extra
from schemanav.schema import bundled_path


def _run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=env)


def _one_error_line(result: Result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    return lines[0]


# Extras -------------------------------------------------------------------------------------


def test_an_index_install_is_told_the_package_with_its_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(errors, "_installed_from", lambda: None)
    assert install_extra("mcp") == "pip install 'schemanav[mcp]' (the mcp extra)"


def test_a_checkout_install_is_told_its_own_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(errors, "_installed_from", lambda: (True, "/src/schemanav"))
    assert install_extra("serve").startswith("pip install -e '/src/schemanav[serve]'")
    monkeypatch.setattr(errors, "_installed_from", lambda: (False, "/src/schemanav"))
    assert install_extra("serve").startswith("pip install '/src/schemanav[serve]'")


def test_every_missing_extra_is_input_the_user_can_fix() -> None:
    assert MissingExtra("--plot needs matplotlib", "plot").exit_code == 2


def test_a_missing_plot_extra_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    result = _run("bench", "--plot", str(tmp_path))
    assert result.exit_code == 2
    assert "--plot needs matplotlib: pip install" in _one_error_line(result)


def test_a_missing_local_extra_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from schemanav.retrieval import embedders

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    # a model another test loaded in this process, or vectors it cached, would hide the gap
    embedders._load_sentence_transformer.cache_clear()
    result = _run("search", "movies", "--backend", "embedding-local", "--cache-dir", str(tmp_path))
    assert result.exit_code == 2
    assert "needs sentence-transformers: pip install" in _one_error_line(result)


def test_a_missing_openai_extra_exits_2_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    result = _run("agent", "anything", "--chat-api", "openai", "--chat-url", "http://127.0.0.1:9")
    assert result.exit_code == 2
    assert "[openai]'" in _one_error_line(result)


@pytest.mark.parametrize("hidden", ["uvicorn", "starlette"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_missing_serve_extra_exits_2_with_one_line(hidden: str, workers: str) -> None:
    """In a process of its own, with a time limit: a server that started would never end."""
    code = f"import sys; sys.modules[{hidden!r}] = None\nfrom schemanav.cli import main\nmain()"
    done = subprocess.run(
        [sys.executable, "-c", code, "serve", "--port", "0", "--workers", workers],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "needs Starlette and uvicorn: pip install" in lines[0] and "[serve]'" in lines[0]


# Where a setting came from ------------------------------------------------------------------


def test_a_variable_that_is_not_json_is_blamed_on_the_variable() -> None:
    result = _run("search", "movies", env={"SCHEMANAV_OPTIONS": "not json"})
    assert result.exit_code == 2
    line = _one_error_line(result)
    assert "SCHEMANAV_OPTIONS" in line and "schemanav.toml" not in line


def test_an_unknown_backend_names_the_variable_or_the_file_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    from_env = _run("search", "movies", env={"SCHEMANAV_BACKEND": "nope"})
    assert from_env.exit_code == 2
    assert "unknown backend 'nope' (set by SCHEMANAV_BACKEND)" in _one_error_line(from_env)
    (tmp_path / "schemanav.toml").write_text('# mine\n\nbackend = "nope"\n', encoding="utf-8")
    from_file = _run("search", "movies")
    assert from_file.exit_code == 2
    assert "(set by backend in schemanav.toml line 3)" in _one_error_line(from_file)


def test_an_unknown_format_names_its_flag_and_a_bad_file_value_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    flag = _run("search", "movies", "--format", "zz")
    assert flag.exit_code == 2
    assert "unknown format 'zz' (set by --format)" in _one_error_line(flag)
    (tmp_path / "schemanav.toml").write_text('budget = 10\nk = "x"\n', encoding="utf-8")
    result = _run("search", "movies")
    assert result.exit_code == 2
    assert "invalid k in schemanav.toml line 2 (the key of --k)" in _one_error_line(result)


# The smaller messages -----------------------------------------------------------------------


def test_a_url_of_another_scheme_is_not_read_as_a_file() -> None:
    result = _run("search", "movies", "-s", "ftp://example.com/schema.graphql")
    assert result.exit_code == 2
    line = _one_error_line(result)
    assert "only http:// and https:// URLs" in line and "not found" not in line


def test_a_partial_introspection_file_says_what_it_lacks(tmp_path: Path) -> None:
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({"data": {"__schema": {"queryType": {"name": "Q"}}}}))
    result = _run("search", "movies", "-s", str(partial))
    assert result.exit_code == 2
    assert "its __schema has no 'types'" in _one_error_line(result)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs procfs")
def test_an_unwritable_markdown_folder_is_refused_before_the_run() -> None:
    result = _run("bench", "--markdown", "/proc/out.md")
    assert result.exit_code == 2
    assert result.stdout == ""  # refused before the work, not after it
    assert "--markdown /proc/out.md: cannot write into /proc" in _one_error_line(result)


@pytest.mark.parametrize(
    "args",
    [["agent-bench", "{schema}"], ["bench", "--bench-file", "{schema}"]],
    ids=["agent-bench TASKS", "bench --bench-file"],
)
def test_a_schema_given_as_labelled_questions_is_one_line_saying_where_it_goes(
    args: list[str],
) -> None:
    schema = str(bundled_path("moviedb.graphqls"))
    result = _run(*(arg.format(schema=schema) for arg in args))
    assert result.exit_code == 2
    line = _one_error_line(result)
    assert f"{schema} is not a labelled TSV: no line holds a tab" in line
    assert line.endswith("(a schema goes to --schema)")
    assert len(line) < 300  # one short line, not a problem per line of the schema


# Output ----------------------------------------------------------------------------------


def test_bench_of_slices_alone_prints_no_table_without_figures(cache_dir: Path) -> None:
    result = _run("bench", "--output", "slice", "--budgets", "500,2000", "-q")
    assert result.exit_code == 0, result.stderr
    tables = result.stdout.split("\n\n")[1:-1]  # the heading, then tables, then sentences
    assert tables  # the completeness tables of the slices are there
    for table in tables:
        rows = table.splitlines()[2:-1]  # title and header above, caption below
        assert rows, table
        assert any(re.search(r"\d", row.split("slice", 1)[1]) for row in rows), table
    assert "Recall@k" not in result.stdout  # a ranked-list measure a slice has not
