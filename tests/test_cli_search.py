"""`schemanav search` through the command line: ranking, JSON shape, budget, formats,
refusals, hostile question texts, and the corpus cache on the GitHub schema.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from hostile_questions import HOSTILE_QUESTIONS, NO_SEARCHABLE_WORDS
from schemanav.cache import read_checked
from schemanav.cli import app
from schemanav.corpus import Corpus, Format
from schemanav.corpus.packed import unpack
from schemanav.limits import MAX_QUESTION_CHARS
from schemanav.retrieval.pipeline import backend_names
from schemanav.tokens import count_tokens
from servers.graphql_server import serve_moviedb

UserError = Callable[..., str]
HIT_KEYS = {"rank", "coordinate", "score", "tokens", "text", "paths_to_root"}
TOP_KEYS = {"query", "backend", "format", "encoding", "hits", "total_tokens", "disposition"}


@pytest.fixture(autouse=True)
def isolated(cache_dir: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh cache, no schemanav.toml, and BM25 (what these tests are about) whatever
    the default backend is."""
    monkeypatch.setenv("SCHEMANAV_BACKEND", "bm25")


@pytest.fixture(scope="module")
def renderings(moviedb_corpus: Corpus) -> dict[str, dict[str, str]]:
    """coordinate → format → text, for the Movie DB, built without the CLI."""
    return {
        entry.coordinate: {fmt.value: entry.render(fmt) for fmt in Format}
        for entry in moviedb_corpus.entries
    }


def search(runner: CliRunner, question: str, *args: str) -> Result:
    return runner.invoke(app, ["search", question, *args])


def search_json(runner: CliRunner, question: str, *args: str) -> dict[str, Any]:
    result = search(runner, question, "--json", *args)
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.output
    payload: dict[str, Any] = json.loads(result.stdout)
    return payload


def coordinates(payload: dict[str, Any]) -> list[str]:
    return [hit["coordinate"] for hit in payload["hits"]]


def check_hits(payload: dict[str, Any], renderings: dict[str, dict[str, str]]) -> None:
    """The promises every hit list keeps, whatever the question."""
    assert set(payload) == TOP_KEYS
    assert payload["encoding"] == "o200k_base"
    hits = payload["hits"]
    assert [hit["rank"] for hit in hits] == list(range(1, len(hits) + 1))
    scores = [hit["score"] for hit in hits]
    assert scores == sorted(scores, reverse=True)
    for hit in hits:
        assert set(hit) == HIT_KEYS
        assert hit["text"] == renderings[hit["coordinate"]][payload["format"]]
        assert hit["tokens"] == count_tokens(hit["text"])
    assert payload["total_tokens"] == sum(hit["tokens"] for hit in hits)
    assert len(set(coordinates(payload))) == len(hits)


# --- ranking and output --------------------------------------------------------------------


def test_movies_with_a_high_rating_finds_query_movies(
    runner: CliRunner, renderings: dict[str, dict[str, str]]
) -> None:
    payload = search_json(runner, "movies with a high rating", "--backend", "bm25")
    assert "Query.movies" in coordinates(payload)[:5]
    assert payload["query"] == "movies with a high rating"
    assert payload["backend"] == "bm25"
    assert payload["format"] == "DOT_PLUS_GLOSS"
    assert len(payload["hits"]) == 10
    check_hits(payload, renderings)


def test_paths_to_root_start_at_a_root_field(runner: CliRunner) -> None:
    payload = search_json(runner, "movie rating", "--k", "5")
    for hit in payload["hits"]:
        assert hit["paths_to_root"], hit["coordinate"]
        for path in hit["paths_to_root"]:
            assert path[0].split(".")[0] in {"Query", "Mutation"}
            assert path[-1] == hit["coordinate"]
    rating = next(h for h in payload["hits"] if h["coordinate"] == "Movie.rating")
    assert ["Query.movie", "Movie.rating"] in rating["paths_to_root"]


def test_text_output(runner: CliRunner) -> None:
    payload = search_json(runner, "movies with a high rating", "--k", "3")
    result = search(runner, "movies with a high rating", "--k", "3")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "bm25 · DOT_PLUS_GLOSS · tokens in o200k_base" in out
    for hit in payload["hits"]:
        row = rf"\b{hit['rank']}\s*\W\s*{re.escape(hit['coordinate'])}\s*\W\s*"
        row += rf"{hit['score']:.3f}\s*\W\s*{hit['tokens']}\s"
        assert re.search(row, out), (row, out)
    assert f"3 hits, {payload['total_tokens']:,} tokens (o200k_base)" in out


def test_k_limits_the_ranking(runner: CliRunner) -> None:
    deep = coordinates(search_json(runner, "movie rating", "--k", "44"))
    assert len(deep) > 10
    for k in (1, 3, 10):
        assert coordinates(search_json(runner, "movie rating", "--k", str(k))) == deep[:k]


@pytest.mark.parametrize("budget", [40, 75, 150, 400])
def test_budget_keeps_the_longest_prefix_that_fits(
    runner: CliRunner, renderings: dict[str, dict[str, str]], budget: int
) -> None:
    # GLOSS entries differ in length, so the cut-off is not a multiple of one size.
    args = ("movie rating review", "--format", "GLOSS")
    deep = search_json(runner, *args, "--k", "44")["hits"]
    assert sum(hit["tokens"] for hit in deep) > 400
    payload = search_json(runner, *args, "--budget", str(budget))
    check_hits(payload, renderings)
    kept = payload["hits"]
    assert kept == deep[: len(kept)]
    assert payload["total_tokens"] <= budget
    if len(kept) < len(deep):
        assert payload["total_tokens"] + deep[len(kept)]["tokens"] > budget


def test_budget_below_the_first_hit_is_bad_input_that_says_so(runner: CliRunner) -> None:
    result = search(runner, "movie rating", "--budget", "1", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["hits"] == []
    first = search_json(runner, "movie rating", "--k", "1")["hits"][0]
    assert result.stderr == (
        f"error: no hit fits the budget of 1 tokens: the first hit, {first['coordinate']}, "
        f"costs {first['tokens']} tokens; raise the budget\n"
    )


def test_budget_and_k_together(runner: CliRunner) -> None:
    deep = search_json(runner, "movie rating", "--k", "44")["hits"]
    payload = search_json(runner, "movie rating", "--k", "2", "--budget", "1000")
    assert payload["hits"] == deep[:2]


@pytest.mark.parametrize("fmt", ["RAW", "GLOSS", "SDL", "DOT_PLUS_GLOSS", "dot-plus-gloss"])
def test_format_changes_the_texts(
    runner: CliRunner, renderings: dict[str, dict[str, str]], fmt: str
) -> None:
    payload = search_json(runner, "rating", "--format", fmt, "--k", "5")
    assert payload["format"] == Format.parse(fmt).value
    assert payload["hits"], payload
    check_hits(payload, renderings)


def test_raw_format_finds_movie_rating(runner: CliRunner) -> None:
    # tantivy's tokenizers split `Movie.rating` on the dot, so a RAW index matches words.
    for tokenizer in ("default", "en_stem", "camel_stem"):
        payload = search_json(runner, "rating", "--format", "RAW", "-o", "tokenizer", tokenizer)
        assert coordinates(payload) == ["Movie.rating"], tokenizer


@pytest.mark.parametrize(
    ("tokenizer", "name"),
    [("default", "bm25:default"), ("en_stem", "bm25"), ("camel_stem", "bm25:camel_stem")],
)
def test_tokenizers_are_selectable(runner: CliRunner, tokenizer: str, name: str) -> None:
    assert search_json(runner, "rating", "-o", "tokenizer", tokenizer)["backend"] == name


def test_stemming_tokenizers_match_inflections(runner: CliRunner) -> None:
    assert search_json(runner, "ratings", "-o", "tokenizer", "default")["hits"] == []
    assert coordinates(search_json(runner, "ratings", "-o", "tokenizer", "en_stem"))[0] == (
        "Movie.rating"
    )


def test_camel_stem_splits_identifiers(runner: CliRunner) -> None:
    # In RAW, `releaseYear` is one word to the other tokenizers.
    plain = search_json(runner, "release year", "--format", "RAW", "-o", "tokenizer", "en_stem")
    assert "Movie.releaseYear" not in coordinates(plain)
    split = search_json(runner, "release year", "--format", "RAW", "-o", "tokenizer", "camel_stem")
    assert coordinates(split)[0] == "Movie.releaseYear"


def test_search_over_a_live_endpoint(runner: CliRunner) -> None:
    with serve_moviedb(token="s3cret") as server:
        result = search(
            runner,
            "movies with a high rating",
            "--json",
            "--schema",
            server.url,
            "--header",
            "Authorization: Bearer s3cret",
        )
    assert result.exit_code == 0, result.stderr
    assert "Query.movies" in coordinates(json.loads(result.stdout))[:5]
    assert server.last_request.headers["authorization"] == "Bearer s3cret"
    assert "s3cret" not in result.output


# --- refusals and odd questions ------------------------------------------------------------


def test_unknown_backend_lists_the_known_ones(runner: CliRunner, user_error: UserError) -> None:
    line = user_error(search(runner, "rating", "--backend", "lucene"), "unknown backend 'lucene'")
    for name in backend_names():
        assert name in line
    assert "bm25" in backend_names()


def test_unknown_format(runner: CliRunner, user_error: UserError) -> None:
    user_error(
        search(runner, "rating", "--format", "XML"),
        "unknown format 'XML'",
        "RAW, DOT_PLUS_GLOSS, GLOSS, SDL",
    )


def test_unknown_tokenizer(runner: CliRunner, user_error: UserError) -> None:
    user_error(
        search(runner, "rating", "-o", "tokenizer", "whitespace"),
        "unknown BM25 tokenizer 'whitespace'",
        "default, en_stem, camel_stem",
    )


def test_bad_schema_is_refused(runner: CliRunner, tmp_path: Path, user_error: UserError) -> None:
    user_error(search(runner, "rating", "--schema", str(tmp_path / "none.graphql")), "not found")


@pytest.mark.parametrize("k", ["0", "-3"])
def test_k_below_one_is_refused(runner: CliRunner, user_error: UserError, k: str) -> None:
    user_error(search(runner, "rating", "--k", k), "invalid --k: ")


@pytest.mark.parametrize("question", ["", "   ", "?!...", "*~()[]{}\"'\\:-+", "— … ·"])
def test_question_without_words_is_bad_input(runner: CliRunner, question: str) -> None:
    for args in ((), ("--json",)):
        result = search(runner, question, *args)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr == (
            "error: the question has no searchable words, so there is nothing to search: "
            "ask in words, e.g. 'movies with a high rating'\n"
        )


def test_no_match_says_so(runner: CliRunner) -> None:
    result = search(runner, "zyzzyva quokka")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr.strip() == "no hits"




@pytest.mark.parametrize("tokenizer", ["default", "en_stem", "camel_stem"])
@pytest.mark.slow
def test_hostile_questions_never_crash(
    runner: CliRunner, renderings: dict[str, dict[str, str]], tokenizer: str
) -> None:
    # The tokenizer analyses the question; the format only changes the indexed texts.
    for question in HOSTILE_QUESTIONS:
        result = search(runner, question, "--json", "-o", "tokenizer", tokenizer)
        refused = question == NO_SEARCHABLE_WORDS or len(question) > MAX_QUESTION_CHARS
        assert result.exit_code == (2 if refused else 0), (question, result.stderr)
        if refused:  # no searchable words, or too long: bad input
            continue
        assert "Traceback" not in result.output, question
        payload = json.loads(result.stdout)
        assert payload["query"] == question
        check_hits(payload, renderings)


def test_hostile_question_still_finds_its_words(runner: CliRunner) -> None:
    payload = search_json(runner, 'rating~2 AND (movie "OR')
    assert coordinates(payload)[0] == "Movie.rating"


# --- the corpus cache on the GitHub schema -------------------------------------------------


@pytest.mark.slow
def test_github_corpus_cache_is_written_and_reused(
    runner: CliRunner, cache_dir: Path, github_schema_path: Path
) -> None:
    args = ["--schema", str(github_schema_path), "--k", "20"]
    question = "which pull requests were merged into the base branch"

    cold = search(runner, question, "--json", *args)
    assert cold.exit_code == 0, cold.stderr
    cache_files = list((cache_dir / "corpus").glob("*.bin"))
    assert len(cache_files) == 1
    cache_file = cache_files[0]
    written = cache_file.stat()
    # The spec-violation warning survives the cache.
    assert cold.stderr.startswith("warning: the schema breaks 8 GraphQL spec rules")

    warm = search(runner, question, "--json", *args)
    assert warm.exit_code == 0, warm.stderr
    assert warm.stdout == cold.stdout
    assert warm.stderr == cold.stderr
    # Read, not rewritten: a rewrite replaces the file (atomic rename, new inode).
    assert cache_file.stat().st_ino == written.st_ino
    assert cache_file.stat().st_mtime_ns == written.st_mtime_ns

    _, data = read_checked(cache_file)
    assert len(unpack(data)["entries"]["owner"]) == 6640

    hits = json.loads(cold.stdout)["hits"]
    assert len(hits) == 20
    assert all(hit["tokens"] == count_tokens(hit["text"]) for hit in hits)


def test_unusable_cache_dir_only_costs_speed(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("SCHEMANAV_CACHE_DIR", str(blocker))
    payload = search_json(runner, "movies with a high rating")
    assert "Query.movies" in coordinates(payload)[:5]
    assert blocker.read_text() == "a file where the cache directory should be"
