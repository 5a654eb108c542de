"""Reading a text file the user named, with one clear error for each way it can fail.

The schema loader and the labelled-question loader both read a user's file: a missing file,
a directory, an unreadable file and bytes that are not UTF-8 each get one `InputError` that
names the path and says what to do.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from schemanav.errors import InputError
from schemanav.limits import DEFAULT_MAX_SCHEMA_BYTES, describe_bytes


def read_text(
    path: Path,
    what: str,
    *,
    hint: str = "",
    max_bytes: int = DEFAULT_MAX_SCHEMA_BYTES,
    too_large_hint: str = "",
) -> str:
    """The UTF-8 text of `path` (a leading byte-order mark dropped), or an `InputError`.

    `what` names the file in messages (`schema file`, `labelled file`); `hint` is appended
    to the not-found message (e.g. ` (pass --schema PATH or URL)`).
    """
    data = read_bytes(path, what, hint=hint, max_bytes=max_bytes, too_large_hint=too_large_hint)
    return decode_text(data, path, what)


def read_bytes(
    path: Path,
    what: str,
    *,
    hint: str = "",
    max_bytes: int = DEFAULT_MAX_SCHEMA_BYTES,
    too_large_hint: str = "",
    regular_only: bool = False,
) -> bytes:
    """The bytes of `path`, or an `InputError`. A file over `max_bytes` is refused before it
    is read (by its size) or while it is read (a device has no size), so `/dev/zero` or a
    500 MB file never fills memory; a FIFO is refused (it could keep the read waiting).
    `regular_only`: a device is refused too (a link to a regular file is followed)."""
    too_large = f"{path}: {what} is larger than {describe_bytes(max_bytes)}{too_large_hint}"
    try:
        # O_NONBLOCK: opening a FIFO with no writer would wait forever.
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode):
                raise InputError(f"{path}: is a FIFO or socket, expected a {what} (a file)")
            if regular_only and stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError
            if regular_only and not stat.S_ISREG(info.st_mode):
                raise InputError(f"{path}: is a device, expected a {what} (a regular file)")
            if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
                raise InputError(too_large)
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        if path.is_symlink():
            raise InputError(f"{path}: is a link to nothing, expected a {what}") from None
        raise InputError(f"{path}: {what} not found{hint}") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a {what}") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read {what} ({error.strerror or error})") from None
    if len(data) > max_bytes:
        raise InputError(too_large)
    return data


def decode_text(data: bytes, path: Path, what: str) -> str:
    """UTF-8 with a leading byte-order mark dropped, or an `InputError` naming the byte."""
    try:
        # utf-8-sig: tolerate the byte-order mark editors and spreadsheet exports like to add.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{path}: {what} is not UTF-8 text (bad byte at offset {error.start});"
            " re-save it as UTF-8"
        ) from None
