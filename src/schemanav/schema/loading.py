"""Loading a GraphQL schema from an SDL file, an introspection JSON file or a live endpoint.

Real-world schemas often break a rule of the newest spec (GitHub's does: deprecation mismatches
between interfaces and implementations). Navigation does not care, so a schema is loaded with
graphql-core's validation switched off, its violations are kept for one warning, and operations
can still be validated against it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from schemanav.errors import InputError
from schemanav.wording import counted

if TYPE_CHECKING:
    from graphql import GraphQLSchema, IntrospectionQuery

SDL_SUFFIXES = (".graphql", ".graphqls", ".gql", ".sdl")
JSON_SUFFIXES = (".json",)


@dataclass(frozen=True)
class LoadedSchema:
    """A parsed schema with where it came from and what the spec validator said about it."""

    source: str
    schema: GraphQLSchema = field(repr=False, compare=False)
    content_hash: str
    violations: tuple[str, ...] = ()
    source_sdl: str | None = field(default=None, repr=False, compare=False)

    @property
    def sdl(self) -> str:
        """The SDL text as written when loaded from SDL, else the schema printed as SDL."""
        if self.source_sdl is not None:
            return self.source_sdl
        from graphql import print_schema

        return print_schema(self.schema)

    def introspection_json(self) -> str:
        """The compact JSON an endpoint answers to the standard introspection query."""
        from graphql import introspection_from_schema

        return json.dumps({"data": introspection_from_schema(self.schema)})


def describe_violations(violations: tuple[str, ...]) -> str:
    """One warning line for a schema that breaks spec rules but was loaded anyway."""
    return (
        f"the schema breaks {counted(len(violations), 'GraphQL spec rule')} "
        f"(first: {violations[0]}); loaded anyway"
    )


def parse_header(raw: str) -> tuple[str, str]:
    """Split `Name: value`; the value is a secret and never appears in an error."""
    name, sep, value = raw.partition(":")
    name = name.strip()
    if not sep or not name or any(c.isspace() for c in name):
        shown = name if sep and name else "the header"
        raise InputError(
            f"--header must look like 'Name: value' ({shown} does not); the value is never printed"
        )
    return name, value.strip()


def load_schema(
    source: str,
    *,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> LoadedSchema:
    """Load from a path (SDL or introspection JSON) or an http(s) URL (live introspection)."""
    if source.startswith(("http://", "https://")):
        return _load_from_endpoint(source, headers or {}, timeout)
    path = Path(source)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"schema file not found: {source} (pass --schema PATH or URL)") from None
    except IsADirectoryError:
        raise InputError(f"schema path is a directory, not a file: {source}") from None
    except OSError as err:
        raise InputError(f"cannot read schema file {source}: {err.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"schema file {source} is not UTF-8 text") from None
    if path.suffix.lower() in JSON_SUFFIXES or (
        path.suffix.lower() not in SDL_SUFFIXES and text.lstrip().startswith("{")
    ):
        return _from_introspection_text(text, source)
    return schema_from_sdl(text, source)


def schema_from_sdl(text: str, source: str) -> LoadedSchema:
    """Build a schema from SDL text, reporting syntax errors as `source:line:column: message`."""
    from graphql import GraphQLError, GraphQLSyntaxError, build_ast_schema, parse

    try:
        document = parse(text, no_location=False)
    except GraphQLSyntaxError as err:
        line, column = _first_location(err)
        raise InputError(f"{source}:{line}:{column}: {err.message}") from None
    try:
        schema = build_ast_schema(document, assume_valid=True, assume_valid_sdl=True)
    except (GraphQLError, TypeError) as err:
        raise InputError(f"{source}: not a usable schema: {_one_line(str(err))}") from None
    if schema.query_type is None:
        raise InputError(f"{source}: the schema defines no query root type (type Query)")
    return _finish(schema, source, text, source_sdl=text)


def _from_introspection_text(text: str, source: str) -> LoadedSchema:
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"{source}:{err.lineno}:{err.colno}: invalid JSON ({err.msg})") from None
    return schema_from_introspection(payload, source, text)


def schema_from_introspection(payload: Any, source: str, text: str | None = None) -> LoadedSchema:
    """Build a schema from `{"data": {"__schema": …}}` or `{"__schema": …}`."""
    from graphql import GraphQLError, build_client_schema

    result = payload.get("data", payload) if isinstance(payload, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("__schema"), dict):
        raise InputError(
            f"{source} is not an introspection result: expected a JSON object with "
            '"__schema" or "data": {"__schema": …}'
        )
    try:
        schema = build_client_schema(cast("IntrospectionQuery", result), assume_valid=True)
    except (GraphQLError, TypeError, KeyError, ValueError) as err:
        raise InputError(
            f"{source} is not a usable introspection result: {_one_line(str(err))}"
        ) from None
    return _finish(schema, source, text if text is not None else json.dumps(result))


def _load_from_endpoint(url: str, headers: dict[str, str], timeout: float) -> LoadedSchema:
    import httpx
    from graphql import get_introspection_query

    body = {"query": get_introspection_query(descriptions=True), "operationName": None}
    request_headers = {"Content-Type": "application/json", "Accept": "application/json"}
    request_headers.update(headers)
    try:
        response = httpx.post(url, json=body, headers=request_headers, timeout=timeout)
    except httpx.TimeoutException:
        raise InputError(
            f"introspection request to {url} timed out after {timeout:g} s "
            "(raise --timeout or check the endpoint)"
        ) from None
    except httpx.HTTPError as err:
        reason = type(err).__name__
        raise InputError(
            f"cannot reach {url} ({reason}): check the URL and that the server is running"
        ) from None
    if response.status_code >= 400:
        hint = " (check the --header credentials)" if response.status_code in (401, 403) else ""
        raise InputError(
            f"{url} answered HTTP {response.status_code} {response.reason_phrase} "
            f"to the introspection query{hint}"
        )
    try:
        payload = response.json()
    except ValueError:
        raise InputError(f"{url} did not answer with JSON to the introspection query") from None
    if isinstance(payload, dict) and payload.get("errors") and not payload.get("data"):
        first = payload["errors"][0]
        message = first.get("message", first) if isinstance(first, dict) else first
        raise InputError(f"{url} refused the introspection query: {_one_line(str(message))}")
    return schema_from_introspection(payload, url, response.text)


def _finish(
    schema: GraphQLSchema, source: str, text: str, *, source_sdl: str | None = None
) -> LoadedSchema:
    from graphql import validate_schema

    # assume_valid leaves the cached result empty; compute the real violations once, then
    # restore "valid" so that operations can still be validated against the schema.
    schema._validation_errors = None
    violations = tuple(_one_line(err.message) for err in validate_schema(schema))
    schema._validation_errors = []
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return LoadedSchema(
        source=source,
        schema=schema,
        content_hash=digest,
        violations=violations,
        source_sdl=source_sdl,
    )


def _first_location(err: Any) -> tuple[int, int]:
    locations = getattr(err, "locations", None) or []
    if locations:
        return locations[0].line, locations[0].column
    return 1, 1


def _one_line(text: str) -> str:
    return " ".join(text.split())
