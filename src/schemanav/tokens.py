"""Token counting with tiktoken's o200k_base, loaded from the rank file shipped in the package.

tiktoken normally downloads the rank file on first use; laptops on a plane, CI runners and
air-gapped machines cannot, so the exact file (pinned by its SHA-256, the same hash tiktoken
pins) travels inside the package and goes through tiktoken's own loader.

That loader decodes 200,000 base64 lines, about 0.2 s of every process that counts tokens
(a budgeted search, a slice, a bench). With a cache directory (`cache_ranks_in`), the first
process keeps its result as one checked binary file (each token's bytes, in rank order) that
later processes read in a third of the time; a file that fails its checksum or does not match
is never used.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tiktoken

ENCODING_NAME = "o200k_base"
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"

# The split pattern and special tokens of o200k_base, as in tiktoken_ext/openai_public.py.
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_O200K_SPECIAL = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}

# Where the parsed rank table may be kept, and who hears why a kept one was not usable.
_rank_cache: tuple[Path, Callable[[str], None]] | None = None


def cache_ranks_in(directory: Path | None, warn: Callable[[str], None] | None = None) -> None:
    """Keep the parsed rank table under `directory` (None: keep nothing); `warn` hears why a
    kept table could not be used. Opening a corpus sets it from the settings' cache
    directory, before anything is counted; an encoding already built is not rebuilt."""
    global _rank_cache, _known
    if (_rank_cache and _rank_cache[0]) != directory:
        _known = None  # counts are read again from the new directory's file
    _rank_cache = None if directory is None else (directory, warn or (lambda _message: None))


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The o200k_base encoding, built once per process from the bundled rank file (or from
    its parsed table kept by an earlier process, see `cache_ranks_in`)."""
    import tiktoken

    kept = _rank_cache
    ranks = _kept_ranks(*kept) if kept is not None else None
    if ranks is None:
        ranks = _parsed_ranks()
        if kept is not None:
            _keep_ranks(ranks, kept[0])
    return tiktoken.Encoding(
        name=ENCODING_NAME,
        pat_str=_O200K_PATTERN,
        mergeable_ranks=ranks,
        special_tokens=_O200K_SPECIAL,
    )


def _parsed_ranks() -> dict[bytes, int]:
    from tiktoken.load import load_tiktoken_bpe

    rank_file = resources.files("schemanav") / "data" / "o200k_base.tiktoken"
    with resources.as_file(rank_file) as path:
        return load_tiktoken_bpe(str(path), expected_hash=O200K_SHA256)


def _rank_cache_file(directory: Path) -> Path:
    from schemanav.cache import RANK_TABLE_CACHE

    return RANK_TABLE_CACHE.path(directory, ENCODING_NAME, O200K_SHA256[:16])


def _rank_table_header() -> dict[str, object]:
    """What a kept table's header must say to be read (it also records how many tokens it
    holds)."""
    from schemanav.cache import RANK_TABLE_CACHE

    return RANK_TABLE_CACHE.header(source_sha256=O200K_SHA256)


def _kept_ranks(directory: Path, warn: Callable[[str], None]) -> dict[bytes, int] | None:
    """The table an earlier process kept: a byte per token with its length, then the tokens'
    bytes, in rank order (ranks are 0 … n−1); None when there is none or it is not usable."""
    from itertools import accumulate

    from schemanav.cache import read_matching

    path = _rank_cache_file(directory)
    found = read_matching(path, _rank_table_header(), "rank file")
    if isinstance(found, tuple):
        header, payload = found
        count = header.get("tokens")
        if isinstance(count, int) and 0 < count <= len(payload):
            ends = list(accumulate(payload[:count], initial=count))
            if ends[-1] == len(payload):
                tokens = map(payload.__getitem__, map(slice, ends, ends[1:]))
                return dict(zip(tokens, range(count), strict=True))
        found = "its token lengths do not add up to its size"
    if found is not None:
        warn(
            f"the tokenizer's kept rank table {path} is not usable ({found}); "
            "parsing the rank file again"
        )
    return None


def _keep_ranks(ranks: dict[bytes, int], directory: Path) -> None:
    """Write the table `_kept_ranks` reads, when this encoding's ranks fit its layout."""
    from schemanav.cache import write_checked

    tokens = list(ranks)  # the rank file's order, which is the ranks' order
    if list(ranks.values()) != list(range(len(tokens))) or not all(
        0 < len(token) < 256 for token in tokens
    ):
        return  # not ranks 0 … n−1 in order, of tokens under 256 bytes: keep nothing
    payload = bytes(map(len, tokens)) + b"".join(tokens)
    with contextlib.suppress(OSError):  # an unwritable cache only costs speed
        write_checked(
            _rank_cache_file(directory), {**_rank_table_header(), "tokens": len(tokens)}, payload
        )


def count_tokens(text: str) -> int:
    """Tokens of `text` in o200k_base; special-token text counts as ordinary text."""
    return len(encoding().encode_ordinary(text))


def count_many(texts: list[str]) -> list[int]:
    """Token counts for many texts at once.

    A plain loop: `encode_ordinary_batch` hands each text to a thread pool as its own future,
    which for corpus entries of 5–60 tokens costs many times the encoding itself.
    """
    encode = encoding().encode_ordinary
    return [len(encode(text)) for text in texts]


# --- counts kept between processes ---------------------------------------------------------
#
# A slice counts the lines it may show and then its whole SDL; a warm process that finds every
# such count already known never builds the encoder (a third of a second). Counts are kept
# by text, for this encoding, in one checked file of the cache directory (`keep_counts`).

_MAX_KEPT_COUNTS = 400_000  # the newest are kept past this (GitLab's slices need ~60,000)
_known: dict[str, int] | None = None
# Where `count_by_pieces` cuts: after a line break, before a line that is not white space
# (its first character not `/`), whose leading white space holds no `\r`. The pattern matches
# that line break (the cut is where it ends): searching for a literal first is the fastest.
_CUTS = re.compile(r"\n(?=(?!/)[^\S\r\n]*\S)")
_known_on_file = 0  # how many of `_known` came from (or went to) the file


def _counts_file(directory: Path) -> Path:
    from schemanav.cache import TOKEN_COUNT_CACHE

    return TOKEN_COUNT_CACHE.path(directory, ENCODING_NAME, O200K_SHA256[:16])


def _count_header() -> dict[str, object]:
    from schemanav.cache import TOKEN_COUNT_CACHE

    return TOKEN_COUNT_CACHE.header(source_sha256=O200K_SHA256)


def _known_counts() -> dict[str, int]:
    """The counts kept by earlier processes (read once), to which this one adds."""
    global _known, _known_on_file
    if _known is None:
        _known = {}
        kept = _rank_cache
        if kept is not None:
            _known = _kept_counts(*kept)
        _known_on_file = len(_known)
    return _known


def _kept_counts(directory: Path, warn: Callable[[str], None]) -> dict[str, int]:
    import json

    from schemanav.cache import read_matching

    path = _counts_file(directory)
    found = read_matching(path, _count_header(), "encoding")
    if isinstance(found, tuple):
        try:
            counts = json.loads(found[1].decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            counts = None
        if isinstance(counts, dict) and all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts.values()
        ):
            return counts
        found = "it does not hold a table of counts"
    if found is not None:
        warn(f"the kept token counts {path} are not usable ({found}); counting again")
    return {}


def known_counts(texts: list[str]) -> list[int]:
    """Token counts of `texts` (as `count_many`), from the kept counts where known; only an
    unknown text builds the encoder."""
    known = _known_counts()
    missing = [text for text in dict.fromkeys(texts) if text not in known]
    if not missing:
        return [known[text] for text in texts]
    known.update(zip(missing, count_many(missing), strict=True))
    counts = [known[text] for text in texts]
    _bound(known)
    return counts


def known_count(text: str) -> int:
    """`known_counts` of one text."""
    known = _known_counts()
    count = known.get(text)
    if count is None:
        count = known[text] = count_tokens(text)
        _bound(known)
    return count


def _bound(known: dict[str, int]) -> None:
    """A long-running server counts new lines as questions choose new arguments: past twice
    `_MAX_KEPT_COUNTS` the oldest half goes (counted again if needed), so memory stays bounded
    whatever is asked."""
    if len(known) > 2 * _MAX_KEPT_COUNTS:
        for text in list(known)[: len(known) - _MAX_KEPT_COUNTS]:
            del known[text]


def count_by_pieces(text: str) -> int:
    """The exact count of `text` (as `count_tokens`), as the sum of the known counts of pieces
    it splits into where no token can span the cut.

    o200k_base encodes each piece its split pattern finds on its own, so a count adds up over
    cuts between such pieces. A cut after a line break, before a line whose first character
    is not `/` and whose leading white space holds no line break, is one: no alternative of
    the pattern matches a line break followed by anything else than white space, `\\r`, `\\n`
    or `/`; white space after a line break runs to the last line break of its run (`\\s*[\\r\\n]+`
    comes before `\\s+`), which is the one before the cut. A test compares both counts on
    every slice of the bundled and benchmark schemas.
    """
    cuts = [match.end() for match in _CUTS.finditer(text)]
    pieces = [text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    if not pieces[-1]:
        pieces.pop()
    try:  # a slice's pieces are its lines, nearly always counted before: one look-up each
        return sum(map(_known_counts().__getitem__, pieces))
    except KeyError:
        return sum(known_counts(pieces))


def keep_counts() -> None:
    """Write the known counts for later processes when this one counted new texts (an
    unwritable cache only costs speed)."""
    global _known_on_file
    known, kept = _known, _rank_cache
    if known is None or kept is None or len(known) == _known_on_file:
        return
    import json

    from schemanav.cache import write_checked

    texts = list(known)[-_MAX_KEPT_COUNTS:]
    payload = json.dumps({text: known[text] for text in texts}, ensure_ascii=False)
    with contextlib.suppress(OSError):
        write_checked(_counts_file(kept[0]), _count_header(), payload.encode("utf-8"))
    _known_on_file = len(known)
