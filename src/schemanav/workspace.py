"""Turning a schema source into a corpus, with an on-disk cache for file sources.

Parsing GitHub's 1.5 MB SDL and counting tokens for 6,640 entries takes seconds; a repeated
`schemanav search` should not pay that again. The cache is keyed by the file's bytes, so an
edited schema is re-read, and a damaged cache file is ignored and rewritten.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from schemanav.cache import atomic_write_bytes
from schemanav.corpus import Argument, Corpus, CorpusEntry, Format, build_corpus
from schemanav.schema import LoadedSchema, load_schema, parse_header
from schemanav.settings import Settings

CORPUS_CACHE_VERSION = 2
BUNDLED_SCHEMA_LABEL = "moviedb (bundled)"


def bundled_path(name: str) -> Path:
    """A data file shipped inside the package (the Movie DB schema and its questions)."""
    return Path(str(resources.files("schemanav") / "data" / name))


def schema_source(settings: Settings) -> str:
    return settings.schema or str(bundled_path("moviedb.graphqls"))


def schema_label(settings: Settings) -> str:
    return settings.schema or BUNDLED_SCHEMA_LABEL


def headers_from(settings: Settings) -> dict[str, str]:
    return dict(parse_header(raw) for raw in settings.header)


def open_schema(settings: Settings) -> LoadedSchema:
    """The full schema (needed to validate operations and print definitions)."""
    return load_schema(
        schema_source(settings), headers=headers_from(settings), timeout=settings.timeout
    )


@dataclass(frozen=True)
class CorpusLoad:
    """A corpus, the spec violations of its schema, and whether it came from the cache."""

    corpus: Corpus
    violations: tuple[str, ...]
    from_cache: bool


def open_corpus(settings: Settings) -> CorpusLoad:
    """The corpus of the configured schema; file sources go through the corpus cache."""
    source = schema_source(settings)
    if source.startswith(("http://", "https://")):
        loaded = open_schema(settings)
        return CorpusLoad(build_corpus(loaded.schema), loaded.violations, from_cache=False)
    try:
        digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
    except OSError:
        loaded = open_schema(settings)  # raises the proper one-line error
        digest = loaded.content_hash
    cache_file = settings.cache_dir / "corpus" / f"{digest[:40]}-v{CORPUS_CACHE_VERSION}.json"
    cached = _read_corpus_cache(cache_file, digest)
    if cached is not None:
        return cached
    loaded = open_schema(settings)
    corpus = build_corpus(loaded.schema)
    _write_corpus_cache(cache_file, digest, corpus, loaded.violations)
    return CorpusLoad(corpus, loaded.violations, from_cache=False)


def _write_corpus_cache(
    path: Path, digest: str, corpus: Corpus, violations: tuple[str, ...]
) -> None:
    payload = {
        "version": CORPUS_CACHE_VERSION,
        "schema_sha256": digest,
        "roots": [corpus.query_root, corpus.mutation_root, corpus.subscription_root],
        "possible_types": corpus.possible_types,
        "type_descriptions": corpus.type_descriptions,
        "enum_values": corpus.enum_values,
        "input_fields": corpus.input_fields,
        "violations": list(violations),
        "entries": [
            [
                e.owner,
                e.field,
                e.return_type,
                e.description,
                [[a.name, a.type, a.description, a.default] for a in e.arguments],
                e.owner_is_interface,
                e.deprecation,
            ]
            for e in corpus.entries
        ],
        "tokens": {fmt.value: corpus.token_counts(fmt) for fmt in Format},
    }
    with contextlib.suppress(OSError):  # an unwritable cache only costs speed
        atomic_write_bytes(path, json.dumps(payload).encode("utf-8"))


def _read_corpus_cache(path: Path, digest: str) -> CorpusLoad | None:
    try:
        payload: Any = json.loads(path.read_bytes())
        if payload["version"] != CORPUS_CACHE_VERSION or payload["schema_sha256"] != digest:
            return None
        query_root, mutation_root, subscription_root = payload["roots"]
        entries = tuple(
            CorpusEntry(
                owner=owner,
                field=field,
                return_type=return_type,
                description=description,
                arguments=tuple(Argument(*arg) for arg in arguments),
                owner_is_interface=bool(is_interface),
                deprecation=deprecation,
            )
            for owner, field, return_type, description, arguments, is_interface, deprecation in (
                payload["entries"]
            )
        )
        corpus = Corpus(
            entries=entries,
            query_root=query_root,
            mutation_root=mutation_root,
            subscription_root=subscription_root,
            possible_types={k: tuple(v) for k, v in payload["possible_types"].items()},
            type_descriptions=dict(payload["type_descriptions"]),
            enum_values={k: tuple(v) for k, v in payload["enum_values"].items()},
            input_fields={k: tuple(v) for k, v in payload["input_fields"].items()},
        )
        # A count list of the wrong length raises ValueError: the cache is ignored.
        corpus.remember_token_counts(
            {fmt: [int(n) for n in payload["tokens"][fmt.value]] for fmt in Format}
        )
        return CorpusLoad(corpus, tuple(payload["violations"]), from_cache=True)
    except (OSError, ValueError, KeyError, TypeError):
        return None
