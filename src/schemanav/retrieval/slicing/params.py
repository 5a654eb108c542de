"""What a slice takes (`SliceParams`) and what it gives (`SchemaSlice`), with the fixed sizes of
the mechanisms whose other values lost in benchmarks/slice-experiments.md ("Knobs deleted")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

BUILTIN_SCALARS = frozenset({"String", "Int", "Float", "Boolean", "ID"})
DEFAULT_ROOT_NAMES = ("Query", "Mutation", "Subscription")
# The Relay cursor-connections specification names the page-size argument `first`.
PAGE_SIZE_ARGUMENT = "first"
# …the cursor a page starts after, and what `pageInfo` tells of the next page.
PAGE_CURSOR_ARGUMENT = "after"
PAGE_INFO_FIELDS = ("hasNextPage", "endCursor")
CONNECTION_FIELDS = frozenset({"edges", "nodes", "pageInfo"})
# A list's paging arguments beside its page size: the optional scalars that at least this
# share of the schema's lists taking the page size take too (`SchemaTables.paging_arguments`).
PAGING_SHARE = 0.6
# How many of a type's cheapest ways in a slice weighs: bounds the work for a type that
# thousands of fields lead into (every implementation of a wide interface); the widest
# type of the bundled schemas has a few hundred.
MAX_WAYS_IN = 512
# Past this share of the budget, a slice keeps a copy of itself before each hit, so a hit
# that does not fit is undone without replaying the others.
SNAPSHOT_FROM = 0.9
# The share of the budget kept from ranked hits for connectives and the fill; 0.1 and 0.3
# lost in the corpus grid (slice-experiments.md, "Knobs deleted").
RESERVE = 0.2
# …and for a request whose write ranks first, within budgets up to `WRITE_RESERVE_UNTIL`
# tokens: its answer (the payload, what it changes) is what the completion serves, and the
# reads ranked after the write are what a small slice can spare (slice-experiments.md, "A
# request's write first: room for its answer").
WRITE_RESERVE = 0.4
WRITE_RESERVE_UNTIL = 4000

# The sizes below were each tried at half and twice their value on every set of the corpus
# (`python scripts/corpus_parameters.py`; slice-experiments.md, "The slicer's sizes on the
# corpus"): three values moved by the corpus rule, `PLURAL_WAY_FIELDS` (3 → 2),
# `SUBJECT_LEAVES` (16 → 32) and, with the write reserve in, `VALUE_FIELDS` (4 → 6); on
# fourteen sets, three more, each chosen in sample and by every held-out set or all but one:
# `SUBJECT_LEAVES` (32 → 16), `EARLY_COMPLETION_SHARE` (0.04 → 0.02) and
# `ENTRY_ARGUMENTS_TOTAL` (0.02 → 0.04).
# A new object type shows this many of its leaves by the question's scores.
FILLER_LEAVES = 3
# An object type of at most this many fields, all leaves without arguments and none
# identifying it, is a value (a point's `x`/`y`, a key and its value): an answer reads it whole.
VALUE_FIELDS = 6
# …and this many labels (the `String!` leaves most types share: `name`, `title`).
LABELS = 2
# Mutation hits enter only while no more hits than this are in (the first is a write), unless
# the question asks for one (`schemanav.question`): a mutation's inputs and payload cost much
# and a reader needs none of them. (3 until the gated writes below; 1 won on the corpus grid.)
WRITE_GATE = 1
# …but from a rung of this many tokens, a slice with room left once it is complete shows the
# main hits the gate kept out: room a reader's slice would not spend.
GATED_WRITES_FROM = 4_000
# A type with this many hits is the question's subject: it gets a way in through a list,
# fields to the other subjects and, when small, every leaf.
SUBJECT_HITS = 3
# A list way into a type named in the plural (or a subject) may add at most this many fields.
PLURAL_WAY_FIELDS = 2
# Connectives add fields between two types of the slice while at most this many are shown.
CONNECTIVES_PER_PAIR = 2
# The first hits show every argument they take (their filters and orderings).
TOP_ARGUMENTS = 2
# …when they take at most this many (a field with dozens of filters shows those named); so
# does a field returning one object whose arguments are all optional.
TOP_ARGUMENTS_CAP = 16
# An enum an argument takes directly with more values than this shows the ones named.
ARGUMENT_ENUM_CAP = 8
# From a rung of this many tokens, the types a slice holds once its ranked hits are in show
# their leaves and values within this share of the budget before the fill (an operation selects
# more of a type than a question names); below it, every token goes to ranked hits.
EARLY_COMPLETION_FROM = 2_000
EARLY_COMPLETION_SHARE = 0.02
# …and from the same rung, the tree of the way the question enters (its best-ranked root field,
# or its write: `answer`) within this share more: an operation selects its answer's parts.
ANSWER_TREE_SHARE = 0.04
# …and at every rung up to `WRITE_RESERVE_UNTIL`, within this share, for a request whose write
# ranks first (the write reserve's case): the room the reserve keeps is for the write's
# answer, which a client's operation selects whole (the changed page's author, the product's
# status), before the fill takes hits anywhere in the schema (slice-experiments.md, "A
# request's write first: its answer before the fill").
WRITE_ANSWER_SHARE = 0.3
# …and at every rung, within this share, for a question that lists many things it wants of
# an object (`schemanav.question`: "its status, tags, pictures, title and description").
LISTING_COMPLETION_SHARE = 0.08
# A small subject (at most this many leaves) shows them all within this share of the budget.
SUBJECT_LEAVES = 16
SUBJECT_LEAVES_SHARE = 0.02
# An entry field (a root's, or of a type grouping them) shows every argument it offers while
# they cost at most this share of the budget a field, and the second share in all.
ENTRY_ARGUMENTS_SHARE = 0.01
ENTRY_ARGUMENTS_TOTAL = 0.04
# …and from a rung of `EARLY_COMPLETION_FROM` tokens, the lists further in show theirs while
# they cost at most this share of the budget in all (chosen on the corpus against 0.005 and
# 0.02: slice-experiments.md).
LIST_ARGUMENTS_TOTAL = 0.01
# From a rung of this many tokens a slice has room to show what a client's operation writes
# though the question does not say it: each list of the question's hits' types is paged
# (`ClosedState.pageable`: its cursor and `pageInfo`), a field an object shows that an
# interface no field returns declares is shown on that interface too
# (`SchemaTables.fragment_interfaces`: the operation selects it through a fragment on it; from
# `EARLY_COMPLETION_FROM` when the question names the field), and
# each leaf shown shows the optional arguments shaping its value (`Growth.add_value_arguments`).
OPERATION_ROOM_FROM = 8_000
# …an interface declaring at most this share of an object's fields is one of its capabilities
# (`AccountWithHost { host hostFeePercent … }`); one declaring more is another view of the
# object, whose fields the slice would show twice (Dagster's `PipelineRun` beside `Run`).
CAPABILITY_SHARE = 0.5
# In the fill, a union member enters for a hit when its union has at most this many possible
# types and the member costs at most this share of the budget.
FILL_MEMBER_CAP = 16
FILL_MEMBER_SHARE = 0.02


@dataclass(frozen=True)
class SliceParams:
    """The options a slice still takes; every other knob tried lost and its value is built in.

    `arguments` (every argument: exact signatures; only the required ones), `descriptions`
    (the fields' descriptions, whole or their first sentence) and `indent` (graphql-core's
    two spaces) choose how the SDL reads, at a cost in tokens. `fill`: past the first ranked
    hit that does not fit, cheaper hits further down still go in (`Growth.fill`); off, the
    slice stops there.
    `complete`: a slice with budget left once every ranked hit is in, or once the fill found
    nothing more that fits, shows the other fields of the types it holds (`Growth.complete`);
    off, it holds the hits, their ways in and what they bring only.
    """

    arguments: Literal["all", "selected", "required"] = "selected"
    descriptions: Literal["none", "first-sentence", "full"] = "none"
    indent: int = 1
    fill: bool = True
    complete: bool = True


@dataclass(frozen=True)
class SchemaSlice:
    """A slice: its SDL, what it costs (o200k_base) and every coordinate it shows.

    `fields` are `Type.field`, `arguments` are `Type.field(arg:)`, `types` are the names it
    defines (built-in scalars excluded); `hits` is how many ranked hits went in.
    """

    sdl: str
    tokens: int
    fields: tuple[str, ...]
    arguments: tuple[str, ...]
    types: tuple[str, ...]
    hits: int

    @property
    def coordinates(self) -> frozenset[str]:
        return frozenset((*self.fields, *self.arguments, *self.types))


EMPTY_SLICE = SchemaSlice("", 0, (), (), (), 0)
