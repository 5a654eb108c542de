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
from dataclasses import dataclass
from pathlib import Path

from schemanav.cache import CorruptCacheError, read_checked, write_checked
from schemanav.corpus.model import Corpus, build_corpus
from schemanav.schema.source import is_url, open_schema, schema_source
from schemanav.settings import Settings

CORPUS_CACHE_VERSION = 3


@dataclass(frozen=True)
class CorpusLoad:
    """A corpus, the spec violations of its schema, and whether it came from the cache."""

    corpus: Corpus
    violations: tuple[str, ...]
    from_cache: bool


def open_corpus(settings: Settings) -> CorpusLoad:
    """The corpus of the configured schema; file sources go through the corpus cache."""
    source = schema_source(settings)
    if is_url(source):
        loaded = open_schema(settings)
        return CorpusLoad(build_corpus(loaded.schema), loaded.violations, from_cache=False)
    try:
        digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
    except OSError:
        loaded = open_schema(settings)  # raises the proper one-line error
        digest = loaded.content_hash
    cache_file = settings.cache_dir / "corpus" / f"{digest[:40]}-v{CORPUS_CACHE_VERSION}.json"
    cached = _read_cache(cache_file, digest)
    if cached is not None:
        return cached
    loaded = open_schema(settings)
    corpus = build_corpus(loaded.schema)
    payload = {**corpus.to_payload(), "violations": list(loaded.violations)}
    header = {"kind": "corpus", "version": CORPUS_CACHE_VERSION, "schema_sha256": digest}
    with contextlib.suppress(OSError):  # an unwritable cache only costs speed
        write_checked(cache_file, header, json.dumps(payload).encode("utf-8"))
    return CorpusLoad(corpus, loaded.violations, from_cache=False)


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
