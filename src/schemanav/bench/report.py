"""The benchmark tables (ranking, recall within a budget, completeness) as plain cells.

Both the terminal (Rich) and `--markdown` render the same cells, so the README table and
the terminal table can never disagree about a figure or its rounding. Every column is an
aggregate declared once in `bench.metrics.AGGREGATES` (its label and cell format); a table
only says which aggregates, at which cutoffs or budgets, it shows.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from schemanav.bench.metrics import AGGREGATE, TOKEN_DEPTH
from schemanav.cache import atomic_write_bytes
from schemanav.errors import SchemanavError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from schemanav.bench.runner import BenchReport

Column = tuple[str, int | None]
"""An aggregate's key and the cutoff or budget it is shown at (None for a plain figure)."""


@dataclass(frozen=True)
class TextTable:
    """A titled grid of already formatted cells; `numeric[i]` right-aligns column i."""

    title: str
    headers: tuple[str, ...]
    numeric: tuple[bool, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""


def _table(report: BenchReport, columns: Sequence[Column], title: str, caption: str) -> TextTable:
    """One row per combination: its labels, then each column's cell. The output column is
    shown only when some row is not the plain ranked list."""
    with_output = report.outputs != ("list",)
    labels = ("backend", "format", "output") if with_output else ("backend", "format")
    headers = [AGGREGATE[key].label(param or 0) for key, param in columns]
    rows = tuple(
        (
            row.backend,
            row.format,
            *((row.output,) if with_output else ()),
            *(AGGREGATE[key].cell(row.summary.at(key, param)) for key, param in columns),
        )
        for row in report.rows
    )
    return TextTable(
        title=title,
        headers=(*labels, *headers),
        numeric=(*(False for _ in labels), *(True for _ in headers)),
        rows=rows,
        caption=caption,
    )


def ranking_table(report: BenchReport) -> TextTable:
    """Recall@k, MRR, first-hit rank percentiles and tokens@50."""
    columns: list[Column] = [("recall", k) for k in report.ks]
    columns += [(key, None) for key in ("mrr", "rank_p50", "rank_p95", "questions_without_hit")]
    columns.append((f"tokens_at_{TOKEN_DEPTH}", None))
    return _table(
        report,
        columns,
        f"Ranking · {report.schema} · {report.bench_file}: {report.question_count:,} "
        f"questions, {report.target_count:,} targets · tokens in {report.encoding}",
        "R@k: share of expected coordinates in the top k. rank p50/p95: first correct hit, "
        f"over questions with one (no hit: the others). tokens@{TOKEN_DEPTH}: mean cost of the "
        f"top {TOKEN_DEPTH}. – : not a ranked list.",
    )


def budget_table(report: BenchReport) -> TextTable:
    """Recall on what each output shows within each token budget."""
    return _table(
        report,
        [("budget_recall", budget) for budget in report.budgets],
        f"Recall within a token budget ({report.encoding})",
        "A list keeps hits in rank order until the next one would exceed the budget; "
        "a slice is built anew for each budget.",
    )


def completeness_columns(report: BenchReport) -> list[Column]:
    """complete@(deepest k); complete within every second budget counting down from the
    largest (so eight budgets fit 100 columns; --json and the chart have all of them);
    tokens to complete p50; how many never complete."""
    shown = sorted(report.budgets[::-1][::2])
    columns: list[Column] = [("complete", max(report.ks))]
    columns += [("budget_complete", budget) for budget in shown]
    columns += [("tokens_to_complete_p50", None), ("never_complete", None)]
    return columns


def completeness_table(report: BenchReport) -> TextTable:
    """Share of questions whose expected coordinates are all shown, and what that costs."""
    return _table(
        report,
        completeness_columns(report),
        f"Complete: every expected coordinate shown ({report.encoding})",
        f"C@k: within the top k. C≤B: within B tokens. p50 tok: median tokens to complete, over "
        f"questions complete within {max(report.budgets):,}; never: the others.",
    )


def tables(report: BenchReport) -> tuple[TextTable, TextTable, TextTable]:
    return ranking_table(report), budget_table(report), completeness_table(report)


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
    """Every table, never squeezed: a console narrower than a table is widened to fit it,
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
    """Write every table to `path` as GitHub markdown."""
    write_output_file(path, report_markdown(report).encode("utf-8"))
