"""Completeness metrics: does an output hold *everything* a question needs?

Recall averages over coordinates; an agent writes a correct operation only when every
expected coordinate — root field, path fields, leaves, selecting arguments — is in its
context. Small pure functions (ir_measures style), each with its formula.

Labels are `Type.field`, `Type.field(arg:)` or `Type`. What an output *shows* decides what
counts: a slice shows the arguments and types it defines; a ranked list shows its field
coordinates, their owner types, and — only in renderings that print signatures (SDL, GLOSS)
— their arguments and return types.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence


def complete(contained: Collection[str], expected: Iterable[str]) -> bool:
    """All expected coordinates are shown: complete = expected ⊆ contained.

    An empty `expected` raises ValueError: a labelled question has targets.
    """
    targets = set(expected)
    if not targets:
        raise ValueError("expected coordinates must not be empty: a labelled question has targets")
    return targets.issubset(contained)


def shown_by_entry(
    coordinate: str,
    arguments: Sequence[str] = (),
    return_type: str | None = None,
    signatures: bool = False,
) -> frozenset[str]:
    """What one list entry `Type.field` shows.

    shown = {Type.field, Type} ∪ (signatures ? {Type.field(a:) : a ∈ arguments} ∪ {R} : ∅)
    where R is the entry's named return type; `signatures` is true for renderings that
    print them (SDL, GLOSS), false for RAW and DOT_PLUS_GLOSS.
    """
    owner = coordinate.split(".", 1)[0]
    shown = {coordinate, owner}
    if signatures:
        shown.update(f"{coordinate}({a}:)" for a in arguments)
        if return_type:
            shown.add(return_type)
    return frozenset(shown)


def tokens_to_complete(
    ranked: Sequence[frozenset[str]] | Sequence[str],
    token_counts: Sequence[int],
    expected: Iterable[str],
) -> int | None:
    """The smallest prefix cost at which a ranked list is complete, or None if it never is.

    t = Σ token_counts[:m*], m* = min{ m : expected ⊆ ∪_{i<m} shown(ranked[i]) }

    Each ranked item is a coordinate (it shows itself) or the set it shows
    (`shown_by_entry`). Empty `expected` raises ValueError.
    """
    if len(ranked) != len(token_counts):
        raise ValueError(f"ranked has {len(ranked)} items but token_counts has {len(token_counts)}")
    missing = set(expected)
    if not missing:
        raise ValueError("expected coordinates must not be empty: a labelled question has targets")
    spent = 0
    for item, cost in zip(ranked, token_counts, strict=True):
        spent += cost
        if isinstance(item, str):
            missing.discard(item)
        else:
            missing.difference_update(item)
        if not missing:
            return spent
    return None


def list_complete_within(
    ranked: Sequence[frozenset[str]] | Sequence[str],
    token_counts: Sequence[int],
    expected: Iterable[str],
    budget: int,
) -> bool:
    """A list is complete within a budget: tokens_to_complete ≤ budget (the prefix rule of
    `fit_prefix`: items are read in order, none skipped)."""
    needed = tokens_to_complete(ranked, token_counts, expected)
    return needed is not None and needed <= budget


def slice_complete_within(
    slices: Mapping[int, tuple[int, Collection[str]]], expected: Iterable[str], budget: int
) -> bool:
    """A slice built for `budget` is complete: tokens(slice_b) ≤ b and expected ⊆ shown(slice_b).

    `slices[b] = (tokens, contained)` for the slice grown under budget b. A slice is rebuilt
    per budget (it is not a prefix of a larger one), so each budget is judged on its own.
    """
    tokens, contained = slices[budget]
    return tokens <= budget and complete(contained, expected)


def share(flags: Iterable[bool]) -> float:
    """Share of true flags: Σ[flag] / n. No flags raises ValueError."""
    collected = list(flags)
    if not collected:
        raise ValueError("share of no questions")
    return sum(collected) / len(collected)


__all__ = [
    "complete",
    "list_complete_within",
    "share",
    "shown_by_entry",
    "slice_complete_within",
    "tokens_to_complete",
]
