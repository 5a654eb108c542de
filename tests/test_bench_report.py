"""Bench tables and charts as a reader gets them: fitted to an 80-column terminal, plain and
complete in a pipe, user text never read as markup, files written only where safe."""

from __future__ import annotations

import dataclasses
import io
import os
import re
import stat
from pathlib import Path

import pytest
from rich.console import Console

from schemanav.bench.report import (
    plain_lines,
    print_tables,
    summary_sentences,
    tables,
    write_markdown,
)
from schemanav.bench.runner import BenchReport, run_bench
from schemanav.corpus import Format
from schemanav.errors import InputError
from schemanav.settings import Settings

HOSTILE = "[/x]$a^$"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> BenchReport:
    settings = Settings(
        cache_dir=tmp_path_factory.mktemp("cache"),
        backend=["structural", "bm25"],
        format=[Format.RAW.value, Format.DOT_PLUS_GLOSS.value],
    )
    return run_bench(settings)


def _printed(report: BenchReport, *, terminal: bool, width: int) -> str:
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=width, color_system=None)
    print_tables(console, report)
    return out.getvalue()


def test_a_terminal_of_80_columns_gets_tables_that_fit_and_every_figure(
    report: BenchReport,
) -> None:
    out = _printed(report, terminal=True, width=80)
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out
    # too wide for 80 columns: split into parts, each repeating backend and format
    assert "Recall within a token budget (o200k_base) (1/2)" in out
    assert "(2/2)" in out
    for table in tables(report):
        for header in table.headers[2:]:
            assert re.search(rf"┃ +{re.escape(header)} ┃", out), header
        for row in table.rows:
            for cell in row[2:]:
                assert f" {cell} │" in out
    # wide enough: one table each, no parts
    assert "(1/2)" not in _printed(report, terminal=True, width=250)


def test_a_pipe_gets_plain_complete_lines_however_narrow(report: BenchReport) -> None:
    out = _printed(report, terminal=False, width=40)
    expected = [line for table in tables(report) for line in ["", *plain_lines(table)]]
    expected += ["", *summary_sentences(report)]  # the closing sentences, whole lines too
    assert out.splitlines()[1:] == expected
    header = plain_lines(tables(report)[-1])[1]
    assert header.startswith("backend ") and len(header) > 100  # never wrapped at 40


def test_user_text_is_never_rich_markup_or_mathtext(report: BenchReport, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from schemanav.bench.plot import write_plots

    hostile = dataclasses.replace(
        report,
        schema=f"{HOSTILE}.graphqls",
        bench_file=f"{HOSTILE}.tsv",
        rows=tuple(dataclasses.replace(row, backend=HOSTILE) for row in report.rows),
    )
    out = _printed(hostile, terminal=True, width=80)
    assert out.startswith(f"{HOSTILE}.graphqls · {HOSTILE}.tsv: ")
    assert f"│ {HOSTILE} " in out
    written = write_plots(hostile, tmp_path / "plots")
    for path in written:
        svg = path.read_text(encoding="utf-8")
        assert f"{HOSTILE} · RAW" in svg  # drawn as it is, as a legend entry


def test_outputs_are_written_only_to_regular_files_keeping_their_mode(
    report: BenchReport, tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo.md"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="it is a FIFO, not a regular file"):
        write_markdown(report, fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    private = tmp_path / "private.md"
    private.write_text("old")
    private.chmod(0o600)
    write_markdown(report, private)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert private.read_text(encoding="utf-8").startswith("moviedb (bundled) · ")
