"""The one interface every retrieval backend implements, the hit record, the budget rule."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from schemanav.events import Events, SilentEvents

if TYPE_CHECKING:
    from schemanav.corpus import Corpus, Format
    from schemanav.question.vocabulary import QuestionReading


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One ranked result. `tokens` is the o200k_base cost of `text`, what an agent would read.

    Slotted: a budgeted search ranks every entry (6,640 hits on GitHub), and a slot layout
    takes half the memory of a dict (80 bytes a hit against 176).
    """

    coordinate: str
    text: str
    score: float
    rank: int
    tokens: int
    paths_to_root: tuple[tuple[str, ...], ...] = ()

    json_fields: ClassVar[tuple[str, ...]] = (
        "rank",
        "coordinate",
        "score",
        "tokens",
        "text",
        "paths_to_root",
    )

    @classmethod
    def ranked(
        cls,
        coordinates: Iterable[str],
        texts: Iterable[str],
        scores: Iterable[float],
        tokens: Iterable[int],
    ) -> list[SearchHit]:
        """Hits without paths, ranked from 1, from parallel columns of one length.

        The same records `SearchHit(...)` makes, built by setting the slots directly: a frozen
        dataclass's `__init__` goes through `object.__setattr__` once per field, which was a
        tenth of a 200-question bench when it built 1,559 hits per question (the bench now
        reads a `Ranking`; a hybrid row and a deep search without paths still build hits).
        """
        new = object.__new__
        set_coordinate, set_text, set_score, set_rank, set_tokens, set_paths = _HIT_SLOTS
        hits = []
        columns = zip(coordinates, texts, scores, tokens, strict=False)  # maps have no len
        for rank, (coordinate, text, score, cost) in enumerate(columns, start=1):
            hit = new(cls)
            set_coordinate(hit, coordinate)
            set_text(hit, text)
            set_score(hit, score)
            set_rank(hit, rank)
            set_tokens(hit, cost)
            set_paths(hit, ())
            hits.append(hit)
        return hits

    def block(self, max_paths: int | None = None) -> str:
        """The hit as an agent's search tool shows it: its text, then one `from the root:` line
        per path (at most `max_paths`). Most renderings contain the coordinate already, and the
        order is the rank, so neither is repeated; a root field is its own path: no line."""
        lines = [self.text if self.coordinate in self.text else f"{self.coordinate}: {self.text}"]
        lines.extend(
            "   from the root: " + " > ".join(path)
            for path in self.paths_to_root[:max_paths]
            if len(path) > 1
        )
        return "\n".join(lines)


# The member descriptors of SearchHit's slots, in field order, for `SearchHit.ranked`.
_HIT_SLOTS: tuple[Callable[[SearchHit, Any], None], ...] = tuple(
    SearchHit.__dict__[name].__set__
    for name in ("coordinate", "text", "score", "rank", "tokens", "paths_to_root")
)


@runtime_checkable
class Searcher(Protocol):
    """An indexed corpus that answers questions best-first; made by `Backend.index`, never
    changed afterwards, so one searcher serves any number of questions (and threads)."""

    @property
    def name(self) -> str:
        """A label such as `bm25` or `embedding:qwen3-graphql-embedder` for result rows."""
        ...

    def search(self, query: str, k: int) -> list[SearchHit]:
        """At most `k` hits, best first, ranks starting at 1. Any text is a valid query."""
        ...




@dataclass(frozen=True)
class Ranking:
    """What a ranking is read for by a bench or a slice: its coordinates and their scores,
    best first. Either reads thousands of hits per question and none of their texts, so a
    searcher that can rank without building hits (`RanksWithoutHits`) skips them."""

    coordinates: tuple[str, ...]
    scores: tuple[float, ...]
    # The coordinates' corpus positions, from a searcher that ranks corpus entries (the
    # structural backend): a slice of the ranking then looks none of them up.
    entries: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    # The question as the searcher read it (the structural backend): a slice of the ranking
    # takes the same reading instead of reading the question again.
    reading: QuestionReading | None = field(default=None, compare=False, repr=False)
    # For a request to change something, the same entries ranked with the writes weighed
    # more (the structural and hybrid backends): the order a large slice reads
    # (`Slicer.from_ranked`).
    wide: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, hits: Sequence[SearchHit]) -> Ranking:
        return cls(tuple(hit.coordinate for hit in hits), tuple(hit.score for hit in hits))


@runtime_checkable
class RanksWithoutHits(Protocol):
    """A searcher that can also answer with a bare `Ranking`, the one `search` would give."""

    def ranking(self, query: str, k: int) -> Ranking:
        """`Ranking.of(self.search(query, k))`, without building the hits."""
        ...


def ranking_of(searcher: Searcher, query: str, k: int) -> Ranking:
    """The ranking of `searcher.search(query, k)`, from the searcher's own `ranking` when it
    has one (the structural backend), else from its hits."""
    if isinstance(searcher, RanksWithoutHits):
        return searcher.ranking(query, k)
    return Ranking.of(searcher.search(query, k))


@dataclass(frozen=True)
class BackendContext:
    """What every backend factory receives beside its own options.

    `fmt` is the rendering hits show; `cache_dir` where a backend may keep what it built
    (None: keep nothing); `events` hears what the user should see (the model and prefixes
    in use, indexing progress, warnings, including those raised during a search);
    `max_paths` is how many paths to root a backend that computes them itself attaches.
    """

    fmt: Format
    cache_dir: Path | None = None
    events: Events = field(default_factory=SilentEvents)
    max_paths: int = 0


class Backend(Protocol):
    """A configured backend: `index` reads a corpus once and returns its searcher."""

    def index(self, corpus: Corpus) -> Searcher: ...


def has_words(text: str) -> bool:
    """Whether a question has anything to search for (a letter or a digit)."""
    return any(ch.isalnum() for ch in text)


def fit_prefix(token_counts: Sequence[int], budget: int) -> int:
    """How many leading items fit in `budget` tokens.

    n = max{ m : Σ token_counts[:m] ≤ budget }, walking from the top and stopping at the
    first item that does not fit (no skipping ahead to cheaper ones), so what an agent is
    shown is always a prefix of the ranking. A budget below the first item's cost gives 0.
    The one budget rule: `fit_budget`, bench and the agent's search tool all use it.
    """
    if budget < 0:
        raise ValueError(f"token budget must not be negative, got {budget}")
    spent = 0
    for fitted, cost in enumerate(token_counts):
        if spent + cost > budget:
            return fitted
        spent += cost
    return len(token_counts)


# Hits fetched first when a budget of whole blocks is filled: one per this many budget tokens
# (a hit with its path lines costs 20–40 tokens), at least MIN_BLOCK_DEPTH; doubled only while
# the budget is not full. Only the work changes with these, never the answer.
TOKENS_PER_HIT = 20
MIN_BLOCK_DEPTH = 8


@dataclass(frozen=True)
class BlockSearch:
    """A question's hits as an agent's search tool shows them: each hit's block (its text and
    its `from the root:` lines) and what it costs, best first, as many as fit the budget.

    `blocks` and `costs` hold every hit fetched, so a caller can say what the first one that
    did not fit would have cost."""

    hits: tuple[SearchHit, ...]
    blocks: tuple[str, ...]
    costs: tuple[int, ...]

    @property
    def spent(self) -> int:
        """Tokens of the blocks shown."""
        return sum(self.costs[: len(self.hits)])


def search_blocks(
    searcher: Searcher,
    query: str,
    budget: int,
    *,
    size: int,
    k: int | None = None,
    max_paths: int | None = None,
) -> BlockSearch:
    """The budgeted search of every agent tool (the agent's `searchSchema`, the servers'
    `search_schema`): ranked hits rendered as blocks of at most `max_paths` paths (None: every
    path a hit carries), as many as fit `budget` tokens by `fit_prefix`, from the first
    `k` hits (default all `size` entries of the corpus).

    The ranking is read deeper only while everything read so far fits, so a small budget reads
    a few dozen hits; the hits shown are the same however deep it read.
    """
    from schemanav.tokens import count_tokens

    cap = min(k or size, size)
    depth = min(max(MIN_BLOCK_DEPTH, budget // TOKENS_PER_HIT + 1), cap)
    while True:
        ranked = searcher.search(query, depth)
        blocks = tuple(hit.block(max_paths) for hit in ranked)
        costs = tuple(count_tokens(block) for block in blocks)
        shown = fit_prefix(costs, budget)
        if shown < len(ranked) or len(ranked) < depth or depth >= cap:
            return BlockSearch(tuple(ranked[:shown]), blocks, costs)
        depth = min(depth * 2, cap)


def fit_budget(hits: Sequence[SearchHit], budget: int | None) -> list[SearchHit]:
    """The hits that fit `budget` tokens by `fit_prefix` (all of them when there is no budget)."""
    if budget is None:
        return list(hits)
    return list(hits[: fit_prefix([hit.tokens for hit in hits], budget)])
