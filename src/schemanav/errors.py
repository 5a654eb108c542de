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


def install_extra(extra: str) -> str:
    """How to install an optional extra, as a command that works where a newcomer stands:
    in the schemanav checkout (`schemanav[...]` resolves only where an index has schemanav)."""
    return f"pip install '.[{extra}]' in the schemanav checkout (the {extra} extra)"
