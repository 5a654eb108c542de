"""What a schema change did: coordinates, costs and — with labelled questions — agents.

`diff_schema_versions` opens both versions through a `Navigator` (files or URLs, with the
same settings), compares their coordinates (`compare.coordinates`), the token cost of every
form (`compare.costs`) and, given a bench file, which questions' labels name a removed or
changed coordinate and how each question's completeness moved (`bench` on both versions,
compared as `bench --baseline` compares them).

The check fails (`regressed`) on a breaking change (graphql-core's verdict) unless
`allow_breaking`, on a measure that fell more than `max_drop`, and on a form that grew more
than `max_growth` percent.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from schemanav.compare.coordinates import CoordinateDiff, diff_schemas
from schemanav.compare.costs import CostComparison, compare_prices
from schemanav.compare.findings import Finding, Severity
from schemanav.compare.quality import BenchComparison, compare_bench
from schemanav.records import to_json
from schemanav.redaction import Redactor
from schemanav.wording import counted

if TYPE_CHECKING:
    from schemanav.bench.labelled import LabelledQuery
    from schemanav.events import Events
    from schemanav.settings import Settings


@dataclass(frozen=True)
class LabelTouch:
    """A label of a question naming a coordinate that was removed or changed, and how."""

    coordinate: str
    how: str


@dataclass(frozen=True)
class TouchedQuestion:
    question: str
    labels: tuple[LabelTouch, ...]

    def text(self) -> str:
        return f'"{self.question}": ' + ", ".join(f"{t.coordinate} {t.how}" for t in self.labels)


@dataclass(frozen=True)
class SchemaDiff:
    """Everything `schemanav diff` reports; `bench` is None without labelled questions."""

    old: str
    new: str
    coordinates: CoordinateDiff
    costs: CostComparison
    touched: tuple[TouchedQuestion, ...]
    bench: BenchComparison | None
    allow_breaking: bool
    # Header values and URL credentials: a live schema may echo them into a description (or
    # a default value), which the findings, the tables and the JSON would otherwise quote.
    redact: Redactor = field(default_factory=Redactor, compare=False, repr=False)

    @property
    def regressed(self) -> bool:
        return any(finding.severity is Severity.REGRESSION for finding in self.findings())

    def findings(self) -> Iterator[Finding]:
        for finding in self._findings():
            yield replace(finding, text=self.redact(finding.text))

    def _findings(self) -> Iterator[Finding]:
        breaking = Severity.BREAKING if self.allow_breaking else Severity.REGRESSION
        for change in self.coordinates.breaking:
            yield Finding(breaking, 1.0, f"breaking: {change.description}")
        if self.bench is not None:
            yield from self.bench.findings()
        for question in self.touched:
            yield Finding(
                Severity.NOTICE, len(question.labels), f"labels touched: {question.text()}"
            )
        for change in self.coordinates.dangerous:
            yield Finding(Severity.NOTICE, 0.5, f"dangerous: {change.description}")
        yield from self.costs.findings()
        yield from _aspect_findings(self.coordinates)

    def as_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = self.redact.json(self._record())
        return record

    def _record(self) -> dict[str, Any]:
        return {
            "old": self.old,
            "new": self.new,
            "regressed": self.regressed,
            "allow_breaking": self.allow_breaking,
            **self.coordinates.as_dict(),
            "costs": self.costs.as_dict(),
            "questions_touched": [to_json(question) for question in self.touched],
            "bench": None if self.bench is None else self.bench.as_dict(),
        }


_NAMED = 5


def _aspect_findings(coordinates: CoordinateDiff) -> Iterator[Finding]:
    """One line per aspect that changed (`7 coordinates with deprecation changed: …`) and one
    for the coordinates added: what an agent reads differently, short enough for a comment."""
    by_aspect: dict[str, list[str]] = {}
    for change in coordinates.changed:
        for aspect in change.aspects:
            by_aspect.setdefault(aspect, []).append(change.coordinate)
    groups = [(f"with {aspect} changed", names) for aspect, names in by_aspect.items()]
    groups.append(("added", [facts.coordinate for facts in coordinates.added]))
    for what, names in groups:
        if names:
            shown = ", ".join(names[:_NAMED])
            more = f" and {len(names) - _NAMED} more" if len(names) > _NAMED else ""
            text = f"{counted(len(names), 'coordinate')} {what}: {shown}{more}"
            yield Finding(Severity.NOTICE, 0.0, text)


def touched_questions(
    queries: list[LabelledQuery], coordinates: CoordinateDiff
) -> tuple[TouchedQuestion, ...]:
    """The questions whose labels name a removed or changed coordinate, in file order."""
    how = coordinates.touched()
    return tuple(
        TouchedQuestion(query.question, touches)
        for query in queries
        if (
            touches := tuple(
                LabelTouch(label, how[label])
                for label in query.expected_coordinates
                if label in how
            )
        )
    )


def diff_schema_versions(
    settings: Settings,
    old: str,
    new: str,
    *,
    max_drop: float | None = None,
    max_growth: float | None = None,
    allow_breaking: bool = False,
    events: Events | None = None,
) -> SchemaDiff:
    """Compare schema `old` with `new` (paths or URLs) under `settings`; when it names a
    `bench_file`, score its labelled questions on both versions too."""
    from schemanav.bench.labelled import load_labelled
    from schemanav.bench.runner import run_bench
    from schemanav.events import SilentEvents
    from schemanav.navigator import Navigator
    from schemanav.schema.source import headers_from

    before = settings.model_copy(update={"schema": old})
    after = settings.model_copy(update={"schema": new})
    events = events or SilentEvents()
    old_navigator, new_navigator = Navigator(before, events), Navigator(after, events)
    redact = Redactor(
        headers_from(settings), urls=[url for url in (old, new, settings.endpoint) if url]
    )
    coordinates = diff_schemas(old_navigator.loaded.schema, new_navigator.loaded.schema)
    coordinates = coordinates.redacted(redact)
    costs = compare_prices(
        old_navigator.price().as_dict(),
        new_navigator.price().as_dict(),
        baseline_label=old_navigator.label,
        max_growth=max_growth,
    )
    touched: tuple[TouchedQuestion, ...] = ()
    bench = None
    if settings.bench_file:
        touched = touched_questions(load_labelled(settings.bench_file), coordinates)
        runs = [run_bench(version, events).as_dict() for version in (before, after)]
        bench = compare_bench(
            runs[0], runs[1], baseline_label=old_navigator.label, max_drop=max_drop
        )
    return SchemaDiff(
        old=old_navigator.label,
        new=new_navigator.label,
        coordinates=coordinates,
        costs=costs,
        touched=touched,
        bench=bench,
        allow_breaking=allow_breaking,
        redact=redact,
    )
