"""Slices that only grow with the budget: a larger budget never shows less.

A slice built afresh for each budget is not monotone: the main hits take 80% of the budget,
then connectives, the fill and the completion spend the rest, so a larger budget moves the
frontier down the ranking and may pass over a cheap line the smaller slice's fill took, or
spend on hits the room the smaller slice's completion gave to a labelled field. So the
budgets form a fixed ladder (`schemanav.defaults.slice_rung`: 500, 1,000, 2,000, … tokens),
and a rung's slice is built on the slice of the rung below. From `GROWN_RUNGS_FROM` tokens
up, it is grown from it: the growth starts from that slice's state, and its steps (main hits
not yet taken, in rank order, while the whole slice fits 80% of the rung; then connectives,
the fill, the completion) spend the room the larger budget adds. Under it, the rung's own
slice is grown afresh and its steps are laid over the slice below, in their order, while they
fit. A budget between two rungs, or under the first, gets the rung below's slice and the
longest run of the upper rung's steps, in their order, that fits: a prefix, so a larger
budget there takes a longer one.

The guarantee: for one question, one ranking and one slicer's options, the slice within any
budget B holds every coordinate (field, argument, type) of the slice within any B' < B, when
each is given the ranking at least as deep as its upper rung reads (its first
`SLICE_RANK_DEPTH_PER_TOKEN` × rung hits; `slice_rank_depth` ranks that deep, and a rung never
reads further). Within a rung's interval the prefixes nest; at a rung the slice is the whole
interval's growth; above it every slice starts from it. The ladder stops at `MAX_RUNGS`
rungs: any larger budget gets the top rung's slice.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from schemanav.retrieval.slicing.params import EMPTY_SLICE, SchemaSlice
from schemanav.retrieval.slicing.render import slice_of

if TYPE_CHECKING:
    from schemanav.question.vocabulary import SliceReading
    from schemanav.retrieval.slicing.growth import GrowingState
    from schemanav.retrieval.slicing.state import Step

GROWN_RUNGS_FROM = 2_000
"""Rungs of at least this many tokens grow from the slice of the rung below; a smaller one is
grown afresh and laid over it (`Slicer._laid_over`). Measured on the corpus (the rung from which
growth starts, 500 / 2,000 / 4,000): from 500 GitHub loses 8 questions within 1,000 tokens, the
smaller rung's fill taking the room its main hits had; from 4,000 the rung of 2,000 loses what
growth gains (Dagster −4 and Lens −4 within 2,000)."""

MAX_RUNGS = 16
"""No ladder climbs past this many rungs (500 · 2¹⁵ ≈ 16 million tokens, past any model's
context): a larger budget gets the top rung's slice."""

WIDE_WRITES_FROM = 2_000
"""From this rung, a request to change something reads its ranking with the writes weighed
more (`Ranking.wide`, `schemanav.retrieval.structural.WIDE_WRITE_WEIGHT`); the rungs below
keep the plain ranking's order, and every rung still holds the one below. Chosen on the
corpus in sample and by every held-out set against 4,000 and 8,000."""


@dataclass(frozen=True, eq=False)
class Rung:
    """One rung's slice: the state its growth began from (the rung below's final state, or
    an empty one), the steps it kept, in order, and what they made. States are never
    changed once here: a growth or a prefix copies them."""

    budget: int
    read: tuple[int, ...]  # the ranking it read: with the question, what it was grown from
    start: GrowingState
    steps: tuple[Step, ...]
    state: GrowingState  # after every kept step, the query type in
    piece: SchemaSlice
    taken: frozenset[int]  # the ranked hits taken in it and every rung below
    below: Rung | None

    @property
    def base(self) -> SchemaSlice:
        """The slice its growth began from: the rung below's (empty for the first)."""
        return self.below.piece if self.below is not None else EMPTY_SLICE

    def within(self, budget: int) -> SchemaSlice:
        """The slice within `budget` ≤ this rung's: the rung below's and the longest prefix
        of this rung's steps whose running count, after each step, stays within `budget`,
        cut back (a step at a time) until the rendered SDL does too.

        A larger budget's run is never shorter and the prefix it is cut back to is never
        shorter either (the smaller budget's prefix fits it too): the slices nest."""
        if budget >= self.budget:
            return self.piece
        scratch = self.start.copy()
        fitting = 0
        for step in self.steps:
            scratch.apply(step)
            if scratch.total > budget:
                break
            fitting += 1
        for kept in range(fitting, 0, -1):
            piece = self.prefix(kept)
            if piece.tokens <= budget:
                return piece
        return self.base

    def prefix(self, kept: int) -> SchemaSlice:
        """The slice of the rung below and this rung's first `kept` steps."""
        state = self.start.copy()
        for step in self.steps[:kept]:
            state.apply(step)
        return finished(state, self.base.hits + counted_hits(self.steps[:kept]))


def counted_hits(steps: Sequence[Step]) -> int:
    """How many of these steps are ranked hits (a link is not)."""
    return sum(1 for step in steps if step[0] != "link")


def finished(state: GrowingState, hits: int) -> SchemaSlice:
    """The record of a slice's state, with its query type in (a schema needs one)."""
    query_root = state.s.corpus.query_root
    if query_root and query_root not in state.fields:
        state.ensure_output(query_root)
    return slice_of(state, hits)


class RungMemory:
    """The rungs of the latest question, per thread: `bench` and the corpus scripts slice
    one question within several budgets in a row, and each budget's ladder shares the rungs
    below it, so each is grown once. A rung is reused only for the same reading of the
    question (all a growth reads of it) and the same ranking read (its first `depth` hits)."""

    def __init__(self) -> None:
        self._local = threading.local()

    def get(self, reading: SliceReading, budget: int, read: tuple[int, ...]) -> Rung | None:
        rungs = self._rungs(reading)
        rung = rungs.get(budget)
        return rung if rung is not None and rung.read == read else None

    def put(self, reading: SliceReading, rung: Rung) -> None:
        self._rungs(reading)[rung.budget] = rung

    def _rungs(self, reading: SliceReading) -> dict[int, Rung]:
        local = self._local
        if getattr(local, "reading", None) != reading or not hasattr(local, "rungs"):
            local.reading, local.rungs = reading, {}
        rungs: dict[int, Rung] = local.rungs
        return rungs
