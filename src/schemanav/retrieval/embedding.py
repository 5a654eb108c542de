"""Dense retrieval: embed every corpus entry once, rank by cosine with one matrix product.

A schema has thousands of entries at most, so a normalised float32 matrix in memory beats
any vector database on both speed and moving parts. Embedding the corpus is the slow part
(minutes through Ollama for GitHub's 6,640 fields), so vectors are cached on disk, keyed by
everything that decides them: the embedder's identity (model, digest, document prefix), the
rendering format and the rendered texts' hash. A damaged cache file is reported (a warning
to the events sink) and rebuilt, never used.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from schemanav.cache import VECTOR_CACHE, CorruptCacheError, cache_key, read_checked, write_checked
from schemanav.defaults import (
    DEFAULT_EMBEDDING_BATCH_SIZE,
    DEFAULT_EMBEDDING_MODEL,
    DEFAULT_EMBEDDING_TIMEOUT,
    DEFAULT_LOCAL_MODEL,
    DEFAULT_OLLAMA_HOST,
    DEFAULT_QUERY_PREFIX,
)
from schemanav.errors import SchemanavError
from schemanav.events import Events, SilentEvents
from schemanav.retrieval.base import BackendContext, SearchHit, has_words
from schemanav.retrieval.embedders import Embedder, OllamaEmbedder, SentenceTransformerEmbedder
from schemanav.retrieval.registry import register_backend

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from schemanav.corpus import Corpus, Format


def _normalised(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    """Rows scaled to unit length; an all-zero row stays zero (cosine 0 with anything)."""
    import numpy as np

    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    result: NDArray[np.float32] = (matrix / norms).astype(np.float32, copy=False)
    return result


class EmbeddingBackend:
    """Embeds a corpus once (or reads its vectors from the cache) into an `EmbeddingSearcher`.

    `kind` is the registry name (`embedding`, `embedding-local`) and prefixes `name`. What the
    user should see goes to `events`: the model and prefixes in use (before indexing),
    progress while documents are embedded, and warnings (a damaged or unwritable cache).
    """

    def __init__(
        self,
        embedder: Embedder,
        fmt: Format,
        *,
        kind: str = "embedding",
        cache_dir: Path | None = None,
        events: Events | None = None,
    ) -> None:
        self.embedder = embedder
        self.fmt = fmt
        self.kind = kind
        self.cache_dir = cache_dir
        self.events = events or SilentEvents()

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.embedder.name}"

    @property
    def query_prefix(self) -> str:
        return self.embedder.query_prefix

    @property
    def document_prefix(self) -> str:
        return self.embedder.document_prefix

    def describe(self) -> str:
        """The model and the exact prefixes in use (a wrong prefix fails silently)."""
        return f"{self.name}: {self.embedder.describe()}"

    def index(self, corpus: Corpus) -> EmbeddingSearcher:
        import numpy as np

        self.events.note(self.describe())
        texts = corpus.texts(self.fmt)
        if not texts:
            return EmbeddingSearcher(self, corpus, np.zeros((0, 0), dtype=np.float32), None)
        key_fields = self.key_fields(corpus)
        cache_path = None
        if self.cache_dir is not None:
            cache_path = VECTOR_CACHE.path(self.cache_dir, cache_key(key_fields))
            cached = self._load(cache_path, key_fields, len(texts))
            if cached is not None:
                return EmbeddingSearcher(self, corpus, cached, cache_path, cache_hit=True)
        matrix = self.embed_corpus(corpus)
        if matrix.ndim != 2 or matrix.shape[0] != len(texts):
            raise SchemanavError(
                f"{self.name} returned {matrix.shape[0]} vectors for {len(texts)} corpus "
                "entries: check the embedding model (-o embedding_model / -o local_model)"
            )
        if cache_path is not None:
            self.store(cache_path, key_fields, matrix)
        return EmbeddingSearcher(self, corpus, matrix, cache_path)

    def embed_corpus(self, corpus: Corpus) -> NDArray[np.float32]:
        """Unit vectors of every corpus entry, reporting progress to the events sink."""
        description = f"indexing {self.kind}"
        return _normalised(
            self.embedder.embed_documents(
                corpus.texts(self.fmt),
                lambda done, total: self.events.progress(description, done, total),
            )
        )

    # -- vector cache ---------------------------------------------------------------

    def key_fields(self, corpus: Corpus) -> dict[str, Any]:
        return {
            "version": VECTOR_CACHE.version,
            "kind": VECTOR_CACHE.kind,
            "embedder": self.embedder.cache_identity(),
            "format": self.fmt.value,
            "corpus_sha256": corpus.content_hash(self.fmt),
            "rows": len(corpus),
        }

    def _load(
        self, path: Path, key_fields: dict[str, Any], rows: int
    ) -> NDArray[np.float32] | None:
        """Vectors from the cache if present and intact; None (with a warning) otherwise."""
        import numpy as np

        try:
            header, payload = read_checked(path)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except CorruptCacheError as err:
            self._warn_rebuild(path, err.reason)
            return None
        except OSError as err:
            self._warn_rebuild(path, f"cannot read it: {err.strerror or err}")
            return None
        for field, expected in key_fields.items():
            if header.get(field) != expected:
                self._warn_rebuild(path, f"its {field} does not match this corpus and model")
                return None
        dims = header.get("dims")
        if not isinstance(dims, int) or dims < 1 or header.get("dtype") != "<f4":
            self._warn_rebuild(path, "its header has no valid dimensions")
            return None
        if len(payload) != rows * dims * 4:
            self._warn_rebuild(path, f"{len(payload)} bytes cannot hold {rows}x{dims} floats")
            return None
        matrix = np.frombuffer(payload, dtype="<f4").reshape(rows, dims).astype(np.float32)
        if not bool(np.isfinite(matrix).all()):
            self._warn_rebuild(path, "it holds non-finite values")
            return None
        return matrix

    def store(self, path: Path, key_fields: dict[str, Any], matrix: NDArray[np.float32]) -> None:
        header = {**key_fields, "dims": int(matrix.shape[1]), "dtype": "<f4"}
        try:
            write_checked(path, header, matrix.astype("<f4").tobytes())
        except OSError as err:
            self.events.warning(
                f"could not write the vector cache {path} ({err.strerror or err}); "
                "the next run will embed the corpus again (check --cache-dir)"
            )

    def _warn_rebuild(self, path: Path, reason: str) -> None:
        self.events.warning(f"ignoring the damaged vector cache {path} ({reason}); rebuilding it")


class EmbeddingSearcher:
    """Cosine ranking over the embedded entries of one corpus.

    Its vectors change only in one case: cached vectors whose size no longer matches what the
    model returns for a question (the model changed behind an unchanged name and digest) are
    re-embedded once, with a warning, during that search.
    """

    def __init__(
        self,
        backend: EmbeddingBackend,
        corpus: Corpus,
        matrix: NDArray[np.float32],
        cache_path: Path | None,
        *,
        cache_hit: bool = False,
    ) -> None:
        self.backend = backend
        self.corpus = corpus
        self.cache_path = cache_path
        self.cache_hit = cache_hit
        self._matrix = matrix

    @property
    def name(self) -> str:
        return self.backend.name

    @property
    def embedder(self) -> Embedder:
        return self.backend.embedder

    @property
    def dimensions(self) -> int | None:
        if self._matrix.shape[0]:
            return int(self._matrix.shape[1])
        return self.embedder.dimensions

    def search(self, query: str, k: int) -> list[SearchHit]:
        import numpy as np

        if k < 1 or not has_words(query) or not len(self.corpus):
            return []
        scores = self.similarities(query)
        # A stable sort on the negated scores keeps schema order among ties.
        order = np.argsort(-scores, kind="stable")[:k]
        fmt = self.backend.fmt
        texts = self.corpus.texts(fmt)
        tokens = self.corpus.token_counts(fmt)
        coordinates = self.corpus.coordinates
        return [
            SearchHit(
                coordinate=coordinates[position],
                text=texts[position],
                score=float(scores[position]),
                rank=rank,
                tokens=tokens[position],
            )
            for rank, position in enumerate((int(p) for p in order), start=1)
        ]

    def similarities(self, query: str) -> NDArray[np.float64]:
        """The cosine of the question with every corpus entry, in corpus order.

        For callers that fuse rankings (hybrid). Any text is embedded as given, so check
        for words first if an empty question should mean no results.
        """
        import numpy as np

        if not len(self.corpus):
            return np.zeros(0, dtype=np.float64)
        query_vector = self.embedder.embed_query(query)
        if query_vector.shape[-1] != self._matrix.shape[1] and self.cache_hit:
            self._re_embed(query_vector.shape[-1])
        if query_vector.shape[-1] != self._matrix.shape[1]:
            raise SchemanavError(
                f"{self.name} embedded the question with {query_vector.shape[-1]} dimensions "
                f"but the corpus with {self._matrix.shape[1]}: check the embedding model"
            )
        unit_query = _normalised(query_vector.reshape(1, -1))[0]
        scores: NDArray[np.float64] = (self._matrix @ unit_query).astype(np.float64)
        return scores

    def _re_embed(self, dimensions: int) -> None:
        backend = self.backend
        backend.events.warning(
            f"cached vectors in {self.cache_path} have {self._matrix.shape[1]} dimensions "
            f"but {self.embedder.name} now returns {dimensions}; re-embedding"
        )
        self._matrix = backend.embed_corpus(self.corpus)
        self.cache_hit = False
        if self.cache_path is not None:
            backend.store(self.cache_path, backend.key_fields(self.corpus), self._matrix)


class OllamaEmbeddingOptions(BaseModel):
    """Options of `embedding` and `hybrid` (`-o KEY VALUE`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ollama_host: str | None = Field(
        default=None, description=f"Ollama URL [default: $OLLAMA_HOST or {DEFAULT_OLLAMA_HOST}]"
    )
    embedding_model: str = Field(default=DEFAULT_EMBEDDING_MODEL, description="Ollama model")
    embedding_batch_size: int = Field(
        default=DEFAULT_EMBEDDING_BATCH_SIZE, ge=1, description="texts per /api/embed call"
    )
    embedding_timeout: float = Field(
        default=DEFAULT_EMBEDDING_TIMEOUT, gt=0, description="seconds per embedding request"
    )
    query_prefix: str = Field(default=DEFAULT_QUERY_PREFIX, description="prepended to questions")
    document_prefix: str = Field(default="", description="prepended to corpus entries")

    def embedder(self) -> OllamaEmbedder:
        """Host from the options, else `$OLLAMA_HOST`, else Ollama's default address."""
        return OllamaEmbedder(
            self.embedding_model,
            host=self.ollama_host or os.environ.get("OLLAMA_HOST") or None,
            batch_size=self.embedding_batch_size,
            timeout=self.embedding_timeout,
            query_prefix=self.query_prefix,
            document_prefix=self.document_prefix,
        )


class LocalEmbeddingOptions(BaseModel):
    """Options of `embedding-local` and `hybrid-local` (`-o KEY VALUE`). Prompts come from
    the model's own configuration, so there is no prefix to set."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    local_model: str = Field(
        default=DEFAULT_LOCAL_MODEL, description="sentence-transformers model name or path"
    )
    embedding_batch_size: int = Field(
        default=DEFAULT_EMBEDDING_BATCH_SIZE, ge=1, description="texts per encode call"
    )

    def embedder(self) -> SentenceTransformerEmbedder:
        return SentenceTransformerEmbedder(self.local_model, batch_size=self.embedding_batch_size)


@register_backend("embedding", options=OllamaEmbeddingOptions)
def ollama_embedding_backend(
    options: OllamaEmbeddingOptions, context: BackendContext
) -> EmbeddingBackend:
    return EmbeddingBackend(
        options.embedder(),
        context.fmt,
        kind="embedding",
        cache_dir=context.cache_dir,
        events=context.events,
    )


@register_backend("embedding-local", options=LocalEmbeddingOptions)
def local_embedding_backend(
    options: LocalEmbeddingOptions, context: BackendContext
) -> EmbeddingBackend:
    return EmbeddingBackend(
        options.embedder(),
        context.fmt,
        kind="embedding-local",
        cache_dir=context.cache_dir,
        events=context.events,
    )


__all__ = [
    "EmbeddingBackend",
    "EmbeddingSearcher",
    "LocalEmbeddingOptions",
    "OllamaEmbeddingOptions",
]
