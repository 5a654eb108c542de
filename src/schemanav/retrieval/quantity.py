"""What a schema's own names and descriptions say of it: whether a scalar holds a point in
time, and which root field its description calls the caller. How a question is read against
the schema's type names (one object or many, short forms, values that are not words) is
`schemanav.question.vocabulary`.
"""

from __future__ import annotations

import re

from schemanav.question.vocabulary import type_words

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
