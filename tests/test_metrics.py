"""The bench metrics against hand-worked values and an independent implementation (ranx)."""

from __future__ import annotations

import random
import warnings

import pytest

from schemanav.bench.metrics import (
    QuestionResult,
    budget_recall,
    evaluate_question,
    first_hit_rank,
    fit_prefix,
    mean,
    median,
    percentile,
    recall_at_k,
    reciprocal_rank,
    summarise,
    tokens_at_k,
)

RANKED = ["Query.movie", "Movie.title", "Query.person", "Movie.cast", "Person.name"]
COSTS = [10, 20, 30, 40, 50]


# --- recall@k -------------------------------------------------------------------------


def test_recall_at_k_hand_worked() -> None:
    expected = {"Movie.title", "Person.name"}
    # top 1 = {Query.movie}: 0 of 2 found -> 0.0
    assert recall_at_k(RANKED, expected, 1) == 0.0
    # top 2 adds Movie.title: 1 of 2 -> 0.5
    assert recall_at_k(RANKED, expected, 2) == 0.5
    # top 4 still only Movie.title -> 0.5
    assert recall_at_k(RANKED, expected, 4) == 0.5
    # top 5 adds Person.name: 2 of 2 -> 1.0
    assert recall_at_k(RANKED, expected, 5) == 1.0


def test_recall_k_beyond_the_list_means_the_whole_list() -> None:
    # 3 expected, the list holds 2 of them: 2/3 at any k >= 5
    expected = ["Query.movie", "Person.name", "Review.body"]
    assert recall_at_k(RANKED, expected, 500) == pytest.approx(2 / 3)


def test_recall_counts_a_repeated_coordinate_once() -> None:
    # top 3 = Movie.title twice + Query.movie: one distinct hit of 2 expected -> 0.5, not 1.0
    ranked = ["Movie.title", "Movie.title", "Query.movie"]
    assert recall_at_k(ranked, ["Movie.title", "Movie.cast"], 3) == 0.5


def test_recall_with_no_hits_and_an_empty_ranking() -> None:
    assert recall_at_k([], ["Movie.title"], 10) == 0.0
    assert recall_at_k(RANKED, ["Review.body"], 5) == 0.0


def test_recall_refuses_empty_expected_and_bad_cutoff() -> None:
    with pytest.raises(ValueError, match="expected"):
        recall_at_k(RANKED, [], 5)
    with pytest.raises(ValueError, match="at least 1"):
        recall_at_k(RANKED, ["Movie.title"], 0)


# --- rank and reciprocal rank ---------------------------------------------------------


def test_first_hit_rank_and_reciprocal_rank() -> None:
    # Query.person sits at position 3 -> rank 3, RR 1/3
    assert first_hit_rank(RANKED, ["Query.person", "Person.name"]) == 3
    assert reciprocal_rank(RANKED, ["Query.person", "Person.name"]) == pytest.approx(1 / 3)
    # first item -> rank 1, RR 1.0
    assert first_hit_rank(RANKED, ["Query.movie"]) == 1
    assert reciprocal_rank(RANKED, ["Query.movie"]) == 1.0


def test_no_hit_gives_no_rank_and_zero_reciprocal_rank() -> None:
    assert first_hit_rank([], ["Movie.title"]) is None
    assert reciprocal_rank([], ["Movie.title"]) == 0.0
    assert first_hit_rank(RANKED, ["Review.body"]) is None


def test_rank_counts_positions_including_repeats() -> None:
    # The reader reads position 1 and 2 (a repeat) before the hit at position 3.
    ranked = ["Query.movie", "Query.movie", "Movie.title"]
    assert first_hit_rank(ranked, ["Movie.title"]) == 3


# --- tokens and budgets ---------------------------------------------------------------


def test_tokens_at_k() -> None:
    # 10 + 20 + 30 = 60
    assert tokens_at_k(COSTS, 3) == 60
    # beyond the list: all five, 10+20+30+40+50 = 150
    assert tokens_at_k(COSTS, 50) == 150
    assert tokens_at_k([], 50) == 0
    with pytest.raises(ValueError):
        tokens_at_k(COSTS, 0)


def test_fit_prefix_stops_at_the_first_item_that_does_not_fit() -> None:
    # running sums 10, 30, 60, 100, 150
    assert fit_prefix(COSTS, 59) == 2  # 60 > 59 stops after two
    assert fit_prefix(COSTS, 60) == 3  # exactly equal fits
    assert fit_prefix(COSTS, 150) == 5  # budget equal to the whole sum keeps everything
    assert fit_prefix(COSTS, 10_000) == 5
    # No skipping ahead: after the 100-token item is refused, the 1-token item is not taken.
    assert fit_prefix([5, 100, 1], 50) == 1


def test_fit_prefix_budget_below_the_first_item_is_zero() -> None:
    assert fit_prefix(COSTS, 9) == 0
    assert fit_prefix(COSTS, 0) == 0
    assert fit_prefix([], 100) == 0
    with pytest.raises(ValueError, match="negative"):
        fit_prefix(COSTS, -1)


def test_budget_recall() -> None:
    expected = ["Movie.title", "Movie.cast"]
    # budget 30 fits Query.movie + Movie.title (10+20) -> 1 of 2 = 0.5
    assert budget_recall(RANKED, COSTS, expected, 30) == 0.5
    # budget 99: 10+20+30 = 60 fits, +40 = 100 does not -> Movie.cast (4th) missed -> 0.5
    assert budget_recall(RANKED, COSTS, expected, 99) == 0.5
    # budget exactly 100 = 10+20+30+40 keeps Movie.cast -> 1.0
    assert budget_recall(RANKED, COSTS, expected, 100) == 1.0


def test_budget_smaller_than_the_first_hit() -> None:
    # The first item alone (10) fits budget 15, but the hit is at position 2 (cumulative 30).
    assert budget_recall(RANKED, COSTS, ["Movie.title"], 15) == 0.0
    # A budget below even the first item shows nothing at all.
    assert budget_recall(RANKED, COSTS, ["Query.movie"], 5) == 0.0


def test_budget_recall_refuses_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="token_counts"):
        budget_recall(RANKED, COSTS[:2], ["Movie.title"], 100)


# --- aggregates -----------------------------------------------------------------------


def test_mean() -> None:
    # (1 + 0.5 + 0) / 3 = 0.5
    assert mean([1.0, 0.5, 0.0]) == 0.5
    # fsum: ten 0.1s sum to exactly 1.0, so the mean is exactly 0.1
    assert mean([0.1] * 10) == 0.1
    with pytest.raises(ValueError):
        mean([])


def test_nearest_rank_percentiles_on_small_lists() -> None:
    # n = 4, sorted [1, 2, 3, 4]: p50 rank = ceil(0.5*4) = 2 -> 2; p95 rank = ceil(3.8) = 4 -> 4
    assert percentile([4, 1, 3, 2], 50) == 2
    assert percentile([4, 1, 3, 2], 95) == 4
    # n = 5, sorted [1, 2, 3, 7, 20]: p50 rank = ceil(2.5) = 3 -> 3; p95 rank = ceil(4.75) = 5
    assert percentile([20, 3, 1, 7, 2], 50) == 3
    assert percentile([20, 3, 1, 7, 2], 95) == 20
    # n = 20, values 1..20: p95 rank = ceil(19.0) = 19 exactly -> 19 (not 20)
    assert percentile(list(range(1, 21)), 95) == 19
    # n = 10, values 1..10: p30 rank = ceil(3.0) = 3 (an exact rank is not bumped to 4)
    assert percentile(list(range(1, 11)), 30) == 3
    # q = 0 -> the smallest, q = 100 -> the largest
    assert percentile([5, 9, 2], 0) == 2
    assert percentile([5, 9, 2], 100) == 9
    # one value is every percentile of itself
    assert percentile([7], 95) == 7


def test_median_is_the_lower_middle_for_even_counts() -> None:
    # sorted [1, 3, 8, 10]: nearest rank ceil(2.0) = 2 -> 3 (not the average 5.5)
    assert median([10, 1, 8, 3]) == 3
    assert median([3, 1, 2]) == 2


def test_percentile_refuses_empty_input_and_bad_q() -> None:
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1, 2], 101)
    with pytest.raises(ValueError):
        percentile([1, 2], -1)


# --- per-question results and summaries -----------------------------------------------


def test_evaluate_question() -> None:
    result = evaluate_question(
        "which field holds a movie's title?",
        RANKED,
        COSTS,
        ["Movie.title", "Movie.cast", "Movie.title"],
        ks=[1, 2, 5],
        budgets=[25, 100],
        depth_for_tokens=3,
    )
    assert result.expected == ("Movie.title", "Movie.cast")  # repeat dropped, order kept
    assert result.first_hit_rank == 2
    assert result.reciprocal_rank == 0.5
    # @1 nothing; @2 Movie.title (1/2); @5 both (2/2)
    assert result.recall == {1: 0.0, 2: 0.5, 5: 1.0}
    # 25 fits only Query.movie (10; +20 = 30 > 25) -> 0; 100 fits four items -> both -> 1.0
    assert result.budget_recall == {25: 0.0, 100: 1.0}
    assert result.token_depth == 3
    assert result.tokens_at_depth == 60  # 10 + 20 + 30


def test_evaluate_question_refuses_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="token_counts"):
        evaluate_question("q", RANKED, COSTS[:4], ["Movie.title"], ks=[1], budgets=[10])


def _result(rank: int | None, recall5: float, budget500: float, tokens: int) -> QuestionResult:
    return QuestionResult(
        question=f"q{rank}-{recall5}",
        expected=("A.b",),
        first_hit_rank=rank,
        reciprocal_rank=0.0 if rank is None else 1 / rank,
        recall={5: recall5},
        budget_recall={500: budget500},
        token_depth=50,
        tokens_at_depth=tokens,
    )


def test_summarise_averages_over_questions() -> None:
    results = [
        _result(1, 1.0, 1.0, 100),
        _result(4, 0.5, 0.0, 200),
        _result(2, 1.0, 1.0, 300),
        _result(None, 0.0, 0.0, 400),
    ]
    summary = summarise(results, ks=[5], budgets=[500])
    assert summary.question_count == 4
    # recall@5: (1 + 0.5 + 1 + 0) / 4 = 0.625
    assert summary.recall == {5: 0.625}
    # MRR: (1 + 1/4 + 1/2 + 0) / 4 = 1.75 / 4 = 0.4375
    assert summary.mrr == pytest.approx(0.4375)
    # ranks over the three questions with a hit, sorted [1, 2, 4]:
    # p50 rank ceil(1.5) = 2 -> 2; p95 rank ceil(2.85) = 3 -> 4
    assert summary.rank_p50 == 2
    assert summary.rank_p95 == 4
    assert summary.questions_without_hit == 1
    # tokens: (100 + 200 + 300 + 400) / 4 = 250
    assert summary.token_depth == 50
    assert summary.mean_tokens_at_depth == 250.0
    # budget recall: (1 + 0 + 1 + 0) / 4 = 0.5
    assert summary.budget_recall == {500: 0.5}


def test_summarise_with_no_hits_has_no_rank_percentiles() -> None:
    summary = summarise([_result(None, 0.0, 0.0, 10)] * 3, ks=[5], budgets=[500])
    assert summary.rank_p50 is None
    assert summary.rank_p95 is None
    assert summary.questions_without_hit == 3
    assert summary.mrr == 0.0


def test_summarise_refuses_what_it_cannot_average() -> None:
    with pytest.raises(ValueError, match="no question results"):
        summarise([], ks=[5], budgets=[500])
    with pytest.raises(ValueError, match="recall@10"):
        summarise([_result(1, 1.0, 1.0, 10)], ks=[10], budgets=[500])
    with pytest.raises(ValueError, match="budget 250"):
        summarise([_result(1, 1.0, 1.0, 10)], ks=[5], budgets=[250])
    mixed = [_result(1, 1.0, 1.0, 10), evaluate_question("q", [], [], ["A.b"], [5], [500], 20)]
    with pytest.raises(ValueError, match="token depths"):
        summarise(mixed, ks=[5], budgets=[500])


# --- cross-check against ranx ---------------------------------------------------------


def _random_benchmark(seed: int) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """~30 questions over a 60-coordinate vocabulary: rankings of distinct coordinates
    (ranx runs are dicts) of varying depth, 1-4 expected coordinates each, some unreachable."""
    rng = random.Random(seed)
    vocabulary = [f"Type{t}.field{f}" for t in range(6) for f in range(10)]
    rankings: dict[str, list[str]] = {}
    expectations: dict[str, list[str]] = {}
    for number in range(30):
        qid = f"q{number}"
        rankings[qid] = rng.sample(vocabulary, rng.randint(1, 25))
        expectations[qid] = rng.sample(vocabulary, rng.randint(1, 4))
    return rankings, expectations


@pytest.mark.parametrize("seed", [7, 2024])
def test_recall_and_mrr_agree_with_ranx(seed: int) -> None:
    ranx = pytest.importorskip("ranx")
    rankings, expectations = _random_benchmark(seed)
    ks = [1, 3, 5, 10, 20, 50]

    qrels = ranx.Qrels({qid: {c: 1 for c in coords} for qid, coords in expectations.items()})
    # Strictly decreasing scores so ranx's order is exactly our ranking order.
    run = ranx.Run(
        {
            qid: {c: float(len(ranked) - i) for i, c in enumerate(ranked)}
            for qid, ranked in rankings.items()
        }
    )
    metric_names = [f"recall@{k}" for k in ks] + ["mrr"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's uint64 cast notice
        theirs = ranx.evaluate(qrels, run, metric_names)

    results = [
        evaluate_question(
            qid, ranked, [1] * len(ranked), expectations[qid], ks=ks, budgets=[], depth_for_tokens=1
        )
        for qid, ranked in rankings.items()
    ]
    ours = summarise(results, ks=ks, budgets=[])

    # the seeded data must exercise both hits and misses, or the check proves little
    assert 0 < ours.questions_without_hit < len(results)
    for k in ks:
        assert ours.recall[k] == pytest.approx(float(theirs[f"recall@{k}"]), abs=1e-9)
    assert ours.mrr == pytest.approx(float(theirs["mrr"]), abs=1e-9)
