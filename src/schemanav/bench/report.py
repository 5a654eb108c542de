"""The benchmark tables (recall@k; first hit, cost and dispositions; recall within a budget;
completeness) as plain cells, under one heading (schema, bench file, questions, targets).

The terminal (Rich), a pipe and `--markdown` render the same cells, so the README table and
the terminal table can never disagree about a figure or its rounding. Every column is an
aggregate declared once in `bench.metrics.AGGREGATES` (its label and cell format); a table
only says which aggregates, at which cutoffs or budgets, it shows. Designed for 80 columns:
a table wider than the terminal is split into parts that repeat the label columns; a pipe
gets plain aligned lines, complete however long; nothing is elided or dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from schemanav.bench.metrics import AGGREGATE, TOKEN_DEPTH
from schemanav.defaults import DEFAULT_K
from schemanav.errors import InputError
from schemanav.outputs import write_output_file as write_output_file
from schemanav.wording import counted

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


def heading(report: BenchReport) -> str:
    """What every table measured: schema, bench file, questions and targets, tokenizer."""
    return (
        f"{report.schema} · {report.bench_file}: {counted(report.question_count, 'question')}, "
        f"{counted(report.target_count, 'target')} · tokens in {report.encoding}"
    )


def disposition_k(report: BenchReport) -> int:
    """The cutoff whose dispositions the tables show: search's default k when measured,
    else the deepest k (--json has every k)."""
    return DEFAULT_K if DEFAULT_K in report.ks else max(report.ks)


def recall_table(report: BenchReport) -> TextTable:
    """Recall@k at every cutoff."""
    return _table(
        report,
        [("recall", k) for k in report.ks],
        "Recall@k",
        "R@k: share of expected coordinates in the top k. – : not a ranked list.",
    )


def ranking_table(report: BenchReport) -> TextTable:
    """MRR, first-hit rank percentiles, tokens@50 and the dispositions at one cutoff."""
    at = disposition_k(report)
    columns: list[Column] = [
        (key, None) for key in ("mrr", "rank_p50", "rank_p95", "questions_without_hit")
    ]
    columns += [(f"tokens_at_{TOKEN_DEPTH}", None), ("dispositions", at)]
    return _table(
        report,
        columns,
        "First hit, cost and dispositions",
        "rank p50/p95: first correct hit, over questions with one (no hit: the others). "
        f"tokens@{TOKEN_DEPTH}: mean cost of the top {TOKEN_DEPTH}. disp@{at}: how many "
        f"questions `search --k {at}` calls complete/partial/no_hit/over_k/budget_unsatisfied "
        "(--json: at every k). – : not a ranked list.",
    )


def budget_table(report: BenchReport) -> TextTable:
    """Recall on what each output shows within each token budget."""
    return _table(
        report,
        [("budget_recall", budget) for budget in report.budgets],
        f"Recall within a token budget ({report.encoding})",
        "A list keeps hits in rank order until the next one would exceed the budget; "
        "a slice within each budget holds every smaller budget's slice.",
    )


def completeness_columns(report: BenchReport) -> list[Column]:
    """complete@(deepest k); complete within each budget; tokens to complete p50; how many
    never complete."""
    columns: list[Column] = [("complete", max(report.ks))]
    columns += [("budget_complete", budget) for budget in report.budgets]
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


def tables(report: BenchReport) -> tuple[TextTable, ...]:
    return (
        recall_table(report),
        ranking_table(report),
        budget_table(report),
        completeness_table(report),
    )


def to_rich(table: TextTable, columns: Sequence[int] | None = None, title: str = "") -> Table:
    """A Rich table of `table` (only `columns`, by index, when given). Every text is taken
    as it is, never as Rich markup (a backend or file name may hold `[/x]`); figures never
    wrap, labels fold when the terminal is too narrow even for one figure beside them."""
    from rich.table import Table
    from rich.text import Text

    shown = list(range(len(table.headers))) if columns is None else list(columns)
    rich_table = Table(
        title=Text(title or table.title),
        title_justify="left",
        caption=Text(table.caption) if table.caption else None,
        caption_justify="left",
    )
    for index in shown:
        numeric = table.numeric[index]
        rich_table.add_column(
            Text(table.headers[index]),
            justify="right" if numeric else "left",
            no_wrap=numeric,
            overflow="fold",
        )
    for row in table.rows:
        rich_table.add_row(*(Text(row[index]) for index in shown))
    return rich_table


def _widths(table: TextTable) -> list[int]:
    return [
        max(len(cell) for cell in (header, *(row[index] for row in table.rows)))
        for index, header in enumerate(table.headers)
    ]


def column_groups(table: TextTable, width: int) -> list[list[int]]:
    """The table's columns split into as few tables as fit `width` (a boxed table needs 3
    characters per column and 1 for its right edge): each holds every label column and as
    many figure columns as fit, in order, at least one; no column is ever left out."""
    widths = _widths(table)
    labels = [index for index, numeric in enumerate(table.numeric) if not numeric]
    figures = [index for index, numeric in enumerate(table.numeric) if numeric]
    base = sum(widths[index] + 3 for index in labels) + 1
    groups: list[list[int]] = []
    current: list[int] = []
    used = base
    for index in figures:
        if current and used + widths[index] + 3 > width:
            groups.append(labels + current)
            current, used = [], base
        current.append(index)
        used += widths[index] + 3
    groups.append(labels + current)
    return groups


def plain_lines(table: TextTable) -> list[str]:
    """The table as plain aligned columns (two spaces apart), one line per row, however
    long: what a pipe or a file gets, every cell complete."""
    widths = _widths(table)

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(width) if numeric else cell.ljust(width)
            for cell, width, numeric in zip(cells, widths, table.numeric, strict=True)
        ).rstrip()

    lines = [table.title, line(table.headers), *(line(row) for row in table.rows)]
    return lines + ([table.caption] if table.caption else [])


def print_table(console: Console, table: TextTable) -> None:
    """One table as it fits where it goes: a pipe or a file gets plain aligned columns; a
    terminal a boxed table when it fits its width, else stacked records (one block per row,
    `header: cell` a line), so no cell is ever cut or folded inside an identifier. A table
    with no rows prints its caption alone (which says there was nothing)."""
    if not table.rows:
        if table.caption:
            console.print(table.caption, markup=False, highlight=False, soft_wrap=True)
        return
    if not console.is_terminal:
        for line in plain_lines(table):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
        return
    widths = _widths(table)
    if sum(widths) + 3 * len(widths) + 1 <= console.width:
        rich_table = to_rich(table)
        for column in rich_table.columns:
            column.no_wrap = True
        console.print(rich_table)
        return
    print_records(console, table)


def print_records(console: Console, table: TextTable) -> None:
    """The table as stacked records: its title, then per row `header  cell` lines (a label
    column first), a blank line apart. A cell too long for its line wraps between words under
    itself (a hanging indent); a word too long even for that starts its own line, whole."""
    from rich.text import Text

    console.print(Text(table.title), soft_wrap=False)
    name_width = max(len(header) for header in table.headers)
    for number, row in enumerate(table.rows):
        if number:
            console.print()
        for header, cell in zip(table.headers, row, strict=True):
            lead = f"  {header.ljust(name_width)}  "
            for line in hanging_lines(lead, cell, console.width):
                console.print(line, markup=False, highlight=False, soft_wrap=True)
    if table.caption:
        console.print(Text(table.caption))


def hanging_lines(lead: str, text: str, width: int) -> list[str]:
    """`lead` then `text` wrapped between words within `width` columns (as the terminal counts
    them), every further line indented as far as `lead`; a word longer than that room goes on
    a line of its own, moved left only as far as it must to fit, never cut."""
    from rich.cells import cell_len

    if cell_len(lead) + cell_len(text) <= width or not text.strip():
        return [f"{lead}{text}".rstrip()]
    indent = cell_len(lead)
    room = max(width - indent, 1)
    pieces: list[str] = []
    for word in text.split():
        if pieces and cell_len(pieces[-1]) + 1 + cell_len(word) <= room:
            pieces[-1] += f" {word}"
        else:
            pieces.append(word)
    lines = [lead.rstrip()] if indent + cell_len(pieces[0]) > width else []
    for piece in pieces:
        if not lines:
            lines.append(f"{lead}{piece}")
            continue
        shift = max(min(indent, width - cell_len(piece)), 0)
        lines.append(" " * shift + piece)
    return lines


def print_tables(console: Console, report: BenchReport) -> None:
    """Every table under one heading. On a terminal, boxed tables that fit its width: a table
    wider than the terminal is split into several, each repeating the label columns (a
    figure is never elided or dropped); a pipe or a file gets plain aligned columns."""
    console.print(heading(report), markup=False, highlight=False, soft_wrap=not console.is_terminal)
    for table in tables(report):
        if not any(cell != "–" for row in table.rows for cell in row[_label_count(table) :]):
            continue  # every figure "–" (e.g. recall@k of slices alone): nothing to show
        console.print()
        if not console.is_terminal:
            for line in plain_lines(table):
                console.print(line, markup=False, highlight=False, soft_wrap=True)
            continue
        groups = column_groups(table, console.width)
        for number, columns in enumerate(groups, start=1):
            title = table.title if len(groups) == 1 else f"{table.title} ({number}/{len(groups)})"
            if number > 1:
                console.print()
            rich_table = to_rich(table, columns, title)
            if number < len(groups):
                rich_table.caption = None  # once, under the last part
            console.print(rich_table)
    console.print()
    for sentence in summary_sentences(report):
        console.print(sentence, markup=False, highlight=False, soft_wrap=not console.is_terminal)


SENTENCE_ROWS = 3
"""The summary sentence names at most this many rows (the tables and --json have them all)."""


def summary_sentences(report: BenchReport) -> list[str]:
    """What the run found, in words: per row, how many questions complete (every expected
    coordinate shown) within which budget, and the list's MRR; then where the tables are
    explained."""
    count = report.question_count
    parts = []
    for row in report.rows[:SENTENCE_ROWS]:
        shares = [(budget, row.summary.at("budget_complete", budget)) for budget in report.budgets]
        known = [(budget, share) for budget, share in shares if isinstance(share, int | float)]
        if not known:
            continue
        best = known[-1][1]
        first = next(budget for budget, share in known if share >= best)
        complete = round(float(best) * count)
        label = f"{row.backend} · {row.format}" + (
            f" · {row.output}" if report.outputs != ("list",) else ""
        )
        text = f"{label}: {complete} of {count} complete within {first:,} tokens"
        if first != known[-1][0] and complete < count:
            text += f" (no more within {known[-1][0]:,})"
        mrr = row.summary.at("mrr")
        if isinstance(mrr, int | float):
            text += f", MRR {mrr:.3f}"
        parts.append(text)
    more = len(report.rows) - SENTENCE_ROWS
    rest = f"; {counted(more, 'more row')} in the tables" if more > 0 else ""
    found = (
        f"{counted(count, 'question')}, complete meaning every expected coordinate shown: "
        + "; ".join(parts)
        + rest
        + "."
    )
    return [
        found,
        "Each table's caption says what its columns are; docs/quality.md what the figures "
        "mean on real schemas, docs/dispositions.md what disp@k counts.",
    ]


def _label_count(table: TextTable) -> int:
    return sum(1 for numeric in table.numeric if not numeric)


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
    return "\n".join([_markdown_cell(heading(report)) + "\n", *map(to_markdown, tables(report))])


def write_markdown(report: BenchReport, path: Path) -> None:
    """Write every table to `path` as GitHub markdown (a regular file or a new path only, its
    mode kept: `schemanav.outputs.write_output_file`); its folder must exist."""
    write_output_file(path, report_markdown(report))


def make_folder(folder: Path) -> None:
    """Create a missing output folder (and its parents); one line when that fails."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot create the folder {folder}: {err.strerror or err}") from None
