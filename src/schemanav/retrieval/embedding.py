"""Dense retrieval: embed every corpus entry once, rank by cosine with one matrix product.

A schema has thousands of entries at most, so a normalised float32 matrix in memory beats
any vector database on both speed and moving parts. Embedding the corpus is the slow part
(minutes through Ollama for GitHub's 6,640 fields), so vectors are cached on disk, keyed by
everything that decides them: the embedder's identity (model, digest, document prefix), the
rendering format and the rendered texts' hash. A damaged cache file is reported in
`warnings` and rebuilt, never used.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.cache import CorruptCacheError, cache_key, read_checked, write_checked
from schemanav.errors import SchemanavError
from schemanav.retrieval.base import SearchHit, has_words
from schemanav.retrieval.embedders import (
    Embedder,
    OllamaEmbedder,
    ProgressCallback,
    SentenceTransformerEmbedder,
)
from schemanav.retrieval.registry import register_backend

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from schemanav.corpus import Corpus, Format
    from schemanav.settings import Settings

VECTOR_CACHE_VERSION = 1
VECTOR_CACHE_KIND = "embedding-vectors"


def _normalised(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    """Rows scaled to unit length; an all-zero row stays zero (cosine 0 with anything)."""
    import numpy as np

    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    result: NDArray[np.float32] = (matrix / norms).astype(np.float32, copy=False)
    return result


class EmbeddingBackend:
    """Cosine ranking over embedded corpus entries; satisfies `SearchBackend`.

    `kind` is the registry name (`embedding`, `embedding-local`) and prefixes `name`.
    Warnings (a corrupt or unwritable cache) collect in `warnings` for the caller to show;
    `progress`, when set, hears `(done, total)` while documents are being embedded.
    """

    def __init__(
        self,
        embedder: Embedder,
        fmt: Format,
        *,
        kind: str = "embedding",
        cache_dir: Path | None = None,
        progress: ProgressCallback | None = None,
    ) -> None:
        self.embedder = embedder
        self.fmt = fmt
        self.kind = kind
        self.cache_dir = cache_dir
        self.progress = progress
        self.warnings: list[str] = []
        self.cache_path: Path | None = None
        self.cache_hit = False
        self._corpus: Corpus | None = None
        self._matrix: NDArray[np.float32] | None = None

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.embedder.name}"

    @property
    def query_prefix(self) -> str:
        return self.embedder.query_prefix

    @property
    def document_prefix(self) -> str:
        return self.embedder.document_prefix

    @property
    def dimensions(self) -> int | None:
        if self._matrix is not None and self._matrix.shape[0]:
            return int(self._matrix.shape[1])
        return self.embedder.dimensions

    def describe(self) -> str:
        """The model and the exact prefixes in use, for the CLI to print before indexing."""
        return f"{self.name}: {self.embedder.describe()}"

    def set_progress(self, progress: ProgressCallback | None) -> None:
        self.progress = progress

    def index(self, corpus: Corpus) -> None:
        self._corpus = corpus
        self.cache_hit = False
        texts = corpus.texts(self.fmt)
        if not texts:
            import numpy as np

            self._matrix = np.zeros((0, 0), dtype=np.float32)
            return
        key_fields = self._key_fields(corpus)
        if self.cache_dir is not None:
            self.cache_path = self.cache_dir / "vectors" / f"{cache_key(key_fields)}.vec"
            cached = self._load(self.cache_path, key_fields, len(texts))
            if cached is not None:
                self._matrix = cached
                self.cache_hit = True
                return
        matrix = _normalised(self.embedder.embed_documents(texts, self.progress))
        if matrix.ndim != 2 or matrix.shape[0] != len(texts):
            raise SchemanavError(
                f"{self.name} returned {matrix.shape[0]} vectors for {len(texts)} corpus "
                "entries: check the embedding model (--embedding-model / --local-model)"
            )
        self._matrix = matrix
        if self.cache_path is not None:
            self._store(self.cache_path, key_fields, matrix)

    def search(self, query: str, k: int) -> list[SearchHit]:
        import numpy as np

        if self._corpus is None or self._matrix is None:
            raise RuntimeError("index(corpus) must be called before search()")
        if k < 1 or not has_words(query) or not len(self._corpus):
            return []
        scores = self.similarities(query)
        # A stable sort on the negated scores keeps schema order among ties.
        order = np.argsort(-scores, kind="stable")[:k]
        texts = self._corpus.texts(self.fmt)
        tokens = self._corpus.token_counts(self.fmt)
        coordinates = self._corpus.coordinates
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

        if self._corpus is None or self._matrix is None:
            raise RuntimeError("index(corpus) must be called before similarities()")
        if not len(self._corpus):
            return np.zeros(0, dtype=np.float64)
        query_vector = self.embedder.embed_query(query)
        if query_vector.shape[-1] != self._matrix.shape[1] and self.cache_hit:
            # The model changed behind an unchanged name and digest: rebuild from scratch.
            self.warnings.append(
                f"cached vectors in {self.cache_path} have {self._matrix.shape[1]} dimensions "
                f"but {self.embedder.name} now returns {query_vector.shape[-1]}; re-embedding"
            )
            self._matrix = _normalised(
                self.embedder.embed_documents(self._corpus.texts(self.fmt), self.progress)
            )
            self.cache_hit = False
            if self.cache_path is not None:
                self._store(self.cache_path, self._key_fields(self._corpus), self._matrix)
        if query_vector.shape[-1] != self._matrix.shape[1]:
            raise SchemanavError(
                f"{self.name} embedded the question with {query_vector.shape[-1]} dimensions "
                f"but the corpus with {self._matrix.shape[1]}: check the embedding model"
            )
        unit_query = _normalised(query_vector.reshape(1, -1))[0]
        scores: NDArray[np.float64] = (self._matrix @ unit_query).astype(np.float64)
        return scores

    # -- vector cache ---------------------------------------------------------------

    def _key_fields(self, corpus: Corpus) -> dict[str, Any]:
        return {
            "version": VECTOR_CACHE_VERSION,
            "kind": VECTOR_CACHE_KIND,
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

    def _store(self, path: Path, key_fields: dict[str, Any], matrix: NDArray[np.float32]) -> None:
        header = {**key_fields, "dims": int(matrix.shape[1]), "dtype": "<f4"}
        try:
            write_checked(path, header, matrix.astype("<f4").tobytes())
        except OSError as err:
            self.warnings.append(
                f"could not write the vector cache {path} ({err.strerror or err}); "
                "the next run will embed the corpus again (check --cache-dir)"
            )

    def _warn_rebuild(self, path: Path, reason: str) -> None:
        self.warnings.append(f"ignoring the damaged vector cache {path} ({reason}); rebuilding it")


@register_backend("embedding")
def ollama_embedding_backend(fmt: Format, settings: Settings) -> EmbeddingBackend:
    return EmbeddingBackend(
        OllamaEmbedder.from_settings(settings),
        fmt,
        kind="embedding",
        cache_dir=settings.cache_dir,
    )


@register_backend("embedding-local")
def local_embedding_backend(fmt: Format, settings: Settings) -> EmbeddingBackend:
    return EmbeddingBackend(
        SentenceTransformerEmbedder.from_settings(settings),
        fmt,
        kind="embedding-local",
        cache_dir=settings.cache_dir,
    )


__all__ = ["EmbeddingBackend", "ProgressCallback"]
