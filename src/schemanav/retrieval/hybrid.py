"""Hybrid retrieval: the structural backend's lexical evidence fused with embeddings.

Lexical matching misses paraphrase ("who directed this film" vs `Movie.directors`);
embeddings miss exact schema vocabulary and know nothing of the graph. Reciprocal rank
fusion (Cormack et al., 2009) combines the two rankings without calibrating their scores:

    fused(d) = Σ_r 1 / (c + rank_r(d)),   c = 60

where each ranking only counts the entries it actually matched (BM25F > 0 for the lexical
side, every entry for the cosine side). The fused scores then go through the structural
backend's own ranking: closeness to the root was already applied to the lexical side, and
paths from the root are placed before each hit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from schemanav.retrieval.base import BackendContext, Ranking, SearchHit, has_words
from schemanav.retrieval.embedding import (
    EmbeddingBackend,
    EmbeddingSearcher,
    LocalEmbeddingOptions,
    OllamaEmbeddingOptions,
    local_embedding_backend,
    ollama_embedding_backend,
)
from schemanav.retrieval.registry import register_backend
from schemanav.retrieval.structural import StructuralBackend, StructuralSearcher

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from schemanav.corpus import Corpus

RRF_CONSTANT = 60.0


def reciprocal_rank_fusion(
    *rankings: tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]],
    constant: float = RRF_CONSTANT,
) -> npt.NDArray[np.float64]:
    """Σ over rankings of 1 / (constant + rank), for the entries each ranking matched.

    Each ranking is (scores, matched): higher scores rank first (rank 1 is the best);
    entries outside `matched` get nothing from that ranking.
    """
    import numpy as np

    fused = np.zeros(rankings[0][0].shape[0]) if rankings else np.zeros(0)
    for scores, matched in rankings:
        order = np.argsort(-scores, kind="stable")
        ranks = np.empty_like(order)
        ranks[order] = np.arange(1, order.size + 1)
        fused += np.where(matched, 1.0 / (constant + ranks), 0.0)
    return fused


class HybridBackend:
    """Structural lexical scores ⊕ embedding cosines (RRF), ranked with paths from the root."""

    def __init__(
        self, structural: StructuralBackend, embedding: EmbeddingBackend, *, kind: str = "hybrid"
    ) -> None:
        self.structural = structural
        self.embedding = embedding
        self.kind = kind

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.embedding.embedder.name}"

    def index(self, corpus: Corpus) -> HybridSearcher:
        return HybridSearcher(
            self.name, self.structural.index(corpus), self.embedding.index(corpus)
        )


@dataclass(frozen=True, eq=False)
class HybridSearcher:
    name: str
    structural: StructuralSearcher
    embedding: EmbeddingSearcher

    def search(self, query: str, k: int) -> list[SearchHit]:
        if k < 1 or not has_words(query):
            return []
        fused = self._fused(query, self.embedding.similarities(query))
        return self.structural.rank(fused, k, detours=self.structural.set_detours(query))

    def ranking(self, query: str, k: int) -> Ranking:
        """What `search` ranks, as the structural backend's `Ranking` (`RanksWithoutHits`):
        with its reading and, for a request to change something, the wide ranking a large
        slice reads, both fused with the same cosines."""
        if k < 1 or not has_words(query):
            return Ranking((), ())
        cosine = self.embedding.similarities(query)
        return self.structural.ranked(
            query, k, lambda asked, weight: self._fused(asked, cosine, weight)
        )

    def _fused(
        self, query: str, cosine: npt.NDArray[np.float64], write_weight: float | None = None
    ) -> npt.NDArray[np.float64]:
        """The structural scores (with `write_weight`, `search_scores`) fused with `cosine`."""
        lexical = self.structural.search_scores(query, write_weight)
        return reciprocal_rank_fusion((lexical, lexical > 0), (cosine, cosine > -2.0))


def _hybrid(context: BackendContext, embedding: EmbeddingBackend) -> HybridBackend:
    structural = StructuralBackend(
        context.fmt, max_paths=context.max_paths, cache_dir=context.cache_dir, events=context.events
    )
    return HybridBackend(structural, embedding, kind=embedding.kind.replace("embedding", "hybrid"))


@register_backend("hybrid", options=OllamaEmbeddingOptions)
def _hybrid_ollama_factory(
    options: OllamaEmbeddingOptions, context: BackendContext
) -> HybridBackend:
    return _hybrid(context, ollama_embedding_backend(options, context))


@register_backend("hybrid-local", options=LocalEmbeddingOptions)
def _hybrid_local_factory(options: LocalEmbeddingOptions, context: BackendContext) -> HybridBackend:
    return _hybrid(context, local_embedding_backend(options, context))
