"""Three charts of a benchmark run: recall against depth k, recall against token budget, and
the share of complete questions against token budget; one line per row.

matplotlib is an optional extra (`schemanav[plot]`); it is imported only when a chart is
asked for, and drawn on a bare `Figure` (no pyplot global state, no display needed).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.bench.report import write_output_file
from schemanav.errors import SchemanavError

if TYPE_CHECKING:
    from schemanav.bench.runner import BenchReport

RECALL_BY_DEPTH = "recall-by-depth"
RECALL_BY_BUDGET = "recall-by-budget"
COMPLETE_BY_BUDGET = "complete-by-budget"
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise SchemanavError(
            "--plot needs matplotlib: install schemanav[plot] (pip install 'schemanav[plot]')"
        ) from None
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


def _chart(report: BenchReport, chart: Chart, subtitle: str, image_format: str) -> bytes:
    xs = report.budgets if chart.by_budget else report.ks
    figure = _figure_class()(figsize=(7.5, 4.8), layout="constrained")
    axes = figure.add_subplot()
    for index, row in enumerate(report.rows):
        ys = [row.summary.at(chart.aggregate, x) for x in xs]
        if any(y is None for y in ys):
            continue  # not a ranked list: no recall@k
        label = f"{row.backend} · {row.format}"
        if report.outputs != ("list",):
            label += f" · {row.output}"
        axes.plot(xs, ys, marker=_MARKERS[index % len(_MARKERS)], linewidth=1.8, label=label)
    axes.set_xscale("log")
    axes.set_xticks(xs, [f"{x:,}" for x in xs])
    axes.minorticks_off()
    axes.set_ylim(0, 1)
    axes.set_xlabel(chart.xlabel.format(encoding=report.encoding))
    axes.set_ylabel(chart.ylabel)
    axes.set_title(f"{chart.title}{subtitle}", loc="left", fontsize=10)
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=8, loc="best")
    buffer = io.BytesIO()
    # No creation date in the metadata, so the same run draws byte-identical SVGs.
    metadata: dict[str, Any] = {"Date": None} if image_format == "svg" else {}
    figure.savefig(buffer, format=image_format, metadata=metadata, dpi=120)
    return buffer.getvalue()


def write_plots(report: BenchReport, directory: Path, image_format: str = "svg") -> list[Path]:
    """Draw every chart into `directory` (created if needed); return the files written."""
    # Two title lines: what is plotted, then on which schema (a long path would run off).
    schema = report.schema if "://" in report.schema else Path(report.schema).name
    subtitle = f"\n{schema} · {report.question_count:,} questions, {report.target_count:,} targets"
    written: list[Path] = []
    for chart in CHARTS:
        path = directory / f"{chart.stem}.{image_format}"
        write_output_file(path, _chart(report, chart, subtitle, image_format))
        written.append(path)
    return written
