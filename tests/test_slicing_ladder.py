"""A larger budget never shows less: the slice within B holds the slice within any B' < B.

Slices grow up a ladder of budgets (`schemanav.retrieval.slicing.ladder`): each rung's slice
grows from the rung below's, and a budget between two rungs (or under the first) takes the
rung below's slice and a prefix of the upper rung's growth. These tests check the guarantee
on real schemas, at the ladder's budgets and between them, as `search --slice` ranks for each
budget (`slice_rank_depth`) and for one ranking sliced within many budgets.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import pytest

from schemanav.bench.labelled import load_labelled
from schemanav.defaults import SLICE_LADDER_BASE, slice_rank_depth, slice_rung
from schemanav.navigator import Navigator
from schemanav.retrieval.slicing import EMPTY_SLICE, SchemaSlice, SliceParams, Slicer
from schemanav.schema import bundled_path
from slicing_support import TINY_SDL, slicer_for, valid

if TYPE_CHECKING:
    from conftest import BenchFiles

# The bench's budgets, the rungs' neighbours and budgets between rungs or under the first.
BUDGETS = (60, 250, 499, 500, 501, 700, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 16000)


def _nested(pieces: list[tuple[int, SchemaSlice]], label: str) -> None:
    """Each slice within its budget, and holding every coordinate of the slices before it."""
    for budget, piece in pieces:
        assert piece.tokens <= budget, (label, budget)
    for (small, piece), (large, bigger) in itertools.pairwise(pieces):
        lost = piece.coordinates - bigger.coordinates
        assert not lost, f"{label}: within {large} lacks {sorted(lost)[:5]} shown within {small}"


def test_the_ladder_doubles_from_500_tokens() -> None:
    assert SLICE_LADDER_BASE == 500
    assert [slice_rung(b) for b in (1, 500, 501, 1000, 3000, 16000)] == [
        500, 500, 1000, 1000, 4000, 16000,
    ]  # fmt: skip
    # A budget between two rungs ranks as deep as the upper one reads.
    assert slice_rank_depth(3000, 10**6) == slice_rank_depth(4000, 10**6) == 8000
    assert slice_rank_depth(3000, 100) == 100


@pytest.fixture(scope="module")
def movies() -> dict[str, Any]:
    navigator = Navigator.open(None, max_paths=0)
    searcher = navigator.searcher(paths=False)
    questions = [q.question for q in load_labelled(bundled_path("moviedb-sample.tsv"))]
    return {"navigator": navigator, "searcher": searcher, "questions": questions}


def test_a_larger_budget_never_shows_less_on_the_movie_db(movies: dict[str, Any]) -> None:
    """Every bundled question, one ranking sliced within every budget (the ladder's rungs
    shared between them, as `bench` slices)."""
    navigator, searcher = movies["navigator"], movies["searcher"]
    slicer: Slicer = navigator.slicer
    deepest = slice_rank_depth(max(BUDGETS), len(navigator.corpus))
    for question in movies["questions"]:
        ranking = searcher.ranking(question, deepest)
        ranked, entries = list(ranking.coordinates), list(ranking.entries)
        pieces = []
        for budget in BUDGETS:
            depth = slice_rank_depth(budget, len(navigator.corpus))
            piece = slicer.from_ranked(ranked[:depth], budget, question, entries[:depth])
            if piece.sdl:
                valid(piece.sdl)
            pieces.append((budget, piece))
        _nested(pieces, question)


def test_search_slice_nests_whatever_order_the_budgets_come_in(movies: dict[str, Any]) -> None:
    """`Navigator.slice` ranks as deep as each budget's rung reads; a fresh navigator (no
    rung remembered) and budgets asked largest first give the same slices."""
    navigator = movies["navigator"]
    fresh = Navigator.open(None, max_paths=0)
    for question in movies["questions"][:8]:
        pieces = [(b, navigator.slice(question, budget=b)) for b in BUDGETS]
        backwards = {b: fresh.slice(question, budget=b) for b in reversed(BUDGETS)}
        for budget, piece in pieces:
            assert piece.sdl == backwards[budget].sdl, (question, budget)
        records = [
            (b, SchemaSlice(r.sdl, r.tokens, r.fields, r.arguments, r.types, r.hits))
            for b, r in pieces
        ]
        _nested(records, question)


def test_a_budget_between_rungs_takes_a_prefix_of_the_upper_rungs_growth() -> None:
    slicer = slicer_for(TINY_SDL)
    ranked = list(slicer.corpus.coordinates)
    question = "the total and status of order 7 and its customer's email"
    pieces = [(b, slicer.from_ranked(ranked, b, question)) for b in range(0, 1001, 10)]
    _nested(pieces, question)
    assert pieces[0][1] == EMPTY_SLICE and slicer.from_ranked(ranked, 5) == EMPTY_SLICE
    # At a rung, the whole growth; the ladder may start anywhere (one growth within it).
    rung = dict(pieces)[500]
    assert rung == slicer_for(TINY_SDL).from_ranked(ranked, 500, question)
    assert slicer.from_ranked(ranked, 120, question, ladder=120).tokens <= 120
    with pytest.raises(ValueError, match="first rung"):
        slicer.from_ranked(ranked, 100, question, ladder=0)


_REPORT_ARGUMENTS = ", ".join(f"a{n}: String!" for n in range(20))
_ORDER_LEAVES = "\n".join(f"  f{n}: String" for n in range(30))
_DEAR_HIT_SDL = f"""
type Query {{
  order(id: ID!): Order
  report({_REPORT_ARGUMENTS}): String
}}

type Order {{
  id: ID!
{_ORDER_LEAVES}
}}
"""


def test_a_small_rung_keeps_the_hits_its_own_slice_would_take() -> None:
    """Under `GROWN_RUNGS_FROM` a rung is grown afresh and laid over the rung below: the
    second hit (a report of twenty required arguments) does not fit the smaller slice, whose
    fill spends the room on the order's leaves; the slice twice as large still takes it, as
    it would afresh, where one grown from the full smaller slice has no main budget left."""
    slicer = slicer_for(_DEAR_HIT_SDL, SliceParams())
    ranked = ["Query.order", "Query.report", *[f"Order.f{n}" for n in range(30)]]
    small = slicer.from_ranked(ranked, 140, ladder=140)
    large = slicer.from_ranked(ranked, 280, ladder=140)
    assert "Query.report" not in small.fields and "Order.f20" in small.fields
    assert "Query.report" in large.fields and small.coordinates <= large.coordinates
    assert large.sdl == slicer.from_ranked(ranked, 280, ladder=280).sdl
    valid(large.sdl)


@pytest.mark.slow
def test_a_larger_budget_never_shows_less_on_github(github: dict[str, Any]) -> None:
    """A third of GitHub's questions, each ranked as `search --slice` ranks for each budget
    (a budget between two rungs ranks as deep as the upper rung reads)."""
    slicer: Slicer = github["slicer"]
    searcher = github["searcher"]
    entries = len(slicer.corpus)
    for question in github["questions"][::3]:
        pieces = []
        for budget in (500, 700, 1000, 2000, 3000, 4000, 8000):
            ranking = searcher.ranking(question, slice_rank_depth(budget, entries))
            pieces.append((budget, slicer.from_ranked(list(ranking.coordinates), budget, question)))
        _nested(pieces, question)


@pytest.fixture(scope="module")
def github(github_slice: BenchFiles) -> dict[str, Any]:
    from graphql import build_schema

    from schemanav.corpus import Format, build_corpus
    from schemanav.retrieval.structural import StructuralBackend

    schema = build_schema(github_slice.schema.read_text(encoding="utf-8"))
    corpus = build_corpus(schema)
    searcher = StructuralBackend(Format.RAW, max_paths=0).index(corpus)
    slicer = Slicer.of(schema, corpus, searcher.graph, words=searcher.stem)
    questions = [q.question for q in load_labelled(github_slice.questions)]
    return {"slicer": slicer, "searcher": searcher, "questions": questions}
