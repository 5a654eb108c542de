"""The corpus renderings, exactly as issue 2 defines them, and o200k_base token counting.

The published GitHub figures are only reproduced if every byte of every rendering matches,
so the expectations here are written out by hand from the issue's definitions.
"""

from __future__ import annotations

import hashlib
import inspect
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import tiktoken
from graphql import build_schema

from schemanav.corpus import Corpus, CorpusEntry, Format, build_corpus, humanize
from schemanav.schema import bundled_path, load_schema
from schemanav.tokens import ENCODING_NAME, O200K_SHA256, count_many, count_tokens

MOVIEDB = bundled_path("moviedb.graphqls")


def entry(corpus: Corpus, coordinate: str) -> CorpusEntry:
    return corpus.entries[corpus.coordinates.index(coordinate)]


# --- humanize ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("baseRefName", "base ref name"),
        ("URLPath", "url path"),
        ("HTMLUrl", "html url"),
        ("snake_case", "snake case"),
        ("sha256Sum", "sha256 sum"),
        ("v2Api", "v2 api"),
        ("ID", "id"),
        ("id", "id"),
        ("Movie", "movie"),
        ("CastCredit", "cast credit"),
        ("releaseYear", "release year"),
        ("isHTML5Ready", "is html5 ready"),
        ("PR_number", "pr number"),
        ("OAuth2Token", "o auth2 token"),
        ("viewerCanUpdate", "viewer can update"),
    ],
)
def test_humanize(name: str, expected: str) -> None:
    assert humanize(name) == expected


# --- the four renderings on the Movie DB ---------------------------------------------------

RATING_DESCRIPTION = "Average review rating from 1 to 10, null while unreviewed."

EXPECTED_RENDERINGS = {
    "Movie.rating": {
        Format.RAW: "Movie.rating",
        Format.DOT_PLUS_GLOSS: "Movie.rating - the rating of a movie",
        Format.GLOSS: "GraphQL field Movie.rating. Owner type: Movie. Returns: Float. "
        + RATING_DESCRIPTION,
        Format.SDL: f'"""{RATING_DESCRIPTION}"""\nrating: Float  # on type Movie',
    },
    "Query.movies": {
        Format.RAW: "Query.movies",
        Format.DOT_PLUS_GLOSS: "Query.movies - the movies of a query",
        Format.GLOSS: "GraphQL field Query.movies. Owner type: Query. Returns: [Movie!]!. "
        "Movies of the catalog, oldest release first, optionally narrowed by a filter.",
        Format.SDL: '"""Movies of the catalog, oldest release first, optionally narrowed '
        'by a filter."""\nmovies(filter: MovieFilter, first: Int): [Movie!]!  # on type Query',
    },
    "Movie.releaseYear": {
        Format.RAW: "Movie.releaseYear",
        Format.DOT_PLUS_GLOSS: "Movie.releaseYear - the release year of a movie",
        Format.GLOSS: "GraphQL field Movie.releaseYear. Owner type: Movie. Returns: Int!. "
        "The year of the movie's first theatrical release.",
        Format.SDL: '"""The year of the movie\'s first theatrical release."""\n'
        "releaseYear: Int!  # on type Movie",
    },
    "CastCredit.billing": {
        Format.RAW: "CastCredit.billing",
        Format.DOT_PLUS_GLOSS: "CastCredit.billing - the billing of a cast credit",
        Format.GLOSS: "GraphQL field CastCredit.billing. Owner type: CastCredit. Returns: Int!. "
        "Position in the cast list, starting at 1 for the top-billed actor.",
        Format.SDL: '"""Position in the cast list, starting at 1 for the top-billed actor."""\n'
        "billing: Int!  # on type CastCredit",
    },
    "Mutation.createMovie": {
        Format.RAW: "Mutation.createMovie",
        Format.DOT_PLUS_GLOSS: "Mutation.createMovie - the create movie of a mutation",
        Format.GLOSS: "GraphQL field Mutation.createMovie. Owner type: Mutation. "
        "Returns: Movie!. Add a movie to the catalog and return it.",
        Format.SDL: '"""Add a movie to the catalog and return it."""\n'
        "createMovie(input: CreateMovieInput!): Movie!  # on type Mutation",
    },
    "Credit.movie": {
        Format.RAW: "Credit.movie",
        Format.DOT_PLUS_GLOSS: "Credit.movie - the movie of a credit",
        Format.GLOSS: "GraphQL field Credit.movie. Owner type: Credit. Returns: Movie!. "
        "The movie the credit belongs to.",
        Format.SDL: '"""The movie the credit belongs to."""\nmovie: Movie!  # on type Credit',
    },
    "Review.createdAt": {
        Format.RAW: "Review.createdAt",
        Format.DOT_PLUS_GLOSS: "Review.createdAt - the created at of a review",
        Format.GLOSS: "GraphQL field Review.createdAt. Owner type: Review. Returns: String!. "
        "The date the review was posted, as an ISO 8601 date (YYYY-MM-DD).",
        Format.SDL: '"""The date the review was posted, as an ISO 8601 date (YYYY-MM-DD)."""\n'
        "createdAt: String!  # on type Review",
    },
}


@pytest.mark.parametrize("coordinate", sorted(EXPECTED_RENDERINGS))
@pytest.mark.parametrize("fmt", list(Format))
def test_moviedb_renderings(moviedb_corpus: Corpus, coordinate: str, fmt: Format) -> None:
    expected = EXPECTED_RENDERINGS[coordinate][fmt]
    assert entry(moviedb_corpus, coordinate).render(fmt) == expected
    # What reaches an index is the same text, at the entry's position.
    assert moviedb_corpus.texts(fmt)[moviedb_corpus.coordinates.index(coordinate)] == expected


SDL_WITHOUT_DESCRIPTIONS = """
type Query {
  pullRequest(number: Int!, after: String, labels: [String!]): PullRequest
  "   Padded with spaces.   "
  viewer: User!
  "   "
  blank: Int
}
type PullRequest { baseRefName: String! }
type User { login: String! }
"""


@pytest.fixture(scope="module")
def bare() -> Corpus:
    return build_corpus(build_schema(SDL_WITHOUT_DESCRIPTIONS))


def test_gloss_and_sdl_without_description(bare: Corpus) -> None:
    base_ref = entry(bare, "PullRequest.baseRefName")
    assert base_ref.description is None
    assert base_ref.render(Format.GLOSS) == (
        "GraphQL field PullRequest.baseRefName. Owner type: PullRequest. Returns: String!."
    )
    assert base_ref.render(Format.SDL) == "baseRefName: String!  # on type PullRequest"
    assert base_ref.render(Format.DOT_PLUS_GLOSS) == (
        "PullRequest.baseRefName - the base ref name of a pull request"
    )


def test_sdl_prints_every_argument_with_its_graphql_type(bare: Corpus) -> None:
    assert entry(bare, "Query.pullRequest").render(Format.SDL) == (
        "pullRequest(number: Int!, after: String, labels: [String!]): PullRequest  # on type Query"
    )


def test_descriptions_are_stripped_and_blank_ones_dropped(bare: Corpus) -> None:
    viewer = entry(bare, "Query.viewer")
    assert viewer.description == "Padded with spaces."
    assert viewer.render(Format.GLOSS) == (
        "GraphQL field Query.viewer. Owner type: Query. Returns: User!. Padded with spaces."
    )
    assert viewer.render(Format.SDL) == '"""Padded with spaces."""\nviewer: User!  # on type Query'
    blank = entry(bare, "Query.blank")
    assert blank.description is None
    assert blank.render(Format.GLOSS).endswith("Returns: Int.")
    assert blank.render(Format.SDL) == "blank: Int  # on type Query"


def test_block_string_descriptions_lose_their_indentation_and_blank_lines(
    moviedb_corpus: Corpus,
) -> None:
    # In the SDL file every description is an indented block string over three lines.
    for item in moviedb_corpus.entries:
        assert item.description is not None, item.coordinate
        assert item.description == item.description.strip()
        assert "\n" not in item.description, item.coordinate


# --- what the corpus contains --------------------------------------------------------------


def test_moviedb_has_44_coordinates_in_schema_order(moviedb_corpus: Corpus) -> None:
    assert len(moviedb_corpus) == 44
    assert len(set(moviedb_corpus.coordinates)) == 44
    assert moviedb_corpus.coordinates[:5] == (
        "Query.movie",
        "Query.movies",
        "Query.person",
        "Query.search",
        "Query.node",
    )


def test_interface_fields_are_entries(moviedb_corpus: Corpus) -> None:
    for coordinate in ("Node.id", "Credit.movie", "Credit.person"):
        assert coordinate in moviedb_corpus.coordinates
        assert entry(moviedb_corpus, coordinate).owner_is_interface
    assert not entry(moviedb_corpus, "Movie.id").owner_is_interface


def test_only_output_fields_of_object_and_interface_types(moviedb_corpus: Corpus) -> None:
    owners = {item.owner for item in moviedb_corpus.entries}
    assert owners == {
        "Query",
        "Mutation",
        "Node",
        "Movie",
        "Person",
        "Credit",
        "CastCredit",
        "CrewCredit",
        "Review",
        "User",
        "Studio",
    }
    # Input types, enums, unions and introspection types contribute nothing.
    assert "MovieFilter.minRating" not in moviedb_corpus.coordinates
    assert not any(c.startswith("__") for c in moviedb_corpus.coordinates)


def test_named_return_type_unwraps_lists_and_non_null(moviedb_corpus: Corpus) -> None:
    assert entry(moviedb_corpus, "Query.movies").return_type == "[Movie!]!"
    assert entry(moviedb_corpus, "Query.movies").named_return_type == "Movie"
    assert entry(moviedb_corpus, "Movie.rating").named_return_type == "Float"


def test_format_parse_accepts_cli_spellings() -> None:
    assert Format.parse("dot-plus-gloss") is Format.DOT_PLUS_GLOSS
    assert Format.parse(" sdl ") is Format.SDL
    with pytest.raises(ValueError, match=r"unknown format 'xml'.*RAW, DOT_PLUS_GLOSS, GLOSS, SDL"):
        Format.parse("xml")


def test_content_hash_follows_the_rendered_text(moviedb_corpus: Corpus, bare: Corpus) -> None:
    assert moviedb_corpus.content_hash(Format.RAW) != moviedb_corpus.content_hash(Format.SDL)
    assert moviedb_corpus.content_hash(Format.RAW) != bare.content_hash(Format.RAW)
    again = build_corpus(load_schema(str(MOVIEDB)).schema)
    assert again.content_hash(Format.GLOSS) == moviedb_corpus.content_hash(Format.GLOSS)


def test_token_counts_are_per_rendered_text(moviedb_corpus: Corpus) -> None:
    for fmt in Format:
        counts = moviedb_corpus.token_counts(fmt)
        assert counts == [count_tokens(text) for text in moviedb_corpus.texts(fmt)]
        assert moviedb_corpus.total_tokens(fmt) == sum(counts)


# --- token counting ------------------------------------------------------------------------

TIKTOKEN_O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"


@pytest.fixture(scope="module")
def tiktoken_o200k(tmp_path_factory: pytest.TempPathFactory) -> tiktoken.Encoding:
    """tiktoken's own o200k_base definition (pattern, special tokens, loader), fed offline.

    tiktoken looks for a downloaded rank file in TIKTOKEN_CACHE_DIR under the SHA-1 of its
    URL, so placing the bundled file there makes tiktoken build the encoding by itself.
    """
    from tiktoken_ext import openai_public

    cache = tmp_path_factory.mktemp("tiktoken-cache")
    key = hashlib.sha1(TIKTOKEN_O200K_URL.encode()).hexdigest()
    shutil.copyfile(bundled_path("o200k_base.tiktoken"), cache / key)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
        return tiktoken.Encoding(**openai_public.o200k_base())


SAMPLES = [
    "Movie.rating - the rating of a movie",
    "GraphQL field Query.movies. Owner type: Query. Returns: [Movie!]!.",
    '"""Average review rating from 1 to 10."""\nrating: Float  # on type Movie',
    "I'LL say it's 12345678 tokens, don't you?",
    "naïve café — 東京 🎬 Ünïcödé",
    "  leading\n\n\ttabs   and   trailing   ",
    "text with <|endoftext|> inside",
    "",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_count_tokens_is_tiktoken_o200k_base(tiktoken_o200k: tiktoken.Encoding, text: str) -> None:
    assert count_tokens(text) == len(tiktoken_o200k.encode_ordinary(text))


def test_count_many_matches_count_tokens() -> None:
    assert count_many(SAMPLES) == [count_tokens(text) for text in SAMPLES]


def test_a_few_known_counts() -> None:
    assert count_tokens("") == 0
    assert count_tokens("hello") == 1
    assert count_tokens("<|endoftext|>") > 1  # ordinary text, not the special token


def test_bundled_rank_file_has_the_pinned_hash() -> None:
    data = Path(str(bundled_path("o200k_base.tiktoken"))).read_bytes()
    assert hashlib.sha256(data).hexdigest() == O200K_SHA256
    assert ENCODING_NAME == "o200k_base"


def test_pinned_hash_is_the_one_tiktoken_pins() -> None:
    from tiktoken_ext import openai_public

    assert O200K_SHA256 in inspect.getsource(openai_public.o200k_base)


def test_tampered_rank_file_is_refused(tmp_path: Path) -> None:
    from tiktoken.load import load_tiktoken_bpe

    tampered = tmp_path / "o200k_base.tiktoken"
    data = bytearray(Path(str(bundled_path("o200k_base.tiktoken"))).read_bytes())
    data[100] ^= 1
    tampered.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="Hash mismatch"):
        load_tiktoken_bpe(str(tampered), expected_hash=O200K_SHA256)


@pytest.fixture
def rank_cache(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    """The tokenizer keeping its rank table under tmp_path (and the warnings it gives); the
    encoding is rebuilt before and after, so no other test sees this cache."""
    from schemanav import tokens

    warnings: list[str] = []
    tokens.cache_ranks_in(tmp_path, warnings.append)
    tokens.encoding.cache_clear()
    yield tmp_path, warnings
    tokens.cache_ranks_in(None)
    tokens.encoding.cache_clear()


@pytest.mark.slow
def test_the_kept_rank_table_is_tiktokens_and_a_damaged_one_is_parsed_again(
    rank_cache: tuple[Path, list[str]], tiktoken_o200k: tiktoken.Encoding
) -> None:
    from schemanav import tokens

    directory, warnings = rank_cache
    assert count_tokens(SAMPLES[3]) == len(tiktoken_o200k.encode_ordinary(SAMPLES[3]))
    (kept,) = (directory / "tokens").iterdir()
    tokens.encoding.cache_clear()
    assert tokens.encoding()._mergeable_ranks == tiktoken_o200k._mergeable_ranks
    assert warnings == []

    data = bytearray(kept.read_bytes())
    data[-1] ^= 1
    kept.write_bytes(bytes(data))
    tokens.encoding.cache_clear()
    assert count_tokens(SAMPLES[3]) == len(tiktoken_o200k.encode_ordinary(SAMPLES[3]))
    assert warnings == [
        f"the tokenizer's kept rank table {kept} is not usable (payload checksum does not "
        "match); parsing the rank file again"
    ]
    tokens.encoding.cache_clear()
    assert tokens.encoding()._mergeable_ranks == tiktoken_o200k._mergeable_ranks
    assert len(warnings) == 1  # rewritten whole
