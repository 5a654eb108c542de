"""Reading a text file the user named, with one clear error for each way it can fail.

The schema loader and the labelled-question loader both read a user's file: a missing file,
a directory, an unreadable file and bytes that are not UTF-8 each get one `InputError` that
names the path and says what to do.
"""

from __future__ import annotations

from pathlib import Path

from schemanav.errors import InputError


def read_text(path: Path, what: str, *, hint: str = "") -> str:
    """The UTF-8 text of `path` (a leading byte-order mark dropped), or an `InputError`.

    `what` names the file in messages (`schema file`, `labelled file`); `hint` is appended
    to the not-found message (e.g. ` (pass --schema PATH or URL)`).
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: {what} not found{hint}") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a {what}") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read {what} ({error.strerror or error})") from None
    try:
        # utf-8-sig: tolerate the byte-order mark editors and spreadsheet exports like to add.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{path}: {what} is not UTF-8 text (bad byte at offset {error.start});"
            " re-save it as UTF-8"
        ) from None
