"""Cross-cutting CLI promises: output is printed as is, errors are one line, --version.

(That every setting is a flag or a backend option key is checked in test_settings.py.)
"""

from __future__ import annotations

from pathlib import Path

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
    bad.write_text("".join(f"line {n} without a tab\n" for n in range(1, 26)))
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
