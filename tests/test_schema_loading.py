"""`schemanav.schema.load_schema` on each kind of source, and the GitHub schema's spec breaks.

Every source must produce the same corpus for the same schema: the SDL file, an introspection
result in either JSON shape, and a live endpoint answering the introspection query.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from graphql import build_schema, introspection_from_schema, parse, validate

from schemanav.corpus import Corpus, Format, build_corpus
from schemanav.errors import InputError
from schemanav.schema import (
    LoadedSchema,
    bundled_path,
    describe_violations,
    load_schema,
    parse_header,
)
from servers.graphql_server import serve_moviedb

MOVIEDB = bundled_path("moviedb.graphqls")
MOVIEDB_SDL = MOVIEDB.read_text(encoding="utf-8")


def corpus_texts(loaded: LoadedSchema) -> dict[Format, list[str]]:
    corpus = build_corpus(loaded.schema)
    return {fmt: corpus.texts(fmt) for fmt in Format}


@pytest.fixture(scope="module")
def reference(moviedb_schema: LoadedSchema) -> dict[Format, list[str]]:
    return corpus_texts(moviedb_schema)


@pytest.fixture(scope="module")
def introspection() -> dict[str, object]:
    return dict(introspection_from_schema(build_schema(MOVIEDB_SDL)))


@pytest.mark.parametrize("suffix", [".graphql", ".graphqls", ".gql"])
def test_sdl_file(tmp_path: Path, suffix: str, reference: dict[Format, list[str]]) -> None:
    path = tmp_path / f"movies{suffix}"
    path.write_text(MOVIEDB_SDL, encoding="utf-8")
    loaded = load_schema(str(path))
    assert loaded.source == str(path)
    assert loaded.violations == ()
    assert loaded.sdl == MOVIEDB_SDL  # the text as written, not a reprint
    assert loaded.content_hash == hashlib.sha256(path.read_bytes()).hexdigest()
    assert corpus_texts(loaded) == reference
    assert len(reference[Format.RAW]) == 44


@pytest.mark.parametrize("wrapped", [True, False], ids=["data.__schema", "__schema"])
def test_introspection_json_file(
    tmp_path: Path,
    wrapped: bool,
    introspection: dict[str, object],
    reference: dict[Format, list[str]],
) -> None:
    payload = {"data": introspection} if wrapped else introspection
    path = tmp_path / "movies.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    loaded = load_schema(str(path))
    assert loaded.violations == ()
    assert corpus_texts(loaded) == reference
    # Printed back as SDL, since there is no source SDL.
    assert "type Movie implements Node" in loaded.sdl


def test_json_content_is_recognised_without_a_json_suffix(
    tmp_path: Path, introspection: dict[str, object], reference: dict[Format, list[str]]
) -> None:
    path = tmp_path / "movies.introspection"
    path.write_text("\n  " + json.dumps(introspection), encoding="utf-8")
    assert corpus_texts(load_schema(str(path))) == reference


def test_live_endpoint_with_bearer_token(reference: dict[Format, list[str]]) -> None:
    with serve_moviedb(token="s3cret") as server:
        loaded = load_schema(server.url, headers={"Authorization": "Bearer s3cret"}, timeout=10)
        request = server.last_request
    assert len(server.requests) == 1
    assert request.method == "POST"
    assert request.headers["authorization"] == "Bearer s3cret"
    assert request.headers["content-type"] == "application/json"
    assert "__schema" in request.body["query"]
    assert loaded.source == server.url
    assert corpus_texts(loaded) == reference


def test_live_endpoint_without_token_is_refused_with_401() -> None:
    with serve_moviedb(token="s3cret") as server, pytest.raises(InputError) as caught:
        load_schema(server.url, headers={"Authorization": "Bearer wrong-token"}, timeout=10)
    assert caught.value.exit_code == 2
    assert "HTTP 401" in caught.value.message
    assert "wrong-token" not in caught.value.message
    assert "s3cret" not in caught.value.message


def test_live_endpoint_timeout() -> None:
    with serve_moviedb(delay_s=1.5) as server, pytest.raises(InputError) as caught:
        load_schema(server.url, timeout=0.2)
    assert "timed out after 0.2 s" in caught.value.message


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Authorization: Bearer s3cret", ("Authorization", "Bearer s3cret")),
        ("X-Api-Key:abc", ("X-Api-Key", "abc")),
        ("X-Token:  a:b:c  ", ("X-Token", "a:b:c")),
        ("X-Empty:", ("X-Empty", "")),
    ],
)
def test_parse_header(raw: str, expected: tuple[str, str]) -> None:
    assert parse_header(raw) == expected


@pytest.mark.parametrize(
    "raw", ["Authorization Bearer s3cret", ": s3cret", "Bad Name: s3cret", "s3cret"]
)
def test_malformed_header_never_shows_the_value(raw: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_header(raw)
    assert "s3cret" not in caught.value.message
    assert "--header must look like 'Name: value'" in caught.value.message


# --- the GitHub schema ---------------------------------------------------------------------


@pytest.mark.slow
def test_github_schema_loads_with_its_8_spec_violations(github_schema: LoadedSchema) -> None:
    assert len(github_schema.violations) == 8
    assert all("\n" not in violation for violation in github_schema.violations)
    warning = describe_violations(github_schema.violations)
    assert warning.startswith("the schema breaks 8 GraphQL spec rules (first: ")
    assert "\n" not in warning


@pytest.mark.slow
def test_github_schema_still_validates_operations(github_schema: LoadedSchema) -> None:
    good = parse('{ viewer { login repository(name: "x") { stargazerCount } } }')
    assert validate(github_schema.schema, good) == []
    bad = parse("{ viewer { loginName } }")
    errors = validate(github_schema.schema, bad)
    assert [error.message for error in errors] == [
        "Cannot query field 'loginName' on type 'User'. Did you mean 'login'?"
    ]


@pytest.mark.slow
def test_github_interface_fields_are_in_the_corpus(github_corpus: Corpus) -> None:
    corpus = github_corpus
    assert len(corpus) == 6640
    position = corpus.coordinates.index("Node.id")
    assert corpus.entries[position].owner_is_interface
    assert "Actor.login" in corpus.coordinates


def test_graphql_core_version_is_the_installed_one() -> None:
    """The version that keys the caches of what graphql-core prints, read from its own
    `version.py` (no metadata scan), is the installed package's version."""
    from importlib.metadata import version

    from schemanav.schema.loading import graphql_core_version

    assert graphql_core_version() == version("graphql-core")
