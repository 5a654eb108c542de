"""One question's reading: a small frozen record the ranking and the slicer both take."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from schemanav.question.grammar import asks_for_write


@dataclass(frozen=True)
class Reading:
    """What a question says of itself. `writes`: it asks to change something (`grammar`)."""

    question: str
    writes: bool


@lru_cache(maxsize=64)
def read(question: str) -> Reading:
    """The question's reading (remembered for the last few: `bench` slices each question at
    several budgets, and the ranking and the slicer both read it)."""
    return Reading(question, asks_for_write(question))
