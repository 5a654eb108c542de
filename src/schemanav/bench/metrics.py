"""Retrieval metrics as small pure functions, each with its formula (ir_measures / ranx style).

Inputs are plain sequences so the functions can be checked by hand and against other
implementations: `ranked` is a list of coordinates, best first (it may repeat a coordinate;
a repeat never counts twice), `expected` is the labelled set of right answers, and
`token_counts[i]` is the o200k_base cost of reading `ranked[i]`.

Per-question results are averaged over questions (macro averages), as ranx and trec_eval do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from schemanav.retrieval.base import fit_prefix

Number = TypeVar("Number", int, float)


def _check_cutoff(k: int) -> None:
    if k < 1:
        raise ValueError(f"cutoff k must be at least 1, got {k}")


def _expected_set(expected: Collection[str]) -> frozenset[str]:
    targets = frozenset(expected)
    if not targets:
        raise ValueError("expected coordinates must not be empty: a labelled question has targets")
    return targets


def _recall_of_prefix(ranked: Sequence[str], targets: frozenset[str], depth: int) -> float:
    """|targets ∩ set(ranked[:depth])| / |targets|; depth 0 gives 0.0."""
    return len(targets.intersection(ranked[:depth])) / len(targets)


def recall_at_k(ranked: Sequence[str], expected: Collection[str], k: int) -> float:
    """Share of the expected coordinates found in the top k.

    recall@k = |expected ∩ set(ranked[:k])| / |expected|

    A coordinate repeated in `ranked` counts once; k beyond the list means the whole list.
    Raises ValueError for empty `expected` or k < 1.
    """
    _check_cutoff(k)
    return _recall_of_prefix(ranked, _expected_set(expected), k)


def first_hit_rank(ranked: Sequence[str], expected: Collection[str]) -> int | None:
    """The 1-based position of the first expected coordinate in `ranked`, or None if absent.

    rank = min{ i : ranked[i-1] ∈ expected }   (positions count repeats, as a reader would)
    """
    targets = _expected_set(expected)
    for position, coordinate in enumerate(ranked, start=1):
        if coordinate in targets:
            return position
    return None


def reciprocal_rank(ranked: Sequence[str], expected: Collection[str]) -> float:
    """RR = 1 / first_hit_rank, or 0.0 when no expected coordinate is ranked (no cutoff)."""
    rank = first_hit_rank(ranked, expected)
    return 0.0 if rank is None else 1.0 / rank


def tokens_at_k(token_counts: Sequence[int], k: int) -> int:
    """What reading the top k costs: tokens@k = Σ token_counts[:k] (k beyond the list = all)."""
    _check_cutoff(k)
    return sum(token_counts[:k])


def budget_recall(
    ranked: Sequence[str],
    token_counts: Sequence[int],
    expected: Collection[str],
    budget: int,
) -> float:
    """Recall on what fits in a token budget.

    recall@budget = |expected ∩ set(ranked[:fit_prefix(token_counts, budget)])| / |expected|
    """
    if len(ranked) != len(token_counts):
        raise ValueError(f"ranked has {len(ranked)} items but token_counts has {len(token_counts)}")
    targets = _expected_set(expected)
    return _recall_of_prefix(ranked, targets, fit_prefix(token_counts, budget))


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


@dataclass(frozen=True)
class QuestionResult:
    """Every metric for one labelled question.

    `recall` is keyed by cutoff k, `budget_recall` by token budget; `tokens_at_depth` is
    what reading the top `token_depth` results costs.
    """

    question: str
    expected: tuple[str, ...]
    first_hit_rank: int | None
    reciprocal_rank: float
    recall: dict[int, float]
    budget_recall: dict[int, float]
    token_depth: int
    tokens_at_depth: int


@dataclass(frozen=True)
class MetricSummary:
    """Metrics averaged over questions.

    `rank_p50` / `rank_p95` are nearest-rank percentiles of the first-hit rank over the
    questions that had a hit (None when none did); `questions_without_hit` counts the rest.
    """

    question_count: int
    recall: dict[int, float]
    mrr: float
    rank_p50: int | None
    rank_p95: int | None
    questions_without_hit: int
    token_depth: int
    mean_tokens_at_depth: float
    budget_recall: dict[int, float]


def evaluate_question(
    question: str,
    ranked: Sequence[str],
    token_counts: Sequence[int],
    expected: Sequence[str],
    ks: Iterable[int],
    budgets: Iterable[int],
    depth_for_tokens: int = 50,
) -> QuestionResult:
    """Score one question's ranking; `ranked[i]` costs `token_counts[i]` tokens."""
    if len(ranked) != len(token_counts):
        raise ValueError(f"ranked has {len(ranked)} items but token_counts has {len(token_counts)}")
    targets = tuple(dict.fromkeys(expected))
    return QuestionResult(
        question=question,
        expected=targets,
        first_hit_rank=first_hit_rank(ranked, targets),
        reciprocal_rank=reciprocal_rank(ranked, targets),
        recall={k: recall_at_k(ranked, targets, k) for k in ks},
        budget_recall={b: budget_recall(ranked, token_counts, targets, b) for b in budgets},
        token_depth=depth_for_tokens,
        tokens_at_depth=tokens_at_k(token_counts, depth_for_tokens),
    )


def _column(
    results: Sequence[QuestionResult],
    key: int,
    label: str,
    table_of: Callable[[QuestionResult], Mapping[int, float]],
) -> list[float]:
    """One metric's per-question values, refusing a result that was not scored at `key`."""
    column: list[float] = []
    for result in results:
        table = table_of(result)
        if key not in table:
            raise ValueError(f"question {result.question!r} has no {label}{key}")
        column.append(table[key])
    return column


def summarise(
    results: Sequence[QuestionResult], ks: Iterable[int], budgets: Iterable[int]
) -> MetricSummary:
    """Average per-question results (each question weighs the same).

    recall@k = mean over questions of recall@k; MRR = mean of reciprocal ranks;
    rank percentiles are taken over questions with a hit. Raises ValueError when
    `results` is empty, a result lacks a requested k or budget, or results disagree
    on the token depth.
    """
    if not results:
        raise ValueError("no question results to summarise")
    depths = {result.token_depth for result in results}
    if len(depths) != 1:
        raise ValueError(f"question results use different token depths: {sorted(depths)}")
    hit_ranks = [r.first_hit_rank for r in results if r.first_hit_rank is not None]
    return MetricSummary(
        question_count=len(results),
        recall={k: mean(_column(results, k, "recall@", lambda r: r.recall)) for k in ks},
        mrr=mean(r.reciprocal_rank for r in results),
        rank_p50=percentile(hit_ranks, 50) if hit_ranks else None,
        rank_p95=percentile(hit_ranks, 95) if hit_ranks else None,
        questions_without_hit=len(results) - len(hit_ranks),
        token_depth=depths.pop(),
        mean_tokens_at_depth=mean(r.tokens_at_depth for r in results),
        budget_recall={
            b: mean(_column(results, b, "recall at budget ", lambda r: r.budget_recall))
            for b in budgets
        },
    )
