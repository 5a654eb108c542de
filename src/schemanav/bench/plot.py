"""Three charts of a benchmark run: recall against depth k, recall against token budget, and
the share of complete questions against token budget; one line per row.

matplotlib is an optional extra (`schemanav[plot]`); it is imported only when a chart is
asked for, and drawn on a bare `Figure` (no pyplot global state, no display needed).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.bench.report import make_folder
from schemanav.errors import MissingExtra
from schemanav.outputs import write_output_file
from schemanav.wording import counted

if TYPE_CHECKING:
    from schemanav.bench.metrics import Value
    from schemanav.bench.runner import BenchReport, BenchRow

RECALL_BY_DEPTH = "recall-by-depth"
RECALL_BY_BUDGET = "recall-by-budget"
COMPLETE_BY_BUDGET = "complete-by-budget"
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtra("--plot needs matplotlib", "plot") from None
    return Figure


@dataclass(frozen=True)
class Chart:
    """One chart: the file stem, the aggregate plotted (`bench.metrics.AGGREGATES`), whether
    its x axis is the cutoffs k or the budgets, and the words on it."""

    stem: str
    aggregate: str
    by_budget: bool
    xlabel: str
    ylabel: str
    title: str


CHARTS = (
    Chart(
        RECALL_BY_DEPTH,
        "recall",
        False,
        "depth k (hits read, best first)",
        "recall (mean over questions)",
        "Recall@k",
    ),
    Chart(
        RECALL_BY_BUDGET,
        "budget_recall",
        True,
        "token budget ({encoding})",
        "recall (mean over questions)",
        "Recall within a token budget",
    ),
    Chart(
        COMPLETE_BY_BUDGET,
        "budget_complete",
        True,
        "token budget ({encoding})",
        "share of questions complete",
        "Complete (every expected coordinate shown) within a token budget",
    ),
)


def _plain(artist: Any) -> None:
    """Draw a text as it is: a `$…$` in a schema path or backend name is not mathtext."""
    artist.set_usetex(False)
    artist.set_parse_math(False)


def _label(row: BenchRow, with_output: bool) -> str:
    return f"{row.backend} · {row.format}" + (f" · {row.output}" if with_output else "")


def _merged_label(rows: Sequence[BenchRow], with_output: bool) -> str:
    """One legend label for rows whose lines coincide: `structural · RAW = GLOSS = SDL` when
    only the format differs, else every row's label joined by ` = `."""
    first = rows[0]
    if all((row.backend, row.output) == (first.backend, first.output) for row in rows):
        formats = " = ".join(row.format for row in rows)
        return f"{first.backend} · {formats}" + (f" · {first.output}" if with_output else "")
    return " = ".join(_label(row, with_output) for row in rows)


def lines(report: BenchReport, chart: Chart) -> list[tuple[str, list[Value]]]:
    """The chart's lines, label and y values, in row order; rows with identical values are
    one line (structural ranks the same list in every format, so its lines coincide and would
    hide each other). Rows without the figure (a slice has no recall@k) are left out."""
    xs = report.budgets if chart.by_budget else report.ks
    with_output = report.outputs != ("list",)
    groups: dict[tuple[Value, ...], list[BenchRow]] = {}
    for row in report.rows:
        ys = tuple(row.summary.at(chart.aggregate, x) for x in xs)
        if any(y is None for y in ys):
            continue  # not a ranked list: no recall@k
        groups.setdefault(ys, []).append(row)
    return [(_merged_label(rows, with_output), list(ys)) for ys, rows in groups.items()]


def _chart(report: BenchReport, chart: Chart, subtitle: str, image_format: str) -> bytes:
    xs = report.budgets if chart.by_budget else report.ks
    figure = _figure_class()(figsize=(9, 4.8), layout="constrained")
    axes = figure.add_subplot()
    for index, (label, ys) in enumerate(lines(report, chart)):
        axes.plot(xs, ys, marker=_MARKERS[index % len(_MARKERS)], linewidth=1.8, label=label)
    axes.set_xscale("log")
    axes.set_xticks(xs, [f"{x:,}" for x in xs])
    axes.minorticks_off()
    axes.set_ylim(0, 1)
    texts = [
        axes.set_xlabel(chart.xlabel.format(encoding=report.encoding)),
        axes.set_ylabel(chart.ylabel),
        axes.set_title(f"{chart.title}{subtitle}", loc="left", fontsize=10),
    ]
    axes.grid(True, alpha=0.3)
    # Outside the axes, right of them: a legend inside covers points.
    legend = axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    for text in (*texts, *legend.get_texts()):
        _plain(text)
    buffer = io.BytesIO()
    # No creation date in the metadata, so the same run draws byte-identical SVGs.
    metadata: dict[str, Any] = {"Date": None} if image_format == "svg" else {}
    figure.savefig(buffer, format=image_format, metadata=metadata, dpi=120)
    return buffer.getvalue()


def write_plots(report: BenchReport, directory: Path, image_format: str = "svg") -> list[Path]:
    """Draw every chart into `directory` (created if needed); return the files written, each
    a regular file or a new path (`schemanav.outputs.write_output_file`)."""
    # Two title lines: what is plotted, then on which schema (a long path would run off).
    schema = report.schema if "://" in report.schema else Path(report.schema).name
    subtitle = (
        f"\n{schema} · {counted(report.question_count, 'question')}, "
        f"{counted(report.target_count, 'target')}"
    )
    make_folder(directory)
    written: list[Path] = []
    for chart in CHARTS:
        path = directory / f"{chart.stem}.{image_format}"
        write_output_file(path, _chart(report, chart, subtitle, image_format))
        written.append(path)
    return written
