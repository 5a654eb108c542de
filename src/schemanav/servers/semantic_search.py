"""`__search` as the Semantic Introspection RFC words it: five kinds of hit, paging, a floor.

    __search(query: String!, first: Int! = 10, after: String, minScore: Float): [__SearchResult!]!

- Hits are types, fields, arguments (and input fields), enum values and directives, ranked on
  one scale (`schemanav.retrieval.members`); `score` is relative to the best field of the
  search, so it lies in [0, 1] and `minScore` means the same on every page.
- `cursor` is opaque: base64url of the schema's version, the position after this result and a
  digest of the search (query and minScore). `after` starts the page there; a cursor of another
  search, or of a schema since replaced, is a GraphQL error that says to search again, never a
  page of something else. Fewer than `first` results means there is no further page.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
from typing import TYPE_CHECKING, Any

from schemanav.limits import MAX_QUESTION_CHARS as MAX_QUERY_CHARS

if TYPE_CHECKING:
    from schemanav.retrieval.members import MemberSearch

MAX_FIRST = 150
MAX_CURSOR_CHARS = 200


def search_digest(query: str, min_score: float | None) -> str:
    """What a cursor remembers of its search, so it is never used for another one."""
    text = json.dumps([query, min_score])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def encode_cursor(version: str, position: int, digest: str) -> str:
    raw = json.dumps([version, position, digest], separators=(",", ":")).encode("ascii")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str, version: str, digest: str) -> int:
    """The position a cursor points after; ValueError with a sentence saying what to do."""
    try:
        if len(cursor) > MAX_CURSOR_CHARS:
            raise ValueError
        padded = cursor + "=" * (-len(cursor) % 4)
        made_for, position, made_digest = json.loads(base64.urlsafe_b64decode(padded))
        if not isinstance(position, int) or position < 0:
            raise ValueError
    except (ValueError, TypeError):
        raise ValueError(
            "after is not a cursor this server gave out; pass the cursor of a result"
        ) from None
    if made_for != version:
        raise ValueError("the schema changed since this cursor was given out; search again")
    if made_digest != digest:
        raise ValueError(
            "this cursor belongs to another search; page with the same query and minScore"
        )
    return position


def search_results(
    members: MemberSearch,
    version: str,
    query: str,
    first: int,
    after: str | None,
    min_score: float | None,
) -> list[dict[str, Any]]:
    """The `__SearchResult`s of one `__search`, `definition` left to the caller (a key);
    `cursor` is a callable, which graphql-core's default resolver calls when it is selected.

    Raises ValueError for bad arguments, with the sentence an agent needs.
    """
    if len(query) > MAX_QUERY_CHARS:
        raise ValueError(
            f"the query is {len(query):,} characters long; the most is {MAX_QUERY_CHARS:,}. "
            "Ask in fewer words."
        )
    if not 1 <= first <= MAX_FIRST:
        raise ValueError(f"first must be from 1 to {MAX_FIRST}, got {first}")
    if min_score is not None and not math.isfinite(min_score):
        raise ValueError("minScore must be a finite number (scores lie from 0 to 1)")
    digest = search_digest(query, min_score)
    offset = decode_cursor(after, version, digest) if after is not None else 0
    page = members.page(query, offset=offset, count=first, min_score=min_score)
    results = []
    for number, hit in enumerate(page.hits, start=offset + 1):
        score = min(max(hit.score / page.top, 0.0), 1.0) if page.top > 0 else 0.0
        results.append(
            {
                "coordinate": hit.coordinate,
                "score": round(score, 6),
                "pathsToRoot": [list(path) for path in hit.paths_to_root],
                # Made only when selected (most agents page rarely).
                "cursor": lambda _info, n=number: encode_cursor(version, n, digest),
            }
        )
    return results
