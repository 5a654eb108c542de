"""Run labelled questions through every (backend × format) combination and score them.

Each question's ranked list is fetched once per combination, deep enough for every metric
at once (recall@k, reciprocal rank, tokens@50 and the largest token budget), so the
figures in one row always describe the same ranking.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemanav.bench.labelled import LabelledQuery, load_labelled, unknown_coordinates
from schemanav.bench.metrics import MetricSummary, QuestionResult, evaluate_question, summarise
from schemanav.corpus import Format, open_corpus
from schemanav.errors import InputError
from schemanav.events import Events, SilentEvents
from schemanav.retrieval import Searcher
from schemanav.schema import bundled_path, describe_violations, schema_label
from schemanav.settings import Settings
from schemanav.tokens import ENCODING_NAME

BUNDLED_BENCH_FILE = "moviedb-sample.tsv"
BUNDLED_BENCH_LABEL = "moviedb-sample.tsv (bundled)"
MIN_LIST_DEPTH = 100
TOKEN_DEPTH = 50
"""tokens@50: what reading the first 50 hits costs (the published figure's depth)."""
_LISTED_UNKNOWN = 20


@dataclass(frozen=True)
class QuestionRun:
    """One question's metrics and the head of its ranking (to debug a miss by eye)."""

    result: QuestionResult
    top_coordinates: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        result = self.result
        return {
            "question": result.question,
            "expected": list(result.expected),
            "first_hit_rank": result.first_hit_rank,
            "reciprocal_rank": result.reciprocal_rank,
            "recall": {str(k): value for k, value in result.recall.items()},
            "budget_recall": {str(b): value for b, value in result.budget_recall.items()},
            f"tokens_at_{result.token_depth}": result.tokens_at_depth,
            "top_coordinates": list(self.top_coordinates),
        }


@dataclass(frozen=True)
class BenchRow:
    """The scores of one (backend, format) combination over every question."""

    backend: str
    format: str
    summary: MetricSummary
    questions: tuple[QuestionRun, ...]
    list_depth: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        summary = self.summary
        return {
            "backend": self.backend,
            "format": self.format,
            "recall": {str(k): value for k, value in summary.recall.items()},
            "mrr": summary.mrr,
            "rank_p50": summary.rank_p50,
            "rank_p95": summary.rank_p95,
            "questions_without_hit": summary.questions_without_hit,
            f"tokens_at_{summary.token_depth}": summary.mean_tokens_at_depth,
            "budget_recall": {str(b): value for b, value in summary.budget_recall.items()},
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
    ks: tuple[int, ...]
    budgets: tuple[int, ...]
    unknown_coordinates: tuple[str, ...]
    rows: tuple[BenchRow, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "bench_file": self.bench_file,
            "encoding": self.encoding,
            "questions": self.question_count,
            "targets": self.target_count,
            "ks": list(self.ks),
            "budgets": list(self.budgets),
            "unknown_coordinates": list(self.unknown_coordinates),
            "rows": [row.as_dict() for row in self.rows],
        }


def split_list(value: str) -> list[str]:
    """`bm25, embedding` → `["bm25", "embedding"]`: comma-separated, blanks dropped, no repeats."""
    return list(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))


def parse_formats(value: str) -> list[Format]:
    """A comma-separated list of formats (any case), refused with the choices if one is unknown."""
    formats: list[Format] = []
    for part in split_list(value):
        try:
            formats.append(Format.parse(part))
        except ValueError as err:
            raise InputError(str(err)) from None
    if not formats:
        raise InputError("--format is empty: name at least one of RAW, DOT_PLUS_GLOSS, GLOSS, SDL")
    return list(dict.fromkeys(formats))


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

    At least MIN_LIST_DEPTH, max(ks) and TOKEN_DEPTH; and at least the smallest n whose n
    cheapest corpus entries together exceed the largest budget: any n hits then cost more
    than that budget, so the budget walk always stops inside the fetched list.
    """
    depth = max(MIN_LIST_DEPTH, TOKEN_DEPTH, *ks)
    largest_budget = max(budgets, default=0)
    spent = 0
    for needed, cost in enumerate(sorted(token_counts), start=1):
        spent += cost
        if spent > largest_budget:
            return max(depth, needed)
    return max(depth, len(token_counts))


def _warn_unknown(unknown: Sequence[str], strict: bool, events: Events) -> None:
    if not unknown:
        return
    listed = ", ".join(unknown[:_LISTED_UNKNOWN])
    if len(unknown) > _LISTED_UNKNOWN:
        listed += f", … ({len(unknown) - _LISTED_UNKNOWN} more)"
    if strict:
        raise InputError(
            f"{len(unknown)} expected coordinates are not in the schema: {listed}"
            " (fix the labels, or drop --strict to count them as misses)"
        )
    events.warning(
        f"{len(unknown)} expected coordinates are not in the schema and count as misses: {listed}"
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


def run_bench(
    settings: Settings,
    backends: Sequence[str] | None = None,
    formats: Sequence[Format] | None = None,
    events: Events | None = None,
) -> BenchReport:
    """Score the labelled questions of `settings.bench_file` (default: the bundled Movie DB
    sample) on `settings.schema` for every backend × format; rows in that order.

    `backends` and `formats` default to the single `settings.backend` and `settings.format`.
    """
    from schemanav.retrieval.pipeline import prepare_backend

    events = events or SilentEvents()
    backend_list = list(backends) if backends is not None else [settings.backend]
    format_list = list(formats) if formats is not None else parse_formats(settings.format)
    _check_backends(backend_list, settings)
    ks = _cutoffs(settings.ks, "ks", 1)
    budgets = _cutoffs(settings.budgets, "budgets", 1)

    bench_path = Path(settings.bench_file) if settings.bench_file else None
    queries = load_labelled(bench_path or bundled_path(BUNDLED_BENCH_FILE))
    loaded = open_corpus(settings)
    no_paths = settings.model_copy(update={"max_paths": 0})
    if loaded.violations:
        events.warning(describe_violations(loaded.violations))
    corpus = loaded.corpus
    unknown = unknown_coordinates(queries, frozenset(corpus.coordinates))
    _warn_unknown(unknown, settings.strict, events)

    rows: list[BenchRow] = []
    combinations = [(name, fmt) for name in backend_list for fmt in format_list]
    for number, (name, fmt) in enumerate(combinations, start=1):
        started = time.perf_counter()
        # Metrics read coordinates only: skip computing paths to root for every hit.
        backend = prepare_backend(name, fmt, no_paths, corpus, events, chosen=backend_list)
        depth = list_depth(corpus.token_counts(fmt), ks, budgets)
        label = f"{backend.name} · {fmt.value} ({number}/{len(combinations)})"
        runs = _score_questions(backend, queries, depth, ks, budgets, label, events)
        summary = summarise([run.result for run in runs], ks, budgets)
        rows.append(
            BenchRow(
                backend=backend.name,
                format=fmt.value,
                summary=summary,
                questions=tuple(runs),
                list_depth=depth,
                seconds=time.perf_counter() - started,
            )
        )
    return BenchReport(
        schema=schema_label(settings),
        bench_file=str(bench_path) if bench_path else BUNDLED_BENCH_LABEL,
        encoding=ENCODING_NAME,
        question_count=len(queries),
        target_count=sum(len(query.expected_coordinates) for query in queries),
        ks=ks,
        budgets=budgets,
        unknown_coordinates=tuple(unknown),
        rows=tuple(rows),
    )


def _score_questions(
    backend: Searcher,
    queries: Sequence[LabelledQuery],
    depth: int,
    ks: tuple[int, ...],
    budgets: tuple[int, ...],
    label: str,
    events: Events,
) -> list[QuestionRun]:
    runs: list[QuestionRun] = []
    events.progress(label, 0, len(queries))
    for done, query in enumerate(queries, start=1):
        hits = backend.search(query.question, depth)
        ranked = [hit.coordinate for hit in hits]
        result = evaluate_question(
            query.question,
            ranked,
            [hit.tokens for hit in hits],
            query.expected_coordinates,
            ks,
            budgets,
            depth_for_tokens=TOKEN_DEPTH,
        )
        runs.append(QuestionRun(result, tuple(ranked[: max(ks)])))
        events.progress(label, done, len(queries))
    return runs
