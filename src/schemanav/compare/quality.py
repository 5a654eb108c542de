"""Navigation quality against a baseline: this `bench` run beside an earlier `bench --json`.

Both sides are read as the JSON `bench --json` prints (the run's `BenchReport.as_dict()`), so a
baseline written by any earlier version with per-question results compares alike. The two
runs must have measured the same thing — the same questions (by their text, in order), rows
(backend × format × output), cutoffs and budgets — or the comparison is refused, naming what
differs. A question whose labels changed is compared and listed as relabelled.

Per row, every aggregate of `bench.metrics.AGGREGATES` (but the dispositions, counts that
the completeness measures already cover) is given before and after; per question, the
completeness points (`C@k`, `C≤B`) it lost or gained. `max_drop` turns a fall of more than
that share in complete-within-budget, recall@k or MRR into a regression, naming the
questions that got worse on that measure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemanav.bench.metrics import AGGREGATE, AGGREGATES, short_tokens
from schemanav.compare.findings import Finding, Severity, quoted, read_json_file
from schemanav.errors import InputError
from schemanav.records import to_json
from schemanav.wording import counted

HIGHER_IS_BETTER = frozenset({"recall", "mrr", "budget_recall", "complete", "budget_complete"})
LOWER_IS_BETTER = frozenset(
    {
        "rank_p50",
        "rank_p95",
        "questions_without_hit",
        "tokens_at_50",
        "tokens_to_complete_p50",
        "tokens_to_complete_p95",
        "never_complete",
    }
)
NOT_COMPARED = frozenset({"dispositions"})
GATED = ("budget_complete", "recall", "mrr")
"""The measures `--max-drop` watches (shares of questions, 0 to 1)."""
_TOLERANCE = 1e-9  # float noise in a mean over questions is no drop
_REMEDY = "write one with `schemanav bench --json > FILE` (with the same flags as this run)"


def load_bench_baseline(path: Path) -> dict[str, Any]:
    """A `bench --json` result from `path`, checked for what a comparison reads."""
    payload = read_json_file(path, "bench baseline", _REMEDY)
    problem = _shape_problem(payload)
    if problem:
        raise InputError(f"{path}: not a `schemanav bench --json` result ({problem}); {_REMEDY}")
    return payload


def _shape_problem(payload: Mapping[str, Any]) -> str | None:
    for key in ("ks", "budgets", "outputs", "rows"):
        if not isinstance(payload.get(key), list):
            return f"no {key!r} list"
    for key in ("ks", "budgets"):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in payload[key]):
            return f"{key!r} holds something other than whole numbers"
    texts: list[list[object]] = []
    for row in payload["rows"]:
        if not isinstance(row, dict):
            return "a row is not an object"
        if not all(isinstance(row.get(key), str) for key in ("backend", "format", "output")):
            return "a row lacks its backend, format or output"
        questions = row.get("per_question")
        if not isinstance(questions, list):
            return "a row has no per-question results"
        for question in questions:
            if not isinstance(question, dict) or not isinstance(question.get("question"), str):
                return "a per-question result has no question"
            for key in ("complete", "budget_complete"):
                if not isinstance(question.get(key), dict):
                    return f"a per-question result has no {key!r}"
        texts.append([question["question"] for question in questions])
    if any(questions != texts[0] for questions in texts):
        return "its rows hold different questions"
    return None


@dataclass(frozen=True)
class MeasureChange:
    """One aggregate of one row at one cutoff or budget (`at`, None for a plain figure)."""

    measure: str
    at: int | None
    label: str
    before: float | None
    after: float | None

    @property
    def change(self) -> float | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before

    @property
    def worse(self) -> bool:
        """Lower for a share, higher for a rank or a cost; a figure that appeared or went
        (a question left with no hit) is worse when the better side had one."""
        change = self.change
        if change is None:
            return (
                self.measure in LOWER_IS_BETTER and self.after is None and self.before is not None
            )
        if self.measure in HIGHER_IS_BETTER:
            return change < -_TOLERANCE
        return change > _TOLERANCE

    @property
    def changed(self) -> bool:
        change = self.change
        return (self.before is None) != (self.after is None) or (
            change is not None and abs(change) > _TOLERANCE
        )

    def as_dict(self) -> dict[str, Any]:
        return to_json(self, change=self.change, worse=self.worse)


@dataclass(frozen=True)
class QuestionChange:
    """A question whose completeness changed: the points (`C@k`, `C≤B`) it lost and gained,
    and its tokens to complete before and after (None: never within the largest budget)."""

    question: str
    lost: tuple[str, ...]
    gained: tuple[str, ...]
    tokens_before: int | None
    tokens_after: int | None

    def as_dict(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Regression:
    """A gated measure of one row that fell by more than `--max-drop`, and the questions that
    got worse on it (for C≤B: the ones that stopped being complete within B tokens)."""

    row: str
    measure: str
    before: float
    after: float
    questions: tuple[str, ...]
    why: str

    @property
    def drop(self) -> float:
        return self.before - self.after

    def as_dict(self) -> dict[str, Any]:
        return to_json(self, drop=self.drop)

    def text(self) -> str:
        named = "; ".join(f'"{question}"' for question in self.questions) or "none by itself"
        return (
            f"{self.row}: {self.measure} fell {self.before:.3f} → {self.after:.3f} "
            f"(−{self.drop:.3f}); {self.why}: {named}"
        )


@dataclass(frozen=True)
class RowComparison:
    backend: str
    format: str
    output: str
    measures: tuple[MeasureChange, ...]
    questions: tuple[QuestionChange, ...]

    @property
    def label(self) -> str:
        return f"{self.backend} · {self.format} · {self.output}"

    def compact(self, points: Sequence[str]) -> str:
        """`C@5–C@50 C≤125–C≤16k`: completeness points, a run of three or more neighbours
        (in this row's order of cutoffs, then budgets) shown by its ends."""
        order = {measure.label: position for position, measure in enumerate(self.measures)}
        runs: list[list[str]] = []
        for point in points:
            last = runs[-1][-1] if runs else ""
            neighbours = order.get(point, -2) == order.get(last, -9) + 1
            if neighbours and point[:2] == last[:2]:
                runs[-1].append(point)
            else:
                runs.append([point])
        return " ".join(f"{run[0]}–{run[-1]}" if len(run) > 2 else " ".join(run) for run in runs)

    def as_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "format": self.format,
            "output": self.output,
            "measures": [measure.as_dict() for measure in self.measures],
            "questions": [question.as_dict() for question in self.questions],
        }


@dataclass(frozen=True)
class BenchComparison:
    """This run against its baseline, row by row; `regressions` fail the check."""

    baseline: str
    max_drop: float | None
    rows: tuple[RowComparison, ...]
    relabelled: tuple[str, ...]
    regressions: tuple[Regression, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "baseline": self.baseline,
            "max_drop": self.max_drop,
            "regressed": bool(self.regressions),
            "regressions": [regression.as_dict() for regression in self.regressions],
            "relabelled": list(self.relabelled),
            "rows": [row.as_dict() for row in self.rows],
        }

    def findings(self) -> Iterator[Finding]:
        """Regressions, then questions that stopped (or started) being complete; the
        measures themselves are in the tables (`compare.report.measure_table`)."""
        for regression in self.regressions:
            yield Finding(Severity.REGRESSION, regression.drop, regression.text())
        for row in self.rows:
            for question in row.questions:
                yield _question_finding(row, question)


def _question_finding(row: RowComparison, question: QuestionChange) -> Finding:
    def tokens(value: int | None) -> str:
        return "never" if value is None else f"{value:,} tokens"

    cost = f"complete at {tokens(question.tokens_before)} → {tokens(question.tokens_after)}"
    if question.lost:
        return Finding(
            Severity.WORSE,
            len(question.lost),
            f'"{question.question}" stopped being complete ({row.label}: {cost}; lost '
            f"{row.compact(question.lost)})",
        )
    return Finding(
        Severity.BETTER,
        len(question.gained),
        f'"{question.question}" became complete ({row.label}: {cost}; gained '
        f"{row.compact(question.gained)})",
    )


def compare_bench(
    baseline: Mapping[str, Any],
    current: Mapping[str, Any],
    *,
    baseline_label: str,
    max_drop: float | None = None,
) -> BenchComparison:
    """Compare two `bench --json` results; `InputError` naming every difference when they
    did not measure the same thing."""
    _check_same_run(baseline, current, baseline_label)
    ks, budgets = [int(k) for k in current["ks"]], [int(b) for b in current["budgets"]]
    before_rows = {_row_key(row): row for row in baseline["rows"]}
    rows = tuple(
        _compare_row(before_rows[_row_key(row)], row, ks, budgets) for row in current["rows"]
    )
    regressions: list[Regression] = []
    if max_drop is not None:
        for before, after, row in zip(
            (before_rows[_row_key(row)] for row in current["rows"]),
            current["rows"],
            rows,
            strict=True,
        ):
            regressions += _regressions(before, after, row, max_drop)
    return BenchComparison(
        baseline=baseline_label,
        max_drop=max_drop,
        rows=rows,
        relabelled=tuple(_relabelled(baseline, current)),
        regressions=tuple(regressions),
    )


def _row_key(row: Mapping[str, Any]) -> tuple[str, str, str]:
    return (row["backend"], row["format"], row["output"])


def _questions(report: Mapping[str, Any]) -> list[str]:
    rows = report["rows"]
    return [question["question"] for question in rows[0]["per_question"]] if rows else []


_FLAGS = {
    "ks": "--ks",
    "budgets": "--budgets",
    "backends": "--backend",
    "formats": "--format",
    "outputs": "--output",
}


def measured(report: Mapping[str, Any]) -> dict[str, list[Any]]:
    """What a `bench --json` result measured: cutoffs, budgets, and the backends, formats
    and outputs of its rows, each in order."""
    rows = report["rows"]
    plan: dict[str, list[Any]] = {key: [int(v) for v in report[key]] for key in ("ks", "budgets")}
    for position, key in enumerate(("backends", "formats", "outputs")):
        plan[key] = list(dict.fromkeys(_row_key(row)[position] for row in rows))
    return plan


def check_plan(baseline: Mapping[str, Any], plan: Mapping[str, list[Any]], label: str) -> None:
    """Refuse, before a run, a baseline that measured otherwise than `plan` will (any of the
    keys of `measured`; the questions are compared once the run has read them)."""
    _refuse(label, _differences(measured(baseline), plan))


def _differences(there: Mapping[str, list[Any]], here: Mapping[str, list[Any]]) -> list[str]:
    return [
        f"{key} {_listed(there[key])} there, {_listed(here[key])} here ({_FLAGS[key]})"
        for key in _FLAGS
        if key in here and there[key] != here[key]
    ]


def _refuse(label: str, differences: list[str]) -> None:
    if differences:
        raise InputError(
            f"the baseline {label} did not measure what this run did: "
            + "; ".join(differences)
            + "; run both with the same flags and --bench-file, or write a new baseline"
        )


def _check_same_run(baseline: Mapping[str, Any], current: Mapping[str, Any], label: str) -> None:
    differences = _differences(measured(baseline), measured(current))
    there_questions, here_questions = _questions(baseline), _questions(current)
    if there_questions != here_questions:
        differences.append(_question_difference(there_questions, here_questions))
    _refuse(label, differences)


def _listed(values: Sequence[object]) -> str:
    return quoted(",".join(str(value) for value in values)) or "none"


def _question_difference(there: list[str], here: list[str]) -> str:
    gone = [question for question in there if question not in here]
    new = [question for question in here if question not in there]
    parts = [f"{counted(len(there), 'question')} there, {len(here):,} here (--bench-file)"]
    if gone:
        parts.append(f"only there: {_quoted(gone)}")
    if new:
        parts.append(f"only here: {_quoted(new)}")
    if not gone and not new:
        parts.append("the same questions in another order or repeated")
    return ", ".join(parts)


def _quoted(questions: list[str], shown: int = 3) -> str:
    text = ", ".join(f'"{quoted(str(question))}"' for question in questions[:shown])
    return text + (f" and {len(questions) - shown} more" if len(questions) > shown else "")


def _relabelled(baseline: Mapping[str, Any], current: Mapping[str, Any]) -> Iterator[str]:
    if not baseline["rows"] or not current["rows"]:
        return
    for before, after in zip(
        baseline["rows"][0]["per_question"], current["rows"][0]["per_question"], strict=True
    ):
        if before.get("expected") != after.get("expected"):
            yield after["question"]


def _figure(row: Mapping[str, Any], key: str, at: int | None) -> float | None:
    value = row.get(key)
    if at is not None:
        value = value.get(str(at)) if isinstance(value, dict) else None
    # A per-question yes/no (complete within a budget) reads as 1 or 0.
    return float(value) if isinstance(value, int | float) else None


def _points(ks: Sequence[int], budgets: Sequence[int]) -> list[tuple[str, int, str]]:
    """Every completeness point of a question: (measure key, cutoff or budget, label)."""
    points = [("complete", k, f"C@{k}") for k in ks]
    return points + [("budget_complete", b, f"C≤{short_tokens(b)}") for b in budgets]


def _compare_row(
    before: Mapping[str, Any], after: Mapping[str, Any], ks: list[int], budgets: list[int]
) -> RowComparison:
    measures: list[MeasureChange] = []
    for aggregate in AGGREGATES:
        if aggregate.key in NOT_COMPARED:
            continue
        axis = aggregate.measure.axis.value
        params: list[int | None] = [None]
        if axis != "once":
            params = list(ks if axis == "k" else budgets)
        for at in params:
            measures.append(
                MeasureChange(
                    aggregate.key,
                    at,
                    aggregate.label(at or 0),
                    _figure(before, aggregate.key, at),
                    _figure(after, aggregate.key, at),
                )
            )
    questions = [
        change
        for old, new in zip(before["per_question"], after["per_question"], strict=True)
        if (change := _question_change(old, new, ks, budgets)) is not None
    ]
    return RowComparison(
        after["backend"], after["format"], after["output"], tuple(measures), tuple(questions)
    )


def _question_change(
    before: Mapping[str, Any], after: Mapping[str, Any], ks: list[int], budgets: list[int]
) -> QuestionChange | None:
    lost: list[str] = []
    gained: list[str] = []
    for key, at, label in _points(ks, budgets):
        was, now = before[key].get(str(at)) is True, after[key].get(str(at)) is True
        if was and not now:
            lost.append(label)
        elif now and not was:
            gained.append(label)
    if not lost and not gained:
        return None
    return QuestionChange(
        after["question"],
        tuple(lost),
        tuple(gained),
        _tokens(before.get("tokens_to_complete")),
        _tokens(after.get("tokens_to_complete")),
    )


def _tokens(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


_WHY = {
    "budget_complete": "stopped being complete within {at} tokens",
    "recall": "found fewer of their coordinates in the top {at}",
    "mrr": "first correct hit ranked lower",
}


def _regressions(
    before: Mapping[str, Any], after: Mapping[str, Any], row: RowComparison, max_drop: float
) -> Iterator[Regression]:
    for measure in row.measures:
        if measure.measure not in GATED or measure.change is None:
            continue
        assert measure.before is not None and measure.after is not None
        if -measure.change <= max_drop + _TOLERANCE:
            continue
        per_question = AGGREGATE[measure.measure].measure.key
        fell = [
            new["question"]
            for old, new in zip(before["per_question"], after["per_question"], strict=True)
            if _fell(_figure(old, per_question, measure.at), _figure(new, per_question, measure.at))
        ]
        yield Regression(
            row.label,
            measure.label,
            measure.before,
            measure.after,
            tuple(fell),
            _WHY[measure.measure].format(at=f"{measure.at:,}" if measure.at else ""),
        )


def _fell(before: float | None, after: float | None) -> bool:
    """A per-question figure that fell (a yes that became a no; a rank's 1/r that shrank)."""
    return before is not None and (after is None or after < before - _TOLERANCE)
