"""Schema slices: the smallest connected piece of a schema that answers a question, as SDL.

A ranked list of coordinates leaves the agent to find the way from the root, the arguments and the
types those need. A slice hands over a schema of its own instead: the root fields, the object types
on the way, the fields the question needs with the arguments that select (required ones, a
connection's page size (Relay's `first`; in a schema whose lists take none, the integer argument
most of them take first, `limit`, when the question orders: "its last 5 runs"), the ones the
question's words name (a list's text search argument when it looks for a quoted text, "whose
name contains 'summer'"; its sort argument when it asks for an order, "newest first":
`conventions`), every argument of a field returning one object whose arguments are all
optional and of the first two hits, when at most 16, every argument of a write: its optional ones
are the user's inputs, and every argument of an entry field, a root's or a namespace's, while they
cost at most 1% of the budget each and 4% in all: an operation states its filters, order and page
there, and what a value answered there counts by (`productsCount(tags:)`); from 2,000 tokens,
every argument of a list further in, while they cost at most 1% in all:
`team { teamMembers(sortBy:) }`), and the input, enum and scalar types those arguments and
fields need (an enum of more than 8 values that an argument takes shows the values the question
names). A field shows the optional arguments its companions show (`orders` and `ordersCount`),
and a leaf its enum argument with a default (a unit). Hits are added in rank order, each with a way
in from the root (the one adding the fewest fields not yet in the slice), until the next one would
exceed 80% of the token budget (60% within 4,000 tokens for a request to change something whose
first hit is a write: its answer, not the reads ranked after it, is what the rest serves); the rest
goes first to connectives (fields not yet shown from a type in the slice to a type with a hit, each
costing only its line, at most two between two types), then, from 2,000 tokens, to a read's root
lookup of each type with hits (the way an operation asks for that object by its key; at every rung,
`node(id:)` for a read giving an opaque global identifier: `add_global_lookup`), a read's unions of
one object and its failures whole (every way the lookup can end), the leaves and values of the
slice's types within 4% of the budget and the answer's tree within 4% more (the types under the
best-ranked root field the slice shows, or a namespace's field where the schema groups its
operations under one, nearest first: `answer`; for a request whose first hit is a write, at every
rung up to 4,000 tokens and within 30%: the room its reserve keeps is for the write's answer), then
to hits further down (the whole ranking the slice was given, hits on the types the question asks a
set of first, then, from 2,000 tokens, those on the tree's types; none of type `ID`, none of the
query root or a namespace of it, from 2,000 tokens no write; `SliceParams.fill` turns this off)
that cost only their own line, or that lie on a member of a union in the slice (of at most 16
members) and bring it in for at most 2% of the budget; what budget is left then goes to the other
fields of the slice's types, no root's or namespace's (`SliceParams.complete`, `completion`): first
the leaves and the values each holds (an object type of at most six leaf fields, none an `ID` or an
identifier: a point's `x` and `y`), then fields leading to further types, and then to the other
members of the slice's unions (of at most 16 types), each with its best-ranked field, and last to
the optional arguments of every field shown (a list's filters, sort and paging that an operation
passes though the question names none); a connection whose nodes the question names in the plural
shows its cursor and `pageInfo`, and so does a list whose connection's `pageInfo` the slice shows
already (the end cursor is read back through its `after`); a question that pages ("20 per page")
pages the lists of its hits' types by every paging argument the schema's lists take
(`conventions`: `last`, `before`, `offset` beside `first`); from a rung of 8,000 tokens
(`OPERATION_ROOM_FROM`) the lists of any question's hits' types show their cursor and
`pageInfo`, an object read through an interface shows its fields on the capability interfaces no
field returns that declare them (`... on AccountWithHost { host }`; those the question names from
a rung of 2,000), and each leaf shown shows the optional arguments shaping its value
(`imageUrl(height:)`); from a rung of 4,000 tokens, a read's main hits the write gate kept out
then go in while they fit, and the completion runs over what they bring; at every rung, an
association object (named for two types, `ProductMedia`) shows its one field to the second
(`file: Media`), what it holds. A type entering the slice brings its best leaves by the
question's scores (an interface, whose fields every implementation in the slice repeats, brings
none of those), the leaves that identify its objects (named like a lookup field's required
argument) and its labels (the `String!` leaves most types share), and the item of a list its `id`
when nothing else identifies it;
a type of at most 32 leaves that gets its third hit shows them all, when they cost at most 2% of the
budget; a write enters when it is the first hit or the question asks for one (an imperative
sentence, `schemanav.question`), or, from a rung of 4,000 tokens, when it is among a read's main
hits and the complete slice has room left (`completion`), and brings the `id` of each type it takes
objects of by their `id` and, one of the first two hits, its payload's field returning the object it
changes (named after it, or a Relay edge to it with its `node`; a payload is a type only writes
return, and the subscriptions' events that hand it on: `writes`); a write is a field of the mutation
root or of a namespace of it (`schemanav.corpus.groups`: a type only argument-less fields of a root
return, at least half of whose fields take arguments, `Mutation.formBuilder: FbMutation`), and a
namespace is a way in as its root is; a connection shows its way to its nodes (`nodes`, another list
of them, or `edges { node }`: `connections`); a union that may return the outcome most of the
schema's unions share (the error of every `…OrError` union) shows it whole, with its parts (the
types only it and its parts return) whole and the leaves of the other types its fields bring, a type
carrying the envelope most answers carry (`error` beside `data`) shows it, whole, and a write
returning a union (of at most 16 types) shows every member with its best-ranked field, each way the
write can end (`build.Growth.add_write_outcomes`). Ways in are closed over the schema's shape:
fields into a union or interface through which a hit's type is reached (the best of each type in the
slice, no root's), a query field without arguments returning a type in the slice (a viewer), a list
way into a type with several hits, and the single-object fields between types with several hits
each. Fields are indented by one space (tokens are the budget). The question is read once, by the
schema's one reader, and the slice takes the reading its ranking made (`Ranking.reading`,
`schemanav.question.vocabulary.QuestionReading`; read afresh only for a backend that hands none):
its words, marked when it is in time, pages, sorts, looks for text or names a quoted value, the
types it asks a set of, names, or names as one object, and whether it asks for a write.

A larger budget never shows less: for one question and one ranking, the slice within B holds
every field, argument and type of the slice within any smaller budget. Grown afresh for each
budget it would not (the main hits' frontier moves with the budget, and a smaller slice's fill
or completion may take a line a larger one spends elsewhere), so budgets climb a fixed ladder
(`ladder`: 500, 1,000, 2,000, … tokens, `schemanav.defaults.slice_rung`), each rung's slice
built on the slice within the rung below: under 2,000 tokens the rung's own slice is grown
afresh and its steps laid over the one below while they fit (a small budget is mostly main
hits, which the smaller slice's fill would crowd out); from 2,000 up the rung grows, by the
steps above, from the slice below (its hits passed over as in, the whole slice counting
against the main budget), so the best hits' types are completed before the slice reaches
further down. A budget between two rungs, or under the first, takes the rung below's slice and
the longest prefix of the upper rung's steps that fits. For a request to change something, the
rungs from `WIDE_WRITES_FROM` tokens read the ranking with the writes weighed more
(`Ranking.wide`): a slice that large holds several writes, and the one asked for in other
words should be among them. Each rung reads the ranking as deep as
a slice of its budget does (`slice_rank_depth` ranks a budget as deep as its upper rung), and
the rungs of the latest question are remembered, so a run slicing one question within several
budgets builds each once.

The package, in the order a slice is made: `params` (the options and the fixed sizes),
`fields` (what a slice needs of one field), `connections` (a Relay connection's shape), `writes`
(the objects a mutation takes, its payloads' errors and changed objects), `outcomes` (how the
schema reports an outcome: its shared outcome, envelopes, entry fields and the parts of a
type), `conventions`
(how the schema's lists take their arguments: the page size and the arguments paging takes, text
search, sort), `tables` (what a slicer precomputes per schema: ways in, labels, values, the
root's lookups),
`arguments` (what the lists' arguments say of the objects they return), `answer` (the types
under a root field, by depth), `state` (a slice's record
and its token count), `closure` (fields and types entering, keeping the slice a valid piece of
the schema), `growth` (ranked hits with their ways in), `ladder` (the rungs a slice climbs, and
the prefix a budget between two takes), `build` (the growth within a budget: main hits,
connectives, a read's lookups and outcomes, the answer's tree, the fill, the completion, the
trim), `slicer` (a
question's ranking up the ladder) and `render` (the SDL).
"""

from schemanav.retrieval.slicing.params import EMPTY_SLICE, SchemaSlice, SliceParams
from schemanav.retrieval.slicing.slicer import Slicer

__all__ = ["EMPTY_SLICE", "SchemaSlice", "SliceParams", "Slicer"]
