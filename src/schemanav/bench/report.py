"""The two benchmark tables (ranking, and recall within a token budget) as plain cells.

Both the terminal (Rich) and `--markdown` render the same cells, so the README table and
the terminal table can never disagree about a figure or its rounding.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from schemanav.cache import atomic_write_bytes
from schemanav.errors import SchemanavError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from schemanav.bench.runner import BenchReport

NO_VALUE = "–"


@dataclass(frozen=True)
class TextTable:
    """A titled grid of already formatted cells; `numeric[i]` right-aligns column i."""

    title: str
    headers: tuple[str, ...]
    numeric: tuple[bool, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""


def _ratio(value: float) -> str:
    return f"{value:.3f}"


def _rank(value: int | None) -> str:
    return NO_VALUE if value is None else str(value)


def ranking_table(report: BenchReport) -> TextTable:
    """Recall@k, MRR, first-hit rank percentiles and tokens@50, one row per combination."""
    headers = (
        "backend",
        "format",
        *(f"R@{k}" for k in report.ks),
        "MRR",
        "rank p50",
        "rank p95",
        "no hit",
        "tokens@50",
    )
    rows = tuple(
        (
            row.backend,
            row.format,
            *(_ratio(row.summary.recall[k]) for k in report.ks),
            _ratio(row.summary.mrr),
            _rank(row.summary.rank_p50),
            _rank(row.summary.rank_p95),
            str(row.summary.questions_without_hit),
            f"{round(row.summary.mean_tokens_at_depth):,}",
        )
        for row in report.rows
    )
    return TextTable(
        title=(
            f"Ranking · {report.schema} · {report.bench_file}: {report.question_count:,} "
            f"questions, {report.target_count:,} targets · tokens in {report.encoding}"
        ),
        headers=headers,
        numeric=(False, False, *([True] * (len(headers) - 2))),
        rows=rows,
        caption=(
            "R@k: share of expected coordinates in the top k. rank p50/p95: first correct hit, "
            "over questions with one (no hit: the others). tokens@50: mean cost of the top 50."
        ),
    )


def budget_table(report: BenchReport) -> TextTable:
    """Recall on the hits that fit each token budget (a prefix of the ranking)."""
    headers = ("backend", "format", *(f"{budget:,} tok" for budget in report.budgets))
    rows = tuple(
        (
            row.backend,
            row.format,
            *(_ratio(row.summary.budget_recall[budget]) for budget in report.budgets),
        )
        for row in report.rows
    )
    return TextTable(
        title=f"Recall within a token budget ({report.encoding})",
        headers=headers,
        numeric=(False, False, *([True] * len(report.budgets))),
        rows=rows,
        caption="Hits are kept in rank order until the next one would exceed the budget.",
    )


def tables(report: BenchReport) -> tuple[TextTable, TextTable]:
    return ranking_table(report), budget_table(report)


def to_rich(table: TextTable) -> Table:
    from rich.table import Table

    rich_table = Table(title=table.title, title_justify="left", caption=table.caption or None)
    rich_table.caption_justify = "left"
    for header, numeric in zip(table.headers, table.numeric, strict=True):
        rich_table.add_column(header, justify="right" if numeric else "left")
    for row in table.rows:
        rich_table.add_row(*row)
    return rich_table


def print_tables(console: Console, report: BenchReport) -> None:
    """Both tables, never squeezed: a console narrower than a table is widened to fit it,
    because an elided figure (`0.2…`) is worse than a wrapped line."""
    from rich.measure import Measurement

    for number, table in enumerate(tables(report)):
        rich_table = to_rich(table)
        wide = console.options.update(width=10_000, max_width=10_000)
        # The caption and title wrap; only the columns must fit.
        rich_table.caption = None
        needed = Measurement.get(console, wide, rich_table).maximum
        rich_table.caption = table.caption or None
        if needed > console.width:
            console.width = needed
        if number:
            console.print()
        console.print(rich_table)


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(table: TextTable) -> str:
    """A GitHub-flavoured markdown table under its title in bold, caption below."""
    lines = [
        f"**{_markdown_cell(table.title)}**",
        "",
        "| " + " | ".join(_markdown_cell(h) for h in table.headers) + " |",
        "|" + "|".join("---:" if numeric else "---" for numeric in table.numeric) + "|",
        *("| " + " | ".join(_markdown_cell(cell) for cell in row) + " |" for row in table.rows),
    ]
    if table.caption:
        lines += ["", table.caption]
    return "\n".join(lines) + "\n"


def report_markdown(report: BenchReport) -> str:
    return "\n".join(to_markdown(table) for table in tables(report))


def write_output_file(path: Path, data: bytes) -> None:
    """Write a file the user asked for, atomically (a half-written file never replaces a good
    one), readable like any file they create: the temporary file's private mode is widened to
    what the umask allows."""
    try:
        atomic_write_bytes(path, data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(path, 0o666 & ~umask)
    except OSError as err:
        raise SchemanavError(f"cannot write {path}: {err.strerror or err}") from None


def write_markdown(report: BenchReport, path: Path) -> None:
    """Write both tables to `path` as GitHub markdown."""
    write_output_file(path, report_markdown(report).encode("utf-8"))
