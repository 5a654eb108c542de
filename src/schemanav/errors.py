"""One exception type for every failure a user can fix.

The CLI turns a `SchemanavError` into a one-line message on stderr and a non-zero exit code;
anything else is a bug and keeps its traceback. The message is one line with control and
escape sequences removed, since parts of it (a server's error text, a file name) come from
outside.
"""

from __future__ import annotations

from schemanav.text import one_line


class SchemanavError(Exception):
    """A user-facing failure: `message` is one line that says what to do."""

    def __init__(self, message: str, *, exit_code: int = 1) -> None:
        super().__init__(message)
        self.message = one_line(message)
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message


class InputError(SchemanavError):
    """Bad input from the user (a file, a URL, a flag value): exit code 2."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exit_code=2)


class MissingExtra(InputError):
    """An optional extra that is not installed: exit 2, like any other input the user can
    fix, with the install command that fits how schemanav was installed."""

    def __init__(self, needs: str, extra: str) -> None:
        super().__init__(f"{needs}: {install_extra(extra)}")
        self.extra = extra


def install_extra(extra: str) -> str:
    """How to install an optional extra, as a command that works where schemanav came from:
    its checkout (an editable or local-folder install), or the package index it came from."""
    where = _installed_from()
    if where is None:
        return f"pip install 'schemanav[{extra}]' (the {extra} extra)"
    editable, folder = where
    flag = "-e " if editable else ""
    return f"pip install {flag}'{folder}[{extra}]' (the {extra} extra, from the checkout)"


def _installed_from() -> tuple[bool, str] | None:
    """(editable, folder) when schemanav was installed from a folder on this machine (its
    checkout); None when it came from an index (a wheel) or cannot be told."""
    import json
    from importlib.metadata import PackageNotFoundError, distribution
    from urllib.parse import unquote, urlparse

    try:
        text = distribution("schemanav").read_text("direct_url.json")
    except PackageNotFoundError:
        return None
    if not text:
        return None
    try:
        record = json.loads(text)
    except ValueError:
        return None
    url = urlparse(str(record.get("url", "")))
    if url.scheme != "file":
        return None
    editable = bool(record.get("dir_info", {}).get("editable"))
    return editable, unquote(url.path)
