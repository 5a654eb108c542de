"""Files the user asked for (`--markdown`, `--plot`, `--transcript`, `--receipt-json`,
`agent-bench --results`, which is also read back and appended to).

An output path is written (or read, or appended to) only when it is a new path or an
existing regular file. A device,
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
from typing import NoReturn

from schemanav.errors import InputError


def check_output_target(flag: str, value: str, *, folder: bool = False) -> None:
    """Refuse, before any work, an output path `flag` cannot be written to: a file whose
    folder is missing (it is never created: a typo would otherwise grow a tree, as root even
    under `/`), a folder whose parent is missing, no permission, and (`check_output_path`)
    anything but a new path or a regular file where a file goes."""
    path = Path(value)
    if folder and path.exists() and not path.is_dir():
        raise InputError(f"{flag} {value} is not a folder: name a folder to write")
    into = path if folder and path.is_dir() else path.parent
    if not into.exists():
        what = "a folder" if folder else "a file"
        raise InputError(
            f"{flag} {value}: the folder {into} does not exist; create it first, or name "
            f"{what} in an existing folder"
        )
    if not into.is_dir():
        raise InputError(f"{flag} {value}: {into} is a file, not a folder")
    if not os.access(into, os.W_OK | os.X_OK):
        raise InputError(f"{flag} {value}: cannot write into {into} (permission denied)")
    _probe(flag, value, into)
    if not folder:
        check_output_path(value)  # a new path or a regular file, never a device or a link


def _probe(flag: str, value: str, into: Path) -> None:
    """Create and remove a file in `into`, as the atomic write will: some folders pass every
    check above and still take no new file (`/proc`, a read-only mount, a full disk)."""
    import tempfile

    try:
        with tempfile.NamedTemporaryFile(dir=into, prefix=".schemanav-probe-"):
            pass
    except OSError as err:
        raise InputError(
            f"{flag} {value}: cannot write into {into} ({err.strerror or err})"
        ) from None


def write_output_file(path: str | Path, data: str | bytes) -> Path:
    """Write `data` (text is UTF-8) to `path`; `InputError` when the path is not a regular file
    or new, or cannot be written. Returns the path written."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    info = check_output_path(target)
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


def check_output_path(path: str | Path) -> os.stat_result | None:
    """`InputError` unless `path` is new (None) or an existing regular file (its `lstat`):
    checked before a long run, so its results are not lost to a path that cannot be written."""
    target = Path(path)
    try:
        info: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise InputError(f"cannot write {target}: {err.strerror}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        _refuse(target, info.st_mode)
    return info


def read_output_file(path: str | Path, max_bytes: int) -> bytes | None:
    """The bytes of an output file written earlier (a results file read back), None when
    there is none. Never follows a link, never blocks on a FIFO, never reads past `max_bytes`."""
    target = Path(path)
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as err:
        _refuse_unopened(target, err, "read")
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            _refuse(target, info.st_mode)
        if info.st_size > max_bytes:
            raise InputError(
                f"cannot read {target}: it is larger than {max_bytes:,} bytes; "
                "choose a new file name"
            )
        return handle.read(max_bytes + 1)[:max_bytes]


def append_output_file(path: str | Path, data: str) -> None:
    """Append `data` (UTF-8) to `path`, created if new, synced to disk; the same rules as
    `write_output_file` (no link followed, no FIFO or device written)."""
    target = Path(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        fd = os.open(target, flags, 0o666)
    except OSError as err:
        _refuse_unopened(target, err, "write")
    with os.fdopen(fd, "ab") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            _refuse(target, info.st_mode)
        try:
            handle.write(data.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        except OSError as err:
            raise InputError(f"cannot write {target}: {err.strerror}") from None


def _refuse(target: Path, mode: int) -> NoReturn:
    raise InputError(
        f"cannot write {target}: it is {_kind(mode)}, not a regular file; choose a new file name"
    )


def _refuse_unopened(target: Path, err: OSError, verb: str) -> NoReturn:
    """An `os.open` that failed: a link (`O_NOFOLLOW`), a FIFO without a reader
    (`O_NONBLOCK`), a directory, or any other reason."""
    try:
        mode: int | None = os.lstat(target).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        _refuse(target, mode)
    raise InputError(f"cannot {verb} {target}: {err.strerror}") from None


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
