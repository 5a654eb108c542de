"""Two charts of a benchmark run: recall against depth k, and recall against token budget.

matplotlib is an optional extra (`schemanav[plot]`); it is imported only when a chart is
asked for, and drawn on a bare `Figure` (no pyplot global state, no display needed).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.bench.report import write_output_file
from schemanav.errors import SchemanavError

if TYPE_CHECKING:
    from schemanav.bench.runner import BenchReport

RECALL_BY_DEPTH = "recall-by-depth"
RECALL_BY_BUDGET = "recall-by-budget"
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise SchemanavError(
            "--plot needs matplotlib: install schemanav[plot] (pip install 'schemanav[plot]')"
        ) from None
    return Figure


def _chart(
    report: BenchReport,
    xs: tuple[int, ...],
    ys_of_row: list[list[float]],
    xlabel: str,
    title: str,
    image_format: str,
) -> bytes:
    figure = _figure_class()(figsize=(7.5, 4.8), layout="constrained")
    axes = figure.add_subplot()
    for index, (row, ys) in enumerate(zip(report.rows, ys_of_row, strict=True)):
        axes.plot(
            xs,
            ys,
            marker=_MARKERS[index % len(_MARKERS)],
            linewidth=1.8,
            label=f"{row.backend} · {row.format}",
        )
    axes.set_xscale("log")
    axes.set_xticks(xs, [f"{x:,}" for x in xs])
    axes.minorticks_off()
    axes.set_ylim(0, 1)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("recall (mean over questions)")
    axes.set_title(title, loc="left", fontsize=10)
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=8, loc="best")
    buffer = io.BytesIO()
    # No creation date in the metadata, so the same run draws byte-identical SVGs.
    metadata: dict[str, Any] = {"Date": None} if image_format == "svg" else {}
    figure.savefig(buffer, format=image_format, metadata=metadata, dpi=120)
    return buffer.getvalue()


def write_plots(report: BenchReport, directory: Path, image_format: str = "svg") -> list[Path]:
    """Draw both charts into `directory` (created if needed); return the files written."""
    # Two title lines: what is plotted, then on which schema (a long path would run off).
    schema = report.schema if "://" in report.schema else Path(report.schema).name
    subtitle = f"\n{schema} · {report.question_count:,} questions, {report.target_count:,} targets"
    charts = {
        RECALL_BY_DEPTH: _chart(
            report,
            report.ks,
            [[row.summary.recall[k] for k in report.ks] for row in report.rows],
            "depth k (hits read, best first)",
            f"Recall@k{subtitle}",
            image_format,
        ),
        RECALL_BY_BUDGET: _chart(
            report,
            report.budgets,
            [[row.summary.budget_recall[b] for b in report.budgets] for row in report.rows],
            f"token budget ({report.encoding})",
            f"Recall within a token budget{subtitle}",
            image_format,
        ),
    }
    written: list[Path] = []
    for stem, data in charts.items():
        path = directory / f"{stem}.{image_format}"
        write_output_file(path, data)
        written.append(path)
    return written
