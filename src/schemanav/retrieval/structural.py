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
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from schemanav.defaults import DEFAULT_MAX_PATHS
from schemanav.graph import SchemaGraph
from schemanav.retrieval.analyzer import Stemmer
from schemanav.retrieval.base import BackendContext, SearchHit
from schemanav.retrieval.registry import NoOptions, register_backend

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from schemanav.corpus import Corpus, CorpusEntry, Format

    FloatArray = npt.NDArray[np.float64]


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
    one_or_many: float = 0.0


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


class _FieldIndex:
    """BM25F postings over the four parts of every corpus entry."""

    PARTS = ("name", "owner", "return", "description", "arguments", "return_detail")

    def __init__(self, corpus: Corpus, stem: Stemmer) -> None:
        import numpy as np

        entries = corpus.entries
        texts: dict[str, list[list[str]]] = {
            "name": [stem(e.field) for e in entries],
            "owner": [stem(e.owner) for e in entries],
            "return": [stem(e.named_return_type) for e in entries],
            "description": [stem(e.description) for e in entries],
            "arguments": [stem(_argument_words(e, corpus)) for e in entries],
            "return_detail": [stem(_return_detail_words(e, corpus)) for e in entries],
        }
        self.size = len(entries)
        self.lengths = {p: np.array([len(ws) for ws in texts[p]], dtype=float) for p in texts}
        self.average = {p: max(float(self.lengths[p].mean()), 1e-9) for p in texts}
        counts: dict[str, dict[str, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
        documents: dict[str, set[int]] = defaultdict(set)
        for part, lists in texts.items():
            for position, words in enumerate(lists):
                for word in words:
                    by_doc = counts[word][part]
                    by_doc[position] = by_doc.get(position, 0) + 1
                    documents[word].add(position)
        self.postings: dict[str, dict[str, tuple[Any, Any]]] = {
            word: {
                part: (
                    np.fromiter(by_doc.keys(), dtype=np.int64, count=len(by_doc)),
                    np.fromiter(by_doc.values(), dtype=float, count=len(by_doc)),
                )
                for part, by_doc in parts.items()
            }
            for word, parts in counts.items()
        }
        n = self.size
        self.idf = {
            word: math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
            for word, docs in documents.items()
        }

    def score(self, terms: list[str], params: StructuralParams) -> FloatArray:
        """BM25F: per term, idf · t̃f / (k1 + t̃f), t̃f = Σ_part w · tf / (1 − b + b · len/avg)."""
        import numpy as np

        weights = {
            "name": (params.name_weight, params.name_b),
            "owner": (params.owner_weight, params.owner_b),
            "return": (params.return_weight, params.return_b),
            "description": (params.description_weight, params.description_b),
            "arguments": (params.arguments_weight, params.arguments_b),
            "return_detail": (params.return_detail_weight, params.return_detail_b),
        }
        scores = np.zeros(self.size)
        for term in terms:
            parts = self.postings.get(term)
            if not parts:
                continue
            pseudo_tf = np.zeros(self.size)
            for part, (positions, frequencies) in parts.items():
                weight, b = weights[part]
                if not weight:
                    continue
                norm = 1 - b + b * self.lengths[part][positions] / self.average[part]
                pseudo_tf[positions] += weight * frequencies / norm
            scores += self.idf[term] * pseudo_tf / (params.k1 + pseudo_tf)
        return scores


_LITERAL = re.compile(r"\d|\"[^\"]+\"|'[^']+'")


def _one_and_many_pairs(corpus: Corpus) -> list[tuple[int, int]]:
    """Fields of one owner that reach the same type once (with a required argument that
    identifies it) and as a list or connection: `pullRequest(number:)` and `pullRequests`."""
    many: dict[tuple[str, str], int] = {}
    for position, entry in enumerate(corpus.entries):
        target = entry.named_return_type
        if entry.return_type.lstrip("!").startswith("["):
            many.setdefault((entry.owner, target), position)
    nodes: dict[str, str] = {}
    for entry in corpus.entries:
        if entry.field == "nodes":
            nodes[entry.owner] = entry.named_return_type
    for position, entry in enumerate(corpus.entries):
        if entry.named_return_type in nodes:
            many.setdefault((entry.owner, nodes[entry.named_return_type]), position)
    pairs = []
    for position, entry in enumerate(corpus.entries):
        single = not entry.return_type.lstrip("!").startswith("[")
        identified = any(a.type.endswith("!") for a in entry.arguments)
        partner = many.get((entry.owner, entry.named_return_type))
        if single and identified and partner is not None and partner != position:
            pairs.append((position, partner))
    return pairs


class StructuralBackend:
    """BM25F + closeness to the root + paths as hits (see the module docstring).

    `StructuralBackend(fmt, params=..., max_paths=...).index(corpus)` is the whole recipe for
    a searcher with any knobs (scripts and tests build theirs this way); the registered
    `structural` backend is this with the default `StructuralParams`.
    """

    def __init__(
        self,
        fmt: Format,
        *,
        params: StructuralParams | None = None,
        max_paths: int = DEFAULT_MAX_PATHS,
    ) -> None:
        self.fmt = fmt
        self.params = params or StructuralParams()
        self.max_paths = max_paths

    def index(self, corpus: Corpus) -> StructuralSearcher:
        import numpy as np

        params = self.params
        stem = Stemmer()
        graph = SchemaGraph(
            corpus,
            abstract_penalty=params.abstract_penalty,
            other_root_cost=params.other_root_cost,
        )
        costs = np.array(graph.owner_costs())
        owners: dict[str, int] = {}
        owner_of = np.array([owners.setdefault(e.owner, len(owners)) for e in corpus.entries])
        sharing = Counter(entry.field for entry in corpus.entries)
        most = math.log(1 + max(sharing.values(), default=1))
        return StructuralSearcher(
            fmt=self.fmt,
            params=params,
            max_paths=self.max_paths,
            corpus=corpus,
            stem=stem,
            fields=_FieldIndex(corpus, stem),
            graph=graph,
            closeness=1.0 / (1.0 + params.root_closeness * costs),
            owner_of=owner_of,
            name_commonness=np.array(
                [math.log(1 + sharing[entry.field]) / most for entry in corpus.entries]
            ),
            pairs=tuple(_one_and_many_pairs(corpus)) if params.one_or_many else (),
        )


@dataclass(frozen=True, eq=False)
class StructuralSearcher:
    """The structural index of one corpus: field postings, the graph, per-entry constants."""

    fmt: Format
    params: StructuralParams
    max_paths: int
    corpus: Corpus
    stem: Stemmer
    fields: _FieldIndex
    graph: SchemaGraph
    closeness: FloatArray
    owner_of: Any
    name_commonness: FloatArray
    pairs: tuple[tuple[int, int], ...] = ()

    @property
    def name(self) -> str:
        return "structural"

    def lexical_scores(self, query: str) -> FloatArray:
        """BM25F scores of every entry, before closeness and paths (for fusion)."""
        return self.fields.score(self.stem(query), self.params)

    def search_scores(self, query: str) -> FloatArray:
        """Every entry's score: BM25F over closeness to the root, plus sibling evidence."""
        import numpy as np

        scores = self.lexical_scores(query) * self.closeness
        if self.params.one_or_many and self.pairs:
            # Of a pair (`issue(number:)` and `issues`), the question decides which leads:
            # one that names an object by a literal (a number, a quoted string) wants the
            # single-object field, any other the list.
            names_one = bool(_LITERAL.search(query))
            for one, many in self.pairs:
                top = max(scores[one], scores[many])
                if top > 0.0:
                    scores[one if names_one else many] = top * (1.0 + self.params.one_or_many)
        best = float(scores.max()) if scores.size else 0.0
        if best <= 0.0 or not self.params.sibling_evidence:
            return scores
        owner_best = np.zeros(int(self.owner_of.max()) + 1)
        np.maximum.at(owner_best, self.owner_of, scores)
        share = self.params.sibling_evidence * owner_best[self.owner_of] * self.name_commonness
        result: FloatArray = scores + share
        return result

    def search(self, query: str, k: int) -> list[SearchHit]:
        return self.rank(self.search_scores(query), k)

    def rank(self, scores: FloatArray, k: int) -> list[SearchHit]:
        """Hits from per-entry scores: best entries first, each after its path from the root."""
        import numpy as np

        if k < 1 or not scores.size or float(scores.max()) <= 0.0:
            return []
        order = np.argsort(-scores, kind="stable")
        routes = None
        if self.params.expand_paths or self.max_paths:
            relevance = self.params.path_relevance * scores / float(scores.max())
            routes = self.graph.shortest_paths(field_cost=(1.0 - relevance).tolist())
        # A path field enters the list with the score of the field it leads to, so scores
        # never increase down the list.
        ranked: dict[int, float] = {}
        chains: dict[str, list[int]] = {}  # one way in per owner type, however many fields
        entries = self.corpus.entries
        values = scores.tolist()
        for position in order.tolist():
            score = values[position]
            if score <= 0.0 or len(ranked) >= k:
                break
            chain: list[int] = []
            if self.params.expand_paths and routes is not None:
                owner = entries[position].owner
                chain = chains.get(owner) or chains.setdefault(
                    owner, self.graph.chain_to(owner, routes)
                )
            for entry in [*chain, position]:
                ranked.setdefault(entry, score)
        tokens = self.corpus.token_counts(self.fmt)
        texts = self.corpus.texts(self.fmt)  # rendered once per corpus, not once per hit
        return [
            SearchHit(
                coordinate=self.corpus.coordinates[entry],
                text=texts[entry],
                score=score,
                rank=rank,
                tokens=tokens[entry],
                paths_to_root=self.graph.paths_to_root(entry, self.max_paths, routes),
            )
            for rank, (entry, score) in enumerate(list(ranked.items())[:k], start=1)
        ]


@register_backend("structural")
def _structural_factory(options: NoOptions, context: BackendContext) -> StructuralBackend:
    return StructuralBackend(context.fmt, max_paths=context.max_paths)
