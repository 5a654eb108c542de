"""Cross-cutting CLI promises: output is printed as is, errors are one line, --version.

(That every setting is a flag or a backend option key is checked in test_settings.py.)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from schemanav.cli import app


def test_messages_are_printed_verbatim_not_as_rich_emoji_or_markup(tmp_path: Path) -> None:
    # ":100:" is a Rich emoji code and "[bold]" markup: an error must show the path as typed.
    missing = tmp_path / "v:100:[bold]schema.graphql"
    result = CliRunner().invoke(app, ["corpus", "--schema", str(missing)])
    assert result.exit_code == 2
    assert str(missing) in result.stderr


def test_a_file_full_of_problems_is_summarised_on_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.tsv"
    bad.write_text("".join(f"line {n}\tMovie.title\tMovie.year\n" for n in range(1, 26)))
    result = CliRunner().invoke(app, ["bench", "--bench-file", str(bad)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].count(f"{bad}:") == 10
    assert lines[0].endswith("… and 15 more problems")


def test_version_flag_prints_the_installed_version() -> None:
    from importlib.metadata import version

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"schemanav {version('schemanav')}\n"


# --- a newcomer's first commands -------------------------------------------------------------


def test_help_names_values_choices_and_where_settings_come_from() -> None:
    from schemanav.corpus import Format
    from schemanav.defaults import BUILTIN_BACKENDS
    from schemanav.retrieval.registry import backend_names

    runner = CliRunner()
    short, long = runner.invoke(app, ["search", "-h"]), runner.invoke(app, ["search", "--help"])
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout
    text = " ".join(long.stdout.split())
    assert "[OPTIONS] QUESTION" in text and "-s, --schema FILE|URL" in text
    assert "-k, --k N" in text and "-b, --budget N" in text and "-j, --json" in text
    options = long.stdout.split("Each setting above")[0]
    assert "<" not in options and "{" not in options  # no `<str>`, `{question}`
    assert list(BUILTIN_BACKENDS) == backend_names()[: len(BUILTIN_BACKENDS)]  # in help's order
    assert f"Retrieval backend: {', '.join(BUILTIN_BACKENDS)} [default: structural]" in text
    assert all(fmt.value in text for fmt in Format)
    assert "SCHEMANAV_<NAME>" in text and "max-paths = 1" in text
    assert 'backend = ["bm25", "structural"]' in text


def test_a_flag_click_cannot_parse_is_one_error_line() -> None:
    result = CliRunner().invoke(app, ["search", "movie", "-k", "many"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: invalid value for '-k' / '--k': ")
    assert result.stderr.count("\n") == 1


def test_toml_takes_the_flag_spelling_and_search_refuses_a_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "schemanav.toml").write_text('max-paths = 0\nbackend = ["bm25", "structural"]\n')
    result = CliRunner().invoke(app, ["search", "movie rating"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: search takes one backend, not a list (--backend bm25,structural): pick one, "
        "or compare them all with `schemanav bench --backend bm25,structural`\n"
    )
    result = CliRunner().invoke(app, ["search", "movie rating", "--backend", "bm25", "-j"])
    assert result.exit_code == 0, result.stderr
    assert all(hit["paths_to_root"] == [] for hit in json.loads(result.stdout)["hits"])


def test_quiet_silences_the_spec_violation_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path / "cache"))
    schema = tmp_path / "breaks-a-rule.graphql"
    schema.write_text(
        "interface Node { id: ID! }\n"
        'type Thing implements Node { id: ID! @deprecated(reason: "old") }\n'
        "type Query { thing: Thing }\n"
    )
    loud = CliRunner().invoke(app, ["search", "thing", "-s", str(schema)])
    quiet = CliRunner().invoke(app, ["search", "thing", "-s", str(schema), "-q"])
    assert loud.exit_code == quiet.exit_code == 0
    assert loud.stderr.startswith("warning: the schema breaks 1 GraphQL spec rule")
    assert quiet.stderr == ""
    assert quiet.stdout == loud.stdout


def test_bench_refuses_an_output_path_before_running(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = CliRunner().invoke(app, ["bench", "--markdown", str(blocker / "bench.md")])
    assert result.exit_code == 2
    assert result.stdout == ""  # nothing ran
    assert (
        result.stderr
        == f"error: --markdown {blocker}/bench.md: {blocker} is a file, not a folder\n"
    )


def test_did_you_mean_is_ranked_by_edit_distance() -> None:
    result = CliRunner().invoke(app, ["define", "Movie.ratin"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: Movie.ratin: no such element in the schema (did you mean Movie.rating, "
    )


def test_search_table_fits_80_columns_and_drops_nothing() -> None:
    from rich.console import Console

    from schemanav.navigator import SearchResult
    from schemanav.render import render_search
    from schemanav.retrieval import SearchHit

    path = ("Query.repository", "Repository.pullRequest", "PullRequest.viewerLatestReviewRequest")
    hits = (
        SearchHit("Query.repository", "", 5.0851, 1, 8, (("Query.repository",),)),
        SearchHit(path[-1], "", 12.25, 2, 16, (path,)),
    )
    result = SearchResult("q", "structural", "RAW", "o200k_base", hits)
    terminal = Console(width=80, force_terminal=True, record=True, highlight=False)
    render_search(terminal, result)
    text = terminal.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    for needed in ("5.085", "12.250", path[-1], "via Query.repository → Repository.pullRequest"):
        assert needed in text
    assert text.splitlines()[-1] == "2 hits, 24 tokens (o200k_base)"
    piped = Console(width=80, force_terminal=False, record=True, highlight=False)
    render_search(piped, SearchResult("q", "structural", "RAW", "o200k_base", hits[1:]))
    lines = piped.export_text().splitlines()
    assert lines[2].split() == ["2", path[-1], "12.250", "16", path[0], "→", path[1]]
    assert lines[3] == "1 hit, 16 tokens (o200k_base)"


def test_search_on_a_narrow_terminal_stacks_hits_rather_than_cut_an_identifier() -> None:
    from rich.console import Console

    from schemanav.navigator import SearchResult
    from schemanav.render import render_search
    from schemanav.retrieval import SearchHit

    long = "ContributionsCollection.popularPullRequestContribution"  # 53 characters
    path = ("Query.user", "User.contributionsCollection", long)
    hits = (SearchHit(long, "", 3.725, 6, 18, (path,)),)
    terminal = Console(width=80, force_terminal=True, record=True, highlight=False)
    render_search(terminal, SearchResult("q", "structural", "RAW", "o200k_base", hits))
    lines = terminal.export_text().splitlines()
    assert any(long in line for line in lines)  # whole, on one line
    assert max(len(line) for line in lines) <= 80
    assert "score 3.725, 18 tokens" in "\n".join(lines)
    assert "via Query.user → User.contributionsCollection" in "\n".join(lines)


def test_piped_stderr_gets_no_progress_residue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Transient progress on a pipe used to leave one blank line per backend × format.
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(tmp_path))
    args = ["bench", "--backend", "bm25,structural", "--format", "RAW,SDL", "-j"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert len(json.loads(result.stdout)["rows"]) == 4


@pytest.mark.parametrize(
    ("annotation", "values"),
    [
        (int, ["3", "-3", "+7", "007", "1.5", "abc", " 4 ", "1_000", "99999999999999999999", "٣"]),
        (float, ["2.5", "30", "-0.5", "1e3", "inf", "nan", "abc", " 1.5", "3.", ".5"]),
        (str, ["text", "", " spaced "]),
        (bool, [True, False]),
        (list[str], [("a", "b"), ()]),
    ],
)
def test_plain_values_convert_as_typers_own_conversion(annotation: Any, values: list[Any]) -> None:
    """`plain_values` spares pydantic's adapters for plain values: each converts to what Typer's
    own conversion gives, and a value it does not handle fails with Typer's own message."""
    from typer._click.exceptions import BadParameter
    from typer._coercion import build_runtime_param, resolve_type_descriptor
    from typer.models import OptionInfo

    from schemanav.cli_support import _PlainValue

    descriptor = resolve_type_descriptor(annotation, OptionInfo())
    typers = build_runtime_param(descriptor)
    ours = _PlainValue(parameter_info=descriptor.parameter_info, annotation=annotation,
                       descriptor=descriptor)  # fmt: skip
    for value in values:
        outcomes = []
        for conversion in (typers, ours):
            try:
                converted = conversion._coerce_value(value, param=None, ctx=None)  # type: ignore[arg-type]
                outcomes.append((type(converted), repr(converted)))
            except BadParameter as err:
                outcomes.append((BadParameter, err.format_message()))
        assert outcomes[0] == outcomes[1], value


def test_a_search_builds_no_pydantic_adapter_for_its_flags(tmp_path: Path) -> None:
    """A warm command converts its flags without importing Typer's pydantic adapters."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from schemanav.cli import app\n"
        "try:\n"
        "    app(['search', 'movies with a high rating', '-k', '3', '--timeout', '5', '-q'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('typer._adapters' in sys.modules)\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr


def test_a_warm_piped_search_imports_no_settings_or_terminal_library(tmp_path: Path) -> None:
    """A warm search whose output goes to a pipe reads its settings without pydantic, prints
    without Rich and never looks for backend plugins: those imports were most of its time."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from schemanav.cli import app\n"
        "try:\n"
        "    app(['search', 'movies with a high rating', '-k', '3', '--timeout', '5'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('pydantic', 'pydantic_settings', 'rich', 'importlib.metadata')\n"
        "print(sorted(name for name in heavy if name in sys.modules))\n"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
    }
    env["XDG_CACHE_HOME"] = str(tmp_path)
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
        )
        for _ in range(2)  # the first fills the caches
    ]
    lines = runs[1].stdout.strip().splitlines()
    assert lines[-1] == "[]", runs[1].stderr
    assert lines[:2] == runs[0].stdout.strip().splitlines()[:2]
    assert "Query.movies" in runs[1].stdout


@pytest.mark.parametrize(
    "text",
    [
        *("plain line", "", "  two  spaces  ", "tab\there", "bell\x07"),
        *("é → ü 漢字", "a\nb\n", "[bold]x[/]"),
    ],
)
def test_a_plain_console_writes_what_rich_writes_to_a_pipe(
    text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Printed to a pipe, a line reads the same whether the plain console writes it itself or
    hands it to Rich (a tab, a control code and markup-like text included)."""
    from schemanav import console

    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    plain = console.stdout()
    assert isinstance(plain, console.PlainConsole)
    every: list[dict[str, Any]] = [{}, {"markup": False}, {"markup": False, "soft_wrap": True}]
    for options in every:
        plain.print(text, **options)
        ours = capsys.readouterr().out
        console._rich(stderr=False).print(text, **options)
        assert ours == capsys.readouterr().out, (text, options)
