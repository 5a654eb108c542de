"""Retrieval metrics as small pure functions, each with its formula, declared once.

The functions take plain sequences so they can be checked by hand and against other
implementations: `ranked` is a ranked list, best first, whose items are coordinates or the
sets of coordinates each item *shows* (a field rendered as SDL shows its arguments too; see
`bench.labelled.shown_by_entry`); `expected` is the labelled set of right answers;
`token_counts[i]` is the o200k_base cost of reading `ranked[i]`. An item that repeats a
coordinate never counts it twice.

`MEASURES` declares each per-question metric once (JSON key, axis, the function that scores
it) and `AGGREGATES` each per-row figure once (JSON key, how questions are combined, column
label, cell format): per-question records, summaries, `--json`, the Rich and markdown tables
and the charts are all generated from these two lists. Per-question results are averaged
over questions (macro averages), as trec_eval does.

Outputs that are not one ranked list (a schema slice, rebuilt for each budget) are scored on
the same budget axis through `Observation.views`: per budget, what the output shows and what
it costs. Measures that need a ranking (recall@k, ranks, tokens@50) are then not applicable.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeVar, cast

from schemanav.retrieval.base import fit_prefix
from schemanav.retrieval.dispositions import DISPOSITIONS, disposition

Number = TypeVar("Number", int, float)
Item = str | Set[str]
"""A ranked item: one coordinate, or the set of coordinates the item shows."""
Value = float | int | bool | str | dict[str, int] | None
"""One figure: a share, a rank, a token count, a yes/no, a disposition (`search`'s word for
a fixed-K answer), counts per disposition, or None (no such figure)."""
Values = Value | Mapping[int, Value]
"""A figure, or one figure per cutoff k / per token budget."""

TOKEN_DEPTH = 50
"""tokens@50: what reading the first 50 hits costs (the published figure's depth)."""


# --- the per-question functions -------------------------------------------------------


def _check_cutoff(k: int) -> None:
    if k < 1:
        raise ValueError(f"cutoff k must be at least 1, got {k}")


def _expected_set(expected: Collection[str]) -> frozenset[str]:
    targets = frozenset(expected)
    if not targets:
        raise ValueError("expected coordinates must not be empty: a labelled question has targets")
    return targets


def _shows(item: Item, targets: frozenset[str]) -> Set[str]:
    """The targets one item shows."""
    if isinstance(item, str):
        return {item} if item in targets else set()
    return targets.intersection(item)


def _found(ranked: Sequence[Item], targets: frozenset[str], depth: int) -> set[str]:
    """The targets shown by ranked[:depth]."""
    found: set[str] = set()
    for item in ranked[:depth]:
        if isinstance(item, str):
            if item in targets:
                found.add(item)
        elif item and not targets.isdisjoint(item):  # most show no target: nothing to build
            found |= targets.intersection(item)
    return found


def _check_lengths(ranked: Sequence[Item], token_counts: Sequence[int]) -> None:
    if len(ranked) != len(token_counts):
        raise ValueError(f"ranked has {len(ranked)} items but token_counts has {len(token_counts)}")


def coverage(shown: Collection[str], expected: Collection[str]) -> float:
    """The share of the expected coordinates an output shows.

    coverage = |expected ∩ shown| / |expected|
    """
    targets = _expected_set(expected)
    return len(targets.intersection(shown)) / len(targets)


def is_complete(shown: Collection[str], expected: Collection[str]) -> bool:
    """Whether an output shows every expected coordinate: expected ⊆ shown."""
    return _expected_set(expected).issubset(shown)


def recall_at_k(ranked: Sequence[Item], expected: Collection[str], k: int) -> float:
    """Share of the expected coordinates found in the top k.

    recall@k = |expected ∩ shown(ranked[:k])| / |expected|

    k beyond the list means the whole list. Raises ValueError for empty `expected` or k < 1.
    """
    _check_cutoff(k)
    targets = _expected_set(expected)
    return len(_found(ranked, targets, k)) / len(targets)


def complete_at_k(ranked: Sequence[Item], expected: Collection[str], k: int) -> bool:
    """Whether the top k show every expected coordinate: complete@k = (recall@k = 1)."""
    _check_cutoff(k)
    targets = _expected_set(expected)
    return len(_found(ranked, targets, k)) == len(targets)


def first_hit_rank(ranked: Sequence[Item], expected: Collection[str]) -> int | None:
    """The 1-based position of the first item showing an expected coordinate, or None.

    rank = min{ i : shown(ranked[i-1]) ∩ expected ≠ ∅ }   (positions count repeats)
    """
    targets = _expected_set(expected)
    for position, item in enumerate(ranked, start=1):
        if _shows(item, targets):
            return position
    return None


def reciprocal_rank(ranked: Sequence[Item], expected: Collection[str]) -> float:
    """RR = 1 / first_hit_rank, or 0.0 when no expected coordinate is ranked (no cutoff)."""
    rank = first_hit_rank(ranked, expected)
    return 0.0 if rank is None else 1.0 / rank


def tokens_at_k(token_counts: Sequence[int], k: int) -> int:
    """What reading the top k costs: tokens@k = Σ token_counts[:k] (k beyond the list = all)."""
    _check_cutoff(k)
    return sum(token_counts[:k])


@dataclass(frozen=True)
class View:
    """What an output shows within one token budget, and what that costs."""

    shown: frozenset[str]
    tokens: int


def within_budget(
    ranked: Sequence[Item], token_counts: Sequence[int], expected: Collection[str], budget: int
) -> View:
    """The expected coordinates a ranked list shows within a budget, and the tokens spent.

    n = fit_prefix(token_counts, budget); view = (expected ∩ shown(ranked[:n]), Σ token_counts[:n])
    """
    _check_lengths(ranked, token_counts)
    depth = fit_prefix(token_counts, budget)
    return View(
        frozenset(_found(ranked, _expected_set(expected), depth)), sum(token_counts[:depth])
    )


def budget_recall(
    ranked: Sequence[Item], token_counts: Sequence[int], expected: Collection[str], budget: int
) -> float:
    """Recall on what fits in a token budget: coverage(within_budget(…).shown, expected)."""
    return coverage(within_budget(ranked, token_counts, expected, budget).shown, expected)


def budget_complete(
    ranked: Sequence[Item], token_counts: Sequence[int], expected: Collection[str], budget: int
) -> bool:
    """Whether what fits in a token budget shows every expected coordinate."""
    return is_complete(within_budget(ranked, token_counts, expected, budget).shown, expected)


def smallest_complete(
    views: Iterable[View], expected: Collection[str], limit: int | None = None
) -> int | None:
    """The tokens of the cheapest complete view, if it costs at most `limit`; else None.

    tokens_to_complete = min{ v.tokens : expected ⊆ v.shown, v.tokens ≤ limit }
    """
    costs = [
        view.tokens
        for view in views
        if is_complete(view.shown, expected) and (limit is None or view.tokens <= limit)
    ]
    return min(costs, default=None)


def _prefix_views(
    ranked: Sequence[Item], token_counts: Sequence[int], targets: frozenset[str]
) -> Iterator[View]:
    """The shortest prefix of a ranked list showing each new set of targets, as views.

    A longer prefix showing no more targets costs at least as much, so it is left out.
    """
    found: set[str] = set()
    spent = 0
    yield View(frozenset(), 0)
    for item, cost in zip(ranked, token_counts, strict=True):
        spent += cost
        if isinstance(item, str) or (item and not targets.isdisjoint(item)):
            new = _shows(item, targets)
            if not new <= found:
                found |= new
                yield View(frozenset(found), spent)


def tokens_to_complete(
    ranked: Sequence[Item],
    token_counts: Sequence[int],
    expected: Collection[str],
    limit: int | None = None,
) -> int | None:
    """The smallest budget at which a ranked list shows every expected coordinate, or None.

    With m the shortest prefix showing all of `expected`, tokens_to_complete = Σ token_counts[:m]
    (a prefix is what fits a budget, so no smaller budget is complete); None when no prefix
    is complete or it costs more than `limit` (bench passes the largest budget, so that
    "never complete" means the same for every output).
    """
    _check_lengths(ranked, token_counts)
    targets = _expected_set(expected)
    return smallest_complete(_prefix_views(ranked, token_counts, targets), targets, limit)


# --- aggregates -----------------------------------------------------------------------


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean Σv / n (computed with math.fsum). Empty input raises ValueError:
    an average over no questions is not a number we want to print as 0."""
    collected = list(values)
    if not collected:
        raise ValueError("mean of no values")
    return math.fsum(collected) / len(collected)


def percentile(values: Iterable[Number], q: float) -> Number:
    """Nearest-rank percentile: the smallest value v with at least q% of values ≤ v.

    With the n values sorted ascending, p_q = sorted[max(1, ⌈q/100 · n⌉) − 1].
    The answer is always an observed value (a rank that actually happened), never an
    interpolation. p50 of [1, 2, 3, 4] is 2; p95 of 1..20 is 19; p95 of 1..10 is 10.
    Raises ValueError for empty input or q outside [0, 100].
    """
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile q must be within [0, 100], got {q}")
    # q·n is exact for whole q, so a whole q·n/100 is never nudged up to the next rank.
    rank = max(1, math.ceil(q * len(ordered) / 100))
    return ordered[rank - 1]


def median(values: Iterable[Number]) -> Number:
    """The nearest-rank 50th percentile: for an even count, the lower of the two middle
    values (not their average), so a median rank is always a rank that happened."""
    return percentile(values, 50)


def _number(value: Value) -> float:
    if not isinstance(value, int | float):
        raise TypeError(f"{value!r} is not a number")
    return float(value)


def _mean_of(values: Sequence[Value]) -> Value:
    """The mean over questions (a yes counts 1, a no 0)."""
    return mean(_number(value) for value in values if value is not None)


def _percentile_of(q: float) -> Callable[[Sequence[Value]], Value]:
    def reduce(values: Sequence[Value]) -> Value:
        """A nearest-rank percentile over the questions that have the figure (None if none)."""
        present = [value for value in values if isinstance(value, int | float)]
        return percentile(present, q) if present else None

    return reduce


def _count_missing(values: Sequence[Value]) -> Value:
    """How many questions have no such figure (no hit, never complete)."""
    return sum(1 for value in values if value is None)


def _count_each(values: Sequence[Value]) -> Value:
    """How many questions have each disposition, every disposition named (None if none has)."""
    present = [value for value in values if value is not None]
    if not present:
        return None
    return {name: present.count(name) for name in DISPOSITIONS}


# --- declared once: the measures and their aggregates -----------------------------------


class Axis(Enum):
    """What a measure is taken at: once, at each cutoff k, or at each token budget."""

    ONCE = "once"
    K = "k"
    BUDGET = "budget"


@dataclass(frozen=True)
class Observation:
    """One question's output as the measures read it.

    `ranked` / `token_counts`: the ranked list (None for an output that is not one list);
    `views`: per token budget, the expected coordinates the output shows and its tokens;
    `dispositions`: per cutoff k, what `search --k k` would say of the answer (see
    `schemanav.retrieval.dispositions`; it needs the hits' scores and the corpus, so the
    runner judges it and the measure reads it).
    """

    expected: tuple[str, ...]
    ranked: Sequence[Item] | None
    token_counts: Sequence[int]
    views: Mapping[int, View]
    dispositions: Mapping[int, str] = field(default_factory=dict)

    @classmethod
    def of_list(
        cls,
        ranked: Sequence[Item],
        token_counts: Sequence[int],
        expected: Sequence[str],
        budgets: Iterable[int],
    ) -> Observation:
        _check_lengths(ranked, token_counts)
        targets = tuple(dict.fromkeys(expected))
        views = {b: within_budget(ranked, token_counts, targets, b) for b in budgets}
        return cls(targets, ranked, token_counts, views)

    @classmethod
    def of_views(cls, views: Mapping[int, View], expected: Sequence[str]) -> Observation:
        """An output rebuilt for each budget (a slice): only its views."""
        return cls(tuple(dict.fromkeys(expected)), None, (), dict(views))


@dataclass(frozen=True)
class Measure:
    """A per-question metric: its JSON key, its axis and how it is scored.

    `score(observation, at, limit)` gets the cutoff or budget (`at`, 0 for `Axis.ONCE`) and the
    largest budget (`limit`). `ranked` measures need a ranked list and are None otherwise.
    """

    key: str
    axis: Axis
    ranked: bool
    formula: str | None
    score: Callable[[Observation, int, int | None], Value]


def _ranked(observation: Observation) -> Sequence[Item]:
    assert observation.ranked is not None  # Measure.ranked guards every call
    return observation.ranked


def _tokens_to_complete(observation: Observation, limit: int | None) -> int | None:
    if observation.ranked is not None:
        return tokens_to_complete(
            observation.ranked, observation.token_counts, observation.expected, limit
        )
    return smallest_complete(observation.views.values(), observation.expected, limit)


FIRST_HIT_RANK = Measure(
    "first_hit_rank", Axis.ONCE, ranked=True, formula=first_hit_rank.__doc__,
    score=lambda o, _, __: first_hit_rank(_ranked(o), o.expected),
)  # fmt: skip
RECIPROCAL_RANK = Measure(
    "reciprocal_rank", Axis.ONCE, ranked=True, formula=reciprocal_rank.__doc__,
    score=lambda o, _, __: reciprocal_rank(_ranked(o), o.expected),
)  # fmt: skip
RECALL = Measure(
    "recall", Axis.K, ranked=True, formula=recall_at_k.__doc__,
    score=lambda o, k, _: recall_at_k(_ranked(o), o.expected, k),
)  # fmt: skip
BUDGET_RECALL = Measure(
    "budget_recall", Axis.BUDGET, ranked=False, formula=budget_recall.__doc__,
    score=lambda o, b, _: coverage(o.views[b].shown, o.expected),
)  # fmt: skip
TOKENS_AT_DEPTH = Measure(
    f"tokens_at_{TOKEN_DEPTH}", Axis.ONCE, ranked=True, formula=tokens_at_k.__doc__,
    score=lambda o, _, __: tokens_at_k(o.token_counts, TOKEN_DEPTH),
)  # fmt: skip
COMPLETE = Measure(
    "complete", Axis.K, ranked=True, formula=complete_at_k.__doc__,
    score=lambda o, k, _: complete_at_k(_ranked(o), o.expected, k),
)  # fmt: skip
BUDGET_COMPLETE = Measure(
    "budget_complete", Axis.BUDGET, ranked=False, formula=budget_complete.__doc__,
    score=lambda o, b, _: is_complete(o.views[b].shown, o.expected),
)  # fmt: skip
TOKENS_TO_COMPLETE = Measure(
    "tokens_to_complete", Axis.ONCE, ranked=False, formula=tokens_to_complete.__doc__,
    score=lambda o, _, limit: _tokens_to_complete(o, limit),
)  # fmt: skip
DISPOSITION = Measure(
    "disposition", Axis.K, ranked=True, formula=disposition.__doc__,
    score=lambda o, k, _: o.dispositions.get(k),
)  # fmt: skip

MEASURES: tuple[Measure, ...] = (
    FIRST_HIT_RANK,
    RECIPROCAL_RANK,
    RECALL,
    BUDGET_RECALL,
    TOKENS_AT_DEPTH,
    COMPLETE,
    BUDGET_COMPLETE,
    TOKENS_TO_COMPLETE,
    DISPOSITION,
)
"""Every per-question figure, in the order of the per-question JSON record."""


def _ratio_cell(value: Value) -> str:
    return "–" if value is None else f"{_number(value):.3f}"


def _count_cell(value: Value) -> str:
    if value is None:
        return "–"
    return f"{round(_number(value)):,}"


def _counts_cell(value: Value) -> str:
    """Counts per disposition in `DISPOSITIONS` order, slash-separated: `84/100/0/16/0`."""
    if value is None:
        return "–"
    assert isinstance(value, dict)
    return "/".join(str(value[name]) for name in DISPOSITIONS)


def short_tokens(budget: int) -> str:
    """A compact budget label: 16000 → `16k`, 1500 → `1,500`, 250 → `250`."""
    return f"{budget // 1000}k" if budget >= 1000 and budget % 1000 == 0 else f"{budget:,}"


@dataclass(frozen=True)
class Aggregate:
    """A per-row figure: its JSON key, the measure it combines over questions and how, its
    column label (given the cutoff or budget for an axis measure) and its cell format."""

    key: str
    measure: Measure
    reduce: Callable[[Sequence[Value]], Value]
    label: Callable[[int], str]
    cell: Callable[[Value], str]


# fmt: off
AGGREGATES: tuple[Aggregate, ...] = (
    Aggregate("recall", RECALL, _mean_of, lambda k: f"R@{k}", _ratio_cell),
    Aggregate("mrr", RECIPROCAL_RANK, _mean_of, lambda _: "MRR", _ratio_cell),
    Aggregate("rank_p50", FIRST_HIT_RANK, _percentile_of(50), lambda _: "rank p50", _count_cell),
    Aggregate("rank_p95", FIRST_HIT_RANK, _percentile_of(95), lambda _: "rank p95", _count_cell),
    Aggregate("questions_without_hit", FIRST_HIT_RANK, _count_missing, lambda _: "no hit",
              _count_cell),
    Aggregate(TOKENS_AT_DEPTH.key, TOKENS_AT_DEPTH, _mean_of, lambda _: f"tokens@{TOKEN_DEPTH}",
              _count_cell),
    Aggregate("budget_recall", BUDGET_RECALL, _mean_of, lambda b: f"{b:,} tok", _ratio_cell),
    Aggregate("complete", COMPLETE, _mean_of, lambda k: f"C@{k}", _ratio_cell),
    Aggregate("budget_complete", BUDGET_COMPLETE, _mean_of, lambda b: f"C≤{short_tokens(b)}",
              _ratio_cell),
    Aggregate("tokens_to_complete_p50", TOKENS_TO_COMPLETE, _percentile_of(50),
              lambda _: "p50 tok", _count_cell),
    Aggregate("tokens_to_complete_p95", TOKENS_TO_COMPLETE, _percentile_of(95),
              lambda _: "p95 tok", _count_cell),
    Aggregate("never_complete", TOKENS_TO_COMPLETE, _count_missing, lambda _: "never",
              _count_cell),
    Aggregate("dispositions", DISPOSITION, _count_each, lambda k: f"disp@{k}", _counts_cell),
)
# fmt: on
"""Every per-row figure, in the order of a row's JSON record."""

AGGREGATE = {aggregate.key: aggregate for aggregate in AGGREGATES}


# --- per-question results and summaries -----------------------------------------------


def _at(values: Mapping[str, Values], key: str, param: int | None) -> Value:
    value = values[key]
    if isinstance(value, Mapping):
        if param is None:
            raise KeyError(f"{key} is taken at a cutoff or budget: give one")
        return cast("Mapping[int, Value]", value)[param]
    return value


def _json_values(values: Mapping[str, Values]) -> dict[str, object]:
    return {
        key: {str(p): v for p, v in value.items()} if isinstance(value, Mapping) else value
        for key, value in values.items()
    }


@dataclass(frozen=True)
class QuestionResult:
    """Every measure for one labelled question: `values[key]` is a figure, or one figure per
    cutoff k / per budget for an axis measure (see `MEASURES`)."""

    question: str
    expected: tuple[str, ...]
    values: Mapping[str, Values]
    ranked: bool = True

    def at(self, key: str, param: int | None = None) -> Value:
        """One figure: `at("mrr")`… `at("recall", 5)`, `at("budget_complete", 500)`."""
        return _at(self.values, key, param)

    def as_json(self) -> dict[str, object]:
        return _json_values(self.values)


@dataclass(frozen=True)
class MetricSummary:
    """The aggregates over a row's questions (see `AGGREGATES`); `values` as in QuestionResult.

    Figures of a measure that needs a ranked list are None for outputs that are not one.
    """

    question_count: int
    values: Mapping[str, Values]

    def at(self, key: str, param: int | None = None) -> Value:
        return _at(self.values, key, param)

    def as_json(self) -> dict[str, object]:
        return _json_values(self.values)


def _params(axis: Axis, ks: Sequence[int], budgets: Sequence[int]) -> Sequence[int] | None:
    return {Axis.ONCE: None, Axis.K: ks, Axis.BUDGET: budgets}[axis]


def evaluate_observation(
    question: str, observation: Observation, ks: Iterable[int], budgets: Iterable[int]
) -> QuestionResult:
    """Score one question's output at every cutoff and budget."""
    ks, budgets = list(ks), list(budgets)
    limit = max(budgets, default=None)
    values: dict[str, Values] = {}
    for measure in MEASURES:
        applicable = observation.ranked is not None or not measure.ranked
        params = _params(measure.axis, ks, budgets)
        if params is None:
            values[measure.key] = measure.score(observation, 0, limit) if applicable else None
        else:
            values[measure.key] = {
                p: measure.score(observation, p, limit) if applicable else None for p in params
            }
    return QuestionResult(question, observation.expected, values, observation.ranked is not None)


def evaluate_question(
    question: str,
    ranked: Sequence[Item],
    token_counts: Sequence[int],
    expected: Sequence[str],
    ks: Iterable[int],
    budgets: Iterable[int],
) -> QuestionResult:
    """Score one question's ranked list; `ranked[i]` costs `token_counts[i]` tokens."""
    budgets = list(budgets)
    observation = Observation.of_list(ranked, token_counts, expected, budgets)
    return evaluate_observation(question, observation, ks, budgets)


def _column(results: Sequence[QuestionResult], key: str, param: int | None) -> list[Value]:
    """One measure's per-question values, refusing a result not scored at `param`."""
    column: list[Value] = []
    for result in results:
        try:
            column.append(result.at(key, param))
        except KeyError:
            raise ValueError(f"question {result.question!r} has no {key} at {param}") from None
    return column


def summarise(
    results: Sequence[QuestionResult], ks: Iterable[int], budgets: Iterable[int]
) -> MetricSummary:
    """Combine per-question results by each aggregate (each question weighs the same).

    Raises ValueError when `results` is empty or a result lacks a requested k or budget.
    """
    if not results:
        raise ValueError("no question results to summarise")
    ks, budgets = list(ks), list(budgets)
    ranked = all(result.ranked for result in results)
    values: dict[str, Values] = {}
    for aggregate in AGGREGATES:
        measure = aggregate.measure

        def reduce(param: int | None, aggregate: Aggregate = aggregate) -> Value:
            column = _column(results, aggregate.measure.key, param)
            if aggregate.measure.ranked and not ranked:
                return None  # not a ranked list: no such figure (not "no hit")
            return aggregate.reduce(column)

        params = _params(measure.axis, ks, budgets)
        if params is None:
            values[aggregate.key] = reduce(None)
        else:
            values[aggregate.key] = {p: reduce(p) for p in params}
    return MetricSummary(len(results), values)
