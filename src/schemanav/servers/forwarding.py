"""`--forward-header NAME`: a caller's own credentials, passed on to the API it reaches.

Opt-in per header name. The value a caller sends goes with that one request to the upstream
(`serve`) or the endpoint (`mcp --http`) and nowhere else: it is never logged, never part of a
cache key, and redacted (every form, `schemanav.redaction`) from whatever the request answers.
Headers the connection itself owns cannot be forwarded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from schemanav.errors import InputError

TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
CONNECTION_HEADERS = frozenset(
    {
        "accept",
        "accept-encoding",
        "connection",
        "content-encoding",
        "content-length",
        "content-type",
        "host",
        "keep-alive",
        "mcp-protocol-version",
        "mcp-session-id",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    }
)


def forwarded_names(names: Iterable[str]) -> tuple[str, ...]:
    """The header names to forward, checked; InputError names the one that cannot be."""
    checked: list[str] = []
    for name in names:
        if not TOKEN.match(name):
            raise InputError(
                f"--forward-header takes a header name such as Authorization, got {name!r}"
            )
        if name.lower() in CONNECTION_HEADERS:
            raise InputError(
                f"--forward-header {name}: the connection sets that header itself; forward a "
                "credential header such as Authorization"
            )
        if name.lower() not in (n.lower() for n in checked):
            checked.append(name)
    return tuple(checked)


def pick_forwarded(headers: Mapping[str, str] | Any, names: Iterable[str]) -> dict[str, str]:
    """The forwarded headers a request carries (names as configured, values as sent)."""
    if headers is None:
        return {}
    picked: dict[str, str] = {}
    for name in names:
        value = headers.get(name)
        if isinstance(value, str) and value:
            picked[name] = value
    return picked
