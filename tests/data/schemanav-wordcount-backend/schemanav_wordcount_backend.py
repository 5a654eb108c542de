"""A toy schemanav backend plugin: fields ranked by how many of the question's words they hold.

Importing this module registers the backend `wordcount` (the entry point names this module).
It takes one option, `-o min_words N`: a field holding fewer of the question's words is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from schemanav.corpus import Corpus
from schemanav.retrieval import BackendContext, SearchHit
from schemanav.retrieval.registry import register_backend

_WORD = re.compile(r"[a-z0-9]+")


class WordCountOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    min_words: int = 1


@dataclass(frozen=True)
class WordCountSearcher:
    corpus: Corpus
    texts: tuple[str, ...]
    tokens: tuple[int, ...]
    min_words: int
    name: str = "wordcount"

    def search(self, query: str, k: int) -> list[SearchHit]:
        words = set(_WORD.findall(query.lower()))
        scored = [
            (len(words & set(_WORD.findall(text.lower()))), position)
            for position, text in enumerate(self.texts)
        ]
        ranked = sorted(
            (item for item in scored if item[0] >= self.min_words), key=lambda item: -item[0]
        )[:k]
        coordinates = self.corpus.coordinates
        return [
            SearchHit(coordinates[at], self.texts[at], float(score), rank, self.tokens[at])
            for rank, (score, at) in enumerate(ranked, start=1)
        ]


@dataclass(frozen=True)
class WordCountBackend:
    context: BackendContext
    min_words: int

    def index(self, corpus: Corpus) -> WordCountSearcher:
        fmt = self.context.fmt
        return WordCountSearcher(
            corpus,
            tuple(corpus.texts(fmt)),
            tuple(corpus.token_counts(fmt)),
            self.min_words,
        )


@register_backend("wordcount", options=WordCountOptions)
def _wordcount(options: WordCountOptions, context: BackendContext) -> WordCountBackend:
    return WordCountBackend(context, options.min_words)
