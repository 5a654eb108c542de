"""The bench metrics against hand-worked values and an independent implementation (trec_eval,
through ir_measures)."""

from __future__ import annotations

import random

import pytest

from schemanav.bench.metrics import (
    AGGREGATE,
    AGGREGATES,
    MEASURES,
    Axis,
    Observation,
    QuestionResult,
    View,
    budget_complete,
    budget_recall,
    complete_at_k,
    coverage,
    evaluate_observation,
    evaluate_question,
    first_hit_rank,
    is_complete,
    mean,
    median,
    percentile,
    recall_at_k,
    reciprocal_rank,
    short_tokens,
    smallest_complete,
    summarise,
    tokens_at_k,
    tokens_to_complete,
)
from schemanav.retrieval.base import fit_prefix

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


# --- items that show more than one coordinate -------------------------------------------

# A field rendered as SDL shows its arguments and the types it names; a list item is then the
# set of coordinates it shows.
SHOWN = [
    {"Query.movie", "Query", "Movie", "Query.movie(id:)"},
    {"Movie.title", "Movie", "String"},
    {"Query.person", "Query", "Person", "Query.person(name:)"},
]


def test_an_item_counts_every_coordinate_it_shows() -> None:
    expected = ["Query.movie(id:)", "Person", "Movie.title"]
    # item 1 shows the argument (1 of 3), item 2 the field (2 of 3), item 3 the type (3 of 3)
    assert recall_at_k(SHOWN, expected, 1) == pytest.approx(1 / 3)
    assert recall_at_k(SHOWN, expected, 2) == pytest.approx(2 / 3)
    assert recall_at_k(SHOWN, expected, 3) == 1.0
    # the first item shows an expected argument: a hit at rank 1
    assert first_hit_rank(SHOWN, ["Query.movie(id:)"]) == 1
    # Query.person's argument is `name`, not `id`: no item shows Query.person(id:)
    assert first_hit_rank(SHOWN, ["Query.person(id:)"]) is None
    # a repeated coordinate (Movie in items 1 and 2) still counts once
    assert recall_at_k(SHOWN, ["Movie", "Review"], 3) == 0.5


# --- completeness ---------------------------------------------------------------------


def test_coverage_and_is_complete() -> None:
    # 2 of the 3 expected are shown -> 2/3, not complete; extra shown coordinates do not matter
    assert coverage({"A.b", "A.c", "Z.z"}, ["A.b", "A.c", "A.d"]) == pytest.approx(2 / 3)
    assert not is_complete({"A.b", "A.c", "Z.z"}, ["A.b", "A.c", "A.d"])
    assert is_complete({"A.b", "A.c", "A.d", "Z.z"}, ["A.b", "A.c", "A.d"])
    assert not is_complete(set(), ["A.b"])
    with pytest.raises(ValueError, match="expected"):
        is_complete({"A.b"}, [])


def test_complete_at_k() -> None:
    expected = ["Movie.title", "Query.person"]
    # Movie.title at 2, Query.person at 3: complete from k = 3 on
    assert [complete_at_k(RANKED, expected, k) for k in (1, 2, 3, 5, 500)] == [
        False,
        False,
        True,
        True,
        True,  # k beyond the list: the whole list
    ]
    assert not complete_at_k([], expected, 10)
    with pytest.raises(ValueError, match="at least 1"):
        complete_at_k(RANKED, expected, 0)


def test_budget_complete() -> None:
    expected = ["Query.movie", "Query.person"]
    # costs 10, 20, 30: Query.person (3rd) needs 10 + 20 + 30 = 60 tokens
    assert not budget_complete(RANKED, COSTS, expected, 59)
    assert budget_complete(RANKED, COSTS, expected, 60)
    assert not budget_complete(RANKED, COSTS, expected, 0)


def test_tokens_to_complete_is_the_cost_of_the_shortest_complete_prefix() -> None:
    # Movie.title is 2nd (cumulative 30), Movie.cast 4th (cumulative 100) -> 100
    assert tokens_to_complete(RANKED, COSTS, ["Movie.title", "Movie.cast"]) == 100
    # the first item alone -> its own cost
    assert tokens_to_complete(RANKED, COSTS, ["Query.movie"]) == 10
    # and no smaller budget is complete, the cost itself is
    assert not budget_complete(RANKED, COSTS, ["Movie.title", "Movie.cast"], 99)
    assert budget_complete(RANKED, COSTS, ["Movie.title", "Movie.cast"], 100)


def test_tokens_to_complete_is_none_when_never_complete_or_over_the_limit() -> None:
    assert tokens_to_complete(RANKED, COSTS, ["Movie.title", "Review.body"]) is None
    assert tokens_to_complete([], [], ["Movie.title"]) is None
    # complete at 100 tokens: within a limit of 100, not within 99
    assert tokens_to_complete(RANKED, COSTS, ["Movie.cast"], limit=100) == 100
    assert tokens_to_complete(RANKED, COSTS, ["Movie.cast"], limit=99) is None
    with pytest.raises(ValueError, match="token_counts"):
        tokens_to_complete(RANKED, COSTS[:2], ["Movie.cast"])


def test_smallest_complete_over_views_built_per_budget() -> None:
    # slices built for budgets 100, 200, 400: the 200 one is complete at 180 tokens, and
    # the 400 one too (at 390): the cheapest complete one counts
    views = [
        View(frozenset({"A.b"}), 90),
        View(frozenset({"A.b", "A.c"}), 180),
        View(frozenset({"A.b", "A.c", "A"}), 390),
    ]
    assert smallest_complete(views, ["A.b", "A.c"]) == 180
    assert smallest_complete(views, ["A.b", "A.c"], limit=179) is None
    assert smallest_complete(views, ["A"]) == 390
    assert smallest_complete([], ["A"]) is None


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
    )
    assert result.expected == ("Movie.title", "Movie.cast")  # repeat dropped, order kept
    assert result.at("first_hit_rank") == 2
    assert result.at("reciprocal_rank") == 0.5
    # @1 nothing; @2 Movie.title (1/2); @5 both (2/2)
    assert result.values["recall"] == {1: 0.0, 2: 0.5, 5: 1.0}
    assert result.values["complete"] == {1: False, 2: False, 5: True}
    # 25 fits only Query.movie (10; +20 = 30 > 25) -> 0; 100 fits four items -> both -> 1.0
    assert result.values["budget_recall"] == {25: 0.0, 100: 1.0}
    assert result.values["budget_complete"] == {25: False, 100: True}
    # Movie.cast is 4th: 10 + 20 + 30 + 40 = 100 tokens, within the largest budget (100)
    assert result.at("tokens_to_complete") == 100
    assert result.at("tokens_at_50") == 150  # all five: 10 + 20 + 30 + 40 + 50
    # the record --json prints: every measure, cutoffs and budgets as string keys
    record = result.as_json()
    assert list(record) == [measure.key for measure in MEASURES]
    assert record["recall"] == {"1": 0.0, "2": 0.5, "5": 1.0}


def test_tokens_to_complete_is_capped_at_the_largest_budget() -> None:
    result = evaluate_question("q", RANKED, COSTS, ["Movie.cast"], ks=[5], budgets=[25, 99])
    # complete at 100 tokens, beyond the largest budget (99): never complete in this run
    assert result.at("tokens_to_complete") is None


def test_evaluate_question_refuses_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="token_counts"):
        evaluate_question("q", RANKED, COSTS[:4], ["Movie.title"], ks=[1], budgets=[10])


def test_an_output_that_is_not_a_list_has_budget_figures_only() -> None:
    views = {100: View(frozenset({"A.b"}), 95), 200: View(frozenset({"A.b", "A.c", "A"}), 170)}
    result = evaluate_observation("q", Observation.of_views(views, ["A.b", "A.c"]), [5], [100, 200])
    assert result.values["budget_recall"] == {100: 0.5, 200: 1.0}
    assert result.values["budget_complete"] == {100: False, 200: True}
    assert result.at("tokens_to_complete") == 170  # the slice's own tokens, not the budget
    # no ranking: no rank, recall@k or tokens@50
    assert result.at("first_hit_rank") is None
    assert result.values["recall"] == {5: None}
    summary = summarise([result], ks=[5], budgets=[100, 200])
    assert summary.at("mrr") is None
    assert summary.at("questions_without_hit") is None  # not "every question missed"
    assert summary.at("budget_complete", 200) == 1.0
    assert summary.at("never_complete") == 0


def _result(
    rank: int | None,
    recall5: float,
    budget500: float,
    tokens: int,
    to_complete: int | None,
    disposition: str = "partial",
) -> QuestionResult:
    return QuestionResult(
        question=f"q{rank}-{recall5}",
        expected=("A.b",),
        values={
            "first_hit_rank": rank,
            "reciprocal_rank": 0.0 if rank is None else 1 / rank,
            "recall": {5: recall5},
            "budget_recall": {500: budget500},
            "tokens_at_50": tokens,
            "complete": {5: recall5 == 1.0},
            "budget_complete": {500: budget500 == 1.0},
            "tokens_to_complete": to_complete,
            "disposition": {5: disposition},
        },
    )


def test_summarise_combines_questions_as_each_aggregate_says() -> None:
    results = [
        _result(1, 1.0, 1.0, 100, 40, "complete"),
        _result(4, 0.5, 0.0, 200, None, "over_k"),
        _result(2, 1.0, 1.0, 300, 300, "complete"),
        _result(None, 0.0, 0.0, 400, None, "no_hit"),
    ]
    summary = summarise(results, ks=[5], budgets=[500])
    assert summary.question_count == 4
    # recall@5: (1 + 0.5 + 1 + 0) / 4 = 0.625
    assert summary.values["recall"] == {5: 0.625}
    # MRR: (1 + 1/4 + 1/2 + 0) / 4 = 1.75 / 4 = 0.4375
    assert summary.at("mrr") == pytest.approx(0.4375)
    # ranks over the three questions with a hit, sorted [1, 2, 4]:
    # p50 rank ceil(1.5) = 2 -> 2; p95 rank ceil(2.85) = 3 -> 4
    assert summary.at("rank_p50") == 2
    assert summary.at("rank_p95") == 4
    assert summary.at("questions_without_hit") == 1
    # tokens: (100 + 200 + 300 + 400) / 4 = 250
    assert summary.at("tokens_at_50") == 250.0
    # budget recall: (1 + 0 + 1 + 0) / 4 = 0.5
    assert summary.values["budget_recall"] == {500: 0.5}
    # complete@5: questions 1 and 3 of 4 -> 0.5; within 500 tokens the same two -> 0.5
    assert summary.values["complete"] == {5: 0.5}
    assert summary.values["budget_complete"] == {500: 0.5}
    # tokens to complete over the two that complete, sorted [40, 300]: p50 -> 40, p95 -> 300
    assert summary.at("tokens_to_complete_p50") == 40
    assert summary.at("tokens_to_complete_p95") == 300
    assert summary.at("never_complete") == 2
    # dispositions at 5: counted, every disposition named; one cell in the tables
    counts = {"complete": 2, "partial": 0, "no_hit": 1, "over_k": 1, "budget_unsatisfied": 0}
    assert summary.values["dispositions"] == {5: counts}
    assert summary.as_json()["dispositions"] == {"5": counts}
    assert AGGREGATE["dispositions"].cell(summary.at("dispositions", 5)) == "2/0/1/1/0"
    assert AGGREGATE["dispositions"].label(10) == "disp@10"
    assert list(summary.as_json()) == [aggregate.key for aggregate in AGGREGATES]


def test_summarise_with_no_hits_has_no_rank_percentiles() -> None:
    summary = summarise([_result(None, 0.0, 0.0, 10, None)] * 3, ks=[5], budgets=[500])
    assert summary.at("rank_p50") is None
    assert summary.at("rank_p95") is None
    assert summary.at("questions_without_hit") == 3
    assert summary.at("mrr") == 0.0
    assert summary.at("tokens_to_complete_p50") is None
    assert summary.at("never_complete") == 3


def test_summarise_refuses_what_it_cannot_combine() -> None:
    with pytest.raises(ValueError, match="no question results"):
        summarise([], ks=[5], budgets=[500])
    with pytest.raises(ValueError, match="no recall at 10"):
        summarise([_result(1, 1.0, 1.0, 10, 10)], ks=[10], budgets=[500])
    with pytest.raises(ValueError, match="no budget_recall at 250"):
        summarise([_result(1, 1.0, 1.0, 10, 10)], ks=[5], budgets=[250])


def test_every_aggregate_combines_a_declared_measure_under_its_own_key() -> None:
    keys = [aggregate.key for aggregate in AGGREGATES]
    assert len(keys) == len(set(keys))
    assert all(aggregate.measure in MEASURES for aggregate in AGGREGATES)
    # the JSON keys bench has always printed, and the completeness ones
    assert {"recall", "mrr", "rank_p50", "budget_recall", "tokens_at_50"} <= set(keys)
    assert {"complete", "budget_complete", "never_complete", "tokens_to_complete_p95"} <= set(keys)
    # labels follow the cutoff or budget they are shown at
    by_key = {aggregate.key: aggregate for aggregate in AGGREGATES}
    assert by_key["recall"].label(10) == "R@10"
    assert by_key["budget_complete"].label(16000) == "C≤16k"
    assert by_key["recall"].measure.axis is Axis.K
    assert by_key["mrr"].cell(0.78449) == "0.784"
    assert by_key["rank_p50"].cell(None) == "–"


def test_short_token_labels() -> None:
    assert [short_tokens(b) for b in (125, 1000, 1500, 16000)] == ["125", "1k", "1,500", "16k"]


# --- cross-check against ir_measures (trec_eval's own code, through pytrec_eval) -----------


def _random_benchmark(seed: int) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """~30 questions over a 60-coordinate vocabulary: rankings of distinct coordinates
    (trec_eval ranks by score, one per document) of varying depth, 1-4 expected coordinates
    each, some unreachable."""
    rng = random.Random(seed)
    vocabulary = [f"Type{t}.field{f}" for t in range(6) for f in range(10)]
    rankings: dict[str, list[str]] = {}
    expectations: dict[str, list[str]] = {}
    for number in range(30):
        qid = f"q{number}"
        rankings[qid] = rng.sample(vocabulary, rng.randint(1, 25))
        expectations[qid] = rng.sample(vocabulary, rng.randint(1, 4))
    return rankings, expectations


def test_recall_and_mrr_agree_with_trec_eval() -> None:
    ir_measures = pytest.importorskip("ir_measures")
    ks = [1, 3, 5, 10, 20, 50]
    measures = [ir_measures.R @ k for k in ks] + [ir_measures.RR]
    for seed in (7, 2024):
        rankings, expectations = _random_benchmark(seed)
        qrels = [ir_measures.Qrel(q, c, 1) for q, cs in expectations.items() for c in cs]
        run = [
            ir_measures.ScoredDoc(q, c, float(len(ranked) - i))
            for q, ranked in rankings.items()
            for i, c in enumerate(ranked)
        ]
        theirs = ir_measures.calc_aggregate(measures, qrels, run)
        results = [
            evaluate_question(qid, ranked, [1] * len(ranked), expectations[qid], ks, budgets=[])
            for qid, ranked in rankings.items()
        ]
        ours = summarise(results, ks=ks, budgets=[])
        # the seeded data must exercise both hits and misses, or the check proves little
        without_hit = ours.at("questions_without_hit")
        assert isinstance(without_hit, int) and 0 < without_hit < len(results)
        for k in ks:
            assert ours.at("recall", k) == pytest.approx(theirs[ir_measures.R @ k], abs=1e-9)
        assert ours.at("mrr") == pytest.approx(theirs[ir_measures.RR], abs=1e-9)
