"""The corpus of the configured schema, with an on-disk cache for file sources.

Parsing GitHub's 1.5 MB SDL and counting tokens for 6,640 entries takes seconds; a repeated
`schemanav search` should not pay that again. The cache is keyed by the file's bytes, so an
edited schema is re-read; it is a checked file (`schemanav.cache`), like every other cache, so a
truncated or edited one is rebuilt, never trusted. Every column of a payload that passes the
checksum is checked too (`packed.unpack`: its length, the range of its numbers), so a cache
written by another version or by hand is rebuilt with a one-line notice instead of failing
later with an IndexError.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from schemanav.cache import (
    CORPUS_CACHE,
    PRICE_CACHE,
    CorruptCacheError,
    read_checked,
    read_matching,
    write_checked,
)
from schemanav.corpus.model import Corpus, build_corpus
from schemanav.corpus.packed import pack, unpack
from schemanav.corpus.pricing import SchemaPrice, price_schema
from schemanav.events import Events, SilentEvents
from schemanav.limits import schema_byte_cap
from schemanav.process import no_cyclic_gc
from schemanav.schema.loading import LoadedSchema, graphql_core_version, schema_file_sha256
from schemanav.schema.source import is_url, open_schema, schema_source
from schemanav.settings import Settings
from schemanav.tokens import ENCODING_NAME, cache_ranks_in


@dataclass(frozen=True)
class CorpusLoad:
    """A corpus, the spec violations of its schema, and whether it came from the cache."""

    corpus: Corpus
    violations: tuple[str, ...]
    from_cache: bool


def open_corpus(
    settings: Settings,
    events: Events | None = None,
    loaded: Callable[[], LoadedSchema] | None = None,
    digest: str | None = None,
) -> CorpusLoad:
    """The corpus of the configured schema; file sources go through the corpus cache.

    A cache file that is there but cannot be trusted is reported to `events` and rebuilt.
    `loaded`, when given, provides the parsed schema on a cache miss (a caller that holds it
    anyway spares a second parse); `digest`, the schema file's SHA-256 when the caller has
    it (a navigator reads and hashes its file once for every cache).
    """
    events = events or SilentEvents()
    cache_ranks_in(settings.cache_dir, events.warning)  # whatever counts tokens next
    load = loaded or (lambda: open_schema(settings))
    source = schema_source(settings)
    if is_url(source):
        schema = load()
        return CorpusLoad(build_corpus(schema.schema), schema.violations, from_cache=False)
    # Bounded like every schema read (a FIFO or /dev/zero must not be read without end).
    digest = digest or schema_file_sha256(Path(source), schema_byte_cap())
    cache_file = CORPUS_CACHE.path(settings.cache_dir, digest)
    identity = corpus_identity(digest)
    with no_cyclic_gc():  # tens of thousands of long-lived objects, no garbage cycles
        cached = _read_cache(cache_file, digest, identity)
    if isinstance(cached, CorpusLoad):
        return cached
    if cached is not None:
        events.warning(f"the corpus cache {cache_file} is not usable ({cached}); rebuilding it")
    schema = load()
    corpus = dataclasses.replace(build_corpus(schema.schema), identity=identity)
    payload = {**corpus.to_payload(), "violations": list(schema.violations)}
    header = CORPUS_CACHE.header(schema_sha256=digest)
    with contextlib.suppress(OSError):  # an unwritable cache only costs speed
        write_checked(cache_file, header, pack(payload))
    return CorpusLoad(corpus, schema.violations, from_cache=False)


def corpus_identity(schema_sha256: str) -> str:
    """A corpus built from a schema file, named in full: the file's bytes and the corpus code
    (`CORPUS_CACHE.version` changes with what a corpus holds)."""
    return f"schema-sha256:{schema_sha256}:corpus-v{CORPUS_CACHE.version}"


def _read_cache(path: Path, digest: str, identity: str) -> CorpusLoad | str | None:
    """The cached corpus; None when there is none; why not when it cannot be trusted."""
    found = read_matching(
        path, {"version": CORPUS_CACHE.version, "schema_sha256": digest}, "version or schema"
    )
    if not isinstance(found, tuple):
        return found
    try:
        payload = unpack(found[1])  # checks every column as it reads it
    except ValueError as err:
        return str(err)
    try:
        corpus = Corpus.from_payload(payload, identity=identity)
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        return f"not a corpus: {type(err).__name__}"
    return CorpusLoad(corpus, tuple(payload["violations"]), from_cache=True)


def open_price(
    settings: Settings,
    label: str,
    corpus: Corpus,
    loaded: Callable[[], LoadedSchema],
    digest: str | None = None,
) -> SchemaPrice:
    """What the schema costs; for a file source, the SDL and introspection JSON token counts
    come from a checked cache keyed by the file's bytes and graphql-core's version (pricing
    the JSON runs the introspection query over the whole schema: seconds on GitHub's).

    `loaded` is called only when the counts must be computed; `digest` is the file's SHA-256
    when the caller has it.
    """
    source = schema_source(settings)
    if is_url(source):
        digest = None
    elif digest is None:
        digest = schema_file_sha256(Path(source), schema_byte_cap())
    if digest is None:
        return price_schema(label, loaded(), corpus)
    header = PRICE_CACHE.header(
        schema_sha256=digest, encoding=ENCODING_NAME, graphql_core=graphql_core_version()
    )
    cache_file = PRICE_CACHE.path(settings.cache_dir, digest)
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
