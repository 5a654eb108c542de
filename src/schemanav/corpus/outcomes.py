"""How a schema reports an outcome wherever one may occur: the type most of its unions share
(the error every `…OrError` union may return). The slicer shows it whole (`OutcomeTables`),
and the ranking reads a union of one object and its failures as a way to that object
(`structural_index.result_unions`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

# A type that is a member of at least this share of the schema's unions, and of at least
# `SHARED_OUTCOME_UNIONS` of them, is an outcome the schema reports alike everywhere.
SHARED_OUTCOME_SHARE = 0.5
SHARED_OUTCOME_UNIONS = 4


def shared_outcomes(unions: Mapping[str, Iterable[str]]) -> frozenset[str]:
    """The members of at least half the schema's `unions` (by name, with their members), and
    of at least `SHARED_OUTCOME_UNIONS` (`PythonError` in 73 of Dagster's 102 unions). None in
    a schema whose unions group unlike things (GitHub's most shared member, `User`, is in 17
    of 47)."""
    membership = Counter(member for members in unions.values() for member in members)
    least = max(SHARED_OUTCOME_UNIONS, SHARED_OUTCOME_SHARE * len(unions))
    return frozenset(member for member, count in membership.items() if count >= least)
