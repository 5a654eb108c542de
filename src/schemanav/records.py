"""The JSON shape of a result record, derived from its fields instead of written out by hand.

`--json` prints exactly these dicts, so a record's fields are its JSON keys, in order:
nested records become objects, tuples become lists. A record that shows its fields in
another order, or only some of them, says so in a `json_fields` class attribute.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_R = TypeVar("_R")


def to_json(record: Any, **extra: Any) -> dict[str, Any]:
    """`record`'s fields (those named by its `json_fields`, if it has them) as JSON-ready
    data, followed by `extra` (computed values such as a total)."""
    names = getattr(type(record), "json_fields", None) or [
        field.name for field in dataclasses.fields(record)
    ]
    result = {name: _plain(getattr(record, name)) for name in names}
    result.update({name: _plain(value) for name, value in extra.items()})
    return result


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value)
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def filled(cls: type[_R], **values: Any) -> _R:
    """An instance of the frozen dataclass `cls` holding `values`, one for every field.

    A frozen dataclass's `__init__` sets each field through `object.__setattr__`, which is
    most of the cost when a process builds thousands of records (a corpus read back); this
    fills the instance's `__dict__` at once. The price is memory: each record then has a dict
    of its own (some 250 bytes more than the shared-key layout `__init__` gives), so it is for
    records kept by the thousand, not hundreds of thousands of short-lived ones (a bench's
    1,500 hits per question: +57 MB and no faster). Only for dataclasses without slots,
    `__post_init__` or field defaults left to apply: the caller passes every field.
    """
    record: _R = object.__new__(cls)
    record.__dict__.update(values)
    return record
