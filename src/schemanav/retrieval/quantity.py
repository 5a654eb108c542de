"""What a schema's own names and descriptions say of it: whether a scalar holds a point in
time, and which root field its description calls the caller. How a question is read against
the schema's type names (one object or many, short forms, values that are not words) is
`schemanav.question.vocabulary`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from schemanav.question.vocabulary import type_words

if TYPE_CHECKING:
    from schemanav.corpus import Corpus

# A scalar's own words that make it a point in time: `DateTime`, `ISO8601Date`, `Time`,
# `GitTimestamp`, or a description saying it is a date or an ISO 8601 value.
_TIME_SCALAR_WORDS = frozenset({"date", "time", "datetime", "timestamp"})
_TIME_SCALAR_TEXT = re.compile(r"\b(?:date|timestamp)\b|\biso[ -]?8601\b", re.IGNORECASE)

CALLER_DESCRIPTION = re.compile(
    r"\b(?:current(?:ly)?|authenticated)\s+(?:\w+\s+)?user\b", re.IGNORECASE
)


def is_time_scalar(name: str, description: str | None) -> bool:
    """Whether a custom scalar holds a point in time, by its own name or description."""
    if not _TIME_SCALAR_WORDS.isdisjoint(type_words(name).split(" ")):
        return True
    return bool(description and _TIME_SCALAR_TEXT.search(description))


def returns_time(corpus: Corpus) -> list[bool]:
    """Whether each entry returns a point in time (a date or time scalar)."""
    owners = corpus.owners
    scalars: dict[str, bool] = {}
    flags = []
    for named in corpus.target_column:
        flag = scalars.get(named)
        if flag is None:
            # GraphQL's own scalars say nothing of dates: only custom ones can be times.
            flag = scalars[named] = (
                named not in owners
                and named not in corpus.enum_values
                and named not in corpus.possible_types
                and is_time_scalar(named, corpus.type_descriptions.get(named))
            )
        flags.append(flag)
    return flags


def caller_field(corpus: Corpus, root_fields: Iterable[int]) -> int | None:
    """The position of the query root's field for the API's caller, among `root_fields` (the
    query root's entries): a field without required arguments returning one object, whose
    description says it is the current or authenticated user (`viewer`, `currentUser`); of
    several, the one whose type has the most fields (a caller's type carries their data; a
    field "for the current user" returns something else). None if there is none."""
    entries = corpus.entries
    found = [
        position
        for position in root_fields
        if not (entry := entries[position]).takes_required_argument
        and not entry.returns_list
        and entry.named_return_type in corpus.owners
        and CALLER_DESCRIPTION.search(entry.description or "")
    ]
    if not found:
        return None
    sizes = Counter(corpus.owner_column)
    candidates = [(sizes[entries[position].named_return_type], position) for position in found]
    return max(candidates, key=lambda c: (c[0], -c[1]))[1]
