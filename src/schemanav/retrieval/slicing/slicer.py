"""The slicer of one schema: a question's ranked hits in, a slice within a budget out, up the
budget ladder (`ladder`), each rung a growth (`build`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from schemanav.defaults import SLICE_LADDER_BASE, SLICE_RANK_DEPTH_PER_TOKEN
from schemanav.question.vocabulary import NO_QUESTION
from schemanav.retrieval.slicing.answer import AnswerTrees
from schemanav.retrieval.slicing.arguments import ArgumentTables
from schemanav.retrieval.slicing.build import Growth
from schemanav.retrieval.slicing.ladder import (
    GROWN_RUNGS_FROM,
    MAX_RUNGS,
    WIDE_WRITES_FROM,
    Rung,
    RungMemory,
)
from schemanav.retrieval.slicing.params import EMPTY_SLICE, SchemaSlice, SliceParams
from schemanav.retrieval.slicing.tables import SchemaTables

if TYPE_CHECKING:
    from graphql import GraphQLSchema

    from schemanav.corpus import Corpus
    from schemanav.graph import SchemaGraph
    from schemanav.question.vocabulary import QuestionReading, SliceReading
    from schemanav.retrieval.base import Ranking
    from schemanav.retrieval.slicing.growth import GrowingState


class Slicer(SchemaTables):
    """Builds slices of one schema; build once, slice many questions (caches line costs)."""

    @classmethod
    def of(
        cls,
        schema: GraphQLSchema,
        corpus: Corpus,
        graph: SchemaGraph | None = None,
        params: SliceParams | None = None,
        words: Callable[[str], list[str]] | None = None,
    ) -> Slicer:
        """A slicer of a parsed schema and its corpus (`build_corpus(schema)`)."""
        from schemanav.corpus.facts import SliceFacts

        return cls(SliceFacts.of(schema), corpus, graph, params, words)

    @cached_property
    def arguments(self) -> ArgumentTables:
        """What the schema's lists' arguments say of the objects they return."""
        return ArgumentTables(self)

    @cached_property
    def answer_trees(self) -> AnswerTrees:
        """The types under each root field's type, by depth."""
        return AnswerTrees(self)

    def from_scores(
        self,
        scores: Sequence[float] | Any,
        budget: int,
        question: str | None = None,
        *,
        ladder: int = SLICE_LADDER_BASE,
    ) -> SchemaSlice:
        """A slice from one score per corpus entry (higher is better; ≤ 0 is never added);
        `ladder` as for `from_ranked`."""
        import numpy as np

        array = np.asarray(scores, dtype=float)
        if array.shape != (len(self.corpus),):
            raise ValueError(f"{array.size} scores for {len(self.corpus)} corpus entries")
        ranked = np.argsort(-array, kind="stable")
        order = ranked[: int((array > 0.0).sum())].tolist()
        values = array.tolist()
        reading = self.reading_of(question)
        return self._build(order, lambda _: values, budget, reading, ladder, remember=False)

    def from_ranking(
        self, ranking: Ranking, budget: int, question: str | None = None, depth: int | None = None
    ) -> SchemaSlice:
        """A slice from a searcher's whole `Ranking` (its coordinates, their corpus positions,
        the question's reading and the wide order a write request's large rungs read: the
        record every front end slices), its first `depth` hits only when given."""
        coordinates, entries = ranking.coordinates, ranking.entries
        if depth is not None:
            coordinates = coordinates[:depth]
            entries = None if entries is None else entries[:depth]
        return self.from_ranked(
            coordinates, budget, question, entries, reading=ranking.reading, wide=ranking.wide
        )

    def from_ranked(
        self,
        coordinates: Sequence[str],
        budget: int,
        question: str | None = None,
        entries: Sequence[int] | None = None,
        *,
        ladder: int = SLICE_LADDER_BASE,
        reading: QuestionReading | None = None,
        wide: Sequence[int] | None = None,
    ) -> SchemaSlice:
        """A slice from any backend's ranked coordinates (unknown ones are skipped).

        Rank r (1-based) stands in for a score of 1/r: a type entering the slice shows the
        leaves ranked best. `entries`, when the caller has them (`Ranking.entries`), are the
        coordinates' positions in this slicer's corpus, each once: thousands of look-ups
        spared. `ladder` is the first rung of the budget ladder (`ladder.py`); a slice
        within it is one growth (the tests of a mechanism at a few dozen tokens set it to
        their budget), and every rung reads as deep as `slice_rank_depth` ranks for the
        default ladder only when it is left as it is. `reading`, the question as the ranking
        that made `coordinates` read it (`Ranking.reading`), is taken instead of reading
        `question` again: the two read it once, alike. `wide` (`Ranking.wide`, with
        `entries`): the same hits ranked with a write request's writes weighed more, the
        order the rungs from `WIDE_WRITES_FROM` tokens read, as deep as `coordinates`.
        """
        import numpy as np

        order: list[int]
        by_entries = entries is not None and self._positions_of(coordinates, entries)
        if entries is not None and by_entries:
            order = list(entries)
        else:
            positions = dict.fromkeys(map(self.index.get, coordinates))  # first rank of each
            positions.pop(None, None)
            order = list(positions)  # type: ignore[arg-type]
        size = len(self.corpus)

        def ranked_values(order: list[int]) -> Callable[[int], list[float]]:
            def values(depth: int) -> list[float]:
                # 1/r for the hits a rung reads, 0 past them; `fromiter` turns thousands of
                # positions into an array faster than indexing by the list does.
                read = order[:depth]
                scores = np.zeros(size)
                scores[np.fromiter(read, dtype=np.intp, count=len(read))] = 1.0 / np.arange(
                    1, len(read) + 1
                )
                result: list[float] = scores.tolist()
                return result

            return values

        taken = reading.slice if reading is not None else self.reading_of(question)
        wider = None
        if wide is not None and by_entries:
            wide_order = list(wide[: len(order)])
            wider = (wide_order, ranked_values(wide_order))
        return self._build(
            order, ranked_values(order), budget, taken, ladder, remember=True, wide=wider
        )

    def reading_of(self, question: str | None) -> SliceReading:
        """The question as the slicer reads it, by the schema's one reader (`TypeReader`)."""
        if not question:
            return NO_QUESTION
        return self.reader.for_slice(question, self.words)

    def _positions_of(self, coordinates: Sequence[str], entries: Sequence[int]) -> bool:
        """Whether `entries` can stand for `coordinates` (as many, and the first and last
        are theirs in this corpus: a ranking of another corpus fails this)."""
        known = self.corpus.coordinates
        return len(entries) == len(coordinates) and (
            not entries
            or (known[entries[0]] == coordinates[0] and known[entries[-1]] == coordinates[-1])
        )

    @cached_property
    def rungs(self) -> RungMemory:
        """The latest question's rungs, per thread (`ladder.RungMemory`)."""
        return RungMemory()

    def _build(
        self,
        order: list[int],
        values: Callable[[int], list[float]],
        budget: int,
        reading: SliceReading,
        ladder: int,
        remember: bool,
        wide: tuple[list[int], Callable[[int], list[float]]] | None = None,
    ) -> SchemaSlice:
        """The slice within `budget`: up the ladder to the first rung at least `budget`, each
        rung grown from the one below (reading its first `SLICE_RANK_DEPTH_PER_TOKEN` × rung
        hits, scored by `values(depth)`), then the prefix of the top rung's growth that fits
        (`Rung.within`). `remember`: reuse the rungs grown for the same reading and ranking."""
        if ladder < 1:
            raise ValueError(f"the ladder's first rung must be at least 1 token, not {ladder}")
        if budget <= 0 or not order:
            return EMPTY_SLICE
        rung: Rung | None = None
        size = ladder
        for _ in range(MAX_RUNGS):
            if wide is not None and size >= WIDE_WRITES_FROM:
                order, values = wide  # a write request's large rungs (`from_ranked`)
            depth = SLICE_RANK_DEPTH_PER_TOKEN * size
            read = tuple(order[:depth])
            known = self.rungs.get(reading, size, read) if remember else None
            if known is None or known.below is not rung:
                if rung is not None and size < GROWN_RUNGS_FROM:
                    known = self._laid_over(list(read), values(depth), size, reading, rung)
                else:
                    known = self._grow(list(read), values(depth), size, reading, rung)
                if remember:
                    self.rungs.put(reading, known)
            rung = known
            if size >= budget:
                break
            size *= 2
        assert rung is not None
        return rung.within(budget)

    def _grow(
        self,
        order: list[int],
        values: list[float],
        budget: int,
        reading: SliceReading,
        below: Rung | None,
    ) -> Rung:
        """One rung: the growth within `budget` from the slice of the rung below (its state,
        read with this rung's scores and budget): the main hits it did not take, in rank
        order, while the whole slice fits the main budget, then connectives, the types' leaves
        before the fill, the fill and the completion with the room left. Only the steps past
        the rung below are recorded: the prefixes a budget between two rungs takes
        (`Rung.within`)."""
        growth = Growth(self, self.arguments, self.answer_trees, values, budget, reading, below)
        return self._rung(growth, self._grown(growth, order), order, below)

    def _laid_over(
        self,
        order: list[int],
        values: list[float],
        budget: int,
        reading: SliceReading,
        below: Rung,
    ) -> Rung:
        """One rung under `GROWN_RUNGS_FROM`: its own slice grown afresh within `budget`, its
        steps then replayed, in their order and while they fit, on the slice of the rung
        below (a hit already in is passed over). A small budget is mostly main hits, and the
        rung below's fill and completion would take their room: the slice keeps the hits
        ranked best, as afresh, and still holds the one below."""
        fresh = Growth(self, self.arguments, self.answer_trees, values, budget, reading)
        _, kept, _ = fresh.trimmed(self._grown(fresh, order))
        growth = Growth(self, self.arguments, self.answer_trees, values, budget, reading, below)
        return self._rung(growth, growth.add_steps(fresh.steps[:kept]), order, below)

    def _rung(
        self, growth: Growth, state: GrowingState | None, order: list[int], below: Rung | None
    ) -> Rung:
        """The rung a growth made, its steps trimmed until the slice fits."""
        state, kept, piece = growth.trimmed(state)
        steps = tuple(growth.steps[:kept])
        taken = frozenset(step[1] for step in steps if step[0] in ("hit", "member"))
        return Rung(
            budget=growth.budget,
            read=tuple(order),
            start=growth.start,
            steps=steps,
            state=state,
            piece=piece,
            taken=taken | growth.taken_below,
            below=below,
        )

    def _grown(self, growth: Growth, order: list[int]) -> GrowingState | None:
        """Every step of one growth (the state after them, None when it must be replayed)."""
        state, fitted, failed = growth.add_main_hits(order)
        if growth.steps or growth.seeded:
            state = growth.add_connectives(state or growth.replayed())
            state = growth.add_set_ways(state)
            state = growth.add_filtering_lists(state)
            state = growth.add_paging(state)
            state = growth.add_fragment_interfaces(state)
            state = growth.add_associations(state)
            state = growth.add_value_arguments(state)
            state = growth.add_entry_arguments(state)
            state = growth.add_list_arguments(state)
            state = growth.add_envelopes(state)
            state = growth.add_shared_outcomes(state)
            state = growth.add_filtered_members(state)
            state = growth.add_write_outcomes(state)
            state = growth.add_root_lookups(state)
            state = growth.add_global_lookup(state)
            state = growth.add_read_outcomes(state)
        if fitted and self.params.fill and failed != -1:
            state = state or growth.replayed()
            if self.params.complete:
                state = growth.complete_early(state)  # the types' leaves, before the fill
                state = growth.complete_answer(state, order)  # the answer's tree
            state = growth.fill(state, order, fitted, failed)
            if self.params.complete:
                state = growth.complete(state)  # the budget the fill left
                state = growth.add_gated_writes(state, order[:fitted])
        elif failed == -1 and (growth.steps or growth.seeded) and self.params.complete:
            state = growth.complete(state or growth.replayed())
            state = growth.add_gated_writes(state, order)
        return state
