"""Structure-aware retrieval: the schema is a graph, not a bag of sentences.

Three mechanisms, each following from how GraphQL schemas are built rather than from any
one schema's names:

1. BM25F over the parts of a field: its name, its owner type, its return type and its
   description, each with its own weight, so "pull request author" can match a field named
   `author` on `PullRequest` that returns `Actor`, even though no single text says it all.
2. Closeness to the root: fields of types an agent reaches in few hops from the query root
   are what operations are made of; a field's score is divided by (1 + λ · cost to reach its
   owner type).
3. Sibling evidence: a question about pull requests wants a pull request's `number` and
   `title` too, though it names neither. Each field receives a share of the best score among
   its owner type's fields, in proportion to how generic its name is (how many types have a
   field of that name: `name`, `title`, `state` are shared descriptors, `mergeQueueEntry`
   is not).
4. Paths as hits: an agent cannot use a field it cannot reach, so each hit is preceded by
   the fields that lead to it from the root (chosen per question: hops through relevant
   fields are cheaper). Those path fields are ranked hits with their own token cost, counted
   in every depth and budget metric.
5. Short forms the schema implies: a question word the schema does not know is read as the
   type name it abbreviates (`mrs` → "merge requests" where `MergeRequest` is a type, `repo`
   → "repository"), and a negated word also as the word (`unresolved` → "resolved": a field
   `resolved` answers it by its value). See `schemanav.retrieval.quantity.ShortForms`.
6. One object or many: a question that names a type once, in the singular, beside a literal
   identifier (a number, a quoted string, a path, a global ID) wants the lookup of one
   object, so lookups reaching that type score more; a type it names in the plural beside it
   is a set of that object's, so that type's lists into it score more too. See
   `schemanav.retrieval.quantity`.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.cache import STRUCTURAL_INDEX_CACHE, cache_key, read_matching, write_checked
from schemanav.defaults import DEFAULT_MAX_PATHS
from schemanav.events import Events, SilentEvents
from schemanav.graph import SchemaGraph, ShortestPaths
from schemanav.process import no_cyclic_gc
from schemanav.retrieval.analyzer import Stemmer
from schemanav.retrieval.base import BackendContext, Ranking, SearchHit
from schemanav.retrieval.quantity import without_path_literals
from schemanav.retrieval.registry import NoOptions, register_backend

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from schemanav.corpus import Corpus, CorpusEntry, Format
    from schemanav.retrieval.quantity import ShortForms, TypeNames

    FloatArray = npt.NDArray[np.float64]
    IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class StructuralParams:
    """The knobs, with the values chosen in benchmarks/structural-experiments.md."""

    name_weight: float = 3.0
    owner_weight: float = 1.5
    return_weight: float = 1.0
    description_weight: float = 0.5
    arguments_weight: float = 0.3
    return_detail_weight: float = 0.3
    name_b: float = 0.5
    owner_b: float = 0.5
    return_b: float = 0.5
    description_b: float = 0.75
    arguments_b: float = 0.75
    return_detail_b: float = 0.75
    k1: float = 1.2
    root_closeness: float = 0.3
    abstract_penalty: float = 1.0
    other_root_cost: float = 3.0
    path_relevance: float = 0.5
    sibling_evidence: float = 0.2
    expand_paths: bool = True
    literal_lookups: float = 1.0
    short_forms: bool = True
    scoped_lists: float = 1.0
    path_literals: bool = True
    plural_lookups: float = 0.3


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
    counts: dict[str, dict[str, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    documents: dict[str, set[int]] = defaultdict(set)
    for part, lists in texts.items():
        for position, words in enumerate(lists):
            for word in words:
                by_doc = counts[word][part]
                by_doc[position] = by_doc.get(position, 0) + 1
                documents[word].add(position)
    weights = {
        "name": (params.name_weight, params.name_b),
        "owner": (params.owner_weight, params.owner_b),
        "return": (params.return_weight, params.return_b),
        "description": (params.description_weight, params.description_b),
        "arguments": (params.arguments_weight, params.arguments_b),
        "return_detail": (params.return_detail_weight, params.return_detail_b),
    }
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


_RENDER_ONE_BY_ONE = 200
"""Up to this many hits, `rank` renders each hit's text alone; beyond, every entry at once."""

_WALK_EVERYTHING_FROM = 200
"""From this many hits, a ranking's routes settle every type at once (in array rounds); a
shorter one walks the queue only as far as its owner types."""

def _reached_types(corpus: Corpus) -> tuple[list[str], list[int], list[int], list[int]]:
    """The object types fields reach, and by entry: the type it reaches (a connection's node
    type for a connection; -1 for none) and its shape: 1 a lookup (one object, chosen by a
    required argument), 2 many (a list or a connection), 0 anything else. With each type, how
    many fields reach it (a schema's central types are reached from everywhere)."""
    entries = corpus.entries
    edge_nodes = {e.owner: e.named_return_type for e in entries if e.field == "node"}
    nodes: dict[str, str] = {}
    for entry in entries:
        if entry.field == "nodes":
            nodes[entry.owner] = entry.named_return_type
        elif entry.field == "edges" and entry.named_return_type in edge_nodes:
            nodes.setdefault(entry.owner, edge_nodes[entry.named_return_type])
    numbers: dict[str, int] = {}
    target: list[int] = []
    shape: list[int] = []
    owners = corpus.owners
    for entry in entries:
        named = entry.named_return_type
        listed = entry.return_type.lstrip("!").startswith("[")
        if named in nodes:
            named, listed = nodes[named], True
        if named not in owners:
            target.append(-1)
            shape.append(0)
            continue
        target.append(numbers.setdefault(named, len(numbers)))
        required = any(a.type.endswith("!") for a in entry.arguments)
        shape.append(2 if listed else 1 if required else 0)
    counts = Counter(t for t in target if t >= 0)
    return list(numbers), target, shape, [counts[n] for n in range(len(numbers))]


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
    reached: list[str]  # the object types fields reach, numbered (see `_reached_types`)
    reached_by: list[int]  # how many fields reach each of them
    target: IntArray  # each entry's reached type by number, -1 for none
    shape: IntArray  # each entry's shape: 1 a lookup, 2 a list or connection, 0 other

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
        reached, target, shape, reached_by = _reached_types(corpus)
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
        if len(self.target) != size or len(self.shape) != size:
            return "per-entry arrays of the wrong length"
        if size and (
            int(self.target.min()) < -1
            or int(self.target.max()) >= len(reached)
            or int(self.shape.min()) < 0
            or int(self.shape.max()) > 2
        ):
            return "a reached type or shape out of range"
        return None


class StructuralBackend:
    """BM25F + closeness to the root + paths as hits (see the module docstring).

    `StructuralBackend(fmt, params=..., max_paths=...).index(corpus)` is the whole recipe for
    a searcher with any knobs (scripts and tests build theirs this way); the registered
    `structural` backend is this with the default `StructuralParams`. With a `cache_dir` the
    `StructuralIndex` is kept there, keyed by the corpus, the knobs and the analyzer, and read
    back by later runs; a damaged or unreadable one is rebuilt with a warning to `events`.
    """

    def __init__(
        self,
        fmt: Format,
        *,
        params: StructuralParams | None = None,
        max_paths: int = DEFAULT_MAX_PATHS,
        cache_dir: Path | None = None,
        events: Events | None = None,
    ) -> None:
        self.fmt = fmt
        self.params = params or StructuralParams()
        self.max_paths = max_paths
        self.cache_dir = cache_dir
        self.events = events or SilentEvents()

    def index(self, corpus: Corpus) -> StructuralSearcher:
        import numpy as np

        params = self.params
        stem = Stemmer()
        # Both allocate many long-lived objects and no garbage cycles: collections would
        # walk them again and again and find nothing.
        with no_cyclic_gc():
            state = self._cached_state(corpus, stem)
            graph = SchemaGraph(
                corpus,
                abstract_penalty=params.abstract_penalty,
                other_root_cost=params.other_root_cost,
            )
            costs = np.array(graph.owner_costs())
        return StructuralSearcher(
            fmt=self.fmt,
            params=params,
            max_paths=self.max_paths,
            corpus=corpus,
            stem=stem,
            state=state,
            graph=graph,
            closeness=1.0 / (1.0 + params.root_closeness * costs),
        )

    def cache_header(self, corpus: Corpus) -> dict[str, Any]:
        """Everything the cached index depends on; a file whose header differs is not used."""
        import tantivy

        return {
            "kind": STRUCTURAL_INDEX_CACHE.kind,
            "version": STRUCTURAL_INDEX_CACHE.version,
            "corpus": corpus.fingerprint(),
            "entries": len(corpus),
            "params": asdict(self.params),
            "analyzer": str(getattr(tantivy, "__version__", "unknown")),
        }

    def cache_path(self, corpus: Corpus) -> Path | None:
        if self.cache_dir is None:
            return None
        key = cache_key(self.cache_header(corpus))
        return STRUCTURAL_INDEX_CACHE.path(self.cache_dir, key)

    def _cached_state(self, corpus: Corpus, stem: Stemmer) -> StructuralIndex:
        path = self.cache_path(corpus)
        if path is None:
            return StructuralIndex.build(corpus, self.params, stem)
        header = self.cache_header(corpus)
        found = read_matching(path, header, "corpus or other knobs")
        problem = found if isinstance(found, str) else None
        if isinstance(found, tuple):
            try:
                state = StructuralIndex.from_payload(found[1])
            except ValueError as err:
                problem = str(err)
            else:
                if state.size == len(corpus):
                    return state
                problem = f"it indexes {state.size} entries, the corpus has {len(corpus)}"
        if problem:
            self.events.warning(
                f"the structural index cache {path} is not usable ({problem}); rebuilding it"
            )
        state = StructuralIndex.build(corpus, self.params, stem)
        with contextlib.suppress(OSError):  # an unwritable cache only costs speed
            write_checked(path, header, state.to_payload())
        return state


@dataclass(frozen=True, eq=False)
class StructuralSearcher:
    """The structural index of one corpus: term rows, the graph, per-entry constants."""

    fmt: Format
    params: StructuralParams
    max_paths: int
    corpus: Corpus
    stem: Stemmer
    state: StructuralIndex
    graph: SchemaGraph
    closeness: FloatArray

    @property
    def name(self) -> str:
        return "structural"

    @cached_property
    def _owner_numbers(self) -> list[int]:
        """Each entry's owner by its number in the graph (`SchemaGraph.type_ids`)."""
        type_ids = self.graph.type_ids
        return [type_ids[entry.owner] for entry in self.corpus.entries]

    @cached_property
    def _term_rows(self) -> dict[str, tuple[int, int]]:
        ends = self.state.term_ends.tolist()
        return {
            term: (ends[number - 1] if number else 0, end)
            for number, (term, end) in enumerate(zip(self.state.terms, ends, strict=True))
        }

    def lexical_scores(self, query: str) -> FloatArray:
        """BM25F scores of every entry, before closeness and paths (for fusion)."""
        import numpy as np

        scores: FloatArray = np.zeros(self.state.size)
        rows, positions, contributions = (
            self._term_rows,
            self.state.positions,
            self.state.contributions,
        )
        for term in self.stem(query):
            row = rows.get(term)
            if row is not None:
                start, end = row
                scores[positions[start:end]] += contributions[start:end]
        return scores

    @cached_property
    def _short_forms(self) -> ShortForms:
        from schemanav.retrieval.quantity import ShortForms

        rows, stem = self._term_rows, self.stem
        return ShortForms(
            dict(zip(self.state.reached, self.state.reached_by, strict=True)),
            lambda word: bool(stem(word)) and all(t in rows for t in stem(word)),
        )

    @cached_property
    def _type_names(self) -> TypeNames:
        from schemanav.retrieval.quantity import TypeNames

        return TypeNames(self.state.reached)

    def _literal_lookups(self, query: str, scores: FloatArray) -> FloatArray:
        """A question that names a type once beside a literal identifier (`merge request 42`,
        `project group/project`) wants the lookup of one object of it: lookups reaching it
        score `literal_lookups` more. A type it names in the plural is then wanted as a set
        of that object's (`merge requests of project group/project`): the lists and
        connections of the named object's type into it score `scoped_lists` more (see
        `schemanav.retrieval.quantity`). A type named only in the plural is a set: lookups
        of one object of it score `plural_lookups` less."""
        import numpy as np

        mentions = self._type_names.mentions(query)
        one = mentions.one
        sets = mentions.plural - mentions.singular
        numbers = self._reached_numbers
        if sets and self.params.plural_lookups:
            wanted = np.fromiter((numbers[n] for n in sets if n in numbers), dtype=np.int64)
            single = self._among(self.state.target, wanted) & (self.state.shape == 1)
            scores = scores * np.where(single, 1.0 - self.params.plural_lookups, 1.0)
        if not one:
            return scores
        ids = np.fromiter((numbers[name] for name in one), dtype=np.int64)
        lookups = self._among(self.state.target, ids) & (self.state.shape == 1)
        result: FloatArray = scores * np.where(lookups, 1.0 + self.params.literal_lookups, 1.0)
        plural = mentions.plural
        if plural and self.params.scoped_lists:
            many = np.fromiter((numbers[n] for n in plural if n in numbers), dtype=np.int64)
            scoped = (
                self._among(self._owner_reached, ids)
                & self._among(self.state.target, many)
                & (self.state.shape == 2)
            )
            result = result * np.where(scoped, 1.0 + self.params.scoped_lists, 1.0)
        return result

    def _among(self, numbers: IntArray, wanted: IntArray) -> Any:
        """`np.isin(numbers, wanted)` for reached-type numbers (-1 for none): a look-up in a
        table with a slot per reached type and one more, always False, that -1 indexes."""
        import numpy as np

        table = np.zeros(len(self.state.reached) + 1, dtype=bool)
        table[wanted] = True
        return table[numbers]

    @cached_property
    def _reached_numbers(self) -> dict[str, int]:
        """Each reached type's number in the index (`StructuralIndex.reached`)."""
        return {name: n for n, name in enumerate(self.state.reached)}

    @cached_property
    def _owner_reached(self) -> IntArray:
        """Each entry's owner by its number among the reached types (-1: none reaches it)."""
        import numpy as np

        numbers = self._reached_numbers
        return np.array([numbers.get(e.owner, -1) for e in self.corpus.entries], dtype=np.int64)

    def search_scores(self, query: str) -> FloatArray:
        """Every entry's score: BM25F over closeness to the root, plus sibling evidence."""
        import numpy as np

        if self.params.short_forms:
            query = self._short_forms.expand(query)
        lexical = without_path_literals(query) if self.params.path_literals else query
        scores = self.lexical_scores(lexical) * self.closeness
        if self.params.literal_lookups or self.params.scoped_lists or self.params.plural_lookups:
            scores = self._literal_lookups(query, scores)
        best = float(scores.max()) if scores.size else 0.0
        if best <= 0.0 or not self.params.sibling_evidence:
            return scores
        owner_of = self.state.owner_of
        owner_best = np.zeros(int(owner_of.max()) + 1)
        np.maximum.at(owner_best, owner_of, scores)
        share = self.params.sibling_evidence * owner_best[owner_of] * self.state.name_commonness
        result: FloatArray = scores + share
        return result

    def search(self, query: str, k: int) -> list[SearchHit]:
        return self.rank(self.search_scores(query), k)

    def _ordered(
        self, scores: FloatArray, k: int, *, paths: bool
    ) -> tuple[list[int], list[float], ShortestPaths | None]:
        """The first `k` entries and their scores, best first, each after its path from the
        root; with the question's routes when they were needed (`paths`: for its hits')."""
        if k < 1 or not scores.size:
            return [], [], None
        top = float(scores.max())
        if top <= 0.0:
            return [], [], None
        routes = None
        if self.params.expand_paths or paths:
            relevance = self.params.path_relevance * scores / top
            routes = self.graph.shortest_paths(field_cost=1.0 - relevance)
            if k >= _WALK_EVERYTHING_FROM:
                routes.settle_all_at_once()  # so deep a ranking asks about nearly every type
        # A path field enters the list with the score of the field it leads to, so scores
        # never increase down the list.
        ranked: dict[int, float] = {}
        add = ranked.setdefault
        best = _best_first(scores, k)
        if self.params.expand_paths and routes is not None:
            # One way in per owner type, however many of its fields rank: listed before the
            # first of them (with its score); for the others it is listed already.
            owners, entered, chain = self._owner_numbers, set(), routes.shared_chain
            for positions, values in best:
                for position, score in zip(positions, values, strict=True):
                    if len(ranked) >= k:
                        break
                    owner = owners[position]
                    if owner in entered:
                        add(position, score)
                        continue
                    entered.add(owner)
                    for entry in chain(owner):
                        add(entry, score)
                    add(position, score)
                if len(ranked) >= k:
                    break
        else:
            for positions, values in best:
                for position, score in zip(positions[: k - len(ranked)], values, strict=False):
                    add(position, score)
                if len(ranked) >= k:
                    break
        return list(ranked)[:k], list(ranked.values())[:k], routes

    def ranking(self, query: str, k: int) -> Ranking:
        """What `search` ranks, as coordinates and scores only (`RanksWithoutHits`)."""
        entries, kept, _ = self._ordered(self.search_scores(query), k, paths=False)
        return Ranking(tuple(map(self.corpus.coordinates.__getitem__, entries)), tuple(kept))

    def rank(self, scores: FloatArray, k: int) -> list[SearchHit]:
        """Hits from per-entry scores: best entries first, each after its path from the root."""
        entries, kept, routes = self._ordered(scores, k, paths=bool(self.max_paths))
        corpus, fmt = self.corpus, self.fmt
        tokens, coordinates = corpus.token_counts(fmt), corpus.coordinates
        # A few hits are rendered one by one; a deep list (a budgeted search) takes every
        # rendering once.
        texts: list[str] | dict[int, str]
        if len(entries) > _RENDER_ONE_BY_ONE:
            texts = corpus.texts(fmt)
        else:
            texts = {entry: corpus.text(fmt, entry) for entry in entries}
        if not self.max_paths:
            return SearchHit.ranked(
                map(coordinates.__getitem__, entries),
                map(texts.__getitem__, entries),
                kept,
                map(tokens.__getitem__, entries),
            )
        return [
            SearchHit(
                coordinate=coordinates[entry],
                text=texts[entry],
                score=score,
                rank=rank,
                tokens=tokens[entry],
                paths_to_root=self.graph.paths_to_root(entry, self.max_paths, routes),
            )
            for rank, (entry, score) in enumerate(zip(entries, kept, strict=True), start=1)
        ]


_FIRST_CHUNK = 4
"""`_best_first` sorts this many times `k` of the best entries first (at least `_MIN_CHUNK`):
a ranking of `k` seldom reads past them, and the rest is sorted only when it does."""
_MIN_CHUNK = 64


def _best_first(scores: FloatArray, k: int) -> Iterator[tuple[list[int], list[float]]]:
    """The entries scoring more than nothing and their scores, best first, in entry order
    among equal scores (what a stable sort of every entry gives), in two chunks: the best
    `_FIRST_CHUNK · k` or so (every entry tying the last of them too), then the rest.

    Why: a question's ranking reads a few dozen entries, but thousands score something;
    sorting and converting all of them took a fifth of a search. Entries of the first
    chunk all score at least its threshold and those of the second less, and each chunk
    keeps entry order among ties, so the two together are that one stable sort."""
    import numpy as np

    positive = np.flatnonzero(scores > 0.0)
    values = scores[positive]
    size = max(_FIRST_CHUNK * k, _MIN_CHUNK)
    if len(values) > size:
        threshold = np.partition(values, len(values) - size)[len(values) - size]
        head = values >= threshold
        order = np.argsort(-values[head], kind="stable")
        yield positive[head][order].tolist(), values[head][order].tolist()
        positive, values = positive[~head], values[~head]
    order = np.argsort(-values, kind="stable")
    yield positive[order].tolist(), values[order].tolist()


@register_backend("structural")
def _structural_factory(options: NoOptions, context: BackendContext) -> StructuralBackend:
    return StructuralBackend(
        context.fmt, max_paths=context.max_paths, cache_dir=context.cache_dir, events=context.events
    )
