"""Benchmark building blocks: labelled questions and pure retrieval metrics."""

from schemanav.bench.labelled import (
    LabelledFileError,
    LabelledQuery,
    load_labelled,
    unknown_coordinates,
)
from schemanav.bench.metrics import (
    MetricSummary,
    QuestionResult,
    budget_recall,
    evaluate_question,
    first_hit_rank,
    mean,
    median,
    percentile,
    recall_at_k,
    reciprocal_rank,
    summarise,
    tokens_at_k,
)

__all__ = [
    "LabelledFileError",
    "LabelledQuery",
    "MetricSummary",
    "QuestionResult",
    "budget_recall",
    "evaluate_question",
    "first_hit_rank",
    "load_labelled",
    "mean",
    "median",
    "percentile",
    "recall_at_k",
    "reciprocal_rank",
    "summarise",
    "tokens_at_k",
    "unknown_coordinates",
]
