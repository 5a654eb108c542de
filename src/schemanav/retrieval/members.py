"""Hits of every kind a schema coordinate names: types, fields, arguments, enum values, directives.

Semantic Introspection's `__search` may answer any schema member, not only `Type.field`. The
field ranking is the configured backend's, untouched; every other member rides on it, so all
kinds share one score scale:

    score(member) = score of its best-ranked anchor field · match(member, question)

- an argument's (or input field's) anchors are the fields that take it; an enum value's and an
  enum, input object or scalar type's are the fields that take or return that type; an object,
  interface or union type's are its own fields and the fields that return it;
- `match` is in (0, 1]: a member whose own name holds none of the question's words is no hit;
  else it is (1 + coverage) / 2 · (3 + specificity) / 4, where coverage is the share of the
  question's words its coordinate holds (`PullRequestState.OPEN`: pull, request, state, open;
  a word only its description holds counts half) and specificity the share of its own name's
  words the question holds (`PullRequest` before `PullRequestReviewCommentConnection`);
- a directive has no anchor: its score is the best field's times its match.

So a member never outranks its best anchor, the fields keep their order and scores exactly,
and the merged list for a deeper field ranking only grows at its end: paging is exact.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from schemanav.graph import Path, SchemaGraph
from schemanav.question.analyzer import Stemmer
from schemanav.records import to_json
from schemanav.retrieval.base import Ranking, Searcher, SearchHit, ranking_of

if TYPE_CHECKING:
    from graphql import GraphQLSchema

    from schemanav.corpus import Corpus

TYPE = "type"
FIELD = "field"
ARGUMENT = "argument"
"""A field's argument or an input object's field: both are `__InputValue`s."""
ENUM_VALUE = "enum_value"
DIRECTIVE = "directive"
KINDS = (TYPE, FIELD, ARGUMENT, ENUM_VALUE, DIRECTIVE)
"""The five kinds of hit, in the order equal scores are listed."""
DESCRIPTION_WORD = 0.5
MAX_RESULTS = 1_000
"""How deep one search ranks: pages past this many results are empty."""
WITH_PATHS_UP_TO = 64
"""Field rankings up to this deep are asked with their paths at once (one search, not two)."""


@dataclass(frozen=True, slots=True)
class MemberHit:
    """One hit of any kind; `score` on the scale of the field ranking (not normalised)."""

    coordinate: str
    kind: str
    score: float
    paths_to_root: tuple[Path, ...] = ()
    description: str | None = None

    json_fields: ClassVar[tuple[str, ...]] = (
        "coordinate",
        "kind",
        "score",
        "paths_to_root",
        "description",
    )

    def as_dict(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class MemberPage:
    """One page of a search over every kind: `hits`, the ranking's `top` score (scores
    divided by it are in [0, 1]) and whether later pages may hold more (`more`)."""

    hits: tuple[MemberHit, ...]
    top: float
    more: bool


@dataclass(frozen=True)
class _Member:
    coordinate: str
    kind: str
    name_terms: frozenset[str]
    context_terms: frozenset[str]
    description_terms: frozenset[str]
    description: str | None
    type_name: str | None = None
    """For a type hit: its name (its paths are the ways into it)."""


class _Item(NamedTuple):
    """A place in the merged ranking; `rank` is that of the field it is or rides on (0 for a
    directive), `member` its number in the index (-1 for a field)."""

    coordinate: str
    kind: str
    score: float
    rank: int
    member: int


@dataclass
class MemberIndex:
    """Every member but the fields, by the words of its name, with the fields it rides on."""

    corpus: Corpus
    members: list[_Member] = field(default_factory=list)
    name_words: set[str] = field(default_factory=set)
    """Every word of a member's own name: a question's other words count for none."""
    anchored_on: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    """Corpus entry → the members it anchors."""
    stem: Stemmer = field(default_factory=Stemmer)

    @classmethod
    def build(cls, schema: GraphQLSchema, corpus: Corpus) -> MemberIndex:
        index = cls(corpus)
        uses = _type_uses(schema, corpus)
        for graphql_type in schema.type_map.values():
            index._add_type(graphql_type, uses)
        for directive in schema.directives:
            if directive.ast_node is not None or directive.name not in _BUILT_IN_DIRECTIVES:
                index._add(f"@{directive.name}", DIRECTIVE, directive.name, directive.description)
        for position, entry in enumerate(corpus.entries):
            for argument in entry.arguments:
                member = index._add(
                    f"{entry.coordinate}({argument.name}:)",
                    ARGUMENT,
                    argument.name,
                    argument.description,
                    context=f"{entry.owner} {entry.field}",
                )
                index.anchored_on[position].append(member)
        return index

    def _add_type(self, graphql_type: Any, uses: dict[str, list[int]]) -> None:
        from graphql import GraphQLEnumType, GraphQLInputObjectType, is_specified_scalar_type

        name = graphql_type.name
        if name.startswith("__") or is_specified_scalar_type(graphql_type):
            return
        anchors = uses.get(name, [])
        member = self._add(name, TYPE, name, graphql_type.description, type_name=name)
        for position in anchors:
            self.anchored_on[position].append(member)
        if isinstance(graphql_type, GraphQLEnumType):
            for value_name, value in graphql_type.values.items():
                child = self._add(
                    f"{name}.{value_name}", ENUM_VALUE, value_name, value.description, context=name
                )
                for position in anchors:
                    self.anchored_on[position].append(child)
        elif isinstance(graphql_type, GraphQLInputObjectType):
            for field_name, input_field in graphql_type.fields.items():
                child = self._add(
                    f"{name}.{field_name}",
                    ARGUMENT,
                    field_name,
                    input_field.description,
                    context=name,
                )
                for position in anchors:
                    self.anchored_on[position].append(child)

    def _add(
        self,
        coordinate: str,
        kind: str,
        name: str,
        description: str | None,
        *,
        context: str = "",
        type_name: str | None = None,
    ) -> int:
        """Add a member; `context` names what holds it (an argument's type and field, an enum
        value's enum), words its coordinate shows beside its own name."""
        number = len(self.members)
        name_terms = frozenset(
            self.stem(name.replace("_", " ").lower() if name.isupper() else name)
        )
        context_terms = frozenset(self.stem(context)) - name_terms
        self.members.append(
            _Member(
                coordinate,
                kind,
                name_terms,
                context_terms,
                frozenset(self.stem(description)) - name_terms - context_terms,
                description.strip() if description else None,
                type_name,
            )
        )
        self.name_words.update(name_terms)
        return number

    def matcher(self, question: str) -> Callable[[int], float]:
        """`match(member)` for `question`, in [0, 1] (0: no hit), memoised for the question.

        Words no member's name holds ("a", "which") are left out of the question's count."""
        terms = frozenset(self.stem(question)) & self.name_words
        found: dict[int, float] = {}

        def match(number: int) -> float:
            value = found.get(number)
            if value is None:
                member = self.members[number]
                in_name = len(terms & member.name_terms)
                value = 0.0
                if in_name:
                    covered: float = in_name + len(terms & member.context_terms)
                    covered += DESCRIPTION_WORD * len(terms & member.description_terms)
                    coverage = min(covered / len(terms), 1.0)
                    specific = in_name / len(member.name_terms)
                    value = (0.5 + 0.5 * coverage) * (0.75 + 0.25 * specific)
                found[number] = value
            return value

        return match

    @cached_property
    def directives(self) -> tuple[int, ...]:
        return tuple(n for n, member in enumerate(self.members) if member.kind == DIRECTIVE)


_BUILT_IN_DIRECTIVES = frozenset({"include", "skip", "deprecated", "specifiedBy", "oneOf"})


def _type_uses(schema: GraphQLSchema, corpus: Corpus) -> dict[str, list[int]]:
    """Each type name → the corpus entries that own, return or take it (in corpus order);
    a field taking an input object takes the types its fields hold too, at any depth."""
    from graphql import GraphQLInputObjectType, get_named_type

    held: dict[str, tuple[str, ...]] = {
        name: tuple(get_named_type(f.type).name for f in graphql_type.fields.values())
        for name, graphql_type in schema.type_map.items()
        if isinstance(graphql_type, GraphQLInputObjectType)
    }
    uses: dict[str, list[int]] = defaultdict(list)
    for position, entry in enumerate(corpus.entries):
        named = {entry.owner, entry.named_return_type}
        for argument in entry.arguments:
            named.add(argument.type.strip("[]!"))
        pending = [name for name in named if name in held]
        seen: set[str] = set()
        while pending:  # types an input object holds, at any depth
            name = pending.pop()
            if name in seen:
                continue
            seen.add(name)
            named.add(name)
            pending.extend(held.get(name, ()))
        for name in named:
            uses[name].append(position)
    return uses


class MemberSearch:
    """A searcher's field ranking with every other kind of member merged into it."""

    def __init__(self, searcher: Searcher, index: MemberIndex, max_paths: int) -> None:
        self.searcher = searcher
        self.index = index
        self.max_paths = max_paths
        self.position = {c: i for i, c in enumerate(index.corpus.coordinates)}
        # Built now, not on the first type hit: a server builds this at start, off the clock.
        self.graph = SchemaGraph(self.index.corpus)

    def page(
        self,
        question: str,
        *,
        offset: int = 0,
        count: int = 10,
        kinds: Sequence[str] = KINDS,
        min_score: float | None = None,
    ) -> MemberPage:
        """Results `offset` to `offset + count` of the merged ranking, kept to `kinds` and to a
        normalised score of at least `min_score`.

        The field ranking is asked as deep as the page's end (what a bare field search costs:
        every field it holds is in place), and four times deeper while filters leave the part
        sure to be in place too short for the page."""
        wanted = frozenset(kinds)
        end = min(offset + count, MAX_RESULTS)
        if offset >= end:
            return MemberPage((), 0.0, more=False)  # past the deepest a search ranks
        match = self.index.matcher(question) if wanted != {FIELD} else None
        depth, size = max(end, 1), len(self.index.corpus)
        while True:
            searched = self.searcher.search(question, depth) if depth <= WITH_PATHS_UP_TO else None
            ranking = (
                Ranking.of(searched)
                if searched is not None
                else ranking_of(self.searcher, question, depth)
            )
            top = max(ranking.scores, default=0.0)
            exhausted = len(ranking.coordinates) < depth or depth >= size
            kept = [
                item
                for item in self._merged(ranking, match, exhausted)
                if item.kind in wanted
                and (min_score is None or _normal(item.score, top) >= min_score)
            ]
            if exhausted or len(kept) >= end:
                break
            depth = min(depth * 4, size)
        chosen = kept[offset:end]
        return MemberPage(
            tuple(self._hits(question, chosen, searched)),
            top,
            more=(len(kept) > end or not exhausted) and end < MAX_RESULTS,
        )

    def _merged(
        self, ranking: Ranking, match: Callable[[int], float] | None, exhausted: bool
    ) -> list[_Item]:
        """Best first: the fields in their own order, each member after the fields that score
        at least as much. Without the whole ranking, only what scores above its last field,
        and the fields scoring as much, are sure to be in place, so only that is kept (the
        backends' rankings fall in score, and each is a prefix of any deeper one)."""
        fields = [
            _Item(coordinate, FIELD, score, rank, -1)
            for rank, (coordinate, score) in enumerate(
                zip(ranking.coordinates, ranking.scores, strict=True), start=1
            )
        ]
        members = sorted(
            self._scored(ranking, match) if match is not None else [],
            key=lambda item: (-item.score, item.rank, KINDS.index(item.kind), item.coordinate),
        )
        merged: list[_Item] = []
        waiting = 0
        for item in fields:
            while waiting < len(members) and members[waiting].score > item.score:
                merged.append(members[waiting])
                waiting += 1
            merged.append(item)
        merged.extend(members[waiting:])
        if exhausted or not fields:
            return merged
        # Past the last field asked for, fields of its score may follow, then members of it.
        cutoff = fields[-1].score
        return [
            item
            for item in merged
            if item.score > cutoff or (item.kind == FIELD and item.score == cutoff)
        ]

    def _scored(self, ranking: Ranking, match: Callable[[int], float]) -> list[_Item]:
        """Each matching member scored by its best-ranked anchor (directives by the top field)."""
        members = self.index.members
        best: dict[int, _Item] = {}
        anchored_on, position = self.index.anchored_on, self.position
        for rank, (coordinate, score) in enumerate(
            zip(ranking.coordinates, ranking.scores, strict=True), start=1
        ):
            if score <= 0.0:
                continue
            for number in anchored_on.get(position.get(coordinate, -1), ()):
                held = best.get(number)
                if held is not None and held.score >= score:
                    continue  # (scores fall down a ranking: the first anchor is the best)
                value = match(number)
                if value > 0.0 and (held is None or score * value > held.score):
                    member = members[number]
                    best[number] = _Item(
                        member.coordinate, member.kind, score * value, rank, number
                    )
        top = max(ranking.scores, default=0.0)
        for number in self.index.directives:
            value = match(number)
            if value > 0.0 and top > 0.0:
                best[number] = _Item(members[number].coordinate, DIRECTIVE, top * value, 0, number)
        return list(best.values())

    def _hits(
        self, question: str, chosen: list[_Item], searched: list[SearchHit] | None
    ) -> list[MemberHit]:
        """The chosen items as hits with their paths: a field's are what the searcher gives
        it, an argument's and an enum value's their anchor field's, a type's the ways into it."""
        deepest = max((item.rank for item in chosen), default=0)
        if searched is None or len(searched) < deepest:
            searched = self.searcher.search(question, deepest) if deepest else []
        by_coordinate = self.index.corpus.by_coordinate
        hits = []
        for item in chosen:
            anchor_paths = searched[item.rank - 1].paths_to_root if item.rank else ()
            if item.kind == FIELD:
                entry = by_coordinate.get(item.coordinate)
                description = entry.description if entry is not None else None
                paths = anchor_paths
            else:
                member = self.index.members[item.member]
                description = member.description
                paths = anchor_paths
                if member.type_name is not None:
                    paths = self._ways_into(member.type_name) or anchor_paths
            hits.append(MemberHit(item.coordinate, item.kind, item.score, paths, description))
        return hits

    def _ways_into(self, type_name: str) -> tuple[Path, ...]:
        """Root-first coordinate lists reaching `type_name` (a root type: itself alone)."""
        if not self.max_paths:
            return ()
        graph = self.graph
        if type_name in graph.roots:
            return ((type_name,),)
        coordinates = self.index.corpus.coordinates
        return tuple(
            tuple(coordinates[i] for i in chain)
            for chain in graph.ways_into(type_name, self.max_paths)
        )


def _normal(score: float, top: float) -> float:
    """A score on the [0, 1] scale, relative to the best field of the search."""
    return min(max(score / top, 0.0), 1.0) if top > 0 else 0.0
