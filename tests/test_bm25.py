"""The tantivy BM25 backend: tokenizers, question analysis, and its on-disk index cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from schemanav.corpus import Corpus, Format
from schemanav.errors import InputError
from schemanav.retrieval.bm25 import TOKENIZERS, BM25Backend, BM25Searcher


def ranking(backend: BM25Searcher, question: str, k: int = 10) -> list[str]:
    return [hit.coordinate for hit in backend.search(question, k)]


def indexed(corpus: Corpus, fmt: Format, tokenizer: str, cache: Path | None = None) -> BM25Searcher:
    return BM25Backend(fmt, tokenizer=tokenizer, cache_dir=cache).index(corpus)


def test_tokenizer_names() -> None:
    assert list(TOKENIZERS) == ["default", "en_stem", "camel_stem"]


def test_unknown_tokenizer() -> None:
    with pytest.raises(InputError, match=r"unknown BM25 tokenizer 'simple'.*default, en_stem"):
        BM25Backend(Format.RAW, tokenizer="simple")


@pytest.mark.parametrize(
    ("tokenizer", "question", "terms"),
    [
        ("default", "Movie.releaseYear ratings", ["movie", "releaseyear", "ratings"]),
        ("en_stem", "Movie.releaseYear ratings", ["movi", "releaseyear", "rate"]),
        ("camel_stem", "Movie.releaseYear ratings", ["movi", "releas", "year", "rate"]),
        ("camel_stem", "HTMLUrl sha256Sum", ["html", "url", "sha", "256", "sum"]),
        ("camel_stem", "Epic.children people", ["epic", "child", "person"]),
        ("default", 'title:"x" AND (y OR z~2)*', ["title", "x", "and", "y", "or", "z", "2"]),
        ("en_stem", "?!… ()[]{}", []),
        ("default", "", []),
        ("default", "🎬 ⭐", []),
    ],
)
def test_query_terms(tokenizer: str, question: str, terms: list[str]) -> None:
    assert BM25Backend(Format.RAW, tokenizer=tokenizer).query_terms(question) == terms


@pytest.mark.parametrize("tokenizer", list(TOKENIZERS))
def test_raw_coordinates_are_split_on_the_dot(moviedb_corpus: Corpus, tokenizer: str) -> None:
    backend = indexed(moviedb_corpus, Format.RAW, tokenizer)
    assert ranking(backend, "rating") == ["Movie.rating"]
    assert ranking(backend, "Movie.rating")[0] == "Movie.rating"


def test_hits_carry_rendered_text_and_tokens(moviedb_corpus: Corpus) -> None:
    backend = indexed(moviedb_corpus, Format.SDL, "en_stem")
    hits = backend.search("average review rating", 3)
    assert [hit.rank for hit in hits] == [1, 2, 3]
    top = hits[0]
    assert top.coordinate == "Movie.rating"
    position = moviedb_corpus.coordinates.index("Movie.rating")
    assert top.text == moviedb_corpus.texts(Format.SDL)[position]
    assert top.tokens == moviedb_corpus.token_counts(Format.SDL)[position]
    assert backend.search("average review rating", 0) == []


def test_names_say_which_tokenizer() -> None:
    assert BM25Backend(Format.RAW, tokenizer="en_stem").name == "bm25"
    assert BM25Backend(Format.RAW, tokenizer="default").name == "bm25:default"
    assert BM25Backend(Format.RAW, tokenizer="camel_stem").name == "bm25:camel_stem"


# --- the index cache -----------------------------------------------------------------------


def index_dir(cache: Path) -> Path:
    found = [path for path in (cache / "bm25").iterdir() if not path.name.startswith(".")]
    assert len(found) == 1, found
    return found[0]


def segment_files(directory: Path) -> set[str]:
    return {path.name for path in directory.iterdir() if not path.name.startswith(".")}


QUESTION = "average rating of a movie review"


def test_index_is_cached_and_reused(moviedb_corpus: Corpus, tmp_path: Path) -> None:
    first = indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path)
    expected = ranking(first, QUESTION)
    directory = index_dir(tmp_path)
    assert (directory / "COMPLETE").is_file()
    inode, files = directory.stat().st_ino, segment_files(directory)

    second = indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path)
    assert ranking(second, QUESTION) == expected
    # Opened in place: a rebuild would rename a fresh directory (and segments) into place.
    assert directory.stat().st_ino == inode
    assert segment_files(directory) == files


def test_a_build_that_finishes_second_keeps_the_cache_in_place(
    moviedb_corpus: Corpus, tmp_path: Path
) -> None:
    # Two cold processes both build; the one that finishes second must not delete or replace
    # the cache the first put in place: the first is searching it, and tantivy reads lazily.
    first = indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path)
    expected = ranking(first, QUESTION)
    directory = index_dir(tmp_path)
    inode, files = directory.stat().st_ino, segment_files(directory)

    late = BM25Backend(Format.GLOSS, tokenizer="en_stem", cache_dir=tmp_path)
    second = late._searcher(moviedb_corpus, late._build_cached(moviedb_corpus, directory))
    assert ranking(second, QUESTION) == expected
    assert directory.stat().st_ino == inode and segment_files(directory) == files
    assert ranking(first, QUESTION) == expected
    assert [p.name for p in directory.parent.iterdir()] == [directory.name]  # no staging left


def test_an_interrupted_build_leaves_nothing_behind(
    moviedb_corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = BM25Backend(Format.GLOSS, tokenizer="en_stem", cache_dir=tmp_path)
    build = backend._build

    def interrupted(corpus: Corpus, path: Path | None) -> object:
        build(corpus, path)  # the segments are written, then the user presses Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(backend, "_build", interrupted)
    with pytest.raises(KeyboardInterrupt):
        backend.index(moviedb_corpus)
    assert list((tmp_path / "bm25").iterdir()) == []


def test_a_build_a_killed_process_left_is_swept_once_an_hour_old(
    moviedb_corpus: Corpus, tmp_path: Path
) -> None:
    entries = tmp_path / "bm25"
    entries.mkdir()
    for name in (".building-old", ".discarded-old-x", ".building-new"):
        (entries / name).mkdir()
        (entries / name / "meta.json").write_text("{}")
    hours_ago = os.stat(entries).st_mtime - 2 * 3600
    for name in (".building-old", ".discarded-old-x"):
        os.utime(entries / name, (hours_ago, hours_ago))
    indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path)
    # The new one may be another process's build in hand.
    left = sorted(p.name for p in entries.iterdir() if p.name.startswith("."))
    assert left == [".building-new"]


def test_cache_entries_are_per_format_and_tokenizer(moviedb_corpus: Corpus, tmp_path: Path) -> None:
    indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path)
    indexed(moviedb_corpus, Format.GLOSS, "default", tmp_path)
    indexed(moviedb_corpus, Format.RAW, "en_stem", tmp_path)
    assert len([p for p in (tmp_path / "bm25").iterdir() if not p.name.startswith(".")]) == 3


def replace_bytes(path: Path, data: bytes) -> None:
    """Damage a file the way another process would: a new file renamed over the old one.

    Writing in place would truncate a file this very process still has memory-mapped (the
    first index is still open), and reading that mapping then dies with SIGBUS.
    """
    fresh = path.with_name(path.name + ".damaged")
    fresh.write_bytes(data)
    os.replace(fresh, path)


def flip_bytes(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for position in range(len(data) // 2):
        data[position] ^= 0x5A
    replace_bytes(path, bytes(data))


def damage_meta(directory: Path) -> None:
    replace_bytes(directory / "meta.json", b"\x00 not json")


def delete_meta(directory: Path) -> None:
    (directory / "meta.json").unlink()


def delete_marker(directory: Path) -> None:
    (directory / "COMPLETE").unlink()


def wrong_marker(directory: Path) -> None:
    (directory / "COMPLETE").write_text("3")


def truncate_segments(directory: Path) -> None:
    for path in directory.iterdir():
        if path.suffix in (".idx", ".term", ".store", ".fast", ".fieldnorm"):
            replace_bytes(path, b"")


def garble(suffix: str):  # type: ignore[no-untyped-def]
    def damage(directory: Path) -> None:
        for path in directory.glob(f"*.{suffix}"):
            flip_bytes(path)

    damage.__name__ = f"garble_{suffix}"
    return damage


DAMAGES = [
    damage_meta,
    delete_meta,
    delete_marker,
    wrong_marker,
    truncate_segments,
    garble("term"),
    garble("store"),
    garble("idx"),
    garble("fieldnorm"),
]


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda damage: damage.__name__)
def test_damaged_index_is_rebuilt(moviedb_corpus: Corpus, tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    expected = ranking(indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path), QUESTION)
    directory = index_dir(tmp_path)
    before = segment_files(directory)
    damage(directory)

    backend = indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path)
    assert ranking(backend, QUESTION) == expected
    assert ranking(backend, "rating", 44)[0] == "Movie.rating"
    # Rebuilt: a complete index with new segments, and the next run opens it as is.
    rebuilt = index_dir(tmp_path)
    assert (rebuilt / "COMPLETE").is_file()
    assert segment_files(rebuilt) != before
    after = segment_files(rebuilt)
    assert ranking(indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path), QUESTION) == expected
    assert segment_files(index_dir(tmp_path)) == after


class _Warnings:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def warning(self, message: str) -> None:
        self.lines.append(message)

    def note(self, message: str) -> None:
        pass

    def progress(self, description: str, done: int, total: int) -> None:
        pass


@pytest.mark.parametrize("damage", [wrong_marker, garble("store")], ids=lambda d: d.__name__)
def test_a_damaged_index_is_rebuilt_with_one_warning_naming_it(  # type: ignore[no-untyped-def]
    moviedb_corpus: Corpus, tmp_path: Path, damage
) -> None:
    indexed(moviedb_corpus, Format.GLOSS, "en_stem", tmp_path)
    directory = index_dir(tmp_path)
    damage(directory)
    heard = _Warnings()
    BM25Backend(Format.GLOSS, tokenizer="en_stem", cache_dir=tmp_path, events=heard).index(
        moviedb_corpus
    )
    assert len(heard.lines) == 1
    assert str(directory) in heard.lines[0] and "rebuilding it" in heard.lines[0]
    again = _Warnings()  # the rebuilt index opens as it is
    BM25Backend(Format.GLOSS, tokenizer="en_stem", cache_dir=tmp_path, events=again).index(
        moviedb_corpus
    )
    assert again.lines == []


def test_unwritable_cache_falls_back_to_memory(moviedb_corpus: Corpus, tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory should be")
    backend = indexed(moviedb_corpus, Format.RAW, "en_stem", blocker)
    assert ranking(backend, "rating") == ["Movie.rating"]
    assert blocker.read_text() == "a file where the cache directory should be"


def test_no_cache_dir_builds_in_memory(moviedb_corpus: Corpus, tmp_path: Path) -> None:
    backend = indexed(moviedb_corpus, Format.RAW, "en_stem", None)
    assert ranking(backend, "rating") == ["Movie.rating"]
    assert list(tmp_path.iterdir()) == []


def test_leftover_staging_directories_do_not_matter(moviedb_corpus: Corpus, tmp_path: Path) -> None:
    # A run killed mid-build leaves a `.building-*` directory; the next run ignores it.
    staging = tmp_path / "bm25" / ".building-killed"
    staging.mkdir(parents=True)
    (staging / "meta.json").write_text("{")
    backend = indexed(moviedb_corpus, Format.RAW, "en_stem", tmp_path)
    assert ranking(backend, "rating") == ["Movie.rating"]
    assert os.path.isdir(staging)
