"""How a schema reports outcomes, as slices read it: the outcome most of its unions share
(the error every `…OrError` union may return) with the types that make it up, the unions
naming the kinds of one answer, and the envelope most of its answers carry (`error` beside
`data`); computed once per schema.

`SchemaTables` takes these tables from `OutcomeTables`, which reads its field facts, kinds
and corpus.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property
from typing import TYPE_CHECKING

from schemanav.corpus.outcomes import (
    SHARED_OUTCOME_SHARE,
    SHARED_OUTCOME_UNIONS,
    kind_unions,
    object_unions,
    shared_outcomes,
)
from schemanav.retrieval.slicing.roots import RootTables

if TYPE_CHECKING:
    from schemanav.corpus import Corpus
    from schemanav.retrieval.slicing.fields import FieldFacts


class OutcomeTables(RootTables):
    """The outcome tables of one schema (see the module's docstring)."""

    facts: dict[str, dict[str, FieldFacts]]
    kinds: dict[str, str]
    corpus: Corpus

    @cached_property
    def shared_outcomes(self) -> frozenset[str]:
        """How the schema reports an outcome wherever one may occur
        (`schemanav.corpus.outcomes.shared_outcomes`): a union in the slice brings it whole."""
        return shared_outcomes(object_unions(self.corpus), self.corpus.returned_by)

    @cached_property
    def kind_unions(self) -> frozenset[str]:
        """The unions naming the kinds one answer may take
        (`schemanav.corpus.outcomes.kind_unions`): a read shows every kind, when they fit."""
        return kind_unions(self.corpus)

    @cached_property
    def _parts(self) -> dict[str, frozenset[str]]:
        return {}

    def parts(self, type_name: str) -> frozenset[str]:
        """The types that exist only to make up `type_name`: those only its fields, or its
        parts' fields, return (Dagster's `ErrorChainLink` of a `PythonError`; a transaction
        request's raw request, that request's metadata, the metadata's paymaster)."""
        cached = self._parts.get(type_name)
        if cached is not None:
            return cached
        closure = {type_name}
        grown = True
        while grown:
            grown = False
            for owner in list(closure):
                for facts in self.facts.get(owner, {}).values():
                    named = facts.named
                    if facts.leaf or named in closure or named not in self.facts:
                        continue
                    if self.corpus.returned_by.get(named, frozenset()) <= closure:
                        closure.add(named)
                        grown = True
        found = self._parts[type_name] = frozenset(closure - {type_name})
        return found

    @cached_property
    def envelopes(self) -> tuple[str, ...]:
        """The names of the fields returning an object that at least half the types the
        schema's entry fields return carry (and at least `SHARED_OUTCOME_UNIONS`): a response
        envelope, how the schema reports an outcome beside every answer (`error: PbError` on
        44 of Webiny's 49 responses). Entry fields are those of `entry_owners`."""
        facts, kinds, entries = self.facts, self.kinds, self.entry_owners
        answers = {
            field.named for owner in entries for field in facts.get(owner, {}).values()
        }
        answers = {a for a in answers if kinds.get(a) == "object" and a not in entries}
        counts: dict[str, int] = defaultdict(int)
        types: dict[str, set[str]] = defaultdict(set)
        for answer in answers:
            for name, field in facts.get(answer, {}).items():
                if kinds.get(field.named) == "object" and not field.required:
                    counts[name] += 1
                    types[name].add(field.named)
        least = max(SHARED_OUTCOME_UNIONS, SHARED_OUTCOME_SHARE * len(answers))
        # An envelope's field has one type or a few (one error type per feature), where the
        # answer itself (`data`, `items`) has a type of its own in each response.
        return tuple(
            sorted(
                name
                for name, count in counts.items()
                if count >= least and len(types[name]) * SHARED_OUTCOME_UNIONS <= count
            )
        )
