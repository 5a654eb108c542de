"""Crash-safe cache files: atomic writes and a checksummed header, so a bad file is never used.

Caches live under `$SCHEMANAV_CACHE_DIR`. A run killed mid-write, a full disk or a stray
edit must not poison later runs, so every file is written to a temporary file in the same
directory and renamed into place (`os.replace` is atomic on POSIX and Windows), and every
read checks a SHA-256 of the payload before anything is trusted.

A checked file is `MAGIC`, one line of JSON (the header: what the payload is, its size and
its SHA-256) and the payload bytes.

A cache file is read only when it is a regular file (a link is not followed, a FIFO is not
waited on, a directory or device is not read) whose size is what its header says and at most
`MAX_CACHE_FILE_BYTES`, all checked before the payload is read; anything else is reported
(one warning) and replaced by the rebuilt file, a directory in its place included.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

MAGIC = b"SCHEMANAV-CACHE 1\n"
_MAX_HEADER_BYTES = 1 << 20
# The largest cache file read: a corpus, an index or embeddings of the largest schemas are
# tens of megabytes; a sparse 3 GB file with the right magic is not a cache.
MAX_CACHE_FILE_BYTES = 1 << 30


@dataclass(frozen=True)
class CacheKind:
    """One kind of cache file (or folder): the `kind` its header names, the folder under the
    cache dir it lives in, the `version` of its layout (raised whenever what it holds changes,
    so an older file is never read) and its file suffix.

    A file is named by the digest of what decides its content (its first `key_chars`
    characters), any qualifiers, and the version: `corpus/<digest>-v4.json`.
    """

    kind: str
    folder: str
    version: int
    suffix: str = ""
    key_chars: int = 40

    def path(self, cache_dir: Path, key: str, *qualifiers: str) -> Path:
        stem = "-".join([key[: self.key_chars], *qualifiers])
        return cache_dir / self.folder / f"{stem}-v{self.version}{self.suffix}"

    def header(self, **fields: Any) -> dict[str, Any]:
        """A checked file's header: its kind and version, then what else it depends on."""
        return {"kind": self.kind, "version": self.version, **fields}


# Every cache schemanav keeps, in one table: a change to what one holds raises its version here.
CORPUS_CACHE = CacheKind("corpus", "corpus", 5, ".bin")  # 5: a string table and columns
PRICE_CACHE = CacheKind("price", "price", 1, ".json")
SLICE_FACTS_CACHE = CacheKind("slice-facts", "slice", 1, ".json")
DEFINITION_CACHE = CacheKind("definition", "define", 3)  # a folder per schema; 2: schema.json
# is `stored_schema`'s layout; 3: empty descriptions left out
RANK_TABLE_CACHE = CacheKind("rank table", "tokens", 1, ".bin")
TOKEN_COUNT_CACHE = CacheKind("token counts", "counts", 1, ".json")  # o200k_base, by text
# Raised when what `StructuralIndex.build` computes changes (or the analyzer's words do).
STRUCTURAL_INDEX_CACHE = CacheKind("structural-index", "structural", 7, ".bin")
BM25_INDEX_CACHE = CacheKind("bm25-index", "bm25", 3, key_chars=32)  # a tantivy folder
VECTOR_CACHE = CacheKind("embedding-vectors", "vectors", 1, ".vec", key_chars=64)
CACHE_KINDS = (
    CORPUS_CACHE,
    PRICE_CACHE,
    SLICE_FACTS_CACHE,
    DEFINITION_CACHE,
    RANK_TABLE_CACHE,
    TOKEN_COUNT_CACHE,
    STRUCTURAL_INDEX_CACHE,
    BM25_INDEX_CACHE,
    VECTOR_CACHE,
)


class CorruptCacheError(Exception):
    """A cache file that cannot be trusted; `reason` says why, for a warning."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cache_key(fields: Mapping[str, Any]) -> str:
    """A file-name-safe digest of everything that decides a cache entry's content."""
    canonical = json.dumps(dict(fields), sort_keys=True, ensure_ascii=True, default=str)
    return sha256_hex(canonical.encode("ascii"))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see either the old file or the whole new one.

    The temporary file sits in the target directory because a rename is only atomic within
    one file system; it is fsynced before the rename so a power cut cannot leave a renamed
    but empty file behind.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        if stat.S_ISDIR(os.lstat(path).st_mode):  # never a cache: a rename cannot replace it
            shutil.rmtree(path)
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def write_checked(path: Path, header: Mapping[str, Any], payload: bytes) -> None:
    """Atomically write `payload` behind a JSON header that records its size and SHA-256."""
    full_header = {
        **header,
        "payload_bytes": len(payload),
        "payload_sha256": sha256_hex(payload),
    }
    line = json.dumps(full_header, sort_keys=True, ensure_ascii=True).encode("ascii") + b"\n"
    atomic_write_bytes(path, MAGIC + line + payload)


def read_checked(path: Path) -> tuple[dict[str, Any], bytes]:
    """The header and payload of a file written by `write_checked`, verified.

    Raises `FileNotFoundError` when there is no file and `CorruptCacheError` when there is
    one that is truncated, altered or not a cache file at all.
    """
    with _open_regular(path) as (handle, size):
        limit = min(size, len(MAGIC) + _MAX_HEADER_BYTES)
        head = handle.read(min(limit, 1 << 16))  # a header is a few hundred bytes
        if b"\n" not in head[len(MAGIC) :] and len(head) < limit:
            head += handle.read(limit - len(head))
        header, end = _header(head)
        # The size the header promises is checked before the payload is read.
        if header.get("payload_bytes") != size - end - 1:
            raise CorruptCacheError(
                f"payload is {size - end - 1} bytes, header says {header.get('payload_bytes')}"
            )
        # Read where it starts, in one piece: a slice and a concatenation would copy the
        # payload twice more (12 MB for the structural index of a schema four times GitHub's).
        handle.seek(end + 1)
        payload = handle.read(size - end - 1)
    if header.get("payload_sha256") != sha256_hex(payload):
        raise CorruptCacheError("payload checksum does not match")
    return header, payload


def _header(head: bytes) -> tuple[dict[str, Any], int]:
    """The JSON header at the start of a cache file, and where its line ends."""
    if not head.startswith(MAGIC):
        raise CorruptCacheError("not a schemanav cache file")
    end = head.find(b"\n", len(MAGIC), len(MAGIC) + _MAX_HEADER_BYTES)
    if end < 0:
        raise CorruptCacheError("header is truncated")
    try:
        header = json.loads(head[len(MAGIC) : end].decode("ascii"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise CorruptCacheError("header is not valid JSON") from None
    if not isinstance(header, dict):
        raise CorruptCacheError("header is not a JSON object")
    return header, end


@contextlib.contextmanager
def _open_regular(
    path: Path, max_bytes: int = MAX_CACHE_FILE_BYTES
) -> Iterator[tuple[BinaryIO, int]]:
    """`path` open for reading, and its size, when it is a regular file of at most
    `max_bytes` (checked on the open file: no race with a swap)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except (FileNotFoundError, NotADirectoryError):
        raise
    except OSError as err:
        raise CorruptCacheError(f"cannot be opened as a file ({err.strerror or err})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise CorruptCacheError("not a regular file")
        if info.st_size > max_bytes:
            raise CorruptCacheError(
                f"{info.st_size:,} bytes, more than a cache file can be ({max_bytes:,})"
            )
        yield handle, info.st_size


def read_regular(path: Path, max_bytes: int = MAX_CACHE_FILE_BYTES) -> bytes:
    """The bytes of a cache file that has no checked header (a tantivy index file, its
    completion marker): `CorruptCacheError` unless it is a regular file of at most
    `max_bytes`; a link is not followed."""
    with _open_regular(path, max_bytes) as (handle, size):
        return handle.read(size)


def read_matching(
    path: Path, expected: Mapping[str, Any], other: str
) -> tuple[dict[str, Any], bytes] | str | None:
    """A checked file whose header holds every `expected` item, as (header, payload); None
    when there is no file; why it cannot be used otherwise (`other` names what a header that
    does not match was written for), for a one-line warning before it is rebuilt."""
    try:
        header, data = read_checked(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except CorruptCacheError as err:
        return err.reason
    except OSError as err:
        return f"unreadable: {err.strerror or err}"
    if any(header.get(key) != value for key, value in expected.items()):
        return f"written for another {other}"
    return header, data
