"""What slicing needs of one output field (`FieldFacts`), computed once per schema by
`SchemaTables` and read by every slice."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldFacts:
    """What slicing needs of one output field, computed once per schema."""

    position: int
    arguments: tuple[str, ...]
    required: tuple[str, ...]
    argument_types: tuple[str, ...]
    argument_texts: tuple[str, ...]
    defaults: tuple[bool, ...]
    offered: tuple[str, ...]
    return_type: str
    named: str
    many: bool
    free: bool
    leaf: bool
    description: str | None
    line: str  # its SDL line without arguments (most fields show none)
