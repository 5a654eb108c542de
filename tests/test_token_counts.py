"""Token counts kept between processes, and a text's count added up over cuts no token spans
(what lets a warm slice skip building the encoder)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemanav import tokens
from schemanav.bench.labelled import load_labelled
from schemanav.cache import TOKEN_COUNT_CACHE, write_checked
from schemanav.navigator import Navigator
from schemanav.schema import bundled_path
from schemanav.tokens import count_by_pieces, count_tokens, keep_counts, known_counts

# Lines around each cut rule: a `/` or a line break after a line break, white space alone on
# a line, `\r` in the indentation, Unicode white space, punctuation that takes line breaks.
TRICKY = [
    'type A {\n  a: Int\n}\n\n"""doc"""\ntype B {\n  b: [B!]!\n}\n',
    "a\n/b\n//c\n",
    "}\n\n\n  \n\t\nx\n",
    "x\n \r\n y\n\r\nz",
    "x\n\u00a0y\n\u2028z\n\x85w\n\x1cv\n",
    "{\n}\n)\n]!\n's\n12\n345\n",
    "\n\nlead\n",
    "",
    "trailing spaces   \n   ",
]


@pytest.fixture
def count_cache(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    """Counts kept under tmp_path (and the warnings they give); nothing kept before or after,
    so no other test sees them."""
    warnings: list[str] = []
    tokens.cache_ranks_in(None)
    tokens.cache_ranks_in(tmp_path, warnings.append)
    yield tmp_path, warnings
    tokens.cache_ranks_in(None)


def _reopened(directory: Path, warnings: list[str]) -> None:
    """As a new process finds the cache: no counts known, no encoder built."""
    tokens.cache_ranks_in(None)
    tokens.cache_ranks_in(directory, warnings.append)
    tokens.encoding.cache_clear()


@pytest.mark.parametrize("text", TRICKY)
def test_a_count_adds_up_over_the_cuts_on_tricky_lines(text: str) -> None:
    assert count_by_pieces(text) == count_tokens(text)


def test_a_count_adds_up_over_the_cuts_on_random_lines() -> None:
    alphabet = [
        "\n",
        "\n",
        " ",
        "  ",
        "\r",
        "\t",
        "/",
        "}",
        "{",
        "!",
        ":",
        "'s",
        '"""',
        "a",
        "Ab",
        "1",
        "12",
        "\u00a0",
        "\x85",
        "\u2028",
        "\x1c",
        "é",
        "世",
        "\r\n",
    ]
    rng = random.Random(23)
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
        assert count_by_pieces(text) == count_tokens(text), repr(text)


def test_every_movie_db_slice_counts_what_tiktoken_counts_of_its_sdl() -> None:
    navigator = Navigator.open(None)
    questions = load_labelled(Path(str(bundled_path("moviedb-sample.tsv"))))
    for query in questions:
        for budget in (500, 2000, 16000):
            piece = navigator.slice(query.question, budget=budget)
            assert piece.tokens == count_tokens(piece.sdl) == count_by_pieces(piece.sdl)


def test_kept_counts_spare_the_encoder_in_a_later_process(
    count_cache: tuple[Path, list[str]],
) -> None:
    directory, warnings = count_cache
    texts = ["type Query {\n", "  movie(id: ID!): Movie\n", "}\n"]
    counted = known_counts(texts)
    keep_counts()
    kept = TOKEN_COUNT_CACHE.path(directory, "o200k_base", tokens.O200K_SHA256[:16])
    assert kept.is_file()
    _reopened(directory, warnings)
    assert known_counts(texts) == counted == [count_tokens(t) for t in texts]
    _reopened(directory, warnings)
    assert count_by_pieces("".join(texts)) == sum(counted)
    assert tokens.encoding.cache_info().currsize == 0  # every piece was known
    assert warnings == []


def test_damaged_or_stale_kept_counts_are_counted_again_and_rewritten(
    count_cache: tuple[Path, list[str]],
) -> None:
    directory, warnings = count_cache
    texts = ["  title: String\n", "  year: Int\n"]
    expected = [count_tokens(t) for t in texts]
    known_counts(texts)
    keep_counts()
    kept = TOKEN_COUNT_CACHE.path(directory, "o200k_base", tokens.O200K_SHA256[:16])
    data = bytearray(kept.read_bytes())
    data[-2] ^= 1
    kept.write_bytes(bytes(data))
    _reopened(directory, warnings)
    assert known_counts(texts) == expected
    assert warnings == [
        f"the kept token counts {kept} are not usable (payload checksum does not match); "
        "counting again"
    ]
    keep_counts()  # rewritten whole
    _reopened(directory, warnings)
    assert known_counts(texts) == expected
    assert tokens.encoding.cache_info().currsize == 0 and len(warnings) == 1

    # Counts of another rank file, and a checked file that holds no table of counts.
    for header, payload, why in [
        (
            {"source_sha256": "0" * 64},
            b'{"  title: String\\n": 99}',
            "written for another encoding",
        ),
        ({}, b'{"  title: String\\n": -1}', "it does not hold a table of counts"),
    ]:
        write_checked(
            kept,
            TOKEN_COUNT_CACHE.header(**{"source_sha256": tokens.O200K_SHA256, **header}),
            payload,
        )
        _reopened(directory, warnings)
        assert known_counts(texts[:1]) == expected[:1]
        assert (
            warnings[-1] == f"the kept token counts {kept} are not usable ({why}); counting again"
        )


def test_the_counts_a_process_keeps_in_memory_are_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A server meets new lines as long as it runs: past twice the cap, the oldest half goes,
    # and every count returned is still exact.
    monkeypatch.setattr(tokens, "_MAX_KEPT_COUNTS", 5)
    monkeypatch.setattr(tokens, "_known", {})
    texts = [f"field{n}: String" for n in range(40)]
    assert tokens.known_counts(texts[:20]) == [tokens.count_tokens(t) for t in texts[:20]]
    for text in texts[20:]:
        assert tokens.known_count(text) == tokens.count_tokens(text)
    assert tokens._known is not None and len(tokens._known) <= 10
    assert texts[-1] in tokens._known and texts[0] not in tokens._known
