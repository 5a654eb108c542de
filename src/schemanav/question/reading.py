"""One question's reading: a small frozen record the ranking and the slicer both take."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from schemanav.question.grammar import (
    asks_for_write,
    asks_to_read,
    in_first_person,
    in_time,
    lists_many,
    names_global_id,
    pages,
    quoted_value_nouns,
    request_words,
    searches_text,
    sorts,
    streams,
)


@dataclass(frozen=True)
class Reading:
    """What a question says of itself (`grammar`): `writes`, it asks to change something;
    `first_person`, it is about its asker ("my snippets"); `in_time`, it asks when or about a
    period; `pages`, it reads a set page by page; `sorts`, in an order; `searches_text`, it
    looks for text inside a value ("whose name contains …"); `lists`, it lists many things it
    wants ("its status, tags, pictures, title and description"); `global_id`, it gives an
    object by its opaque global identifier ("suite U3VpdGUtLS03Nzc="); `quoted_nouns`, the word
    after each quoted value (what the value is); `request`, the words of the part that would
    ask for a change (`request_words`: the verb a write is matched by, read whether or not
    `writes`); `request_clause`, those of its first clause (what it asks to change);
    `streams`, it asks to follow something as it changes (a subscription's answer); `reads`,
    it opens as a read does (`asks_to_read`: "Show …", "Which …")."""

    question: str
    writes: bool
    first_person: bool
    in_time: bool
    pages: bool
    sorts: bool
    searches_text: bool
    lists: bool
    global_id: bool
    quoted_nouns: tuple[str, ...]
    request: tuple[str, ...]
    request_clause: tuple[str, ...]
    streams: bool
    reads: bool


@lru_cache(maxsize=64)
def read(question: str) -> Reading:
    """The question's reading (remembered for the last few: `bench` slices each question at
    several budgets, and the ranking and the slicer both read it)."""
    request, clause = request_words(question)
    return Reading(
        question,
        writes=asks_for_write(question),
        first_person=in_first_person(question),
        in_time=in_time(question),
        pages=pages(question),
        sorts=sorts(question),
        searches_text=searches_text(question),
        lists=lists_many(question),
        global_id=names_global_id(question),
        quoted_nouns=tuple(quoted_value_nouns(question)),
        request=request,
        request_clause=clause,
        streams=streams(question, request),
        reads=asks_to_read(question),
    )
