"""Loading a GraphQL schema from an SDL file, an introspection JSON file or a live endpoint.

Real-world schemas often break a rule of the newest spec (GitHub's does: deprecation mismatches
between interfaces and implementations). Navigation does not care, so a schema is loaded with
graphql-core's validation switched off, its violations are kept for one warning, and operations
can still be validated against it. A type or field defined twice is one of those violations
(graphql-core keeps the last definition without a word).

Sizes are bounded (`schemanav.limits`): a file larger than `max_bytes` is refused before it is
read, a live response is streamed and stopped once its decompressed size passes `max_bytes`,
and the whole request has one deadline. JSON or SDL nested too deeply is a one-line error, and
header values and URL credentials echoed by a server are redacted from every message.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from schemanav.errors import InputError
from schemanav.limits import (
    DEFAULT_MAX_SCHEMA_BYTES,
    ERROR_BODY_BYTES,
    MAX_TYPE_REF_DEPTH,
    DeadlineExceeded,
    TooDeep,
    TooLarge,
    decoded_chunks,
    describe_bytes,
    loads_json,
    read_capped,
    run_with_deadline,
)
from schemanav.process import no_cyclic_gc
from schemanav.redaction import Redactor, public_url
from schemanav.text import one_line
from schemanav.textfile import decode_text, read_bytes
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
    """Split `Name: value`; the value is a secret and never appears in an error.

    HTTP sends headers as ASCII: a name with other characters, or a value with non-ASCII or
    control characters (a newline could smuggle in another header), is refused here.
    """
    name, sep, value = raw.partition(":")
    name = name.strip()
    if not sep or not name or not _is_token(name):
        shown = name if sep and name and name.isascii() and name.isprintable() else "the header"
        raise InputError(
            f"--header must look like 'Name: value' ({shown} does not); the value is never printed"
        )
    value = value.strip()
    if not value.isascii() or any(not c.isprintable() and c != "\t" for c in value):
        raise InputError(
            f"the value of --header {name} has non-ASCII or control characters, which HTTP "
            "headers cannot carry; the value is never printed"
        )
    return name, value


def _is_token(name: str) -> bool:
    allowed = "!#$%&'*+-.^_`|~"
    return all(c.isascii() and (c.isalnum() or c in allowed) for c in name)


def check_scheme(source: str) -> None:
    """A URL of another scheme (`ftp://…`) is refused as such, not read as a file path."""
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", source)
    if scheme and scheme.group(1).lower() not in ("http", "https") and len(scheme.group(1)) > 1:
        # (one letter is a Windows drive, `C://`)
        raise InputError(
            f"--schema {scheme.group(1)}://…: only http:// and https:// URLs are introspected; "
            "give an http(s) URL or a schema file (SDL or introspection JSON)"
        )


def load_schema(
    source: str,
    *,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
    max_bytes: int = DEFAULT_MAX_SCHEMA_BYTES,
) -> LoadedSchema:
    """Load from a path (SDL or introspection JSON) or an http(s) URL (live introspection).

    `timeout` bounds a whole live request; `max_bytes` bounds a file (before it is read) and a
    live response (decompressed).
    """
    if source.startswith(("http://", "https://")):
        return _load_from_endpoint(source, headers or {}, timeout, max_bytes)
    check_scheme(source)
    path = Path(source)
    text = decode_text(read_schema_bytes(path, max_bytes), path, "schema file")
    if path.suffix.lower() in JSON_SUFFIXES or (
        path.suffix.lower() not in SDL_SUFFIXES and text.lstrip().startswith("{")
    ):
        return _from_introspection_text(text, source)
    return schema_from_sdl(text, source)


def read_schema_bytes(path: Path, max_bytes: int) -> bytes:
    """A schema file's bytes, bounded by `max_bytes`; one error line for each failure."""
    return read_bytes(
        path,
        "schema file",
        hint=" (pass --schema PATH or URL)",
        max_bytes=max_bytes,
        too_large_hint=" (raise SCHEMANAV_MAX_SCHEMA_BYTES if it really is a schema)",
    )


def schema_from_sdl(text: str, source: str) -> LoadedSchema:
    """Build a schema from SDL text, reporting syntax errors as `source:line:column: message`."""
    from graphql import GraphQLError, GraphQLSyntaxError, build_ast_schema, parse

    # Without locations in the tree: every spec violation found below would otherwise locate
    # itself by scanning the text from its start (quadratic in the schema's size). Syntax
    # errors carry their position anyway; a schema that cannot be built is parsed again with
    # locations, for the error message.
    with no_cyclic_gc():
        try:
            document = parse(text, no_location=True)
        except GraphQLSyntaxError as err:
            line, column = _first_location(err)
            raise InputError(f"{source}:{line}:{column}: {err.message}") from None
        except RecursionError:
            raise InputError(f"{source}: the SDL is nested too deeply to parse") from None
        try:
            schema = build_ast_schema(document, assume_valid=True, assume_valid_sdl=True)
        except (GraphQLError, TypeError) as err:
            reason = _one_line(str(_located_build_error(text) or err))
            raise InputError(f"{source}: not a usable schema: {reason}") from None
        except RecursionError:
            raise InputError(f"{source}: a type reference is nested too deeply") from None
    if schema.query_type is None:
        raise InputError(f"{source}: the schema defines no query root type (type Query)")
    duplicates = _sdl_duplicates(document)
    return _finish(schema, source, text, source_sdl=text, duplicates=duplicates)


def _from_introspection_text(text: str, source: str) -> LoadedSchema:
    try:
        payload = loads_json(text)
    except json.JSONDecodeError as err:
        raise InputError(f"{source}:{err.lineno}:{err.colno}: invalid JSON ({err.msg})") from None
    except TooDeep:
        raise InputError(f"{source}: the JSON is nested too deeply to be a schema") from None
    return schema_from_introspection(payload, source, text)


def schema_from_introspection(
    payload: Any,
    source: str,
    text: str | None = None,
    *,
    redact: Redactor | None = None,
) -> LoadedSchema:
    """Build a schema from `{"data": {"__schema": …}}` or `{"__schema": …}`.

    `redact` cleans graphql-core's error texts, which quote the offending record (and so
    whatever a server echoed into it).
    """
    from graphql import GraphQLError, build_client_schema

    redact = redact or Redactor()
    result = payload.get("data", payload) if isinstance(payload, dict) else None
    if not isinstance(result, dict) or not isinstance(result.get("__schema"), dict):
        raise InputError(
            f"{source} is not an introspection result: expected a JSON object with "
            '"__schema" or "data": {"__schema": …}'
        )
    missing = [key for key in ("types",) if key not in result["__schema"]]
    if missing:
        raise InputError(
            f"{source} is not a whole introspection result: its __schema has no "
            f"{' or '.join(repr(key) for key in missing)}; save the whole answer to the "
            "introspection query (graphql-js's getIntrospectionQuery) and pass that file"
        )
    problem = _type_ref_problem(result["__schema"])
    if problem:
        raise InputError(f"{source} is not a usable introspection result: {problem}")
    try:
        with no_cyclic_gc():
            schema = build_client_schema(cast("IntrospectionQuery", result), assume_valid=True)
    except (GraphQLError, TypeError, KeyError, ValueError, AttributeError) as err:
        raise InputError(
            f"{source} is not a usable introspection result: {_short(redact(str(err)))}"
        ) from None
    except RecursionError:
        raise InputError(
            f"{source} is not a usable introspection result: nested too deeply"
        ) from None
    try:
        whole = text if text is not None else json.dumps(result)
    except RecursionError:
        raise InputError(f"{source}: the JSON is nested too deeply to be a schema") from None
    return _finish(schema, source, whole, duplicates=_introspection_duplicates(result["__schema"]))


def _type_ref_problem(schema: dict[str, Any]) -> str | None:
    """Why a type reference (`ofType` chain) cannot be right: deeper than any real schema's."""
    types = schema.get("types")
    for record in types if isinstance(types, list) else ():
        if not isinstance(record, dict):
            continue
        refs: list[Any] = []
        for key in ("fields", "inputFields"):
            members = record.get(key)
            for member in members if isinstance(members, list) else ():
                if isinstance(member, dict):
                    refs.append(member.get("type"))
                    args = member.get("args")
                    for arg in args if isinstance(args, list) else ():
                        if isinstance(arg, dict):
                            refs.append(arg.get("type"))
        for ref in refs:
            depth = 0
            while isinstance(ref, dict):
                depth += 1
                if depth > MAX_TYPE_REF_DEPTH:
                    name = record.get("name")
                    owner = f" in type {name}" if isinstance(name, str) else ""
                    return (
                        f"a type reference{owner} has more than {MAX_TYPE_REF_DEPTH} "
                        "ofType wrappers"
                    )
                ref = ref.get("ofType")
    return None


def _sdl_duplicates(document: Any) -> list[str]:
    """'type X is defined N times' and 'field X.y …' for what graphql-core silently merges."""
    from collections import Counter

    from graphql import TypeDefinitionNode

    definitions = [d for d in document.definitions if isinstance(d, TypeDefinitionNode)]
    found = _repeated("type", Counter(d.name.value for d in definitions))
    for definition in definitions:
        members = getattr(definition, "fields", None) or getattr(definition, "values", None) or ()
        counts = Counter(member.name.value for member in members)
        found += _repeated(f"field {definition.name.value}.", counts)
    return found


def _introspection_duplicates(schema: dict[str, Any]) -> list[str]:
    from collections import Counter

    types = [t for t in schema.get("types") or () if isinstance(t, dict)]
    found = _repeated("type", Counter(str(t.get("name")) for t in types))
    for record in types:
        for key in ("fields", "inputFields", "enumValues"):
            members = record.get(key)
            if isinstance(members, list):
                counts = Counter(str(m.get("name")) for m in members if isinstance(m, dict))
                found += _repeated(f"field {record.get('name')}.", counts)
    return found


def _repeated(what: str, counts: Any) -> list[str]:
    separator = "" if what.endswith(".") else " "
    return [
        f"{what}{separator}{name} is defined {count} times; only the last definition is used"
        for name, count in counts.items()
        if count > 1
    ]


def _load_from_endpoint(
    url: str, headers: dict[str, str], timeout: float, max_bytes: int
) -> LoadedSchema:
    import threading

    import httpx
    from graphql import get_introspection_query

    shown = public_url(url)
    redact = Redactor(headers, urls=[url])
    body = {"query": get_introspection_query(descriptions=True), "operationName": None}
    request_headers = {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Accept-Encoding": "gzip, identity",
    }
    request_headers.update(headers)

    def fetch(cancelled: threading.Event) -> tuple[int, str, bytes, str]:
        with (
            httpx.Client(timeout=timeout) as client,
            client.stream("POST", url, json=body, headers=request_headers) as response,
        ):
            ok = response.status_code < 300
            cap = max_bytes if ok else ERROR_BODY_BYTES
            chunks = decoded_chunks(response)
            content = read_capped(chunks, cap, cancelled, truncate=not ok)
            location = response.headers.get("location", "")
            return response.status_code, response.reason_phrase, content, location

    try:
        status, reason, content, location = run_with_deadline(fetch, timeout)
    except (httpx.TimeoutException, DeadlineExceeded):
        raise InputError(
            f"introspection request to {shown} timed out after {timeout:g} s "
            "(raise --timeout or check the endpoint)"
        ) from None
    except TooLarge:
        raise InputError(
            f"{shown} answered the introspection query with more than "
            f"{describe_bytes(max_bytes)} (raise SCHEMANAV_MAX_SCHEMA_BYTES if the schema "
            "really is that large)"
        ) from None
    except httpx.InvalidURL as err:
        raise InputError(f"invalid schema URL {shown}: {redact(str(err))}") from None
    except httpx.HTTPError as err:
        reason = type(err).__name__
        raise InputError(
            f"cannot reach {shown} ({reason}): check the URL and that the server is running"
        ) from None
    except (UnicodeError, ValueError) as err:
        raise InputError(f"cannot send the introspection query to {shown}: {err}") from None
    if 300 <= status < 400:  # not followed: the headers would go to wherever it points
        where = f" to {redact(public_url(location))}" if location else ""
        raise InputError(
            f"{shown} answered HTTP {status} {reason} (a redirect{where}) to the introspection "
            "query: pass the URL it points to as --schema"
        )
    if status >= 400:
        hint = " (check the --header credentials)" if status in (401, 403) else ""
        raise InputError(
            f"{shown} answered HTTP {status} {reason} to the introspection query{hint}"
        )
    try:
        text = content.decode("utf-8")
        payload = loads_json(text)
    except TooDeep:
        raise InputError(f"{shown} answered with JSON nested too deeply to be a schema") from None
    except ValueError:
        raise InputError(f"{shown} did not answer with JSON to the introspection query") from None
    if isinstance(payload, dict) and payload.get("errors") and not payload.get("data"):
        errors = payload["errors"]
        first = errors[0] if isinstance(errors, list) and errors else errors
        message = first.get("message", first) if isinstance(first, dict) else first
        raise InputError(f"{shown} refused the introspection query: {_short(redact(str(message)))}")
    return schema_from_introspection(payload, shown, text, redact=redact)


def _finish(
    schema: GraphQLSchema,
    source: str,
    text: str,
    *,
    source_sdl: str | None = None,
    duplicates: list[str] | None = None,
) -> LoadedSchema:
    from graphql import validate_schema

    # assume_valid leaves the cached result empty; compute the real violations once, then
    # restore "valid" so that operations can still be validated against the schema.
    schema._validation_errors = None
    try:
        found = [_one_line(err.message) for err in validate_schema(schema)]
    except RecursionError:
        raise InputError(f"{source}: the schema is nested too deeply to check") from None
    violations = tuple([*(duplicates or ()), *found])
    schema._validation_errors = []
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return LoadedSchema(
        source=source,
        schema=schema,
        content_hash=digest,
        violations=violations,
        source_sdl=source_sdl,
    )


def _located_build_error(text: str) -> Exception | None:
    """The error of building the schema from a tree with locations (for a message)."""
    from graphql import GraphQLError, build_ast_schema, parse

    try:
        build_ast_schema(parse(text), assume_valid=True, assume_valid_sdl=True)
    except (GraphQLError, TypeError) as err:
        return err
    return None


def _first_location(err: Any) -> tuple[int, int]:
    locations = getattr(err, "locations", None) or []
    if locations:
        return locations[0].line, locations[0].column
    return 1, 1


def _one_line(text: str) -> str:
    return one_line(text)


def _short(text: str, limit: int = 300) -> str:
    """One line of at most `limit` characters: server texts can be megabytes long."""
    line = one_line(text)
    return line if len(line) <= limit else line[: limit - 1] + "…"


@cache
def graphql_core_version() -> str:
    """graphql-core's version, which keys every cache of what it prints (definitions, slice
    facts, prices): read from its own `version.py`, so a warm command imports neither
    graphql-core nor `importlib.metadata` (0.01-0.02 s), else from its package metadata."""
    import importlib.util

    spec = importlib.util.find_spec("graphql")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        try:
            text = (Path(folder) / "version.py").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        found = re.search(r'^version = "([0-9A-Za-z.+-]+)"$', text, re.MULTILINE)
        if found:
            return found.group(1)
    from importlib.metadata import version

    return version("graphql-core")


def schema_file_sha256(path: Path, max_bytes: int) -> str:
    """The SHA-256 of a schema file's bytes (read as `read_schema_bytes` reads them), which
    keys its caches."""
    return hashlib.sha256(read_schema_bytes(path, max_bytes)).hexdigest()
