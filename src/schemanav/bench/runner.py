"""Run labelled questions through every (backend × format × output) combination and score them.

Each question's ranked list is fetched once per (backend, format), deep enough for every
metric at once (recall@k, reciprocal rank, tokens@50 and the largest token budget), so the
figures in one row always describe the same ranking. An *output* is what an agent is handed
from that ranking: `list` (the hits themselves, cut to each budget) or `slice` (a schema
slice within each budget, holding every smaller budget's). Every output is scored by the
coordinates it shows within each budget, so lists and slices share the budget and
completeness columns.
"""

from __future__ import annotations

import dataclasses
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from schemanav.bench.labelled import (
    LabelledQuery,
    coordinate_kind,
    known_coordinates,
    load_labelled,
    shown_by_entry,
    unknown_coordinates,
)
from schemanav.bench.metrics import (
    TOKEN_DEPTH,
    MetricSummary,
    Observation,
    QuestionResult,
    View,
    evaluate_observation,
    summarise,
)
from schemanav.bench.parallel import QuestionPool, worker_count
from schemanav.corpus import Format
from schemanav.defaults import slice_rank_depth
from schemanav.errors import InputError
from schemanav.events import Events, SilentEvents
from schemanav.process import available_cores, no_cyclic_gc
from schemanav.retrieval import Ranking, Searcher, ranking_of
from schemanav.retrieval.dispositions import disposition
from schemanav.schema import bundled_path, schema_label
from schemanav.settings import Settings
from schemanav.text import strip_control
from schemanav.tokens import ENCODING_NAME
from schemanav.wording import counted

if TYPE_CHECKING:
    from schemanav.corpus import Corpus
    from schemanav.navigator import Navigator

BUNDLED_BENCH_FILE = "moviedb-sample.tsv"
BUNDLED_BENCH_LABEL = "moviedb-sample.tsv (bundled)"
MIN_LIST_DEPTH = 100
_LISTED_UNKNOWN = 20


@dataclass(frozen=True)
class QuestionRun:
    """One question's metrics and the head of its ranking (to debug a miss by eye)."""

    result: QuestionResult
    top_coordinates: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "question": self.result.question,
            "expected": list(self.result.expected),
            **self.result.as_json(),
            "top_coordinates": list(self.top_coordinates),
        }


@dataclass(frozen=True)
class BenchRow:
    """The scores of one (backend, format, output) combination over every question."""

    backend: str
    format: str
    output: str
    summary: MetricSummary
    questions: tuple[QuestionRun, ...]
    list_depth: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "format": self.format,
            "output": self.output,
            **self.summary.as_json(),
            "list_depth": self.list_depth,
            "seconds": self.seconds,
            "per_question": [question.as_dict() for question in self.questions],
        }


@dataclass(frozen=True)
class BenchReport:
    """A whole benchmark run: what was measured, against what, and one row per combination."""

    schema: str
    bench_file: str
    encoding: str
    question_count: int
    target_count: int
    targets_by_kind: Mapping[str, int]
    ks: tuple[int, ...]
    budgets: tuple[int, ...]
    outputs: tuple[str, ...]
    unknown_coordinates: tuple[str, ...]
    rows: tuple[BenchRow, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "bench_file": self.bench_file,
            "encoding": self.encoding,
            "questions": self.question_count,
            "targets": self.target_count,
            "targets_by_kind": dict(self.targets_by_kind),
            "ks": list(self.ks),
            "budgets": list(self.budgets),
            "outputs": list(self.outputs),
            "unknown_coordinates": list(self.unknown_coordinates),
            "rows": [row.as_dict() for row in self.rows],
        }


class Output(Protocol):
    """What an agent is handed from one question's ranking, observed at every budget."""

    def observe(
        self, question: str, ranking: Ranking, expected: Sequence[str], budgets: Sequence[int]
    ) -> Observation: ...


class ListOutput:
    """The ranked hits themselves; within a budget, the prefix that fits (`fit_prefix`).

    A hit shows what its rendering prints (`shown_by_entry`): its field and owner type
    always, its return type in GLOSS and SDL, its arguments in SDL only.
    """

    def __init__(self, corpus: Corpus, fmt: Format) -> None:
        shown = [shown_by_entry(entry, fmt) for entry in corpus.entries]
        self._shown = dict(zip(corpus.coordinates, shown, strict=True))
        # What each hit costs: its entry rendered in `fmt`, as every backend's hits show it.
        self._tokens = dict(zip(corpus.coordinates, corpus.token_counts(fmt), strict=True))
        # Which hits show a label: most hits show none of a question's, and the metrics
        # skip an empty item without comparing it to the labels.
        self._showing: dict[str, set[str]] = defaultdict(set)
        for coordinate, labels in self._shown.items():
            for label in labels:
                self._showing[label].add(coordinate)

    def observe(
        self, question: str, ranking: Ranking, expected: Sequence[str], budgets: Sequence[int]
    ) -> Observation:
        ranked = ranking.coordinates
        shown, nothing = self._shown, frozenset[str]()
        showing = set().union(*(self._showing.get(label, ()) for label in expected))
        seen = [
            shown[name] if name in showing else nothing if name in shown else frozenset((name,))
            for name in ranked
        ]
        tokens = list(map(self._tokens.__getitem__, ranked))
        return Observation.of_list(seen, tokens, expected, budgets)


SliceBuilder = Callable[[str, Ranking, int], View]
"""(question, its ranking, budget) → the coordinates a slice within that budget contains
(fields, `Type.field(arg:)`, types) and its tokens."""


class SliceOutput:
    """A schema slice rebuilt for each budget from the same ranked hits; within a budget it
    holds the coordinates it contains, so budget_complete = complete(contained(slice at B)).

    A slice depends on the question, its ranked hits and the budget, not on the list format:
    one output serves every format of a run, and a question ranked the same in another format
    (the structural backend ranks alike in all) reuses the slices already built."""

    def __init__(self, build: SliceBuilder) -> None:
        self._build = build
        # Per question: the ranking its slices were built from, and the slice per budget.
        self._built: dict[str, tuple[tuple[str, ...], dict[int, View]]] = {}

    def observe(
        self, question: str, ranking: Ranking, expected: Sequence[str], budgets: Sequence[int]
    ) -> Observation:
        ranked = tuple(ranking.coordinates)
        built = self._built.get(question)
        if built is None or built[0] != ranked:
            built = self._built[question] = (ranked, {})
        views = built[1]
        for budget in budgets:
            if budget not in views:
                views[budget] = self._build(question, ranking, budget)
        return Observation.of_views({budget: views[budget] for budget in budgets}, expected)


def _slice_output(navigator: Navigator, fmt: Format) -> Output:
    """Schema slices (`schemanav.retrieval.slicing`) grown from each question's ranked hits:
    the navigator's slicer, which `search --slice` and the MCP tool use."""
    slicer = navigator.slicer

    def build(question: str, ranking: Ranking, budget: int) -> View:
        # As deep as `Navigator.slice` ranks for this budget, not the run's largest: the
        # slice scored is the one `search --slice --budget B` prints, reading the question
        # as its ranking did.
        depth = slice_rank_depth(budget, len(navigator.corpus))
        piece = slicer.from_ranking(ranking, budget, question, depth)
        return View(frozenset(piece.coordinates), piece.tokens)

    return SliceOutput(build)


OUTPUTS: dict[str, Callable[[Navigator, Format], Output]] = {
    "list": lambda navigator, fmt: ListOutput(navigator.corpus, fmt),
    "slice": _slice_output,
}
"""Every output bench can score, by the name `--output` takes."""

FORMAT_FREE_OUTPUTS = frozenset({"slice"})
"""Outputs that do not read the list format: made once per run and shared by every format."""


def bench_formats(settings: Settings) -> list[Format]:
    """The formats `settings.format` names (any case), each once; refused with the choices if
    one is unknown."""
    formats: list[Format] = []
    for name in settings.format:
        try:
            formats.append(Format.parse(name))
        except ValueError as err:
            raise InputError(str(err)) from None
    if not formats:
        raise InputError("--format is empty: name at least one of RAW, DOT_PLUS_GLOSS, GLOSS, SDL")
    return list(dict.fromkeys(formats))


def bench_outputs(settings: Settings) -> list[str]:
    """The outputs `settings.output` names (`list`, `slice`, any case), each once; refused
    with the choices if one is unknown."""
    outputs = [name.lower() for name in settings.output]
    for name in outputs:
        if name not in OUTPUTS:
            raise InputError(f"unknown output {name!r}: choose one of {', '.join(OUTPUTS)}")
    if not outputs:
        raise InputError("--output is empty: name at least one of " + ", ".join(OUTPUTS))
    return list(dict.fromkeys(outputs))


def _cutoffs(values: Iterable[int], what: str, minimum: int) -> tuple[int, ...]:
    """Sorted, de-duplicated cutoffs, refusing an empty list or a value below `minimum`."""
    ordered = tuple(sorted(set(values)))
    if not ordered:
        raise InputError(f"--{what} is empty: give at least one value, e.g. --{what} 1,5,10")
    too_small = [value for value in ordered if value < minimum]
    if too_small:
        raise InputError(f"--{what} values must be at least {minimum}, got {too_small[0]}")
    return ordered


def list_depth(token_counts: Sequence[int], ks: Iterable[int], budgets: Iterable[int]) -> int:
    """How many hits to fetch so that every metric is computed on a complete list.

    At least MIN_LIST_DEPTH, TOKEN_DEPTH and max(ks) + 1 (one hit past the deepest cutoff
    tells a tie at the cut, `over_k`, from a clean cut); and at least the smallest n whose n
    cheapest corpus entries together exceed the largest budget: any n hits then cost more
    than that budget, so the budget walk always stops inside the fetched list.
    """
    depth = max(MIN_LIST_DEPTH, TOKEN_DEPTH, max(ks, default=0) + 1)
    largest_budget = max(budgets, default=0)
    spent = 0
    for needed, cost in enumerate(sorted(token_counts), start=1):
        spent += cost
        if spent > largest_budget:
            return max(depth, needed)
    return max(depth, len(token_counts))


def _warn_hash_questions(queries: Sequence[LabelledQuery], path: Path, events: Events) -> None:
    """A question line starting with `#` is a question (it has a tab), not a comment: say so,
    in case it was meant to be commented out."""
    lines = [f"{path}:{query.line}" for query in queries if query.question.startswith("#")]
    if lines:
        listed = ", ".join(lines[:_LISTED_UNKNOWN])
        if len(lines) > _LISTED_UNKNOWN:
            listed += f", … ({len(lines) - _LISTED_UNKNOWN} more)"
        events.warning(
            f"{counted(len(lines), 'question')} {_are(lines)} read although "
            f"{'it starts' if len(lines) == 1 else 'they start'} with '#' (a line with a tab "
            f"is a question; a comment has no tab): {listed}"
        )


def _are(items: Sequence[str]) -> str:
    return "is" if len(items) == 1 else "are"


def _warn_unknown(unknown: Sequence[str], strict: bool, events: Events) -> None:
    if not unknown:
        return
    listed = ", ".join(unknown[:_LISTED_UNKNOWN])
    if len(unknown) > _LISTED_UNKNOWN:
        listed += f", … ({len(unknown) - _LISTED_UNKNOWN} more)"
    if strict:
        raise InputError(
            f"{counted(len(unknown), 'expected coordinate')} {_are(unknown)} not in the schema: "
            f"{listed}"
            " (fix the labels, or drop --strict to count them as misses)"
        )
    events.warning(
        f"{counted(len(unknown), 'expected coordinate')} {_are(unknown)} not in the schema and "
        f"{'counts as a miss' if len(unknown) == 1 else 'count as misses'}: {listed}"
    )


def _check_backends(names: Sequence[str], settings: Settings) -> None:
    """Every backend known and every option (`-o`) known to at least one of them."""
    from schemanav.retrieval.pipeline import backend_names, options_for

    if not names:
        raise InputError("--backend is empty: name at least one backend, e.g. --backend bm25")
    known = backend_names()
    for name in names:
        if name not in known:
            raise InputError(f"unknown backend {name!r}: choose one of {', '.join(known)}")
    options_for(names, settings.options)


def run_bench(settings: Settings, events: Events | None = None) -> BenchReport:
    """Score the labelled questions of `settings.bench_file` (default: the bundled Movie DB
    sample) on `settings.schema` for every backend × format × output of `settings.backend`,
    `settings.format` and `settings.output`; rows in that order."""
    from schemanav.navigator import Navigator
    from schemanav.retrieval.pipeline import prepare_backend

    events = events or SilentEvents()
    backend_list = list(settings.backend)
    format_list = bench_formats(settings)
    output_list = bench_outputs(settings)
    _check_backends(backend_list, settings)
    ks = _cutoffs(settings.ks, "ks", 1)
    budgets = _cutoffs(settings.budgets, "budgets", 1)

    bench_path = Path(settings.bench_file) if settings.bench_file else None
    labelled_path = bench_path or bundled_path(BUNDLED_BENCH_FILE)
    queries = load_labelled(labelled_path)
    _warn_hash_questions(queries, labelled_path, events)
    # The navigator reads the corpus (warning once of the schema's spec violations) and
    # holds the slicer, as for `search`.
    navigator = Navigator(settings, events)
    corpus = navigator.corpus
    no_paths = settings.model_copy(update={"max_paths": 0})
    unknown = unknown_coordinates(queries, known_coordinates(corpus))
    _warn_unknown(unknown, settings.strict, events)

    rows: list[BenchRow] = []
    made: dict[tuple[str, Format | None], Output] = {}
    combinations = [(name, fmt) for name in backend_list for fmt in format_list]
    workers = worker_count(settings.jobs or available_cores(), len(queries))
    # Hundreds of thousands of hits and views, and no garbage cycles: collections would walk
    # the corpus, the graph and every hit so far, again and again, and find nothing.
    with no_cyclic_gc():
        for number, (name, fmt) in enumerate(combinations, start=1):
            # Metrics read coordinates only: skip computing paths to root for every hit.
            backend = prepare_backend(name, fmt, no_paths, corpus, events, chosen=backend_list)
            depth = list_depth(corpus.token_counts(fmt), ks, budgets)
            if "slice" in output_list:
                # A slice takes ranked hits until its budget is spent, whatever the list format
                # costs: rank as deep as `Navigator.slice` does for the largest budget.
                depth = max(depth, slice_rank_depth(max(budgets, default=0), len(corpus)))
            outputs = []
            for output_name in output_list:
                key = (output_name, None if output_name in FORMAT_FREE_OUTPUTS else fmt)
                if key not in made:
                    made[key] = OUTPUTS[output_name](navigator, fmt)
                outputs.append(made[key])
            label = f"{backend.name} · {fmt.value} ({number}/{len(combinations)})"
            score = _QuestionScorer(backend, queries, depth, corpus, ks, budgets, outputs)
            scored = QuestionPool(score, workers).map(len(queries), label, events)
            ranked = sum(seconds[0] for _, seconds in scored)
            for column, output_name in enumerate(output_list):
                runs = [question_runs[column] for question_runs, _ in scored]
                rows.append(
                    BenchRow(
                        backend=backend.name,
                        format=fmt.value,
                        output=output_name,
                        summary=summarise([run.result for run in runs], ks, budgets),
                        questions=tuple(runs),
                        list_depth=depth,
                        seconds=ranked + sum(seconds[column + 1] for _, seconds in scored),
                    )
                )
    targets = [c for query in queries for c in query.expected_coordinates]
    kinds = [coordinate_kind(c) for c in targets]
    return BenchReport(
        schema=schema_label(settings),
        bench_file=str(bench_path) if bench_path else BUNDLED_BENCH_LABEL,
        encoding=ENCODING_NAME,
        question_count=len(queries),
        target_count=len(targets),
        targets_by_kind={kind: kinds.count(kind) for kind in ("field", "argument", "type")},
        ks=ks,
        budgets=budgets,
        outputs=tuple(output_list),
        unknown_coordinates=tuple(unknown),
        rows=tuple(rows),
    )


def judge_dispositions(ranked: Ranking, corpus: Corpus, ks: Iterable[int]) -> dict[int, str]:
    """What `search --k k` would say of each cut of one question's ranking (no budget): the
    first k hits shown, the one after them read to tell a tie at the cut (`over_k`)."""
    shown = len(ranked.coordinates)
    return {k: disposition(ranked, min(k, shown), corpus, k=k, budget=None) for k in ks}


def _check_coordinates(name: str, ranking: Ranking, known: frozenset[str]) -> None:
    """Every ranked coordinate is the schema's: a plugin's backend may return others."""
    stray = next((c for c in ranking.coordinates if c not in known), None)
    if stray is not None:
        raise InputError(
            f"the backend {name} returned {strip_control(stray)[:200]!r}, which is not a "
            "coordinate of this schema; fix the backend or choose another --backend"
        )


class _QuestionScorer:
    """Scores one question of one (backend, format) for every output: its ranking, `depth`
    deep (coordinates and scores only: no hit is built where the backend can skip them), the
    dispositions at each k, and each output's observation within every budget. Returns the
    question's run per output and the seconds spent ranking, then observing each output (a
    row's `seconds` is their sum over the questions, whichever process spent them)."""

    def __init__(
        self,
        backend: Searcher,
        queries: Sequence[LabelledQuery],
        depth: int,
        corpus: Corpus,
        ks: tuple[int, ...],
        budgets: tuple[int, ...],
        outputs: Sequence[Output],
    ) -> None:
        self._backend, self._queries, self._depth = backend, queries, depth
        self._corpus, self._ks, self._budgets, self._outputs = corpus, ks, budgets, outputs
        self._known = frozenset(corpus.coordinates)

    def __call__(self, index: int) -> tuple[tuple[QuestionRun, ...], tuple[float, ...]]:
        query, ks, budgets = self._queries[index], self._ks, self._budgets
        started = time.perf_counter()
        ranking = ranking_of(self._backend, query.question, self._depth)
        _check_coordinates(self._backend.name, ranking, self._known)
        dispositions = judge_dispositions(ranking, self._corpus, ks)
        seconds = [time.perf_counter() - started]
        runs = []
        for output in self._outputs:
            started = time.perf_counter()
            observed = output.observe(
                query.question, ranking, query.expected_coordinates, budgets
            )
            result = evaluate_observation(
                query.question,
                dataclasses.replace(observed, dispositions=dispositions),
                ks,
                budgets,
            )
            runs.append(QuestionRun(result, ranking.coordinates[: max(ks)]))
            seconds.append(time.perf_counter() - started)
        return tuple(runs), tuple(seconds)
