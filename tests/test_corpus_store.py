"""The corpus cache: reused when intact, ignored and rewritten when it cannot be trusted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import rewrite_json_payload
from schemanav.cache import MAGIC
from schemanav.corpus import Format, open_corpus, open_price, price_schema
from schemanav.events import SilentEvents
from schemanav.schema import LoadedSchema, bundled_path, load_schema
from schemanav.settings import Settings


def _cache_file(cache_dir: Path) -> Path:
    (path,) = (cache_dir / "corpus").iterdir()
    return path


def test_an_edited_cache_fails_its_checksum_and_is_rewritten(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    assert not first.from_cache
    assert open_corpus(settings).from_cache
    cache_file = _cache_file(tmp_path)
    # A valid-JSON edit (a renamed field) must not be used silently.
    data = cache_file.read_bytes()
    assert b'"releaseYear"' in data
    cache_file.write_bytes(data.replace(b'"releaseYear"', b'"releaseYeer"'))

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
    rewrite_json_payload(
        cache_file, lambda payload: payload["tokens"].update(GLOSS=payload["tokens"]["GLOSS"][:-1])
    )

    again = open_corpus(settings)
    assert not again.from_cache
    assert again.corpus.token_counts(Format.GLOSS) == first.corpus.token_counts(Format.GLOSS)


def _set(table: str, column: str, index: int, value: object) -> Callable[[dict[str, Any]], object]:
    return lambda payload: payload[table][column].__setitem__(index, value)


def _drop_last_argument(payload: dict[str, Any]) -> None:
    for column in payload["arguments"].values():
        column.pop()


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda p: p.update(possible_types={"Node": 5}), "malformed possible_types"),
        (lambda p: p.update(possible_types=["Node"]), "malformed possible_types"),
        (lambda p: p.update(type_descriptions={"Movie": None}), "malformed type_descriptions"),
        (lambda p: p.update(roots="Query"), "malformed roots"),
        (lambda p: p.update(violations=[1]), "malformed violations"),
        (lambda p: p.update(entries=[["Movie", "title", "String!"]]), "malformed entries"),
        (_set("entries", "description", 0, 7), "malformed entries"),
        (_set("entries", "owner_is_interface", 0, 0), "malformed entries"),
        (_set("entries", "argument_count", 0, True), "malformed entries"),
        (_set("entries", "argument_count", 0, -1), "malformed entries"),
        (lambda p: p["entries"]["field"].pop(), "malformed entries"),
        (_set("arguments", "type", 0, None), "malformed arguments"),
        (_drop_last_argument, "malformed arguments"),
    ],
)
def test_a_checksummed_cache_with_a_wrong_type_is_rebuilt_with_a_notice(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], reason: str
) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    cache_file = _cache_file(tmp_path)
    rewrite_json_payload(cache_file, change)

    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    again = open_corpus(settings, Collect())
    assert not again.from_cache
    assert warnings == [f"the corpus cache {cache_file} is not usable ({reason}); rebuilding it"]
    assert again.corpus.coordinates == first.corpus.coordinates
    assert open_corpus(settings).from_cache


def test_a_cache_header_nested_thousands_deep_is_rebuilt_not_a_traceback(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    open_corpus(settings)
    cache_file = _cache_file(tmp_path)
    cache_file.write_bytes(MAGIC + b"[" * 5000 + b"\n{}")
    warnings: list[str] = []

    class Collect(SilentEvents):
        def warning(self, message: str) -> None:
            warnings.append(message)

    assert not open_corpus(settings, Collect()).from_cache
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
