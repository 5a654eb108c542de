"""The corpus cache: reused when intact, ignored and rewritten when it cannot be trusted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from schemanav.cache import MAGIC, read_checked, write_checked
from schemanav.corpus import (
    CorpusLoad,
    Format,
    open_corpus,
    open_price,
    packed,
    price_schema,
)
from schemanav.events import SilentEvents
from schemanav.schema import LoadedSchema, bundled_path, load_schema
from schemanav.settings import Settings


def _cache_file(cache_dir: Path) -> Path:
    (path,) = (cache_dir / "corpus").iterdir()
    return path


def _reopened(settings: Settings) -> tuple[CorpusLoad, list[str]]:
    """The corpus opened again, with the warnings it gave (a rebuilt cache says why)."""
    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    return open_corpus(settings, Collect()), warnings


def rewrite_packed_payload(path: Path, change: Callable[[bytes], bytes]) -> None:
    """Change the payload of the corpus cache in place and keep its checksum valid: what a
    foreign or buggy writer would leave, which only the reader's own checks catch."""
    header, data = read_checked(path)
    header = {k: v for k, v in header.items() if not k.startswith("payload_")}
    write_checked(path, header, change(data))


def rewrite_columns(path: Path, change: Callable[[dict[str, Any]], object]) -> None:
    """Change the corpus payload as `Corpus.to_payload` describes it and pack it again."""

    def repack(data: bytes) -> bytes:
        payload = packed.unpack(data)
        change(payload)
        return packed.pack(payload)

    rewrite_packed_payload(path, repack)


def rewrite_array(path: Path, name: str, change: Callable[[list[int]], object]) -> None:
    """Change one array of the packed payload (`packed.pack`'s numbers) in place."""
    import json

    import numpy as np

    def edit(data: bytes) -> bytes:
        end = data.index(b"\n")
        head = json.loads(data[:end])
        offset, pieces = end + 1, []
        for key, count in head["arrays"].items():
            values = np.frombuffer(data, dtype="<i4", count=count, offset=offset).tolist()
            offset += 4 * count
            if key == name:
                change(values)
                head["arrays"][key] = len(values)
            pieces.append(np.asarray(values, dtype="<i4").tobytes())
        line = json.dumps(head).encode()
        return line + b"\n" + b"".join(pieces) + data[offset:]

    rewrite_packed_payload(path, edit)


def test_an_edited_cache_fails_its_checksum_and_is_rewritten(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    assert not first.from_cache
    assert open_corpus(settings).from_cache
    cache_file = _cache_file(tmp_path)
    # An edit that keeps the layout (a renamed field) must not be used silently.
    data = cache_file.read_bytes()
    assert b"releaseYear" in data
    cache_file.write_bytes(data.replace(b"releaseYear", b"releaseYeer"))

    again = open_corpus(settings)
    assert not again.from_cache
    assert "Movie.releaseYear" in again.corpus.coordinates
    assert open_corpus(settings).from_cache  # rewritten whole


def test_a_corpus_read_back_equals_the_one_built(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    built, read = open_corpus(settings), open_corpus(settings)
    assert not built.from_cache and read.from_cache
    assert read.corpus.entries == built.corpus.entries
    assert any(entry.arguments for entry in read.corpus.entries)  # arguments are compared too
    assert hash(read.corpus.entries) == hash(built.corpus.entries)
    for name in ("query_root", "possible_types", "enum_values", "input_fields"):
        assert getattr(read.corpus, name) == getattr(built.corpus, name), name
    for fmt in Format:
        assert read.corpus.token_counts(fmt) == built.corpus.token_counts(fmt)
        assert read.corpus.texts(fmt) == built.corpus.texts(fmt)


def test_a_garbled_cache_is_rebuilt(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    _cache_file(tmp_path).write_bytes(b"\x00\xffnot json at all\x89PNG" * 100)
    again = open_corpus(settings)
    assert not again.from_cache
    assert again.corpus.coordinates == first.corpus.coordinates
    assert open_corpus(settings).from_cache


def test_a_checksummed_cache_with_too_few_token_counts_is_ignored(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    cache_file = _cache_file(tmp_path)
    rewrite_array(cache_file, "tokens.GLOSS", lambda counts: counts.pop())

    again = open_corpus(settings)
    assert not again.from_cache
    assert again.corpus.token_counts(Format.GLOSS) == first.corpus.token_counts(Format.GLOSS)


def _drop_last_argument(payload: dict[str, Any]) -> None:
    for column in payload["arguments"].values():
        column.pop()


def _set(name: str, index: int, value: int) -> Callable[[list[int]], object]:
    return lambda values: values.__setitem__(index, value)


_TOO_FAR = 10**6  # past the end of the string table


@pytest.mark.parametrize(
    ("array", "change", "reason"),
    [
        ("possible_types.counts", _set("", 0, 10**6), "malformed possible_types"),
        ("possible_types.values", _set("", 0, _TOO_FAR), "malformed possible_types"),
        ("type_descriptions.values", _set("", 0, _TOO_FAR), "malformed type_descriptions"),
        ("type_descriptions.values", lambda v: v.pop(), "malformed type_descriptions"),
        ("roots", _set("", 0, 0), "malformed roots"),
        ("roots", lambda v: v.pop(), "malformed roots"),
        ("violations", lambda v: v.append(-3), "malformed violations"),
        ("entries.owner", _set("", 0, _TOO_FAR), "malformed entries"),
        ("entries.field", _set("", 0, -1), "malformed entries"),
        ("entries.description", _set("", 0, _TOO_FAR), "malformed entries"),
        ("entries.description", _set("", 0, -1), "malformed entries"),
        ("entries.owner_is_interface", _set("", 0, 2), "malformed entries"),
        ("entries.argument_count", _set("", 0, -1), "malformed arguments"),  # their sum
        ("entries.field", lambda v: v.pop(), "malformed entries"),
        ("arguments.type", _set("", 0, _TOO_FAR), "malformed arguments"),
        ("arguments.name", lambda v: v.pop(), "malformed arguments"),
        ("tokens.SDL", _set("", 0, -5), "malformed SDL token counts"),
    ],
)
def test_a_checksummed_cache_with_a_bad_column_is_rebuilt_with_a_notice(
    tmp_path: Path, array: str, change: Callable[[list[int]], object], reason: str
) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    cache_file = _cache_file(tmp_path)
    rewrite_array(cache_file, array, change)

    again, warnings = _reopened(settings)
    assert not again.from_cache
    assert warnings == [f"the corpus cache {cache_file} is not usable ({reason}); rebuilding it"]
    assert again.corpus == first.corpus
    assert open_corpus(settings).from_cache


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda data: data.replace(b"\n", b""), "no header line"),
        (lambda data: b"[[[\n" + data, "header is not valid JSON"),
        (lambda data: data[:-1], "the string table is not as long as its header says"),
        (lambda data: data + b"\xff", "the string table is not UTF-8"),
        (lambda data: data[: data.index(b"\n") + 9], "does not fit the payload"),
    ],
)
def test_a_checksummed_cache_cut_or_garbled_is_rebuilt_with_a_notice(
    tmp_path: Path, change: Callable[[bytes], bytes], reason: str
) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    cache_file = _cache_file(tmp_path)
    rewrite_packed_payload(cache_file, change)
    again, warnings = _reopened(settings)
    assert not again.from_cache
    assert len(warnings) == 1 and reason in warnings[0], warnings
    assert again.corpus == first.corpus
    assert open_corpus(settings).from_cache


@pytest.mark.parametrize(
    "change",
    [_set("", 0, -1), lambda v: v.pop(), lambda v: v.reverse(), lambda v: v.append(3)],
)
def test_a_string_table_holding_a_nul_is_cut_at_its_ends_which_are_checked(
    tmp_path: Path, change: Callable[[list[int]], object]
) -> None:
    """Texts are split at NULs when none holds one, else cut at the ends the payload lists
    (a description may hold a NUL): those are read back as they were, and checked."""
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    cache_file = _cache_file(tmp_path)
    rewrite_columns(
        cache_file, lambda payload: payload["entries"]["description"].__setitem__(0, "a\x00b")
    )
    read = open_corpus(settings)
    assert read.from_cache and read.corpus.entries[0].description == "a\x00b"
    assert read.corpus.entries[1:] == first.corpus.entries[1:]
    rewrite_array(cache_file, "text_ends", change)
    again, warnings = _reopened(settings)
    assert not again.from_cache
    assert warnings == [
        f"the corpus cache {cache_file} is not usable (malformed string table); rebuilding it"
    ]


def test_the_packed_layout_round_trips_every_column_and_none(tmp_path: Path) -> None:
    """`packed.unpack(packed.pack(p))` is `p`: texts with NUL, non-ASCII and empty strings,
    None where a column may hold it, every table in its order."""
    settings = Settings(cache_dir=tmp_path)
    payload = {**open_corpus(settings).corpus.to_payload(), "violations": ["one", "two"]}
    payload["entries"]["description"][0] = "a\x00b — ünïcode \U0001f600"
    payload["entries"]["field"][1] = ""
    payload["roots"] = [payload["roots"][0], None, "Mutation"]
    import json

    as_json = json.loads(json.dumps(payload))  # tuples as lists, as `unpack` returns them
    assert packed.unpack(packed.pack(payload)) == as_json


def test_a_corpus_read_back_has_the_graph_columns_of_the_one_built(tmp_path: Path) -> None:
    """The owner and target columns a cache read sets from its columns are those the records
    give (the schema graph reads them instead of the records)."""
    settings = Settings(cache_dir=tmp_path)
    built, read = open_corpus(settings).corpus, open_corpus(settings).corpus
    assert "owner_column" in read.__dict__ and "owner_column" not in built.__dict__
    assert read.owner_column == built.owner_column == [e.owner for e in built.entries]
    assert read.target_column == [e.named_return_type for e in built.entries]
    assert built.target_column == read.target_column
    assert read.coordinates == built.coordinates
    assert read.owners == built.owners


def test_a_cache_header_nested_thousands_deep_is_rebuilt_not_a_traceback(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    open_corpus(settings)
    cache_file = _cache_file(tmp_path)
    cache_file.write_bytes(MAGIC + b"[" * 5000 + b"\n{}")
    again, warnings = _reopened(settings)
    assert not again.from_cache
    assert warnings == [
        f"the corpus cache {cache_file} is not usable (header is not valid JSON); rebuilding it"
    ]


def test_the_price_is_counted_once_per_schema_file_and_a_bad_cache_is_recounted(
    tmp_path: Path,
) -> None:
    settings = Settings(cache_dir=tmp_path)
    loaded = load_schema(str(bundled_path("moviedb.graphqls")))
    corpus = open_corpus(settings).corpus
    calls: list[int] = []

    def load() -> LoadedSchema:
        calls.append(1)
        return loaded

    first = open_price(settings, "movies", corpus, load)
    assert first == price_schema("movies", loaded, corpus)
    assert open_price(settings, "movies", corpus, load) == first
    assert len(calls) == 1  # the second answer came from the cache

    (cache_file,) = (tmp_path / "price").iterdir()
    data = cache_file.read_bytes()
    cache_file.write_bytes(data.replace(str(first.sdl_tokens).encode(), b"1"))
    assert open_price(settings, "movies", corpus, load) == first
    assert len(calls) == 2


def test_every_cache_lands_where_the_table_of_cache_kinds_says(tmp_path: Path) -> None:
    """One table names every cache: its folder, its kind and its version, each file under the
    folder of its kind with its version in its name."""
    from schemanav.cache import CACHE_KINDS
    from schemanav.navigator import Navigator

    assert len({kind.folder for kind in CACHE_KINDS}) == len(CACHE_KINDS)
    assert len({kind.kind for kind in CACHE_KINDS}) == len(CACHE_KINDS)
    navigator = Navigator.open(cache_dir=tmp_path, backend="bm25")
    navigator.search("movie title")
    navigator.slice("movie title", budget=300)
    navigator.define(["Movie.title"])
    navigator.price()
    by_folder = {kind.folder: kind for kind in CACHE_KINDS}
    written = [path for path in tmp_path.iterdir() if not path.name.startswith(".")]
    assert {path.name for path in written} >= {"corpus", "price", "slice", "define", "bm25"}
    for folder in written:
        kind = by_folder[folder.name]
        for entry in folder.iterdir():
            assert entry.name.endswith(f"-v{kind.version}{kind.suffix}"), entry


def test_the_graph_of_a_corpus_read_back_is_the_graph_of_the_one_built(tmp_path: Path) -> None:
    """The schema graph is built from the corpus's columns (set by a cache read, made from
    the records otherwise): every table it holds is the same either way, and its edges are
    one per field in corpus order, then the fragments."""
    from schemanav.graph import FRAGMENT, Edge, SchemaGraph

    settings = Settings(cache_dir=tmp_path)
    built, read = open_corpus(settings).corpus, open_corpus(settings).corpus
    one, other = SchemaGraph(built), SchemaGraph(read)
    for name in (
        "type_names", "type_ids", "adjacency", "inner_adjacency", "is_leaf", "inner_entries",
        "fragment_extras", "edge_entry", "edge_source", "roots",
    ):  # fmt: skip
        assert getattr(one, name) == getattr(other, name), name
    fields = [Edge(p, e.owner, e.named_return_type, 0.0) for p, e in enumerate(built.entries)]
    edges = [one.edge(number) for number in range(len(one.edge_entry))]
    assert edges == [other.edge(number) for number in range(len(other.edge_entry))]
    assert edges[: len(fields)] == fields
    assert all(edge.entry == FRAGMENT for edge in edges[len(fields) :])
    assert one.owner_costs() == other.owner_costs()
    for type_name in one.type_names:
        assert one.ways_into(type_name) == other.ways_into(type_name)
