"""Structure-aware retrieval: the schema is a graph, not a bag of sentences.

Its mechanisms, each following from how GraphQL schemas are built rather than from any one
schema's names (the index they read is `schemanav.retrieval.structural_index`):

1. BM25F over the parts of a field: its name, its owner type, its return type and its
   description, each with its own weight, so "pull request author" can match a field named
   `author` on `PullRequest` that returns `Actor`, even though no single text says it all.
2. Closeness to the root: fields of types an agent reaches in few hops from the query root
   are what operations are made of; a field's score is divided by (1 + λ · cost to reach its
   owner type), λ being `ROOT_CLOSENESS`.
3. Sibling evidence: a question about pull requests wants a pull request's `number` and
   `title` too, though it names neither. Each field receives a share of the best score among
   its owner type's fields, in proportion to how generic its name is (how many types have a
   field of that name: `name`, `title`, `state` are shared descriptors, `mergeQueueEntry`
   is not). A leaf gets at least a share of the best score among the fields returning its
   type, alike: "her last billing address" names `User.lastBillingAddress`, and the answer
   selects `Address.city` (`_inward`).
4. Paths as hits: an agent cannot use a field it cannot reach, so each hit is preceded by
   the fields that lead to it from the root (chosen per question: hops through relevant
   fields are cheaper). Those path fields are ranked hits with their own token cost, counted
   in every depth and budget metric.
5. Short forms the schema implies: a question word the schema does not know is read as the
   type name it abbreviates (`mrs` → "merge requests" where `MergeRequest` is a type, `repo`
   → "repository"), and a negated word also as the word (`unresolved` → "resolved": a field
   `resolved` answers it by its value). See `schemanav.question.vocabulary.ShortForms`.
6. One object or many: a question that names a type once, in the singular, beside a literal
   identifier (a number, a quoted string, a path, a global ID, a name in snake case) wants
   the lookup of one object, so lookups reaching that type score more; a type it names in the
   plural beside it is a set of that object's, so that type's lists into it score more too. A
   type named only in the plural is a set: its lookups score less and the query root's lists
   of it more. See `schemanav.question.vocabulary`: the slicer reads the same type names by the
   same reader.
   Its ways in follow: a set is reached through its home, the list of the object its items
   belong to (`Project.mergeRequests`: every `MergeRequest` has a non-null `project`), and
   through that list's `nodes`, not through a lookup by identifier that no one asking for
   every open merge request can fill, nor, when the question names an object by its path,
   through the root's list of everyone's (`schemanav.retrieval.type_ways`).
7. Time: a question in time ("merged last month", "stale", a date) wants the timestamps of
   the objects it asks about, though it names none; fields returning a date or time scalar
   (by the scalar's own name or description) get a larger share of their type's best score.
8. The asker: a question in the first person ("my snippets") is about the API's caller,
   whom the schema reaches through a root field its description calls the current or
   authenticated user (`viewer`, `currentUser`): that type's fields score more, and that
   root field is the way in.
9. Argument descriptions are text a field answers to, like its own description: "tags"
   finds `refs(refPrefix:)`, described as taking "`refs/tags/`".
10. Writes (the mutation root's fields, or a namespace's: `Mutation.formBuilder: FbMutation`,
   `schemanav.corpus.groups`): a question in the imperative whose verb and every other word of
   a write's name stand in it ("Close issue 42" → `closeIssue`, "Post …" → `post`) ranks that
   write first, however far it lies (`schemanav.question.grammar.requested_write`); so does,
   when none does, a write named by another verb of its verb's family (English's first two,
   or the two the schema names most writes by) whose other words all name what the verb acts
   on ("Delete the "Winter" tag" → `removeTag`) or, when none, that object and where it is
   acted on ("Remove the checklist from ticket 50077" → `ticketChecklistDelete`), and when
   neither, a write its verb names one word short of its name ("Delete the item … from
   checklist 312" → `ticketChecklistItemDelete`); of several, those the request's first clause
   names most.
11. A request to change something, in any words (an imperative sentence whose verb is not
   one of reading: "Like this post.", `schemanav.question`), weighs the writes
   `write_weight` more: users rarely say the mutation's verb (`addReaction`). A question
   opening as a read does ("Show quote request 7", "Which …": `grammar.asks_to_read`) weighs
   them as much less, and asks for none by name (mechanism 10: "Search the wiki for …" is
   no `search` write): it names a write's words (`requestQuotation`) and asks for none.
12. Such a request names the fields of what it changes ("the subject line of the order
   confirmation email"): each write gets `write_object_evidence` of the best score of the
   objects it returns (returning none, of the object its name names beside its verb:
   `setGroupMetadata`), divided among the writes returning each (`writes.WriteObjects`).
13. A question that follows something as it changes ("Stream the build logs …", "… as they
   come in": `schemanav.question.grammar.streams`) asks for a subscription: the subscription
   root's fields, which start as far behind as the writes, score `write_weight` more than
   the better of their own score and their query twin's (`Query.buildLogs` for
   `Subscription.buildLogs`), and the query root costs what the subscription root does, so
   the types a subscription returns are reached through it.
14. A question looking for a quoted text ("agents matching "ste"", "pages whose title
   mentions 'pricing'") is answered by a field that searches: the fields taking a text search
   argument (a `String` named or described as one: `search`, `query`, `filterTerm`) score
   `TEXT_SEARCH_LIFT` more.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cached_property, lru_cache
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemanav.cache import STRUCTURAL_INDEX_CACHE, cache_key, read_matching, write_checked
from schemanav.corpus.groups import write_owners
from schemanav.defaults import DEFAULT_MAX_PATHS
from schemanav.events import Events, SilentEvents
from schemanav.graph import SchemaGraph, ShortestPaths
from schemanav.process import no_cyclic_gc
from schemanav.question.analyzer import Stemmer
from schemanav.question.grammar import requested_write, write_verbs
from schemanav.question.vocabulary import PATH_LITERAL, without_value_literals
from schemanav.retrieval.base import BackendContext, Ranking, SearchHit
from schemanav.retrieval.best_first import best_first
from schemanav.retrieval.quantity import caller_field, returns_time
from schemanav.retrieval.registry import register_backend
from schemanav.retrieval.structural_index import StructuralIndex, StructuralParams
from schemanav.retrieval.type_ways import TypeWays
from schemanav.retrieval.writes import WriteObjects, write_names

__all__ = ["StructuralBackend", "StructuralIndex", "StructuralParams", "StructuralSearcher"]

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from schemanav.corpus import Corpus, Format
    from schemanav.question.vocabulary import QuestionReading, ShortForms

    FloatArray = npt.NDArray[np.float64]
    IntArray = npt.NDArray[np.int64]


_RENDER_ONE_BY_ONE = 200
"""Up to this many hits, `rank` renders each hit's text alone; beyond, every entry at once."""

_LEAST_HOP = 0.05
"""No hop on a question's ways in costs less, whatever a set's detours take off: the walk
needs every hop to cost more than nothing (`ShortestPaths`)."""

_WALK_EVERYTHING_FROM = 200
"""From this many hits, a ranking's routes settle every type at once (in array rounds); a
shorter one walks the queue only as far as its owner types."""

# Closeness λ: a field's score is divided by 1 + λ · the hops to its owner type; 0.15 and 0.6
# lost in the corpus grid (benchmarks/structural-experiments.md, "Knobs deleted").
ROOT_CLOSENESS = 0.3
# Each field gets this share of its owner type's best score, times how common its name is;
# 0.1 and 0.4 lost in the corpus grid.
SIBLING_EVIDENCE = 0.2
# A leaf gets at least this share of the best score of the fields leading into its owner type,
# times how common its name is (`_inward`); 0.2, 0.4 and 0.5 lost in the corpus grid.
INWARD_EVIDENCE = 0.3
# How much more a request to change something weighs the writes in the order a slice of at
# least `slicing.ladder.WIDE_WRITES_FROM` tokens reads (`Ranking.wide`): × (1 + 5), against
# the ranking's × (1 + `write_weight`). A large slice holds several writes, so the one asked
# for in words no write is named by ("Like this post": `addReaction`, 78th) should be among
# them; a small one holds few, and the heavier weight would fill it with the wrong ones (the
# corpus grid: benchmarks/slice-experiments.md, "The writes a large slice reads"; 10 while
# thirteen and fourteen sets chose it, 5 since fifteen sets choose it in sample and held out
# alike: docs/quality.md).
WIDE_WRITE_WEIGHT = 5.0
# How much more a question looking for a quoted text ("agents matching "ste"", `grammar.
# searches_text`) weighs the fields that take a text search argument (`Argument.searches_text`):
# × (1 + 0.5); 0.25, 1.0 and 2.0 lost on the corpus (benchmarks/structural-experiments.md).
TEXT_SEARCH_LIFT = 0.5


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
            graph = SchemaGraph.of(
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
            closeness=1.0 / (1.0 + ROOT_CLOSENESS * costs),
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
        return list(map(self.graph.type_ids.__getitem__, self.corpus.owner_column))

    @cached_property
    def _owner_array(self) -> Any:
        import numpy as np

        return np.asarray(self._owner_numbers, dtype=np.intp)

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

        rows, positions, contributions = (
            self._term_rows,
            self.state.positions,
            self.state.contributions,
        )
        found = [rows[term] for term in self.stem(query) if term in rows]
        if not found:
            return np.zeros(self.state.size)
        # The terms' rows summed in one call, not one array operation per term (a quarter of
        # the time): a row holds each entry once, and `bincount` adds each entry's
        # contributions in the order given, from 0.0, as adding the rows one by one did.
        where = np.concatenate([positions[start:end] for start, end in found])
        what = np.concatenate([contributions[start:end] for start, end in found])
        summed = np.bincount(where, what, minlength=self.state.size)
        scores: FloatArray = summed.astype(np.float64, copy=False)
        return scores

    @cached_property
    def _short_forms(self) -> ShortForms:
        from schemanav.question.vocabulary import ShortForms

        rows, stem = self._term_rows, self.stem
        return ShortForms(
            self._fields_reaching,
            lambda word: bool(stem(word)) and all(t in rows for t in stem(word)),
            stem,
        )

    @cached_property
    def _reading(self) -> Callable[[str], QuestionReading]:
        """The question's one reading (`TypeReader.read`, by the schema's one reader, the
        slicer's too), its short forms expanded (`ShortForms.expand`); remembered for the last
        few questions: a ranking reads it for its scores and again for its ways in, and hands
        it to the slices of the ranking (`Ranking.reading`)."""
        from schemanav.question.vocabulary import reader_of

        reader = reader_of(self.corpus.output_types)
        expand, stem = self._short_forms.expand, self.stem

        def reading(question: str) -> QuestionReading:
            return reader.read(question, stem, expand(question))

        return lru_cache(maxsize=4)(reading)

    @cached_property
    def _reached(self) -> frozenset[str]:
        """The object types a field reaches: those a question's mentions count among."""
        return frozenset(self._fields_reaching)

    @cached_property
    def _fields_reaching(self) -> dict[str, int]:
        """How many fields reach each object type (the reached unions left out)."""
        owners = self.corpus.owners
        reached = zip(self.state.reached, self.state.reached_by, strict=True)
        return {name: count for name, count in reached if name in owners}

    @cached_property
    def _ways(self) -> TypeWays:
        """The fields reaching each type, moved by the types a question names."""
        return TypeWays(self.state, self.params, self.corpus.owner_column, self._on_query_root)

    def _owned_by(self, type_name: str | None) -> Any:
        """True for each entry the type owns (for none, if the graph lacks the type)."""
        return self._owner_array == self.graph.type_ids.get(type_name or "", -1)

    @cached_property
    def _on_query_root(self) -> Any:
        """True for each entry the query root owns."""
        return self._owned_by(self.corpus.query_root)

    @cached_property
    def _write_owners(self) -> frozenset[str]:
        """The types whose fields are writes (`schemanav.corpus.groups.write_owners`)."""
        return write_owners(self.corpus)

    @cached_property
    def _is_write(self) -> Any:
        """True for each write (`_write_owners`)."""
        import numpy as np

        return np.isin(self.corpus.owner_column, sorted(self._write_owners))

    @cached_property
    def _subscription_twins(self) -> tuple[Any, Any]:
        """The subscription root's fields (corpus positions) and, for each, its query twin:
        the query root's field of the same name (`Query.buildLogs` for
        `Subscription.buildLogs`), or itself where there is none."""
        import numpy as np

        corpus = self.corpus
        fields = np.flatnonzero(self._owned_by(corpus.subscription_root))
        twins = [
            corpus.positions.get(f"{corpus.query_root}.{corpus.entries[int(at)].field}", int(at))
            for at in fields
        ]
        return fields, np.array(twins, dtype=np.intp)

    def _follow_changes(self, scores: FloatArray, weight: float) -> FloatArray:
        """A question that follows something as it changes asks for a subscription: each of
        the subscription root's fields, which start as far behind as the writes, scores
        `1 + weight` times the better of its own score and its query twin's, which answers
        the same once."""
        import numpy as np

        fields, twins = self._subscription_twins
        if not len(fields):
            return scores
        scores = scores.copy()
        scores[fields] = np.maximum(scores[fields], scores[twins]) * (1.0 + weight)
        return scores

    def search_scores(self, query: str, write_weight: float | None = None) -> FloatArray:
        """Every entry's score: BM25F over closeness to the root, plus sibling evidence.
        `write_weight`: how much more a request to change something weighs the writes
        (`StructuralParams.write_weight` by default)."""
        import numpy as np

        if write_weight is None:
            write_weight = self.params.write_weight

        question = self._reading(query)
        query = question.text  # short forms expanded
        lexical = without_value_literals(query)
        reading = question.grammar
        if question.asked_writes:
            # A request in a verb the schema's writes are not named by asks in the words
            # they are (`write_verbs`).
            lexical = " ".join([lexical, *write_verbs(reading.request, self._writes)])
        lexical = " ".join([lexical, *question.kept_plurals])
        scores = self.lexical_scores(lexical) * self.closeness
        about_the_caller = (
            bool(self.params.caller_weight) and self._caller is not None and reading.first_person
        )
        # A set of the asker's ("my repos") or of an object the question names by its path
        # ("vulnerabilities in group/project") is not the root's list of everyone's.
        everyones = not about_the_caller and not PATH_LITERAL.search(query)
        mentions = question.mentions.among(self._reached)
        reads = not question.asked_writes
        scores = self._ways.moved(mentions, scores, everyones=everyones, reads=reads)
        if reading.searches_text:
            # A question looking for a quoted text is answered by a field that searches.
            scores = scores * np.where(self._searches_text, 1.0 + TEXT_SEARCH_LIFT, 1.0)
        if about_the_caller:
            scores = self._about_the_caller(scores)
        if write_weight and question.asked_writes:
            # A request to change something asks for a write: the mutation root's fields
            # score more, in whatever words the request names them.
            scores = scores * np.where(self._is_write, 1.0 + write_weight, 1.0)
        elif write_weight and reading.reads:
            # A question opening as a read asks for no write, whatever writes its words name.
            scores = scores / np.where(self._is_write, 1.0 + write_weight, 1.0)
        if write_weight and reading.streams:
            scores = self._follow_changes(scores, write_weight)
        writes = (
            requested_write(
                reading.request, self._writes, reading.request_clause, question.asked_writes
            )
            if self._writes and (question.asked_writes or not reading.reads)
            else []
        )
        if writes:
            # A write the question asks for in the imperative ranks first, whatever its
            # root's distance: "Close issue 42" is answered by `closeIssue` or not at all.
            scores = scores.copy()
            scores[writes] += float(scores.max())
        best = float(scores.max()) if scores.size else 0.0
        if best <= 0.0:
            return scores
        owner_of = self.state.owner_of
        owner_best = np.zeros(int(owner_of.max()) + 1)
        np.maximum.at(owner_best, owner_of, scores)
        commonness = self.state.name_commonness
        share = np.maximum(
            SIBLING_EVIDENCE * owner_best[owner_of] * commonness,
            INWARD_EVIDENCE * self._inward(scores) * commonness,
        )
        result: FloatArray = scores + share
        if self.params.write_object_evidence and question.asked_writes:
            # A request names the fields of what it changes, seldom the write's own words.
            evidence = self._write_objects.evidence(owner_best, len(result))
            result = result + self.params.write_object_evidence * evidence
        if self.params.time_evidence and reading.in_time:
            result = result + (
                self.params.time_evidence
                * owner_best[owner_of]
                * self.state.name_commonness
                * self._returns_time
            )
        return result

    @cached_property
    def _write_objects(self) -> WriteObjects:
        """What each write changes (`schemanav.retrieval.writes.WriteObjects`)."""
        return WriteObjects.of(self.corpus, self.state.owner_of.tolist(), self._write_owners)

    @cached_property
    def _caller(self) -> tuple[int, Any] | None:
        """The query root's field for the API's caller (`quantity.caller_field`) and the
        entries of its type; None if there is none."""
        import numpy as np

        root_fields = np.flatnonzero(self._on_query_root).tolist()
        position = caller_field(self.corpus, root_fields)
        if position is None:
            return None
        return position, self._owned_by(self.corpus.entries[position].named_return_type)

    @cached_property
    def _writes(self) -> dict[str, list[tuple[int, frozenset[str]]]]:
        """What `requested_write` matches a request against (`writes.write_names`)."""
        return write_names(self.corpus, self._write_owners)

    def _about_the_caller(self, scores: FloatArray) -> FloatArray:
        """A question about its asker ("my merged merge requests") wants the caller's own
        fields (`CurrentUser.authoredMergeRequests`), reached through the caller's root field:
        those fields score `caller_weight` more, and the root field as much as the best."""
        import numpy as np

        assert self._caller is not None
        root, own = self._caller
        result: FloatArray = scores * np.where(own, 1.0 + self.params.caller_weight, 1.0)
        best = float(result[own].max()) if own.any() else 0.0
        result[root] = max(float(result[root]), best)
        return result

    @cached_property
    def _searches_text(self) -> Any:
        """Whether each entry takes a text search argument (`Argument.searches_text`)."""
        import numpy as np

        entries = self.corpus.entries
        found = [any(a.searches_text for a in e.arguments) for e in entries]
        return np.array(found, dtype=bool)

    @cached_property
    def _returns_time(self) -> FloatArray:
        """1.0 for each entry returning a point in time (`quantity.returns_time`), else 0."""
        import numpy as np

        return np.array(returns_time(self.corpus), dtype=np.float64)

    @cached_property
    def _reaching(self) -> tuple[IntArray, IntArray, IntArray]:
        """For `_inward`: the entries that reach a type, the type each reaches (by its number
        in `StructuralIndex.reached`), and each leaf's owner type by that number (the slot
        past the last type, which no entry reaches, for a field that is no leaf or whose
        owner no field reaches)."""
        import numpy as np

        state, owner = self.state, self._ways.owner_reached
        nowhere = len(state.reached)
        # A field returning a union is a leaf here, as one returning a scalar is.
        owners = self.corpus.owners
        objects = np.array([name in owners for name in state.reached] + [False])
        to_object = objects[state.target]  # -1 reads the last slot: False
        leaf_owner = np.where(~to_object & (owner >= 0), owner, nowhere)
        reaching = np.flatnonzero(to_object)
        return reaching, state.target[reaching], leaf_owner

    def _inward(self, scores: FloatArray) -> FloatArray:
        """Each leaf's evidence from the way into its type: the best score of the fields
        returning its owner (0 for other fields). A question that names the field leading
        to a type (`lastBillingAddress`, `avatar`) asks for that type's leaves, which an
        operation selects though the question names none (`Address.city`, `Media.url`),
        as a type's best field lends its siblings a share (`SIBLING_EVIDENCE`)."""
        import numpy as np

        reaching, reached, leaf_owner = self._reaching
        best = np.zeros(len(self.state.reached) + 1)
        np.maximum.at(best, reached, scores[reaching])
        inward: FloatArray = best[leaf_owner]
        return inward

    def search(self, query: str, k: int) -> list[SearchHit]:
        return self.rank(self.search_scores(query), k, detours=self.set_detours(query))

    def set_detours(self, query: str) -> FloatArray | None:
        """What the hops of the question's ways in cost more or less when it asks for a set
        (`TypeWays.detours`); None when nothing changes."""
        question = self._reading(query)
        detours = self._ways.detours(question.mentions.among(self._reached), question.text)
        if question.grammar.streams:
            detours = self._through_subscriptions(detours)
        return detours

    def _through_subscriptions(self, detours: FloatArray | None) -> FloatArray | None:
        """For a question that follows something as it changes, the query root's fields cost
        what the subscription root costs to start from (`other_root_cost`): the types a
        subscription returns are reached through it as readily as through a query."""
        import numpy as np

        if not len(self._subscription_twins[0]):
            return detours
        detours = np.zeros(len(self.corpus)) if detours is None else detours.copy()
        detours[self._on_query_root] += self.params.other_root_cost
        return detours

    def _ordered(
        self, scores: FloatArray, k: int, *, detours: FloatArray | None = None
    ) -> tuple[list[int], list[float], ShortestPaths | None]:
        """The first `k` entries and their scores, best first, each after its path from the
        root; with the question's routes, whose hops cost what `detours` adds
        (`set_detours`)."""
        if k < 1 or not scores.size:
            return [], [], None
        top = float(scores.max())
        if top <= 0.0:
            return [], [], None
        relevance = self.params.path_relevance * scores / top
        cost = 1.0 - relevance
        if detours is not None:
            import numpy as np

            cost = np.maximum(cost + detours, _LEAST_HOP)
        routes = self.graph.shortest_paths(field_cost=cost)
        if k >= _WALK_EVERYTHING_FROM:
            routes.settle_all_at_once()  # so deep a ranking asks about nearly every type
            # Every type is settled: the whole list in array operations, as the loop below.
            chunks = best_first(scores, k, lists=False)
            entries, kept = routes.listed_after_ways_in(chunks, self._owner_array, k)
            return entries, kept, routes
        # A path field enters the list with the score of the field it leads to, so scores
        # never increase down the list. One way in per owner type, however many of its
        # fields rank: listed before the first of them (with its score); for the others it
        # is listed already.
        ranked: dict[int, float] = {}
        add = ranked.setdefault
        owners, entered, chain = self._owner_numbers, set(), routes.shared_chain
        for positions, values in best_first(scores, k):
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
        return list(ranked)[:k], list(ranked.values())[:k], routes

    def ranking(self, query: str, k: int) -> Ranking:
        """What `search` ranks, as coordinates and scores only (`RanksWithoutHits`)."""
        return self.ranked(query, k, self.search_scores)

    def ranked(
        self, query: str, k: int, scores_of: Callable[[str, float | None], FloatArray]
    ) -> Ranking:
        """The ranking of the scores `scores_of(query, write_weight)` gives (`search_scores`,
        or a fusion of it: `hybrid`), with the question's reading and, for a request to
        change something, the wide ranking a large slice reads (`Ranking.wide`: the scores
        with the writes weighed `WIDE_WRITE_WEIGHT` more)."""
        detours = self.set_detours(query)
        entries, kept, _ = self._ordered(scores_of(query, None), k, detours=detours)
        # A bench's ranking is thousands deep: one C call picks every coordinate.
        known = self.corpus.coordinates
        coordinates: tuple[str, ...]
        if len(entries) > 1:
            coordinates = itemgetter(*entries)(known)
        else:  # itemgetter of one item gives the item, not a tuple
            coordinates = tuple(known[entry] for entry in entries)
        reading = self._reading(query)
        wide = None
        writes = reading.asked_writes and bool(self.params.write_weight) and bool(self._writes)
        if WIDE_WRITE_WEIGHT and writes:
            widened = scores_of(query, WIDE_WRITE_WEIGHT)
            wide = tuple(self._ordered(widened, k, detours=detours)[0])
        return Ranking(coordinates, tuple(kept), tuple(entries), reading, wide)

    def rank(
        self, scores: FloatArray, k: int, detours: FloatArray | None = None
    ) -> list[SearchHit]:
        """Hits from per-entry scores: best entries first, each after its path from the root."""
        entries, kept, routes = self._ordered(scores, k, detours=detours)
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


@register_backend("structural")
def _structural_factory(options: None, context: BackendContext) -> StructuralBackend:
    return StructuralBackend(
        context.fmt, max_paths=context.max_paths, cache_dir=context.cache_dir, events=context.events
    )
