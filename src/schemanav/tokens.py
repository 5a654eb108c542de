"""Token counting with tiktoken's o200k_base, loaded from the rank file shipped in the package.

tiktoken normally downloads the rank file on first use; laptops on a plane, CI runners and
air-gapped machines cannot, so the exact file (pinned by its SHA-256, the same hash tiktoken
pins) travels inside the package and goes through tiktoken's own loader.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
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


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The o200k_base encoding, built once per process from the bundled rank file."""
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    rank_file = resources.files("schemanav") / "data" / "o200k_base.tiktoken"
    with resources.as_file(rank_file) as path:
        ranks = load_tiktoken_bpe(str(path), expected_hash=O200K_SHA256)
    return tiktoken.Encoding(
        name=ENCODING_NAME,
        pat_str=_O200K_PATTERN,
        mergeable_ranks=ranks,
        special_tokens=_O200K_SPECIAL,
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
