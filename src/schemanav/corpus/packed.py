"""The corpus cache's layout: one string table and columns of whole numbers, not JSON.

A warm `schemanav search` reads the corpus cache first, and reading it as JSON (decoding
every value, then checking each column's types value by value) took about 0.06 s of CPU on a
schema four times GitHub's size, more than the search itself. Here every text the corpus
holds (type and field names, return types, descriptions, arguments) is stored once in a
string table, and the columns hold numbers into it, so a read decodes the table in one step,
takes the columns as arrays of machine integers (the standard library's `array`, not numpy:
`schemanav corpus` and a BM25 search never import numpy otherwise) and checks each column
as a whole (its length, numbers that index the table) instead of a look at every value.
Names repeat across entries, so the table is also a third of the JSON's size.

The payload is one line of JSON (each array's length, the text's length in characters),
the arrays (little-endian unsigned 32-bit), then the text (UTF-8). A column that always holds
a text numbers the table from 0; one that may hold None (a description, a deprecation, a
default, a root) from 1, with 0 for None. So a number out of range is an IndexError where the
column is read, and no column needs a look at its least or greatest number (a tenth of the
read) but the token counts, which must fit a signed 32-bit number as they were written.
`unpack` returns the dict `Corpus.to_payload` describes, so `Corpus.from_payload` builds the
corpus from either; it raises ValueError saying what is wrong with a payload that is not one.
"""

from __future__ import annotations

import json
import sys
from array import array
from typing import Any

from schemanav.corpus.model import Format

_ENTRY_TEXT = ("owner", "field", "return_type")  # never None
_ENTRY_OPTIONAL = ("description", "deprecation")
_ARGUMENT_TEXT = ("name", "type")
_ARGUMENT_OPTIONAL = ("description", "default")
_LISTS = ("possible_types", "enum_values", "input_fields")  # name → list of names
_CODE = "I" if array("I").itemsize == 4 else "L"  # 32-bit unsigned, stored little-endian
_COUNT_LIMIT = 1 << 31


def _int32(values: list[int]) -> bytes:
    packed = array(_CODE, values)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def _ints(data: bytes | memoryview) -> list[int]:
    read = array(_CODE)
    read.frombytes(data)
    if sys.byteorder == "big":
        read.byteswap()
    return read.tolist()


class _Table:
    """The string table being written: each distinct text numbered once (0 is None)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.texts: list[str] = []

    def number(self, text: str | None) -> int:
        if text is None:
            return 0
        found = self.numbers.get(text)
        if found is None:
            self.texts.append(text)
            found = self.numbers[text] = len(self.texts)
        return found

    def numbers_of(self, texts: list[Any]) -> list[int]:
        """Numbers from 1, 0 for None: for a column that may hold None."""
        return [self.number(text) for text in texts]

    def places_of(self, texts: list[Any]) -> list[int]:
        """Numbers from 0: for a column that always holds a text."""
        return [self.number(text) - 1 for text in texts]


def pack(payload: dict[str, Any]) -> bytes:
    """The bytes of a payload as `Corpus.to_payload` returns it (token counts included),
    plus its `violations`."""
    table = _Table()
    arrays: dict[str, list[int]] = {"roots": table.numbers_of(payload["roots"])}
    entries, arguments = payload["entries"], payload["arguments"]
    for name in _ENTRY_TEXT:
        arrays[f"entries.{name}"] = table.places_of(entries[name])
    for name in _ENTRY_OPTIONAL:
        arrays[f"entries.{name}"] = table.numbers_of(entries[name])
    arrays["entries.owner_is_interface"] = [int(flag) for flag in entries["owner_is_interface"]]
    arrays["entries.argument_count"] = list(entries["argument_count"])
    for name in _ARGUMENT_TEXT:
        arrays[f"arguments.{name}"] = table.places_of(arguments[name])
    for name in _ARGUMENT_OPTIONAL:
        arrays[f"arguments.{name}"] = table.numbers_of(arguments[name])
    for name in _LISTS:
        lists: dict[str, Any] = payload[name]
        arrays[f"{name}.keys"] = table.places_of(list(lists))
        arrays[f"{name}.counts"] = [len(values) for values in lists.values()]
        arrays[f"{name}.values"] = table.places_of([v for values in lists.values() for v in values])
    descriptions: dict[str, str] = payload["type_descriptions"]
    arrays["type_descriptions.keys"] = table.places_of(list(descriptions))
    arrays["type_descriptions.values"] = table.places_of(list(descriptions.values()))
    arrays["violations"] = table.places_of(list(payload["violations"]))
    for fmt in Format:
        arrays[f"tokens.{fmt.value}"] = list(payload["tokens"][fmt.value])
    # The texts are split at NULs in one step when none holds one (a description may),
    # else sliced at their ends.
    separated = not any("\x00" in text for text in table.texts)
    ends, end = [], 0
    for text in [] if separated else table.texts:
        end += len(text)
        ends.append(end)
    arrays["text_ends"] = ends
    text = ("\x00" if separated else "").join(table.texts)
    head = {
        "arrays": {name: len(values) for name, values in arrays.items()},
        "chars": len(text),
        "strings": len(table.texts),
        "separated": separated,
    }
    blobs = [_int32(values) for values in arrays.values()]
    return (
        json.dumps(head, ensure_ascii=True).encode("ascii")
        + b"\n"
        + b"".join(blobs)
        + text.encode("utf-8")
    )


def _arrays(data: bytes) -> tuple[dict[str, list[int]], list[str]]:
    """The arrays and the string table of a payload."""
    end = data.find(b"\n")
    if end < 0:
        raise ValueError("no header line")
    try:
        head = json.loads(data[:end].decode("ascii"))
        lengths, chars = head["arrays"], head["chars"]
        strings_count, separated = head["strings"], head["separated"]
    except (UnicodeDecodeError, ValueError, RecursionError, KeyError, TypeError):
        raise ValueError("header is not valid JSON") from None
    if (
        not isinstance(lengths, dict)
        or type(chars) is not int
        or type(strings_count) is not int
        or type(separated) is not bool
    ):
        raise ValueError("malformed header")
    arrays: dict[str, list[int]] = {}
    view = memoryview(data)
    offset = end + 1
    for name, count in lengths.items():
        if type(count) is not int or count < 0 or offset + 4 * count > len(data):
            raise ValueError(f"{name} does not fit the payload")
        arrays[name] = _ints(view[offset : offset + 4 * count])
        offset += 4 * count
    try:
        text = data[offset:].decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("the string table is not UTF-8") from None
    if len(text) != chars:
        raise ValueError("the string table is not as long as its header says")
    ends = arrays.get("text_ends", [])
    if separated:
        strings = text.split("\x00") if strings_count else []
    elif (ends[-1] if ends else 0) != len(text) or sorted(ends) != ends:
        raise ValueError("malformed string table")
    else:
        strings = [text[start:stop] for start, stop in zip([0, *ends], ends, strict=False)]
    if len(strings) != strings_count or (separated and ends):
        raise ValueError("malformed string table")
    return arrays, strings


def unpack(data: bytes) -> dict[str, Any]:
    """The payload `pack` wrote, as `Corpus.to_payload` describes it (with `violations`)."""
    arrays, strings = _arrays(data)
    expected = {
        "roots",
        "text_ends",
        "violations",
        "entries.owner_is_interface",
        "entries.argument_count",
        "type_descriptions.keys",
        "type_descriptions.values",
        *(f"entries.{name}" for name in (*_ENTRY_TEXT, *_ENTRY_OPTIONAL)),
        *(f"arguments.{name}" for name in (*_ARGUMENT_TEXT, *_ARGUMENT_OPTIONAL)),
        *(f"{name}.{part}" for name in _LISTS for part in ("keys", "counts", "values")),
        *(f"tokens.{fmt.value}" for fmt in Format),
    }
    if set(arrays) != expected:
        raise ValueError("not the arrays of a corpus")
    table: list[str | None] = [None, *strings]

    def texts(name: str, *, optional: bool = False) -> list[Any]:
        try:
            return list(map((table if optional else strings).__getitem__, arrays[name]))
        except IndexError:
            raise ValueError(f"malformed {name.split('.')[0]}") from None

    def counts(name: str) -> list[int]:
        return arrays[name]  # each sum is checked against what it counts

    roots = texts("roots", optional=True)
    if len(roots) != 3 or roots[0] is None:
        raise ValueError("malformed roots")
    entries: dict[str, list[Any]] = {name: texts(f"entries.{name}") for name in _ENTRY_TEXT}
    for name in _ENTRY_OPTIONAL:
        entries[name] = texts(f"entries.{name}", optional=True)
    try:
        flags = list(map((False, True).__getitem__, arrays["entries.owner_is_interface"]))
    except IndexError:
        raise ValueError("malformed entries") from None
    entries["owner_is_interface"] = flags
    entries["argument_count"] = counts("entries.argument_count")
    size_of_entries = len(entries["owner"])
    if any(len(column) != size_of_entries for column in entries.values()):
        raise ValueError("malformed entries")
    arguments: dict[str, list[Any]] = {name: texts(f"arguments.{name}") for name in _ARGUMENT_TEXT}
    for name in _ARGUMENT_OPTIONAL:
        arguments[name] = texts(f"arguments.{name}", optional=True)
    if {len(column) for column in arguments.values()} != {sum(entries["argument_count"])}:
        raise ValueError("malformed arguments")
    payload: dict[str, Any] = {"roots": roots, "entries": entries, "arguments": arguments}
    for name in _LISTS:
        keys, lengths = texts(f"{name}.keys"), counts(f"{name}.counts")
        values = texts(f"{name}.values")
        if len(keys) != len(lengths) or sum(lengths) != len(values):
            raise ValueError(f"malformed {name}")
        lists, start = {}, 0
        for key, count in zip(keys, lengths, strict=True):
            lists[key] = values[start : start + count]
            start += count
        payload[name] = lists
    keys, values = texts("type_descriptions.keys"), texts("type_descriptions.values")
    if len(keys) != len(values):
        raise ValueError("malformed type_descriptions")
    payload["type_descriptions"] = dict(zip(keys, values, strict=True))
    payload["violations"] = texts("violations")
    tokens = {}
    for fmt in Format:
        counted = arrays[f"tokens.{fmt.value}"]
        if len(counted) != size_of_entries or (counted and max(counted) >= _COUNT_LIMIT):
            raise ValueError(f"malformed {fmt.value} token counts")
        tokens[fmt.value] = counted
    payload["tokens"] = tokens
    return payload
