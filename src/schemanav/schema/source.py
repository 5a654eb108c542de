"""Where the schema comes from: the configured source, the bundled default, the headers."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from schemanav.limits import schema_byte_cap
from schemanav.schema.loading import LoadedSchema, check_scheme, load_schema, parse_header
from schemanav.settings import Settings

BUNDLED_SCHEMA_LABEL = "moviedb (bundled)"


def bundled_path(name: str) -> Path:
    """A data file shipped inside the package (the Movie DB schema and its questions)."""
    return Path(str(resources.files("schemanav") / "data" / name))


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def schema_source(settings: Settings) -> str:
    if settings.schema:
        check_scheme(settings.schema)
        return settings.schema
    return str(bundled_path("moviedb.graphqls"))


def schema_label(settings: Settings) -> str:
    return settings.schema or BUNDLED_SCHEMA_LABEL


def headers_from(settings: Settings) -> dict[str, str]:
    return dict(parse_header(raw) for raw in settings.header)


def open_schema(settings: Settings) -> LoadedSchema:
    """The full schema (needed to validate operations and print definitions)."""
    return load_schema(
        schema_source(settings),
        headers=headers_from(settings),
        timeout=settings.timeout,
        max_bytes=schema_byte_cap(),
    )
