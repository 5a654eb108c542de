"""Stage 1 — loading: a GraphQL schema from an SDL file, an introspection JSON file or a URL.

Nothing here knows about corpora, retrieval or front ends; every later stage starts from a
`LoadedSchema`.
"""

from schemanav.schema.loading import (
    LoadedSchema,
    describe_violations,
    load_schema,
    parse_header,
)
from schemanav.schema.source import (
    bundled_path,
    headers_from,
    is_url,
    open_schema,
    schema_label,
    schema_source,
)

__all__ = [
    "LoadedSchema",
    "bundled_path",
    "describe_violations",
    "headers_from",
    "is_url",
    "load_schema",
    "open_schema",
    "parse_header",
    "schema_label",
    "schema_source",
]
