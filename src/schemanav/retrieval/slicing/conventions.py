"""The conventions by which a schema's lists take their arguments, read from the schema's
shape: how a list is paged (its page size, and the arguments paging takes with it), which
String argument looks for text inside values, and which argument chooses an order. A question
that pages, sorts or looks for text (`schemanav.question.grammar`) is shown these."""

from __future__ import annotations

import re
from collections import Counter
from functools import cached_property
from typing import TYPE_CHECKING

from schemanav.retrieval.slicing.outcomes import OutcomeTables
from schemanav.retrieval.slicing.params import PAGE_SIZE_ARGUMENT, PAGING_SHARE

if TYPE_CHECKING:
    from schemanav.corpus.facts import SliceFacts
    from schemanav.retrieval.slicing.fields import FieldFacts

_SORT_NAME = re.compile(r"(?:sort|order)(?:_?by|_?order|_?direction|_?field|_?key|ing)?", re.I)


class ArgumentConventions(OutcomeTables):
    """One schema's conventions of list arguments (see the module's docstring)."""

    schema_facts: SliceFacts
    enum_values: dict[str, tuple[str, ...]]

    @cached_property
    def page_size(self) -> str:
        """The argument that sets how many of a list's objects come back: Relay's `first`
        wherever a list of the schema takes it; else the schema's own convention, the
        integer argument its lists take before any other, where more lists take it than all
        other such arguments together (Dagster's and Unchained's `limit`)."""
        taking: Counter[str] = Counter()
        given = self.schema_facts.arguments
        for owner, own in self.facts.items():
            for name, facts in own.items():
                if not facts.many or not facts.arguments:
                    continue
                if PAGE_SIZE_ARGUMENT in facts.arguments:
                    return PAGE_SIZE_ARGUMENT
                first = next(  # `limit: Int = 10`: one integer (not a list), optional
                    (
                        value.name
                        for value in given.get(f"{owner}.{name}", ())
                        if value.type.rstrip("!") == "Int" and not value.required
                    ),
                    None,
                )
                if first is not None:
                    taking[first] += 1
        if not taking:
            return PAGE_SIZE_ARGUMENT
        (name, count), rest = taking.most_common(1)[0], taking.total()
        return name if count > rest - count else PAGE_SIZE_ARGUMENT

    @cached_property
    def paging_arguments(self) -> frozenset[str]:
        """The arguments a list is read page by page with: the page size (`page_size`) and
        the optional scalar arguments at least `PAGING_SHARE` of the fields taking it take
        too (Relay's `after`, `last`, `before`; `offset` beside `limit`; Dagster's `cursor`).
        A field taking the page size pages, whatever it returns (`runsOrError(limit:)`)."""
        size, given = self.page_size, self.schema_facts.arguments
        taking: Counter[str] = Counter()
        lists = 0
        for owner, own in self.facts.items():
            for name, facts in own.items():
                if size not in facts.arguments:
                    continue
                lists += 1
                for value in given.get(f"{owner}.{name}", ()):
                    scalar = self.kinds.get(value.type.rstrip("!")) == "scalar"
                    if value.name != size and not value.required and scalar:
                        taking[value.name] += 1
        return frozenset({size}) | {a for a, n in taking.items() if n >= PAGING_SHARE * lists}

    def searches_text(self, facts: FieldFacts, argument: str) -> bool:
        """Whether an argument looks for text inside values (`Argument.searches_text`)."""
        number = facts.arguments.index(argument)
        return self.corpus.entries[facts.position].arguments[number].searches_text

    def sorts(self, argument: str, named: str) -> bool:
        """Whether an argument chooses a list's order: its name says so (`sort`, `sortBy`,
        `orderBy`, `order_by`), or it takes a direction (an enum of `ASC` and `DESC`) or an
        input holding one (`IssueOrder { field direction }`, `SortOptionInput { key value }`)."""
        if _SORT_NAME.fullmatch(argument):
            return True
        if self.is_direction(named):
            return True
        if self.kinds.get(named) != "input":
            return False
        fields = self.schema_facts.inputs.get(named, ())
        return any(self.is_direction(value.type.strip("[]!")) for value in fields)

    def is_direction(self, type_name: str) -> bool:
        """Whether a type is an enum of sort directions: its values hold `ASC` and `DESC`."""
        values = self.enum_values.get(type_name) if self.kinds.get(type_name) == "enum" else None
        if not values:
            return False
        upper = {value.upper() for value in values}
        return bool({"ASC", "ASCENDING"} & upper) and bool({"DESC", "DESCENDING"} & upper)
