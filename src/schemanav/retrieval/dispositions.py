"""What a fixed-K (or budgeted) answer amounts to, stated with every answer instead of implied.

A ranked list cut at K hides three things a caller needs to know: that nothing matched, that
the cut fell inside a run of equally scored candidates (so which of them were shown was
arbitrary), or that the budget could not hold even the first hit. And when the hits are
fine, whether they reach from the root down to a value an operation can select.

`disposition` is a pure function of the ranking (coordinates and scores), the cut and the
corpus (its root types, fields and possible types); `Navigator.search` calls it for every
answer, and `bench` can call it per question × K to count dispositions per row.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from schemanav.corpus import Corpus
    from schemanav.retrieval.base import Ranking

Disposition = Literal["complete", "partial", "no_hit", "over_k", "budget_unsatisfied"]
DISPOSITIONS: tuple[Disposition, ...] = (
    "complete",
    "partial",
    "no_hit",
    "over_k",
    "budget_unsatisfied",
)


def disposition(
    ranked: Ranking,
    shown: int,
    corpus: Corpus,
    *,
    k: int | None,
    budget: int | None,
) -> Disposition:
    """The disposition of one answer, the first rule that applies:

    - `no_hit`: nothing scored;
    - `budget_unsatisfied`: a budget was set and the first hit alone exceeds it (`shown` 0);
    - `over_k`: the list was cut at `k` hits (no budget) and the hit after the cut scores the
      same as the last one shown, so more candidates tie than K holds (`ranked` must hold
      at least k + 1 hits when there are that many);
    - `complete`: the shown hits form at least one root-to-leaf path (see `forms_path`);
    - `partial`: hits, but none of the above: an agent must search again to reach a value.
    """
    coordinates, scores = ranked.coordinates, ranked.scores
    if not coordinates:
        return "no_hit"
    if budget is not None and shown == 0:
        return "budget_unsatisfied"
    if (
        budget is None
        and k is not None
        and 0 < k < len(coordinates)
        and shown == k
        and math.isclose(scores[k - 1], scores[k], rel_tol=1e-9, abs_tol=1e-12)
    ):
        return "over_k"
    if forms_path(coordinates[:shown], corpus):
        return "complete"
    return "partial"


def forms_path(coordinates: Iterable[str], corpus: Corpus) -> bool:
    """Whether the fields `coordinates` alone chain from a root type to a leaf value.

    A field continues the chain when its owner is a type the chain reached, an interface
    that type implements (the field is selected directly) or a type reachable from a reached
    interface or union through an inline fragment; the chain is complete at a field whose
    type is a scalar or an enum (a type that owns no fields and has no possible types).
    """
    positions, records = corpus.positions, corpus.entries
    entries = [records[positions[c]] for c in dict.fromkeys(coordinates) if c in positions]
    owners = corpus.owners
    possible = corpus.possible_types
    roots = [r for r in (corpus.query_root, corpus.mutation_root, corpus.subscription_root) if r]
    reached: set[str] = set(roots)

    def concrete(type_name: str) -> set[str]:
        return set(possible.get(type_name, ())) or {type_name}

    def selectable(owner: str) -> bool:
        if owner in reached:
            return True
        owner_types = concrete(owner)
        return any(owner_types & concrete(type_name) for type_name in reached)

    pending = list(entries)
    progress = True
    while pending and progress:
        progress = False
        for entry in list(pending):
            if not selectable(entry.owner):
                continue
            target = entry.named_return_type
            if target not in owners and target not in possible:
                return True
            reached.add(target)
            pending.remove(entry)
            progress = True
    return False
