"""Secrets never leave the process: header values and URL credentials are redacted in every form.

A server may echo a credential back in an error text, raw, JSON-escaped (a `"` or `\\` in the
secret becomes `\\"` or `\\\\`), escaped twice (an error text inside a JSON string), quoted as
a Python string (graphql-core's errors quote the offending record), percent-encoded or as the
base64 `user:password` of basic authentication (URL credentials). `Redactor` replaces every
such form with `[redacted]`, and must run BEFORE a text is cut to a limit (a cut can leave a
prefix of a secret that no longer matches) and before anything is printed, logged, written or
sent to a model.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, quote_plus, unquote, urlsplit, urlunsplit

REDACTED = "[redacted]"
# A value shorter than this is not treated as a secret (redacting "1" or "yes" would garble
# every response); real credentials are far longer.
MIN_SECRET_LENGTH = 4


def url_credentials(url: str | None) -> list[str]:
    """The user name and password in `https://user:password@host/…`, decoded and as written,
    and the base64 `user:password` that basic authentication sends."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    userinfo, at, _ = parts.netloc.rpartition("@")
    if not at:
        return []
    found: list[str] = []
    pieces = userinfo.split(":", 1)
    for piece in pieces:
        found.extend([piece, unquote(piece)])
    # What HTTP basic auth sends (and a server may echo): base64 of "user:password".
    pair = ":".join(unquote(piece) for piece in pieces) if len(pieces) == 2 else None
    if pair:
        found.append(base64.b64encode(pair.encode("utf-8")).decode("ascii"))
    return found


def public_url(url: str) -> str:
    """`url` without its user name and password, for messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url.split("@", 1)[-1] if "@" in url else url
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


def basic_credentials(value: str) -> list[str]:
    """The decoded `user:password` of a `Basic …` header value, and each half: a server may
    echo the credential as it decoded it."""
    scheme, _, encoded = value.strip().partition(" ")
    if scheme.lower() != "basic" or not encoded.strip():
        return []
    try:
        pair = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return []
    return [pair, *pair.split(":", 1)]


def _forms(secret: str) -> set[str]:
    forms = {secret}
    escaped = json.dumps(secret, ensure_ascii=False)[1:-1]
    forms.add(escaped)
    forms.add(json.dumps(escaped, ensure_ascii=False)[1:-1])
    forms.add(json.dumps(secret, ensure_ascii=True)[1:-1])
    forms.add(repr(secret)[1:-1])  # as Python error texts quote a record
    forms.add(quote(secret, safe=""))
    forms.add(quote_plus(secret, safe=""))
    return forms


class Redactor:
    """Replaces secrets (header values, the credential after an auth scheme, URL user names and
    passwords) in all their forms with `[redacted]`."""

    def __init__(self, headers: Mapping[str, str] | None = None, urls: Iterable[str] = ()) -> None:
        bases: set[str] = set()
        for value in (headers or {}).values():
            bases.add(value.strip())
            # "Bearer abc…": a server may echo the credential without its scheme.
            bases.add(value.strip().rsplit(" ", 1)[-1])
            bases.update(basic_credentials(value))
        for url in urls:
            bases.update(url_credentials(url))
        secrets: set[str] = set()
        for base in bases:
            if len(base) >= MIN_SECRET_LENGTH:
                secrets.update(_forms(base))
        # Longest first, so that a value is replaced whole before any part of it.
        self._secrets = sorted(
            (s for s in secrets if len(s) >= MIN_SECRET_LENGTH), key=len, reverse=True
        )
        self._escaped = [
            _escaped_pattern(base)
            for base in sorted(bases, key=len, reverse=True)
            if len(base) >= MIN_SECRET_LENGTH
        ]

    def __call__(self, text: str) -> str:
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        if "\\u" in text:  # a secret written (in part) as JSON `\\uXXXX` escapes
            for pattern in self._escaped:
                text = pattern.sub(REDACTED, text)
        return text

    def json(self, value: Any) -> Any:
        """Parsed JSON with every string (keys too) redacted: escapes are decoded by then, so
        a secret a server wrote as `\\u0073\\u006b…` is caught like a raw one. With no
        secrets to look for, `value` itself (a server without credentials answers every
        request through here)."""
        if not self._secrets:
            return value
        if isinstance(value, str):
            return self(value)
        if isinstance(value, list):
            return [self.json(item) for item in value]
        if isinstance(value, dict):
            return {self(key): self.json(item) for key, item in value.items()}
        return value


def _escaped_pattern(secret: str) -> re.Pattern[str]:
    """Matches `secret` with any of its characters written as a JSON escape (`\\u0041`, in
    either case of hex digit, or `\\"`, `\\\\`, `\\/`), however many backslashes an
    enclosing string added."""
    pieces = []
    for char in secret:
        code = f"{ord(char):04x}"
        hex_digits = "".join(f"[{d}{d.upper()}]" if d.isalpha() else d for d in code)
        forms = [re.escape(char), rf"\\+u{hex_digits}"]
        if char in '"\\/':
            forms.append(rf"\\+{re.escape(char)}")
        pieces.append("(?:" + "|".join(forms) + ")")
    return re.compile("".join(pieces))
