"""The structural backend's index: its knobs, the BM25F term table over the parts of every
field, and the reached types (what each field leads to, one object or many), computed once
per corpus and knobs and cached between runs (`StructuralIndex.to_payload`). The searcher
that reads it is `schemanav.retrieval.structural`."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from schemanav.corpus.model import is_identifier_type
from schemanav.corpus.outcomes import object_unions, result_unions
from schemanav.corpus.pages import list_pages

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from schemanav.corpus import Corpus, CorpusEntry
    from schemanav.question.analyzer import Stemmer

    FloatArray = npt.NDArray[np.float64]
    IntArray = npt.NDArray[np.int64]

# The weight of a field's description among its parts in BM25F; 0.25 and 1.0 lost in the
# corpus grid (benchmarks/structural-experiments.md, "Knobs deleted"). A change raises
# STRUCTURAL_INDEX_CACHE's version: the cached term table holds it.
DESCRIPTION_WEIGHT = 0.5


@dataclass(frozen=True)
class StructuralParams:
    """The knobs, with the values chosen in benchmarks/structural-experiments.md (and, for
    those of issue 23, benchmarks/slice-experiments.md). Those whose other values no
    held-out set chose in the corpus grid are built in: `DESCRIPTION_WEIGHT` here,
    closeness and sibling evidence in `schemanav.retrieval.structural`, the root's lists in
    `schemanav.retrieval.type_ways`."""

    name_weight: float = 2.0
    owner_weight: float = 1.5
    return_weight: float = 0.7
    # 0.3 until the corpus grid on thirteen sets chose 0.6 in sample and by every held-out
    # set: an argument's words (a filter's input fields) say what a field can answer.
    arguments_weight: float = 0.6
    return_detail_weight: float = 0.3
    name_b: float = 0.5
    owner_b: float = 0.5
    return_b: float = 0.5
    description_b: float = 0.75
    arguments_b: float = 0.75
    return_detail_b: float = 0.75
    k1: float = 1.2
    abstract_penalty: float = 1.0
    other_root_cost: float = 3.0
    path_relevance: float = 0.5
    literal_lookups: float = 1.0
    scoped_lists: float = 1.0
    plural_lookups: float = 0.3
    singular_lookups: float = 0.5
    time_evidence: float = 0.3
    argument_description_weight: float = 0.2
    argument_description_b: float = 0.75
    caller_weight: float = 0.5
    set_wrong_way_hops: float = 2.0
    set_home_hops: float = 0.45
    set_plumbing_hops: float = 0.7
    write_weight: float = 1.0
    # 0.2 until the corpus grid chose 0.4 in sample and by all nine held-out sets, once a
    # request's slices read the wide ranking and its write's answer came first.
    write_object_evidence: float = 0.4


def _argument_words(entry: CorpusEntry, corpus: Corpus) -> str:
    """Argument names, and the fields of input-object arguments (`filter: {minRating}`)."""
    words: list[str] = []
    for argument in entry.arguments:
        words.append(argument.name)
        words.extend(corpus.input_fields.get(argument.type.strip("[]!"), ()))
    return " ".join(words)


def _return_detail_words(entry: CorpusEntry, corpus: Corpus) -> str:
    """What the return type says of itself: its description and, for an enum, its values."""
    target = entry.named_return_type
    values = " ".join(corpus.enum_values.get(target, ())).replace("_", " ").lower()
    return f"{corpus.type_descriptions.get(target, '')} {values}"


def _part_texts(corpus: Corpus, stem: Stemmer) -> dict[str, list[list[str]]]:
    """The stemmed words of each part of every entry."""
    entries = corpus.entries
    return {
        "name": [stem(e.field) for e in entries],
        "owner": [stem(e.owner) for e in entries],
        "return": [stem(e.named_return_type) for e in entries],
        "description": [stem(e.description) for e in entries],
        "arguments": [stem(_argument_words(e, corpus)) for e in entries],
        "return_detail": [stem(_return_detail_words(e, corpus)) for e in entries],
        "argument_descriptions": [
            stem(" ".join(a.description or "" for a in e.arguments)) for e in entries
        ],
    }


def _term_table(
    corpus: Corpus, stem: Stemmer, params: StructuralParams
) -> tuple[list[str], IntArray, IntArray, FloatArray]:
    """BM25F over the parts of every entry, computed once per corpus and knobs: for each term
    (in first-seen order) the entries it occurs in and what it adds to each one's score,
    idf · t̃f / (k1 + t̃f) with t̃f = Σ_part w · tf / (1 − b + b · len/avg). A question's
    lexical score is then the sum of its terms' rows."""
    import numpy as np

    texts = _part_texts(corpus, stem)
    size = len(corpus)
    lengths = {p: np.array([len(ws) for ws in texts[p]], dtype=float) for p in texts}
    average = {p: max(float(lengths[p].mean()), 1e-9) for p in texts}
    weights = {
        "name": (params.name_weight, params.name_b),
        "owner": (params.owner_weight, params.owner_b),
        "return": (params.return_weight, params.return_b),
        "description": (DESCRIPTION_WEIGHT, params.description_b),
        "arguments": (params.arguments_weight, params.arguments_b),
        "return_detail": (params.return_detail_weight, params.return_detail_b),
        "argument_descriptions": (
            params.argument_description_weight,
            params.argument_description_b,
        ),
    }
    counts: dict[str, dict[str, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    documents: dict[str, set[int]] = defaultdict(set)
    for part, lists in texts.items():
        if not weights[part][0]:
            continue  # a part without weight counts in no term's document frequency either
        for position, words in enumerate(lists):
            for word in words:
                by_doc = counts[word][part]
                by_doc[position] = by_doc.get(position, 0) + 1
                documents[word].add(position)
    terms: list[str] = []
    ends: list[int] = []
    rows: list[Any] = []
    values: list[Any] = []
    total = 0
    for word, parts in counts.items():
        docs = documents[word]
        idf = math.log(1 + (size - len(docs) + 0.5) / (len(docs) + 0.5))
        pseudo_tf = np.zeros(size)
        for part, by_doc in parts.items():
            weight, b = weights[part]
            if not weight:
                continue
            positions = np.fromiter(by_doc.keys(), dtype=np.int64, count=len(by_doc))
            frequencies = np.fromiter(by_doc.values(), dtype=float, count=len(by_doc))
            norm = 1 - b + b * lengths[part][positions] / average[part]
            pseudo_tf[positions] += weight * frequencies / norm
        row = np.flatnonzero(pseudo_tf)
        terms.append(word)
        rows.append(row)
        values.append(idf * pseudo_tf[row] / (params.k1 + pseudo_tf[row]))
        total += len(row)
        ends.append(total)
    empty_int = np.zeros(0, dtype=np.int64)
    return (
        terms,
        np.array(ends, dtype=np.int64),
        np.concatenate(rows) if rows else empty_int,
        np.concatenate(values) if values else np.zeros(0),
    )


SET_ROUTE_KINDS = range(4)
SET_ROUTE_NONE, SET_ROUTE_HOME, SET_ROUTE_PLUMBING, SET_ROUTE_BY_IDENTIFIER = SET_ROUTE_KINDS
"""What an entry is on a way to a set (`StructuralIndex.set_route`): nothing in particular; a
list or connection of objects that belong to its owner (`Project.mergeRequests`, where
`MergeRequest.project` is a non-null `Project`: the set's home); a connection's or page's
way to its items (`nodes`, `edges`, an edge's `node`, a page's items); a lookup of one
object by identifiers only (`mergeRequest(id: MergeRequestID!)`)."""


def _reached_types(
    corpus: Corpus,
) -> tuple[list[str], list[int], list[int], list[int], list[int], list[int]]:
    """The object types and unions fields reach, and by entry: the type it reaches (a
    connection's node type for a connection; -1 for none) and its shape: 1 a lookup (one
    object, chosen by a required argument), 2 many (a list or a connection), 0 anything else.
    With each type, how many fields reach it (a schema's central types are reached from
    everywhere), each entry's kind on a way to a set (`SET_ROUTE_…`, see `_set_routes`) and
    the set it is on the way to (its reached type, but for a connection's `edges`: the type
    of its nodes)."""
    entries = corpus.entries
    edge_nodes = {e.owner: e.named_return_type for e in entries if e.field == "node"}
    pages = list_pages(corpus)
    nodes: dict[str, str] = {}
    plumbing: set[int] = set()
    for position, entry in enumerate(entries):
        # A connection's `nodes`, or a list page's items (`schemanav.corpus.pages`).
        if entry.field == "nodes" or pages.get(entry.owner) == entry.field:
            nodes[entry.owner] = entry.named_return_type
            plumbing.add(position)
        elif entry.field == "edges" and entry.named_return_type in edge_nodes:
            nodes.setdefault(entry.owner, edge_nodes[entry.named_return_type])
            plumbing.add(position)
        elif entry.field == "node" and entry.owner in edge_nodes:
            plumbing.add(position)
    for position, entry in enumerate(entries):
        # Beside its edges, a connection's list of its node type is its `nodes` by any name.
        if (
            position not in plumbing
            and entry.returns_list
            and nodes.get(entry.owner) == entry.named_return_type
        ):
            plumbing.add(position)
    numbers: dict[str, int] = {}
    target: list[int] = []
    shape: list[int] = []
    owners = corpus.owners
    unions = object_unions(corpus)
    for entry in entries:
        named = entry.named_return_type
        listed = entry.returns_list
        if named in nodes:
            named, listed = nodes[named], True
        if named not in owners and named not in unions:
            target.append(-1)
            shape.append(0)
            continue
        target.append(numbers.setdefault(named, len(numbers)))
        required = entry.takes_required_argument
        shape.append(2 if listed else 1 if required else 0)
    counts = Counter(t for t in target if t >= 0)
    reached = list(numbers)
    routes = _set_routes(corpus, reached, target, shape, plumbing)
    set_target = [  # a connection's `edges` lead to the set of its nodes, as `nodes` do
        numbers.get(edge_nodes[entry.named_return_type], -1)
        if position in plumbing and entry.named_return_type in edge_nodes
        else target[position]
        for position, entry in enumerate(entries)
    ]
    return reached, target, shape, [counts[n] for n in range(len(numbers))], routes, set_target


def _set_routes(
    corpus: Corpus, reached: list[str], target: list[int], shape: list[int], plumbing: set[int]
) -> list[int]:
    """Each entry's kind on a way to a set (`SET_ROUTE_…`). A set's home is the list whose
    items point back at its owner by a non-null field of one object (of the owner's type or
    of an interface or union it belongs to): every merge request has its one project, so
    `Project.mergeRequests` holds them all, where `CurrentUser.recentlyViewedMergeRequests`
    is a selection. A nullable back reference (an author who may be deleted) is no home."""
    homes: dict[str, set[str]] = defaultdict(set)  # type -> what its non-null objects are
    for entry in corpus.entries:
        if not entry.returns_list and entry.return_type.endswith("!"):
            homes[entry.owner].add(entry.named_return_type)
    belongs_to: dict[str, set[str]] = defaultdict(set)
    for abstract, members in corpus.possible_types.items():
        for member in members:
            belongs_to[member].add(abstract)
    routes: list[int] = []
    for position, entry in enumerate(corpus.entries):
        if position in plumbing:
            routes.append(SET_ROUTE_PLUMBING)
        elif shape[position] == 2:
            back = homes.get(reached[target[position]], set())
            owner = entry.owner
            home = owner in back or bool(belongs_to.get(owner, set()) & back)
            routes.append(SET_ROUTE_HOME if home else SET_ROUTE_NONE)
        elif shape[position] == 1 and _by_identifiers(entry):
            routes.append(SET_ROUTE_BY_IDENTIFIER)
        else:
            routes.append(SET_ROUTE_NONE)
    return routes


def _by_identifiers(entry: CorpusEntry) -> bool:
    """Whether every required argument is an identifier (`ID`, or a scalar named `…ID`): a
    lookup by a number or a name (`pullRequest(number:)`) is not one."""
    required = [a.type for a in entry.arguments if a.type.endswith("!")]
    return bool(required) and all(map(is_identifier_type, required))


# How each kind of array field of `StructuralIndex` is stored: raw little-endian bytes.
_ARRAY_DTYPES = {"IntArray": "<i8", "FloatArray": "<f8"}


@dataclass(frozen=True, eq=False)
class StructuralIndex:
    """What `StructuralBackend.index` computes from a corpus and the knobs that is not cheap,
    kept in the cache directory between runs (the graph is not: it is rebuilt from the corpus).

    Every field is an array (`IntArray`, `FloatArray`: stored as raw bytes) or a JSON value
    (stored in the payload's first line); adding one is a line here and its computation in
    `build`, and `to_payload` / `from_payload` follow the field list.
    """

    size: int
    terms: list[str]
    term_ends: IntArray  # the rows of terms[i] are positions[term_ends[i-1]:term_ends[i]]
    positions: IntArray  # entries a term occurs in
    contributions: FloatArray  # what the term adds to each of those entries' BM25F score
    owner_of: IntArray  # each entry's owner type, numbered
    name_commonness: FloatArray  # log(1 + types sharing the field's name), scaled to 0…1
    reached: list[str]  # the object types and unions fields reach, numbered (`_reached_types`)
    reached_by: list[int]  # how many fields reach each of them
    target: IntArray  # each entry's reached type by number, -1 for none
    shape: IntArray  # each entry's shape: 1 a lookup, 2 a list or connection, 0 other
    set_route: IntArray  # each entry's kind on a way to a set (`SET_ROUTE_…`)
    set_target: IntArray  # the set each entry is on the way to, by number, -1 for none
    result_object: IntArray  # each reached type's one object (`result_unions`), -1 for none

    @classmethod
    def build(cls, corpus: Corpus, params: StructuralParams, stem: Stemmer) -> StructuralIndex:
        import numpy as np

        terms, term_ends, positions, contributions = _term_table(corpus, stem, params)
        owners: dict[str, int] = {}
        owner_of = np.array(
            [owners.setdefault(e.owner, len(owners)) for e in corpus.entries], dtype=np.int64
        )
        sharing = Counter(entry.field for entry in corpus.entries)
        most = math.log(1 + max(sharing.values(), default=1))
        reached, target, shape, reached_by, set_route, set_target = _reached_types(corpus)
        numbers, results = {name: n for n, name in enumerate(reached)}, result_unions(corpus)
        return cls(
            size=len(corpus),
            terms=terms,
            term_ends=term_ends,
            positions=positions,
            contributions=contributions,
            owner_of=owner_of,
            name_commonness=np.array(
                [math.log(1 + sharing[entry.field]) / most for entry in corpus.entries],
                dtype=np.float64,
            ),
            reached=reached,
            reached_by=reached_by,
            target=np.array(target, dtype=np.int64),
            shape=np.array(shape, dtype=np.int64),
            set_route=np.array(set_route, dtype=np.int64),
            set_target=np.array(set_target, dtype=np.int64),
            result_object=np.array(
                [numbers.get(results.get(name, ""), -1) for name in reached], dtype=np.int64
            ),
        )

    def to_payload(self) -> bytes:
        """One line of JSON (the JSON fields and each array's length), then the arrays."""
        import numpy as np

        values: dict[str, Any] = {}
        lengths: dict[str, int] = {}
        blobs: list[bytes] = []
        for item in fields(self):
            value = getattr(self, item.name)
            if item.type in _ARRAY_DTYPES:
                lengths[item.name] = len(value)
                blobs.append(np.ascontiguousarray(value, dtype=_ARRAY_DTYPES[item.type]).tobytes())
            else:
                values[item.name] = value
        head = json.dumps({"values": values, "arrays": lengths}, ensure_ascii=True)
        return head.encode("ascii") + b"\n" + b"".join(blobs)

    @classmethod
    def from_payload(cls, data: bytes) -> StructuralIndex:
        """The index `to_payload` wrote; ValueError saying what is wrong if it is not one."""
        import numpy as np

        end = data.find(b"\n")
        if end < 0:
            raise ValueError("no header line")
        try:
            head = json.loads(data[:end].decode("ascii"))
            values, lengths = head["values"], head["arrays"]
        except (UnicodeDecodeError, ValueError, RecursionError, KeyError, TypeError):
            raise ValueError("header is not valid JSON") from None
        if not isinstance(values, dict) or not isinstance(lengths, dict):
            raise ValueError("malformed header")
        found: dict[str, Any] = {}
        offset = end + 1
        for item in fields(cls):
            if item.type not in _ARRAY_DTYPES:
                if item.name not in values:
                    raise ValueError(f"no {item.name}")
                found[item.name] = values[item.name]
                continue
            dtype = np.dtype(_ARRAY_DTYPES[item.type])
            count = lengths.get(item.name)
            if type(count) is not int or count < 0 or offset + count * dtype.itemsize > len(data):
                raise ValueError(f"{item.name} does not fit the payload")
            found[item.name] = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
            offset += count * dtype.itemsize
        if offset != len(data):
            raise ValueError(f"{len(data) - offset} bytes after the last array")
        index = cls(**found)
        problem = index.problem()
        if problem:
            raise ValueError(problem)
        return index

    def problem(self) -> str | None:
        """What makes this index unusable (shapes, ranges, non-finite numbers), or None."""
        import numpy as np

        size = self.size
        if type(size) is not int or size < 0:
            return "malformed size"
        if not isinstance(self.terms, list) or not all(isinstance(t, str) for t in self.terms):
            return "malformed terms"
        ends, positions = self.term_ends, self.positions
        if len(ends) != len(self.terms) or len(self.contributions) != len(positions):
            return "terms and rows differ in length"
        if len(ends) and (
            int(ends[-1]) != len(positions) or int(ends[0]) < 0 or bool((np.diff(ends) < 0).any())
        ):
            return "malformed term rows"
        if len(positions) and (int(positions.min()) < 0 or int(positions.max()) >= size):
            return "an entry out of range"
        if len(self.owner_of) != size or len(self.name_commonness) != size:
            return "per-entry arrays of the wrong length"
        if size and (int(self.owner_of.min()) < 0 or int(self.owner_of.max()) >= size):
            return "an owner out of range"
        if not (np.isfinite(self.contributions).all() and np.isfinite(self.name_commonness).all()):
            return "non-finite numbers"
        reached = self.reached
        if not isinstance(reached, list) or not all(isinstance(t, str) for t in reached):
            return "malformed reached types"
        by = self.reached_by
        if not isinstance(by, list) or len(by) != len(reached) or not all(
            type(n) is int and n >= 0 for n in by
        ):
            return "malformed reach counts"
        if any(len(a) != size for a in (self.target, self.shape, self.set_route, self.set_target)):
            return "per-entry arrays of the wrong length"
        results = self.result_object
        if len(results) != len(reached) or (
            len(results) and (int(results.min()) < -1 or int(results.max()) >= len(reached))
        ):
            return "malformed result objects"
        if size and (
            int(self.target.min()) < -1
            or int(self.target.max()) >= len(reached)
            or int(self.shape.min()) < 0
            or int(self.shape.max()) > 2
            or int(self.set_route.min()) < SET_ROUTE_KINDS.start
            or int(self.set_route.max()) >= SET_ROUTE_KINDS.stop
            or int(self.set_target.min()) < -1
            or int(self.set_target.max()) >= len(reached)
        ):
            return "a reached type or shape out of range"
        return None
