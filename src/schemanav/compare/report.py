"""The comparisons as tables and as a comment-sized markdown summary.

Tables are `bench.report.TextTable`s, so a terminal (Rich), a pipe (plain aligned lines) and
markdown render the same cells. The summary leads with the verdict and the worst three
findings (`compare.findings.worst`), then folds the rest into a `<details>` block, cut at
`DETAILS_SHOWN` lines: a pull-request comment, not a report (`--json` has everything).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from schemanav.bench.metrics import AGGREGATE
from schemanav.bench.report import TextTable, print_table, to_markdown
from schemanav.compare.findings import Finding, Severity, worst
from schemanav.wording import counted

if TYPE_CHECKING:
    from rich.console import Console

    from schemanav.compare.costs import CostComparison
    from schemanav.compare.quality import BenchComparison, RowComparison
    from schemanav.compare.schema_change import SchemaDiff

DETAILS_SHOWN = 20


def verdict(regressed: bool) -> str:
    return "regression (exit 1)" if regressed else "no regression (exit 0)"


def _table(
    title: str,
    headers: Sequence[str],
    numeric: Sequence[bool],
    rows: Iterable[Sequence[str]],
    caption: str = "",
) -> TextTable:
    return TextTable(title, tuple(headers), tuple(numeric), tuple(map(tuple, rows)), caption)


def measure_table(row: RowComparison) -> TextTable:
    """The measures of one row that changed, before and after (unchanged ones counted)."""
    changed = [measure for measure in row.measures if measure.changed]
    cells = []
    for measure in changed:
        cell = AGGREGATE[measure.measure].cell
        change = measure.change
        cells.append(
            (
                measure.label,
                cell(measure.before),
                cell(measure.after),
                _change(measure.measure, change),
                _change_words(measure.measure, change, worse=measure.worse),
            )
        )
    same = len(row.measures) - len(changed)
    return _table(
        f"{row.label}: measures against the baseline",
        ("measure", "before", "after", "change", ""),
        (False, True, True, True, False),
        cells,
        f"{counted(same, 'measure')} unchanged." if changed else "Every measure unchanged.",
    )


def _counts(key: str) -> str | None:
    """What a measure counts, when it is a count or a cost rather than a share."""
    if "tokens" in key:
        return "tokens"
    if key in ("never_complete", "questions_without_hit"):
        return "questions"
    if key.startswith("rank"):
        return "rank"
    return None


def _change(key: str, change: float | None) -> str:
    """The change at the precision of its measure: a share to three decimals, questions and
    ranks whole, tokens to one decimal below 10 (so a change under one token is not shown as
    a share)."""
    if change is None:
        return "–"
    what = _counts(key)
    if what is None:
        return f"{change:+.3f}"
    if what in ("questions", "rank"):  # whole questions, whole ranks (a p50 may be a half)
        return f"{change:+,.1f}" if change % 1 else f"{change:+,.0f}"
    return f"{change:+,.1f}" if abs(change) < 10 else f"{change:+,.0f}"


def _change_words(key: str, change: float | None, *, worse: bool) -> str:
    """The change in words that fit its measure: a share rose or fell, tokens and questions
    are more or fewer, a rank is later or earlier; then whether that is worse or better."""
    verdict = "worse" if worse else "better"
    if change is None:
        return verdict
    what = _counts(key)
    if what == "rank":
        return f"{'later' if change > 0 else 'earlier'} first hit, {verdict}"
    if what is not None:
        return f"{'more' if change > 0 else 'fewer'} {what}, {verdict}"
    return f"{'rose' if change > 0 else 'fell'}, {verdict}"


def question_table(comparison: BenchComparison) -> TextTable:
    """Every question whose completeness changed, per row: points lost and gained."""

    def tokens(value: int | None) -> str:
        return "never" if value is None else f"{value:,}"

    cells = [
        (
            question.question,
            row.label,
            row.compact(question.lost) or "–",
            row.compact(question.gained) or "–",
            f"{tokens(question.tokens_before)} → {tokens(question.tokens_after)}",
        )
        for row in comparison.rows
        for question in row.questions
    ]
    return _table(
        "Questions whose completeness changed",
        ("question", "row", "lost", "gained", "tokens to complete"),
        (False, False, False, False, True),
        cells,
        "C@k: complete in the top k; C≤B: complete within B tokens; never: not within the "
        "largest budget."
        if cells
        else "No question changed completeness.",
    )


def cost_table(costs: CostComparison) -> TextTable:
    cells = [
        (
            change.form,
            f"{change.before:,}",
            f"{change.after:,}",
            f"{change.change:+,}",
            "–" if change.percent is None else f"{change.percent:+.1f}%",
        )
        for change in costs.changes
    ]
    limit = "" if costs.max_growth is None else f" --max-growth {costs.max_growth:g}%."
    return _table(
        f"Tokens ({costs.encoding}) against {costs.baseline}",
        ("form", "before", "after", "change", "%"),
        (False, True, True, True, True),
        cells,
        f"Coordinates {costs.coordinates[0]:,} → {costs.coordinates[1]:,}.{limit}",
    )


def coordinate_table(diff: SchemaDiff) -> TextTable:
    coordinates = diff.coordinates
    cells: list[tuple[str, str, str, str]] = [
        (facts.coordinate, facts.kind, "added", facts.type) for facts in coordinates.added
    ]
    cells += [
        (
            gone.coordinate,
            gone.kind,
            "removed",
            f"renamed to {gone.renamed_to}?" if gone.renamed_to else "",
        )
        for gone in coordinates.removed
    ]
    for change in coordinates.changed:
        for aspect in change.changes:
            cells.append(
                (
                    change.coordinate,
                    change.kind,
                    aspect.aspect,
                    f"{_short(aspect.before)} → {_short(aspect.after)}",
                )
            )
    return _table(
        "Coordinates added, removed and changed",
        ("coordinate", "kind", "what", "detail"),
        (False, False, False, False),
        cells,
        f"{len(coordinates.added)} added, {len(coordinates.removed)} removed, "
        f"{len(coordinates.changed)} changed; {len(coordinates.breaking)} breaking and "
        f"{len(coordinates.dangerous)} dangerous changes (graphql-core).",
    )


def _short(text: str | None, limit: int = 60) -> str:
    if text is None:
        return "none"
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def touched_table(diff: SchemaDiff) -> TextTable:
    cells = [
        (question.question, touch.coordinate, touch.how)
        for question in diff.touched
        for touch in question.labels
    ]
    return _table(
        "Questions whose labels name a removed or changed coordinate",
        ("question", "label", "how"),
        (False, False, False),
        cells,
        "" if cells else "No label names a removed or changed coordinate.",
    )


def print_text_tables(console: Console, tables: Iterable[TextTable]) -> None:
    """Each table as it fits (`bench.report.print_table`); a blank line between."""
    for number, table in enumerate(tables):
        if number:
            console.print()
        print_table(console, table)


def bench_tables(comparison: BenchComparison) -> list[TextTable]:
    return [question_table(comparison), *(measure_table(row) for row in comparison.rows)]


def diff_tables(diff: SchemaDiff) -> list[TextTable]:
    """The tables of `schemanav diff`, header values and URL credentials redacted (a live
    schema's descriptions may echo them)."""
    tables = [coordinate_table(diff), cost_table(diff.costs)]
    if diff.bench is not None:
        tables += [touched_table(diff), *bench_tables(diff.bench)]
    redact = diff.redact
    return [
        TextTable(
            redact(table.title),
            table.headers,
            table.numeric,
            tuple(tuple(redact(cell) for cell in row) for row in table.rows),
            redact(table.caption),
        )
        for table in tables
    ]


def _escaped(text: str) -> str:
    """Text as markdown shows it literally: no HTML from a question or a description."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def summary_markdown(
    title: str, regressed: bool, findings: Iterable[Finding], details: Sequence[TextTable] = ()
) -> str:
    """The verdict, the worst three findings, then the rest and the tables folded away."""
    ordered = worst(findings, None)
    lead = [finding for finding in ordered[:3] if finding.severity is not Severity.BETTER]
    lines = [f"### {_escaped(title)}: {verdict(regressed)}", ""]
    if lead:
        lines += ["**Worst changes**", ""]
        lines += [f"{number}. {_escaped(f.text)}" for number, f in enumerate(lead, start=1)]
    else:
        lines.append("Nothing got worse.")
    rest = ordered[len(lead) :]
    if rest or details:
        lines += ["", f"<details><summary>{counted(len(rest), 'more finding')}</summary>", ""]
        lines += [f"- {_escaped(finding.text)}" for finding in rest[:DETAILS_SHOWN]]
        if len(rest) > DETAILS_SHOWN:
            lines.append(f"- … and {len(rest) - DETAILS_SHOWN} more (`--json` has them all)")
        for table in details:
            lines += ["", to_markdown(_escaped_table(table)).rstrip("\n")]
            if len(table.rows) > DETAILS_SHOWN:
                lines.append(f"… and {len(table.rows) - DETAILS_SHOWN} more rows (`--json`)")
        # A blank line after the HTML block, so a summary pasted after this one renders.
        lines += ["", "</details>", ""]
    return "\n".join(lines) + "\n"


def _escaped_table(table: TextTable) -> TextTable:
    """The table with its text escaped, cut to its first `DETAILS_SHOWN` rows."""
    return TextTable(
        _escaped(table.title),
        table.headers,
        table.numeric,
        tuple(tuple(_escaped(cell) for cell in row) for row in table.rows[:DETAILS_SHOWN]),
        _escaped(table.caption),
    )
