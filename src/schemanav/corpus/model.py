"""The corpus: one entry per output field coordinate (`Type.field`), rendered four ways.

Object *and* interface types contribute entries, since interfaces carry many of the fields
agents need most (GitHub's `Node.id`, `Actor.login`). The renderings are exactly the ones
the published figures were measured on, so our token counts reproduce theirs.
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from graphql import GraphQLSchema


class Format(StrEnum):
    RAW = "RAW"
    DOT_PLUS_GLOSS = "DOT_PLUS_GLOSS"
    GLOSS = "GLOSS"
    SDL = "SDL"

    @classmethod
    def parse(cls, value: str) -> Format:
        """Accept any case and `-` for `_`, so `dot-plus-gloss` works on the command line."""
        key = value.strip().upper().replace("-", "_")
        try:
            return cls[key]
        except KeyError:
            choices = ", ".join(f.value for f in cls)
            raise ValueError(f"unknown format {value!r}: choose one of {choices}") from None


def is_identifier_type(type_text: str) -> bool:
    """An identifier's type: `ID` or a custom scalar for one (`IssueID`), or a list of them."""
    return type_text.strip("[]!").endswith("ID")


_LOWER_OR_DIGIT_THEN_UPPER = re.compile(r"([a-z0-9])([A-Z])")
_CAPITALS_THEN_WORD = re.compile(r"([A-Z]+)([A-Z][a-z])")


@lru_cache(maxsize=1 << 16)  # names repeat: 6,640 GitHub entries have ~2,600 distinct ones
def humanize(name: str) -> str:
    """`baseRefName` → `base ref name`, `URLPath` → `url path`, `snake_case` → `snake case`."""
    spaced = _LOWER_OR_DIGIT_THEN_UPPER.sub(r"\1 \2", name)
    spaced = _CAPITALS_THEN_WORD.sub(r"\1 \2", spaced)
    return spaced.replace("_", " ").lower()


# What names a String argument that looks for text inside values (`search`, `query`,
# `queryString`, `filterTerm`), and what says so in its description ("a regex search").
TEXT_ARGUMENT_WORDS = frozenset({"search", "query", "filter", "term", "keyword", "text"})
TEXT_DESCRIPTION_WORDS = frozenset({"search", "regex", "keyword", "keywords"})
_LETTERS = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Argument:
    name: str
    type: str
    description: str | None = None
    default: str | None = None

    @property
    def searches_text(self) -> bool:
        """Whether the argument looks for text inside values: a `String` whose name says so
        (`search`, `query`, `queryString`, `filterTerm`, `keyword`) or whose description does
        ("Optional text search query", "do a regex search"). The ranking lifts the fields
        taking one for a question that looks for a quoted text; the slicer shows it then."""
        if self.type.strip("[]!") != "String":
            return False
        if not TEXT_ARGUMENT_WORDS.isdisjoint(humanize(self.name).split()):
            return True
        description = (self.description or "").lower()
        return not TEXT_DESCRIPTION_WORDS.isdisjoint(_LETTERS.findall(description))


@dataclass(frozen=True)
class CorpusEntry:
    """One output field of an object or interface type, with what its renderings need."""

    owner: str
    field: str
    return_type: str
    description: str | None
    arguments: tuple[Argument, ...] = ()
    owner_is_interface: bool = False
    deprecation: str | None = None

    @property
    def coordinate(self) -> str:
        return f"{self.owner}.{self.field}"

    @property
    def named_return_type(self) -> str:
        """The return type without list and non-null wrappers: `[Movie!]!` → `Movie`."""
        return self.return_type.strip("[]!")

    @property
    def returns_list(self) -> bool:
        """Whether the field returns a list (`[Movie]`, `[Movie!]!`), not one value."""
        return self.return_type.lstrip("!").startswith("[")

    @property
    def takes_required_argument(self) -> bool:
        """Whether a selection of the field must give an argument (a non-null one)."""
        return any(argument.type.endswith("!") for argument in self.arguments)

    def render(self, fmt: Format) -> str:
        if fmt is Format.RAW:
            return self.coordinate
        if fmt is Format.DOT_PLUS_GLOSS:
            return f"{self.coordinate} - the {humanize(self.field)} of a {humanize(self.owner)}"
        if fmt is Format.GLOSS:
            text = (
                f"GraphQL field {self.coordinate}. Owner type: {self.owner}. "
                f"Returns: {self.return_type}."
            )
            return f"{text} {self.description}" if self.description else text
        if fmt is Format.SDL:
            args = ""
            if self.arguments:
                args = "(" + ", ".join(f"{a.name}: {a.type}" for a in self.arguments) + ")"
            line = f"{self.field}{args}: {self.return_type}  # on type {self.owner}"
            return f'"""{self.description}"""\n{line}' if self.description else line
        raise ValueError(f"unknown format {fmt!r}")


class Records(Sequence[CorpusEntry]):
    """A cached corpus's records, each made from the columns when first read.

    Why: a warm search reads a schema's columns (owners, names, return types) and the records
    of the few hundred fields it ranks, shows or walks through; making all 26,560 records of a
    schema four times GitHub's took 0.025 s of a 0.25 s search. A caller that reads every
    record (iterating, as the slicer's tables and `bench` do) gets them all made at once, in
    the loop `from_payload` ran before, reusing any made already; from then on the records are
    a tuple, which becomes the corpus's `entries` (indexed without a call). Equal to, and
    hashing as, the tuple of the same records, so a corpus read back equals the one built.
    """

    __slots__ = ("_arguments", "_columns", "_corpus", "_made", "_starts", "_tuple")

    def __init__(self, columns: dict[str, list[Any]], arguments: dict[str, list[Any]]) -> None:
        self._columns = columns
        self._arguments = arguments
        self._made: dict[int, CorpusEntry] = {}
        self._starts: list[int] | None = None  # each entry's first argument, when first needed
        self._tuple: tuple[CorpusEntry, ...] | None = None
        self._corpus: Callable[[], Corpus | None] = lambda: None  # whose `entries` this is

    def __len__(self) -> int:
        return len(self._columns["owner"])

    @overload
    def __getitem__(self, index: int) -> CorpusEntry: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[CorpusEntry, ...]: ...
    def __getitem__(self, index: int | slice) -> CorpusEntry | tuple[CorpusEntry, ...]:
        if self._tuple is not None:
            return self._tuple[index]
        if isinstance(index, slice):
            return tuple([self[position] for position in range(*index.indices(len(self)))])
        made = self._made.get(index)
        if made is None:
            position = range(len(self))[index]  # negative indexes as a tuple's; IndexError
            made = self._made.get(position) or self._make(position)
            self._made[index] = self._made[position] = made
        return made

    def _make(self, position: int) -> CorpusEntry:
        columns = self._columns
        kept: tuple[Argument, ...] = ()
        count = columns["argument_count"][position]
        if count:
            if self._starts is None:
                self._starts = [0, *accumulate(columns["argument_count"])]
            start = self._starts[position]
            kept = tuple(
                Argument(*values)
                for values in zip(
                    *(self._arguments[name][start : start + count] for name in _ARGUMENT_COLUMNS),
                    strict=True,
                )
            )
        return CorpusEntry(
            owner=columns["owner"][position],
            field=columns["field"][position],
            return_type=columns["return_type"][position],
            description=columns["description"][position],
            arguments=kept,
            owner_is_interface=columns["owner_is_interface"][position],
            deprecation=columns["deprecation"][position],
        )

    def records(self) -> tuple[CorpusEntry, ...]:
        """Every record, made at once (those made already reused), as a tuple."""
        if self._tuple is None:
            self._tuple = self._make_all()
            self._made.clear()
            # The corpus's `entries` become the tuple: the slicer and `bench` index records
            # in their loops, and a tuple's indexing costs no call.
            corpus = self._corpus()
            if corpus is not None and corpus.entries is self:
                object.__setattr__(corpus, "entries", self._tuple)
        return self._tuple

    def _make_all(self) -> tuple[CorpusEntry, ...]:
        # Thousands of records, filled in a plain loop as `records.filled` does (no call, no
        # conversion per record).
        new, made = object.__new__, self._made
        columns, argument_columns = self._columns, self._arguments
        arguments: list[Argument] = []
        for name, kind, about, default in zip(
            *(argument_columns[column] for column in _ARGUMENT_COLUMNS), strict=True
        ):
            argument = new(Argument)
            argument.__dict__.update(name=name, type=kind, description=about, default=default)
            arguments.append(argument)
        entries: list[CorpusEntry] = []
        start = 0
        for position, (owner, name, returns, about, on_interface, deprecation, count) in enumerate(
            zip(*(columns[column] for column in _ENTRY_COLUMNS), strict=True)
        ):
            kept: tuple[Argument, ...] = ()
            if count:  # most fields have none
                kept = tuple(arguments[start : start + count])
                start += count
            known = made.get(position) if made else None
            if known is not None:
                entries.append(known)
                continue
            entry = new(CorpusEntry)
            entry.__dict__.update(
                owner=owner,
                field=name,
                return_type=returns,
                description=about,
                arguments=kept,
                owner_is_interface=on_interface,
                deprecation=deprecation,
            )
            entries.append(entry)
        return tuple(entries)

    def __iter__(self) -> Iterator[CorpusEntry]:
        return iter(self.records())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Records):
            other = other.records()
        return self.records() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.records())

    def __repr__(self) -> str:
        return repr(self.records())

    def __reduce__(self) -> tuple[Any, ...]:
        return tuple, (self.records(),)


_ENTRY_COLUMNS = (
    "owner",
    "field",
    "return_type",
    "description",
    "owner_is_interface",
    "deprecation",
    "argument_count",
)
_ARGUMENT_COLUMNS = ("name", "type", "description", "default")


@dataclass(frozen=True)
class Corpus:
    """All entries of a schema, in schema order, with renderings and token counts on demand.

    It also keeps the graph facts that entries alone lack, so that structure-aware backends
    need nothing else: the declared root types and the concrete types behind each interface
    and union.
    """

    entries: Sequence[CorpusEntry]
    """A tuple, or for a corpus read from its cache, `Records` (the same records, each made
    when first read)."""
    query_root: str | None = None
    mutation_root: str | None = None
    subscription_root: str | None = None
    possible_types: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    type_descriptions: dict[str, str] = field(default_factory=dict, compare=False)
    enum_values: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    input_fields: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    identity: str | None = field(default=None, compare=False)
    """What this corpus was built from, when a cache can name it in full (the corpus store sets
    the schema file's SHA-256 and the corpus cache version); None for corpora built in code or
    from a live endpoint. Caches derived from a corpus key on `fingerprint()`."""

    def __len__(self) -> int:
        return len(self.entries)

    @cached_property
    def coordinates(self) -> tuple[str, ...]:
        """Each entry's `Type.field`, from the columns (no record is made for it)."""
        return tuple(
            [
                f"{owner}.{name}"
                for owner, name in zip(self.owner_column, self.field_column, strict=True)
            ]
        )

    @cached_property
    def positions(self) -> dict[str, int]:
        """Each entry's position by its `Type.field`: a search judges its hits by their
        records, and this finds them without making the others (`Records`)."""
        return {coordinate: position for position, coordinate in enumerate(self.coordinates)}

    @cached_property
    def by_coordinate(self) -> dict[str, CorpusEntry]:
        """Each entry by its `Type.field`, built once (every search judges its hits by it)."""
        return dict(zip(self.coordinates, self.entries, strict=True))

    @cached_property
    def owner_column(self) -> list[str]:
        """Each entry's owner type, in corpus order (the schema graph's sources)."""
        return [entry.owner for entry in self.entries]

    @cached_property
    def field_column(self) -> list[str]:
        """Each entry's field name, in corpus order."""
        return [entry.field for entry in self.entries]

    @cached_property
    def argument_counts(self) -> list[int]:
        """Each entry's number of arguments, in corpus order."""
        return [len(entry.arguments) for entry in self.entries]

    @cached_property
    def return_type_column(self) -> list[str]:
        """Each entry's return type as written (`[Issue!]!`), in corpus order."""
        return [entry.return_type for entry in self.entries]

    @cached_property
    def target_column(self) -> list[str]:
        """Each entry's named return type, in corpus order (the schema graph's targets)."""
        named = {text: text.strip("[]!") for text in {e.return_type for e in self.entries}}
        return [named[entry.return_type] for entry in self.entries]

    @cached_property
    def owners(self) -> frozenset[str]:
        """The types that own fields (objects and interfaces)."""
        return frozenset(self.owner_column)

    @cached_property
    def output_types(self) -> frozenset[str]:
        """The object, interface and union types: those a selection set is written on, and
        those a question names by their words (`Job` for "jobs", though a union owns no
        field)."""
        return self.owners | frozenset(self.possible_types)

    @cached_property
    def returned_by(self) -> dict[str, frozenset[str]]:
        """By named return type, the types whose fields return it: whether only a root's
        fields return a type (a write's payload, a type grouping a root's fields) and which
        types exist only as parts of another are read from it."""
        found: dict[str, set[str]] = {}
        for owner, target in zip(self.owner_column, self.target_column, strict=True):
            found.setdefault(target, set()).add(owner)
        return {target: frozenset(owners) for target, owners in found.items()}

    def texts(self, fmt: Format) -> list[str]:
        """Every entry rendered in `fmt`, rendered once per format and then reused."""
        cache: dict[Format, list[str]] = self.__dict__.setdefault("_text_cache", {})
        if fmt not in cache:
            cache[fmt] = [entry.render(fmt) for entry in self.entries]
        return cache[fmt]

    def text(self, fmt: Format, position: int) -> str:
        """One entry rendered in `fmt`: from `texts` when every entry was rendered already,
        else rendered alone (and remembered), so a search that shows ten hits renders ten."""
        rendered: list[str] | None = self.__dict__.get("_text_cache", {}).get(fmt)
        if rendered is not None:
            return rendered[position]
        alone: dict[int, str] = self.__dict__.setdefault("_single_texts", {}).setdefault(fmt, {})
        text = alone.get(position)
        if text is None:
            text = alone[position] = self.entries[position].render(fmt)
        return text

    def fingerprint(self) -> str:
        """A digest of everything this corpus holds (bar token counts): its `identity` when
        set, else a SHA-256 over entries, roots and type tables."""
        if self.identity is not None:
            return self.identity
        cached: str | None = self.__dict__.get("_fingerprint")
        if cached is None:
            import json

            payload = self.to_payload(with_tokens=False)
            canonical = json.dumps(payload, sort_keys=True, ensure_ascii=True)
            cached = hashlib.sha256(canonical.encode("ascii")).hexdigest()
            self.__dict__["_fingerprint"] = cached
        return cached

    def token_counts(self, fmt: Format) -> list[int]:
        """Tokens of each rendered entry (o200k_base), computed once per format."""
        cache: dict[Format, list[int]] = self.__dict__.setdefault("_token_cache", {})
        if fmt not in cache:
            from schemanav.tokens import count_many

            cache[fmt] = count_many(self.texts(fmt))
        return cache[fmt]

    def remember_token_counts(self, counts: dict[Format, list[int]]) -> None:
        """Token counts computed earlier (read back from the corpus cache), one per entry."""
        for fmt, per_entry in counts.items():
            if len(per_entry) != len(self.entries):
                raise ValueError(f"{len(per_entry)} {fmt} token counts for {len(self)} entries")
        self.__dict__.setdefault("_token_cache", {}).update(counts)

    def total_tokens(self, fmt: Format) -> int:
        return sum(self.token_counts(fmt))

    def to_payload(self, *, with_tokens: bool = True) -> dict[str, Any]:
        """Everything `from_payload` needs, JSON-ready, token counts of every format included
        (unless `with_tokens` is False)."""
        payload: dict[str, Any] = {
            "roots": [self.query_root, self.mutation_root, self.subscription_root],
            "possible_types": self.possible_types,
            "type_descriptions": self.type_descriptions,
            "enum_values": self.enum_values,
            "input_fields": self.input_fields,
            # Column by column: a cache read decodes and type-checks a column at once.
            "entries": {
                "owner": [e.owner for e in self.entries],
                "field": [e.field for e in self.entries],
                "return_type": [e.return_type for e in self.entries],
                "description": [e.description for e in self.entries],
                "owner_is_interface": [e.owner_is_interface for e in self.entries],
                "deprecation": [e.deprecation for e in self.entries],
                "argument_count": [len(e.arguments) for e in self.entries],
            },
            "arguments": {
                "name": [a.name for e in self.entries for a in e.arguments],
                "type": [a.type for e in self.entries for a in e.arguments],
                "description": [a.description for e in self.entries for a in e.arguments],
                "default": [a.default for e in self.entries for a in e.arguments],
            },
        }
        if with_tokens:
            payload["tokens"] = {fmt.value: self.token_counts(fmt) for fmt in Format}
        return payload

    @classmethod
    def from_payload(cls, payload: Any, identity: str | None = None) -> Corpus:
        """The corpus `to_payload` described, from a payload `packed.unpack` read and
        checked: it converts and checks nothing itself (ValueError or KeyError at most).

        Its records are made from the columns as they are read (`Records`): a warm search
        reads a few hundred of a schema's fields, and making a record for each of the 26,560
        of a schema four times GitHub's took a tenth of the search."""
        query_root, mutation_root, subscription_root = payload["roots"]
        columns = payload["entries"]
        records = Records(columns, payload["arguments"])
        corpus = cls(
            entries=records,
            query_root=query_root,
            mutation_root=mutation_root,
            subscription_root=subscription_root,
            possible_types={str(k): tuple(v) for k, v in payload["possible_types"].items()},
            type_descriptions={str(k): str(v) for k, v in payload["type_descriptions"].items()},
            enum_values={str(k): tuple(v) for k, v in payload["enum_values"].items()},
            input_fields={str(k): tuple(v) for k, v in payload["input_fields"].items()},
            identity=identity,
        )
        records._corpus = weakref.ref(corpus)
        corpus.remember_token_counts({fmt: list(payload["tokens"][fmt.value]) for fmt in Format})
        # The columns searches read, from the columns at hand rather than from the records.
        owners, returns = columns["owner"], columns["return_type"]
        named = {text: text.strip("[]!") for text in set(returns)}
        corpus.__dict__.update(
            owner_column=owners,
            field_column=columns["field"],
            target_column=[named[t] for t in returns],
            return_type_column=returns,
            argument_counts=columns["argument_count"],
        )
        return corpus

    def content_hash(self, fmt: Format) -> str:
        """A digest of the rendered texts, so caches built on them notice any change."""
        digest = hashlib.sha256(fmt.value.encode())
        for text in self.texts(fmt):
            digest.update(b"\x00")
            digest.update(text.encode("utf-8"))
        return digest.hexdigest()


def build_corpus(schema: GraphQLSchema) -> Corpus:
    """One entry per field of every object and interface type (introspection types excluded)."""
    from graphql import (
        GraphQLEnumType,
        GraphQLInputObjectType,
        GraphQLInterfaceType,
        GraphQLObjectType,
        GraphQLUnionType,
    )

    entries: list[CorpusEntry] = []
    possible_types: dict[str, tuple[str, ...]] = {}
    type_descriptions: dict[str, str] = {}
    enum_values: dict[str, tuple[str, ...]] = {}
    input_fields: dict[str, tuple[str, ...]] = {}
    for type_name, graphql_type in schema.type_map.items():
        if type_name.startswith("__"):
            continue
        description = _clean(getattr(graphql_type, "description", None))
        if description:
            type_descriptions[type_name] = description
        if isinstance(graphql_type, GraphQLEnumType):
            enum_values[type_name] = tuple(graphql_type.values)
        if isinstance(graphql_type, GraphQLInputObjectType):
            input_fields[type_name] = tuple(graphql_type.fields)
        if isinstance(graphql_type, GraphQLInterfaceType | GraphQLUnionType):
            possible_types[type_name] = tuple(
                t.name for t in schema.get_possible_types(graphql_type)
            )
        if not isinstance(graphql_type, GraphQLObjectType | GraphQLInterfaceType):
            continue
        is_interface = isinstance(graphql_type, GraphQLInterfaceType)
        for field_name, field_def in graphql_type.fields.items():
            entries.append(
                CorpusEntry(
                    owner=type_name,
                    field=field_name,
                    return_type=str(field_def.type),
                    description=_clean(field_def.description),
                    arguments=tuple(
                        Argument(
                            name=arg_name,
                            type=str(arg.type),
                            description=_clean(arg.description),
                        )
                        for arg_name, arg in field_def.args.items()
                    ),
                    owner_is_interface=is_interface,
                    deprecation=field_def.deprecation_reason,
                )
            )
    return Corpus(
        entries=tuple(entries),
        query_root=schema.query_type.name if schema.query_type else None,
        mutation_root=schema.mutation_type.name if schema.mutation_type else None,
        subscription_root=schema.subscription_type.name if schema.subscription_type else None,
        possible_types=possible_types,
        type_descriptions=type_descriptions,
        enum_values=enum_values,
        input_fields=input_fields,
    )


def _clean(description: str | None) -> str | None:
    if description is None:
        return None
    stripped = description.strip()
    return stripped or None
