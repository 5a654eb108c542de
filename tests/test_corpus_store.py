"""The corpus cache: reused when intact, ignored and rewritten when it cannot be trusted."""

from __future__ import annotations

import json
from pathlib import Path

from schemanav.cache import read_checked, write_checked
from schemanav.corpus import Format, open_corpus, open_price, price_schema
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


def test_a_checksummed_cache_with_too_few_token_counts_is_ignored(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path)
    first = open_corpus(settings)
    cache_file = _cache_file(tmp_path)
    header, data = read_checked(cache_file)
    payload = json.loads(data)
    payload["tokens"]["GLOSS"] = payload["tokens"]["GLOSS"][:-1]
    header = {k: v for k, v in header.items() if not k.startswith("payload_")}
    write_checked(cache_file, header, json.dumps(payload).encode())

    again = open_corpus(settings)
    assert not again.from_cache
    assert again.corpus.token_counts(Format.GLOSS) == first.corpus.token_counts(Format.GLOSS)


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
