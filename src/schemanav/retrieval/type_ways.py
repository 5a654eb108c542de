"""The ways to the types a question names (mechanism 6 of `schemanav.retrieval.structural`).

A question that names a type once, beside a literal identifier, wants the lookup of one
object of it; a type it names only in the plural is a set, reached through the query root's
list of it or through its home (`Project.mergeRequests`), not through a lookup by identifier
that no one asking for every open merge request can fill. The type names are read by
`schemanav.question.vocabulary` (`TypeMentions`); this module moves the scores and the hop
costs of the fields that reach those types, by the shapes `structural_index` records (a
lookup, a list, the kind of each field on a way to a set).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from schemanav.question.vocabulary import PATH_LITERAL
from schemanav.retrieval.structural_index import (
    SET_ROUTE_BY_IDENTIFIER,
    SET_ROUTE_HOME,
    SET_ROUTE_KINDS,
    SET_ROUTE_PLUMBING,
    StructuralIndex,
    StructuralParams,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt

    from schemanav.question.vocabulary import TypeMentions

    FloatArray = npt.NDArray[np.float64]
    IntArray = npt.NDArray[np.int64]

# The query root's lists of a type named only in the plural score 1 + this times as much;
# 0.5 and 2.0 lost in the corpus grid.
ROOT_LISTS = 1.0


@dataclass(frozen=True, eq=False)
class TypeWays:
    """The fields reaching each type of one index, and how a question's mentions move them."""

    state: StructuralIndex
    params: StructuralParams
    owner_column: Sequence[str]
    on_query_root: Any  # True for each entry the query root owns

    @cached_property
    def reached_numbers(self) -> dict[str, int]:
        """Each reached type's number in the index (`StructuralIndex.reached`)."""
        return {name: n for n, name in enumerate(self.state.reached)}

    @cached_property
    def owner_reached(self) -> IntArray:
        """Each entry's owner by its number among the reached types (-1: none reaches it)."""
        import numpy as np

        numbers = self.reached_numbers
        return np.array([numbers.get(owner, -1) for owner in self.owner_column], dtype=np.int64)

    def moved(
        self, mentions: TypeMentions, scores: FloatArray, everyones: bool, reads: bool
    ) -> FloatArray:
        """Scores moved by whether the question wants one object of a type or a set of them
        (see `schemanav.question.vocabulary`): `_set_ways` for the types it names only in the
        plural, `_one_object_ways` for those it names once. A union of one object and its
        failures counts as that object (`_with_result_unions`)."""
        scores = self._set_ways(mentions.plural - mentions.singular, scores, everyones)
        return self._one_object_ways(mentions, scores, reads)

    def _set_ways(self, sets: frozenset[str], scores: FloatArray, everyones: bool) -> FloatArray:
        """A type named only in the plural is a set: lookups of one object of it score
        `plural_lookups` less, and the query root's lists and connections of it (the schema's
        own way to every object of a type: `issues`, `products`) `ROOT_LISTS` more, unless
        the set is not everyone's (`everyones` False: "my repos" are the caller's, "runners
        of group/project" that object's)."""
        import numpy as np

        root_lists = ROOT_LISTS if everyones else 0.0
        if not sets or not (self.params.plural_lookups or root_lists):
            return scores
        into = self._among(self.state.target, self._numbers_of(sets))
        single = into & (self.state.shape == 1)
        scores = scores * np.where(single, 1.0 - self.params.plural_lookups, 1.0)
        listed = into & (self.state.shape == 2) & self.on_query_root
        result: FloatArray = scores * np.where(listed, 1.0 + root_lists, 1.0)
        return result

    def _one_object_ways(
        self, mentions: TypeMentions, scores: FloatArray, reads: bool
    ) -> FloatArray:
        """A question that names a type once beside a literal identifier (`merge request 42`,
        `project group/project`) wants the lookup of one object of it: lookups reaching it
        score `literal_lookups` more, and a type it names in the plural beside it is wanted
        as a set of that object's (`merge requests of project group/project`): the lists and
        connections of the named object's type into it score `scoped_lists` more. A read
        naming a type only in the singular without a literal ("repository disk usage", "is
        the orders asset fresh?") likely wants one object too: its lookups score
        `singular_lookups` more."""
        import numpy as np

        one = mentions.one
        if not one:
            singular = mentions.singular - mentions.plural
            if reads and singular and self.params.singular_lookups:
                return self._lifted(scores, singular, self.params.singular_lookups)
            return scores
        result = self._lifted(scores, one, self.params.literal_lookups)
        plural = mentions.plural
        if plural and self.params.scoped_lists:
            scoped = (
                self._among(self.owner_reached, self._numbers_of(one))
                & self._among(self.state.target, self._numbers_of(plural))
                & (self.state.shape == 2)
            )
            result = result * np.where(scoped, 1.0 + self.params.scoped_lists, 1.0)
        return result

    def _lifted(self, scores: FloatArray, names: frozenset[str], lift: float) -> FloatArray:
        """`scores` with the lookups (one object, by a required argument) of `names` lifted."""
        import numpy as np

        into = self._among(self.state.target, self._numbers_of(names))
        result: FloatArray = scores * np.where(into & (self.state.shape == 1), 1.0 + lift, 1.0)
        return result

    def detours(self, mentions: TypeMentions, query: str) -> FloatArray | None:
        """What the hops of a question's ways in cost more (or less) when it asks for a set
        (names a type only in the plural). A way that cannot hold the set costs
        `set_wrong_way_hops` more: a lookup of one object by identifiers only (who asks for
        every open merge request has no merge request's ID) and, when the question names an
        object by its path ("vulnerabilities in group/project"), the query root's list of
        everyone's. The set's home (`Project.mergeRequests`, see
        `structural_index._set_routes`) costs `set_home_hops` less, and a connection's or
        page's way to its items `set_plumbing_hops` less, so a list is no longer two hops
        behind a lookup. None when nothing changes."""
        import numpy as np

        params = self.params
        wrong = params.set_wrong_way_hops
        kinds = np.zeros(len(SET_ROUTE_KINDS))  # what each kind adds, by its number
        kinds[SET_ROUTE_HOME] = -params.set_home_hops
        kinds[SET_ROUTE_PLUMBING] = -params.set_plumbing_hops
        kinds[SET_ROUTE_BY_IDENTIFIER] = wrong
        if not kinds.any():
            return None
        numbers = self.reached_numbers
        sets = [numbers[n] for n in mentions.plural - mentions.singular if n in numbers]
        if not sets:
            return None
        into = self._among(self.state.set_target, np.array(sets, dtype=np.int64))
        detours: FloatArray = np.where(into, kinds[self.state.set_route], 0.0)
        if wrong and PATH_LITERAL.search(query):
            everyones = into & self.on_query_root & (self.state.shape == 2)
            detours = detours + np.where(everyones, wrong, 0.0)
        return detours

    def _numbers_of(self, names: frozenset[str]) -> IntArray:
        """The reached types' numbers of `names`, with the unions that are one of them or its
        failure (`_with_result_unions`)."""
        import numpy as np

        numbers = self.reached_numbers
        found = np.fromiter((numbers[n] for n in names if n in numbers), dtype=np.int64)
        return self._with_result_unions(found)

    def _with_result_unions(self, wanted: IntArray) -> IntArray:
        """The `wanted` types, and the unions that are one of them or its failure: a field
        returning such a union is a lookup or a list of the wanted type as one returning the
        type is (`assetNodeOrError(assetKey:)` of an asset node)."""
        import numpy as np

        return np.union1d(wanted, np.flatnonzero(np.isin(self.state.result_object, wanted)))

    def _among(self, numbers: IntArray, wanted: IntArray) -> Any:
        """`np.isin(numbers, wanted)` for reached-type numbers (-1 for none): a look-up in a
        table with a slot per reached type and one more, always False, that -1 indexes."""
        import numpy as np

        table = np.zeros(len(self.state.reached) + 1, dtype=bool)
        table[wanted] = True
        return table[numbers]
