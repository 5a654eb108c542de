"""A slice's SDL: its lines in the schema's order, and the `SchemaSlice` record of it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from schemanav.retrieval.slicing.params import DEFAULT_ROOT_NAMES, SchemaSlice

if TYPE_CHECKING:
    from schemanav.retrieval.slicing.state import SliceState

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_OPERATIONS = ("query", "mutation", "subscription")


def description(text: str | None, mode: str) -> str | None:
    """A field's description as a one-line SDL string (`mode`: none, first-sentence, full)."""
    if not text or mode == "none":
        return None
    text = " ".join(text.split())
    if mode == "first-sentence":
        text = _SENTENCE_END.split(text, maxsplit=1)[0]
    return text.replace("\\", "\\\\").replace('"', '\\"')


def slice_of(state: SliceState, hits: int) -> SchemaSlice:
    """The record of a slice (whose query type is in: a schema needs one)."""
    from schemanav.tokens import count_by_pieces

    sdl = render(state)
    fields = [f"{t}.{f}" for t, names in state.fields.items() for f in names]
    arguments = [
        f"{t}.{f}({a}:)"
        for t, names in state.fields.items()
        for f, args in names.items()
        for a in args
    ]
    types = [*state.fields, *state.unions, *state.inputs, *state.enums, *state.scalars]
    tokens = count_by_pieces(sdl)
    return SchemaSlice(sdl, tokens, tuple(fields), tuple(arguments), tuple(types), hits)


def render(state: SliceState) -> str:
    """The SDL: a `schema` block where root names differ from the defaults, the root types,
    the other object types and interfaces (fields in definition order), then the unions,
    inputs, enums and scalars in the order they entered."""
    corpus = state.s.corpus
    roots = [
        (operation, root)
        for operation, root in zip(
            _OPERATIONS, (corpus.query_root, corpus.mutation_root, corpus.subscription_root),
            strict=True,
        )
        if root and root in state.fields
    ]
    included = [root for _, root in roots]
    defined = [*state.fields, *state.unions, *state.inputs, *state.enums, *state.scalars]
    explicit = any(
        root != DEFAULT_ROOT_NAMES[_OPERATIONS.index(operation)] for operation, root in roots
    ) or any(name in DEFAULT_ROOT_NAMES and name not in included for name in defined)
    parts: list[str] = []
    indent = state.s.indent
    if explicit:
        body = "".join(f"{indent}{operation}: {root}\n" for operation, root in roots)
        parts.append(f"schema {{\n{body}}}\n\n")
    ordered = included + [t for t in state.fields if t not in included]
    described = state.s.params.descriptions != "none"
    lines = state.lines
    for type_name in ordered:
        opening, closing = lines[("h", type_name)].split("\n", 1)
        place = state.s.field_order(type_name)
        names = sorted(state.fields[type_name], key=place.__getitem__)
        if described:
            field_lines = [
                lines.get(("d", type_name, n), "") + lines[("f", type_name, n)] for n in names
            ]
        else:
            field_lines = [lines[("f", type_name, name)] for name in names]
        parts.append(f"{opening}\n{''.join(field_lines)}{closing}")
    tails: dict[str, list[str]] = {"u": [], "i": [], "e": [], "s": []}
    for key, text in lines.items():
        tail = tails.get(key[0])
        if tail is not None:
            tail.append(text)
    for tail in tails.values():
        parts.extend(tail)
    return "".join(parts).rstrip("\n") + "\n"
