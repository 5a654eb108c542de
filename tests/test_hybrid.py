"""Reciprocal rank fusion by hand, and what the hybrid adds over the structural backend."""

from __future__ import annotations

import numpy as np
import pytest

from schemanav.corpus import Corpus, Format
from schemanav.retrieval import BackendContext
from schemanav.retrieval.hybrid import reciprocal_rank_fusion
from schemanav.retrieval.pipeline import create_backend


def test_rrf_against_hand_worked_values() -> None:
    # lexical ranks: d0 → 1, d2 → 2, d1 → 3 (but d1 unmatched: contributes nothing)
    # cosine ranks:  d1 → 1, d0 → 2, d2 → 3
    lexical = np.array([3.0, 0.0, 2.0])
    cosine = np.array([0.5, 0.9, 0.1])
    fused = reciprocal_rank_fusion((lexical, lexical > 0), (cosine, cosine > -2), constant=60)
    expected = [1 / 61 + 1 / 62, 1 / 61, 1 / 62 + 1 / 63]
    assert fused.tolist() == pytest.approx(expected)


def test_rrf_ties_keep_corpus_order_and_an_empty_fusion_is_zero() -> None:
    scores = np.array([1.0, 1.0])
    fused = reciprocal_rank_fusion((scores, scores > 0), constant=0)
    assert fused.tolist() == [1.0, 0.5]
    assert reciprocal_rank_fusion().tolist() == []


@pytest.mark.slow
def test_hybrid_finds_a_paraphrase_the_structural_backend_misses(
    moviedb_corpus: Corpus, tmp_path_factory: pytest.TempPathFactory
) -> None:
    pytest.importorskip("sentence_transformers")
    context = BackendContext(Format.DOT_PLUS_GLOSS, tmp_path_factory.mktemp("cache"))
    question = "Who directed this film?"  # neither "director" nor "movie" appears
    structural = create_backend("structural", context).index(moviedb_corpus)
    hybrid = create_backend("hybrid-local", context).index(moviedb_corpus)
    assert "Movie.directors" not in [h.coordinate for h in structural.search(question, 5)]
    top = [h.coordinate for h in hybrid.search(question, 3)]
    assert "Movie.directors" in top
    # the path to the hit comes before it, as in the structural backend
    assert top.index("Query.movie") < top.index("Movie.directors")
    assert hybrid.name == "hybrid-local:all-MiniLM-L6-v2"


@pytest.mark.slow
def test_the_hybrids_ranking_is_its_search_with_the_structural_reading_and_wide_ranking(
    moviedb_corpus: Corpus, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`HybridSearcher.ranking`: the coordinates its `search` lists, the question's reading,
    and for a request to change something the wide ranking a large slice reads (the writes
    weighed more, fused with the same cosines)."""
    pytest.importorskip("sentence_transformers")
    from schemanav.retrieval.base import Ranking, ranking_of
    from schemanav.retrieval.hybrid import HybridSearcher
    from schemanav.retrieval.structural import (
        WIDE_WRITE_WEIGHT,
        StructuralBackend,
        StructuralParams,
    )

    context = BackendContext(Format.DOT_PLUS_GLOSS, tmp_path_factory.mktemp("cache"))
    hybrid = create_backend("hybrid-local", context).index(moviedb_corpus)
    request = "Put the film Heat in the catalog."
    ranking = ranking_of(hybrid, request, 40)
    assert ranking.coordinates == Ranking.of(hybrid.search(request, 40)).coordinates
    assert ranking.reading is not None and ranking.reading.asked_writes
    assert ranking.wide is not None and sorted(ranking.wide) == sorted(ranking.entries or ())
    # The wide order is the same fusion with the structural side weighing the writes as a
    # searcher whose own write weight were the wide one, and it is another order.
    heavier = StructuralBackend(
        Format.DOT_PLUS_GLOSS, params=StructuralParams(write_weight=WIDE_WRITE_WEIGHT)
    ).index(moviedb_corpus)
    assert isinstance(hybrid, HybridSearcher)
    widened = ranking_of(HybridSearcher(hybrid.name, heavier, hybrid.embedding), request, 40)
    assert ranking.wide == widened.entries
    assert ranking.wide != ranking.entries
    assert ranking_of(hybrid, "Who directed this film?", 40).wide is None
