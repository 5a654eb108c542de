"""The corpus cache: reused when intact, ignored and rewritten when it cannot be trusted."""

from __future__ import annotations

import json
from pathlib import Path

from schemanav.cache import read_checked, write_checked
from schemanav.corpus import Format, open_corpus
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
    header, data = read_checked(cache_file)
    payload = json.loads(data)
    payload["tokens"]["GLOSS"] = payload["tokens"]["GLOSS"][:-1]
    header = {k: v for k, v in header.items() if not k.startswith("payload_")}
    write_checked(cache_file, header, json.dumps(payload).encode())

    again = open_corpus(settings)
    assert not again.from_cache
    assert again.corpus.token_counts(Format.GLOSS) == first.corpus.token_counts(Format.GLOSS)
