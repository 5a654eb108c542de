"""Files the user asked for (`--markdown`, `--plot`, `--transcript`, `--receipt-json`).

An output path is written only when it is a new path or an existing regular file. A device,
FIFO, socket, directory or symbolic link at the path is refused with one line, never replaced
(`--markdown /dev/full` run as root must not turn the device into a file). An existing file
keeps its permission bits (a mode-600 file stays 600); a new one gets the umask's mode. The
write is atomic: a temporary file in the same directory, renamed into place.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from schemanav.errors import InputError


def write_output_file(path: str | Path, data: str | bytes) -> Path:
    """Write `data` (text is UTF-8) to `path`; `InputError` when the path is not a regular file
    or new, or cannot be written. Returns the path written."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        info: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise InputError(f"cannot write {target}: {err.strerror}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise InputError(
            f"cannot write {target}: it is {_kind(info.st_mode)}, not a regular file; "
            "choose a new file name"
        )
    mode = stat.S_IMODE(info.st_mode) if info is not None else _default_mode()
    directory = target.parent
    try:
        fd, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise InputError(f"cannot write {target}: {err.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
        os.replace(temp_name, target)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise InputError(f"cannot write {target}: {err.strerror}") from None
    return target


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
