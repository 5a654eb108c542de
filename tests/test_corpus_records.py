"""A cached corpus's records, made when read (`Records`): the same records as the corpus built,
in any order of reading, and a warm search makes only those of the fields it reads."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from schemanav.corpus import Corpus, open_corpus
from schemanav.corpus.model import Records
from schemanav.navigator import Navigator
from schemanav.settings import Settings

QUESTION = "which pull requests are open in a repository"


def _built_and_read(settings: Settings) -> tuple[Corpus, Corpus]:
    built = open_corpus(settings)
    read = open_corpus(settings)
    assert read.from_cache
    return built.corpus, read.corpus


def _records(corpus: Corpus) -> Records:
    assert isinstance(corpus.entries, Records)
    return corpus.entries


def test_records_read_one_by_one_are_the_records_built(tmp_path: Path) -> None:
    built, read = _built_and_read(Settings(cache_dir=tmp_path))
    records = _records(read)
    size = len(built.entries)
    assert len(records) == size
    # Backwards, by negative index, and by slices, before any full read.
    for position in reversed(range(size)):
        assert records[position] == built.entries[position]
        assert records[position - size] is records[position]
    assert records[2:9:3] == built.entries[2:9:3]
    assert records[-3:] == built.entries[-3:]
    with pytest.raises(IndexError):
        records[size]
    with pytest.raises(IndexError):
        records[-size - 1]
    assert any(entry.arguments for entry in records)


def test_a_full_read_reuses_the_records_made_and_equals_the_tuple(tmp_path: Path) -> None:
    built, read = _built_and_read(Settings(cache_dir=tmp_path))
    records = _records(read)
    early = {position: records[position] for position in (0, 5, len(records) - 1)}
    whole = tuple(records)  # every record made at once
    assert whole == built.entries
    for position, record in early.items():
        assert whole[position] is record
    assert records == built.entries and built.entries == records
    assert hash(records) == hash(built.entries)
    assert read == built
    assert pickle.loads(pickle.dumps(read.entries)) == built.entries
    assert records[3] is whole[3]  # from the tuple from now on
    assert type(read.entries) is tuple and read.entries == whole  # indexed without a call


def test_the_columns_a_search_reads_are_those_of_the_records(tmp_path: Path) -> None:
    built, read = _built_and_read(Settings(cache_dir=tmp_path))
    assert read.field_column == built.field_column == [e.field for e in built.entries]
    assert read.coordinates == built.coordinates == tuple(e.coordinate for e in built.entries)
    assert read.entries[0].arguments == built.entries[0].arguments


def test_a_warm_search_makes_only_the_records_it_reads(
    github_schema_path: Path, github_cache_dir: Path
) -> None:
    """On GitHub's 6,640 fields a warm search (its index read from the cache) makes a few
    hundred records (the query root's, those it shows), not one per field, and finds what a
    search over every record made finds."""
    settings = Settings(schema=str(github_schema_path), cache_dir=github_cache_dir)
    built, _ = _built_and_read(settings)
    Navigator.open(str(github_schema_path), cache_dir=github_cache_dir).search(QUESTION)  # warm
    navigator = Navigator.open(str(github_schema_path), cache_dir=github_cache_dir)
    records = _records(navigator.corpus)
    hits = navigator.search(QUESTION)
    assert len({id(record) for record in records._made.values()}) < len(records) // 10
    assert records._tuple is None
    eager = Navigator.open(str(github_schema_path), cache_dir=github_cache_dir)
    assert tuple(eager.corpus.entries) == built.entries  # every record made first
    assert eager.search(QUESTION) == hits
