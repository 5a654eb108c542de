"""Stage 2 — rendering: one entry per field coordinate, four renderings, token costs, a cache.

Depends on `schema` only; retrieval backends read a `Corpus` and nothing else of the schema.
"""

from schemanav.corpus.model import (
    Argument,
    Corpus,
    CorpusEntry,
    Format,
    build_corpus,
    humanize,
)
from schemanav.corpus.pricing import SchemaPrice, price_schema
from schemanav.corpus.store import CorpusLoad, open_corpus, open_price

__all__ = [
    "Argument",
    "Corpus",
    "CorpusEntry",
    "CorpusLoad",
    "Format",
    "SchemaPrice",
    "build_corpus",
    "humanize",
    "open_corpus",
    "open_price",
    "price_schema",
]
