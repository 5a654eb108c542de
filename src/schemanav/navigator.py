"""The library facade: one schema, opened once, and everything a front end asks of it.

The CLI, the agent's tools and the servers call a `Navigator` and nothing else below it, so what
each of them serves is exactly what `bench` measured:

    from schemanav import Navigator

    nav = Navigator.open("schema.graphql")
    result = nav.search("open pull requests of a repository", budget=500)
    print([hit.coordinate for hit in result.hits], result.total_tokens)
    print(nav.define(["Repository.pullRequests"])[0].sdl)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from schemanav.corpus import Corpus, Format, SchemaPrice, open_corpus, open_price
from schemanav.cost import CostLimits
from schemanav.defaults import DEFAULT_K, DEFAULT_SLICE_BUDGET, slice_rank_depth
from schemanav.errors import InputError
from schemanav.events import Events, SilentEvents, phase, security_notice
from schemanav.limits import question_problem
from schemanav.operations import OperationOutcome, OperationRunner
from schemanav.records import to_json
from schemanav.redaction import Redactor, public_url
from schemanav.retrieval import (
    BlockSearch,
    Ranking,
    Searcher,
    SearchHit,
    fit_budget,
    has_words,
    ranking_of,
    search_blocks,
)
from schemanav.retrieval.dispositions import disposition
from schemanav.retrieval.pipeline import parse_format, prepare_backend
from schemanav.schema import (
    LoadedSchema,
    describe_violations,
    headers_from,
    is_url,
    open_schema,
    schema_label,
    schema_source,
)
from schemanav.settings import CONFIG_FILE, Settings, load_settings, single
from schemanav.tokens import ENCODING_NAME

if TYPE_CHECKING:
    from graphql import GraphQLSchema

    from schemanav.corpus.facts import SliceFacts
    from schemanav.retrieval.members import MemberSearch
    from schemanav.retrieval.slicing import Slicer
    from schemanav.schema.define import Definition, DefinitionCache

EMPTY_QUESTION = "the question has no searchable words, so there is nothing to search"


def _check_question(question: str) -> None:
    """A question over `schemanav.limits.MAX_QUESTION_CHARS` is bad input, for every front end."""
    problem = question_problem(question)
    if problem:
        raise InputError(problem)


@dataclass(frozen=True)
class SliceResult:
    """One question's schema slice: valid SDL, its cost, and every coordinate it shows."""

    query: str
    backend: str
    encoding: str
    budget: int
    sdl: str
    tokens: int
    hits: int
    fields: tuple[str, ...]
    arguments: tuple[str, ...]
    types: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class SearchResult:
    """One question's hits, best first, with what reading them costs."""

    query: str
    backend: str
    format: str
    encoding: str
    hits: tuple[SearchHit, ...]
    budget: int | None = None
    empty_reason: str | None = None
    disposition: str | None = None
    over_budget: bool = False
    """No hit because even the first one costs more than `budget` (the budget is too small)."""

    json_fields: ClassVar[tuple[str, ...]] = ("query", "backend", "format", "encoding", "hits")

    @property
    def total_tokens(self) -> int:
        return sum(hit.tokens for hit in self.hits)

    def as_dict(self) -> dict[str, Any]:
        return to_json(self, total_tokens=self.total_tokens, disposition=self.disposition)


@dataclass
class Navigator:
    """A schema source with its settings; the corpus, schema and searchers load on first use.

    Warnings (spec violations, backend notes) go to `events`; nothing here prints.
    """

    settings: Settings
    events: Events = field(default_factory=SilentEvents)
    _searchers: dict[tuple[str, Format, bool], Searcher] = field(default_factory=dict, repr=False)

    @classmethod
    def open(
        cls, schema: str | None = None, *, events: Events | None = None, **settings: Any
    ) -> Navigator:
        """A navigator over `schema` (a path or URL; default the bundled Movie DB), with any
        setting given by keyword (`backend="bm25"`, `max_paths=1`, …) over env and toml."""
        return cls(load_settings(schema=schema, **settings), events or SilentEvents())

    @property
    def label(self) -> str:
        return schema_label(self.settings)

    @cached_property
    def loaded(self) -> LoadedSchema:
        """The full parsed schema (needed to validate operations and print definitions)."""
        self._warn_if_file_chose("schema")
        with phase(self.events, f"parsing {self.label}"):
            loaded = open_schema(self.settings)
        self._warn_violations(loaded.violations)
        return loaded

    @cached_property
    def corpus(self) -> Corpus:
        """The corpus; file sources go through the on-disk cache, URLs are introspected once."""
        if is_url(schema_source(self.settings)):
            from schemanav.corpus import build_corpus

            loaded = self.loaded
            with phase(self.events, "rendering the corpus and counting its tokens"):
                return build_corpus(loaded.schema)
        with phase(self.events, f"reading {self.label}: parsing, rendering, counting tokens"):
            load = open_corpus(self.settings, self.events, lambda: self.loaded, self._sha256)
        if "loaded" not in self.__dict__:
            self._warn_violations(load.violations)
        return load.corpus

    def _warn_if_file_chose(self, key: str) -> None:
        """Say so when the user's headers (their token) go to a URL that schemanav.toml chose:
        a file that came with a checked-out repository must not send them elsewhere unseen."""
        url = getattr(self.settings, key)
        if url and is_url(url) and self.settings.header and key in self.settings.from_file:
            security_notice(
                self.events,
                f"your headers go to {public_url(url)}, which {CONFIG_FILE} set ({key}), "
                f"not a flag or the environment: pass --{key} to choose it yourself",
            )

    def _warn_violations(self, violations: tuple[str, ...]) -> None:
        if violations and not getattr(self, "_warned", False):
            self._warned = True
            self.events.warning(describe_violations(violations))

    def price(self) -> SchemaPrice:
        """What the schema costs in each form an agent could be handed (cached for files)."""
        corpus = self.corpus
        with phase(self.events, "counting the tokens of the SDL and the introspection JSON"):
            return open_price(
                self.settings, self.label, corpus, lambda: self.loaded, self._sha256
            )

    def searcher(
        self, backend: str | None = None, fmt: str | None = None, *, paths: bool = True
    ) -> Searcher:
        """An indexed backend (default: the configured one), built once per backend × format;
        `paths=False` leaves the paths to root out of its hits (a slice reads coordinates)."""
        name = backend or single(self.settings, "backend")
        rendering = parse_format(fmt or single(self.settings, "format"))
        key = (name, rendering, paths)
        if key not in self._searchers:
            settings = self.settings if paths else self.settings.model_copy(update={"max_paths": 0})
            self._searchers[key] = prepare_backend(
                name, rendering, settings, self.corpus, self.events
            )
        return self._searchers[key]

    def search(
        self,
        question: str,
        *,
        k: int | None = None,
        budget: int | None = None,
        backend: str | None = None,
        fmt: str | None = None,
    ) -> SearchResult:
        """Ranked hits: the top `k` (default 10), or, with a `budget`, as many as fit it.

        A question longer than `schemanav.limits.MAX_QUESTION_CHARS` is an `InputError`.
        """
        _check_question(question)
        k = k if k is not None else self.settings.k
        budget = budget if budget is not None else self.settings.budget
        searcher = self.searcher(backend, fmt)
        depth = k or (len(self.corpus) if budget else DEFAULT_K)
        # One hit past a count cut shows whether the cut fell inside a tie (`over_k`).
        ranked = searcher.search(question, depth if budget is not None else depth + 1)
        hits = fit_budget(ranked[:depth], budget)
        empty_reason = None
        over_budget = bool(ranked) and not hits
        if over_budget:
            first = ranked[0]
            empty_reason = (
                f"no hit fits the budget of {budget:,} tokens: the first hit, {first.coordinate}, "
                f"costs {first.tokens:,} tokens; raise the budget"
            )
        elif not hits:
            empty_reason = EMPTY_QUESTION if not has_words(question) else "no hits"
        return SearchResult(
            query=question,
            backend=searcher.name,
            format=parse_format(fmt or single(self.settings, "format")).value,
            encoding=ENCODING_NAME,
            hits=tuple(hits),
            budget=budget,
            empty_reason=empty_reason,
            # It reads the hits shown and the one past them (a budgeted search ranks them all).
            disposition=disposition(
                Ranking.of(ranked[: len(hits) + 1]), len(hits), self.corpus, k=depth, budget=budget
            ),
            over_budget=over_budget,
        )

    def search_blocks(self, question: str, budget: int, *, k: int | None = None) -> BlockSearch:
        """Ranked hits as an agent's search tool shows them, each with its paths from the root
        (at most `settings.max_paths`) and its cost, as many whole blocks as fit `budget`
        tokens (`retrieval.search_blocks`; the servers' `search_schema`)."""
        _check_question(question)
        return search_blocks(self.searcher(), question, budget, size=len(self.corpus), k=k)

    @cached_property
    def members(self) -> MemberSearch:
        """Search over every kind of member (types, fields, arguments, enum values,
        directives) on the configured backend's field ranking, built once."""
        from schemanav.retrieval.members import MemberIndex, MemberSearch

        index = MemberIndex.build(self.loaded.schema, self.corpus)
        return MemberSearch(self.searcher(), index, self.settings.max_paths)

    @cached_property
    def slicer(self) -> Slicer:
        """The schema slicer, built once (from the corpus and `slice_facts`)."""
        from schemanav.retrieval.slicing import Slicer

        return Slicer(self.slice_facts, self.corpus)

    @cached_property
    def slice_facts(self) -> SliceFacts:
        """What slices need of the schema beyond the corpus; for a schema file read from its
        cache (a warm process builds no schema), else taken from `_readable`. Warns of
        the schema's spec violations as `define` does."""
        from schemanav.corpus.facts import open_slice_facts

        facts = open_slice_facts(
            self.settings, lambda: self._readable, self.events, self._sha256
        )
        self._warn_violations(facts.violations)
        return facts

    def slice(
        self,
        question: str,
        *,
        budget: int | None = None,
        backend: str | None = None,
        fmt: str | None = None,
    ) -> SliceResult:
        """A schema slice: the backend's ranked hits grown, in rank order, into the smallest
        connected piece of SDL that holds them (root fields, paths, arguments, the input and
        enum types those need) until `budget` tokens (default 2,000) are spent."""
        budget = budget if budget is not None else (self.settings.budget or DEFAULT_SLICE_BUDGET)
        _check_question(question)
        searcher = self.searcher(backend, fmt, paths=False)
        depth = slice_rank_depth(budget, len(self.corpus))
        ranked = ranking_of(searcher, question, depth)
        piece = self.slicer.from_ranking(ranked, budget, question)
        return SliceResult(
            query=question,
            backend=searcher.name,
            encoding=ENCODING_NAME,
            budget=budget,
            sdl=piece.sdl,
            tokens=piece.tokens,
            hits=piece.hits,
            fields=piece.fields,
            arguments=piece.arguments,
            types=piece.types,
        )

    def define(self, coordinates: Sequence[str]) -> list[Definition]:
        """`__definitions`: each coordinate's SDL and introspection record, in order, with
        header values and URL credentials redacted (a live schema's descriptions may echo
        them)."""
        from dataclasses import replace

        redact = self.redact
        return [
            replace(
                found,
                sdl=redact(found.sdl) if found.sdl is not None else None,
                record=redact.json(found.record),
            )
            for found in self._define(coordinates)
        ]

    @cached_property
    def redact(self) -> Redactor:
        """Redacts the header values and the credentials in the schema and endpoint URLs."""
        urls = [url for url in (schema_source(self.settings), self.settings.endpoint) if url]
        return Redactor(headers_from(self.settings), urls=urls)

    def _define(self, coordinates: Sequence[str]) -> list[Definition]:
        """Each coordinate's SDL and introspection record, in order.

        For a schema file, what was printed for a coordinate is kept in the cache directory
        (keyed by the file's bytes), so a later process defining it again does not parse the
        schema, and a new coordinate is printed from a schema rebuilt from the part of its
        cached introspection JSON that it needs (the whole of it for an unknown coordinate);
        once this navigator holds the parsed or rebuilt schema it prints from it.
        """
        from schemanav.schema.define import define, define_one

        wanted = [coordinate.strip() for coordinate in coordinates]
        cache = None if "loaded" in self.__dict__ else self._definition_cache
        if cache is None:
            return define(self.loaded.schema, wanted)
        found: dict[str, Definition] = {}
        violations: tuple[str, ...] = ()
        for coordinate in dict.fromkeys(wanted):
            cached = cache.get(coordinate)
            if isinstance(cached, tuple):
                found[coordinate], violations = cached
            elif cached is not None:
                self.events.warning(
                    f"the definition cache of {coordinate} is not usable ({cached}); "
                    "printing it again"
                )
        missing = [coordinate for coordinate in dict.fromkeys(wanted) if coordinate not in found]
        part = None
        if missing and "_readable" not in self.__dict__:
            part = cache.part_schema(missing)
        for coordinate in missing:
            definition = None
            if part is not None:
                definition = define_one(part[0], coordinate)
                violations = part[1]
            if definition is None or definition.error is not None:
                # An unknown coordinate's "did you mean" needs every name of the schema.
                schema, violations = self._readable
                definition = define_one(schema, coordinate)
            found[coordinate] = definition
            cache.put(definition, violations)
        self._warn_violations(violations)
        return [found[coordinate] for coordinate in wanted]

    @cached_property
    def _readable(self) -> tuple[GraphQLSchema, tuple[str, ...]]:
        """The full schema to read from (definitions, slice facts) and its spec violations;
        `loaded` validates operations.

        For a schema file it is rebuilt from the introspection JSON cached beside the
        definitions (a fraction of a parse; every definition and slice printed from it equals
        the one printed from the parsed SDL), or parsed once, leaving that JSON for the next
        process.
        """
        cache, parsed = self._definition_cache, "loaded" in self.__dict__
        if cache is not None and not parsed:
            kept = cache.schema()
            if isinstance(kept, tuple):
                return kept
            if kept is not None:
                self.events.warning(f"the schema cache is not usable ({kept}); parsing")
        loaded = self.loaded
        if cache is not None and not (parsed and cache.has_schema()):
            cache.put_schema(loaded.schema, loaded.violations)
        return loaded.schema, loaded.violations

    @cached_property
    def _definition_cache(self) -> DefinitionCache | None:
        """The definition cache of a file source (None for a URL: its schema may change)."""
        from schemanav.schema.define import DefinitionCache

        digest = self._sha256
        return None if digest is None else DefinitionCache(self.settings.cache_dir, digest)

    @cached_property
    def _sha256(self) -> str | None:
        """The schema file's SHA-256, which keys its corpus, index, slice facts, prices and
        definitions: read and hashed once per navigator (None for a URL)."""
        from pathlib import Path

        from schemanav.limits import schema_byte_cap
        from schemanav.schema.loading import schema_file_sha256

        source = schema_source(self.settings)
        return None if is_url(source) else schema_file_sha256(Path(source), schema_byte_cap())

    @cached_property
    def operations(self) -> OperationRunner:
        """Validation and execution against the configured endpoint, with the secret headers."""
        self._warn_if_file_chose("endpoint")
        if self.settings.allow_mutations:
            endpoint = self.settings.endpoint
            self.events.warning(
                "mutations are allowed (--allow-mutations or SCHEMANAV_ALLOW_MUTATIONS): "
                "executed operations may change data at "
                f"{public_url(endpoint) if endpoint else 'no endpoint (none configured)'}"
            )
        return OperationRunner(
            self.loaded.schema,
            endpoint=self.settings.endpoint,
            headers=headers_from(self.settings),
            allow_mutations=self.settings.allow_mutations,
            response_token_cap=self.settings.response_token_cap,
            timeout=self.settings.timeout,
            limits=CostLimits(
                max_depth=self.settings.max_depth,
                max_aliases=self.settings.max_aliases,
                max_nodes=self.settings.max_nodes,
            ),
        )

    def validate(
        self, operation: str, variables: Mapping[str, Any] | None = None
    ) -> OperationOutcome:
        """Whether `operation` may run: parsed, not a refused mutation, valid, variables coerce."""
        return self.operations.validate(operation, variables)

    def execute(
        self,
        operation: str,
        variables: Mapping[str, Any] | None = None,
        *,
        forwarded: Mapping[str, str] | None = None,
    ) -> OperationOutcome:
        """Validate, then run against `settings.endpoint` (the response cut to its token cap);
        `forwarded` headers (a caller's credentials) go with this request only, redacted."""
        return self.operations.run(operation, variables, forwarded)
