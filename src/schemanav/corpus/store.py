"""The corpus of the configured schema, with an on-disk cache for file sources.

Parsing GitHub's 1.5 MB SDL and counting tokens for 6,640 entries takes seconds; a repeated
`schemanav search` should not pay that again. The cache is keyed by the file's bytes, so an
edited schema is re-read; it is a checked file (`schemanav.cache`), like every other cache, so a
truncated or edited one is rebuilt, never trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from schemanav.cache import CorruptCacheError, read_checked, write_checked
from schemanav.corpus.model import Corpus, build_corpus
from schemanav.corpus.pricing import SchemaPrice, price_schema
from schemanav.schema.loading import LoadedSchema
from schemanav.schema.source import is_url, open_schema, schema_source
from schemanav.settings import Settings
from schemanav.tokens import ENCODING_NAME

CORPUS_CACHE_VERSION = 3
PRICE_CACHE_VERSION = 1


@dataclass(frozen=True)
class CorpusLoad:
    """A corpus, the spec violations of its schema, and whether it came from the cache."""

    corpus: Corpus
    violations: tuple[str, ...]
    from_cache: bool


def open_corpus(
    settings: Settings, loaded: Callable[[], LoadedSchema] | None = None
) -> CorpusLoad:
    """The corpus of the configured schema; file sources go through the corpus cache.

    `loaded`, when given, provides the parsed schema on a cache miss (a caller that holds it
    anyway spares a second parse).
    """
    load = loaded or (lambda: open_schema(settings))
    source = schema_source(settings)
    if is_url(source):
        schema = load()
        return CorpusLoad(build_corpus(schema.schema), schema.violations, from_cache=False)
    try:
        digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
    except OSError:
        schema = load()  # raises the proper one-line error
        digest = schema.content_hash
    cache_file = settings.cache_dir / "corpus" / f"{digest[:40]}-v{CORPUS_CACHE_VERSION}.json"
    cached = _read_cache(cache_file, digest)
    if cached is not None:
        return cached
    schema = load()
    corpus = build_corpus(schema.schema)
    payload = {**corpus.to_payload(), "violations": list(schema.violations)}
    header = {"kind": "corpus", "version": CORPUS_CACHE_VERSION, "schema_sha256": digest}
    with contextlib.suppress(OSError):  # an unwritable cache only costs speed
        write_checked(cache_file, header, json.dumps(payload).encode("utf-8"))
    return CorpusLoad(corpus, schema.violations, from_cache=False)


def _read_cache(path: Path, digest: str) -> CorpusLoad | None:
    """The cached corpus, or None when there is none or it cannot be trusted (then rebuilt)."""
    try:
        header, data = read_checked(path)
        if header.get("version") != CORPUS_CACHE_VERSION or header.get("schema_sha256") != digest:
            return None
        payload = json.loads(data)
        return CorpusLoad(
            Corpus.from_payload(payload),
            tuple(str(v) for v in payload["violations"]),
            from_cache=True,
        )
    except (OSError, CorruptCacheError, ValueError, KeyError, TypeError, AttributeError):
        return None


def open_price(
    settings: Settings, label: str, corpus: Corpus, loaded: Callable[[], LoadedSchema]
) -> SchemaPrice:
    """What the schema costs; for a file source, the SDL and introspection JSON token counts
    come from a checked cache keyed by the file's bytes and graphql-core's version (pricing
    the JSON runs the introspection query over the whole schema: seconds on GitHub's).

    `loaded` is called only when the counts must be computed.
    """
    source = schema_source(settings)
    try:
        digest = None if is_url(source) else hashlib.sha256(Path(source).read_bytes()).hexdigest()
    except OSError:
        digest = None
    if digest is None:
        return price_schema(label, loaded(), corpus)
    from importlib.metadata import version

    header = {
        "kind": "price",
        "version": PRICE_CACHE_VERSION,
        "schema_sha256": digest,
        "encoding": ENCODING_NAME,
        "graphql_core": version("graphql-core"),
    }
    cache_file = settings.cache_dir / "price" / f"{digest[:40]}-v{PRICE_CACHE_VERSION}.json"
    try:
        found, data = read_checked(cache_file)
        if all(found.get(key) == value for key, value in header.items()):
            counts = json.loads(data)
            sdl_tokens, introspection_tokens = counts["sdl_tokens"], counts["introspection_tokens"]
            if isinstance(sdl_tokens, int) and isinstance(introspection_tokens, int):
                return price_schema(label, None, corpus, (sdl_tokens, introspection_tokens))
    except (OSError, CorruptCacheError, ValueError, KeyError, TypeError):
        pass
    price = price_schema(label, loaded(), corpus)
    counts = {"sdl_tokens": price.sdl_tokens, "introspection_tokens": price.introspection_tokens}
    with contextlib.suppress(OSError):  # an unwritable cache only costs speed
        write_checked(cache_file, header, json.dumps(counts).encode("utf-8"))
    return price
